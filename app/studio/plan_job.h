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

LoadedModel loadModelJob(const QString& path);
LaidOutModel layoutJob(std::shared_ptr<const Graph> graph, const BoxSizer& sizer);
PlanOutcome planJob(std::shared_ptr<const Graph> graph, const QString& target, qint64 l2Budget,
                    std::optional<qint64> l3Budget);

} // namespace tessera::studio
