// Where every feature surface of a legalized graph lives in DRAM. Views share their input's surface;
// the inputs of a Concat along channels are parts of its output's surface.
// The network's inputs and outputs are memories the application binds; every other surface is
// placed in one scratch memory by Tessera's memory planner over the operation order (a surface is
// live from the operation writing it to the last one reading it), so surfaces whose lifetimes do not
// meet share bytes. Layouts follow the hardware's feature format (feature_layout.h).
#pragma once

#include "ir/graph.h"
#include "nvdla/compile/unit_mapping.h"
#include "nvdla/feature_layout.h"
#include "target/nvdla_configs.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace tessera::nvdla {

struct Surface {
    enum class Place { Input, Output, Scratch };
    TensorId tensor = kNoTensor;  // the tensor written (views of it share the surface)
    std::string name;
    FeatureLayout layout;
    Place place = Place::Scratch;
    std::uint64_t offset = 0;     // in the scratch memory
    int firstStep = -1, lastStep = 0;  // first operation writing it (-1: none yet) and last reading it
};

struct SurfacePlan {
    std::vector<Surface> surfaces;
    std::unordered_map<TensorId, int> surfaceOf;  // every feature tensor, views included
    // Tensors written into a part of a surface (a Concat's inputs): the first channel they take.
    std::unordered_map<TensorId, unsigned> channelOffset;
    std::vector<NodeId> operations;                // the nodes that run, in order (views left out)
    // Memory an operation uses while it runs (a channel permutation's two sets of planes):
    // surfaces of no tensor, live at that operation's step alone.
    std::unordered_map<std::string, std::vector<int>> workspaces;  // by node name
    std::uint64_t scratchBytes = 0;
    std::int64_t scratchLowerBound = 0;  // most bytes live at one time
    unsigned alignment = 32;

    const Surface& of(TensorId tensor) const { return surfaces.at(std::size_t(surfaceOf.at(tensor))); }
    unsigned channelOffsetOf(TensorId tensor) const
    {
        const auto found = channelOffset.find(tensor);
        return found == channelOffset.end() ? 0 : found->second;
    }
};

// Throws tessera::UnsupportedError naming the tensor when a feature tensor is not a cube.
SurfacePlan planSurfaces(const Graph& legalized, const MappingReport& mapping, const target::NvdlaConfig& config,
                         target::NvdlaPrecision precision);

}  // namespace tessera::nvdla
