#include "plan_job.h"

#include "ir/error.h"
#include "session/model_loader.h"

#include <chrono>

namespace tessera::studio {

LoadedModel loadModelJob(const QString& path)
{
    LoadedModel result;
    try {
        result.graph = std::make_shared<const Graph>(loadModel(path.toStdString()));
    } catch (const std::exception& error) {
        result.error = QString::fromStdString(error.what());
    }
    return result;
}

LaidOutModel layoutJob(std::shared_ptr<const Graph> graph, const BoxSizer& sizer)
{
    LaidOutModel result;
    try {
        result.layout = layoutGraph(*graph, sizer);
    } catch (const std::exception& error) {
        result.error = QString::fromStdString(error.what());
    }
    return result;
}

PlanOutcome planJob(std::shared_ptr<const Graph> graph, const QString& target, qint64 l2Budget,
                    std::optional<qint64> l3Budget)
{
    PlanOutcome result;
    result.l2Budget = l2Budget;
    const auto start = std::chrono::steady_clock::now();
    try {
        HierarchyPlanOptions options;
        options.l2Budget = l2Budget;
        if (l3Budget)
            options.l3Budget = *l3Budget;
        result.plan = planHierarchy(*graph, hierarchyForTarget(target.toStdString()), options);
    } catch (const std::exception& error) {
        result.error = QString::fromStdString(error.what());
    }
    result.milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return result;
}

} // namespace tessera::studio
