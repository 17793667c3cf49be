/* Tessera's Autotiler model API.
 *
 * A model is a C program that includes this header, declares basic kernels, user kernels and
 * kernel groups with the calls below, and calls GenerateTilingCode() to write the tiled C code.
 * Build it with the flags printed by `tessera gap model-cflags` and `tessera gap model-libs`.
 *
 * The objects returned by CArgs, Calls, Bindings, KerArgs ... are owned by the library; a model
 * only passes them on. Errors in the model are reported with the name of the kernel and argument
 * involved, and generation stops with a non-zero exit status.
 */
#ifndef TESSERA_AUTO_TILER_LIB_H
#define TESSERA_AUTO_TILER_LIB_H

#include "AutoTilerLibTypes.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Names the SDK declares char * and its generators pass as such (const char * in C++ programs). */
#ifdef __cplusplus
#define AT_MODEL_NAME const char
#else
#define AT_MODEL_NAME char
#endif

/* ---- Flow control ---------------------------------------------------------------------- */

/* Parses the generator's command line: -o DIR (output folder), -R (re-entrant graphs), -h,
 * --l1 N (overrides the L1 budget the model sets). Returns 0 on success, non-zero on error. */
int TilerParseOptions(int argc, char **argv);
/* Generated user kernels and groups take the first Autotiler's trailing `Kernel_T *Ker`. Models
 * built with `tessera gap model-cflags --first-autotiler` (-DAT_FIRST_AUTOTILER) ask for it when
 * they parse their options, as every model does first. */
void AT_UseFirstAutotilerForm(void);
#ifdef AT_FIRST_AUTOTILER
#define TilerParseOptions(Argc, Argv) (AT_UseFirstAutotilerForm(), (TilerParseOptions)((Argc), (Argv)))
#endif
/* Tiles every user kernel and writes the generated files. Returns 0 on success; on failure
 * prints why and exits with status 1. */
int GenerateTilingCode(void);
/* Fails generation with a printf-style message (printed as "error: ..."), exit status 1. */
void GenTilingError(const char *Format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2), noreturn))
#endif
    ;

/* A printf-style note from a generator, printed on standard output with "debug: " in front when the
 * generator runs with --debug; otherwise nothing. */
void GenTilingDebug(const char *Format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

void SetUsedFilesNames(const char *StdTypedefsName, unsigned int LibKernelFileCount, ...);
/* SetGeneratedFilesNames takes 2 or 4 names (see the macro at the end of this header):
 *   SetGeneratedFilesNames(ArgInitsName, ArgInitsHeaderName, CallTemplatesName, CallTemplatesNameHeader)
 *   SetGeneratedFilesNames(CallTemplatesName, CallTemplatesNameHeader)
 * The kernels' .c/.h hold the user kernels and define the L1/L2 symbols they use (the header
 * gives their sizes, _L1_Memory_SIZE and _L2_Memory_SIZE). The 4-name form also writes the two
 * argument-initialisation files it names, which only include the kernels' header (kept for builds
 * that list them). NULL or "" keeps a name unchanged. The name is in parentheses so that the macro
 * does not apply to the declaration. */
void (SetGeneratedFilesNames)(const char *ArgInitsName, const char *ArgInitsHeaderName,
                              const char *CallTemplatesName, const char *CallTemplatesNameHeader);
void SetGeneratedKernelFilesNames(const char *CallTemplatesName, const char *CallTemplatesNameHeader);
/* SetSymbolNames takes 4 names (the guide's) or 2 (the SDK's current form), see the macro at the
 * end of this header: the L1 and L2 symbols of the kernels, then the kernel-descriptor names. */
void (SetSymbolNames)(const char *L1SymbName, const char *L2SymbName, const char *KernelDescrName,
                      const char *KernelDescArgName);
void SetMemorySymbolNames(const char *L1SymbName, const char *L2SymbName);
/* L1/L2 symbols become pointers the application allocates (sizes in the generated header). */
void SetSymbolDynamics(void);
/* Accepted as the SDK takes it; the generated user kernels are functions whatever the mode, which
 * changes neither what they compute nor how they tile. */
void SetInlineMode(InlineModeT Mode);
/* Turns the optimizations in On on and those in Off off (KER_OPT_* bits). */
void SetKernelOpts(KernelOptimizationT On, KernelOptimizationT Off);
void SetL1MemorySize(unsigned int Size);
void SetMemorySizes(unsigned int L1Size, unsigned int L2Size, unsigned int L3Size);
/* Returns a new string, Name followed by Suffix (no separator, as in the SDK), owned by the library. */
char *AppendNames(const char *Name, const char *Suffix);

/* ---- Basic kernels ---------------------------------------------------------------------- */

CKernel_Arg_T **CArgs(unsigned int ArgCount, ...);
CKernel_Arg_T *TCArg(const char *ArgType, const char *ArgName);
/* LibKernel takes 4 arguments (the guide's) or 5 (the current SDK's, whose last, NULL or a
 * CNN_Match(), says which CNN operations the kernel performs), see the macro at the end of this header. */
void (LibKernel)(const char *KernelName, KernelCallTypeT CallType, CKernel_Arg_T **CArgs,
                 const char *ParArgTypeName);
/* A basic-kernel argument struct declared once (LibKernelTemplate("FFT_Arg_T", CArgs(...))): a
 * parallel LibKernel passing NULL CArgs and that struct's name takes its fields. KerTypeTemplate
 * returns the fields of a declared template. */
void LibKernelTemplate(const char *TemplateName, CKernel_Arg_T **CArgs);
CKernel_Arg_T **KerTypeTemplate(const char *TemplateName);
void LibKernelMatching(const char *KernelName, KernelCallTypeT CallType, CKernel_Arg_T **CArgs,
                       const char *ParArgTypeName, CNN_LayerOp_T *CNN_Match);

/* ---- Choosing CNN basic kernels by what they compute (GreenWaves' CNN generator libraries) ----
 * A library declares each basic kernel with a CNN_Match(); a generator then asks
 * CNN_FindMatchingKernel() for the kernel of a layer's operation instead of naming it.
 *   CNN_Type(In1, In2, In3, In4, Out): operand sizes in bytes (In, Filter, Bias, Scale, Out for a
 *     convolution), negative for unsigned, 0 for any.
 *   CNN_OperList(N, op1, ..., opN): the operations a kernel performs first, or after them.
 *   CNN_Match(Oper1, Oper2, ParFeat, Type, Fx, Fy, Dx, Dy, Sx, Sy): Oper2 NULL for a kernel doing
 *     nothing after Oper1; ParFeat 1 when it splits features over the cores, 0 when it does not,
 *     -1 when it serves either. Each filter size, dilation and stride is a value the kernel is
 *     written for, 0 (not a filter), -1 (any value, passed to the kernel) or, for the y ones, -2
 *     (any value equal to the x one, passed).
 * CNN_FindMatchingKernel(Oper1, Oper2, ParFeat, sizes..., Fx, Fy, Dx, Dy, Sx, Sy, &NeedFx, ...,
 * &NeedSy, &ArgCount) returns the name of the kernel that performs Oper1 then Oper2 (KOP_NONE: nothing
 * after), splits features as asked, has the sizes asked (0 asks for any) and is written for the
 * filter asked (0 asks for any). Of several, the one written for the most of the filter's values
 * wins (a 5x5 stride 1 kernel before an NxN one), then the first declared. Need* say which values
 * the kernel takes as arguments (its -1 / -2 ones), ArgCount how many C arguments it has; any of
 * these pointers may be NULL. NULL is returned when no kernel matches. It considers kernels declared
 * without CALL_FLOAT_KER or CALL_HWC_KER; CNN_FindMatchingKernelAttr those whose call type has
 * exactly the attributes Attr. */
int *CNN_Type(int I1, int I2, int I3, int I4, int O);
KernelOper_T *CNN_OperList(int N, ...);
CNN_LayerOp_T *CNN_Match(KernelOper_T *KerOper1, KernelOper_T *KerOper2, int ParFeat, int *OpType, int Fx, int Fy,
                         int Dx, int Dy, int Sx, int Sy);
char *CNN_FindMatchingKernel(KernelOper_T KerOper1, KernelOper_T KerOper2, int ParallelOutFeat, int I1Size,
                             int I2Size, int I3Size, int I4Size, int OSize, int FX, int FY, int DX, int DY, int SX,
                             int SY, int *NeedFx, int *NeedFy, int *NeedDx, int *NeedDy, int *NeedSx, int *NeedSy,
                             int *ArgCount);
char *CNN_FindMatchingKernelAttr(KernelOper_T KerOper1, KernelOper_T KerOper2, int ParallelOutFeat,
                                 unsigned int Attr, int I1Size, int I2Size, int I3Size, int I4Size, int OSize,
                                 int FX, int FY, int DX, int DY, int SX, int SY, int *NeedFx, int *NeedFy,
                                 int *NeedDx, int *NeedDy, int *NeedSx, int *NeedSy, int *ArgCount);
/* The name of an operation ("KOP_CONV"); "KOP_?" for a value that is none. */
char *CNN_KernelOperImage(KernelOper_T Op);
/* The operation naming K1 followed by K2 and K3 (KOP_NONE: absent), as KOP_CONV, KOP_MAXPOOL,
 * KOP_RELU give KOP_CONV_MAXPOOL_RELU; K1 itself when no operation has that name. */
KernelOper_T CNN_CompositeKernel(KernelOper_T K1, KernelOper_T K2, KernelOper_T K3);

/* ---- What GreenWaves' CNN generator libraries call besides ------------------------------
 * AllocateCArgs(N) / AllocateKerArgs(N): a list of N entries the generator fills one by one
 * (KCArgs[i] = TCArg(...)), for CArgs / KerArgs of a count known at run time.
 * KerArgP(...): a convolution's input or intermediate with the tile sizes it uses and its padding.
 * Its kernel may read only the first UsedW columns and UsedH lines of each W x H plane (a strided
 * window that stops short of the last ones): the tiles and the DMA still cover whole planes, and
 * K_Arg(Name, KER_ARG_TILE_USEDW / _USEDH) gives the part of the current tile below UsedW / UsedH
 * (the tile's width / height for other arguments). Unpadded (PadTile and PadExec all 0), it is a
 * KerArg. A padded input is tiled over PadTile's top and bottom lines, horizontally only (a
 * vertical kernel with one has no tiling); its kernel sees the tile's home lines (KER_ARG_TILE,
 * KER_ARG_TILE_H) and K_Arg(Name, KER_ARG_TILE_PAD) gives PadExec's left and right and the padding
 * lines of that tile above and below, at most PadExec's: PadTile may have more, the lines a pooling
 * pads in the convolution's output (GreenWaves' PadIncT), which the convolution neither reads nor
 * pads. A one-tile L1 buffer may be padded too (that pooling's input, PadTile equal to PadExec): its
 * tiles are placed over its padding and its kernels see and are told the same. The bottom padding
 * follows line H, so with UsedH < H there must be none, as GreenWaves' generators give it. Padded
 * buffers loaded whole are refused with a message.
 * K_ArgPar(Name, KER_ARG_PARTILE_SIZE, Space): the items of a parametric space (IterParSpace) in the
 * current chunk. A parametric space whose chunk size a call is told this way, and whose index no call
 * reads (C_ArgIndex, Ker_IteratorIndex), may run in chunks of several items: the output planes' space
 * if both qualify, else the input planes'. The solver picks the chunk (multiples of the preferred
 * divider where the budget allows; the last chunk holds the rest), so a basic kernel splitting
 * "features" over the cores gets several per call. KER_ARG_LOADEDPARTILE_SIZE: the items of the space
 * argument Name holds in L1, all of them when it is promoted or holds every input plane (a filter's
 * TotalInFeatures), else the chunk's; 1 for a space it does not vary along. Arguments following a
 * chunked loop hold the chunk's planes back to back, one tile of each (a padded KerArgP, which its
 * kernel pads itself, the tile's home lines of each). Padding lines the copy zeroes (inputs padded
 * without KerArgP, or a KerArgP homed in L3), interleaved planes, vertical tiles of several planes
 * and room around the buffers keep such a loop at one item.
 * Ker_IteratorIndex(Space): the current index of that loop (KER_ITER_TILE0: the tile's).
 * K_ArgPred(Name, KER_ARG_TILEFIRST or KER_ARG_TILELAST, Space): 1 in the first / last iteration of
 * that loop, else 0 (a kernel that starts its sums over at the first tile).
 * SetKerArgInL3(Kernel, Arg): argument Arg of user kernel Kernel, already declared, is homed in L3
 * and staged through L2 (as O_L2DB), as the generators honour CNN_GenControl_T's *_L3 flags.
 * AllocateCalls(N): a list of N calls filled one by one, as AllocateCArgs.
 * KerArgC / LUTInfo (compressed weights) are declared and refused with a message.
 * AT_PrepareForTest / AT_PrepareForTest_SQ8 describe a layer for GreenWaves' own test benches;
 * Tessera accepts them and writes no test bench.
 * UserKernelGroupK(Name, N, CArgs, 0, Calls, KerGroupArgs) declares a kernel group whose calls run
 * N times (N = 1: as UserKernelGroup; the SDK's grouped convolutions run once per group).
 * KerGroupArg(Name, Type, Items, ItemSize, CArg) gives the items one iteration uses of the group's
 * C argument CArg (O_NTILED: the same ones every iteration); a graph sizes the tensors bound to the
 * group from them. KG_ArgOper(CArg, '+' or '-', N) binds a group's C argument N items further or
 * back, as C_ArgPlusImmOffset. BindKGExpr("KArg(In, Name) + GroupIn*W*H * KArg(In, TileIndex)")
 * binds a C expression: KArg(Arg, Name) is the group's C argument, KArg(Arg, TileIndex) the
 * iteration, CArg(Name) a C argument, and the symbols KerDynamicSymbols declared just before the
 * group (or UserSymbols) their values. C_ArgIndirect (a value read through a pointer) is refused. */
CKernel_Arg_T **AllocateCArgs(unsigned int ArgCount);
Object_T **AllocateKerArgs(unsigned int KerArgCount);
Object_T *KerArgP(const char *KerArgName, KernelArgDimDescrT *KerArgSpace, Object_Type_T ObjType, unsigned int W,
                  unsigned int H, unsigned int UsedW, unsigned int UsedH, v4s PadTile, v4s PadExec,
                  unsigned int ItemSize, int TileOverlap, KernelArgConstraints_T Constraint,
                  unsigned int PreferedTileSize, const char *CArgName);
ArgBindingDescr_T *K_ArgPar(const char *ArgName, KernelArgSelect_T ArgSelect, KernelIteratorT ItSpace);
ArgBindingDescr_T *Ker_IteratorIndex(KernelIteratorT Sel);
ArgBindingDescr_T *K_ArgPred(AT_MODEL_NAME *ArgName, KernelArgSelect_T ArgSelect, KernelIteratorT ItSpace);
void SetKerArgInL3(AT_MODEL_NAME *Name, AT_MODEL_NAME *ArgName);
CKernelCall_T **AllocateCalls(unsigned int CallCount);
KerArgLUT_T *LUTInfo(int Bits, int ElemBytes, int Sparse);
Object_T *KerArgC(AT_MODEL_NAME *KerArgName, KernelArgDimDescrT *KerArgSpace, Object_Type_T ObjType, unsigned int W,
                  unsigned int H, unsigned int ItemSize, KerArgLUT_T *LUTInfo, int TileOverlap,
                  KernelArgConstraints_T Constraint, unsigned int PreferedTileSize, AT_MODEL_NAME *CArgName);
/* An output using the L1 buffer of argument number Alias of the KerArgs list (from 0, the list as
 * kept: AT_NO_KER_ARG entries left out), as the SDK's recurrent layers declare their state: the
 * input Sin is read into the buffer before the loops, every step rewrites it in place, and this
 * argument (Sout) is written from it after them. Both must be whole buffers (O_BUFF, O_NTILED, one
 * plane) of one size, the other O_IN and this one O_OUT. */
Object_T *KerArgAliased(AT_MODEL_NAME *KerArgName, KernelArgDimDescrT *KerArgSpace, unsigned int Alias,
                        Object_Type_T ObjType, unsigned int W, unsigned int H, unsigned int ItemSize,
                        int TileOverlap, KernelArgConstraints_T Constraint, unsigned int PreferedTileSize,
                        AT_MODEL_NAME *CArgName);
void AT_PrepareForTest(const char *Name, v4s DataSize, v4s L3, int InFeat, int OutFeat, int Width, int Height,
                       int FScW, int FScH, int ConvStrideW, int ConvStrideH, int DcW, int DcH, v4s PadInp, int FSpW,
                       int FSpH, int PoolStrideW, int PoolStrideH, int DpW, int DpH, v4s PadInc,
                       KernelOper_T KerOper, int Norm, int NormBias);
void AT_PrepareForTest_SQ8(const char *Name, int InFeat, int OutFeat, int Width, int Height, int BiasDataSize,
                           KernelOper_T OpC, int Fcx, int Fcy, int Dcx, int Dcy, int Scx, int Scy, v4s PadC,
                           KernelOper_T OpP, int Fpx, int Fpy, int Dpx, int Dpy, int Spx, int Spy, v4s PadP,
                           KernelOper_T OpA);
KernelGroup_T *UserKernelGroupK(const char *GroupName, unsigned int IterCount, CKernel_Arg_T **CArg,
                                StackedTensors_T *StackedTensors, CKernelCall_T **CCalls, Object_T **KerArg);
Object_T *KerGroupArg(const char *KerArgName, Object_Type_T ObjType, int ArgSize, int ItemSize, const char *CArgName);
ArgBindingDescr_T *KG_ArgOper(const char *ArgName, char Oper, int Value);
ArgBindingDescr_T *BindKGExpr(const char *Expr);
UserSymbol_T **KerDynamicSymbols(int SCount, ...);
ArgBindingDescr_T *C_ArgIndirect(const char *ArgName, int Offset);

/* ---- User kernels ----------------------------------------------------------------------- */

KernelDimensionT *KernelDimensions(unsigned int InPlanes, unsigned int W, unsigned int H,
                                   unsigned int OutPlanes);
/* KernelIterationOrder(KER_DIM2, KER_TILE), (KER_DIM3, KER_TILE, KER_IN_PLANE),
 * (KER_DIM3, KER_OUT_PLANE, KER_TILE), (KER_DIM4, KER_OUT_PLANE, KER_TILE, KER_IN_PLANE), and the
 * order 1 forms (KER_DIM3, KER_IN_PLANE, KER_TILE), (KER_DIM4, KER_OUT_PLANE, KER_IN_PLANE, KER_TILE).
 * The first argument may also be the number of iterators that follow, as the SDK's first Autotiler
 * takes it: KernelIterationOrder(1, KER_TILE), (3, KER_OUT_PLANE, KER_TILE, KER_IN_PLANE). The macro
 * at the end of this header counts the iterators, so both read the same. */
KernelIterationT *(KernelIterationOrder)(KernelIteratorDimT Dim, ...);
KernelIterationT *KernelIterationOrderCounted(unsigned int IteratorCount, KernelIteratorDimT Dim, ...);
/* The SDK accepts 0 planes for a kernel without planes: taken as 1. */

CKernelCall_T **Calls(unsigned int CallCount, ...);
CKernelCall_T *Call(const char *CallName, KernelCallLocationT CallLocation,
                    ArgBindingDescr_T **BindingList);
ArgBindingDescr_T **Bindings(int BCount, ...);
ArgBindingDescr_T *K_Arg(const char *KerArgName, KernelArgSelect_T Select);
ArgBindingDescr_T *C_Arg(const char *ArgName);
/* C argument ArgName plus Offset of its items (C pointer arithmetic), as in the SDK. */
ArgBindingDescr_T *C_ArgPlusImmOffset(const char *ArgName, int Offset);
ArgBindingDescr_T *C_ArgIndex(const char *ArgName, KernelIteratorT Iterator, unsigned int MultFactor);
ArgBindingDescr_T *Imm(int Value);
/* User symbols: UserSymbols(2, US_Float("LogOffset", 1e-6f), US_Int("Frames", 49)) names values the
 * model's calls bind with BindKExpr("LogOffset"), which passes the value as a C constant. BindKExpr
 * takes a symbol's name; other expressions are refused with a message. */
void UserSymbols(int SCount, ...);
UserSymbol_T *US_Int(const char *Name, int Value);
UserSymbol_T *US_Float(const char *Name, float Value);
/* A symbol standing for C text, such as a type name: US_Type("Type", "signed char"). */
UserSymbol_T *US_Type(AT_MODEL_NAME *Name, AT_MODEL_NAME *String);
ArgBindingDescr_T *BindKExpr(const char *Expr);
/* K_TileOper(ArgName, AccessType, '@', Index): item Index of the argument's current tile, read
 * through a pointer of AccessType (K_TileOper("Shift", "short int *", '@', 0) passes the first item
 * of Shift's tile). The other operators are refused with a message. */
ArgBindingDescr_T *K_TileOper(const char *ArgName, const char *AccessType, char Oper, int Value);

Object_T **KerArgs(unsigned int KerArgCount, ...);

/* Markers for the lists above: an entry equal to AT_NO_C_ARG, AT_NO_CALL, AT_NO_ARG_BINDING or
 * AT_NO_KER_ARG is left out of its list (`NeedBias ? K_Arg("Bias", KER_ARG_TILE) : AT_NO_ARG_BINDING`).
 * AT_IGNORE_ARG_BINDING keeps its place in a call's bindings and leaves that argument of the basic
 * kernel unset (a sequential kernel gets 0). */
extern ArgBindingDescr_T *AT_NO_ARG_BINDING, *AT_IGNORE_ARG_BINDING;
extern CKernelCall_T *AT_NO_CALL;
extern Object_T *AT_NO_KER_ARG;
extern CKernel_Arg_T *AT_NO_C_ARG;
/* KerArg takes the guide's arguments (an Object_Type_T second) or the current SDK's (a KerArgSpace()
 * second, no NextPlaneUpdate), see the macro at the end of this header. */
Object_T *(KerArg)(const char *KerArgName, Object_Type_T ObjType, unsigned int W, unsigned int H,
                   unsigned int ItemSize, unsigned int TileOverlap, KernelArgConstraints_T Constraint,
                   unsigned int PreferedTileSize, const char *CArgName, unsigned int NextPlaneUpdate);

/* Returns NULL, and adds nothing, when AT_KERNEL_NOSOLUTION_ERROR is off and no tiling fits the
 * L1 budget; with the option on (the default) such a kernel is reported by GenerateTilingCode().
 * UserKernel takes 7 arguments (KernelDimensions and KernelIterationOrder, the guide's) or 6
 * (KernelIterSpace, the current SDK's), see the macro at the end of this header. */
Kernel_T *(UserKernel)(const char *TemplateName, KernelDimensionT *KerDim, KernelIterationT *KerIter,
                       Tile_Orientation_T Orientation, CKernel_Arg_T **CArg, CKernelCall_T **CCalls,
                       Object_T **KerArg);

/* ---- A layer generated in two ways, the cheaper kept ------------------------------------
 * CopyAndPopUserKernel(Ker): takes the user kernel declared last (Ker, as UserKernel returned it) out
 * of the model and returns a copy whose Cost says what its tiling costs at the model's budgets (see
 * KernelCost_T). The same name may then be declared again, another way. PushBackUserKernel(Copy)
 * puts a copy back at the end of the model; ReleaseUserKerne(Copy) (the SDK's spelling) forgets one
 * (NULL: nothing). PopUserKernel() takes the last user kernel out for good. */
Kernel_T *CopyAndPopUserKernel(Kernel_T *Kernel);
void PushBackUserKernel(Kernel_T *Kernel);
void ReleaseUserKerne(Kernel_T *Kernel);
void PopUserKernel(void);

/* ---- The current SDK's iteration spaces --------------------------------------------------
 * KernelIterSpace(N, ...) lists a user kernel's loops, outermost first: one IterTiledSpace(KER_ITER_TILE0)
 * and up to two non-tiled spaces of a fixed size, IterFixedSpace(KER_ITER_Dk, Size) or
 * IterParSpace(KER_ITER_Dk, Size, PreferredDivider). KerArgSpace(N, ...) lists the spaces an
 * argument varies along (its planes, then KER_ITER_TILE0 when it is tiled). A non-tiled space some
 * input varies along is the kernel's input-plane loop (outputs that vary along it too get one plane
 * per input plane); otherwise it is the output-plane loop. With two, the outer is the output-plane
 * loop and the inner the input-plane loop, and arguments varying along both (filters) hold their
 * planes output-major. These are the loop nests KernelIterationOrder() offers.
 * HWC: a KerArgSpace listing a space after KER_ITER_TILE0 lays the argument out with the features of
 * each pixel side by side, as the SDK's HWC layers do; that space is a plane loop like any, a chunk
 * of it holding the chunk's features of each pixel of the tile (one 2-D copy gathers them). Spaces
 * run whole, in one iteration: an iterator or'ed with SPACE_PROP_ONE_TILE, and the features of a
 * padded HWC argument (its kernel pads the lines of each tile) or of one listing two spaces after
 * its tiles. Such a space is no loop: its chunk (K_ArgPar) is all its items, its calls sit in the
 * loop around it, and an HWC argument is tiled by lines of Width x Features items. A whole space
 * listed before the tiles (CHW), HWC arguments tiled vertically, and padded ones along an
 * IterFixedSpace make a kernel without a tiling: UserKernel then returns NULL when
 * AT_KERNEL_NOSOLUTION_ERROR is off (so a generator falls back to another form) and stops with a
 * message otherwise.
 * Two-level tiling: IterTiledSpace(KER_ITER_TILE1) first, then the spaces above. The arguments whose
 * KerArgSpace is KER_ITER_TILE1 are tiled by that outer loop (their tiles move once per outer tile,
 * before and after the inner loops), those of KER_ITER_TILE0 by the inner one, which runs over all
 * its tiles for each outer tile: a matrix product's first operand and result in bands of lines
 * (KER_ITER_TILE1), the second operand in bands of columns for each (KER_ITER_TILE0). KER_ARG_TILE*
 * bindings of an argument refer to the tile loop that tiles it. */
KernelIterationSpaceT *KernelIterSpace(unsigned int Dim, ...);
KernelIteratorDescrT *IterTiledSpace(KernelIteratorT IterSpace);
KernelIteratorDescrT *IterFixedSpace(KernelIteratorT IterSpace, unsigned int Dim);
KernelIteratorDescrT *IterParSpace(KernelIteratorT IterSpace, unsigned int Dim, unsigned int PrefDiv);
/* A fixed space of up to Dim items of which the kernel's integer C argument Name says, at run time,
 * how many run (recurrent layers over sequences of variable length). L1 is sized for Dim; the
 * arguments along the space are moved one item at a time, only for the items run; a reversed
 * argument (SPACE_PROP_REVERT) starts from item Name - 1. tiling.json's DMA figures are for Dim. */
KernelIteratorDescrT *IterFixedSpaceDynBound(KernelIteratorT IterSpace, unsigned int Dim, const char *Name);
KernelArgDimDescrT *KerArgSpace(unsigned int Dim, ...);
Object_T *KerArgInSpace(const char *KerArgName, KernelArgDimDescrT *KerArgSpace, Object_Type_T ObjType,
                        unsigned int W, unsigned int H, unsigned int ItemSize, int TileOverlap,
                        KernelArgConstraints_T Constraint, unsigned int PreferedTileSize, const char *CArgName);
Kernel_T *UserKernelInSpace(const char *TemplateName, KernelIterationSpaceT *KerIter, Tile_Orientation_T Orientation,
                            CKernel_Arg_T **CArg, CKernelCall_T **CCalls, Object_T **KerArg);
/* A kernel argument with room for BottomBuffer items before and TopBuffer items after each of its
 * L1 buffers. The DMA never touches that room: a kernel keeps data there from one tile to the next,
 * as a FIR keeps its delay line before its input tile, copying the tile's last samples before the
 * next tile with K_Arg(Name, KER_ARG_TILE_NEXTDB). Such an argument is never promoted whole into L1.
 * The current SDK's form (a KerArgSpace() second); C++ model programs also have the first Autotiler's
 * (an Object_Type_T second, a trailing NextPlaneUpdate). Strings are char * in C, as the SDK declares
 * them, so a model that declares KerArgPad itself compiles against this header (AddKernelArgDim below
 * too: the SDK's CNN libraries keep pointers to it). */
Object_T *KerArgPad(AT_MODEL_NAME *KerArgName, KernelArgDimDescrT *KerArgSpace, Object_Type_T ObjType, unsigned int W,
                    unsigned int H, unsigned int BottomBuffer, unsigned int TopBuffer, unsigned int ItemSize,
                    int TileOverlap, KernelArgConstraints_T Constraint, unsigned int PreferedTileSize,
                    AT_MODEL_NAME *CArgName);
/* The first Autotiler's KerArgPad under a name of its own for C model programs (C++ ones call it KerArgPad). */
Object_T *KerArgPadPlain(const char *KerArgName, Object_Type_T ObjType, unsigned int W, unsigned int H,
                         unsigned int BottomBuffer, unsigned int TopBuffer, unsigned int ItemSize,
                         unsigned int TileOverlap, KernelArgConstraints_T Constraint, unsigned int PreferedTileSize,
                         const char *CArgName, unsigned int NextPlaneUpdate);

/* The user-kernel options of AT_SetGraphCtrl (AT_KERNEL_BUFFER_PROMOTE,
 * AT_KERNEL_PARTIAL_BUFFER_PROMOTE, AT_KERNEL_NOSOLUTION_ERROR) under the SDK's other name; a graph
 * option is refused. */
void AT_SetKernelCtrl(AT_GraphCtrl_T Ctrl, void *Val);
/* Facts about user kernel Name: AT_KERINFO_OPER, its operations (MACs or comparable) per call, which
 * the report and AT_GRAPH_PRODUCE_OPERINFOS show; AT_KERINFO_BANDWIDTH, its bytes moved, accepted and
 * not used (the tile solver counts the DMA itself). */
void AddKernelInfos(const char *Name, AT_KernelInfo_T Info, long long int NumVal, void *Val);
/* The C type of an argument of DataSize bytes (1, 2 or 4; 2 or 4 for floats), a pointer when Pointer,
 * restricted when Restrict too: CNN_ArgDataType(1, 1, 1) is "signed char * __restrict__",
 * CNN_ArgDataTypeUns(2, 0, 0) "unsigned short int", CNN_ArgDataTypeF(2, 1, 0) "F16 *" (the half-float type
 * of GreenWaves' float16 basic kernels). */
char *CNN_ArgDataType(int DataSize, int Pointer, int Restrict);
char *CNN_ArgDataTypeUns(int DataSize, int Pointer, int Restrict);
char *CNN_ArgDataTypeF(int DataSize, int Pointer, int Restrict);
/* The shape of argument ArgName of user kernel Name: Dim sizes, outermost first, the element size in
 * bytes last (Dim -1: a list ended by 0), e.g. AddKernelArgDim("Resize", "In", 4, Channels, H, W, 1).
 * The element size must divide the argument's item size (a filter declared as one item of Fx x Fy
 * elements is shaped OutFeat, InFeat, Fx, Fy, 2) and the sizes must make whole planes of the
 * argument; the shape is written in the tiling report. The Float form says the elements are
 * floating point. */
void AddKernelArgDim(AT_MODEL_NAME *Name, AT_MODEL_NAME *ArgName, int Dim, ...);
void AddKernelFloatArgDim(AT_MODEL_NAME *Name, AT_MODEL_NAME *ArgName, int Dim, ...);

/* ---- CNN generator controls (CNN_GenControl_T, AutoTilerLibTypes.h) -------------------- */

/* Every field to its default. */
void CNN_InitGenCtrl(CNN_GenControl_T *Ctrl);
/* One field by name, case insensitive: the field's own name (PadType) or NNTool's (PADTYPE,
 * RNN_USE_HARDACT, INPUT_DATASIZE, ...). Val is AT_OPT_ON, AT_OPT_OFF, AT_OPT_VAL(n) or a string. An
 * unknown name stops generation with the list of known ones. */
void CNN_SetGenCtrl(CNN_GenControl_T *Ctrl, const char *Name, void *Val);
/* Name, Val pairs up to a 0 name. */
void CNN_SetGenCtrlList(CNN_GenControl_T *Ctrl, ...);

/* ---- Kernel groups ---------------------------------------------------------------------- */

void OpenKernelGroup(const char *GroupName);
void CloseKernelGroup(void);
/* As CloseKernelGroup (the SDK's form that keeps the group's kernels apart; Tessera never merges them). */
void CloseKernelGroupNoMerge(void);
/* Call location must be LOC_GROUP; bindings are C_Arg() and Imm() only. */
CKernelCall_T *UserKernelCall(const char *CallName, KernelCallLocationT CallLocation,
                              ArgBindingDescr_T **BindingList);
void UserKernelGroup(const char *GroupName, CKernel_Arg_T **CArg, CKernelCall_T **CCalls);

/* ---- Graphs ----------------------------------------------------------------------------- */

/* Count items of 5 values each: AT_MemLocation_T Location, unsigned int AvailableMemory (bytes),
 * const char *MemoryBaseName (C name the device's symbols are built from), const char
 * *ConstFileName (flash devices: the constants image; 0 for other devices), int ExtManaged (non-zero:
 * the application configures and allocates the device). The L1, L2 and L3 Ram sizes are also the
 * tiling budgets (--l1 on the command line still wins for L1). */
void SetMemoryDeviceInfos(int Count, ...);
/* Val: AT_OPT_ON, AT_OPT_OFF or AT_OPT_VAL(x); the *_CVAR_NAME options and AT_GRAPH_DUMP_ONE_NODE
 * take a string, AT_GRAPH_PREF_L3_* an AT_MEM_* location. Setting an option again replaces it.
 * AT_GRAPH_L1_PROMOTION, AT_GRAPH_ARG2STRUCT, AT_GRAPH_GROUP_WEIGHTS, AT_GRAPH_ASYNC_FORK,
 * AT_GRAPH_USE_MERGED_DMA and AT_GRAPH_REORDER_CONSTANT_IN are accepted but not implemented: a value
 * other than the one the generated code follows anyway (1 for the last, 0 for the others) prints a
 * warning. */
void AT_SetGraphCtrl(AT_GraphCtrl_T Ctrl, void *Val);

/* Opens graph Name. Globals lists the graph function's arguments (ARG_SCOPE_ARG) and its global
 * symbols (ARG_SCOPE_GLOBAL); Locals the buffers between nodes (ARG_SCOPE_LOCAL). A plain TCArg()
 * is taken as ARG_SCOPE_ARG/ARG_DIR_INOUT in Globals and ARG_SCOPE_LOCAL/ARG_DIR_INOUT in Locals. */
void CreateGraph(const char *Name, CKernel_Arg_T **Globals, CKernel_Arg_T **Locals);
/* A graph symbol: C type and name, scope, direction, home and execution memories (AT_MEM_UNDEF:
 * chosen by the tiler) and, for ARG_DIR_CONSTIN symbols, the constant's values (ConstInfo, else 0).
 * Also usable wherever TCArg() is. */
CKernel_Arg_T *TCArgInfo(const char *Type, const char *Name, ArgScope_T Scope, ArgDirection_T Dir,
                         AT_MemLocation_T Home, AT_MemLocation_T Exec, ConstInit_T *Init);
/* Format 1: the file holds float32 values converted to Q(Fract) fixed point; 0: it holds the
 * fixed-point values. Binary 1: a raw binary file; 0: text. Size: stored item size in bits (8, 16
 * or 32). */
ConstInit_T *ConstInfo(const char *FileName, int Format, int Binary, int Size, int Fract);
/* A node calling user kernel (or kernel group) Name; one binding per C argument, in order: GNodeArg()
 * for a graph symbol's address, GNodeCArg() for a runner argument passed by value, Imm() for a
 * constant. */
void AddNode(const char *Name, ArgBindingDescr_T **Bindings);
/* Binds graph symbol Name (argument, global or local) with direction GNA_IN, GNA_OUT or GNA_INOUT.
 * AliasedArgName: 0, or for GNA_INOUT the symbol read. When it is another symbol, the node writes
 * Name in its place: Name (a local) then has no buffer of its own and names AliasedArgName's. */
ArgBindingDescr_T *GNodeArg(int Dir, const char *Name, const char *AliasedArgName);
/* Passes graph argument ArgName (ARG_SCOPE_ARG, ARG_DIR_IN: a parameter of the runner such as
 * NNTool's `bool Reset`) to the node's C argument as it is; the graph neither sizes nor places it. */
ArgBindingDescr_T *GNodeCArg(const char *ArgName);
/* OutTensorName (a local or an output) is the Count tensors named after it, one after the other:
 * nodes bind the members as if they were symbols and use their part of OutTensorName in place, so
 * a concatenation needs no copy. The members are not declared in CreateGraph's lists; each takes
 * the size of the kernel argument it is bound to. */
void AddStackedTensors(const char *OutTensorName, int Count, ...);
void CloseGraph(void);

#ifdef __cplusplus
}
/* C++ model programs: the current SDK's KerArg as an overload. */
inline Object_T *KerArg(const char *KerArgName, KernelArgDimDescrT *Space, Object_Type_T ObjType, unsigned int W,
                        unsigned int H, unsigned int ItemSize, int TileOverlap, KernelArgConstraints_T Constraint,
                        unsigned int PreferedTileSize, const char *CArgName)
{
    return KerArgInSpace(KerArgName, Space, ObjType, W, H, ItemSize, TileOverlap, Constraint, PreferedTileSize, CArgName);
}
/* C++ model programs: the first Autotiler's KerArgPad, without a KerArgSpace(). */
inline Object_T *KerArgPad(const char *KerArgName, Object_Type_T ObjType, unsigned int W, unsigned int H,
                           unsigned int BottomBuffer, unsigned int TopBuffer, unsigned int ItemSize,
                           unsigned int TileOverlap, KernelArgConstraints_T Constraint, unsigned int PreferedTileSize,
                           const char *CArgName, unsigned int NextPlaneUpdate)
{
    return KerArgPadPlain(KerArgName, ObjType, W, H, BottomBuffer, TopBuffer, ItemSize, TileOverlap, Constraint,
                          PreferedTileSize, CArgName, NextPlaneUpdate);
}
#else
/* C model programs: KerArg dispatches on the type of its second argument. */
#define KerArg(Name, Second, ...) \
    _Generic((Second), KernelArgDimDescrT *: KerArgInSpace, default: (KerArg))(Name, Second, __VA_ARGS__)
#endif

/* KernelIterationOrder(Dim, iterators...) passes the number of iterators along. */
#define AT_ITERATOR_COUNT(...) AT_EIGHTH_ARGUMENT(__VA_ARGS__, 6, 5, 4, 3, 2, 1, 0, )
#define KernelIterationOrder(...) KernelIterationOrderCounted(AT_ITERATOR_COUNT(__VA_ARGS__), __VA_ARGS__)

/* UserKernel(...) dispatches on its argument count: 7 to the function above, 6 to UserKernelInSpace. */
extern int UserKernel_takes_6_or_7_arguments;
#define AT_EIGHTH_ARGUMENT(A1, A2, A3, A4, A5, A6, A7, A8, ...) A8
#define UserKernel(...)                                                                                     \
    AT_EIGHTH_ARGUMENT(__VA_ARGS__, (UserKernel), UserKernelInSpace, UserKernel_takes_6_or_7_arguments,      \
                       UserKernel_takes_6_or_7_arguments, UserKernel_takes_6_or_7_arguments,                 \
                       UserKernel_takes_6_or_7_arguments, UserKernel_takes_6_or_7_arguments, )(__VA_ARGS__)

/* LibKernel(...) likewise: 4 arguments to the function above, 5 to LibKernelMatching. */
extern int LibKernel_takes_4_or_5_arguments;
#define AT_SIXTH_ARGUMENT(A1, A2, A3, A4, A5, A6, ...) A6
#define LibKernel(...)                                                                                      \
    AT_SIXTH_ARGUMENT(__VA_ARGS__, LibKernelMatching, (LibKernel), LibKernel_takes_4_or_5_arguments,        \
                      LibKernel_takes_4_or_5_arguments, LibKernel_takes_4_or_5_arguments, )(__VA_ARGS__)

/* SetGeneratedFilesNames(...) dispatches on its argument count: 4 names to the function above, 2 to
 * SetGeneratedKernelFilesNames; any other count names an object that cannot be called. */
extern int SetGeneratedFilesNames_takes_2_or_4_file_names;
#define AT_FIFTH_ARGUMENT(A1, A2, A3, A4, A5, ...) A5
#define SetGeneratedFilesNames(...)                                                                    \
    AT_FIFTH_ARGUMENT(__VA_ARGS__, (SetGeneratedFilesNames), SetGeneratedFilesNames_takes_2_or_4_file_names, \
                      SetGeneratedKernelFilesNames, SetGeneratedFilesNames_takes_2_or_4_file_names, )(__VA_ARGS__)

/* SetSymbolNames(...) likewise: 4 names to the function above, 2 to SetMemorySymbolNames. */
extern int SetSymbolNames_takes_2_or_4_names;
#define SetSymbolNames(...)                                                                                \
    AT_FIFTH_ARGUMENT(__VA_ARGS__, (SetSymbolNames), SetSymbolNames_takes_2_or_4_names, SetMemorySymbolNames, \
                      SetSymbolNames_takes_2_or_4_names, )(__VA_ARGS__)

#endif
