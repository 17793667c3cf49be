/* Tessera's copy, transposition and permutation basic kernels on the SDK's contract (their
 * interface in CNN_Copy.h). Plain C on Gap.h; each kernel splits its work over the cores and ends
 * with a barrier. */
#include "CNN_Copy.h"
#include "CNN_KernelHelpers.h"

#include <string.h>

void CNN_Copy_void(KerCopy_void_T *Arg)
{
    unsigned int First, Last;

    core_range(Arg->N, &First, &Last);
    if (Last > First)
        memcpy((char *) Arg->Out + First, (const char *) Arg->In + First, Last - First);
    gap_waitbarrier(0);
}

void CNN_Repeat_void(KerRepeat_void_T *Arg)
{
    unsigned int First, Last;

    core_range(Arg->NTile, &First, &Last);
    for (unsigned int r = 0; r < Arg->NRepeat && Last > First; r++)
        memcpy((char *) Arg->Out + (size_t) r * Arg->NTile + First, (const char *) Arg->In + First, Last - First);
    gap_waitbarrier(0);
}

/* ---- Transpositions ---- */

/* Out[f][x][y] = In[f][y][x] for the matrices [FirstF, LastF) and their lines [FirstY, LastY). */
#define TESSERA_TRANSPOSE(Type, In, Out, W, H, FirstF, LastF, FirstY, LastY)                              \
    for (unsigned int f = (FirstF); f < (LastF); f++) {                                                   \
        const Type *__restrict__ From = (In) + (size_t) f * (W) * (H);                                   \
        Type *__restrict__ To = (Out) + (size_t) f * (W) * (H);                                          \
        for (unsigned int y = (FirstY); y < (LastY); y++)                                                 \
            for (unsigned int x = 0; x < (W); x++)                                                        \
                To[(size_t) x * (H) + y] = From[(size_t) y * (W) + x];                                    \
    }

void CNN_ParTranspose_fps(KerMatTranspose_fps_T *Arg)
{
    unsigned int First, Last;

    core_range(Arg->Feat, &First, &Last);
    TESSERA_TRANSPOSE(signed char, Arg->In, Arg->Out, Arg->W, Arg->H, First, Last, 0, Arg->H)
    gap_waitbarrier(0);
}

void CNN_Transpose_fps(KerMatTranspose_fps_T *Arg)
{
    unsigned int First, Last;

    core_range(Arg->H, &First, &Last);
    TESSERA_TRANSPOSE(signed char, Arg->In, Arg->Out, Arg->W, Arg->H, 0, Arg->Feat, First, Last)
    gap_waitbarrier(0);
}

void CNN_ParTranspose_fp(KerMatTranspose_fp_T *Arg)
{
    unsigned int First, Last;

    core_range(Arg->Feat, &First, &Last);
    TESSERA_TRANSPOSE(short int, Arg->In, Arg->Out, Arg->W, Arg->H, First, Last, 0, Arg->H)
    gap_waitbarrier(0);
}

void CNN_Transpose_fp(KerMatTranspose_fp_T *Arg)
{
    unsigned int First, Last;

    core_range(Arg->H, &First, &Last);
    TESSERA_TRANSPOSE(short int, Arg->In, Arg->Out, Arg->W, Arg->H, 0, Arg->Feat, First, Last)
    gap_waitbarrier(0);
}

/* ---- Permutations of 3-D tensors ---- */

/* The order of a tensor's three dimensions, outermost first. */
typedef enum { ORDER_CHW, ORDER_CWH, ORDER_HWC, ORDER_HCW, ORDER_WHC, ORDER_WCH } TensorOrder;

typedef struct {
    size_t C, H, W;
} TensorStrides;

/* Where element (c, h, w) of a Feat x H x W tensor stored in `Order` is: c * C + h * H + w * W. */
static TensorStrides strides_of(TensorOrder Order, size_t Feat, size_t H, size_t W)
{
    TensorStrides S;

    switch (Order) {
    case ORDER_CHW: S.C = H * W; S.H = W; S.W = 1; break;
    case ORDER_CWH: S.C = W * H; S.W = H; S.H = 1; break;
    case ORDER_HWC: S.H = W * Feat; S.W = Feat; S.C = 1; break;
    case ORDER_HCW: S.H = Feat * W; S.C = W; S.W = 1; break;
    case ORDER_WHC: S.W = H * Feat; S.H = Feat; S.C = 1; break;
    default:        S.W = Feat * H; S.C = H; S.H = 1; break; /* ORDER_WCH */
    }
    return S;
}

/* Moves each element of a tensor stored in `From` order to its place in `To` order; the cores
 * share the channels. */
#define TESSERA_PERMUTE(Type, Arg, FromOrder, ToOrder)                                                    \
    do {                                                                                                  \
        const Type *__restrict__ In = (Arg)->In;                                                          \
        Type *__restrict__ Out = (Arg)->Out;                                                              \
        const size_t Feat = (Arg)->Feat, H = (Arg)->H, W = (Arg)->W;                                      \
        const TensorStrides I = strides_of(FromOrder, Feat, H, W), O = strides_of(ToOrder, Feat, H, W);   \
        unsigned int First, Last;                                                                         \
        core_range((Arg)->Feat, &First, &Last);                                                           \
        for (size_t c = First; c < Last; c++)                                                             \
            for (size_t h = 0; h < H; h++)                                                                \
                for (size_t w = 0; w < W; w++)                                                            \
                    Out[c * O.C + h * O.H + w * O.W] = In[c * I.C + h * I.H + w * I.W];                   \
        gap_waitbarrier(0);                                                                               \
    } while (0)

#define TESSERA_PERMUTATION(From, To)                                                                     \
    void CNN_MatPerm##From##2##To##_fps(KerMatTranspose_fps_T *Arg)                                        \
    {                                                                                                     \
        TESSERA_PERMUTE(signed char, Arg, ORDER_##From, ORDER_##To);                                      \
    }                                                                                                     \
    void CNN_MatPerm##From##2##To##_fp(KerMatTranspose_fp_T *Arg)                                          \
    {                                                                                                     \
        TESSERA_PERMUTE(short int, Arg, ORDER_##From, ORDER_##To);                                        \
    }

TESSERA_PERMUTATION(CHW, CWH)
TESSERA_PERMUTATION(CHW, HWC)
TESSERA_PERMUTATION(CHW, WHC)
TESSERA_PERMUTATION(CHW, WCH)
TESSERA_PERMUTATION(CHW, HCW)
TESSERA_PERMUTATION(HWC, HCW)
TESSERA_PERMUTATION(HWC, WCH)
TESSERA_PERMUTATION(HWC, WHC)
TESSERA_PERMUTATION(HWC, CHW)
TESSERA_PERMUTATION(HWC, CWH)
