/* Types, enumerations and argument property flags of Tessera's Autotiler model API. */
#ifndef TESSERA_AUTO_TILER_LIB_TYPES_H
#define TESSERA_AUTO_TILER_LIB_TYPES_H

#include <stdint.h>

/* Four signed bytes (left, right, top, bottom paddings in KerArgP), as Gap.h declares it. */
#ifndef TESSERA_V4S_DEFINED
#define TESSERA_V4S_DEFINED
typedef int8_t v4s __attribute__((vector_size(4)));
#endif

/* Opaque model objects; the library owns them. */
typedef struct CKernel_Arg_S CKernel_Arg_T;
typedef struct CKernelCall_S CKernelCall_T;
typedef struct ArgBindingDescr_S ArgBindingDescr_T;
typedef struct Object_S Object_T;
typedef struct KernelDimension_S KernelDimensionT;
typedef struct KernelIteration_S KernelIterationT;
/* A user kernel, as UserKernel() returns it. The SDK's generators read one thing of it: the cost of
 * its tiling (Ker->Cost->TileOverhead), to keep the cheaper of two ways to generate a layer (see
 * CopyAndPopUserKernel in AutoTilerLib.h). */
typedef struct {
    unsigned int L1Mem;  /* L1 bytes the tiling takes */
    unsigned int MoveL2; /* bytes the DMA moves between L2 and L1 in one call */
    unsigned int MoveL3; /* bytes moved between L3 and L2 in one call */
    float TileOverhead;  /* MoveL2 over the bytes of the kernel's inputs and outputs: 1 when each is
                            moved once, more when tiles are read again or overlap */
} KernelCost_T;
typedef struct Kernel_S {
    KernelCost_T *Cost; /* set in the copies CopyAndPopUserKernel() returns; NULL otherwise */
    const char *Name;
} Kernel_T;
/* The current (v3) form of the iteration space: KernelIterSpace(), its IterTiledSpace() /
 * IterParSpace() / IterFixedSpace() dimensions and each argument's KerArgSpace(). */
typedef struct KernelIterationSpace_S KernelIterationSpaceT;
typedef struct KernelIteratorDescr_S KernelIteratorDescrT;
typedef struct KernelArgDimDescr_S KernelArgDimDescrT;
/* The CNN operations a basic kernel performs (LibKernel's fifth argument, made by CNN_Match()). */
typedef struct CNN_LayerOp_S CNN_LayerOp_T;
/* A named value the model declares with UserSymbols() and binds with BindKExpr(). */
typedef struct UserSymbol_S UserSymbol_T;
/* A kernel group of the SDK's UserKernelGroupK(), which Tessera refuses with a message. */
typedef struct KernelGroup_S KernelGroup_T;
/* The SDK's list of stacked tensors, an argument of UserKernelGroupK(). */
typedef struct StackedTensors_S StackedTensors_T;
/* The look-up table of a compressed argument (LUTInfo(), KerArgC()), which Tessera refuses. */
typedef struct KerArgLUT_S KerArgLUT_T;

/* How a basic kernel is called: on the master core with its arguments (SEQUENTIAL) or through one
 * struct (SEQUENTIAL_STRUCT, the struct typedef named as for PARALLEL), or on all cores through one
 * struct (PARALLEL). FLOAT_KER and HWC_KER may be or'ed in: they describe the kernel (float
 * arithmetic, HWC tensors) for the SDK's kernel matching and change nothing in the call. */
typedef enum {
    CALL_SEQUENTIAL = 0,
    CALL_PARALLEL = 1,
    CALL_SEQUENTIAL_STRUCT = 2,
    CALL_MASK = 3,
    CALL_FLOAT_KER = 4,
    CALL_HWC_KER = 8
} KernelCallTypeT;

/* SetInlineMode(): whether user kernels are inlined into their callers (values as in the SDK). */
typedef enum { NEVER_INLINE = 0, ALWAYS_INLINE = 1, SINGLE_INLINE = 2 } InlineModeT;

/* SetKernelOpts(): optimizations turned on or off for the whole model (values as in
 * the SDK). The two promotions are those of AT_SetKernelCtrl(AT_KERNEL_*_BUFFER_PROMOTE); the
 * grouping hints do not change what Tessera generates. */
typedef enum {
    KER_OPT_NONE = 0,
    KER_OPT_BUFFER_PROMOTE = (1 << 0),
    KER_OPT_PARTIAL_BUFFER_PROMOTE = (1 << 1),
    KER_OPT_KEEP_GROUP = (1 << 2),
    KER_OPT_GROUP_HEAD = (1 << 3),
    KER_OPT_GROUP_TAIL = (1 << 4)
} KernelOptimizationT;

typedef enum { TILE_HOR = 0, TILE_VER = 1 } Tile_Orientation_T;

typedef enum { KER_DIM2 = 2, KER_DIM3 = 3, KER_DIM4 = 4 } KernelIteratorDimT;

/* Properties or'ed into an iterator of IterParSpace / IterFixedSpace, as in the SDK. Tessera knows
 * SPACE_PROP_ONE_TILE (the whole space in one iteration, which HWC and matrix-multiply convolutions
 * ask for; see AutoTilerLib.h, "The current SDK's iteration spaces"). */
#define SPACE_PROP_ABS      0x00010000
#define SPACE_PROP_REVERT   0x00020000
#define SPACE_PROP_PAD2PREF 0x00040000
#define SPACE_PROP_ONE_TILE 0x00080000
#define ITER_SPACE_MASK     0x0FFFF
#define SPACE_PROP(Space, Prop) (((Space) & ITER_SPACE_MASK) | (Prop))

/* Value rounded up to a multiple of 2^Size, as the SDK's generators size buffers. */
#ifndef ALIGN
#define ALIGN(Value, Size) ((((Value) + (1 << (Size)) - 1) / (1 << (Size))) * (1 << (Size)))
#endif

/* The iterators: the guide's (KER_TILE, KER_IN_PLANE, KER_OUT_PLANE, used with KernelIterationOrder)
 * and the current API's (KER_ITER_*, used with KernelIterSpace / KerArgSpace / C_ArgIndex): the
 * tiled space KER_ITER_TILE0 (which is KER_TILE) and up to two non-tiled spaces KER_ITER_D0..D3 (a
 * kernel's input-plane and output-plane loops; see KernelIterSpace). KER_ITER_TILE1 is the outer
 * tile loop of two-level tiling, around all the others; KER_ITER_TILE2 is named but refused. */
typedef enum {
    KER_TILE = 0,
    KER_IN_PLANE = 1,
    KER_OUT_PLANE = 2,
    KER_ITER_TILE0 = 0,
    KER_ITER_TILE1 = 8,
    KER_ITER_TILE2 = 9,
    KER_ITER_D0 = 10,
    KER_ITER_D1 = 11,
    KER_ITER_D2 = 12,
    KER_ITER_D3 = 13,
    /* Not an iterator: widens the type to the SPACE_PROP_* bits the SDK ors into one. */
    KER_ITER_WITH_PROPERTIES = 0xFFFFF
} KernelIteratorT;

typedef enum {
    LOC_PROLOG = 0,
    LOC_INNER_LOOP_PROLOG = 1,
    LOC_IN_PLANE_PROLOG = 2,
    LOC_INNER_LOOP = 3,
    LOC_IN_PLANE_EPILOG = 4,
    LOC_INNER_LOOP_EPILOG = 5,
    LOC_EPILOG = 6,
    LOC_GROUP = 7,
    /* The current API's names: the loop of the tiled space is the inner loop. */
    LOC_LOOP = 3,
    LOC_LOOP_PROLOG = 1,
    LOC_LOOP_EPILOG = 5,
    /* Before the first / after the last iteration of a non-tiled space, or in its body (the body
     * only when that space is the innermost loop); resolved against the kernel's KernelIterSpace. */
    LOC_D0 = 20,
    LOC_D0_PROLOG = 21,
    LOC_D0_EPILOG = 22,
    LOC_D1 = 23,
    LOC_D1_PROLOG = 24,
    LOC_D1_EPILOG = 25,
    LOC_D2 = 26,
    LOC_D2_PROLOG = 27,
    LOC_D2_EPILOG = 28,
    LOC_D3 = 29,
    LOC_D3_PROLOG = 30,
    LOC_D3_EPILOG = 31,
    /* Before, after and in the body of the KER_ITER_TILE1 / TILE2 loops: named, refused (a call
     * sits in the inner loops; arguments of the outer loop move before and after them). */
    LOC_LOOP1 = 40,
    LOC_LOOP1_PROLOG = 41,
    LOC_LOOP1_EPILOG = 42,
    LOC_LOOP2 = 43,
    LOC_LOOP2_PROLOG = 44,
    LOC_LOOP2_EPILOG = 45
} KernelCallLocationT;

typedef enum {
    KER_ARG_TILE = 0,       /* pointer to the current tile */
    KER_ARG = 1,            /* pointer to the whole data plane (its L1 buffer) */
    KER_ARG_TILE_W = 2,     /* width of the current tile */
    KER_ARG_TILE_W0 = 3,    /* default tile width (the last tile can be narrower) */
    KER_ARG_TILE_H = 4,     /* height of the current tile */
    KER_ARG_TILE_H0 = 5,    /* default tile height (the last tile can be lower) */
    KER_ARG_NTILES = 6,     /* number of tiles in the data plane */
    KER_ARG_TILEINDEX = 7,  /* index of the current tile */
    KER_ARG_TILEOFFSET = 8, /* lines (columns for vertical tiles) from the plane origin to the current tile */
    KER_ARG_TILE_BASE = 8,  /* the current API's name for it */
    KER_ARG_W = 9,          /* width of the argument's plane */
    KER_ARG_H = 10,         /* height of the argument's plane */
    KER_ARG_TILE_NEXTDB = 11, /* where the next tile goes: the other buffer of a double-buffered argument,
                                 the same buffer otherwise (see KerArgPad) */
    KER_ARG_TILE_USEDW = 12,  /* width of the current tile the kernel uses: a KerArgP's UsedW part of it */
    KER_ARG_TILE_USEDH = 13,  /* height of the current tile the kernel uses: its lines above a KerArgP's UsedH */
    KER_ARG_TILE_PAD = 14,    /* the current tile's padding, a v4s (left, right, top, bottom): a padded
                                 KerArgP's, else none */
    /* K_ArgPar() selectors, of a parametric space (IterParSpace) the argument varies along */
    KER_ARG_PARTILE_DIM = 15,        /* the number of its tiles: refused */
    KER_ARG_PARTILE_SIZE = 16,       /* items of the space in the current chunk */
    KER_ARG_LOADEDPARTILE_SIZE = 17, /* items of the space the argument holds in L1 */
    /* K_ArgPred() predicates, of a loop (KER_ITER_TILE0, ...): 1 in its first / last iteration, else 0 */
    KER_ARG_TILEFIRST = 18,
    KER_ARG_TILELAST = 19
} KernelArgSelect_T;

typedef enum {
    OBJ_CONSTRAINTS_NONE = 0,
    OBJ_CONSTRAINTS_EVEN = (1 << 1),        /* tile variable size is even */
    OBJ_CONSTRAINTS_ODD = (1 << 2),         /* tile variable size is odd */
    OBJ_CONSTRAINTS_ONEPREFTILE = (1 << 3), /* tiles advance by exactly the argument's preferred tile
                                               size; without one, a single tile */
    OBJ_CONSTRAINTS_TILE_HOR = (1 << 4),    /* override the kernel's orientation: horizontal */
    OBJ_CONSTRAINTS_TILE_VER = (1 << 5),    /* override the kernel's orientation: vertical */
    OBJ_CONSTRAINTS_PAD_REM = (1 << 7),     /* lines beyond the ratio's whole steps ride in the last tile, however
                                               many (without it, fewer than one step do) */
    OBJ_CONSTRAINTS_DROP_REM = (1 << 8),    /* lines beyond the ratio's whole steps are never moved */
    OBJ_CONSTRAINTS_DYNAMIC = (1 << 6)      /* tiles follow the kernel's tiles by a ratio that need not be a
                                               whole number: tile t of an argument of H lines (overlap O)
                                               starts at line s*(H-O)/Href, s the first line of the
                                               reference tile (the argument with the fewest lines), and
                                               reaches the next tile's start plus O; its
                                               KER_ARG_TILE_BASE is that start */
} KernelArgConstraints_T;

/* Kernel argument properties; the O_N* forms are the absence of the property. */
typedef unsigned int Object_Type_T;
#define O_IN      (1u << 0)
#define O_NIN     0u
#define O_OUT     (1u << 1)
#define O_NOUT    0u
#define O_BUFF    (1u << 2)
#define O_NBUFF   0u
#define O_TILED   (1u << 3)
/* O_NTILED keeps an argument untiled even when its KerArgSpace() lists KER_ITER_TILE0, as in the
 * SDK; with the guide's KerArg the absence of O_TILED says the same. */
#define O_NTILED  (1u << 10)
#define O_ONETILE (1u << 4)
#define O_NONETILE 0u
#define O_DYNTILE (1u << 5)
#define O_NDYNTILE 0u
#define O_DB      (1u << 6)
#define O_NDB     0u
#define O_L2DB    (1u << 7)
#define O_NL2DB   0u
#define O_3D      (1u << 8)
#define O_N3D     0u
#define O_4D      ((1u << 9) | O_3D) /* a 4-D argument is also a 3-D one */
#define O_N4D     0u
/* O_CONST: an input the kernel never changes (refused on outputs); O_FLOAT: its items are floating
 * point (as AddKernelFloatArgDim says). Both describe the argument and change no tiling. */
#define O_CONST   (1u << 11)
#define O_FLOAT   (1u << 12)
/* O_STACK_PRED: placed right after the previous argument, without alignment padding; accepted, Tessera
 * aligns every L1 buffer. O_NO_STORE / O_NO_LOAD (an output buffer not stored, an input buffer not
 * loaded: the SDK's recurrent layers keep their state and weights in L1 from one kernel of a group to
 * the next) and O_ALWAYS_LOAD are accepted on buffers (O_BUFF) of the right direction; Tessera stores
 * and loads them anyway, through the L2 they are bound to, with the same results. */
#define O_STACK_PRED  (1u << 18)
#define O_ALWAYS_LOAD (1u << 19)
#define O_NO_LOAD     (1u << 20)
#define O_NO_STORE    (1u << 21)

/* Predefined argument kinds. */
#define OBJ_IN                  (O_IN | O_TILED)
#define OBJ_OUT                 (O_OUT | O_TILED)
#define OBJ_IN_OUT              (O_IN | O_OUT | O_TILED)
#define OBJ_IN_DB               (O_IN | O_DB | O_TILED)
#define OBJ_OUT_DB              (O_OUT | O_DB | O_TILED)
#define OBJ_IN_OUT_DB           (O_IN | O_OUT | O_DB | O_TILED)
#define OBJ_IN_NTILED           (O_IN)
#define OBJ_OUT_NTILED          (O_OUT)
#define OBJ_IN_DB_NTILED        (O_IN | O_DB)
#define OBJ_OUT_DB_NTILED       (O_OUT | O_DB)
#define OBJ_BUFFER              (O_BUFF | O_TILED)
#define OBJ_BUFFER_NTILED       (O_BUFF)
/* Untiled buffers moved whole: in L1 for the kernel's run, read before its loops (IN) and written
 * back after them (OUT). */
#define OBJ_BUFFER_IN_NTILED     (O_BUFF | O_IN)
#define OBJ_BUFFER_OUT_NTILED    (O_BUFF | O_OUT)
#define OBJ_BUFFER_IN_OUT_NTILED (O_BUFF | O_IN | O_OUT)
/* Their tiled forms, which the tile solver refuses with a message. */
#define OBJ_BUFFER_IN           (O_BUFF | O_IN | O_TILED)
#define OBJ_BUFFER_OUT          (O_BUFF | O_OUT | O_TILED)
#define OBJ_BUFFER_ONETILE      (O_BUFF | O_TILED | O_ONETILE)
#define OBJ_BUFFER_DYN          (O_BUFF | O_TILED | O_DYNTILE)
#define OBJ_IN_3D               (OBJ_IN | O_3D)
#define OBJ_OUT_3D              (OBJ_OUT | O_3D)
#define OBJ_IN_DB_3D            (OBJ_IN_DB | O_3D)
#define OBJ_OUT_DB_3D           (OBJ_OUT_DB | O_3D)
#define OBJ_IN_OUT_DB_3D        (OBJ_IN_OUT_DB | O_3D)
#define OBJ_IN_NTILED_3D        (OBJ_IN_NTILED | O_3D)
#define OBJ_IN_DB_NTILED_3D     (OBJ_IN_DB_NTILED | O_3D)
#define OBJ_BUFFER_3D           (OBJ_BUFFER | O_3D)
#define OBJ_IN_4D               (OBJ_IN | O_4D)
#define OBJ_IN_DB_4D            (OBJ_IN_DB | O_4D)
#define OBJ_IN_NTILED_4D        (OBJ_IN_NTILED | O_4D)
#define OBJ_IN_DB_NTILED_4D     (OBJ_IN_DB_NTILED | O_4D)
#define OBJ_IN_L2DB             (OBJ_IN | O_L2DB)
#define OBJ_OUT_L2DB            (OBJ_OUT | O_L2DB)
#define OBJ_IN_DB_L2DB          (OBJ_IN_DB | O_L2DB)
#define OBJ_OUT_DB_L2DB         (OBJ_OUT_DB | O_L2DB)
#define OBJ_IN_OUT_DB_L2DB      (OBJ_IN_OUT_DB | O_L2DB)
#define OBJ_IN_DB_L2DB_3D       (OBJ_IN_DB_3D | O_L2DB)
#define OBJ_OUT_DB_L2DB_3D      (OBJ_OUT_DB_3D | O_L2DB)
#define OBJ_IN_DB_L2DB_4D       (OBJ_IN_DB_4D | O_L2DB)
#define OBJ_IN_DB_NTILED_L2DB_4D (OBJ_IN_DB_NTILED_4D | O_L2DB)

/* ---- Graph mode ------------------------------------------------------------------------ */

/* A constant's initial values (ConstInfo), owned by the library. */
typedef struct ConstInit_S ConstInit_T;

/* Memory devices: SetMemoryDeviceInfos entries and the home/execution location of graph symbols. */
typedef enum {
    AT_MEM_UNDEF = 0,
    AT_MEM_L1,               /* cluster L1 */
    AT_MEM_L2,               /* fabric controller L2 */
    AT_MEM_L3_HRAM,          /* L3 HyperRam */
    AT_MEM_L3_QSPIRAM,       /* L3 QuadSPI Ram */
    AT_MEM_L3_OSPIRAM,       /* L3 OctoSPI Ram */
    AT_MEM_L3_DEFAULTRAM,    /* the L3 Ram the board provides */
    AT_MEM_L3_HFLASH,        /* L3 HyperFlash */
    AT_MEM_L3_QSPIFLASH,     /* L3 QuadSPI Flash */
    AT_MEM_L3_OSPIFLASH,     /* L3 OctoSPI Flash */
    AT_MEM_L3_MRAMFLASH,     /* L3 MRAM Flash */
    AT_MEM_L3_PRI1,          /* L3 flash of first priority (privileged flash) */
    AT_MEM_L3_PRI2,          /* L3 flash of second priority */
    AT_MEM_L3_DEFAULTFLASH   /* the L3 Flash the board provides */
} AT_MemLocation_T;

/* Graph symbols (the SDK's values): arguments of the graph function, arguments the graph allocates
 * in L2 itself (ARG_SCOPE_ARG_ALLOC: not parameters of the runner; the application reads and writes
 * them through a global pointer of their name, valid from the constructor to the destructor),
 * globals (constants) and locals (buffers). */
typedef enum {
    ARG_SCOPE_UNDEF = 0,
    ARG_SCOPE_ARG = 1,
    ARG_SCOPE_ARG_ALLOC = 2,
    ARG_SCOPE_GLOBAL = 3,
    ARG_SCOPE_LOCAL = 4
} ArgScope_T;
typedef enum {
    ARG_DIR_UNDEF = 0,
    ARG_DIR_IN = 1,
    ARG_DIR_CONSTIN = 2,
    ARG_DIR_OUT = 3,
    ARG_DIR_INOUT = 4
} ArgDirection_T;

/* How a graph node uses the symbol bound to one of its C arguments (GNodeArg); the SDK's values. */
typedef enum { GNA_UNDEF = 0, GNA_IN = 1, GNA_OUT = 2, GNA_INOUT = 3 } GNodeArgDirection_T;

/* Graph generation options (AT_SetGraphCtrl); the default of each is in brackets. */
typedef enum {
    AT_KERNEL_BUFFER_PROMOTE = 1,         /* promote user kernel arguments that fit in L1 to buffers [1] */
    AT_KERNEL_PARTIAL_BUFFER_PROMOTE,     /* same for all tiles of an argument across input features [1] */
    AT_KERNEL_NOSOLUTION_ERROR,           /* report an error when no tiling solution is found [1] */
    AT_GRAPH_MONITOR_CYCLES,              /* capture the cycles of each graph node [0] */
    AT_GRAPH_MONITOR_CVAR_NAME,           /* C array receiving the cycles [AT_GraphPerf] */
    AT_GRAPH_PRODUCE_NODE_NAMES,          /* produce an array with the name of each node [0] */
    AT_GRAPH_PRODUCE_NODE_CVAR_NAME,      /* C array receiving the node names [AT_GraphNodeNames] */
    AT_GRAPH_PRODUCE_OPERINFOS,           /* produce the number of operations of each node [0] */
    AT_GRAPH_PRODUCE_OPERINFOS_CVAR_NAME, /* C array receiving them [AT_GraphOperInfosNames] */
    AT_GRAPH_REORDER_CONSTANT_IN,         /* reorder constant inputs to turn 2-D accesses into 1-D ones [1] */
    AT_GRAPH_TRACE_EXEC,                  /* trace the graph's activity [1] */
    AT_GRAPH_NOINLINE_NODE,               /* mark every user kernel function noinline [0] */
    AT_GRAPH_PREF_L3_EXEC,                /* L3 memory for symbols that must execute from L3 [AT_MEM_L3_HRAM] */
    AT_GRAPH_CONST_EXEC_FROM_FLASH,       /* constants execute from their home location [0] */
    AT_GRAPH_PREF_L3_HOME,                /* L3 flash for constant symbols [AT_MEM_L3_HFLASH] */
    AT_GRAPH_PRIVILEGED_L3_HOME,          /* smaller, faster L3 flash filled first with constants [0: none] */
    AT_GRAPH_DUMP_TENSOR,                 /* trace tensor arguments at inference time */
    AT_GRAPH_DUMP_TENSOR_TO_FILE,         /* dump the traced tensors to files rather than printf */
    AT_GRAPH_DUMP_ONE_NODE,               /* trace one node only: AT_OPT_VAL("NodeName") */
    AT_GRAPH_ARG2STRUCT,                  /* pass user kernel C arguments in a struct */
    AT_GRAPH_SIZE_OPT,                    /* compile constructor, runner and destructor with -Os */
    AT_GRAPH_WARM_CONSTRUCT,              /* warm constructor: WARM_DISABLED .. WARM_ALL [WARM_DISABLED] */
    AT_GRAPH_CHECKSUM,                    /* trace checksums of output tensors at inference time */
    AT_GRAPH_GROUP_WEIGHTS,               /* group the constant inputs of a user kernel of identical structure */
    AT_GRAPH_ASYNC_FORK,                  /* replace a sync fork by an async one when feasible */
    AT_GRAPH_DUMP_GRAPH_OUTPUTS,          /* trace the graph output tensors at inference time */
    AT_GRAPH_RUNNER_RE_ENTRANT,           /* generate a re-entrant graph runner */
    AT_GRAPH_L1_PROMOTION,                /* promote whole tensors to L1 at graph level */
    AT_GRAPH_DISABLE_CONST_L2_PROMOTION,  /* do not promote constants from L3 to L2 */
    AT_GRAPH_USE_MERGED_DMA,              /* merge DMA copies when possible */
    AT_GRAPH_L2_STATIC_MEMORY_BUDGET,     /* L2 budget (bytes) for constants promoted to L2 */
    AT_GRAPH_L3_STATIC_MEMORY_BUDGET      /* L3 budget (bytes) for constants promoted to L3 Ram */
} AT_GraphCtrl_T;

/* AddKernelInfos(): what is said of a user kernel. */
typedef enum { AT_KERINFO_OPER = 0, AT_KERINFO_BANDWIDTH = 1 } AT_KernelInfo_T;

/* AT_SetGraphCtrl values. AT_OPT_VAL takes a number, an AT_MEM_* location or a string (C names). */
#define AT_OPT_ON ((void *) 1)
#define AT_OPT_OFF ((void *) 0)
#define AT_OPT_VAL(x) ((void *) (intptr_t) (x))

/* AT_GRAPH_WARM_CONSTRUCT values: which memories the constructor/destructor leave to the caller. */
#define WARM_DISABLED  0
#define WARM_L1        1
#define WARM_L2_DYN_L1 2
#define WARM_ALL       3

/* ---- CNN generator types (the SDK keeps them here; CNN_Generators.h declares the generators) ---- */

typedef enum {
    KOP_NONE = 0,
    KOP_CONV,
    KOP_CONV_DP,    /* convolution with 32-bit accumulation over all input features */
    KOP_CONV_DW,    /* depthwise: output feature c from input feature c only (InFeat == OutFeat) */
    KOP_MAXPOOL,
    KOP_AVGPOOL,
    KOP_RELU,
    KOP_LINEAR,
    KOP_SOFTMAX,
    KOP_GLOBAL_AVGPOOL,
    KOP_MATADD,
    KOP_MATADD_RELU,
    KOP_MATMUL,
    KOP_RELUN,      /* ReLU6: min(max(x, 0), 6); convolution and linear layers, Out_Q at most 12 */
    KOP_MATSUB,     /* element-wise In1 - In2 (CNN_MatAdd, CNN_MatAdd_SQ8) */
    KOP_MATSUB_RELU,
    /* The other operation names of GreenWaves' generators, so that their sources compile; Tessera's
     * generators refuse an operation they do not implement, naming the layer. */
    KOP_SETBIAS, KOP_SETBIAS_DP, KOP_CONV_HWCE, KOP_CONV1D, KOP_CONV1D_DP, KOP_CONV_DWDP,
    KOP_MM_CONV, KOP_MM_CONV_DW, KOP_MM_CONV1D, KOP_DP_REDUCT, KOP_DP_REDUCT_NOSCALE,
    KOP_DP_REDUCT_CHW2HWC, KOP_DP_REDUCT_IO, KOP_DP_REDUCT_IO_NOSCALE, KOP_DP_REDUCT_MULBIAS,
    KOP_DP_REDUCT_IO_MULBIAS, KOP_DP_REDUCT_MULBIAS_SCALAR, KOP_DP_REDUCT_IO_MULBIAS_SCALAR,
    KOP_GLOBAL_MAXPOOL, KOP_GLOBAL_MAXPOOL_REDUCT, KOP_GLOBAL_AVGPOOL_REDUCT, KOP_GLOBAL_SUMPOOL,
    KOP_GLOBAL_SUMPOOL_REDUCT, KOP_SCALE, KOP_ACT_NONE, KOP_RELUM, KOP_RELUMN, KOP_HSIGMOID,
    KOP_HTANH, KOP_HSWISH, KOP_LEAKYRELU, KOP_SIGMOID, KOP_TANH, KOP_SWISH, KOP_LINEAR_DP,
    KOP_DP_REDUCT_LINEAR, KOP_MATADD_DYNADJUST, KOP_MATMUL_NOBIAS, KOP_MATMUL_SM1, KOP_MATMUL_SCALE,
    KOP_MATMUL_SCALE_SCALAR, KOP_MATMUL_NOBIAS_SCALE_SCALAR, KOP_MATMUL_TRANSPOSED,
    KOP_MATMUL_NOBIAS_TRANSPOSED, KOP_MATMUL_SCALE_SCALAR_TRANSPOSED,
    KOP_MATMUL_NOBIAS_SCALE_SCALAR_TRANSPOSED, KOP_MATMUL_SCALE_SM1, KOP_MATMUL_SCALE_SCALAR_SM1,
    KOP_MATSCALE_VECTOR, KOP_MATSCALE_SCALAR, KOP_MATSCALE_VECTOR_SCALAR, KOP_MATVECTMUL,
    KOP_MATTRANSP, KOP_MATPERM_CHW2CWH, KOP_MATPERM_CHW2HWC, KOP_MATPERM_CHW2WHC,
    KOP_MATPERM_CHW2WCH, KOP_MATPERM_CHW2HCW, KOP_MATPERM_HWC2HCW, KOP_MATPERM_HWC2WCH,
    KOP_MATPERM_HWC2WHC, KOP_MATPERM_HWC2CHW, KOP_MATPERM_HWC2CWH, KOP_EXPAND, KOP_COLLAPSE,
    KOP_COPY, KOP_CONCAT, KOP_SPLIT, KOP_RNN, KOP_LSTM, KOP_GRU, KOP_CONV_RELU, KOP_CONV_RELUN,
    KOP_CONV_MAXPOOL, KOP_CONV_MAXPOOL_RELU, KOP_CONV_MAXPOOL_RELUN, KOP_CONV_AVGPOOL,
    KOP_CONV_AVGPOOL_RELU, KOP_CONV_AVGPOOL_RELUN, KOP_CONV_DP_RELU, KOP_CONV_DP_RELUN,
    KOP_CONV_DP_MAXPOOL, KOP_CONV_DP_MAXPOOL_RELU, KOP_CONV_DP_MAXPOOL_RELUN, KOP_CONV_DP_AVGPOOL,
    KOP_CONV_DP_AVGPOOL_RELU, KOP_CONV_DP_AVGPOOL_RELUN, KOP_CONV_DW_RELU, KOP_CONV_DW_RELUN,
    KOP_CONV_DW_MAXPOOL, KOP_CONV_DW_MAXPOOL_RELU, KOP_CONV_DW_MAXPOOL_RELUN, KOP_CONV_DW_AVGPOOL,
    KOP_CONV_DW_AVGPOOL_RELU, KOP_CONV_DW_AVGPOOL_RELUN, KOP_CONV_DWDP_RELU, KOP_CONV_DWDP_RELUN,
    KOP_CONV_DWDP_MAXPOOL, KOP_CONV_DWDP_MAXPOOL_RELU, KOP_CONV_DWDP_MAXPOOL_RELUN,
    KOP_CONV_DWDP_AVGPOOL, KOP_CONV_DWDP_AVGPOOL_RELU, KOP_CONV_DWDP_AVGPOOL_RELUN,
    KOP_MAXPOOL_RELU, KOP_MAXPOOL_RELUN, KOP_AVGPOOL_RELU, KOP_AVGPOOL_RELUN, KOP_LINEAR_RELU,
    KOP_LINEAR_RELUN, KOP_MATADD_RELUN, KOP_MATMUL_RELU, KOP_MATMUL_RELUN, KOP_ACT_NONE_IN_SCALE,
    KOP_RELU_IN_SCALE, KOP_RELUN_IN_SCALE, KOP_RELUM_IN_SCALE, KOP_RELUMN_IN_SCALE,
    KOP_HSIGMOID_IN_SCALE, KOP_HTANH_IN_SCALE, KOP_HSWISH_IN_SCALE, KOP_LEAKYRELU_IN_SCALE,
    KOP_SIGMOID_IN_SCALE, KOP_TANH_IN_SCALE, KOP_SWISH_IN_SCALE, KOP_DP_REDUCT_UNSIGNED,
    KOP_NORM_RGB565, KOP_NORM_RGB888, KOP_NORM_RGB16, KOP_NORM_BW, KOP_NORM_BW16, KOP_CONVERT_FL_FL,
    KOP_CONVERT_FP_FP, KOP_CONVERT_FP_FP_ZEROPOINT, KOP_CONVERT_FP_FP_SCALE, KOP_CONVERT_FL_FP,
    KOP_CONVERT_FP_FL, KOP_CUSTOM,
    KOP_LAST
} KernelOper_T;

/* Where the "same" padding of a dimension goes when its total is odd, or all of it. */
typedef enum {
    PAD_LEFT,           /* all of it left / above */
    PAD_RIGHT,          /* all of it right / below */
    PAD_BALANCED_LEFT,  /* [Pad - Pad/2, Pad/2]: the larger half left / above (the default) */
    PAD_BALANCED_RIGHT  /* [Pad/2, Pad - Pad/2]: the larger half right / below */
} AT_PadType;

/* Per-layer generation controls, as GreenWaves' generators take them: pass 0 for the defaults, or
 * a descriptor set by CNN_InitGenCtrl then CNN_SetGenCtrl (as NNTool's model programs do). A field
 * at -1 (0 for the *_L3 flags, HWC and the data sizes) keeps the default. Tessera's generators honour
 * PadType (conv and pool "same" padding), the *_L3 flags (as the *_InL3 arguments) and ReluN 6;
 * TileOrientation, ParallelFeatures, ForceDPconv, UseHwCE, EnableIm2Col and MulBiasScalar only steer
 * how a layer is computed, which Tessera chooses itself; any other setting that would change what a
 * layer computes (HWC order, another ReluN, custom activations, data sizes) stops generation with a
 * message naming the layer and the option. */
typedef struct CNN_GenControl_S {
    char TileOrientation;      /* TILE_HOR or TILE_VER */
    char ParallelFeatures;     /* output features in parallel (1) or one feature on all cores (0) */
    char ForceDPconv;          /* double precision convolution */
    char UseHwCE;              /* the convolution engine */
    AT_PadType PadType;        /* where "same" padding goes */
    char EnableIm2Col;         /* matrix-multiply convolutions */
    int ReluN;                 /* the clip of KOP_RELUN (default 6) */
    char MulBiasScalar;
    char In_L3, Filter_L3, Bias_L3, Out_L3, Scale_L3, ScaleN_L3; /* != 0: that argument homed in L3 */
    char RNNUseHardActivation;
    char RNNSameInStateScales;
    char MFCCDbInsteadOfLog;
    char DynamicIter;
    char Force_8BitsOutput;
    char HWC;                  /* != 0: tensors in HWC order (CHW otherwise) */
    int MfccLogOffset;
    char InDataSize, OutDataSize;
    int GatePrenorm;
    char FloatDump;
    char *CustomActivationName;
    int CustomActivationInfos;
    int CompressedInputBits;
} CNN_GenControl_T;

#endif
