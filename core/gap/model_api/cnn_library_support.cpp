// What GreenWaves' CNN generator libraries call besides the API of the other files: argument lists
// filled one by one (AllocateCArgs, AllocateKerArgs), convolution arguments with used sizes and
// padding (KerArgP) and their tile selectors, parametric-space tiles (K_ArgPar), loop indexes
// (Ker_IteratorIndex) and first / last iteration predicates (K_ArgPred), arguments homed in L3 by
// name (SetKerArgInL3), the test-bench descriptions (AT_PrepareForTest*), kernel groups declared
// with UserKernelGroupK (run once, or once per group of a grouped convolution, with BindKGExpr and
// KerDynamicSymbols), and what is refused: compressed arguments (KerArgC, LUTInfo) and values read
// through a C argument's pointer (C_ArgIndirect).
// AutoTilerLib.h states what each means here.
#include "AutoTilerLib.h"
#include "builder_support.h"
#include "group_expressions.h"

#include <algorithm>
#include <cstdarg>

using namespace tessera::gap;
namespace tiler = tessera::tiler;

namespace {

template <class T>
T** emptyList(unsigned int count, const char* caller)
{
    if (count > 4096)
        failModel(format("%s(%u): a list holds at most 4096 entries", caller, count));
    return registry().arena.makeList(std::vector<T*>(count, nullptr));
}

std::string padText(v4s pad)
{
    return format("%d, %d, %d, %d", int(pad[0]), int(pad[1]), int(pad[2]), int(pad[3]));
}

bool isPadded(v4s pad) { return pad[0] != 0 || pad[1] != 0 || pad[2] != 0 || pad[3] != 0; }

}  // namespace

extern "C" {

CKernel_Arg_T** AllocateCArgs(unsigned int ArgCount) { return emptyList<CKernel_Arg_T>(ArgCount, "AllocateCArgs"); }

CKernelCall_T** AllocateCalls(unsigned int CallCount) { return emptyList<CKernelCall_T>(CallCount, "AllocateCalls"); }

Object_T** AllocateKerArgs(unsigned int KerArgCount) { return emptyList<Object_T>(KerArgCount, "AllocateKerArgs"); }

Object_T* KerArgP(const char* KerArgName, KernelArgDimDescrT* KerArgSpace, Object_Type_T ObjType, unsigned int W,
                  unsigned int H, unsigned int UsedW, unsigned int UsedH, v4s PadTile, v4s PadExec,
                  unsigned int ItemSize, int TileOverlap, KernelArgConstraints_T Constraint,
                  unsigned int PreferedTileSize, const char* CArgName)
{
    const std::string name = requireName(KerArgName, "KerArgP", "the kernel argument name");
    const std::string context = "KerArgP(\"" + name + "\")";
    const bool padded = isPadded(PadTile) || isPadded(PadExec);
    const bool scratch = (ObjType & O_BUFF) && !(ObjType & (O_IN | O_OUT));
    if (padded && (ObjType & O_BUFF) && !scratch)
        failModel(context + ": padding (PadTile " + padText(PadTile) + ", PadExec " + padText(PadExec) +
                  ") of a buffer loaded whole is not supported; Tessera pads inputs the DMA reads and L1-only "
                  "buffers, declare it without padding");
    if (padded && scratch && (PadTile[2] != PadExec[2] || PadTile[3] != PadExec[3]))
        failModel(context + ": padding PadTile " + padText(PadTile) + " with PadExec " + padText(PadExec) +
                  " of an L1 buffer is not supported; its kernels pad it as its tiles are placed, so give the "
                  "same top and bottom padding in both");
    // PadTile may exceed PadExec above and below: lines a pooling pads in its own input, which the
    // tiles are placed over and the convolution neither reads nor pads (GreenWaves' PadIncT).
    if (padded && (PadTile[2] < PadExec[2] || PadTile[3] < PadExec[3] || PadExec[0] < 0 || PadExec[1] < 0 ||
                   PadExec[2] < 0 || PadExec[3] < 0))
        failModel(context + ": padding PadTile " + padText(PadTile) + " with PadExec " + padText(PadExec) +
                  " is not supported; Tessera pads the kernel PadExec's lines within PadTile's, so each of "
                  "PadExec's must be at least 0 and its top and bottom at most PadTile's");
    if (UsedW == 0 || UsedH == 0 || UsedW > W || UsedH > H)
        failModel(format("%s: the kernel uses %u x %u of its %u x %u planes; the used part must be at least 1 x 1 "
                         "and at most the planes",
                         context.c_str(), UsedW, UsedH, W, H));
    if (UsedH < H && PadTile[3] > 0)
        failModel(format("%s: the kernel uses %u of its %u lines and pads %d more below them; the padding below "
                         "follows the planes' last line in Tessera, so give the bottom padding less the %u unused "
                         "lines (as GreenWaves' generators re-evaluate it)",
                         context.c_str(), UsedH, H, int(PadTile[3]), H - UsedH));
    Object_T* argument = KerArgInSpace(KerArgName, KerArgSpace, ObjType, W, H, ItemSize, TileOverlap, Constraint,
                                       PreferedTileSize, CArgName);
    if (padded) {
        // The tiles are placed over the padded lines; the kernel sees the home lines and the padding.
        tiler::KernelArgument& value = argument->value;
        value.padBefore = unsigned(PadTile[2]);
        value.padAfter = unsigned(PadTile[3]);
        value.kernelPadsItself = true;
        value.kernelPad = {int(PadExec[0]), int(PadExec[1]), int(PadExec[2]), int(PadExec[3])};
    }
    // Its strided window stops short of the last columns or lines: the kernel is told the used part.
    argument->value.usedWidth = UsedW < W ? UsedW : 0;
    argument->value.usedHeight = UsedH < H ? UsedH : 0;
    return argument;
}

ArgBindingDescr_T* K_ArgPar(const char* ArgName, KernelArgSelect_T ArgSelect, KernelIteratorT ItSpace)
{
    const std::string name = requireName(ArgName, "K_ArgPar", "the kernel argument name");
    if (int(ItSpace) < int(KER_ITER_D0) || int(ItSpace) > int(KER_ITER_D3))
        failModel(format("K_ArgPar(\"%s\"): space %d is not a parametric one; give KER_ITER_D0..KER_ITER_D3",
                         name.c_str(), int(ItSpace)));
    if (ArgSelect != KER_ARG_PARTILE_SIZE && ArgSelect != KER_ARG_LOADEDPARTILE_SIZE)
        failModel(format("K_ArgPar(\"%s\"): selector %d is not supported; Tessera binds KER_ARG_PARTILE_SIZE and "
                         "KER_ARG_LOADEDPARTILE_SIZE",
                         name.c_str(), int(ArgSelect)));
    // The chunk of the space the solver runs (its user kernel's KernelIterSpace says which loop).
    ArgBindingDescr_S result;
    result.value.kind = tiler::Binding::Kind::PlaneChunk;
    result.value.name = name;
    result.value.value = ArgSelect == KER_ARG_LOADEDPARTILE_SIZE ? 1 : 0;
    result.value.iterator = tiler::IterationSpace::Tile;  // resolved to InPlane / OutPlane with the space
    result.spaceIterator = int(ItSpace);
    return registry().arena.make(std::move(result));
}

ArgBindingDescr_T* Ker_IteratorIndex(KernelIteratorT Sel)
{
    const int iterator = int(Sel);
    const bool inSpace = iterator >= int(KER_ITER_D0) && iterator <= int(KER_ITER_D3);
    if (!inSpace && iterator != int(KER_ITER_TILE0) && iterator != int(KER_ITER_TILE1))
        failModel(format("Ker_IteratorIndex(%d): give KER_ITER_TILE0, KER_ITER_TILE1 or KER_ITER_D0..KER_ITER_D3",
                         iterator));
    ArgBindingDescr_S result;
    result.value.kind = tiler::Binding::Kind::LoopIndex;
    result.value.iterator =
        iterator == int(KER_ITER_TILE1) ? tiler::IterationSpace::OuterTile : tiler::IterationSpace::Tile;
    result.spaceIterator = inSpace ? iterator : -1;  // its user kernel's KernelIterSpace says which loop
    return registry().arena.make(std::move(result));
}

ArgBindingDescr_T* K_ArgPred(const char* ArgName, KernelArgSelect_T ArgSelect, KernelIteratorT ItSpace)
{
    const std::string name = requireName(ArgName, "K_ArgPred", "the kernel argument name");
    if (ArgSelect != KER_ARG_TILEFIRST && ArgSelect != KER_ARG_TILELAST)
        failModel(format("K_ArgPred(\"%s\"): selector %d is not a predicate; give KER_ARG_TILEFIRST or "
                         "KER_ARG_TILELAST",
                         name.c_str(), int(ArgSelect)));
    ArgBindingDescr_T* predicate = Ker_IteratorIndex(ItSpace);  // the same loop, resolved the same way
    predicate->value.kind = tiler::Binding::Kind::LoopPredicate;
    predicate->value.value = ArgSelect == KER_ARG_TILEFIRST ? 0 : 1;
    return predicate;
}

void SetKerArgInL3(const char* Name, const char* ArgName)
{
    const std::string kernelName = requireName(Name, "SetKerArgInL3", "the user kernel name");
    const std::string argName = requireName(ArgName, "SetKerArgInL3", "the kernel argument name");
    tiler::UserKernel* kernel = registry().model.findUserKernel(kernelName);
    if (kernel == nullptr)
        failModel("SetKerArgInL3(\"" + kernelName + "\", \"" + argName + "\"): no user kernel named " + kernelName
                  + " is declared; call it after UserKernel() declared it");
    const auto arg = std::find_if(kernel->args.begin(), kernel->args.end(),
                                  [&](const tiler::KernelArgument& a) { return a.name == argName; });
    if (arg == kernel->args.end())
        failModel("SetKerArgInL3(\"" + kernelName + "\", \"" + argName + "\"): user kernel " + kernelName
                  + " has no kernel argument " + argName);
    if (arg->has(tiler::ArgFlag::Buffer) && !arg->has(tiler::ArgFlag::In) && !arg->has(tiler::ArgFlag::Out))
        failModel("SetKerArgInL3(\"" + kernelName + "\", \"" + argName + "\"): " + argName
                  + " is an L1 buffer of the kernel, which has no home to put in L3");
    arg->flags |= tiler::ArgFlag::L2DoubleBuffer;  // as O_L2DB: homed in L3, staged through L2
}

KerArgLUT_T* LUTInfo(int Bits, int ElemBytes, int Sparse)
{
    failModel(format("LUTInfo(%d, %d, %d): compressed arguments (look-up tables of weights) are not supported by "
                     "Tessera; generate the layer without CompressedInputBits in its CNN_GenControl_T",
                     Bits, ElemBytes, Sparse));
}

Object_T* KerArgC(const char* KerArgName, KernelArgDimDescrT* KerArgSpace, Object_Type_T ObjType, unsigned int W,
                  unsigned int H, unsigned int ItemSize, KerArgLUT_T* LUTInfo, int TileOverlap,
                  KernelArgConstraints_T Constraint, unsigned int PreferedTileSize, const char* CArgName)
{
    (void) KerArgSpace, (void) ObjType, (void) W, (void) H, (void) ItemSize, (void) LUTInfo, (void) TileOverlap;
    (void) Constraint, (void) PreferedTileSize, (void) CArgName;
    failModel(format("KerArgC(\"%s\"): compressed arguments are not supported by Tessera; declare it with KerArg "
                     "and uncompressed values",
                     KerArgName != nullptr ? KerArgName : ""));
}

void AT_PrepareForTest(const char* Name, v4s DataSize, v4s L3, int InFeat, int OutFeat, int Width, int Height,
                       int FScW, int FScH, int ConvStrideW, int ConvStrideH, int DcW, int DcH, v4s PadInp, int FSpW,
                       int FSpH, int PoolStrideW, int PoolStrideH, int DpW, int DpH, v4s PadInc,
                       KernelOper_T KerOper, int Norm, int NormBias)
{
    // Describes the layer for GreenWaves' test benches, which Tessera does not write.
    (void) Name, (void) DataSize, (void) L3, (void) InFeat, (void) OutFeat, (void) Width, (void) Height;
    (void) FScW, (void) FScH, (void) ConvStrideW, (void) ConvStrideH, (void) DcW, (void) DcH, (void) PadInp;
    (void) FSpW, (void) FSpH, (void) PoolStrideW, (void) PoolStrideH, (void) DpW, (void) DpH, (void) PadInc;
    (void) KerOper, (void) Norm, (void) NormBias;
}

void AT_PrepareForTest_SQ8(const char* Name, int InFeat, int OutFeat, int Width, int Height, int BiasDataSize,
                           KernelOper_T OpC, int Fcx, int Fcy, int Dcx, int Dcy, int Scx, int Scy, v4s PadC,
                           KernelOper_T OpP, int Fpx, int Fpy, int Dpx, int Dpy, int Spx, int Spy, v4s PadP,
                           KernelOper_T OpA)
{
    // As AT_PrepareForTest.
    (void) Name, (void) InFeat, (void) OutFeat, (void) Width, (void) Height, (void) BiasDataSize, (void) OpC;
    (void) Fcx, (void) Fcy, (void) Dcx, (void) Dcy, (void) Scx, (void) Scy, (void) PadC, (void) OpP, (void) Fpx;
    (void) Fpy, (void) Dpx, (void) Dpy, (void) Spx, (void) Spy, (void) PadP, (void) OpA;
}

// A kernel group: run once it is one like UserKernelGroup's; run IterCount times (the SDK's grouped
// convolutions) its calls' BindKGExpr expressions move the arguments group by group. The KerGroupArg
// list gives each argument's bytes per iteration, from which a graph sizes the group's tensors.
KernelGroup_T* UserKernelGroupK(const char* GroupName, unsigned int IterCount, CKernel_Arg_T** CArg,
                                StackedTensors_T* StackedTensors, CKernelCall_T** CCalls, Object_T** KerArg)
{
    const std::string name = requireName(GroupName, "UserKernelGroupK", "the group name");
    const std::string context = format("UserKernelGroupK(\"%s\", %u, ...)", name.c_str(), IterCount);
    if (IterCount == 0 || IterCount > (1u << 20))
        failModel(context + ": a group runs 1 to 1048576 times; give the number of groups");
    if (StackedTensors != nullptr)
        failModel(context + ": stacked tensors are not supported by Tessera; pass 0 for them and bind each "
                            "tensor to the group's calls");
    std::vector<tiler::GroupArgument> arguments;
    ModelRegistry& state = registry();
    state.groupArguments.clear();
    for (const Object_T* argument : listItems(KerArg, context, "kernel group argument")) {
        if (!argument->groupArgument)
            failModel(context + ": kernel group argument " + argument->value.name
                      + " is not a KerGroupArg(); list the group's arguments with KerGroupArg()");
        const tiler::KernelArgument& described = argument->value;
        arguments.push_back({described.cArgName, std::uint64_t(described.width) * described.itemSize,
                             (described.flags & O_NTILED) != 0});
        state.groupArguments[described.name] = described.cArgName;
    }
    UserKernelGroup(GroupName, CArg, CCalls);
    state.groupArguments.clear();
    tiler::KernelGroup& group = *std::find_if(state.model.groups.begin(), state.model.groups.end(),
                                              [&](const tiler::KernelGroup& candidate) { return candidate.name == name; });
    group.iterations = IterCount;
    group.arguments = std::move(arguments);
    return state.arena.make(KernelGroup_S{name});
}

Object_T* KerGroupArg(const char* KerArgName, Object_Type_T ObjType, int ArgSize, int ItemSize, const char* CArgName)
{
    const std::string name = requireName(KerArgName, "KerGroupArg", "the kernel group argument name");
    const std::string context = "KerGroupArg(\"" + name + "\")";
    if (ArgSize <= 0 || ItemSize <= 0)
        failModel(format("%s: %d items of %d bytes; give at least one item of at least one byte", context.c_str(),
                         ArgSize, ItemSize));
    Object_S argument;
    argument.value.name = name;
    argument.value.cArgName = requireName(CArgName, "KerGroupArg", "the C argument name");
    argument.value.width = unsigned(ArgSize);
    argument.value.height = 1;
    argument.value.flags = unsigned(ObjType);
    argument.value.itemSize = unsigned(ItemSize);
    argument.groupArgument = true;
    return registry().arena.make(std::move(argument));
}

// A group's C argument combined with a constant: + and - move a pointer by that many items, as
// C_ArgPlusImmOffset does.
ArgBindingDescr_T* KG_ArgOper(const char* ArgName, char Oper, int Value)
{
    const std::string name = requireName(ArgName, "KG_ArgOper", "the C argument name");
    if (Oper != '+' && Oper != '-')
        failModel(format("KG_ArgOper(\"%s\", '%c', %d): Tessera binds a group's argument plus or minus an "
                         "offset only; use '+' or '-', or C_Arg() and an Imm() of the computed value",
                         name.c_str(), Oper, Value));
    return C_ArgPlusImmOffset(ArgName, Oper == '+' ? Value : -Value);
}

// Kept as written until its group is declared (UserKernelGroup resolves it, group_expressions.h).
ArgBindingDescr_T* BindKGExpr(const char* Expr)
{
    const std::string expression = requireName(Expr, "BindKGExpr", "the expression");
    tiler::Binding binding;
    binding.kind = tiler::Binding::Kind::Literal;
    binding.name = kUnresolvedGroupExpression + expression;
    return registry().arena.make(ArgBindingDescr_S{std::move(binding)});
}

// Symbols for the expressions of the kernel group declared next.
UserSymbol_T** KerDynamicSymbols(int SCount, ...)
{
    if (SCount < 0 || SCount > 4096)
        failModel(format("KerDynamicSymbols(%d, ...): give 0 to 4096 symbols", SCount));
    std::vector<UserSymbol_T*> symbols;
    va_list args;
    va_start(args, SCount);
    for (int i = 0; i < SCount; ++i)
        symbols.push_back(va_arg(args, UserSymbol_T*));
    va_end(args);
    for (int i = 0; i < SCount; ++i) {
        if (symbols[std::size_t(i)] == nullptr)
            failModel(format("KerDynamicSymbols(%d, ...): symbol %d is NULL; pass US_Int() or US_Type()", SCount, i + 1));
        registry().groupSymbols[symbols[std::size_t(i)]->name] = symbols[std::size_t(i)]->text;
    }
    return registry().arena.makeList(std::move(symbols));
}

ArgBindingDescr_T* C_ArgIndirect(const char* ArgName, int Offset)
{
    failModel(format("C_ArgIndirect(\"%s\", %d): a value read through a C argument's pointer is not supported by "
                     "Tessera; pass the value itself as a C argument (the SDK's scalar multiplicative bias: bind "
                     "it as a tile, K_Arg)", ArgName != nullptr ? ArgName : "", Offset));
}

}  // extern "C"
