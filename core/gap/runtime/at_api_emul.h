/* Host emulation of the generated kernels' memory operations. Copies are done immediately, waits
 * do nothing, parallel basic kernels run on an emulated team of cores, and every byte moved is
 * counted: __L2_Read/__L2_Write for L2<->L1, __L3_Read/__L3_Write for L3<->L2. */
#ifndef TESSERA_AT_API_EMUL_H
#define TESSERA_AT_API_EMUL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "at_emul_readfs.h"

/* Weak so that every translation unit may see the definition; the linker keeps one. */
__attribute__((weak)) unsigned int __L2_Read, __L2_Write, __L3_Read, __L3_Write;

typedef int AT_L2_EVENT;
typedef char *AT_L2_EXT_ADDR_TYPE;
typedef char *AT_L2_INT_ADDR_TYPE;
typedef int AT_L3_EVENT;
typedef char *AT_L3_EXT_ADDR_TYPE;
/* The L3 RAM device generated kernels copy through; host memory stands in for it. */
#define AT_L3_DEFAULT_DEVICE 0

/* In: external to local (AT_L2_EXT2LOC / AT_L3_EXT2LOC), else local to external. */
static inline void AT_EmulCopy2D(char *Ext, char *Loc, unsigned int Size, unsigned int Stride,
                                 unsigned int Length, int In, unsigned int *Counter)
{
    unsigned int Done = 0;
    if (Length == 0)
        Length = Size; /* a degenerate 2-D copy is one block */
    while (Done < Size) {
        unsigned int Chunk = (Size - Done) < Length ? (Size - Done) : Length;
        if (In)
            memcpy(Loc + Done, Ext, Chunk);
        else
            memcpy(Ext, Loc + Done, Chunk);
        Ext += Stride;
        Done += Chunk;
    }
    *Counter += Size;
}

/* L2 <-> L1 cluster DMA. Size in bytes; 2D: Stride between external lines, Length bytes per line. */
#define AT_L2_COPY(Dev, Ext, Loc, Size, Dir, Event) \
    do { (void) (Dev); *(Event) = 0; AT_EmulCopy2D((char *) (Ext), (char *) (Loc), (Size), 0, (Size), \
             (Dir) == AT_L2_EXT2LOC, (Dir) == AT_L2_EXT2LOC ? &__L2_Read : &__L2_Write); } while (0)
#define AT_L2_COPY2D(Dev, Ext, Loc, Size, Stride, Length, Dir, Event) \
    do { (void) (Dev); *(Event) = 0; AT_EmulCopy2D((char *) (Ext), (char *) (Loc), (Size), (Stride), (Length), \
             (Dir) == AT_L2_EXT2LOC, (Dir) == AT_L2_EXT2LOC ? &__L2_Read : &__L2_Write); } while (0)
#define AT_L2_WAIT(Dev, Event) ((void) (Dev), (void) (Event))

/* L3 RAM <-> L2 (micro DMA). */
#define AT_L3_COPY(Dev, Ext, Loc, Size, Dir, Event) \
    do { (void) (Dev); *(Event) = 0; AT_EmulCopy2D((char *) (Ext), (char *) (Loc), (Size), 0, (Size), \
             (Dir) == AT_L3_EXT2LOC, (Dir) == AT_L3_EXT2LOC ? &__L3_Read : &__L3_Write); } while (0)
#define AT_L3_COPY2D(Dev, Ext, Loc, Size, Stride, Length, Dir, Event) \
    do { (void) (Dev); *(Event) = 0; AT_EmulCopy2D((char *) (Ext), (char *) (Loc), (Size), (Stride), (Length), \
             (Dir) == AT_L3_EXT2LOC, (Dir) == AT_L3_EXT2LOC ? &__L3_Read : &__L3_Write); } while (0)
#define AT_L3_WAIT(Dev, Event) ((void) (Dev), (void) (Event))

#define AT_L1_ALLOC(Dev, Size) ((char *) malloc(Size))
#define AT_L1_FREE(Dev, Ptr, Size) free(Ptr)
#define AT_L2_ALLOC(Dev, Size) ((char *) malloc(Size))
#define AT_L2_FREE(Dev, Ptr, Size) free(Ptr)
/* L3 RAM blocks of a graph, and the blocking write from L2 that fills them at construction. */
#define AT_L3_ALLOC(Dev, Size) ((char *) malloc(Size))
#define AT_L3_FREE(Dev, Ptr, Size) free(Ptr)
#define AT_L3_FC_WRITE(Dev, Ext, Loc, Size) ((void) (Dev), memcpy((char *) (Ext), (char *) (Loc), (Size)))
/* The blocking read to L2 the tensor traces use (at_graph_trace.h); like the write, not counted. */
#define AT_L3_FC_READ(Dev, Ext, Loc, Size) ((void) (Dev), memcpy((char *) (Loc), (char *) (Ext), (Size)))

/* Tensor dumps to files (AT_GRAPH_DUMP_TENSOR_TO_FILE, at_graph_trace.h): host files. */
typedef FILE *AT_DUMP_FILE_T;
#define AT_DUMP_FILE_OPEN(Name) fopen((Name), "wb")
#define AT_DUMP_FILE_WRITE(File, Data, Size) ((void) fwrite((Data), 1, (Size), (File)))
#define AT_DUMP_FILE_CLOSE(File) fclose(File)

/* The constants flash image: a file of the read-only filesystem (at_emul_readfs.h: the working
 * folder or TESSERA_READFS_PATH); reads count as L3 reads. */
typedef FILE *AT_FLASH_FS_T;
static inline int AT_EmulFlashRead(FILE *File, unsigned int Offset, void *Local, unsigned int Size)
{
    if (File == 0 || fseek(File, (long) Offset, SEEK_SET) != 0 || fread(Local, 1, Size, File) != Size)
        return 1;
    __L3_Read += Size;
    return 0;
}
#define AT_FLASH_FS_OPEN(Fs, Name, Error) \
    do { *(Fs) = AT_EmulReadfsOpen(Name); *(Error) = *(Fs) == 0; } while (0)
/* Non-zero when the read failed. */
#define AT_FLASH_FS_COPY(Fs, Offset, Local, Size) AT_EmulFlashRead(*(Fs), (Offset), (Local), (Size))
#define AT_FLASH_FS_CLOSE(Fs) fclose(*(Fs))

/* Constants executed from flash (AT_GRAPH_CONST_EXEC_FROM_FLASH): their addresses are offsets in the
 * constants image, kept apart from host pointers by AT_EmulFlashOrigin; kernels read them from the
 * open image file (counted as L3 reads). A failed read stops the program at the wait. */
__attribute__((weak)) char AT_EmulFlashOrigin[1];
typedef int AT_FLASH_FS_CL_EVENT;
#define AT_FLASH_ADDRESS(Offset) (AT_EmulFlashOrigin + (Offset))
#define AT_FLASH_OFFSET(Pointer) ((unsigned int) ((char *) (Pointer) - AT_EmulFlashOrigin))
static inline int AT_EmulFlashRead2D(FILE *File, unsigned int Offset, char *Local, unsigned int Size,
                                     unsigned int Stride, unsigned int Length)
{
    for (unsigned int Done = 0; Done < Size; Done += Length, Offset += Stride)
        if (AT_EmulFlashRead(File, Offset, Local + Done, Size - Done < Length ? Size - Done : Length))
            return 1;
    return 0;
}
#define AT_FLASH_FS_CL_COPY(Fs, Ext, Loc, Size, Dir, Event) \
    (*(Event) = AT_EmulFlashRead(*(Fs), AT_FLASH_OFFSET(Ext), (Loc), (Size)))
#define AT_FLASH_FS_CL_COPY2D(Fs, Ext, Loc, Size, Stride, Length, Dir, Event) \
    (*(Event) = AT_EmulFlashRead2D(*(Fs), AT_FLASH_OFFSET(Ext), (char *) (Loc), (Size), (Stride), (Length)))
#define AT_FLASH_FS_CL_WAIT(Fs, Event) \
    do { if (*(Event)) { fprintf(stderr, "error: a constant could not be read from the flash image\n"); abort(); } } while (0)

/* Parallel basic kernels run on the emulated team (gap_emul_team.h), as AT_FORK does on the chip. */
#define AT_FORK(Cores, Kernel, Arg) AT_EmulFork((Cores), (void (*)(void *)) (Kernel), (void *) (Arg))
#define __CALL(Kernel, Arg) ((void) 0)

#endif
