// Where every feature surface of a legalized graph lives in DRAM. Views share their input's surface.
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
    int firstStep = 0, lastStep = 0;  // operations writing and last reading it
};

struct SurfacePlan {
    std::vector<Surface> surfaces;
    std::unordered_map<TensorId, int> surfaceOf;  // every feature tensor, views included
    std::vector<NodeId> operations;                // the nodes that run, in order (views left out)
    std::uint64_t scratchBytes = 0;
    std::int64_t scratchLowerBound = 0;  // most bytes live at one time
    unsigned alignment = 32;

    const Surface& of(TensorId tensor) const { return surfaces.at(std::size_t(surfaceOf.at(tensor))); }
};

// Throws tessera::UnsupportedError naming the tensor when a feature tensor is not a cube.
SurfacePlan planSurfaces(const Graph& legalized, const MappingReport& mapping, const target::NvdlaConfig& config,
                         target::NvdlaPrecision precision);

}  // namespace tessera::nvdla
