#pragma once
// The work the studio does off the GUI thread, as plain functions returning a value or an error
// message (never throwing across the thread boundary).
#include "ir/graph.h"
#include "layout/graph_layout.h"
#include "memory/hierarchy_planner.h"
#include "session/session.h"

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
    qint64 flash = 0;
    bool operator==(const Budgets&) const = default;
};

// What the session is asked for: the target and the bar's budgets (the privileged flash, which the
// bar does not show, is the chip's default, as on the command line).
SessionChoices sessionChoices(const QString& target, const Budgets& budgets);

struct LoadedModel {
    std::shared_ptr<const Session> session;
    QString error;
};

struct LaidOutModel {
    std::optional<GraphLayout> layout;
    QString error;
};

// The deployed graph's plan as the timeline draws it (core/session/deployed_memory_plan.h).
struct PlanOutcome {
    std::optional<HierarchyPlan> plan;
    std::optional<gap::GapPlan> gapPlan;
    QString error;
    qint64 l2Budget = 0;
    std::optional<BudgetShortfall> shortfall;  // when a budget is too small: which, and what works
    double milliseconds = 0;
    // The ONNX tensor each deployed graph symbol holds, and the symbols of each ONNX tensor.
    QHash<QString, QString> modelTensorOf;
    QMultiHash<QString, QString> symbolsOf;
    // The deployed graph's steps (its layers, in execution order) and the ONNX nodes each runs.
    QStringList stepLayers;
    QHash<QString, int> stepOfNode;  // ONNX node name -> step
    QList<QStringList> nodesOfStep;
};

// The panels of the memory timeline for a GAP chip: the deployed plan's memories
// (deployedPlanLevels), so every placement has its panel.
QStringList gapTimelineLevels(const QString& target);

// A GAP project written by the exporter: where, the kernels' tiling report, a one-line summary,
// and how each ONNX node was tiled: the GAP layer it went into and that layer's figures.
struct ExportOutcome {
    QString folder;
    QString tilingReport;  // the file written; the Tiling dock is given tiledModel in process
    std::shared_ptr<const tiler::KernelModel> tiledModel;
    qint64 l1Budget = 0;
    QString summary;
    QString error;
    QHash<QString, QString> layerOfNode;   // ONNX node name -> GAP layer (user kernel) name
    QHash<QString, QString> layerFigures;  // GAP layer name -> tiles, L1, DMA, MACs, estimated cycles
    QHash<QString, QStringList> nodesOfLayer; // GAP layer name -> the ONNX nodes fused into it
};

LoadedModel loadModelJob(const QString& path);
LaidOutModel layoutJob(std::shared_ptr<const Graph> graph, const BoxSizer& sizer, LayoutDirection direction);
// The session's plan of the deployed graph at these choices: what Export writes with them.
PlanOutcome planJob(std::shared_ptr<const Session> session, const SessionChoices& choices);
// File > Export GAP project: the session's compilation with these choices (the plan shown), then
// the GAP project exporter, as `tessera compile` does.
ExportOutcome exportGapProjectJob(std::shared_ptr<const Session> session, const SessionChoices& choices,
                                  const QString& folder);

} // namespace tessera::studio
