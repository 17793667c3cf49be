#include "tiler/kernel_model.h"

#include <algorithm>

namespace tessera::tiler {

const BasicKernel* KernelModel::findBasicKernel(const std::string& name) const
{
    const auto it = std::find_if(basicKernels.begin(), basicKernels.end(),
                                 [&](const BasicKernel& kernel) { return kernel.name == name; });
    return it == basicKernels.end() ? nullptr : &*it;
}

const UserKernel* KernelModel::findUserKernel(const std::string& name) const
{
    const auto it = std::find_if(userKernels.begin(), userKernels.end(),
                                 [&](const UserKernel& kernel) { return kernel.name == name; });
    return it == userKernels.end() ? nullptr : &*it;
}

}  // namespace tessera::tiler
