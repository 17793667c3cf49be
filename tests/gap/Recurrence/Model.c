/* Recurrence: a recurrent cell over Steps inputs, written as GreenWaves' recurrent-layer generators
 * write theirs. The state is one L1 buffer: loaded from Sin before the steps, rewritten by every
 * step, and stored to Sout after the last one, because Sout is declared with KerArgAliased() on Sin
 * (argument 1 of the KerArgs list). The weights are tiled by rows (KER_ITER_TILE0) inside the
 * steps (KER_ITER_D0); the first tile of each step saves the previous state (K_ArgPred TILEFIRST). */
#include <stdint.h>
#include <stdio.h>

#include "AutoTilerLib.h"

static void LoadRecurrenceLibrary(void)
{
    LibKernel("RecurrenceStep", CALL_PARALLEL,
              CArgs(10,
                    TCArg("Word16 * __restrict__", "S"),
                    TCArg("Word16 * __restrict__", "State"),
                    TCArg("Word16 * __restrict__", "Xin"),
                    TCArg("Word16 * __restrict__", "Weights"),
                    TCArg("Word16 * __restrict__", "Hout"),
                    TCArg("unsigned short", "DimState"),
                    TCArg("unsigned short", "DimIn"),
                    TCArg("unsigned short", "Rows"),
                    TCArg("unsigned short", "Base"),
                    TCArg("int", "FirstTile")),
              "RecurrenceStep_Arg_T", NULL);
}

static void RecurrenceGenerator(char *Name, unsigned int Steps, unsigned int DimState, unsigned int DimIn)
{
    UserKernel(Name,
               KernelIterSpace(2, IterFixedSpace(KER_ITER_D0, Steps), IterTiledSpace(KER_ITER_TILE0)),
               TILE_HOR,
               CArgs(5,
                     TCArg("short int * __restrict__", "Sin"),
                     TCArg("short int * __restrict__", "Sout"),
                     TCArg("short int * __restrict__", "Xin"),
                     TCArg("short int * __restrict__", "Weights"),
                     TCArg("short int * __restrict__", "Hout")),
               Calls(1,
                     Call("RecurrenceStep", LOC_LOOP,
                          Bindings(10,
                                   K_Arg("Sin", KER_ARG_TILE),
                                   K_Arg("State", KER_ARG_TILE),
                                   K_Arg("Xin", KER_ARG_TILE),
                                   K_Arg("Weights", KER_ARG_TILE),
                                   K_Arg("Hout", KER_ARG_TILE),
                                   Imm(DimState),
                                   Imm(DimIn),
                                   K_Arg("Weights", KER_ARG_TILE_H),
                                   K_Arg("Weights", KER_ARG_TILE_BASE),
                                   K_ArgPred("Weights", KER_ARG_TILEFIRST, KER_ITER_TILE0)))),
               KerArgs(6,
                       KerArg("State", KerArgSpace(1, KER_ITER_TILE0), O_BUFF | O_NTILED, DimState + DimIn, 1,
                              sizeof(int16_t), 0, 0, 0, ""),
                       KerArg("Sin", KerArgSpace(1, KER_ITER_TILE0), O_IN | O_BUFF | O_NTILED, DimState, 1,
                              sizeof(int16_t), 0, 0, 0, "Sin"),
                       KerArgAliased("Sout", KerArgSpace(1, KER_ITER_TILE0), 1, O_OUT | O_BUFF | O_NTILED, DimState, 1,
                                     sizeof(int16_t), 0, 0, 0, "Sout"),
                       KerArg("Xin", KerArgSpace(1, KER_ITER_D0), O_IN | O_DB, DimIn, 1, sizeof(int16_t), 0, 0, 0,
                              "Xin"),
                       KerArg("Weights", KerArgSpace(1, KER_ITER_TILE0), O_IN | O_DB | O_CONST, DimState + DimIn,
                              DimState, sizeof(int16_t), 0, 0, 0, "Weights"),
                       KerArg("Hout", KerArgSpace(2, KER_ITER_D0, KER_ITER_TILE0), O_OUT | O_DB, 1, DimState,
                              sizeof(int16_t), 0, 0, 0, "Hout")));
}

int main(int argc, char **argv)
{
    if (TilerParseOptions(argc, argv)) {
        printf("Failed to initialize or incorrect arguments.\n");
        return 1;
    }
    SetUsedFilesNames(0, 1, "RecurrenceBasicKernels.h");
    SetSymbolDynamics();
    SetL1MemorySize(51200);
    LoadRecurrenceLibrary();
    RecurrenceGenerator("Recurrence", 5, 24, 8);
    GenerateTilingCode();
    return 0;
}
