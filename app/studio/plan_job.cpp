#include "plan_job.h"

#include "gap/compile/gap_compiler.h"
#include "gap_project/gap_paths.h"
#include "gap_project/gap_project_writer.h"
#include "ir/error.h"

#include <QDir>
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

ExportOutcome exportGapProjectJob(std::shared_ptr<const Graph> graph, const QString& target, qint64 l2Budget,
                                  std::optional<qint64> l3Budget, const QString& folder)
{
    ExportOutcome result;
    result.folder = folder;
    try {
        gap::GapCompileOptions options;
        options.target = target.toStdString();
        options.l2 = uint64_t(l2Budget);
        if (l3Budget)
            options.l3 = uint64_t(*l3Budget);
        const gap::GapCompileResult compiled = gap::compileForGap(*graph, options, folder.toStdString());
        gap::writeGapProject(*graph, compiled, gap::gapPaths().projectSources(), folder.toStdString());
        result.tilingReport = QDir(folder).filePath(
            QString::fromStdString(compiled.network.name) + "Kernels.tiling.json");
        const nlohmann::json& memory = compiled.generation.graph;
        result.summary = QString("GAP project for %1 in %2: %3 layers, L2 %4 B, L3 traffic %5 B per inference, "
                                 "compiled in %6 s")
                             .arg(QString::fromStdString(compiled.target.name), folder)
                             .arg(compiled.network.layers.size())
                             .arg(memory.value("l2_static", 0) + memory.value("l2_dynamic", 0))
                             .arg(memory.value("l3_traffic", qint64(0)))
                             .arg(compiled.seconds, 0, 'f', 2);
    } catch (const std::exception& error) {
        result.error = QString::fromStdString(error.what());
    }
    return result;
}

} // namespace tessera::studio
