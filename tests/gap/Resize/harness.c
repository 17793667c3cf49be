/* Host harness of the Resize example: runs the generated ResizeHalf and ResizeThird on seeded random
 * images and compares them with an untiled bilinear resize of the whole image.
 * Usage: harness [seed] */
#include "GenKernels.h"
#include "ResizeBasicKernels.h"
#include "../HarnessCommon.h"

/* Every output pixel from the whole input plane, plane by plane. */
static void DirectResize(const unsigned char *In, unsigned char *Out, unsigned int Win, unsigned int Hin,
                         unsigned int Wout, unsigned int Hout, unsigned int Planes)
{
    for (unsigned int p = 0; p < Planes; p++)
        for (unsigned int y = 0; y < Hout; y++) {
            const unsigned int PosY = y * (Hin - 1);
            const unsigned char *Top = In + (size_t) p * Win * Hin + (size_t) (PosY / Hout) * Win;
            for (unsigned int x = 0; x < Wout; x++) {
                const unsigned int PosX = x * (Win - 1);
                Out[((size_t) p * Hout + y) * Wout + x] =
                    ResizeSample(Top, Top + Win, PosX / Wout, (PosX % Wout) * 256 / Wout, (PosY % Hout) * 256 / Hout);
            }
        }
}

typedef void (*ResizeFunction)(unsigned char *In, unsigned char *Out);

static void RunResize(const char *Name, ResizeFunction Function, unsigned int Win, unsigned int Hin,
                      unsigned int Wout, unsigned int Hout, unsigned int Planes)
{
    const size_t InSize = (size_t) Win * Hin * Planes, OutSize = (size_t) Wout * Hout * Planes;
    unsigned char *In = (unsigned char *) HarnessAllocL2(InSize);
    unsigned char *Out = (unsigned char *) HarnessAllocL2(OutSize);
    unsigned char *Expected = (unsigned char *) HarnessAllocL2(OutSize);
    DirectResize(In, Expected, Win, Hin, Wout, Hout, Planes);  /* In is random already */

    HarnessAllocL1();
    HarnessDmaStart();
    Function(In, Out);
    HarnessDmaReport(Name);
    HarnessFreeL1();

    HarnessCompare8(Name, Out, Expected, Wout, Hout, Planes);
    free(In);
    free(Out);
    free(Expected);
}

int main(int argc, char **argv)
{
    HarnessSeed(argc, argv);
    RunResize("ResizeHalf", ResizeHalf, 322, 242, 161, 121, 1);
    RunResize("ResizeThird", ResizeThird, 150, 100, 47, 31, 3);
    return HarnessFinish();
}
