#pragma once
// The work the studio does off the GUI thread, as plain functions returning a value or an error
// message (never throwing across the thread boundary).
#include "ir/graph.h"
#include "layout/graph_layout.h"
#include "memory/hierarchy_planner.h"

#include <QString>

#include <memory>
#include <optional>

namespace tessera::studio {

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

// A GAP project written by the exporter: where, the kernels' tiling report, and a one-line summary.
struct ExportOutcome {
    QString folder;
    QString tilingReport;
    QString summary;
    QString error;
};

LoadedModel loadModelJob(const QString& path);
LaidOutModel layoutJob(std::shared_ptr<const Graph> graph, const BoxSizer& sizer);
PlanOutcome planJob(std::shared_ptr<const Graph> graph, const QString& target, qint64 l2Budget,
                    std::optional<qint64> l3Budget);
// tessera compile for the studio: the model compiled for a GAP target with these budgets, then the
// GAP project exporter.
ExportOutcome exportGapProjectJob(std::shared_ptr<const Graph> graph, const QString& target, qint64 l2Budget,
                                  std::optional<qint64> l3Budget, const QString& folder);

} // namespace tessera::studio
