#include "nvdla/compile/surface_plan.h"

#include "base/error.h"
#include "ir/topology.h"
#include "memory/memory_planner.h"
#include "nvdla/compile/legalization_passes.h"

#include <fmt/format.h>

#include <algorithm>

namespace tessera::nvdla {

SurfacePlan planSurfaces(const Graph& legalized, const MappingReport& mapping, const target::NvdlaConfig& config,
                         target::NvdlaPrecision precision)
{
    SurfacePlan plan;
    plan.alignment = std::max(32u, config.memoryAtomicBytes);
    const unsigned elementBytes = target::NvdlaConfig::elementBytes(precision);
    std::unordered_map<std::string, const NodeMapping*> byName;
    for (const NodeMapping& m : mapping.nodes)
        byName[m.node] = &m;

    auto surfaceFor = [&](TensorId tensor) -> int {
        if (const auto found = plan.surfaceOf.find(tensor); found != plan.surfaceOf.end())
            return found->second;
        const Tensor& t = legalized.tensor(tensor);
        const auto cube = cubeOf(t.shape);
        if (!cube)
            throw UnsupportedError(fmt::format("tensor '{}' of shape [{}] is not a cube NVDLA's units read", t.name,
                                               fmt::join(t.shape, ",")));
        Surface surface;
        surface.tensor = tensor;
        surface.name = t.name;
        surface.layout = featureLayout(unsigned(cube->width), unsigned(cube->height), unsigned(cube->channels),
                                       elementBytes, config.memoryAtomicBytes);
        plan.surfaces.push_back(surface);
        plan.surfaceOf[tensor] = int(plan.surfaces.size() - 1);
        return int(plan.surfaces.size() - 1);
    };
    for (TensorId input : legalized.inputs) {
        plan.surfaces.at(std::size_t(surfaceFor(input))).place = Surface::Place::Input;
    }
    const std::vector<NodeId> order = topologicalOrder(legalized);
    // A Concat along channels is the producers writing into one surface, each at its channel offset
    // (the mapping checked the offsets start at memory atoms).
    for (NodeId id : order) {
        const Node& node = legalized.node(id);
        if (node.opType != "Concat" || byName.at(node.name)->units != "view")
            continue;
        const int joined = surfaceFor(node.outputs[0]);
        unsigned offset = 0;
        for (TensorId input : node.inputs) {
            plan.surfaceOf[input] = joined;
            plan.channelOffset[input] = offset;
            offset += unsigned(cubeOf(legalized.tensor(input).shape)->channels);
        }
    }
    int step = 0;
    for (NodeId id : order) {
        const Node& node = legalized.node(id);
        const NodeMapping* m = byName.at(node.name);
        if (m->units == "view") {
            if (node.opType != "Concat")
                for (TensorId output : node.outputs)
                    plan.surfaceOf[output] = surfaceFor(node.inputs[0]);
            // Slices and Splits at memory atoms: parts of their input's surface.
            if (const auto parts = channelParts(legalized, node))
                for (std::size_t k = 0; k < parts->size(); ++k)
                    plan.channelOffset[node.outputs[k]] = plan.channelOffsetOf(node.inputs[0]) + unsigned((*parts)[k].first);
            continue;
        }
        for (TensorId input : node.inputs)
            if (input != kNoTensor && !legalized.tensor(input).isConstant())
                plan.surfaces.at(std::size_t(surfaceFor(input))).lastStep = step;
        for (TensorId output : node.outputs) {
            Surface& surface = plan.surfaces.at(std::size_t(surfaceFor(output)));
            surface.firstStep = std::min(surface.firstStep < 0 ? step : surface.firstStep, step);
            surface.lastStep = std::max(surface.lastStep, step);
        }
        // RUBIK's copies go through planes: a channel permutation through two sets (split, reordered),
        // a Concat through the output's, a Slice or Split through the input's.
        std::vector<const char*> planeSets;
        TensorId planed = node.inputs[0];
        if (m->units == "RUBIK+BDMA") {
            planeSets = {"/planes", "/planes-reordered"};
        } else if (m->units == "RUBIK" && node.opType != "DepthToSpace") {
            planeSets = {"/planes"};
            if (node.opType == "Concat")
                planed = node.outputs[0];
        }
        if (!planeSets.empty()) {
            const auto cube = cubeOf(legalized.tensor(planed).shape);
            for (const char* part : planeSets) {
                Surface workspace;
                workspace.name = node.name + part;
                workspace.layout = planarLayout(unsigned(cube->width), unsigned(cube->height), unsigned(cube->channels),
                                                elementBytes);
                workspace.firstStep = workspace.lastStep = step;
                plan.surfaces.push_back(workspace);
                plan.workspaces[node.name].push_back(int(plan.surfaces.size() - 1));
            }
        }
        plan.operations.push_back(id);
        ++step;
    }
    for (Surface& surface : plan.surfaces)
        if (surface.firstStep < 0)
            surface.firstStep = 0;  // network inputs
    for (TensorId output : legalized.outputs) {
        Surface& surface = plan.surfaces.at(std::size_t(surfaceFor(output)));
        if (surface.place == Surface::Place::Input)
            throw UnsupportedError(fmt::format("output '{}' is the input '{}' unchanged: there is nothing for NVDLA "
                                               "to run",
                                               legalized.tensor(output).name, surface.name));
        surface.place = Surface::Place::Output;
    }
    std::vector<Buffer> buffers;
    std::vector<std::size_t> placed;
    for (std::size_t s = 0; s < plan.surfaces.size(); ++s) {
        const Surface& surface = plan.surfaces[s];
        if (surface.place != Surface::Place::Scratch)
            continue;
        Buffer buffer;
        buffer.id = surface.name;
        buffer.lower = surface.firstStep;
        buffer.upper = surface.lastStep + 1;
        buffer.size = std::int64_t(surface.layout.bytes);
        buffer.alignment = plan.alignment;
        buffers.push_back(buffer);
        placed.push_back(s);
    }
    if (!buffers.empty()) {
        PlanOptions options;
        options.minimize = true;
        options.timeoutSeconds = 2.0;
        const PlanResult result = planMemory(buffers, options);
        for (std::size_t b = 0; b < placed.size(); ++b)
            plan.surfaces[placed[b]].offset = std::uint64_t(result.offsets[b]);
        plan.scratchBytes = std::uint64_t(result.peak);
        plan.scratchLowerBound = result.lowerBound;
    }
    return plan;
}

}  // namespace tessera::nvdla
