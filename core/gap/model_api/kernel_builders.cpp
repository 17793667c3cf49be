// The small builder calls of the model API: C arguments, basic kernels, dimensions, iteration
// orders, calls, bindings and kernel arguments. Each returns an object owned by the registry's
// arena; UserKernel() and the group calls (user_kernel_builders.cpp) assemble them.
#include "AutoTilerLib.h"
#include "builder_support.h"

#include <algorithm>
#include <cstdarg>

using namespace tessera::gap;
namespace tiler = tessera::tiler;

namespace {

// The SDK's "no item here" markers: a list entry equal to one of them is left out, so a generator
// can write `NeedBias ? K_Arg("Bias", KER_ARG_TILE) : AT_NO_ARG_BINDING`. AT_IGNORE_ARG_BINDING is
// an item: its basic-kernel argument is left unset. They live as long as the program.
ArgBindingDescr_S noBinding;
ArgBindingDescr_S ignoredBinding{tiler::Binding{tiler::Binding::Kind::Ignored, {}, tiler::ArgSelect::Tile,
                                                tiler::IterationSpace::Tile, 0, {}}};
CKernelCall_S noCall;
Object_S noKernelArgument;
CKernel_Arg_S noCArgument;

template <class T> T* absentMarker();
template <> ArgBindingDescr_T* absentMarker<ArgBindingDescr_T>() { return &noBinding; }
template <> CKernelCall_T* absentMarker<CKernelCall_T>() { return &noCall; }
template <> Object_T* absentMarker<Object_T>() { return &noKernelArgument; }
template <> CKernel_Arg_T* absentMarker<CKernel_Arg_T>() { return &noCArgument; }

// Reads `count` pointers of type T from a va_list into a library-owned list, leaving out the
// type's "no item" marker.
template <class T>
T** collectList(unsigned count, va_list args)
{
    std::vector<T*> items;
    items.reserve(count);
    for (unsigned i = 0; i < count; ++i)
        if (T* item = va_arg(args, T*); item != absentMarker<T>())
            items.push_back(item);
    return registry().arena.makeList(std::move(items));
}

// The SDK's recurrent generators split a sequence over the kernels of a group and keep buffers in L1
// from one kernel to the next: O_NO_STORE on the state a kernel writes, O_NO_LOAD on the state (and
// the weights) the next one reads, both bound to one group argument; O_ALWAYS_LOAD loads a buffer
// even when a dynamic loop runs no iteration. Tessera lays out each kernel's L1 on its own, so it
// stores and loads these buffers anyway, through the L2 they are bound to: the same results, without
// the transfers saved. What the SDK requires of them is checked here.
void checkTransferHints(const std::string& name, Object_Type_T ObjType)
{
    const char* context = name.c_str();
    const bool bufferIn = (ObjType & O_IN) && (ObjType & O_BUFF);
    if ((ObjType & O_NO_LOAD) && (ObjType & O_ALWAYS_LOAD))
        failModel(format("KerArg(\"%s\"): O_NO_LOAD skips the load that O_ALWAYS_LOAD asks for; keep one of them",
                         context));
    for (const auto& [flag, flagName] : {std::pair{O_NO_LOAD, "O_NO_LOAD"}, std::pair{O_ALWAYS_LOAD, "O_ALWAYS_LOAD"}})
        if ((ObjType & flag) && !bufferIn)
            failModel(format("KerArg(\"%s\"): %s is a mark of an input buffer (O_IN | O_BUFF), as the SDK defines "
                             "it; declare the argument O_IN | O_BUFF or drop %s",
                             context, flagName, flagName));
    if ((ObjType & O_NO_STORE) && !((ObjType & O_OUT) && (ObjType & O_BUFF)))
        failModel(format("KerArg(\"%s\"): O_NO_STORE is a mark of an output buffer (O_OUT | O_BUFF), as the SDK "
                         "defines it; declare the argument O_OUT | O_BUFF or drop O_NO_STORE",
                         context));
}

}  // namespace

extern "C" {

ArgBindingDescr_T* AT_NO_ARG_BINDING = &noBinding;
ArgBindingDescr_T* AT_IGNORE_ARG_BINDING = &ignoredBinding;
CKernelCall_T* AT_NO_CALL = &noCall;
Object_T* AT_NO_KER_ARG = &noKernelArgument;
CKernel_Arg_T* AT_NO_C_ARG = &noCArgument;

/* ---- C arguments and basic kernels ----------------------------------------------------- */

CKernel_Arg_T** CArgs(unsigned int ArgCount, ...)
{
    va_list args;
    va_start(args, ArgCount);
    CKernel_Arg_T** list = collectList<CKernel_Arg_T>(ArgCount, args);
    va_end(args);
    return list;
}

CKernel_Arg_T* TCArg(const char* ArgType, const char* ArgName)
{
    const std::string name = requireName(ArgName, "TCArg", "the C argument name");
    const std::string type = requireName(ArgType, "TCArg(\"" + name + "\")", "the C type");
    return registry().arena.make(CKernel_Arg_S{tiler::CArgument{type, name}});
}

void LibKernel(const char* KernelName, KernelCallTypeT CallType, CKernel_Arg_T** CArgs,
               const char* ParArgTypeName)
{
    const std::string name = requireName(KernelName, "LibKernel", "the basic kernel name");
    const std::string context = "basic kernel " + name;
    // CALL_FLOAT_KER and CALL_HWC_KER describe the kernel for the SDK's kernel matching only.
    const int attributes = int(CALL_FLOAT_KER) | int(CALL_HWC_KER);
    const int call = int(CallType) & int(CALL_MASK);
    if ((int(CallType) & ~(int(CALL_MASK) | attributes)) != 0 ||
        (call != int(CALL_SEQUENTIAL) && call != int(CALL_PARALLEL) && call != int(CALL_SEQUENTIAL_STRUCT)))
        failModel(format("%s: call type %d is not CALL_SEQUENTIAL, CALL_PARALLEL or CALL_SEQUENTIAL_STRUCT, "
                         "with CALL_FLOAT_KER or CALL_HWC_KER or'ed in",
                         context.c_str(), int(CallType)));
    tiler::KernelModel& model = currentModel();
    if (model.findBasicKernel(name) != nullptr)
        failModel(context + " is declared twice: each LibKernel() name must be unique");

    tiler::BasicKernel kernel;
    kernel.name = name;
    kernel.callType = call == int(CALL_PARALLEL)            ? tiler::CallType::Parallel
                      : call == int(CALL_SEQUENTIAL_STRUCT) ? tiler::CallType::SequentialStruct
                                                            : tiler::CallType::Sequential;
    kernel.parallelArgType = ParArgTypeName != nullptr ? ParArgTypeName : "";
    if (CArgs == nullptr) {
        // Its fields are those of the argument struct declared with LibKernelTemplate.
        const auto found = registry().kernelTemplates.find(kernel.parallelArgType);
        if (found == registry().kernelTemplates.end())
            failModel(context + ": its C arguments are NULL and no LibKernelTemplate(\"" + kernel.parallelArgType
                      + "\", ...) declares them; pass CArgs(...) or declare the template first");
        CArgs = found->second;
    }
    kernel.args = cArgumentsOf(CArgs, context);
    if (kernel.takesStruct() && kernel.parallelArgType.empty())
        failModel(context + ": a CALL_PARALLEL or CALL_SEQUENTIAL_STRUCT kernel needs the name of its argument "
                  "struct typedef");
    model.basicKernels.push_back(std::move(kernel));
}

/* ---- Iteration space -------------------------------------------------------------------- */

KernelDimensionT* KernelDimensions(unsigned int InPlanes, unsigned int W, unsigned int H, unsigned int OutPlanes)
{
    // The SDK takes 0 planes for a kernel that has none: one plane.
    return registry().arena.make(KernelDimension_S{std::max(InPlanes, 1u), W, H, std::max(OutPlanes, 1u)});
}

KernelIterationT* KernelIterationOrderCounted(unsigned int IteratorCount, KernelIteratorDimT Dim, ...)
{
    // Dim is KER_DIM<n> (n - 1 iterators follow) or, as the SDK's first Autotiler takes it, the
    // number of iterators itself.
    const int stated = int(Dim), count = int(IteratorCount);
    if (count < 1 || count > 3 || (stated != count && stated != count + 1))
        failModel(format("KernelIterationOrder(%d, ...): %d iterator(s) follow; give KER_DIM%d (or %d) and 1 to 3 of "
                         "KER_TILE, KER_IN_PLANE, KER_OUT_PLANE",
                         stated, count, count + 1, count));
    KernelIteration_S iteration;
    iteration.dimension = count + 1;
    va_list args;
    va_start(args, Dim);
    for (int i = 0; i < count; ++i) {
        const int iterator = va_arg(args, int);  // enums are passed as int
        if (iterator < int(KER_TILE) || iterator > int(KER_OUT_PLANE)) {
            va_end(args);
            failModel(format("KernelIterationOrder(KER_DIM%d): iterator %d has value %d, not KER_TILE, "
                             "KER_IN_PLANE or KER_OUT_PLANE",
                             count + 1, i + 1, iterator));
        }
        iteration.order.push_back(tiler::IterationSpace(iterator));
    }
    va_end(args);
    return registry().arena.make(std::move(iteration));
}

// Without the macro's count (a caller through a function pointer): KER_DIM<n>, n - 1 iterators.
KernelIterationT* (KernelIterationOrder)(KernelIteratorDimT Dim, ...)
{
    const int dimension = int(Dim);
    if (dimension < int(KER_DIM2) || dimension > int(KER_DIM4))
        failModel(format("KernelIterationOrder: dimension %d is not KER_DIM2, KER_DIM3 or KER_DIM4", dimension));
    int iterators[3] = {0, 0, 0};
    va_list args;
    va_start(args, Dim);
    for (int i = 0; i < dimension - 1; ++i)
        iterators[i] = va_arg(args, int);
    va_end(args);
    return KernelIterationOrderCounted(unsigned(dimension - 1), Dim, iterators[0], iterators[1], iterators[2]);
}

/* ---- Calls and bindings ----------------------------------------------------------------- */

CKernelCall_T** Calls(unsigned int CallCount, ...)
{
    va_list args;
    va_start(args, CallCount);
    CKernelCall_T** list = collectList<CKernelCall_T>(CallCount, args);
    va_end(args);
    return list;
}

CKernelCall_T* Call(const char* CallName, KernelCallLocationT CallLocation, ArgBindingDescr_T** BindingList)
{
    const std::string callee = requireName(CallName, "Call", "the basic kernel name");
    const std::string context = "Call(\"" + callee + "\")";
    const int location = int(CallLocation);
    if (location >= int(LOC_LOOP1) && location <= int(LOC_LOOP2_EPILOG))
        failModel(context + ": calls around or in the body of the KER_ITER_TILE1 / TILE2 loops (LOC_LOOP1*, "
                            "LOC_LOOP2*) are not supported; call in the inner tile loop (LOC_LOOP, LOC_LOOP_PROLOG, "
                            "LOC_LOOP_EPILOG), which runs once per outer tile");
    // LOC_D* locations depend on the kernel's iteration space: UserKernel() resolves them.
    const bool inSpace = location >= int(LOC_D0) && location <= int(LOC_D3_EPILOG);
    if (!inSpace && (location < int(LOC_PROLOG) || location > int(LOC_GROUP)))
        failModel(format("%s: call location %d is not one of the LOC_* values", context.c_str(), location));
    CKernelCall_S result;
    result.value.callee = callee;
    result.value.location = inSpace ? tiler::CallLocation::InnerLoop : tiler::CallLocation(location);
    result.value.bindings = callBindingsOf(BindingList, context);
    result.spaceLocation = inSpace ? location : -1;
    const std::vector<ArgBindingDescr_T*> bindings = listItems(BindingList, context, "binding");
    for (std::size_t i = 0; i < bindings.size(); ++i)
        if (bindings[i]->spaceIterator >= 0)
            result.spaceIterators.emplace_back(i, bindings[i]->spaceIterator);
    return registry().arena.make(std::move(result));
}

ArgBindingDescr_T** Bindings(int BCount, ...)
{
    if (BCount < 0)
        failModel(format("Bindings: negative binding count %d", BCount));
    va_list args;
    va_start(args, BCount);
    ArgBindingDescr_T** list = collectList<ArgBindingDescr_T>(unsigned(BCount), args);
    va_end(args);
    return list;
}

ArgBindingDescr_T* K_Arg(const char* KerArgName, KernelArgSelect_T Select)
{
    const std::string name = requireName(KerArgName, "K_Arg", "the kernel argument name");
    if (Select == KER_ARG_PARTILE_DIM || Select == KER_ARG_PARTILE_SIZE || Select == KER_ARG_LOADEDPARTILE_SIZE)
        failModel(format("K_Arg(\"%s\"): selector %d is one of a parametric space; bind it with K_ArgPar(\"%s\", "
                         "selector, KER_ITER_D*)",
                         name.c_str(), int(Select), name.c_str()));
    if (int(Select) < int(KER_ARG_TILE) || int(Select) > int(KER_ARG_TILE_PAD))
        failModel(format("K_Arg(\"%s\"): selector %d is not one of the KER_ARG* values", name.c_str(), int(Select)));
    // The used part of a tile is a KerArgP's (all of it for other arguments); the padding that of a
    // KerArgP whose kernel pads it, else none.
    tiler::Binding binding;
    binding.kind = tiler::Binding::Kind::KernelArg;
    binding.name = name;
    binding.select = tiler::ArgSelect(Select);
    return registry().arena.make(ArgBindingDescr_S{std::move(binding)});
}

ArgBindingDescr_T* C_Arg(const char* ArgName)
{
    tiler::Binding binding;
    binding.kind = tiler::Binding::Kind::CArg;
    binding.name = requireName(ArgName, "C_Arg", "the C argument name");
    return registry().arena.make(ArgBindingDescr_S{std::move(binding)});
}

ArgBindingDescr_T* C_ArgPlusImmOffset(const char* ArgName, int Offset)
{
    tiler::Binding binding;
    binding.kind = tiler::Binding::Kind::CArg;
    binding.name = requireName(ArgName, "C_ArgPlusImmOffset", "the C argument name");
    binding.value = Offset;
    return registry().arena.make(ArgBindingDescr_S{std::move(binding)});
}

ArgBindingDescr_T* C_ArgIndex(const char* ArgName, KernelIteratorT Iterator, unsigned int MultFactor)
{
    const std::string name = requireName(ArgName, "C_ArgIndex", "the C argument name");
    const int iterator = int(Iterator);
    const bool inSpace = iterator >= int(KER_ITER_D0) && iterator <= int(KER_ITER_D3);
    if (!inSpace && (iterator < int(KER_TILE) || iterator > int(KER_OUT_PLANE)))
        failModel(format("C_ArgIndex(\"%s\"): iterator %d is not KER_TILE, KER_IN_PLANE, KER_OUT_PLANE or "
                         "KER_ITER_D0..KER_ITER_D3",
                         name.c_str(), iterator));
    ArgBindingDescr_S result;
    result.value.kind = tiler::Binding::Kind::CArgIndex;
    result.value.name = name;
    result.value.iterator = inSpace ? tiler::IterationSpace::Tile : tiler::IterationSpace(iterator);
    result.value.value = MultFactor;
    result.spaceIterator = inSpace ? iterator : -1;  // its user kernel's KernelIterSpace says which loop
    return registry().arena.make(std::move(result));
}

ArgBindingDescr_T* Imm(int Value)
{
    tiler::Binding binding;
    binding.kind = tiler::Binding::Kind::Immediate;
    binding.value = Value;
    return registry().arena.make(ArgBindingDescr_S{std::move(binding)});
}

/* ---- Kernel arguments ------------------------------------------------------------------- */

Object_T** KerArgs(unsigned int KerArgCount, ...)
{
    va_list args;
    va_start(args, KerArgCount);
    Object_T** list = collectList<Object_T>(KerArgCount, args);
    va_end(args);
    return list;
}

Object_T* KerArg(const char* KerArgName, Object_Type_T ObjType, unsigned int W, unsigned int H,
                 unsigned int ItemSize, unsigned int TileOverlap, KernelArgConstraints_T Constraint,
                 unsigned int PreferedTileSize, const char* CArgName, unsigned int NextPlaneUpdate)
{
    tiler::KernelArgument argument;
    argument.name = requireName(KerArgName, "KerArg", "the kernel argument name");
    if ((ObjType & O_CONST) && (ObjType & O_OUT))
        failModel(format("KerArg(\"%s\"): O_CONST marks an input the kernel does not change; it cannot be an output",
                         argument.name.c_str()));
    checkTransferHints(argument.name, ObjType);
    // O_NTILED is a mark for KerArgSpace() arguments only; O_CONST and O_FLOAT describe the argument;
    // O_STACK_PRED asks for no alignment padding, and Tessera aligns every buffer anyway; the
    // transfer hints are checked above and the buffers moved anyway.
    argument.flags = ObjType & ~std::uint32_t(O_NTILED | O_CONST | O_FLOAT | O_STACK_PRED | O_ALWAYS_LOAD | O_NO_LOAD
                                              | O_NO_STORE);
    argument.floatItems = (ObjType & O_FLOAT) != 0;
    argument.width = W;
    argument.height = H;
    argument.itemSize = ItemSize;
    argument.tileOverlap = TileOverlap;
    argument.constraints = std::uint32_t(Constraint);
    argument.preferredTileSize = PreferedTileSize;
    argument.cArgName = CArgName != nullptr ? CArgName : "";  // 0: internal to the kernel
    argument.nextPlaneUpdate = NextPlaneUpdate;
    return registry().arena.make(plainObject(std::move(argument)));
}

Object_T* KerArgPadPlain(const char* KerArgName, Object_Type_T ObjType, unsigned int W, unsigned int H,
                         unsigned int BottomBuffer, unsigned int TopBuffer, unsigned int ItemSize,
                         unsigned int TileOverlap, KernelArgConstraints_T Constraint, unsigned int PreferedTileSize,
                         const char* CArgName, unsigned int NextPlaneUpdate)
{
    Object_T* argument = (KerArg)(KerArgName, ObjType, W, H, ItemSize, TileOverlap, Constraint, PreferedTileSize,
                                  CArgName, NextPlaneUpdate);
    setRoom(*argument, BottomBuffer, TopBuffer);
    return argument;
}

}  // extern "C"
