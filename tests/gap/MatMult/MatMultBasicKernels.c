/* Basic kernels of the MatMult example. Written for Tessera's tests; see MatMultBasicKernels.h. */
#include "MatMultBasicKernels.h"

static void ShareAmongCores(unsigned int Count, unsigned int *First, unsigned int *Last)
{
    const unsigned int Cores = (unsigned int) gap_ncore();
    const unsigned int Chunk = (Count + Cores - 1) / Cores;
    *First = gap_coreid() * Chunk;
    *Last = *First + Chunk < Count ? *First + Chunk : Count;
    if (*First > Count)
        *First = Count;
}

void MatMultColumns(MatMultColumns_Arg_T *Arg)
{
    unsigned int First, Last;
    ShareAmongCores(Arg->W_In2, &First, &Last);
    for (unsigned int Col = First; Col < Last; Col++)
        for (unsigned int Line = 0; Line < Arg->H_In1; Line++)
            Arg->Out[Line * Arg->W_Out + Arg->OutFirstCol + Col] =
                MatMultItem(Arg->In1 + Line * Arg->W_In1, Arg->In2 + Col, Arg->W_In2, Arg->W_In1, Arg->Norm);
    rt_team_barrier();
}

void MatMultColumnsBuffered(MatMultColumns_Arg_T *Arg)
{
    unsigned int FirstItem, LastItem, FirstLine, LastLine;
    ShareAmongCores(Arg->W_In1, &FirstItem, &LastItem);
    ShareAmongCores(Arg->H_In1, &FirstLine, &LastLine);
    for (unsigned int Col = 0; Col < Arg->W_In2; Col++) {
        for (unsigned int i = FirstItem; i < LastItem; i++)
            Arg->BufferColIn2[i] = Arg->In2[i * Arg->W_In2 + Col];
        rt_team_barrier();
        for (unsigned int Line = FirstLine; Line < LastLine; Line++)
            Arg->Out[Line * Arg->W_Out + Arg->OutFirstCol + Col] =
                MatMultItem(Arg->In1 + Line * Arg->W_In1, Arg->BufferColIn2, 1, Arg->W_In1, Arg->Norm);
        rt_team_barrier();
    }
}
