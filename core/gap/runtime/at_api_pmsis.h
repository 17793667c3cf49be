/* GAP implementation of the generated kernels' memory operations, on PMSIS. */
#ifndef TESSERA_AT_API_PMSIS_H
#define TESSERA_AT_API_PMSIS_H

#include "bsp/fs.h"
#include "bsp/ram.h"
#include "pmsis.h"

typedef pi_cl_dma_cmd_t AT_L2_EVENT;
typedef uint32_t AT_L2_EXT_ADDR_TYPE;
typedef uint32_t AT_L2_INT_ADDR_TYPE;
typedef pi_cl_ram_req_t AT_L3_EVENT;
typedef uint32_t AT_L3_EXT_ADDR_TYPE;
/* The L3 RAM device generated kernels copy through: the application defines and opens it before the
 * first call, under the name SDK applications give it (struct pi_device DefaultRam). */
extern struct pi_device DefaultRam;
#define AT_L3_DEFAULT_DEVICE (&DefaultRam)

#define AT_L2_COPY(Dev, Ext, Loc, Size, Dir, Event) \
    pi_cl_dma_cmd((uint32_t) (Ext), (uint32_t) (Loc), (Size), \
                  (Dir) == AT_L2_EXT2LOC ? PI_CL_DMA_DIR_EXT2LOC : PI_CL_DMA_DIR_LOC2EXT, (Event))
#define AT_L2_COPY2D(Dev, Ext, Loc, Size, Stride, Length, Dir, Event) \
    pi_cl_dma_cmd_2d((uint32_t) (Ext), (uint32_t) (Loc), (Size), (Stride), (Length), \
                     (Dir) == AT_L2_EXT2LOC ? PI_CL_DMA_DIR_EXT2LOC : PI_CL_DMA_DIR_LOC2EXT, (Event))
#define AT_L2_WAIT(Dev, Event) pi_cl_dma_cmd_wait(Event)

#define AT_L3_COPY(Dev, Ext, Loc, Size, Dir, Event) \
    pi_cl_ram_copy((Dev), (uint32_t) (Ext), (void *) (Loc), (Size), (Dir) == AT_L3_EXT2LOC, (Event))
#define AT_L3_COPY2D(Dev, Ext, Loc, Size, Stride, Length, Dir, Event) \
    pi_cl_ram_copy_2d((Dev), (uint32_t) (Ext), (void *) (Loc), (Size), (Stride), (Length), (Dir) == AT_L3_EXT2LOC, (Event))
#define AT_L3_WAIT(Dev, Event) pi_cl_ram_copy_wait(Event)

#define AT_L1_ALLOC(Dev, Size) ((char *) pi_cl_l1_malloc(Dev, Size))
#define AT_L1_FREE(Dev, Ptr, Size) pi_cl_l1_free(Dev, Ptr, Size)
#define AT_L2_ALLOC(Dev, Size) ((char *) pi_l2_malloc(Size))
#define AT_L2_FREE(Dev, Ptr, Size) pi_l2_free(Ptr, Size)

/* L3 RAM blocks of a graph. Address 0 is valid in L3 RAM but means failure here, so a block
 * allocated at 0 is traded for the next one. */
static inline char *AT_L3_AllocRam(struct pi_device *Dev, uint32_t Size)
{
    uint32_t Address = 0;
    if (pi_ram_alloc(Dev, &Address, Size) != 0)
        return 0;
    if (Address == 0) {
        uint32_t Next = 0;
        const int Failed = pi_ram_alloc(Dev, &Next, Size);
        pi_ram_free(Dev, 0, Size);
        if (Failed != 0)
            return 0;
        Address = Next;
    }
    return (char *) Address;
}
#define AT_L3_ALLOC(Dev, Size) AT_L3_AllocRam((Dev), (Size))
#define AT_L3_FREE(Dev, Ptr, Size) pi_ram_free((Dev), (uint32_t) (Ptr), (Size))
/* Blocking write from L2 on the fabric controller (graph construction). */
#define AT_L3_FC_WRITE(Dev, Ext, Loc, Size) pi_ram_write((Dev), (uint32_t) (Ext), (void *) (Loc), (Size))
/* Blocking read to L2 on the fabric controller (the tensor traces of at_graph_trace.h). */
#define AT_L3_FC_READ(Dev, Ext, Loc, Size) pi_ram_read((Dev), (uint32_t) (Ext), (void *) (Loc), (Size))

/* Tensor dumps to files (AT_GRAPH_DUMP_TENSOR_TO_FILE, at_graph_trace.h): files of the host
 * filesystem (through the debug bridge) the application mounts as AT_Host_Fs. */
typedef pi_fs_file_t *AT_DUMP_FILE_T;
extern struct pi_device AT_Host_Fs;
#define AT_DUMP_FILE_OPEN(Name) pi_fs_open(&AT_Host_Fs, (Name), PI_FS_FLAGS_WRITE)
#define AT_DUMP_FILE_WRITE(File, Data, Size) ((void) pi_fs_write((File), (void *) (Data), (Size)))
#define AT_DUMP_FILE_CLOSE(File) pi_fs_close(File)

/* The constants flash image: a file of the read-only filesystem the application mounts as
 * AT_Flash_Fs before constructing a graph. */
typedef pi_fs_file_t *AT_FLASH_FS_T;
extern struct pi_device AT_Flash_Fs;
#define AT_FLASH_FS_OPEN(Fs, Name, Error) \
    do { *(Fs) = pi_fs_open(&AT_Flash_Fs, (Name), 0); *(Error) = *(Fs) == 0; } while (0)
#define AT_FLASH_FS_COPY(Fs, Offset, Local, Size) \
    (pi_fs_seek(*(Fs), (Offset)) != 0 || pi_fs_read(*(Fs), (void *) (Local), (Size)) != (int) (Size))
#define AT_FLASH_FS_CLOSE(Fs) pi_fs_close(*(Fs))

/* Constants executed from flash (AT_GRAPH_CONST_EXEC_FROM_FLASH): their addresses are offsets in the
 * constants image, and kernels read them from the cluster through the open image file. */
typedef pi_cl_fs_req_t AT_FLASH_FS_CL_EVENT;
#define AT_FLASH_ADDRESS(Offset) ((char *) 0 + (Offset))
#define AT_FLASH_OFFSET(Pointer) ((uint32_t) (Pointer))
#define AT_FLASH_FS_CL_COPY(Fs, Ext, Loc, Size, Dir, Event) \
    pi_cl_fs_copy(*(Fs), AT_FLASH_OFFSET(Ext), (void *) (Loc), (Size), (Dir) == AT_L3_EXT2LOC, (Event))
#define AT_FLASH_FS_CL_COPY2D(Fs, Ext, Loc, Size, Stride, Length, Dir, Event) \
    pi_cl_fs_copy_2d(*(Fs), AT_FLASH_OFFSET(Ext), (void *) (Loc), (Size), (Stride), (Length), (Dir) == AT_L3_EXT2LOC, (Event))
#define AT_FLASH_FS_CL_WAIT(Fs, Event) pi_cl_fs_wait(Event)

/* The L3 RAM as the SDK's HyperRAM names it (the rest of its names are in at_api.h). */
typedef struct pi_device AT_HYPERRAM_T;
typedef uint32_t AT_HYPERRAM_EXT_ADDR_TYPE;

#define AT_FORK(Cores, Kernel, Arg) pi_cl_team_fork((Cores), (void *) (Kernel), (void *) (Arg))
#define __CALL(Kernel, Arg)

#endif
