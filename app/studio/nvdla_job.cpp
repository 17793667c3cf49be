#include "nvdla_job.h"

#include "nvdla/compile/legalization.h"
#include "nvdla/compile/unit_mapping.h"
#include "base/error.h"
#include "interp/interpreter.h"
#include "nvdla/simulator/descriptor_simulator.h"
#include "nvdla_project/nvdla_project_writer.h"
#include "nvdla_project/nvdla_sample.h"

#include <QFileInfo>
#include <QRegularExpression>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <regex>
#include <unordered_map>

namespace tessera::studio {

std::vector<NvdlaTargetEntry> nvdlaTargets()
{
    std::vector<NvdlaTargetEntry> entries;
    for (const target::NvdlaConfig& config : target::nvdlaConfigs())
        for (target::NvdlaPrecision precision : config.precisions) {
            const QString name = QString::fromStdString(config.name);
            const QString precisionName = QString(target::nvdlaPrecisionName(precision));
            entries.push_back({"nvdla:" + name + ":" + precisionName, "NVDLA " + name + " " + precisionName.toUpper()});
        }
    return entries;
}

std::optional<NvdlaTarget> parseNvdlaTarget(const QString& target)
{
    const QStringList parts = target.split(':');
    if (parts.size() != 3 || parts[0] != "nvdla")
        return std::nullopt;
    try {
        NvdlaTarget result;
        result.config = target::nvdlaConfig(parts[1].toStdString()).name;
        result.precision = target::parseNvdlaPrecision(parts[2].toStdString());
        return result;
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

NvdlaOutcome nvdlaJob(std::shared_ptr<const Session> session, const NvdlaTarget& target)
{
    NvdlaOutcome result;
    const auto start = std::chrono::steady_clock::now();
    try {
        // The compilation carries its capability report; when nodes do not map it throws, and the
        // report is made as `tessera nvdla check` makes it.
        nvdla::NvdlaCompileOptions options;
        options.config = target.config;
        options.precision = target.precision;
        try {
            result.compilation =
                std::make_shared<const nvdla::NvdlaCompilation>(nvdla::compileForNvdla(session->graph(), options));
            result.mapping = result.compilation->mapping;
        } catch (const UnsupportedError& error) {
            result.error = QString::fromStdString(error.what());
            const target::NvdlaConfig& config = target::nvdlaConfig(target.config);
            nvdla::requirePrecision(config, target.precision);
            Graph legalized = session->graph();
            nvdla::LegalizationLog log;
            nvdla::legalize(legalized, config, log);
            result.mapping = nvdla::mapToUnits(legalized, config, target.precision, log);
            if (!result.mapping->ok())
                result.error = QString::fromStdString(result.mapping->problems());
        }
        result.modelNodes = nvdla::mapModelNodes(session->graph(), *result.mapping);
    } catch (const std::exception& error) {
        result.error = QString::fromStdString(error.what());
    }
    result.milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return result;
}

std::vector<const nvdla::EmittedNode*> emittedFor(const NvdlaOutcome& outcome, const Graph& model, NodeId node)
{
    std::vector<const nvdla::EmittedNode*> result;
    if (!outcome.compilation || node < 0 || std::size_t(node) >= outcome.modelNodes.size())
        return result;
    const nvdla::ModelNodeMapping& m = outcome.modelNodes[std::size_t(node)];
    std::string runner = m.doneBy.empty() ? model.node(node).name : m.doneBy;
    // split-input-channels hands a convolution's work to its first part, "<conv>_channels0": the
    // parts together do it.
    static const std::regex firstPart("(.*)_channels0");
    if (std::smatch match; std::regex_match(runner, match, firstPart))
        runner = match[1];
    for (const nvdla::EmittedNode& emitted : outcome.compilation->emitted)
        if (emitted.node == runner || emitted.node.rfind(runner + "_channels", 0) == 0)
            result.push_back(&emitted);
    return result;
}

NvdlaSteps nvdlaSteps(const NvdlaOutcome& outcome, const Graph& model)
{
    NvdlaSteps result;
    if (!outcome.compilation)
        return result;
    const nvdla::NvdlaCompilation& compilation = *outcome.compilation;
    std::unordered_map<std::string, int> stepOfOperation;  // legalized node name -> its step
    const std::vector<NodeId>& operations = compilation.surfaces.operations;
    for (std::size_t step = 0; step < operations.size(); ++step)
        stepOfOperation.emplace(compilation.legalized.node(operations[step]).name, int(step));
    result.nodesOfStep.resize(qsizetype(operations.size()));
    for (NodeId node = 0; node < NodeId(model.nodeCount()); ++node) {
        const QString name = QString::fromStdString(model.node(node).name);
        std::vector<int> steps;
        for (const nvdla::EmittedNode* emitted : emittedFor(outcome, model, node))
            if (const auto found = stepOfOperation.find(emitted->node); found != stepOfOperation.end())
                steps.push_back(found->second);
        if (steps.empty())
            continue;
        std::sort(steps.begin(), steps.end());
        steps.erase(std::unique(steps.begin(), steps.end()), steps.end());
        result.stepOfNode.insert(name, steps.front());
        for (int step : steps)
            result.nodesOfStep[step] << name;
    }
    return result;
}

NvdlaNodeMarks nvdlaNodeMarks(const NvdlaOutcome& outcome, const Graph& model)
{
    NvdlaNodeMarks result;
    for (NodeId n = 0; n < NodeId(outcome.modelNodes.size()); ++n) {
        const nvdla::ModelNodeMapping& m = outcome.modelNodes[std::size_t(n)];
        QString mark, explanation;
        const bool fused = std::any_of(m.passes.begin(), m.passes.end(), [](const std::string& pass) {
            return pass.rfind("fuse-activation", 0) == 0;
        });
        if (fused && m.problem.empty() && !m.doneBy.empty()) {
            mark = "fused";
            explanation = "runs in the SDP of " + QString::fromStdString(m.doneBy);
        } else if (m.problem.empty()) {
            std::size_t convolutions = 0, parts = 0, bands = 0;
            for (const nvdla::EmittedNode* emitted : emittedFor(outcome, model, n)) {
                for (const std::string& operation : emitted->operations)
                    convolutions += operation.rfind("CONV ", 0) == 0;
                for (const nvdla::ConvolutionBufferUse& use : emitted->convolutionBuffer) {
                    ++parts;
                    bands = std::max<std::size_t>(bands, use.bands);
                }
            }
            if (convolutions > 1) {
                mark = QString("split \u00d7%1").arg(convolutions);
                explanation = QString("runs as %1 CONV operations: %2 part%3 (input-channel slices, groups or "
                                      "blocks of channels)%4")
                                  .arg(convolutions)
                                  .arg(parts)
                                  .arg(parts == 1 ? "" : "s")
                                  .arg(bands > 1 ? QString(", in up to %1 bands of output rows").arg(bands) : QString());
            }
        }
        result.marks << mark;
        result.explanations << explanation;
    }
    return result;
}

NvdlaRunOutcome simulateNvdlaJob(std::shared_ptr<const Session> session,
                                 std::shared_ptr<const nvdla::NvdlaCompilation> compilation, const QString& inputFile)
{
    NvdlaRunOutcome result;
    try {
        const nvdla::NvdlaCompilation& c = *compilation;
        const nvdla::NvdlaSample sample =
            inputFile.isEmpty() ? nvdla::nvdlaSample(c) : nvdla::nvdlaSampleFromFile(c, inputFile.toStdString());
        // The reference: every tensor of the model on the real values the network sees.
        const Graph& model = session->graph();
        std::vector<TensorData> realInputs;
        for (std::size_t k = 0; k < sample.realInputs.size() && k < model.inputs.size(); ++k)
            realInputs.push_back(TensorData::fromDoubles(DType::Float32, model.tensor(model.inputs[k]).shape,
                                                         sample.realInputs[k].toDoubles()));
        std::map<std::string, TensorData> reference;
        Interpreter(model).run(realInputs, [&](std::size_t, const Node& node, const std::vector<TensorData>& outputs) {
            for (std::size_t k = 0; k < outputs.size() && k < node.outputs.size(); ++k)
                reference.insert_or_assign(model.tensor(node.outputs[k]).name, outputs[k]);
        });
        std::map<std::pair<int, std::size_t>, TensorData> written;
        const nvdla::SimulationResult simulated = nvdla::simulateLoadable(
            c.loadable, sample.inputs, target::nvdlaConfig(c.config),
            [&](std::uint16_t task, std::size_t operation, const TensorData& cube) {
                written.insert_or_assign({int(task), operation}, cube);
            });
        const QRegularExpression operationName("^([A-Z]+) (\\d+)");
        double worst = 0;
        QString worstNode;
        std::size_t compared = 0;
        for (const nvdla::EmittedNode& emitted : c.emitted) {
            NvdlaRunRow row;
            row.node = QString::fromStdString(emitted.node);
            QStringList operations;
            std::vector<const TensorData*> parts;
            for (const std::string& operation : emitted.operations) {
                operations << QString::fromStdString(operation);
                const QRegularExpressionMatch match = operationName.match(QString::fromStdString(operation));
                if (match.hasMatch())
                    if (const auto found = written.find({emitted.task, std::size_t(match.captured(2).toULongLong())});
                        found != written.end())
                        parts.push_back(&found->second);
            }
            row.operations = QString("task %1: %2").arg(emitted.task).arg(operations.join(", "));
            std::string tensorName;
            for (NodeId n = 0; n < NodeId(c.legalized.nodeCount()); ++n)
                if (c.legalized.node(n).name == emitted.node && !c.legalized.node(n).outputs.empty())
                    tensorName = c.legalized.tensor(c.legalized.node(n).outputs[0]).name;
            const auto expected = reference.find(tensorName);
            if (parts.empty()) {
                row.note = "on the CPU or in planes: its output is checked where it is read";
            } else if (expected == reference.end()) {
                row.note = "a tensor legalization made (no tensor of the model to compare with)";
            } else if (parts.size() > 1 || parts.front()->elements() != expected->second.elements()) {
                row.note = QString("written in %1 parts (bands or slices): the next node's check covers it").arg(parts.size());
            } else {
                const TensorData& cube = *parts.front();
                row.shape = QString::fromStdString(shapeToString(cube.shape()));
                const double scale = c.int8 ? c.int8->scales.at(tensorName) : 1.0;
                for (std::int64_t i = 0; i < cube.elements(); ++i) {
                    const double value = cube.getDouble(i) * scale, want = expected->second.getDouble(i);
                    row.largestDifference = std::max(row.largestDifference, std::abs(value - want));
                    row.largestReference = std::max(row.largestReference, std::abs(want));
                }
                row.compared = true;
                ++compared;
                const double relative = row.largestDifference / std::max(row.largestReference, 1e-6);
                if (relative >= worst) {
                    worst = relative;
                    worstNode = row.node;
                }
            }
            result.rows.push_back(std::move(row));
        }
        const QString source = !inputFile.isEmpty()          ? QFileInfo(inputFile).fileName()
                               : sample.imageName.empty() ? QString("the sample input, seeded")
                                                          : "the sample input " + QString::fromStdString(sample.imageName);
        result.summary = QString("simulated %1 operations on %2: %3 nodes compared with the "
                                 "reference, the largest difference %4 of the largest value, at '%5'")
                             .arg(simulated.trace.size())
                             .arg(source)
                             .arg(compared)
                             .arg(worst, 0, 'g', 3)
                             .arg(worstNode);
    } catch (const std::exception& error) {
        result.error = QString::fromStdString(error.what());
    }
    return result;
}

NvdlaExportOutcome exportNvdlaProjectJob(std::shared_ptr<const nvdla::NvdlaCompilation> compilation,
                                         const QString& folder)
{
    NvdlaExportOutcome result;
    result.folder = folder;
    try {
        nvdla::exportNvdlaProject(*compilation, folder.toStdString());
        result.summary = QString("NVDLA project for %1 %2 in %3: model.nvdla (%4 bytes), the sample input and its "
                                 "expected output, run.sh")
                             .arg(QString::fromStdString(compilation->config),
                                  QString(target::nvdlaPrecisionName(compilation->precision)).toUpper(), folder)
                             .arg(qint64(compilation->bytes.size()));
    } catch (const std::exception& error) {
        result.error = QString::fromStdString(error.what());
    }
    return result;
}

} // namespace tessera::studio
