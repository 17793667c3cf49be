/* Calls of the first GAP runtime that SDK applications of the first Autotiler's era still make next
 * to PMSIS: rt_alloc / rt_free by kind of memory (cluster data in the emulated L1, everything else in
 * L2) and the rt_perf_t counter set, declared so that such applications build; their counters are
 * the PMSIS ones (pi_perf_*). */
#ifndef TESSERA_PI_EMUL_RT_H
#define TESSERA_PI_EMUL_RT_H

#include "pi_emul_memory.h"

typedef enum {
    RT_ALLOC_FC_CODE = 0,
    RT_ALLOC_FC_DATA = 1,
    RT_ALLOC_FC_RET_DATA = 2,
    RT_ALLOC_CL_CODE = 3,
    RT_ALLOC_CL_DATA = 4,
    RT_ALLOC_L2_CL_DATA = 5,
    RT_ALLOC_PERIPH = 6
} rt_alloc_e;

static inline PiEmulHeap *PiEmulRtHeap(rt_alloc_e Flags) { return Flags == RT_ALLOC_CL_DATA ? &PiEmulL1 : &PiEmulL2; }
static inline void *rt_alloc(rt_alloc_e Flags, int Size)
{
    return Size < 0 ? 0 : PiEmulAlloc(PiEmulRtHeap(Flags), (uint32_t) Size);
}
static inline void rt_free(rt_alloc_e Flags, void *Chunk, int Size)
{
    PiEmulFree(PiEmulRtHeap(Flags), Chunk, (uint32_t) (Size < 0 ? 0 : Size), "rt_free");
}

typedef struct {
    unsigned int Values[17];
} rt_perf_t;

#endif
