/* The cluster DMA of PMSIS on the host (pi_cl_dma_cmd, pi_cl_dma_memcpy and their 2-D forms): a copy
 * happens when it is enqueued and a wait returns at once, like the generated kernels' AT_L2_COPY, and
 * the bytes are counted in the same __L2_Read / __L2_Write counters.
 *
 * The chip's addresses are 32 bits. The emulated memories are mapped below 4 GiB and `tessera gap
 * emul-cflags` links without position independence, so globals fit too; an address that was cut to
 * 32 bits from somewhere else (a stack buffer, a PIE global) is refused with that explanation. */
#ifndef TESSERA_PI_EMUL_CL_DMA_H
#define TESSERA_PI_EMUL_CL_DMA_H

#include "at_emul_copy.h"
#include "pi_emul_memory.h"

typedef enum {
    PI_CL_DMA_DIR_LOC2EXT = 0, /* cluster L1 to L2 */
    PI_CL_DMA_DIR_EXT2LOC = 1  /* L2 to cluster L1 */
} pi_cl_dma_dir_e;

typedef struct pi_cl_dma_cmd_s {
    uint32_t size;
} pi_cl_dma_cmd_t;

typedef struct pi_cl_dma_copy_s {
    uint32_t ext;
    uint32_t loc;
    uint32_t id;
    uint32_t size;
    pi_cl_dma_dir_e dir;
    uint8_t merge;
    uint32_t stride; /* 2-D: bytes from one external line to the next */
    uint32_t length; /* 2-D: bytes per line */
} pi_cl_dma_copy_t;
typedef pi_cl_dma_copy_t pi_cl_dma_copy_2d_t;

/* The program's own image, from the GNU linker. */
extern char __executable_start[], _end[];

static inline int PiEmulInHeap(const PiEmulHeap *Heap, const char *Start, uint32_t Size)
{
    return Heap->Base && Start >= Heap->Base && Start + Size <= Heap->Base + Heap->Capacity;
}

/* The host pointer for a 32-bit chip address, checked as far as the host can. */
static inline char *PiEmulDmaAddress(uint32_t Address, uint32_t Size, const char *Call, const char *Which)
{
    char *Pointer = (char *) (uintptr_t) Address;
    if (PiEmulInHeap(&PiEmulL1, Pointer, Size) || PiEmulInHeap(&PiEmulL2, Pointer, Size) ||
        PiEmulInHeap(&PiEmulRam, Pointer, Size) ||
        (Pointer >= __executable_start && Pointer + Size <= _end && (uintptr_t) _end <= 0xFFFFFFFFu))
        return Pointer;
    fprintf(stderr,
            "pmsis emulation: %s: the %s address 0x%08x (%u bytes) is not in the emulated L1, L2 or L3 RAM nor in "
            "the program's globals; a chip address is 32 bits, so keep DMA buffers in pmsis_l1_malloc / "
            "pmsis_l2_malloc memory or in globals, and build and link with `tessera gap emul-cflags` (-no-pie)\n",
            Call, Which, Address, Size);
    exit(1);
}

static inline void pi_cl_dma_cmd_2d(uint32_t ext, uint32_t loc, uint32_t size, uint32_t stride, uint32_t length,
                                    pi_cl_dma_dir_e dir, pi_cl_dma_cmd_t *cmd)
{
    const int In = dir == PI_CL_DMA_DIR_EXT2LOC;
    const uint32_t Lines = length ? (size + length - 1) / length : 1;
    char *Ext = PiEmulDmaAddress(ext, stride && Lines > 1 ? (Lines - 1) * stride + length : size, "pi_cl_dma", "external");
    char *Loc = PiEmulDmaAddress(loc, size, "pi_cl_dma", "cluster");
    AT_EmulCopy2D(Ext, Loc, size, stride, length, In, In ? &__L2_Read : &__L2_Write);
    if (cmd)
        cmd->size = size;
}
static inline void pi_cl_dma_cmd(uint32_t ext, uint32_t loc, uint32_t size, pi_cl_dma_dir_e dir, pi_cl_dma_cmd_t *cmd)
{
    pi_cl_dma_cmd_2d(ext, loc, size, 0, size, dir, cmd);
}
static inline void pi_cl_dma_cmd_wait(pi_cl_dma_cmd_t *cmd) { (void) cmd; }
static inline void pi_cl_dma_flush(void) {}
static inline void pi_cl_dma_memcpy(pi_cl_dma_copy_t *copy)
{
    pi_cl_dma_cmd_2d(copy->ext, copy->loc, copy->size, 0, copy->size, copy->dir, 0);
}
static inline void pi_cl_dma_memcpy_2d(pi_cl_dma_copy_2d_t *copy)
{
    pi_cl_dma_cmd_2d(copy->ext, copy->loc, copy->size, copy->stride, copy->length, copy->dir, 0);
}
static inline void pi_cl_dma_wait(void *copy) { (void) copy; }

#endif
