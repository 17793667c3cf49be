#include "plan_job.h"

#include "gap/compile/gap_compiler.h"
#include "gap_project/gap_paths.h"
#include "gap_project/gap_project_writer.h"
#include "ir/error.h"

#include "memory/memory_hierarchy.h"
#include "session/model_loader.h"

#include <QDir>

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

PlanOutcome planJob(std::shared_ptr<const Graph> graph, const QString& target, const Budgets& budgets)
{
    PlanOutcome result;
    result.l2Budget = budgets.l2;
    const auto start = std::chrono::steady_clock::now();
    try {
        HierarchyPlanOptions options;
        options.l2Budget = budgets.l2;
        options.l3Budget = budgets.l3;
        MemoryHierarchy hierarchy = hierarchyForTarget(target.toStdString());
        if (MemoryLevel* flash = hierarchy.find(MemoryKind::L3Flash); flash && budgets.flash > 0)
            flash->size = budgets.flash;
        result.plan = planHierarchy(*graph, hierarchy, options);
    } catch (const std::exception& error) {
        result.error = QString::fromStdString(error.what());
    }
    result.milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return result;
}

ExportOutcome exportGapProjectJob(std::shared_ptr<const Graph> graph, const QString& target, const Budgets& budgets,
                                  const QString& folder)
{
    ExportOutcome result;
    result.folder = folder;
    try {
        gap::GapCompileOptions options;
        options.target = target.toStdString();
        options.l1 = uint64_t(budgets.l1);
        options.l2 = uint64_t(budgets.l2);
        if (budgets.l3 > 0)
            options.l3 = uint64_t(budgets.l3);
        if (budgets.flash > 0)
            options.flash = uint64_t(budgets.flash);
        const gap::GapCompileResult compiled = gap::compileForGap(*graph, options, folder.toStdString());
        gap::writeGapProject(*graph, compiled, gap::gapPaths().projectSources(), folder.toStdString());
        result.tilingReport = QDir(folder).filePath(
            QString::fromStdString(compiled.network.name) + "Kernels.tiling.json");
        for (const gap::GapLayer& layer : compiled.network.layers) {
            const QString name = QString::fromStdString(layer.name);
            for (const std::string& node : layer.nodes) {
                result.layerOfNode.insert(QString::fromStdString(node), name);
                result.nodesOfLayer[name] << QString::fromStdString(node);
            }
            if (const nlohmann::json* figures = gap::layerGenerationReport(compiled.generation.graph, layer.name))
                result.layerFigures.insert(
                    name, QString("%1 tiles, L1 %2 B, L2 DMA %3 B in / %4 B out, L3 %5 B, %6 MACs, about %7 cycles "
                                  "(estimated)")
                              .arg(figures->value("tiles", 0))
                              .arg(figures->value("l1_bytes", qint64(0)))
                              .arg(figures->value("l2_read", qint64(0)))
                              .arg(figures->value("l2_write", qint64(0)))
                              .arg(figures->value("l3_read", qint64(0)) + figures->value("l3_write", qint64(0)))
                              .arg(figures->value("operations", qint64(0)))
                              .arg(figures->value("estimated_cycles", 0.0), 0, 'f', 0));
        }
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
