#include "interp/kernel.h"

#include "interp/kernels/kernels.h"
#include "base/error.h"

namespace tessera {

const TensorData& KernelContext::input(size_t index) const
{
    if (!hasInput(index))
        fail("input " + std::to_string(index) + " is required but missing");
    return *inputs[index];
}

void KernelContext::fail(const std::string& message) const
{
    throw ShapeError(node.describe() + ": " + message);
}

const KernelTable& kernels()
{
    static const KernelTable table = [] {
        KernelTable all;
        registerElementwiseKernels(all);
        registerNnKernels(all);
        registerTensorKernels(all);
        registerReductionKernels(all);
        return all;
    }();
    return table;
}

bool hasKernel(const std::string& opType) { return kernels().count(opType) != 0; }

} // namespace tessera
