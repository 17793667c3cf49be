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

/* ---- Flow control ---------------------------------------------------------------------- */

/* Parses the generator's command line: -o DIR (output folder), -R (re-entrant graphs), -h,
 * --l1 N (overrides the L1 budget the model sets). Returns 0 on success, non-zero on error. */
int TilerParseOptions(int argc, char **argv);
/* Tiles every user kernel and writes the generated files. Returns 0 on success; on failure
 * prints why and exits with status 1. */
int GenerateTilingCode(void);
/* Fails generation with a printf-style message (printed as "error: ..."), exit status 1. */
void GenTilingError(const char *Format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2), noreturn))
#endif
    ;

void SetUsedFilesNames(const char *StdTypedefsName, unsigned int LibKernelFileCount, ...);
void SetGeneratedFilesNames(const char *ArgInitsName, const char *ArgInitsHeaderName,
                            const char *CallTemplatesName, const char *CallTemplatesNameHeader);
void SetSymbolNames(const char *L1SymbName, const char *L2SymbName, const char *KernelDescrName,
                    const char *KernelDescArgName);
/* L1/L2 symbols become pointers the application allocates (sizes in the generated header). */
void SetSymbolDynamics(void);
void SetL1MemorySize(unsigned int Size);
void SetMemorySizes(unsigned int L1Size, unsigned int L2Size, unsigned int L3Size);
/* Returns a new string "Name_Suffix" owned by the library. */
char *AppendNames(const char *Name, const char *Suffix);

/* ---- Basic kernels ---------------------------------------------------------------------- */

CKernel_Arg_T **CArgs(unsigned int ArgCount, ...);
CKernel_Arg_T *TCArg(const char *ArgType, const char *ArgName);
void LibKernel(const char *KernelName, KernelCallTypeT CallType, CKernel_Arg_T **CArgs,
               const char *ParArgTypeName);

/* ---- User kernels ----------------------------------------------------------------------- */

KernelDimensionT *KernelDimensions(unsigned int InPlanes, unsigned int W, unsigned int H,
                                   unsigned int OutPlanes);
/* KernelIterationOrder(KER_DIM2, KER_TILE), (KER_DIM3, KER_TILE, KER_IN_PLANE),
 * (KER_DIM3, KER_OUT_PLANE, KER_TILE), (KER_DIM4, KER_OUT_PLANE, KER_TILE, KER_IN_PLANE), and the
 * order 1 forms (KER_DIM3, KER_IN_PLANE, KER_TILE), (KER_DIM4, KER_OUT_PLANE, KER_IN_PLANE, KER_TILE). */
KernelIterationT *KernelIterationOrder(KernelIteratorDimT Dim, ...);

CKernelCall_T **Calls(unsigned int CallCount, ...);
CKernelCall_T *Call(const char *CallName, KernelCallLocationT CallLocation,
                    ArgBindingDescr_T **BindingList);
ArgBindingDescr_T **Bindings(int BCount, ...);
ArgBindingDescr_T *K_Arg(const char *KerArgName, KernelArgSelect_T Select);
ArgBindingDescr_T *C_Arg(const char *ArgName);
ArgBindingDescr_T *C_ArgIndex(const char *ArgName, KernelIteratorT Iterator, unsigned int MultFactor);
ArgBindingDescr_T *Imm(int Value);

Object_T **KerArgs(unsigned int KerArgCount, ...);
Object_T *KerArg(const char *KerArgName, Object_Type_T ObjType, unsigned int W, unsigned int H,
                 unsigned int ItemSize, unsigned int TileOverlap, KernelArgConstraints_T Constraint,
                 unsigned int PreferedTileSize, const char *CArgName, unsigned int NextPlaneUpdate);

Kernel_T *UserKernel(const char *TemplateName, KernelDimensionT *KerDim, KernelIterationT *KerIter,
                     Tile_Orientation_T Orientation, CKernel_Arg_T **CArg, CKernelCall_T **CCalls,
                     Object_T **KerArg);

/* ---- Kernel groups ---------------------------------------------------------------------- */

void OpenKernelGroup(const char *GroupName);
void CloseKernelGroup(void);
/* Call location must be LOC_GROUP; bindings are C_Arg() and Imm() only. */
CKernelCall_T *UserKernelCall(const char *CallName, KernelCallLocationT CallLocation,
                              ArgBindingDescr_T **BindingList);
void UserKernelGroup(const char *GroupName, CKernel_Arg_T **CArg, CKernelCall_T **CCalls);

#ifdef __cplusplus
}
#endif

#endif
