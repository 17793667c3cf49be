/* The host's stand-in for the GAP DMAs, shared by the generated kernels' runtime (at_api_emul.h) and
 * the PMSIS cluster DMA (pmsis_emul/pi_emul_cl_dma.h): a copy happens at once, and every byte moved
 * is counted in __L2_Read/__L2_Write (L2<->L1) or __L3_Read/__L3_Write (L3<->L2). */
#ifndef TESSERA_AT_EMUL_COPY_H
#define TESSERA_AT_EMUL_COPY_H

#include <string.h>

/* Weak so that every translation unit may see the definition; the linker keeps one. */
__attribute__((weak)) unsigned int __L2_Read, __L2_Write, __L3_Read, __L3_Write;

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

#endif
