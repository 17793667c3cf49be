/* Recurrence: a recurrent cell over Steps inputs, written as GreenWaves' recurrent-layer generators
 * write theirs. The state is one L1 buffer: loaded from Sin before the steps, rewritten by every
 * step, and stored to Sout after the last one, because Sout is declared with KerArgAliased() on Sin
 * (argument 1 of the KerArgs list). The weights are tiled by rows (KER_ITER_TILE0) inside the
 * steps (KER_ITER_D0); the first tile of each step saves the previous state (K_ArgPred TILEFIRST).
 * RecurrenceSplit runs the same steps as two kernels of a group, as the SDK's RNN_Stack_Seq
 * generators split a sequence: the first kernel's state is not stored (O_NO_STORE) and the second
 * one's not loaded (O_NO_LOAD), both bound to the group's G1O. RecurrenceReversed runs the sequence
 * backwards, as the SDK's bidirectional recurrent layers do: Xin and Hout vary along
 * SPACE_PROP(KER_ITER_D0, SPACE_PROP_REVERT), so step t reads and writes plane Steps - 1 - t.
 * RecurrenceDynamic and RecurrenceDynamicReversed run as many of the 5 steps as their C argument
 * Steps says (IterFixedSpaceDynBound, as the SDK's recurrent layers over sequences of variable
 * length declare theirs); reversed, step t reads and writes plane Steps - 1 - t of the run-time count. */
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

static void RecurrenceGenerator(char *Name, unsigned int Steps, unsigned int DimState, unsigned int DimIn,
                                unsigned int SinAttr, unsigned int SoutAttr, int Revert, int Dynamic)
{
    /* Reverted, the steps read Xin and write Hout from the last step's planes to the first. */
    int RD0 = Revert ? SPACE_PROP(KER_ITER_D0, SPACE_PROP_REVERT) : KER_ITER_D0;
    UserKernel(Name,
               KernelIterSpace(2,
                               Dynamic ? IterFixedSpaceDynBound(KER_ITER_D0, Steps, "Steps")
                                       : IterFixedSpace(KER_ITER_D0, Steps),
                               IterTiledSpace(KER_ITER_TILE0)),
               TILE_HOR,
               CArgs(6,
                     Dynamic ? TCArg("int", "Steps") : AT_NO_C_ARG,
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
                       KerArg("Sin", KerArgSpace(1, KER_ITER_TILE0), SinAttr | O_BUFF | O_NTILED, DimState, 1,
                              sizeof(int16_t), 0, 0, 0, "Sin"),
                       KerArgAliased("Sout", KerArgSpace(1, KER_ITER_TILE0), 1, SoutAttr | O_BUFF | O_NTILED, DimState, 1,
                                     sizeof(int16_t), 0, 0, 0, "Sout"),
                       KerArg("Xin", KerArgSpace(1, RD0), O_IN | O_DB, DimIn, 1, sizeof(int16_t), 0, 0, 0,
                              "Xin"),
                       KerArg("Weights", KerArgSpace(1, KER_ITER_TILE0), O_IN | O_DB | O_CONST, DimState + DimIn,
                              DimState, sizeof(int16_t), 0, 0, 0, "Weights"),
                       KerArg("Hout", KerArgSpace(2, RD0, KER_ITER_TILE0), O_OUT | O_DB, 1, DimState,
                              sizeof(int16_t), 0, 0, 0, "Hout")));
}

/* Steps split after First steps: G1 runs them from Sin, its state left in G1O (O_NO_STORE); G2 runs the
 * others from G1O (O_NO_LOAD), its inputs and outputs moved past G1's, and writes Sout. */
static void RecurrenceSplitGenerator(char *Name, unsigned int Steps, unsigned int First, unsigned int DimState,
                                     unsigned int DimIn)
{
    char *G1 = AppendNames(Name, "G1"), *G2 = AppendNames(Name, "G2");
    OpenKernelGroup(Name);
    RecurrenceGenerator(G1, First, DimState, DimIn, O_IN, O_OUT | O_NO_STORE, 0, 0);
    RecurrenceGenerator(G2, Steps - First, DimState, DimIn, O_IN | O_NO_LOAD, O_OUT, 0, 0);
    CloseKernelGroupNoMerge();
    UserKernelGroupK(Name, 1,
                     CArgs(6,
                           TCArg("short int * __restrict__", "Sin"),
                           TCArg("short int * __restrict__", "Sout"),
                           TCArg("short int * __restrict__", "G1O"),
                           TCArg("short int * __restrict__", "Xin"),
                           TCArg("short int * __restrict__", "Weights"),
                           TCArg("short int * __restrict__", "Hout")),
                     0,
                     Calls(2,
                           UserKernelCall(G1, LOC_GROUP,
                                          Bindings(5, C_Arg("Sin"), C_Arg("G1O"), C_Arg("Xin"), C_Arg("Weights"),
                                                   C_Arg("Hout"))),
                           UserKernelCall(G2, LOC_GROUP,
                                          Bindings(5, C_Arg("G1O"), C_Arg("Sout"), KG_ArgOper("Xin", '+', First * DimIn),
                                                   C_Arg("Weights"), KG_ArgOper("Hout", '+', First * DimState)))),
                     KerArgs(6,
                             KerGroupArg("Sin", O_IN, DimState, sizeof(int16_t), "Sin"),
                             KerGroupArg("Sout", O_OUT, DimState, sizeof(int16_t), "Sout"),
                             KerGroupArg("G1O", O_IN | O_OUT | O_BUFF, DimState, sizeof(int16_t), "G1O"),
                             KerGroupArg("Xin", O_IN, Steps * DimIn, sizeof(int16_t), "Xin"),
                             KerGroupArg("Weights", O_IN, DimState * (DimState + DimIn), sizeof(int16_t), "Weights"),
                             KerGroupArg("Hout", O_OUT, Steps * DimState, sizeof(int16_t), "Hout")));
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
    RecurrenceGenerator("Recurrence", 5, 24, 8, O_IN, O_OUT, 0, 0);
    RecurrenceGenerator("RecurrenceReversed", 5, 24, 8, O_IN, O_OUT, 1, 0);
    RecurrenceGenerator("RecurrenceDynamic", 5, 24, 8, O_IN, O_OUT, 0, 1);
    RecurrenceGenerator("RecurrenceDynamicReversed", 5, 24, 8, O_IN, O_OUT, 1, 1);
    RecurrenceSplitGenerator("RecurrenceSplit", 5, 3, 24, 8);
    GenerateTilingCode();
    return 0;
}
