/* CNN layers written the way GreenWaves' CNN generator libraries write theirs: basic kernels are
 * described with CNN_Match() and a layer asks CNN_FindMatchingKernel() for its kernels; argument
 * lists are filled one by one (AllocateCArgs, AllocateKerArgs); the convolution's input is a KerArgP;
 * features are parametric spaces (IterParSpace) whose tiles the kernels take with K_ArgPar; biases
 * vary along the output features only (KerArgSpace(1, D1)); the calls sit before, in and after the
 * input-feature loop (LOC_D0_PROLOG, LOC_D0, LOC_D0_EPILOG). The linear layer keeps its input whole
 * in L1 while its filters are tiled (OBJ_BUFFER_IN), and its partial sums restart at tile 0
 * (Ker_IteratorIndex, or the first-tile predicate K_ArgPred). "Same" convolutions pad their input
 * in the kernel, told the padding of each tile by KER_ARG_TILE_PAD (a padded KerArgP); windows that
 * stop short of the last columns and lines tell their kernels the used part (KER_ARG_TILE_USEDW /
 * _USEDH); poolings padded on odd sizes pad their input buffer, over which the convolution's
 * input is tiled as well. Two convolutions are tiled both ways
 * and the cheaper kept, as GreenWaves' SQ8 generators choose (CopyAndPopUserKernel, Cost->TileOverhead,
 * PushBackUserKernel, ReleaseUserKerne). A grouped convolution runs one group's layer in a kernel
 * group iterated once per group (UserKernelGroupK, KerGroupArg, BindKGExpr, KerDynamicSymbols). HWC
 * layers (features side by side in each pixel) are declared as GreenWaves' HWC generators declare
 * theirs: a SPACE_PROP_ONE_TILE space, features listed after the tiles, CALL_HWC_KER kernels. */
#include <stdint.h>
#include <stdio.h>

#include "AutoTilerLib.h"

static void LoadCnnLibrary(void)
{
    LibKernelTemplate("KerSetBias_fp_T",
                      CArgs(5, TCArg("short int * __restrict__", "Out"), TCArg("unsigned short int", "W"),
                            TCArg("unsigned short int", "H"), TCArg("unsigned short int", "OutFeatures"),
                            TCArg("short int * __restrict__", "Bias")));
    LibKernelTemplate("KerConv_fp_T",
                      CArgs(14, TCArg("short int * __restrict__", "In"), TCArg("unsigned short int", "W"),
                            TCArg("unsigned short int", "UsedW"), TCArg("unsigned short int", "H"),
                            TCArg("unsigned short int", "UsedH"), TCArg("unsigned short int", "InFeatures"),
                            TCArg("unsigned short int", "OutFeatures"), TCArg("unsigned short int", "TotalInFeatures"),
                            TCArg("short int * __restrict__", "Filter"), TCArg("short int * __restrict__", "Out"),
                            TCArg("unsigned char", "Norm"), TCArg("v4s", "Pad"), TCArg("unsigned char", "N"),
                            TCArg("unsigned char", "S")));
    LibKernelTemplate("KerPool_fp_T",
                      CArgs(9, TCArg("short int * __restrict__", "In"), TCArg("unsigned short int", "W"),
                            TCArg("unsigned short int", "UsedW"), TCArg("unsigned short int", "H"),
                            TCArg("unsigned short int", "UsedH"), TCArg("unsigned short int", "OutFeatures"),
                            TCArg("short int * __restrict__", "Out"), TCArg("v4s", "Pad"), TCArg("unsigned char", "Oper")));

    LibKernel("KerParSetBias_fp", CALL_PARALLEL, 0, "KerSetBias_fp_T",
              CNN_Match(CNN_OperList(1, KOP_SETBIAS), 0, 1, CNN_Type(2, 0, 0, 0, 2), 0, 0, 0, 0, 0, 0));
    /* The general convolution first: the 5x5 one is chosen for its filter anyway. */
    LibKernel("KerParConvNxNStrideS_fp", CALL_PARALLEL, 0, "KerConv_fp_T",
              CNN_Match(CNN_OperList(1, KOP_CONV), 0, 1, CNN_Type(2, 2, 0, 0, 2), -1, -2, 1, 1, -1, -2));
    LibKernel("KerParConv5x5Stride1_fp", CALL_PARALLEL, 0, "KerConv_fp_T",
              CNN_Match(CNN_OperList(1, KOP_CONV), 0, 1, CNN_Type(2, 2, 0, 0, 2), 5, 5, 1, 1, 1, 1));
    LibKernel("KerParPool2x2Stride2_fp", CALL_PARALLEL, 0, "KerPool_fp_T",
              CNN_Match(CNN_OperList(2, KOP_MAXPOOL, KOP_AVGPOOL), CNN_OperList(2, KOP_RELU, KOP_NONE), 1,
                        CNN_Type(2, 0, 0, 0, 2), 2, 2, 1, 1, 2, 2));
    LibKernel("KerParLinearPartial_fp", CALL_PARALLEL,
              CArgs(5, TCArg("short int * __restrict__", "In"), TCArg("short int * __restrict__", "Filter"),
                    TCArg("int * __restrict__", "Reduct"), TCArg("unsigned short int", "InSize"),
                    TCArg("unsigned short int", "TileIndex")),
              "KerLinearPartial_fp_T", CNN_Match(CNN_OperList(1, KOP_LINEAR), 0, 0, CNN_Type(2, 2, 0, 0, 4), 0, 0, 0, 0, 0, 0));
    /* Called by name (no CNN_Match): the linear layer told its first tile by a predicate. */
    LibKernel("KerParLinearPartialFirst_fp", CALL_PARALLEL,
              CArgs(5, TCArg("short int * __restrict__", "In"), TCArg("short int * __restrict__", "Filter"),
                    TCArg("int * __restrict__", "Reduct"), TCArg("unsigned short int", "InSize"),
                    TCArg("unsigned char", "FirstTile")),
              "KerLinearPartialFirst_fp_T");
    LibKernel("KerParLinearReduct_fp", CALL_PARALLEL,
              CArgs(5, TCArg("int * __restrict__", "Reduct"), TCArg("short int * __restrict__", "Bias"),
                    TCArg("short int * __restrict__", "Out"), TCArg("unsigned char", "Norm"),
                    TCArg("unsigned char", "ReLU")),
              "KerLinearReduct_fp_T",
              CNN_Match(CNN_OperList(1, KOP_DP_REDUCT_LINEAR), CNN_OperList(2, KOP_RELU, KOP_NONE), 0,
                        CNN_Type(4, 0, 2, 0, 2), 0, 0, 0, 0, 0, 0));

    /* HWC kernels, found by their call type's CALL_HWC_KER (CNN_FindMatchingKernelAttr). */
    LibKernel("KerParConvNxNStride1_HWC_fp", CALL_PARALLEL | CALL_HWC_KER,
              CArgs(11, TCArg("short int * __restrict__", "In"), TCArg("unsigned short int", "W"),
                    TCArg("unsigned short int", "H"), TCArg("v4s", "Pad"), TCArg("unsigned short int", "InFeatures"),
                    TCArg("unsigned short int", "OutFeatures"), TCArg("short int * __restrict__", "Filter"),
                    TCArg("short int * __restrict__", "Bias"), TCArg("short int * __restrict__", "Out"),
                    TCArg("unsigned char", "Norm"), TCArg("unsigned char", "N")),
              "KerConv_HWC_fp_T", CNN_Match(CNN_OperList(1, KOP_CONV), 0, 1, CNN_Type(2, 2, 2, 0, 2), -1, -1, 1, 1, 1, 1));
    LibKernel("KerParReLU_HWC_fp", CALL_PARALLEL | CALL_HWC_KER,
              CArgs(4, TCArg("short int * __restrict__", "InOut"), TCArg("unsigned short int", "W"),
                    TCArg("unsigned short int", "H"), TCArg("unsigned short int", "Features")),
              "KerReLU_HWC_fp_T", CNN_Match(CNN_OperList(1, KOP_RELU), 0, 1, CNN_Type(2, 0, 0, 0, 2), 0, 0, 0, 0, 0, 0));
    LibKernel("KerParMaxPool2x2Stride2_HWC_fp", CALL_PARALLEL | CALL_HWC_KER,
              CArgs(5, TCArg("short int * __restrict__", "In"), TCArg("unsigned short int", "W"),
                    TCArg("unsigned short int", "H"), TCArg("unsigned short int", "Features"),
                    TCArg("short int * __restrict__", "Out")),
              "KerPool_HWC_fp_T", CNN_Match(CNN_OperList(1, KOP_MAXPOOL), 0, 1, CNN_Type(2, 0, 0, 0, 2), 2, 2, 1, 1, 2, 2));
}

/* Convolution (Fc x Fc at stride Sc, Pad zero lines and columns around its input) of InFeat planes of
 * W x H into OutFeat planes, then an optional 2 x 2 max pooling (through an L1 buffer of one tile),
 * "same" padded on odd sizes when PoolPad (a line above, a column left, as GreenWaves' balanced-left
 * padding), and ReLU. */
static Kernel_T *ConvolutionPool(char *Name, int InFeat, int OutFeat, int W, int H, int Fc, int Sc,
                                 KernelOper_T PoolOper, KernelOper_T ReLUOper, int Norm, Tile_Orientation_T Orientation,
                                 int Pad, int PoolPad)
{
    int NeedFx, NeedFy, NeedDx, NeedDy, NeedSx, NeedSy;
    char *SetBiasKernel = CNN_FindMatchingKernel(KOP_SETBIAS, KOP_NONE, 1, 2, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                                 0, 0, 0);
    char *ConvKernel = CNN_FindMatchingKernel(KOP_CONV, KOP_NONE, 1, 2, 2, 0, 0, 2, Fc, Fc, 1, 1, Sc, Sc, &NeedFx,
                                              &NeedFy, &NeedDx, &NeedDy, &NeedSx, &NeedSy, 0);
    char *PoolKernel = PoolOper == KOP_NONE ? 0
                                            : CNN_FindMatchingKernel(PoolOper, ReLUOper, 1, 2, 0, 0, 0, 2, 2, 2, 1, 1, 2,
                                                                     2, 0, 0, 0, 0, 0, 0, 0);
    if (SetBiasKernel == 0 || ConvKernel == 0 || (PoolOper != KOP_NONE && PoolKernel == 0)) {
        printf("%s: no basic kernel matches\n", Name);
        return 0;
    }
    const int Pool = PoolOper != KOP_NONE;
    const int ConvW = (W + 2 * Pad - Fc) / Sc + 1, ConvH = (H + 2 * Pad - Fc) / Sc + 1;
    const int PoolPadW = Pool && PoolPad ? ConvW % 2 : 0, PoolPadH = Pool && PoolPad ? ConvH % 2 : 0;
    const int Wo = Pool ? (ConvW + PoolPadW) / 2 : ConvW, Ho = Pool ? (ConvH + PoolPadH) / 2 : ConvH;
    /* What the layer reads, as GreenWaves' generators find it: the pooling's input stops at its last
     * window (Wc x Hc, the ConvOut buffer), the convolution's at the last window of that; the padding
     * right and below less the columns and lines so left unused. */
    const int Wc = Pool ? 2 * Wo - PoolPadW : Wo, Hc = Pool ? 2 * Ho - PoolPadH : Ho;
    const int PadR = Pad - (W - ((Wc - 1) * Sc + Fc - 2 * Pad)) > 0 ? Pad - (W - ((Wc - 1) * Sc + Fc - 2 * Pad)) : 0;
    const int PadB = Pad - (H - ((Hc - 1) * Sc + Fc - 2 * Pad)) > 0 ? Pad - (H - ((Hc - 1) * Sc + Fc - 2 * Pad)) : 0;
    const int UsedW = (Wc - 1) * Sc + Fc - Pad - PadR, UsedH = (Hc - 1) * Sc + Fc - Pad - PadB;
    const char *ConvOut = PoolOper == KOP_NONE ? "Out" : "ConvOut";
    /* Zero lines and columns around the input, which the convolution kernel skips itself; its tiles are
     * placed over the lines the pooling pads in its input too (the convolution's outputs it does not
     * compute), as GreenWaves' generators place them. */
    const v4s InPad = (v4s) {Pad, PadR, Pad, PadB};
    const v4s InTilePad = (v4s) {PoolPadW * Sc + Pad, PadR, PoolPadH * Sc + Pad, PadB};
    const v4s PoolInPad = (v4s) {PoolPadW, 0, PoolPadH, 0};

    CKernel_Arg_T **KCArgs = AllocateCArgs(4);
    int Ca = 0;
    KCArgs[Ca++] = TCArg(CNN_ArgDataType(2, 1, 1), "In");
    KCArgs[Ca++] = TCArg(CNN_ArgDataType(2, 1, 1), "Filter");
    KCArgs[Ca++] = TCArg(CNN_ArgDataType(2, 1, 1), "Bias");
    KCArgs[Ca++] = TCArg(CNN_ArgDataType(2, 1, 1), "Out");

    Object_T **KArgs = AllocateKerArgs(PoolOper == KOP_NONE ? 4 : 5);
    int Ka = 0;
    KArgs[Ka++] = KerArgP("In", KerArgSpace(2, KER_ITER_D0, KER_ITER_TILE0), O_IN | O_DB, W, H, UsedW, UsedH, InTilePad, InPad, 2,
                          Fc - Sc, 0, 0, "In");
    KArgs[Ka++] = KerArg("Bias", KerArgSpace(1, KER_ITER_D1), O_IN | O_DB | O_CONST, 1, 1, 2, 0, 0, 0, "Bias");
    KArgs[Ka++] = KerArg("Filter", KerArgSpace(2, KER_ITER_D1, KER_ITER_D0), O_IN | O_DB | O_CONST, 1, 1, Fc * Fc * 2, 0,
                         0, 0, "Filter");
    KArgs[Ka++] = KerArg("Out", KerArgSpace(2, KER_ITER_D1, KER_ITER_TILE0), O_OUT | O_DB, Wo, Ho, 2, 0, 0, 0, "Out");
    if (PoolOper != KOP_NONE)
        KArgs[Ka++] = KerArgP("ConvOut", KerArgSpace(2, KER_ITER_D1, KER_ITER_TILE0), O_BUFF | O_ONETILE, Wc, Hc, Wc,
                              Hc, PoolInPad, PoolInPad, 2, 0, 0, 0, "");

    Kernel_T *Kernel = UserKernel(Name,
        KernelIterSpace(3, IterParSpace(KER_ITER_D1, OutFeat, 8), IterTiledSpace(KER_ITER_TILE0),
                        IterParSpace(KER_ITER_D0, InFeat, 1)),
        Orientation, KCArgs,
        Calls(3,
              Call(SetBiasKernel, LOC_D0_PROLOG,
                   Bindings(5, K_Arg(ConvOut, KER_ARG_TILE), K_Arg(ConvOut, KER_ARG_TILE_W),
                            K_Arg(ConvOut, KER_ARG_TILE_H), K_ArgPar(ConvOut, KER_ARG_PARTILE_SIZE, KER_ITER_D1),
                            K_Arg("Bias", KER_ARG_TILE))),
              Call(ConvKernel, LOC_D0,
                   Bindings(14, K_Arg("In", KER_ARG_TILE), K_Arg("In", KER_ARG_TILE_W), K_Arg("In", KER_ARG_TILE_USEDW),
                            K_Arg("In", KER_ARG_TILE_H), K_Arg("In", KER_ARG_TILE_USEDH),
                            K_ArgPar("Filter", KER_ARG_PARTILE_SIZE, KER_ITER_D0),
                            K_ArgPar(ConvOut, KER_ARG_PARTILE_SIZE, KER_ITER_D1),
                            K_ArgPar("Filter", KER_ARG_LOADEDPARTILE_SIZE, KER_ITER_D0), K_Arg("Filter", KER_ARG_TILE),
                            K_Arg(ConvOut, KER_ARG_TILE), Imm(Norm), K_Arg("In", KER_ARG_TILE_PAD),
                            NeedFx ? Imm(Fc) : AT_IGNORE_ARG_BINDING, NeedSx ? Imm(Sc) : AT_IGNORE_ARG_BINDING)),
              PoolOper == KOP_NONE
                  ? AT_NO_CALL
                  : Call(PoolKernel, LOC_D0_EPILOG,
                         Bindings(9, K_Arg("ConvOut", KER_ARG_TILE), K_Arg("ConvOut", KER_ARG_TILE_W),
                                  K_Arg("ConvOut", KER_ARG_TILE_USEDW), K_Arg("ConvOut", KER_ARG_TILE_H),
                                  K_Arg("ConvOut", KER_ARG_TILE_USEDH),
                                  K_ArgPar("ConvOut", KER_ARG_PARTILE_SIZE, KER_ITER_D1), K_Arg("Out", KER_ARG_TILE),
                                  K_Arg("ConvOut", KER_ARG_TILE_PAD),
                                  Imm((PoolOper == KOP_AVGPOOL ? 1 : 0) | (ReLUOper == KOP_RELU ? 2 : 0))))),
        KArgs);
    if (Kernel) {
        AddKernelArgDim(Name, "In", 4, InFeat, H, W, 2);
        AddKernelArgDim(Name, "Filter", 5, OutFeat, InFeat, Fc, Fc, 2);
        AddKernelArgDim(Name, "Bias", 2, OutFeat, 2);
        AddKernelArgDim(Name, "Out", 4, OutFeat, Ho, Wo, 2);
    }
    return Kernel;
}

/* The layer tiled both ways, the cheaper kept, as GreenWaves' SQ8 generators choose: horizontal
 * tiles unless vertical ones cost less than 0.9 times as much. */
static void ConvolutionPoolCheaper(char *Name, int InFeat, int OutFeat, int W, int H, int Fc, int Sc,
                                   KernelOper_T PoolOper, KernelOper_T ReLUOper, int Norm)
{
    Kernel_T *Ker, *Sol1 = 0, *Sol2 = 0;
    AT_SetKernelCtrl(AT_KERNEL_NOSOLUTION_ERROR, AT_OPT_OFF);
    Ker = ConvolutionPool(Name, InFeat, OutFeat, W, H, Fc, Sc, PoolOper, ReLUOper, Norm, TILE_HOR, 0, 0);
    if (Ker) Sol1 = CopyAndPopUserKernel(Ker);
    Ker = ConvolutionPool(Name, InFeat, OutFeat, W, H, Fc, Sc, PoolOper, ReLUOper, Norm, TILE_VER, 0, 0);
    if (Ker) Sol2 = CopyAndPopUserKernel(Ker);
    if (Sol1 && Sol2) {
        int TakeSol1 = 0.9f * Sol1->Cost->TileOverhead < Sol2->Cost->TileOverhead;
        printf("%s: horizontal %.3f, vertical %.3f: %s\n", Name, Sol1->Cost->TileOverhead,
               Sol2->Cost->TileOverhead, TakeSol1 ? "horizontal" : "vertical");
        PushBackUserKernel(TakeSol1 ? Sol1 : Sol2);
        ReleaseUserKerne(TakeSol1 ? Sol2 : Sol1);
    } else if (Sol1 || Sol2) {
        PushBackUserKernel(Sol1 ? Sol1 : Sol2);
    }
    AT_SetKernelCtrl(AT_KERNEL_NOSOLUTION_ERROR, AT_OPT_ON);
    if (!Sol1 && !Sol2) /* neither tiles: declared once more, reported with the model's other kernels */
        ConvolutionPool(Name, InFeat, OutFeat, W, H, Fc, Sc, PoolOper, ReLUOper, Norm, TILE_HOR, 0, 0);
}

/* A 2 x 2 max pooling (and ReLU) of Feat planes of W x H alone, its features a parametric space the
 * solver runs in chunks (the kernel told each chunk's features, K_ArgPar), as GreenWaves' CNN_PoolAct
 * generators declare it. */
/* A grouped convolution as GreenWaves' grouped generators write it: one group's layer declared in a
 * kernel group that runs once per group, its calls' arguments moved group by group (BindKGExpr over
 * KerDynamicSymbols), the KerGroupArgs giving one group's sizes. */
static void GroupedConvolution(char *Name, int Groups, int GroupIn, int GroupOut, int W, int H, int Fc, int Norm)
{
    char *BodyName = AppendNames(Name, "Body");
    const int Wo = W - Fc + 1, Ho = H - Fc + 1;
    OpenKernelGroup(Name);
    /* The body tiled both ways and the cheaper kept, inside the open group, as the SDK's do. */
    ConvolutionPoolCheaper(BodyName, GroupIn, GroupOut, W, H, Fc, 1, KOP_NONE, KOP_NONE, Norm);
    CloseKernelGroup();

    CKernel_Arg_T **KCArgs = AllocateCArgs(4);
    KCArgs[0] = TCArg(CNN_ArgDataType(2, 1, 1), "In");
    KCArgs[1] = TCArg(CNN_ArgDataType(2, 1, 1), "Filter");
    KCArgs[2] = TCArg(CNN_ArgDataType(2, 1, 1), "Bias");
    KCArgs[3] = TCArg(CNN_ArgDataType(2, 1, 1), "Out");
    Object_T **KArgs = AllocateKerArgs(4);
    KArgs[0] = KerGroupArg("In", O_IN, GroupIn * W * H, 2, "In");
    KArgs[1] = KerGroupArg("Filter", O_IN, GroupIn * GroupOut * Fc * Fc, 2, "Filter");
    KArgs[2] = KerGroupArg("Bias", O_IN, GroupOut, 2, "Bias");
    KArgs[3] = KerGroupArg("Out", O_OUT, GroupOut * Wo * Ho, 2, "Out");
    KerDynamicSymbols(7, US_Int("GroupIn", GroupIn), US_Int("GroupOut", GroupOut), US_Int("Width", W),
                      US_Int("Height", H), US_Int("Wo", Wo), US_Int("Ho", Ho), US_Int("Fc", Fc));
    UserKernelGroupK(Name, Groups, KCArgs, 0,
                     Calls(1, UserKernelCall(BodyName, LOC_GROUP,
                                             Bindings(4, BindKGExpr("KArg(In, Name) + GroupIn*Width*Height * KArg(In, TileIndex)"),
                                                      BindKGExpr("KArg(Filter, Name) + GroupIn*GroupOut*Fc*Fc * KArg(Filter, TileIndex)"),
                                                      BindKGExpr("KArg(Bias, Name) + GroupOut * KArg(Bias, TileIndex)"),
                                                      BindKGExpr("KArg(Out, Name) + GroupOut*Wo*Ho * KArg(Out, TileIndex)")))),
                     KArgs);
}

static void Pool2x2(char *Name, int Feat, int W, int H, int PoolPad, KernelArgConstraints_T InConstraint)
{
    /* "Same" on odd sizes: a zero column left and a zero line above, which the kernel pads itself. */
    const v4s Pad = (v4s) {PoolPad ? W % 2 : 0, 0, PoolPad ? H % 2 : 0, 0};
    const int Wo = (W + Pad[0]) / 2, Ho = (H + Pad[2]) / 2;
    char *PoolKernel = CNN_FindMatchingKernel(KOP_MAXPOOL, KOP_RELU, 1, 2, 0, 0, 0, 2, 2, 2, 1, 1, 2, 2, 0, 0, 0, 0, 0,
                                              0, 0);
    if (PoolKernel == 0) {
        printf("%s: no basic kernel matches\n", Name);
        return;
    }
    UserKernel(Name,
        KernelIterSpace(2, IterParSpace(KER_ITER_D0, Feat, 8), IterTiledSpace(KER_ITER_TILE0)),
        TILE_HOR,
        CArgs(2, TCArg(CNN_ArgDataType(2, 1, 1), "In"), TCArg(CNN_ArgDataType(2, 1, 1), "Out")),
        Calls(1, Call(PoolKernel, LOC_LOOP,
                      Bindings(9, K_Arg("In", KER_ARG_TILE), K_Arg("In", KER_ARG_TILE_W), K_Arg("In", KER_ARG_TILE_USEDW),
                               K_Arg("In", KER_ARG_TILE_H), K_Arg("In", KER_ARG_TILE_USEDH),
                               K_ArgPar("In", KER_ARG_PARTILE_SIZE, KER_ITER_D0), K_Arg("Out", KER_ARG_TILE),
                               K_Arg("In", KER_ARG_TILE_PAD), Imm(2)))),
        KerArgs(2,
                KerArgP("In", KerArgSpace(2, KER_ITER_D0, KER_ITER_TILE0), O_IN | O_DB, W, H, W, H, Pad, Pad, 2, 0,
                        InConstraint, 0, "In"),
                KerArg("Out", KerArgSpace(2, KER_ITER_D0, KER_ITER_TILE0), O_OUT | O_DB, Wo, Ho, 2, 0, 0, 0, "Out")));
}

/* A "same" Fc x Fc convolution at stride 1 and ReLU in HWC order (H lines of W pixels of the features
 * side by side), declared as GreenWaves' HWC matrix-multiply convolutions declare theirs: the input
 * features a SPACE_PROP_ONE_TILE space (all of them in every tile), the output features a parametric
 * space listed after the tiles in the output's KerArgSpace, filters [OutFeat][Fy][Fx][InFeat], the
 * convolution in the input features' loop and the ReLU after it (LOC_D0, LOC_D0_EPILOG). */
static void ConvolutionHwc(char *Name, int InFeat, int OutFeat, int W, int H, int Fc, int Norm)
{
    int NeedFx, NeedFy;
    char *ConvKernel = CNN_FindMatchingKernelAttr(KOP_CONV, KOP_NONE, 1, CALL_HWC_KER, 2, 2, 2, 0, 2, Fc, Fc, 1, 1, 1, 1,
                                                  &NeedFx, &NeedFy, 0, 0, 0, 0, 0);
    char *ReLUKernel = CNN_FindMatchingKernelAttr(KOP_RELU, KOP_NONE, 1, CALL_HWC_KER, 2, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0,
                                                  0, 0, 0, 0, 0, 0, 0);
    if (ConvKernel == 0 || ReLUKernel == 0) {
        printf("%s: no HWC basic kernel matches\n", Name);
        return;
    }
    const int Pad = Fc / 2;
    const v4s InPad = (v4s) {Pad, Pad, Pad, Pad};
    UserKernel(Name,
        KernelIterSpace(3, IterParSpace(KER_ITER_D1, OutFeat, 8), IterTiledSpace(KER_ITER_TILE0),
                        IterParSpace(KER_ITER_D0 | SPACE_PROP_ONE_TILE, InFeat, InFeat)),
        TILE_HOR,
        CArgs(4, TCArg(CNN_ArgDataType(2, 1, 1), "In"), TCArg(CNN_ArgDataType(2, 1, 1), "Filter"),
              TCArg(CNN_ArgDataType(2, 1, 1), "Bias"), TCArg(CNN_ArgDataType(2, 1, 1), "Out")),
        Calls(2,
              Call(ConvKernel, LOC_D0,
                   Bindings(11, K_Arg("In", KER_ARG_TILE), K_Arg("In", KER_ARG_TILE_W), K_Arg("In", KER_ARG_TILE_H),
                            K_Arg("In", KER_ARG_TILE_PAD), Imm(InFeat), K_ArgPar("Out", KER_ARG_PARTILE_SIZE, KER_ITER_D1),
                            K_Arg("Filter", KER_ARG_TILE), K_Arg("Bias", KER_ARG_TILE), K_Arg("Out", KER_ARG_TILE),
                            Imm(Norm), NeedFx ? Imm(Fc) : AT_IGNORE_ARG_BINDING)),
              Call(ReLUKernel, LOC_D0_EPILOG,
                   Bindings(4, K_Arg("Out", KER_ARG_TILE), K_Arg("Out", KER_ARG_TILE_W), K_Arg("Out", KER_ARG_TILE_H),
                            K_ArgPar("Out", KER_ARG_PARTILE_SIZE, KER_ITER_D1)))),
        KerArgs(4,
                KerArgP("In", KerArgSpace(2, KER_ITER_TILE0, KER_ITER_D0), O_IN | O_DB, W, H, W, H, InPad, InPad, 2,
                        Fc - 1, 0, 0, "In"),
                KerArg("Bias", KerArgSpace(1, KER_ITER_D1), O_IN | O_DB | O_CONST, 1, 1, 2, 0, 0, 0, "Bias"),
                KerArg("Filter", KerArgSpace(2, KER_ITER_D1, KER_ITER_D0), O_IN | O_DB | O_CONST, Fc, Fc, 2, 0, 0, 0,
                       "Filter"),
                KerArg("Out", KerArgSpace(2, KER_ITER_TILE0, KER_ITER_D1), O_OUT | O_DB, W, H, 2, 0, 0, 0, "Out")));
    AddKernelArgDim(Name, "In", 4, H, W, InFeat, 2);
    AddKernelArgDim(Name, "Filter", 5, OutFeat, Fc, Fc, InFeat, 2);
    AddKernelArgDim(Name, "Out", 4, H, W, OutFeat, 2);
}

/* A 2 x 2 max pooling in HWC order, its features a parametric space after the tiles (run whole). */
static void Pool2x2Hwc(char *Name, int Feat, int W, int H)
{
    char *PoolKernel = CNN_FindMatchingKernelAttr(KOP_MAXPOOL, KOP_NONE, 1, CALL_HWC_KER, 2, 0, 0, 0, 2, 2, 2, 1, 1, 2, 2,
                                                  0, 0, 0, 0, 0, 0, 0);
    if (PoolKernel == 0) {
        printf("%s: no HWC basic kernel matches\n", Name);
        return;
    }
    UserKernel(Name,
        KernelIterSpace(2, IterParSpace(KER_ITER_D0, Feat, 8), IterTiledSpace(KER_ITER_TILE0)),
        TILE_HOR,
        CArgs(2, TCArg(CNN_ArgDataType(2, 1, 1), "In"), TCArg(CNN_ArgDataType(2, 1, 1), "Out")),
        Calls(1, Call(PoolKernel, LOC_LOOP,
                      Bindings(5, K_Arg("In", KER_ARG_TILE), K_Arg("In", KER_ARG_TILE_W), K_Arg("In", KER_ARG_TILE_H),
                               K_ArgPar("In", KER_ARG_PARTILE_SIZE, KER_ITER_D0), K_Arg("Out", KER_ARG_TILE)))),
        KerArgs(2,
                KerArg("In", KerArgSpace(2, KER_ITER_TILE0, KER_ITER_D0), O_IN | O_DB, W, H, 2, 0, OBJ_CONSTRAINTS_EVEN, 0,
                       "In"),
                KerArg("Out", KerArgSpace(2, KER_ITER_TILE0, KER_ITER_D0), O_OUT | O_DB, W / 2, H / 2, 2, 0, 0, 0, "Out")));
}

/* OutDim outputs from InDim inputs: the input whole in L1, the filters tiled along it. */
static void Linear(char *Name, int InDim, int OutDim, KernelOper_T ReLUOper, int Norm, int FirstTilePredicate)
{
    char *PartialKernel = FirstTilePredicate ? "KerParLinearPartialFirst_fp"
                                             : CNN_FindMatchingKernel(KOP_LINEAR, KOP_NONE, 0, 2, 2, 0, 0, 4, 0, 0, 0, 0,
                                                                      0, 0, 0, 0, 0, 0, 0, 0, 0);
    char *ReductKernel = CNN_FindMatchingKernel(KOP_DP_REDUCT_LINEAR, ReLUOper, 0, 4, 0, 2, 0, 2, 0, 0, 0, 0, 0, 0, 0,
                                                0, 0, 0, 0, 0, 0);
    if (PartialKernel == 0 || ReductKernel == 0) {
        printf("%s: no basic kernel matches\n", Name);
        return;
    }
    UserKernel(Name,
        KernelIterSpace(2, IterFixedSpace(KER_ITER_D0, OutDim), IterTiledSpace(KER_ITER_TILE0)),
        TILE_HOR,
        CArgs(4, TCArg(CNN_ArgDataType(2, 1, 1), "In"), TCArg(CNN_ArgDataType(2, 1, 1), "Filter"),
              TCArg(CNN_ArgDataType(2, 1, 1), "Bias"), TCArg(CNN_ArgDataType(2, 1, 1), "Out")),
        Calls(2,
              Call(PartialKernel, LOC_LOOP,
                   Bindings(5, K_Arg("In", KER_ARG_TILE), K_Arg("Filter", KER_ARG_TILE), K_Arg("Reduct", KER_ARG_TILE),
                            K_Arg("Filter", KER_ARG_TILE_H),
                            FirstTilePredicate ? K_ArgPred("Filter", KER_ARG_TILEFIRST, KER_ITER_TILE0)
                                               : Ker_IteratorIndex(KER_ITER_TILE0))),
              Call(ReductKernel, LOC_LOOP_EPILOG,
                   Bindings(5, K_Arg("Reduct", KER_ARG_TILE), K_Arg("Bias", KER_ARG_TILE), K_Arg("Out", KER_ARG_TILE),
                            Imm(Norm), Imm(ReLUOper == KOP_RELU)))),
        KerArgs(5,
                KerArg("In", KerArgSpace(1, KER_ITER_TILE0), OBJ_BUFFER_IN, 1, InDim, 2, 0, 0, 0, "In"),
                KerArg("Filter", KerArgSpace(2, KER_ITER_D0, KER_ITER_TILE0), OBJ_IN_DB | O_CONST, 1, InDim, 2, 0, 0, 0,
                       "Filter"),
                KerArg("Bias", KerArgSpace(1, KER_ITER_D0), OBJ_BUFFER_IN | O_CONST, 1, 1, 2, 0, 0, 0, "Bias"),
                KerArg("Out", KerArgSpace(1, KER_ITER_D0), OBJ_BUFFER_OUT, 1, 1, 2, 0, 0, 0, "Out"),
                KerArg("Reduct", KerArgSpace(1, KER_ITER_TILE0), O_BUFF | O_NTILED, 1, 1, 4, 0, 0, 0, 0)));
}

int main(int argc, char **argv)
{
    if (TilerParseOptions(argc, argv)) {
        printf("Failed to initialize or incorrect arguments.\n");
        return 1;
    }
    SetUsedFilesNames(0, 1, "CnnLibraryBasicKernels.h");
    SetGeneratedFilesNames("GenKernelsInit.c", "GenKernelsInit.h", "GenKernels.c", "GenKernels.h");
    SetSymbolDynamics();
    SetL1MemorySize(51200);
    LoadCnnLibrary();
    /* 2 planes of 36 x 28, 5x5 filters: 6 planes of 32 x 24, max pooled to 16 x 12, ReLU. */
    ConvolutionPool("ConvPool5x5", 2, 6, 36, 28, 5, 1, KOP_MAXPOOL, KOP_RELU, 10, TILE_HOR, 0, 0);
    /* 3 planes of 33 x 29, 3x3 filters at stride 2 (the general kernel): 4 planes of 16 x 14. */
    ConvolutionPool("Conv3x3Stride2", 3, 4, 33, 29, 3, 2, KOP_NONE, KOP_NONE, 9, TILE_HOR, 0, 0);
    /* "Same" convolutions: the input's padding told to the kernel per tile (a padded KerArgP). */
    ConvolutionPool("ConvSame3x3", 3, 4, 30, 22, 3, 1, KOP_NONE, KOP_NONE, 9, TILE_HOR, 1, 0);
    ConvolutionPool("ConvSamePool5x5", 2, 4, 28, 20, 5, 1, KOP_MAXPOOL, KOP_RELU, 10, TILE_HOR, 2, 0);
    /* Windows that stop short of the last columns and lines (the kernels told the used part): 3x3 at
     * stride 2 on 32 x 24 (15 x 11 from 31 x 23), 5x5 and pooling on 31 x 27 (13 x 11 from 30 x 26). */
    ConvolutionPool("Conv3x3Stride2Even", 3, 4, 32, 24, 3, 2, KOP_NONE, KOP_NONE, 9, TILE_HOR, 0, 0);
    ConvolutionPool("ConvPool5x5Odd", 2, 4, 31, 27, 5, 1, KOP_MAXPOOL, KOP_RELU, 10, TILE_HOR, 0, 0);
    /* A "same" one at stride 2 on even sizes: padded left and above only (16 x 12 from 32 x 24). */
    ConvolutionPool("ConvSame3x3Stride2", 3, 4, 32, 24, 3, 2, KOP_NONE, KOP_NONE, 9, TILE_HOR, 1, 0);
    /* Poolings padded on odd sizes: 3x3 "same" on 29 x 21, pooled to 15 x 11; 3x3 at stride 2 on 36 x 28
     * (17 x 13), pooled to 9 x 7, the pooling's padding alone placing the input's tiles. */
    ConvolutionPool("ConvSamePoolSame", 3, 4, 29, 21, 3, 1, KOP_MAXPOOL, KOP_RELU, 9, TILE_HOR, 1, 1);
    ConvolutionPool("ConvStride2PoolSame", 2, 4, 36, 28, 3, 2, KOP_MAXPOOL, KOP_NONE, 9, TILE_HOR, 0, 1);
    /* 21 output features, run in chunks of output features (the last one smaller: 8 + 8 + 5, or 2 at a
     * time and 1 at the smallest budget), and poolings of 21 features in chunks of input features, the
     * second "same" on odd sizes (its input padded by the kernel, the chunks holding home lines only). */
    ConvolutionPool("Conv3x3Out21", 2, 21, 22, 14, 3, 1, KOP_NONE, KOP_NONE, 9, TILE_HOR, 0, 0);
    Pool2x2("Pool2x2Feat21", 21, 24, 16, 0, OBJ_CONSTRAINTS_NONE);
    Pool2x2("Pool2x2SameFeat21", 21, 23, 15, 1, OBJ_CONSTRAINTS_NONE);
    /* A "valid" pooling on an odd height whose input's last line is never moved (OBJ_CONSTRAINTS_DROP_REM):
     * a chunk of one tile is then not one run of the planes. */
    Pool2x2("Pool2x2DropFeat21", 21, 24, 15, 0, OBJ_CONSTRAINTS_DROP_REM);
    /* The same convolution with its filters and output homed in L3: chunks of output features staged
     * through L2 (the filters' a row of input features apart). */
    ConvolutionPool("Conv3x3Out21L3", 2, 21, 22, 14, 3, 1, KOP_NONE, KOP_NONE, 9, TILE_HOR, 0, 0);
    SetKerArgInL3("Conv3x3Out21L3", "Filter");
    SetKerArgInL3("Conv3x3Out21L3", "Out");
    /* A wide and a tall layer, each tiled both ways and the cheaper kept. */
    ConvolutionPoolCheaper("ConvWideCheaper", 2, 4, 36, 16, 5, 1, KOP_MAXPOOL, KOP_NONE, 10);
    ConvolutionPoolCheaper("ConvTallCheaper", 2, 4, 16, 36, 5, 1, KOP_MAXPOOL, KOP_NONE, 10);
    /* 3 groups of 2 input and 4 output features on 20 x 14, 3x3 filters: 12 planes of 18 x 12. */
    GroupedConvolution("GroupedConv3x3", 3, 2, 4, 20, 14, 3, 9);
    /* HWC: 6 features of 40 x 30 into 10 ("same" 3x3, ReLU), and a pooling of 12 features of 36 x 26. */
    ConvolutionHwc("ConvHwc3x3", 6, 10, 40, 30, 3, 9);
    Pool2x2Hwc("Pool2x2Hwc", 12, 36, 26);
    /* The same convolution with its input and output homed in L3: chunks of output features gathered
     * pixel by pixel into L2 staging. */
    ConvolutionHwc("ConvHwc3x3L3", 6, 10, 40, 30, 3, 9);
    SetKerArgInL3("ConvHwc3x3L3", "In");
    SetKerArgInL3("ConvHwc3x3L3", "Out");
    /* 300 inputs to 10 outputs, ReLU; the same told its first tile by a predicate. */
    Linear("Linear300", 300, 10, KOP_RELU, 12, 0);
    Linear("Linear300First", 300, 10, KOP_RELU, 12, 1);
    GenerateTilingCode();
    return 0;
}
