/* Host emulation of the generated kernels' memory operations. Copies are done immediately, waits
 * do nothing, parallel basic kernels run on an emulated team of cores, and every byte moved is
 * counted: __L2_Read/__L2_Write for L2<->L1, __L3_Read/__L3_Write for L3<->L2. */
#ifndef TESSERA_AT_API_EMUL_H
#define TESSERA_AT_API_EMUL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "at_emul_copy.h"
#include "at_emul_readfs.h"

typedef int AT_L2_EVENT;
typedef char *AT_L2_EXT_ADDR_TYPE;
typedef char *AT_L2_INT_ADDR_TYPE;
typedef int AT_L3_EVENT;
typedef char *AT_L3_EXT_ADDR_TYPE;
/* The L3 RAM device generated kernels copy through; host memory stands in for it. */
#define AT_L3_DEFAULT_DEVICE 0

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
 * folder or TESSERA_READFS_PATH), read whole into host memory when it is opened, since kernels read
 * it a few bytes at a time; reads count as L3 reads. */
typedef struct AT_EmulFlashImage {
    unsigned char *Data;
    size_t Size;
} *AT_FLASH_FS_T;
static inline AT_FLASH_FS_T AT_EmulFlashOpen(const char *Name)
{
    FILE *File = AT_EmulReadfsOpen(Name);
    if (File == 0)
        return 0;
    AT_FLASH_FS_T Image = (AT_FLASH_FS_T) calloc(1, sizeof *Image);
    long Size = -1;
    if (Image && fseek(File, 0, SEEK_END) == 0 && (Size = ftell(File)) >= 0 && fseek(File, 0, SEEK_SET) == 0) {
        Image->Size = (size_t) Size;
        Image->Data = (unsigned char *) malloc(Image->Size ? Image->Size : 1);
        if (Image->Data && fread(Image->Data, 1, Image->Size, File) == Image->Size) {
            fclose(File);
            return Image;
        }
    }
    fprintf(stderr, "emulation: the read-only filesystem's file '%s' could not be read whole\n", Name);
    fclose(File);
    if (Image)
        free(Image->Data);
    free(Image);
    return 0;
}
static inline void AT_EmulFlashClose(AT_FLASH_FS_T Image)
{
    if (Image)
        free(Image->Data);
    free(Image);
}
/* Non-zero when the bytes asked for are not all in the image. */
static inline int AT_EmulFlashRead(AT_FLASH_FS_T Image, unsigned int Offset, void *Local, unsigned int Size)
{
    if (Image == 0 || Offset > Image->Size || Size > Image->Size - Offset)
        return 1;
    memcpy(Local, Image->Data + Offset, Size);
    __L3_Read += Size;
    return 0;
}
#define AT_FLASH_FS_OPEN(Fs, Name, Error) \
    do { *(Fs) = AT_EmulFlashOpen(Name); *(Error) = *(Fs) == 0; } while (0)
/* Non-zero when the read failed. */
#define AT_FLASH_FS_COPY(Fs, Offset, Local, Size) AT_EmulFlashRead(*(Fs), (Offset), (Local), (Size))
#define AT_FLASH_FS_CLOSE(Fs) AT_EmulFlashClose(*(Fs))

/* Constants executed from flash (AT_GRAPH_CONST_EXEC_FROM_FLASH): their addresses are offsets in the
 * constants image, kept apart from host pointers by AT_EmulFlashOrigin; kernels read them from the
 * open image (counted as L3 reads). A failed read stops the program at the wait. */
__attribute__((weak)) char AT_EmulFlashOrigin[1];
typedef int AT_FLASH_FS_CL_EVENT;
#define AT_FLASH_ADDRESS(Offset) (AT_EmulFlashOrigin + (Offset))
#define AT_FLASH_OFFSET(Pointer) ((unsigned int) ((char *) (Pointer) - AT_EmulFlashOrigin))
static inline int AT_EmulFlashRead2D(AT_FLASH_FS_T File, unsigned int Offset, char *Local, unsigned int Size,
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

/* The L3 RAM as the SDK's HyperRAM names it (the rest of its names are in at_api.h). */
typedef int AT_HYPERRAM_T;
typedef char *AT_HYPERRAM_EXT_ADDR_TYPE;

/* Parallel basic kernels run on the emulated team (gap_emul_team.h), as AT_FORK does on the chip. */
#define AT_FORK(Cores, Kernel, Arg) AT_EmulFork((Cores), (void (*)(void *)) (Kernel), (void *) (Arg))
#define __CALL(Kernel, Arg) ((void) 0)

#endif
