// UserKernel() and the kernel group calls: they add user kernels and groups to the model in
// declaration order. Everything that needs the whole model (a Call naming a basic kernel declared
// later, a binding naming an argument...) is left to checkModel() in GenerateTilingCode().
#include "AutoTilerLib.h"
#include "builder_support.h"
#include "group_expressions.h"

#include <algorithm>

using namespace tessera::gap;
namespace tiler = tessera::tiler;

namespace {

const tiler::KernelGroup* findGroup(const tiler::KernelModel& model, const std::string& name)
{
    const auto it = std::find_if(model.groups.begin(), model.groups.end(),
                                 [&](const tiler::KernelGroup& group) { return group.name == name; });
    return it == model.groups.end() ? nullptr : &*it;
}

// User kernels and groups both become C functions of the generated file: their names must differ.
void requireUnusedFunctionName(const tiler::KernelModel& model, const std::string& name, const char* declaring)
{
    if (model.findUserKernel(name) != nullptr)
        failModel(std::string(declaring) + " " + name + ": a user kernel named " + name
                  + " already exists; user kernel and group names must be unique");
    if (findGroup(model, name) != nullptr)
        failModel(std::string(declaring) + " " + name + ": a kernel group named " + name
                  + " already exists; user kernel and group names must be unique");
}

}  // namespace

extern "C" {

Kernel_T* UserKernel(const char* TemplateName, KernelDimensionT* KerDim, KernelIterationT* KerIter,
                     Tile_Orientation_T Orientation, CKernel_Arg_T** CArg, CKernelCall_T** CCalls,
                     Object_T** KerArg)
{
    const std::string name = requireName(TemplateName, "UserKernel", "the user kernel name");
    const std::string context = "user kernel " + name;
    ModelRegistry& state = registry();
    tiler::KernelModel& model = state.model;
    requireUnusedFunctionName(model, name, "user kernel");
    if (KerDim == nullptr)
        failModel(context + ": the kernel dimensions are NULL; pass KernelDimensions(InPlanes, W, H, OutPlanes)");
    if (KerIter == nullptr)
        failModel(context + ": the iteration order is NULL; pass KernelIterationOrder(KER_DIM2, KER_TILE) or another order");
    if (int(Orientation) != int(TILE_HOR) && int(Orientation) != int(TILE_VER))
        failModel(format("%s: orientation %d is neither TILE_HOR nor TILE_VER", context.c_str(), int(Orientation)));

    tiler::UserKernel kernel;
    kernel.name = name;
    kernel.inPlanes = KerDim->inPlanes;
    kernel.width = KerDim->width;
    kernel.height = KerDim->height;
    kernel.outPlanes = KerDim->outPlanes;
    kernel.dimension = KerIter->dimension;
    kernel.order = KerIter->order;
    kernel.outerTiles = KerIter->outerTiles;
    kernel.chunkablePlanes = KerIter->chunkablePlanes;
    kernel.chunkDivider = KerIter->chunkDivider;
    kernel.inPlanesBound = KerIter->inPlanesBound;
    kernel.outPlanesBound = KerIter->outPlanesBound;
    kernel.orientation = tiler::Orientation(Orientation);
    kernel.cargs = cArgumentsOf(CArg, context);
    kernel.calls = callsOf(CCalls, context);
    for (const tiler::KernelCall& call : kernel.calls)
        for (const tiler::Binding& binding : call.bindings)
            if (isUnresolvedGroupExpression(binding))
                failModel(context + ": its call of " + call.callee + " binds BindKGExpr(\"" + binding.name.substr(1) +
                          "\"), which only the calls of a kernel group (UserKernelGroup) take; bind a user kernel's "
                          "basic-kernel arguments with K_Arg(), C_Arg() or Imm()");
    kernel.args = kernelArgumentsOf(KerArg, context);

    const std::size_t index = model.userKernels.size();
    if (state.openGroup) {
        tiler::KernelGroup& group = model.groups[*state.openGroup];
        kernel.group = group.name;
        group.members.push_back(name);  // the group's item already stands for its members
    } else {
        model.items.push_back({tiler::ModelItem::Kind::UserKernel, index});
    }
    model.userKernels.push_back(std::move(kernel));
    // A CNN generator checks its kernel once it has added what the C API cannot say (padding...).
    if (state.layersInProgress == 0 && !keepKernelIfItTiles(name))
        return nullptr;
    return userKernelHandle(name);
}

void OpenKernelGroup(const char* GroupName)
{
    const std::string name = requireName(GroupName, "OpenKernelGroup", "the group name");
    ModelRegistry& state = registry();
    tiler::KernelModel& model = state.model;
    if (state.openGroup)
        failModel("OpenKernelGroup(\"" + name + "\"): kernel group " + model.groups[*state.openGroup].name
                  + " is still open; groups do not nest, call CloseKernelGroup() first");
    requireUnusedFunctionName(model, name, "kernel group");

    tiler::KernelGroup group;
    group.name = name;
    state.openGroup = model.groups.size();
    model.items.push_back({tiler::ModelItem::Kind::Group, model.groups.size()});
    model.groups.push_back(std::move(group));
}

void CloseKernelGroup(void)
{
    ModelRegistry& state = registry();
    if (!state.openGroup)
        failModel("CloseKernelGroup(): no kernel group is open; call OpenKernelGroup(\"Name\") first");
    state.openGroup.reset();
}

// KER_OPT_KEEP_GROUP for the group's kernels: Tessera never merges a group's kernels anyway.
void CloseKernelGroupNoMerge(void) { CloseKernelGroup(); }

CKernelCall_T* UserKernelCall(const char* CallName, KernelCallLocationT CallLocation, ArgBindingDescr_T** BindingList)
{
    const std::string callee = requireName(CallName, "UserKernelCall", "the user kernel name");
    if (CallLocation != LOC_GROUP)
        failModel(format("UserKernelCall(\"%s\"): call location %d is not LOC_GROUP; calls in a kernel group "
                         "have no loop to sit in",
                         callee.c_str(), int(CallLocation)));
    tiler::KernelCall call;
    call.callee = callee;
    call.location = tiler::CallLocation::Group;
    call.bindings = callBindingsOf(BindingList, "UserKernelCall(\"" + callee + "\")");
    CKernelCall_S result;
    result.value = std::move(call);
    return registry().arena.make(std::move(result));
}

void UserKernelGroup(const char* GroupName, CKernel_Arg_T** CArg, CKernelCall_T** CCalls)
{
    const std::string name = requireName(GroupName, "UserKernelGroup", "the group name");
    const std::string context = "kernel group " + name;
    tiler::KernelModel& model = currentModel();
    auto group = std::find_if(model.groups.begin(), model.groups.end(),
                              [&](const tiler::KernelGroup& candidate) { return candidate.name == name; });
    if (group == model.groups.end())
        failModel("UserKernelGroup(\"" + name + "\"): no kernel group " + name
                  + " was opened; declare its user kernels between OpenKernelGroup(\"" + name
                  + "\") and CloseKernelGroup() first");
    if (group->hasTemplate)
        failModel(context + ": UserKernelGroup() is called twice for it");
    group->cargs = cArgumentsOf(CArg, context);
    group->calls = callsOf(CCalls, context);
    // BindKGExpr's expressions, now that the group's C arguments are known.
    ModelRegistry& state = registry();
    std::map<std::string, std::string> symbols = state.userSymbols;
    for (const auto& [symbol, value] : state.groupSymbols)
        symbols[symbol] = value;
    for (tiler::KernelCall& call : group->calls)
        for (tiler::Binding& binding : call.bindings)
            if (isUnresolvedGroupExpression(binding))
                binding.name = groupExpressionToC(binding.name.substr(1), state.groupArguments, group->cargs, symbols,
                                                  context + ", call of " + call.callee);
    state.groupSymbols.clear();
    group->hasTemplate = true;
}

}  // extern "C"
