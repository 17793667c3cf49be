#pragma once
// Registration of the reference kernels, one function per operator family (the same families as
// the shape rules in ir/op_shapes).
#include "interp/kernel.h"

namespace tessera {

void registerElementwiseKernels(KernelTable& table);
void registerNnKernels(KernelTable& table);
void registerTensorKernels(KernelTable& table);
void registerReductionKernels(KernelTable& table);

} // namespace tessera
