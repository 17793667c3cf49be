#include "plan_job.h"

#include "gap/compile/gap_compiler.h"
#include "gap_project/gap_paths.h"
#include "gap_project/gap_project_writer.h"
#include "base/error.h"

#include "session/deployed_memory_plan.h"
#include "target/chip_table.h"

#include <QDir>

#include <chrono>
#include <unordered_map>

namespace tessera::studio {

SessionChoices sessionChoices(const QString& target, const Budgets& budgets)
{
    SessionChoices choices;
    choices.target = target.toStdString();
    choices.budgets.l1 = std::uint64_t(std::max<qint64>(0, budgets.l1));
    choices.budgets.l2 = std::uint64_t(std::max<qint64>(0, budgets.l2));
    choices.budgets.l3 = std::uint64_t(std::max<qint64>(0, budgets.l3));
    choices.budgets.flash = std::uint64_t(std::max<qint64>(0, budgets.flash));
    return choices;
}

QStringList gapTimelineLevels(const QString& target)
{
    QStringList levels;
    for (const std::string& level : deployedPlanLevels(target::chip(target.toStdString())))
        levels << QString::fromStdString(level);
    return levels;
}

LoadedModel loadModelJob(const QString& path)
{
    LoadedModel result;
    try {
        result.session = std::make_shared<const Session>(Session::open(path.toStdString()));
    } catch (const std::exception& error) {
        result.error = QString::fromStdString(error.what());
    }
    return result;
}

LaidOutModel layoutJob(std::shared_ptr<const Graph> graph, const BoxSizer& sizer, LayoutDirection direction)
{
    LaidOutModel result;
    try {
        result.layout = layoutGraph(*graph, sizer, direction);
    } catch (const std::exception& error) {
        result.error = QString::fromStdString(error.what());
    }
    return result;
}

PlanOutcome planJob(std::shared_ptr<const Session> session, const SessionChoices& choices)
{
    PlanOutcome result;
    result.l2Budget = qint64(choices.budgets.l2.value_or(0));
    const auto start = std::chrono::steady_clock::now();
    try {
        const gap::GapPlan plan = session->plan(choices);
        const std::shared_ptr<const gap::GapDeployment> deployment = session->deployment(choices);
        const gap::GapNetwork& network = gap::plannedNetwork(*deployment, plan);
        for (const gap::GapTensor& tensor : network.tensors)
            if (tensor.source != kNoTensor) {
                const QString symbol = QString::fromStdString(tensor.name);
                const QString modelTensor = QString::fromStdString(session->graph().tensor(tensor.source).name);
                result.modelTensorOf.insert(symbol, modelTensor);
                result.symbolsOf.insert(modelTensor, symbol);
            }
        if (plan.ok()) {
            // Step n runs the layer of the allocation's node n.
            std::unordered_map<std::string, const gap::GapLayer*> layerNamed;
            for (const gap::GapLayer& layer : network.layers)
                layerNamed.emplace(layer.name, &layer);
            for (const tiler::NodeExecution& step : plan.allocation().nodes) {
                QStringList nodes;
                if (const auto layer = layerNamed.find(step.sourceKernel); layer != layerNamed.end())
                    for (const std::string& node : layer->second->nodes) {
                        nodes << QString::fromStdString(node);
                        result.stepOfNode.insert(nodes.back(), int(result.stepLayers.size()));
                    }
                result.stepLayers << QString::fromStdString(step.sourceKernel);
                result.nodesOfStep << nodes;
            }
            result.plan = deployedMemoryPlan(*deployment, plan);
            result.gapPlan = plan;
        } else {
            result.error = QString::fromStdString(plan.error());
            result.shortfall = plan.shortfall();
        }
    } catch (const std::exception& error) {
        result.error = QString::fromStdString(error.what());
    }
    result.milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return result;
}

ExportOutcome exportGapProjectJob(std::shared_ptr<const Session> session, const SessionChoices& choices,
                                  const QString& folder)
{
    ExportOutcome result;
    result.folder = folder;
    try {
        const gap::GapCompileResult compiled = gap::exportGapProject(*session, choices, folder.toStdString());
        result.tilingReport = QDir(folder).filePath(
            QString::fromStdString(compiled.network.name) + "Kernels.tiling.json");
        // The kernels as generated (with the variants streaming L3 tensors), kept alive by the plan.
        result.tiledModel = std::shared_ptr<const tiler::KernelModel>(compiled.plan.placed, &compiled.plan.placed->generated);
        result.l1Budget = qint64(compiled.budgets.l1);
        for (const gap::GapLayer& layer : compiled.network.layers) {
            const QString name = QString::fromStdString(layer.name);
            for (const std::string& node : layer.nodes) {
                result.layerOfNode.insert(QString::fromStdString(node), name);
                result.nodesOfLayer[name] << QString::fromStdString(node);
            }
            if (const std::optional<gap::GapLayerFigures> figures = gap::layerFigures(compiled.plan, layer.name))
                result.layerFigures.insert(
                    name, QString("%1 tiles, L1 %2 B, L2 DMA %3 B in / %4 B out, L3 %5 B, %6 MACs, about %7 cycles "
                                  "(estimated)")
                              .arg(figures->tiles)
                              .arg(qint64(figures->l1Bytes))
                              .arg(qint64(figures->l2Read))
                              .arg(qint64(figures->l2Write))
                              .arg(qint64(figures->l3Read + figures->l3Write))
                              .arg(qint64(figures->macs))
                              .arg(figures->estimatedCycles, 0, 'f', 0));
        }
        const tiler::GraphAllocation& memory = compiled.plan.allocation();
        result.summary = QString("GAP project for %1 in %2: %3 layers, L2 %4 B, L3 traffic %5 B per inference, "
                                 "compiled in %6 s")
                             .arg(QString::fromStdString(compiled.target.name), folder)
                             .arg(compiled.network.layers.size())
                             .arg(qint64(memory.l2Total()))
                             .arg(qint64(memory.l3Traffic))
                             .arg(compiled.seconds, 0, 'f', 2);
    } catch (const std::exception& error) {
        result.error = QString::fromStdString(error.what());
    }
    return result;
}

} // namespace tessera::studio
