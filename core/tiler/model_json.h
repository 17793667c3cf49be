// A KernelModel as JSON: basic kernels, user kernels (iteration space, arguments, calls), kernel
// groups, generation options and the declaration order. The tiling report carries it so a viewer
// can solve the same kernels again at other budgets.
#pragma once

#include "tiler/kernel_model.h"

#include <nlohmann/json.hpp>

namespace tessera::tiler {

// Largest width, height, plane count or item size accepted when reading. An item may be a whole
// filter plane (GreenWaves' generators declare filters with items of Fx*Fy values), so it has the
// same bound as a dimension; the argument's total size is bounded by checkModel().
constexpr unsigned kMaxModelDimension = 1u << 20;
constexpr unsigned kMaxModelItemSize = kMaxModelDimension;

nlohmann::json kernelModelToJson(const KernelModel& model);

// Throws std::runtime_error naming the offending field ("user_kernels[0].args[2].width: ...")
// when a field is missing, has the wrong type, an unknown name or a size out of bounds.
KernelModel kernelModelFromJson(const nlohmann::json& json);

}  // namespace tessera::tiler
