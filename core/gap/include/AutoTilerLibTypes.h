/* Types, enumerations and argument property flags of Tessera's Autotiler model API. */
#ifndef TESSERA_AUTO_TILER_LIB_TYPES_H
#define TESSERA_AUTO_TILER_LIB_TYPES_H

/* Opaque model objects; the library owns them. */
typedef struct CKernel_Arg_S CKernel_Arg_T;
typedef struct CKernelCall_S CKernelCall_T;
typedef struct ArgBindingDescr_S ArgBindingDescr_T;
typedef struct Object_S Object_T;
typedef struct KernelDimension_S KernelDimensionT;
typedef struct KernelIteration_S KernelIterationT;
typedef struct Kernel_S Kernel_T;

typedef enum { CALL_SEQUENTIAL = 0, CALL_PARALLEL = 1 } KernelCallTypeT;

typedef enum { TILE_HOR = 0, TILE_VER = 1 } Tile_Orientation_T;

typedef enum { KER_DIM2 = 2, KER_DIM3 = 3, KER_DIM4 = 4 } KernelIteratorDimT;

typedef enum { KER_TILE = 0, KER_IN_PLANE = 1, KER_OUT_PLANE = 2 } KernelIteratorT;

typedef enum {
    LOC_PROLOG = 0,
    LOC_INNER_LOOP_PROLOG = 1,
    LOC_IN_PLANE_PROLOG = 2,
    LOC_INNER_LOOP = 3,
    LOC_IN_PLANE_EPILOG = 4,
    LOC_INNER_LOOP_EPILOG = 5,
    LOC_EPILOG = 6,
    LOC_GROUP = 7
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
    KER_ARG_TILEOFFSET = 8  /* lines (columns for vertical tiles) from the plane origin to the current tile */
} KernelArgSelect_T;

typedef enum {
    OBJ_CONSTRAINTS_NONE = 0,
    OBJ_CONSTRAINTS_EVEN = (1 << 1),        /* tile variable size is even */
    OBJ_CONSTRAINTS_ODD = (1 << 2),         /* tile variable size is odd */
    OBJ_CONSTRAINTS_ONEPREFTILE = (1 << 3), /* a single tile */
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
#define O_NTILED  0u
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

#endif
