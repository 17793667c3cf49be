/* Types, enumerations and argument property flags of Tessera's Autotiler model API. */
#ifndef TESSERA_AUTO_TILER_LIB_TYPES_H
#define TESSERA_AUTO_TILER_LIB_TYPES_H

#include <stdint.h>

/* Opaque model objects; the library owns them. */
typedef struct CKernel_Arg_S CKernel_Arg_T;
typedef struct CKernelCall_S CKernelCall_T;
typedef struct ArgBindingDescr_S ArgBindingDescr_T;
typedef struct Object_S Object_T;
typedef struct KernelDimension_S KernelDimensionT;
typedef struct KernelIteration_S KernelIterationT;
typedef struct Kernel_S Kernel_T;
/* The current (v3) form of the iteration space: KernelIterSpace(), its IterTiledSpace() /
 * IterParSpace() / IterFixedSpace() dimensions and each argument's KerArgSpace(). */
typedef struct KernelIterationSpace_S KernelIterationSpaceT;
typedef struct KernelIteratorDescr_S KernelIteratorDescrT;
typedef struct KernelArgDimDescr_S KernelArgDimDescrT;
/* The CNN operations a basic kernel matches (LibKernel's fifth argument); Tessera's CNN generators
 * call their kernels by name, so only NULL is passed. */
typedef struct CNN_LayerOp_S CNN_LayerOp_T;

typedef enum { CALL_SEQUENTIAL = 0, CALL_PARALLEL = 1 } KernelCallTypeT;

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

/* The iterators: the guide's (KER_TILE, KER_IN_PLANE, KER_OUT_PLANE, used with KernelIterationOrder)
 * and the current API's (KER_ITER_*, used with KernelIterSpace / KerArgSpace / C_ArgIndex): the
 * tiled space KER_ITER_TILE0 (which is KER_TILE) and up to two non-tiled spaces KER_ITER_D0..D3 (a
 * kernel's input-plane and output-plane loops; see KernelIterSpace). KER_ITER_TILE1/TILE2
 * (two-level tiling) are named but refused. */
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
    KER_ITER_D3 = 13
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
    /* The loops of KER_ITER_TILE1 / TILE2 (two-level tiling): named, refused. */
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
    KER_ARG_TILE_NEXTDB = 11 /* where the next tile goes: the other buffer of a double-buffered argument,
                                the same buffer otherwise (see KerArgPad) */
} KernelArgSelect_T;

typedef enum {
    OBJ_CONSTRAINTS_NONE = 0,
    OBJ_CONSTRAINTS_EVEN = (1 << 1),        /* tile variable size is even */
    OBJ_CONSTRAINTS_ODD = (1 << 2),         /* tile variable size is odd */
    OBJ_CONSTRAINTS_ONEPREFTILE = (1 << 3), /* tiles advance by exactly the argument's preferred tile
                                               size; without one, a single tile */
    OBJ_CONSTRAINTS_TILE_HOR = (1 << 4),    /* override the kernel's orientation: horizontal */
    OBJ_CONSTRAINTS_TILE_VER = (1 << 5)     /* override the kernel's orientation: vertical */
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

/* Graph symbols: arguments of the graph function, globals (constants) and locals (buffers). */
typedef enum { ARG_SCOPE_ARG = 0, ARG_SCOPE_GLOBAL = 1, ARG_SCOPE_LOCAL = 2 } ArgScope_T;
typedef enum { ARG_DIR_IN = 0, ARG_DIR_OUT = 1, ARG_DIR_INOUT = 2, ARG_DIR_CONSTIN = 3 } ArgDirection_T;

/* How a graph node uses the symbol bound to one of its C arguments (GNodeArg). */
typedef enum { GNA_IN = 0, GNA_OUT = 1, GNA_INOUT = 2 } GNodeArgDirection_T;

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

#endif
