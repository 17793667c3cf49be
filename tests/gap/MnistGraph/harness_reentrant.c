/* Host program for the MNIST graph generated re-entrant (-R):
 * `harness_reentrant INPUT_A INPUT_B OUTPUT_A OUTPUT_B`, run in the folder of the constants image.
 * Execution A is suspended after every layer (the yield hook says so); while it is suspended,
 * execution B of the same graph runs to the end in its own context. A is resumed until it is done
 * and the number of calls it took is printed. Then A is suspended after its first layer on input B,
 * started again from the first layer (ControlCtxt 0) and run to the end: its output must equal B's.
 * An aborted execution (ControlCtxt 1) must finish at once. Built with -DPRIVILEGED_FLASH for a
 * graph with a privileged flash, whose image the constructor opens through the descriptor. */
#include "MnistKernels.h"

#include <stdio.h>
#include <string.h>

static int Suspend;
static int SuspendAfterEachLayer(void) { return Suspend; }

static int ReadInput(const char *Name, short int *Input)
{
    FILE *In = fopen(Name, "rb");
    const int Ok = In && fread(Input, sizeof(short int), 28 * 28, In) == 28 * 28;
    if (In)
        fclose(In);
    return Ok;
}

static int WriteOutput(const char *Name, const short int *Output)
{
    FILE *Out = fopen(Name, "wb");
    const int Ok = Out && fwrite(Output, sizeof(short int), 10, Out) == 10;
    if (Out)
        fclose(Out);
    return Ok;
}

int main(int argc, char **argv)
{
    static short int InputA[28 * 28], InputB[28 * 28], OutputA[10], OutputB[10], Restarted[10];
    if (argc != 5 || !ReadInput(argv[1], InputA) || !ReadInput(argv[2], InputB)) {
        fprintf(stderr, "usage: harness_reentrant INPUT_A INPUT_B OUTPUT_A OUTPUT_B\n");
        return 2;
    }
    AT_FLASH_FS_T Flash;
    CNN_Graph_Descr_T Descr = {0, &Flash, 0, 0, 0};
#ifdef PRIVILEGED_FLASH
    AT_FLASH_FS_T PrivilegedFlash;
    Descr.PrivilegedFlash = &PrivilegedFlash;
#endif
    int Error = MnistCNN_Construct(&Descr);
    if (Error) {
        printf("CONSTRUCT %d\n", Error);
        return 1;
    }
    int StatusA, StatusB;
    MnistCNN_Ctxt_T *A = MnistCNN_AllocCtxt(&Descr, 0, 0, 0, 0, &StatusA);
    MnistCNN_Ctxt_T *B = MnistCNN_AllocCtxt(&Descr, 0, 0, 0, 0, &StatusB);
    if (StatusA || StatusB) {
        printf("ALLOCCTXT %d %d\n", StatusA, StatusB);
        return 1;
    }
    printf("CONTEXT %d bytes\n", MnistCNN_Memory(AT_CTXT_MEM));

    AT_YieldHook = SuspendAfterEachLayer;
    int Calls = 0;
    do {
        Suspend = 1;
        MnistCNN(A, InputA, OutputA, 0);
        ++Calls;
        if (MnistCNN_CtxtGetLayerIndex(A) != 0) {
            Suspend = 0; /* B runs to the end while A waits */
            MnistCNN(B, InputB, OutputB, 0);
            if (MnistCNN_CtxtGetLayerIndex(B) != 0) {
                printf("B DID NOT FINISH\n");
                return 1;
            }
        }
    } while (MnistCNN_CtxtGetLayerIndex(A) != 0 && Calls < 100);
    printf("CALLS %d\n", Calls);

    Suspend = 1;
    MnistCNN(A, InputB, Restarted, 0);
    if (MnistCNN_CtxtGetLayerIndex(A) != 1) {
        printf("NOT SUSPENDED AFTER LAYER 0: %d\n", MnistCNN_CtxtGetLayerIndex(A));
        return 1;
    }
    MnistCNN_ControlCtxt(A, 0);
    Suspend = 0;
    MnistCNN(A, InputB, Restarted, 0);
    if (memcmp(Restarted, OutputB, sizeof(Restarted)) != 0) {
        printf("RESTART DIFFERS\n");
        return 1;
    }
    MnistCNN_ControlCtxt(A, 1);
    MnistCNN(A, InputA, Restarted, 0);
    if (MnistCNN_CtxtGetLayerIndex(A) != 0 || memcmp(Restarted, OutputB, sizeof(Restarted)) != 0) {
        printf("ABORT RAN LAYERS\n");
        return 1;
    }

    MnistCNN_DeAllocCtxt(A, 1, 1, 1, 1);
    MnistCNN_DeAllocCtxt(B, 1, 1, 1, 1);
    MnistCNN_Destruct(&Descr, 1, 1);
    if (!WriteOutput(argv[3], OutputA) || !WriteOutput(argv[4], OutputB)) {
        fprintf(stderr, "harness_reentrant: cannot write the outputs\n");
        return 2;
    }
    printf("RESULT ok\n");
    return 0;
}
