// Helpers shared by the builder calls: reading the library's lists back into model values.
#pragma once

#include "model_registry.h"

#include <string>
#include <vector>

namespace tessera::gap {

// The current API's spaces (KernelIterSpace, KerArgSpace): KER_ITER_D0..D3 are not tiled.
inline bool isPlaneSpace(int iterator) { return iterator >= int(KER_ITER_D0) && iterator <= int(KER_ITER_D3); }
inline bool isTiledSpace(int iterator) { return iterator == int(KER_ITER_TILE0) || iterator == int(KER_ITER_TILE1); }

// An L1-only buffer (O_BUFF, neither in nor out): no home in L2, so no home layout; its kernels lay
// it out.
inline bool isScratchBuffer(const tiler::KernelArgument& value)
{
    return value.has(tiler::ArgFlag::Buffer) && !value.has(tiler::ArgFlag::In) && !value.has(tiler::ArgFlag::Out);
}

// "KER_ITER_D1" for KER_ITER_D1 ... (for messages).
inline std::string spaceName(int iterator)
{
    if (iterator == int(KER_ITER_TILE0))
        return "KER_ITER_TILE0";
    if (iterator == int(KER_ITER_TILE1) || iterator == int(KER_ITER_TILE2))
        return iterator == int(KER_ITER_TILE1) ? "KER_ITER_TILE1" : "KER_ITER_TILE2";
    if (isPlaneSpace(iterator))
        return "KER_ITER_D" + std::to_string(iterator - int(KER_ITER_D0));
    return "iterator " + std::to_string(iterator);
}

inline std::vector<tiler::CArgument> cArgumentsOf(CKernel_Arg_T** list, const std::string& context)
{
    std::vector<tiler::CArgument> arguments;
    for (const CKernel_Arg_T* argument : listItems(list, context, "C argument"))
        arguments.push_back(argument->value);
    return arguments;
}

// The calls of a user kernel declared with KernelDimensions/KernelIterationOrder, which has no
// KER_ITER_D* spaces to resolve LOC_D* locations or C_ArgIndex iterators against.
inline std::vector<tiler::KernelCall> callsOf(CKernelCall_T** list, const std::string& context)
{
    std::vector<tiler::KernelCall> calls;
    for (const CKernelCall_T* call : listItems(list, context, "call")) {
        if (call->spaceLocation >= 0 || !call->spaceIterators.empty())
            failModel(context + ": Call(\"" + call->value.callee + "\") uses a LOC_D* location or a KER_ITER_D* "
                      "iterator, which refer to a KernelIterSpace(); declare the kernel with KernelIterSpace() or use "
                      "the LOC_*_PLANE_* locations and KER_IN_PLANE / KER_OUT_PLANE");
        calls.push_back(call->value);
    }
    return calls;
}

// The bindings of a Call() or UserKernelCall(); GNodeArg() and GNodeCArg() bindings belong to
// AddNode() only.
inline std::vector<tiler::Binding> callBindingsOf(ArgBindingDescr_T** list, const std::string& context)
{
    std::vector<tiler::Binding> bindings;
    for (const ArgBindingDescr_T* binding : listItems(list, context, "binding")) {
        if (binding->nodeBinding)
            failModel(format("%s: binding %zu is %s(\"%s\"), which binds graph symbols in AddNode() only; "
                             "use K_Arg(), C_Arg(), C_ArgIndex() or Imm()",
                             context.c_str(), bindings.size() + 1,
                             binding->nodeBinding->kind == tiler::GraphNodeBinding::Kind::Value ? "GNodeCArg"
                                                                                                : "GNodeArg",
                             binding->nodeBinding->symbol.c_str()));
        bindings.push_back(binding->value);
    }
    return bindings;
}

inline std::vector<tiler::KernelArgument> kernelArgumentsOf(Object_T** list, const std::string& context)
{
    std::vector<tiler::KernelArgument> arguments;
    for (const Object_T* argument : listItems(list, context, "kernel argument")) {
        if (argument->groupArgument)
            failModel(context + ": kernel argument " + argument->value.name + " is a KerGroupArg(), which "
                      "describes an argument of a kernel group; declare a user kernel's arguments with KerArg()");
        if (argument->space)
            failModel(context + ": kernel argument " + argument->value.name + " has a KerArgSpace(), which refers "
                      "to a KernelIterSpace(); declare the kernel with KernelIterSpace() or the argument without "
                      "KerArgSpace()");
        arguments.push_back(argument->value);
    }
    return arguments;
}

// KerArgPad's room before and after each L1 buffer of the argument, in items.
inline void setRoom(Object_T& argument, unsigned before, unsigned after)
{
    tiler::KernelArgument& value = argument.value;
    constexpr unsigned kMaxRoom = 1u << 24;
    if (before > kMaxRoom || after > kMaxRoom)
        failModel(format("KerArgPad(\"%s\"): room of %u items before and %u after is absurd; the room holds what "
                         "a kernel keeps between tiles, a few items", value.name.c_str(), before, after));
    value.roomBefore = before;
    value.roomAfter = after;
}

// Fails with "<function>: <what> is NULL" (or "is empty"), else returns `text`.
inline std::string requireName(const char* text, const std::string& function, const char* what)
{
    if (text == nullptr)
        failModel(function + ": " + what + " is NULL");
    if (*text == '\0')
        failModel(function + ": " + what + " is empty");
    return text;
}

}  // namespace tessera::gap
