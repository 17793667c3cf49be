#pragma once
// The work the studio does off the GUI thread, as plain functions returning a value or an error
// message (never throwing across the thread boundary).
#include "ir/graph.h"
#include "layout/graph_layout.h"
#include "memory/hierarchy_planner.h"

#include <QHash>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

namespace tessera::studio {

// The budgets of the budget bar, in bytes.
struct Budgets {
    qint64 l1 = 0;
    qint64 l2 = 0;
    qint64 l3 = 0;    // L3 RAM
    qint64 flash = 0; // 0: the target's flash
};

struct LoadedModel {
    std::shared_ptr<const Graph> graph;
    QString error;
};

struct LaidOutModel {
    std::optional<GraphLayout> layout;
    QString error;
};

struct PlanOutcome {
    std::optional<HierarchyPlan> plan;
    QString error;
    qint64 l2Budget = 0;
    double milliseconds = 0;
};

// A GAP project written by the exporter: where, the kernels' tiling report, a one-line summary,
// and how each ONNX node was tiled: the GAP layer it went into and that layer's figures.
struct ExportOutcome {
    QString folder;
    QString tilingReport;
    QString summary;
    QString error;
    QHash<QString, QString> layerOfNode;   // ONNX node name -> GAP layer (user kernel) name
    QHash<QString, QString> layerFigures;  // GAP layer name -> tiles, L1, DMA, MACs, estimated cycles
    QHash<QString, QStringList> nodesOfLayer; // GAP layer name -> the ONNX nodes fused into it
};

LoadedModel loadModelJob(const QString& path);
LaidOutModel layoutJob(std::shared_ptr<const Graph> graph, const BoxSizer& sizer);
// Plans the model's tensors across L2, L3 RAM and flash (L1 plays no part in this plan).
PlanOutcome planJob(std::shared_ptr<const Graph> graph, const QString& target, const Budgets& budgets);
// tessera compile for the studio: the model compiled for a GAP target with these budgets, then the
// GAP project exporter.
ExportOutcome exportGapProjectJob(std::shared_ptr<const Graph> graph, const QString& target, const Budgets& budgets,
                                  const QString& folder);

} // namespace tessera::studio
