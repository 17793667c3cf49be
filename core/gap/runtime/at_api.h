/* Memory and DMA operations used by generated kernels. Two implementations behind one set of
 * macros: host emulation (at_api_emul.h: copies happen at once, every byte is counted) and GAP
 * (at_api_pmsis.h: PMSIS cluster DMA, L2 allocation and team fork). */
#ifndef TESSERA_AT_API_H
#define TESSERA_AT_API_H

#include "Gap.h"

#include <stdbool.h> /* graph runners may take bool arguments (NNTool's Reset) */
#include <string.h>

/* Copy directions, numbered as in GreenWaves' runtime (basic kernels pass the numbers too): from
 * the external memory (L2 for the cluster DMA, L3 for the micro DMA) into the local one, and back. */
#define AT_L2_EXT2LOC 0
#define AT_L2_LOC2EXT 1
#define AT_L3_EXT2LOC 0
#define AT_L3_LOC2EXT 1

/* What <Graph>_Memory(Which) reports. */
typedef enum { AT_L1_MEM, AT_L2_MEM, AT_L2_DYN_MEM, AT_L3_MEM, AT_L3_DYN_MEM, AT_CTXT_MEM } AT_MEM_TYPE;

/* Memory block pointers of graphs. */
typedef char *AT_L1_POINTER;
typedef char *AT_L2_POINTER;
typedef char *AT_L3_POINTER;
typedef char *AT_DEFAULTRAM_POINTER;

/* Re-entrant graphs (generator option -R): the application's descriptor the constructor fills
 * (Flash points to the application's AT_FLASH_FS_T; a non-zero L2_Memory or L3_Memory is used
 * instead of allocating the static blocks; PrivilegedFlash, used only by graphs with a privileged
 * flash, points to that flash's AT_FLASH_FS_T), and the context of one execution. */
typedef struct {
    void *Ram;
    void *Flash;
    void *L2_Memory;
    void *L3_Memory;
    void *PrivilegedFlash;
} CNN_Graph_Descr_T;
typedef void *AT_CTXT_TYPE;

/* The yield point after each layer of a re-entrant runner: when the application's hook returns
 * non-zero the runner returns and a later call resumes at the next layer. */
__attribute__((weak)) int (*AT_YieldHook)(void);
#define AT_YIELD() (AT_YieldHook ? AT_YieldHook() : 0)

/* AT_GRAPH_SIZE_OPT: the graph's constructor, runner and destructor are compiled for size. */
#if defined(__GNUC__) && !defined(__clang__)
#define AT_SIZE_OPT __attribute__((optimize("Os")))
#else
#define AT_SIZE_OPT
#endif

#if defined(__EMUL__)
#include "at_api_emul.h"
#else
#include "at_api_pmsis.h"
#endif

/* The SDK's names of the two L3 devices, which its basic-kernel libraries use (CNN_AT_Misc.c and,
 * in older SDKs, CNN_Conv_BasicKernels.c page tensors in with them): HyperRAM is the L3 RAM above,
 * the HyperFlash filesystem the flash image's.
 * Their events may be passed as void pointers. AT_HYPERRAM_T and AT_HYPERRAM_EXT_ADDR_TYPE are the
 * runtime's. */
typedef char *AT_HYPERRAM_INT_ADDR_TYPE;
typedef AT_L3_EVENT AT_HYPERRAM_CL_EVENT;
#define AT_HYPERRAM_EXT2LOC AT_L3_EXT2LOC
#define AT_HYPERRAM_LOC2EXT AT_L3_LOC2EXT
#define AT_HYPERRAM_CL_COPY(Dev, Ext, Loc, Size, Dir, Event) \
    AT_L3_COPY((Dev), (Ext), (Loc), (Size), (Dir), (AT_L3_EVENT *) (Event))
#define AT_HYPERRAM_CL_COPY2D(Dev, Ext, Loc, Size, Stride, Length, Dir, Event) \
    AT_L3_COPY2D((Dev), (Ext), (Loc), (Size), (Stride), (Length), (Dir), (AT_L3_EVENT *) (Event))
#define AT_HYPERRAM_CL_WAIT(Dev, Event) AT_L3_WAIT((Dev), (AT_L3_EVENT *) (Event))
typedef AT_FLASH_FS_T AT_HYPERFLASH_FS_T;
typedef char *AT_HYPERFLASH_FS_EXT_ADDR_TYPE;
typedef char *AT_HYPERFLASH_FS_INT_ADDR_TYPE;
typedef AT_FLASH_FS_CL_EVENT AT_HYPERFLASH_FS_CL_EVENT;
#define AT_HYPERFLASH_FS_EXT2LOC AT_L3_EXT2LOC
#define AT_HYPERFLASH_FS_CL_COPY(Fs, Ext, Loc, Size, Dir, Event) \
    AT_FLASH_FS_CL_COPY((Fs), (Ext), (Loc), (Size), (Dir), (AT_FLASH_FS_CL_EVENT *) (Event))
#define AT_HYPERFLASH_FS_CL_COPY2D(Fs, Ext, Loc, Size, Stride, Length, Dir, Event) \
    AT_FLASH_FS_CL_COPY2D((Fs), (Ext), (Loc), (Size), (Stride), (Length), (Dir), (AT_FLASH_FS_CL_EVENT *) (Event))
#define AT_HYPERFLASH_FS_CL_WAIT(Fs, Event) AT_FLASH_FS_CL_WAIT((Fs), (AT_FLASH_FS_CL_EVENT *) (Event))
#define AT_HYPERFLASH_EXT2LOC AT_L3_EXT2LOC
#define AT_HYPERFLASH_FS_LOC2EXT AT_L3_LOC2EXT
/* The SDK's other RAM and flash families are the same two devices here. */
typedef AT_HYPERRAM_T AT_QSPIRAM_T;
typedef AT_HYPERRAM_EXT_ADDR_TYPE AT_QSPIRAM_EXT_ADDR_TYPE;
typedef AT_HYPERRAM_INT_ADDR_TYPE AT_QSPIRAM_INT_ADDR_TYPE;
typedef AT_HYPERRAM_CL_EVENT AT_QSPIRAM_CL_EVENT;
#define AT_QSPIRAM_EXT2LOC AT_L3_EXT2LOC
#define AT_QSPIRAM_LOC2EXT AT_L3_LOC2EXT
#define AT_QSPIRAM_CL_COPY AT_HYPERRAM_CL_COPY
#define AT_QSPIRAM_CL_COPY2D AT_HYPERRAM_CL_COPY2D
#define AT_QSPIRAM_CL_WAIT AT_HYPERRAM_CL_WAIT
typedef AT_HYPERRAM_T AT_OSPIRAM_T;
typedef AT_HYPERRAM_EXT_ADDR_TYPE AT_OSPIRAM_EXT_ADDR_TYPE;
typedef AT_HYPERRAM_INT_ADDR_TYPE AT_OSPIRAM_INT_ADDR_TYPE;
typedef AT_HYPERRAM_CL_EVENT AT_OSPIRAM_CL_EVENT;
#define AT_OSPIRAM_EXT2LOC AT_L3_EXT2LOC
#define AT_OSPIRAM_LOC2EXT AT_L3_LOC2EXT
#define AT_OSPIRAM_CL_COPY AT_HYPERRAM_CL_COPY
#define AT_OSPIRAM_CL_COPY2D AT_HYPERRAM_CL_COPY2D
#define AT_OSPIRAM_CL_WAIT AT_HYPERRAM_CL_WAIT
typedef AT_HYPERFLASH_FS_T AT_QSPIFLASH_FS_T;
typedef AT_HYPERFLASH_FS_EXT_ADDR_TYPE AT_QSPIFLASH_FS_EXT_ADDR_TYPE;
typedef AT_HYPERFLASH_FS_INT_ADDR_TYPE AT_QSPIFLASH_FS_INT_ADDR_TYPE;
typedef AT_HYPERFLASH_FS_CL_EVENT AT_QSPIFLASH_FS_CL_EVENT;
#define AT_QSPIFLASH_EXT2LOC AT_L3_EXT2LOC
#define AT_QSPIFLASH_FS_EXT2LOC AT_L3_EXT2LOC
#define AT_QSPIFLASH_FS_CL_COPY AT_HYPERFLASH_FS_CL_COPY
#define AT_QSPIFLASH_FS_CL_COPY2D AT_HYPERFLASH_FS_CL_COPY2D
#define AT_QSPIFLASH_FS_CL_WAIT AT_HYPERFLASH_FS_CL_WAIT
typedef AT_HYPERFLASH_FS_T AT_OSPIFLASH_FS_T;
typedef AT_HYPERFLASH_FS_EXT_ADDR_TYPE AT_OSPIFLASH_FS_EXT_ADDR_TYPE;
typedef AT_HYPERFLASH_FS_INT_ADDR_TYPE AT_OSPIFLASH_FS_INT_ADDR_TYPE;
typedef AT_HYPERFLASH_FS_CL_EVENT AT_OSPIFLASH_FS_CL_EVENT;
#define AT_OSPIFLASH_EXT2LOC AT_L3_EXT2LOC
#define AT_OSPIFLASH_FS_EXT2LOC AT_L3_EXT2LOC
#define AT_OSPIFLASH_FS_CL_COPY AT_HYPERFLASH_FS_CL_COPY
#define AT_OSPIFLASH_FS_CL_COPY2D AT_HYPERFLASH_FS_CL_COPY2D
#define AT_OSPIFLASH_FS_CL_WAIT AT_HYPERFLASH_FS_CL_WAIT
typedef AT_HYPERFLASH_FS_T AT_EMRAMFLASH_FS_T;
typedef AT_HYPERFLASH_FS_EXT_ADDR_TYPE AT_EMRAMFLASH_FS_EXT_ADDR_TYPE;
typedef AT_HYPERFLASH_FS_INT_ADDR_TYPE AT_EMRAMFLASH_FS_INT_ADDR_TYPE;
typedef AT_HYPERFLASH_FS_CL_EVENT AT_EMRAMFLASH_FS_CL_EVENT;
#define AT_EMRAMFLASH_EXT2LOC AT_L3_EXT2LOC
#define AT_EMRAMFLASH_FS_EXT2LOC AT_L3_EXT2LOC
#define AT_EMRAMFLASH_FS_CL_COPY AT_HYPERFLASH_FS_CL_COPY
#define AT_EMRAMFLASH_FS_CL_COPY2D AT_HYPERFLASH_FS_CL_COPY2D
#define AT_EMRAMFLASH_FS_CL_WAIT AT_HYPERFLASH_FS_CL_WAIT

#include "at_graph_trace.h"

#endif
