// AT_KERNEL_NOSOLUTION_ERROR off: a user kernel is tiled as soon as it is complete, and dropped
// when nothing fits the L1 budget, so that the model can fall back to another generator
// (`if (!CNN_ConvolutionPoolReLU(...)) ...`) instead of failing at GenerateTilingCode().
#include "model_registry.h"
#include "tiler/tile_solver.h"

#include <algorithm>

namespace tessera::gap {

bool keepKernelIfItTiles(const std::string& name)
{
    tiler::KernelModel& model = registry().model;
    if (model.options.noSolutionError)
        return true;
    // The kernel checked is always the one just declared: the last one, so no index moves.
    if (model.userKernels.empty() || model.userKernels.back().name != name)
        return true;
    const tiler::UserKernel& kernel = model.userKernels.back();
    // Arguments are solved where the kernel declares them (L2): a graph may still move some to L3
    // later, and a kernel that then has no tiling is reported at generation as usual.
    const tiler::TileSolverResult solved =
        tiler::solveTiling(kernel, model.options.l1Size, model.options.l2Size, model.options.costModel,
                           tiler::promotionPolicy(model.options), false);
    if (solved.ok || solved.badKernel)  // a malformed kernel is an error to report, not a fallback
        return true;

    model.droppedKernels.emplace_back(name, solved.error);
    withdrawLastUserKernel(model);
    return false;
}

tiler::UserKernel withdrawLastUserKernel(tiler::KernelModel& model)
{
    tiler::UserKernel kernel = std::move(model.userKernels.back());
    const std::size_t index = model.userKernels.size() - 1;
    model.userKernels.pop_back();
    if (!kernel.group.empty()) {
        for (tiler::KernelGroup& group : model.groups)
            if (group.name == kernel.group)
                std::erase(group.members, kernel.name);
    } else {
        std::erase_if(model.items, [&](const tiler::ModelItem& item) {
            return item.kind == tiler::ModelItem::Kind::UserKernel && item.index == index;
        });
    }
    return kernel;
}

void noteKernelWithoutTiling(const std::string& name, const std::string& reason)
{
    tiler::KernelModel& model = registry().model;
    if (model.options.noSolutionError)
        failModel("user kernel " + name + ": " + reason);
    model.droppedKernels.emplace_back(name, reason);
}

}  // namespace tessera::gap
