#include "nvdla/compile/nvdla_compiler.h"

#include "base/error.h"
#include "interp/calibration.h"
#include "nvdla/loadable_validator.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <map>

namespace tessera::nvdla {

NvdlaCompilation compileForNvdla(const Graph& model, const NvdlaCompileOptions& options)
{
    const target::NvdlaConfig& config = target::nvdlaConfig(options.config);
    NvdlaCompilation result;
    result.config = config.name;
    result.precision = options.precision.value_or(config.precisions.back());
    requirePrecision(config, result.precision);
    // The passes up to the last that leaves plain ONNX, then the fusions; INT8 calibrates the graph
    // between the two, which the float interpreter runs (the fusions keep tensor names: a fused
    // convolution writes its activation's output tensor).
    Graph plainOnnx = model;
    legalize(plainOnnx, config, result.log, kLastOnnxPass);
    result.legalized = plainOnnx;
    legalize(result.legalized, config, result.log, {}, kLastOnnxPass);
    result.mapping = mapToUnits(result.legalized, config, result.precision, result.log);
    if (!result.mapping.ok())
        throw UnsupportedError(fmt::format("{} cannot run on NVDLA {} {}:\n{}", model.name, config.name,
                                           target::nvdlaPrecisionName(result.precision), result.mapping.problems()));
    if (result.precision == target::NvdlaPrecision::Int8) {
        std::vector<std::vector<TensorData>> sets = options.calibrationSets;
        if (sets.empty()) {
            sets = randomInputSets(plainOnnx, std::max<std::size_t>(1, options.randomCalibrationSets), options.seed);
            result.warnings.push_back(fmt::format("no calibration data given: the INT8 scales come from {} seeded random "
                                                  "input sets in [-1, 1]; pass --calibration DIR with representative "
                                                  "inputs",
                                                  sets.size()));
        }
        requireFiniteInputs(plainOnnx, sets, options.calibrationSource);
        result.calibrationSets = sets.size();
        const CalibrationRanges ranges = calibrate(plainOnnx, sets, {options.calibrationMethod, 99.99, 8});
        std::map<std::string, float> maxAbs;
        for (std::size_t t = 0; t < plainOnnx.tensorCount(); ++t)
            maxAbs[plainOnnx.tensor(TensorId(t)).name] = ranges.maxAbs[t];
        result.int8 = quantizeForNvdla(result.legalized, maxAbs);
    }
    result.surfaces = planSurfaces(result.legalized, result.mapping, config, result.precision);
    result.loadable =
        emitLoadable(result.legalized, result.surfaces, config, result.int8 ? &*result.int8 : nullptr, result.emitted);
    result.bytes = writeLoadable(result.loadable);
    // What the runtime and firmware will read is read back and checked like any loadable.
    const Loadable reread = readLoadable(result.bytes, "the compiled loadable");
    const std::vector<Finding> findings = validateLoadable(reread);
    if (!isValid(findings))
        throw Error("the loadable compiled for " + model.name + " breaks rules of NVIDIA's runtime or firmware "
                    "(a defect in Tessera; please report it with the model):\n" + formatFindings(findings));
    return result;
}

std::string NvdlaCompilation::reportText() const
{
    std::map<std::string, const EmittedNode*> emittedBy;
    for (const EmittedNode& node : emitted)
        emittedBy[node.node] = &node;
    std::size_t dlaOps = 0, emuOps = 0;
    for (const EmittedNode& node : emitted)
        for (const std::string& op : node.operations)
            (op.rfind("EMU", 0) == 0 ? emuOps : dlaOps) += 1;
    std::string text = fmt::format("NVDLA {} {}: {} tasks, {} DLA operations, {} EMU operations; loadable {} bytes\n",
                                   config, target::nvdlaPrecisionName(precision), loadable.tasks.size(), dlaOps, emuOps,
                                   bytes.size());
    text += fmt::format("scratch memory {} bytes (at least {} live at once)\n", surfaces.scratchBytes,
                        surfaces.scratchLowerBound);
    if (int8)
        text += fmt::format("INT8: scales (real = int8 x scale) from {} calibration input set{}; weights per output "
                            "channel\n",
                            calibrationSets, calibrationSets == 1 ? "" : "s");
    text += "\nnode                     op                 units     task  operations / where the output lives\n";
    for (const NodeMapping& m : mapping.nodes) {
        const EmittedNode* e = emittedBy.count(m.node) ? emittedBy[m.node] : nullptr;
        std::string detail = m.detail;
        if (e) {
            std::string ops;
            for (const std::string& op : e->operations)
                ops += (ops.empty() ? "" : ", ") + op;
            detail = ops + (e->note.empty() ? "" : "; " + e->note);
        }
        text += fmt::format("{:<24} {:<18} {:<9} {:>4}  {}\n", m.node, m.opType, m.units,
                            e ? std::to_string(e->task) : std::string("-"), detail);
        for (const std::string& pass : m.passes)
            text += fmt::format("{:<24} {:<18} {:<9} {:>4}  {}\n", "", "", "", "", pass);
    }
    for (const PassRecord& record : mapping.removed)
        text += fmt::format("{:<24} {:<18} {:<9} {:>4}  {}: {}\n", record.node, "(removed)", "", "", record.pass,
                            record.what);
    text += "\nsurfaces:\n";
    for (const Surface& s : surfaces.surfaces)
        text += fmt::format("  {:<28} {}x{}x{} {:>8} bytes  {}{}\n", s.name, s.layout.channels, s.layout.height,
                            s.layout.width, s.layout.bytes,
                            s.layout.planar ? std::string("planes of an operation ")
                            : int8          ? fmt::format("int8 x {:<10.4g} ", int8->scales.at(s.name))
                                            : std::string(),
                            s.place == Surface::Place::Input    ? std::string("bound input")
                            : s.place == Surface::Place::Output ? std::string("bound output")
                                                                : fmt::format("scratch +{}", s.offset));
    return text;
}

nlohmann::json NvdlaCompilation::reportJson() const
{
    nlohmann::json nodes = nlohmann::json::array();
    for (const EmittedNode& e : emitted)
        nodes.push_back({{"node", e.node}, {"task", e.task}, {"operations", e.operations}, {"note", e.note}});
    nlohmann::json surfaceList = nlohmann::json::array();
    for (const Surface& s : surfaces.surfaces)
        surfaceList.push_back({{"name", s.name},
                               {"channels", s.layout.channels},
                               {"height", s.layout.height},
                               {"width", s.layout.width},
                               {"bytes", s.layout.bytes},
                               {"line_stride", s.layout.lineStride},
                               {"surface_stride", s.layout.surfaceStride},
                               {"planar", s.layout.planar},
                               {"place", s.place == Surface::Place::Input    ? "input"
                                         : s.place == Surface::Place::Output ? "output"
                                                                             : "scratch"},
                               {"offset", s.offset}});
    nlohmann::json scales = nlohmann::json::object();
    if (int8)
        for (const auto& [tensor, scale] : int8->scales)
            scales[tensor] = scale;
    return {{"config", config},
            {"precision", target::nvdlaPrecisionName(precision)},
            {"scales", scales},
            {"calibration_sets", calibrationSets},
            {"warnings", warnings},
            {"loadable_bytes", bytes.size()},
            {"tasks", loadable.tasks.size()},
            {"scratch_bytes", surfaces.scratchBytes},
            {"scratch_lower_bound", surfaces.scratchLowerBound},
            {"mapping", mapping.json()},
            {"emitted", nodes},
            {"surfaces", surfaceList}};
}

}  // namespace tessera::nvdla
