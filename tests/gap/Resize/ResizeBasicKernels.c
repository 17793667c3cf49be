/* Basic kernels of the Resize example. Written for Tessera's tests; see ResizeBasicKernels.h. */
#include "ResizeBasicKernels.h"

void ResizeLines(ResizeLines_Arg_T *Arg)
{
    const unsigned int Win = Arg->Win, Hin = Arg->Hin, Wout = Arg->Wout, Hout = Arg->Hout;
    const unsigned int Cores = (unsigned int) gap_ncore();
    const unsigned int Chunk = (Wout + Cores - 1) / Cores;
    const unsigned int First = gap_coreid() * Chunk;
    const unsigned int Last = First + Chunk < Wout ? First + Chunk : Wout;

    for (unsigned int y = 0; y < Arg->Lines; y++) {
        const unsigned int PosY = (Arg->OutFirst + y) * (Hin - 1);
        const unsigned int Row = PosY / Hout - Arg->InFirst;
        const unsigned int FracY = (PosY % Hout) * 256 / Hout;
        const unsigned char *Top = Arg->In + Row * Win;
        for (unsigned int x = First; x < Last; x++) {
            const unsigned int PosX = x * (Win - 1);
            Arg->Out[y * Wout + x] = ResizeSample(Top, Top + Win, PosX / Wout, (PosX % Wout) * 256 / Wout, FracY);
        }
    }
    rt_team_barrier();
}
