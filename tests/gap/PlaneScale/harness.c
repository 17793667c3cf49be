/* Host harness of the PlaneScale example: every plane scaled by its factor plus the column index,
 * computed directly, and the number of times each call location ran. Usage: harness [seed] */
#include "GenKernels.h"
#include "PlaneScaleBasicKernels.h"
#include "../HarnessCommon.h"

#define PLANES 4
#define W 256
#define H 48

int main(int argc, char **argv)
{
    HarnessSeed(argc, argv);
    const size_t Count = (size_t) PLANES * W * H;
    Word16 *InOut = (Word16 *) HarnessAllocL2(Count * sizeof(Word16));
    Word16 *Expected = (Word16 *) HarnessAllocL2(Count * sizeof(Word16));
    Word16 *Scales = (Word16 *) HarnessAllocL2(PLANES * sizeof(Word16));
    Word32 Counters[6] = {0, 0, 0, 0, 0, 0};
    /* Prolog and epilog once, in-plane prolog/epilog once (a single output plane), the tile loop's
     * prolog and epilog once per input plane (iteration order 1). */
    const Word32 ExpectedCounters[6] = {1, 1, PLANES, PLANES, 1, 1};
    for (int p = 0; p < PLANES; p++)
        Scales[p] = (Word16) HarnessRandomRange(-5, 5);
    for (size_t i = 0; i < Count; i++)
        InOut[i] = (Word16) HarnessRandomRange(-100, 100);
    for (int p = 0; p < PLANES; p++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                const size_t i = ((size_t) p * H + y) * W + x;
                Expected[i] = (Word16) (InOut[i] * Scales[p] + x);
            }

    HarnessAllocL1();
    HarnessDmaStart();
    PlaneScale(InOut, Scales, Counters);
    HarnessDmaReport("PlaneScale");
    HarnessFreeL1();

    HarnessCompare16("InOut", InOut, Expected, W, H, PLANES);
    HarnessCompare32("Counters", Counters, ExpectedCounters, 6, 1, 1);
    free(InOut);
    free(Expected);
    free(Scales);
    return HarnessFinish();
}
