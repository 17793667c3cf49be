/* The emulated chip's memories for PMSIS applications on the host: cluster L1, L2 and the L3 RAM,
 * each a fixed-size arena mapped below 4 GiB, because applications keep L3 (and sometimes L2)
 * addresses in uint32_t as on the chip. The sizes are GAP8's unless the build says otherwise
 * (-DPI_EMUL_L1_SIZE=..., -DPI_EMUL_L2_SIZE=..., -DPI_EMUL_RAM_SIZE=...). An allocation that does not
 * fit returns NULL, as on the chip, and says on stderr how full the memory is. */
#ifndef TESSERA_PI_EMUL_MEMORY_H
#define TESSERA_PI_EMUL_MEMORY_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#ifndef PI_EMUL_L1_SIZE
#define PI_EMUL_L1_SIZE (64u * 1024u)
#endif
#ifndef PI_EMUL_L2_SIZE
#define PI_EMUL_L2_SIZE (512u * 1024u)
#endif
#ifndef PI_EMUL_RAM_SIZE
#define PI_EMUL_RAM_SIZE (8u * 1024u * 1024u)
#endif
#define PI_EMUL_MAX_BLOCKS 4096

typedef struct {
    uint32_t Offset, Size;
} PiEmulBlock;

/* One memory: its blocks in address order. */
typedef struct {
    const char *Name;
    const char *SizeMacro;
    uint32_t Capacity;
    char *Base;
    uint32_t Count;
    uint32_t InUse;
    PiEmulBlock Blocks[PI_EMUL_MAX_BLOCKS];
} PiEmulHeap;

/* Shared by every translation unit (weak definitions: the linker keeps one). */
__attribute__((weak)) PiEmulHeap PiEmulL1 = {"L1", "PI_EMUL_L1_SIZE", PI_EMUL_L1_SIZE, 0, 0, 0, {{0, 0}}};
__attribute__((weak)) PiEmulHeap PiEmulL2 = {"L2", "PI_EMUL_L2_SIZE", PI_EMUL_L2_SIZE, 0, 0, 0, {{0, 0}}};
__attribute__((weak)) PiEmulHeap PiEmulRam = {"L3 RAM", "PI_EMUL_RAM_SIZE", PI_EMUL_RAM_SIZE, 0, 0, 0, {{0, 0}}};

/* Host memory below 4 GiB, so that its addresses survive a round trip through uint32_t. */
static inline char *PiEmulMapLow(uint32_t Size, const char *Name)
{
    void *Memory = MAP_FAILED;
#if defined(MAP_32BIT)
    Memory = mmap(0, Size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_32BIT, -1, 0);
#endif
    for (uintptr_t Hint = 0x10000000u; Memory == MAP_FAILED && Hint < 0xF0000000u; Hint += 0x10000000u) {
        Memory = mmap((void *) Hint, Size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (Memory != MAP_FAILED && (uintptr_t) Memory + Size > 0xFFFFFFFFu) {
            munmap(Memory, Size);
            Memory = MAP_FAILED;
        }
    }
    if (Memory == MAP_FAILED) {
        fprintf(stderr, "pmsis emulation: cannot map the %u bytes of emulated %s below 4 GiB\n", Size, Name);
        abort();
    }
    return (char *) Memory;
}

static inline uint32_t PiEmulAligned(uint32_t Size) { return (Size + 7u) & ~7u; }

/* First fit; NULL when the memory is full, with what is in use on stderr. */
static inline void *PiEmulAlloc(PiEmulHeap *Heap, uint32_t Size)
{
    if (Size == 0)
        return 0;
    if (!Heap->Base)
        Heap->Base = PiEmulMapLow(Heap->Capacity, Heap->Name);
    const uint32_t Need = PiEmulAligned(Size);
    uint32_t Start = 0, Slot = 0;
    for (; Slot < Heap->Count; Slot++) {
        if (Heap->Blocks[Slot].Offset - Start >= Need)
            break;
        Start = Heap->Blocks[Slot].Offset + PiEmulAligned(Heap->Blocks[Slot].Size);
    }
    if (Heap->Count == PI_EMUL_MAX_BLOCKS || Need > Heap->Capacity || Start > Heap->Capacity - Need) {
        fprintf(stderr,
                "pmsis emulation: %u bytes of %s requested, %u of %u bytes in use in %u blocks; build with "
                "-D%s=<bytes> to emulate a larger %s\n",
                Size, Heap->Name, Heap->InUse, Heap->Capacity, Heap->Count, Heap->SizeMacro, Heap->Name);
        return 0;
    }
    for (uint32_t i = Heap->Count; i > Slot; i--)
        Heap->Blocks[i] = Heap->Blocks[i - 1];
    Heap->Blocks[Slot].Offset = Start;
    Heap->Blocks[Slot].Size = Size;
    Heap->Count++;
    Heap->InUse += Size;
    return Heap->Base + Start;
}

/* Freeing what was not allocated stops the program: on the chip it would corrupt the allocator. */
static inline void PiEmulFree(PiEmulHeap *Heap, const void *Pointer, uint32_t Size, const char *Call)
{
    for (uint32_t Slot = 0; Slot < Heap->Count; Slot++) {
        if (Heap->Base + Heap->Blocks[Slot].Offset != (const char *) Pointer)
            continue;
        if (Heap->Blocks[Slot].Size != Size)
            fprintf(stderr, "pmsis emulation: %s(%p, %u): the block was allocated with %u bytes\n", Call, Pointer, Size,
                    Heap->Blocks[Slot].Size);
        Heap->InUse -= Heap->Blocks[Slot].Size;
        for (uint32_t i = Slot; i + 1 < Heap->Count; i++)
            Heap->Blocks[i] = Heap->Blocks[i + 1];
        Heap->Count--;
        return;
    }
    fprintf(stderr, "pmsis emulation: %s(%p, %u): no %s block starts there\n", Call, Pointer, Size, Heap->Name);
    abort();
}

/* The host pointer of [Address, Address + Size) when it lies inside one allocated block; otherwise
 * the program stops with the call named (the chip would read or write another buffer). */
static inline char *PiEmulInside(const PiEmulHeap *Heap, uintptr_t Address, uint32_t Size, const char *Call)
{
    for (uint32_t Slot = 0; Heap->Base && Slot < Heap->Count; Slot++) {
        const uintptr_t Begin = (uintptr_t) Heap->Base + Heap->Blocks[Slot].Offset;
        if (Address >= Begin && Address - Begin <= Heap->Blocks[Slot].Size &&
            Size <= Heap->Blocks[Slot].Size - (Address - Begin))
            return (char *) Address;
    }
    fprintf(stderr, "pmsis emulation: %s at 0x%lx, %u bytes: outside every allocated %s block\n", Call,
            (unsigned long) Address, Size, Heap->Name);
    abort();
}

#endif
