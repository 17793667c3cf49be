// Generating a layer in several ways and keeping the cheaper, as GreenWaves' SQ8 generators do:
// they declare a layer tiled horizontally, take it out of the model with CopyAndPopUserKernel(),
// declare it again tiled vertically, compare the two copies' Cost->TileOverhead, put the better back
// with PushBackUserKernel() and forget the other with ReleaseUserKerne() (the SDK's spelling).
#include "AutoTilerLib.h"
#include "builder_support.h"
#include "tiler/tile_solver.h"

#include <algorithm>
#include <cstdint>

using namespace tessera::gap;
namespace tiler = tessera::tiler;

namespace {

// What one call of the kernel costs as the solver tiles it now (the model's budgets).
KernelCost_T costOf(const tiler::UserKernel& kernel, const tiler::KernelModel& model)
{
    const tiler::TileSolverResult solved = tiler::solveTiling(kernel, model.options.l1Size, model.options.l2Size,
                                                              model.options.costModel,
                                                              tiler::promotionPolicy(model.options), false);
    KernelCost_T cost{};
    if (!solved.ok) {
        cost.TileOverhead = 1e30f;  // no tiling: never the better of two
        return cost;
    }
    const tiler::KernelTiling& tiling = solved.tiling;
    std::uint64_t dataBytes = 0;  // each input and output moved once
    for (const tiler::ArgTiling& arg : tiling.args)
        if (arg.residence != tiler::ArgResidence::Scratch)
            dataBytes += arg.planeBytes * arg.planeCount;
    const std::uint64_t moved = tiling.dmaRead + tiling.dmaWrite;
    cost.L1Mem = unsigned(tiling.l1Bytes);
    cost.MoveL2 = unsigned(std::min<std::uint64_t>(moved, UINT32_MAX));
    cost.MoveL3 = unsigned(std::min<std::uint64_t>(tiling.l3Read + tiling.l3Write, UINT32_MAX));
    cost.TileOverhead = dataBytes == 0 ? 1.0f : float(double(moved) / double(dataBytes));
    return cost;
}

std::string kernelName(const Kernel_T* Kernel, const char* caller)
{
    if (Kernel == nullptr || Kernel->Name == nullptr)
        failModel(std::string(caller) + "(NULL): pass the user kernel UserKernel() returned (it returns NULL when "
                                        "the kernel has no tiling and AT_KERNEL_NOSOLUTION_ERROR is off)");
    return Kernel->Name;
}

// The group still open (a generator choosing a grouped layer's body, as the SDK's grouped
// convolutions do) may lose a member and get it back; a closed group keeps its members.
void refuseGroupMember(const tiler::UserKernel& kernel, const char* caller)
{
    const ModelRegistry& state = registry();
    const bool groupOpen = state.openGroup && state.model.groups[*state.openGroup].name == kernel.group;
    if (!kernel.group.empty() && !groupOpen)
        failModel(std::string(caller) + "(" + kernel.name + "): it belongs to kernel group " + kernel.group
                  + ", which is closed; a kernel of a closed group cannot be taken out of it");
}

}  // namespace

namespace tessera::gap {

Kernel_T* userKernelHandle(const std::string& name)
{
    ObjectArena& arena = registry().arena;
    return arena.make(Kernel_S{nullptr, arena.makeString(name)});
}

}  // namespace tessera::gap

extern "C" {

Kernel_T* CopyAndPopUserKernel(Kernel_T* Kernel)
{
    const std::string name = kernelName(Kernel, "CopyAndPopUserKernel");
    ModelRegistry& state = registry();
    tiler::KernelModel& model = state.model;
    if (model.userKernels.empty() || model.userKernels.back().name != name)
        failModel("CopyAndPopUserKernel(" + name + "): only the user kernel declared last can be taken out"
                  + (model.userKernels.empty() ? std::string(", and none is declared")
                                               : ", which is " + model.userKernels.back().name));
    refuseGroupMember(model.userKernels.back(), "CopyAndPopUserKernel");
    Kernel_T* copy = userKernelHandle(name);
    copy->Cost = state.arena.make(costOf(model.userKernels.back(), model));
    state.poppedKernels.emplace(copy, withdrawLastUserKernel(model));
    return copy;
}

void PopUserKernel(void)
{
    tiler::KernelModel& model = registry().model;
    if (model.userKernels.empty())
        failModel("PopUserKernel(): no user kernel is declared");
    refuseGroupMember(model.userKernels.back(), "PopUserKernel");
    withdrawLastUserKernel(model);
}

void PushBackUserKernel(Kernel_T* Kernel)
{
    const std::string name = kernelName(Kernel, "PushBackUserKernel");
    ModelRegistry& state = registry();
    const auto popped = state.poppedKernels.find(Kernel);
    if (popped == state.poppedKernels.end())
        failModel("PushBackUserKernel(" + name + "): pass a copy CopyAndPopUserKernel() returned and not yet "
                  "pushed back or released");
    tiler::KernelModel& model = state.model;
    if (model.findUserKernel(name) != nullptr)
        failModel("PushBackUserKernel(" + name + "): a user kernel named " + name
                  + " is in the model again; take that one out first, or release this copy");
    const std::string& group = popped->second.group;
    const std::string openGroup = state.openGroup ? model.groups[*state.openGroup].name : std::string();
    if (group != openGroup)
        failModel("PushBackUserKernel(" + name + "): " +
                  (group.empty() ? "kernel group " + openGroup + " is open; push the kernel back after CloseKernelGroup()"
                                 : "it was taken out of kernel group " + group +
                                       (openGroup.empty() ? ", which is closed" : ", and " + openGroup + " is open") +
                                       "; push it back while its group is open"));
    if (group.empty())
        model.items.push_back({tiler::ModelItem::Kind::UserKernel, model.userKernels.size()});
    else
        model.groups[*state.openGroup].members.push_back(name);
    model.userKernels.push_back(std::move(popped->second));
    state.poppedKernels.erase(popped);
    // A variant without a tiling may have been dropped under this name; this one stands.
    std::erase_if(model.droppedKernels, [&](const auto& dropped) { return dropped.first == name; });
}

void ReleaseUserKerne(Kernel_T* Kernel)
{
    if (Kernel == nullptr)  // the SDK's generators release a variant that had no tiling
        return;
    registry().poppedKernels.erase(Kernel);
}

}  // extern "C"
