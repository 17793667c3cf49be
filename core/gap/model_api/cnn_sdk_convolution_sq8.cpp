// CNN_ConvolutionPoolAct_SQ8 on the SDK's contract: the user kernel GreenWaves' generator declares
// for a CHW convolution (full or depthwise), optional pooling and activation, calling the basic
// kernels by the SDK's names and argument structures, which it finds with CNN_FindMatchingKernel as
// the SDK does. Arithmetic: docs/gap-fixed-point.md, "Convolution on the SDK's contract".
#include "CNN_Generators.h"

#include "cnn_generator_support.h"
#include "cnn_layers.h"
#include "gap/cnn_kernels/CNN_Infos_SQ8.h"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>

namespace {

// The filter shapes of the SDK's convolution kernels, as CNN_Match gives them: Fx, Fy, Dx, Dy, Sx,
// Sy, each a value the kernel is written for, -1 any (passed) or -2 the x one (passed).
struct KernelShape {
    const char* name;
    int fx, fy, dx, dy, sx, sy;
};

// Full convolutions (KerParConv<shape>_SQ8); the 1D one serves KOP_CONV1D.
constexpr KernelShape kConvShapes[] = {
    {"1x1Stride1", 1, 1, 1, 1, 1, 1},         {"1x1Stride2", 1, 1, 1, 1, 2, 2},
    {"1x1StrideS", 1, 1, 1, 1, -1, -2},       {"3x1Stride1x1", 3, 1, 1, 1, 1, 1},
    {"3x1Stride2x1", 3, 1, 1, 1, 2, 1},       {"1x3Stride1x1", 1, 3, 1, 1, 1, 1},
    {"1x3Stride1x2", 1, 3, 1, 1, 1, 2},       {"3x3Stride1", 3, 3, 1, 1, 1, 1},
    {"3x3Stride2", 3, 3, 1, 1, 2, 2},         {"3x3StrideS", 3, 3, 1, 1, -1, -2},
    {"4x1Stride1x1", 4, 1, 1, 1, 1, 1},       {"1x4Stride1x1", 1, 4, 1, 1, 1, 1},
    {"5x1Stride1x1", 5, 1, 1, 1, 1, 1},       {"5x1Stride2x1", 5, 1, 1, 1, 2, 1},
    {"1x5Stride1x1", 1, 5, 1, 1, 1, 1},       {"1x5Stride1x2", 1, 5, 1, 1, 1, 2},
    {"5x5Stride1", 5, 5, 1, 1, 1, 1},         {"5x5Stride2", 5, 5, 1, 1, 2, 2},
    {"5x5StrideS", 5, 5, 1, 1, -1, -2},       {"7x7StrideS", 7, 7, 1, 1, -1, -2},
    {"13x1Stride1x1", 13, 1, 1, 1, 1, 1},     {"Nx1StrideSxS1", -1, 1, 1, 1, -1, 1},
    {"NxNStrideS", -1, -2, 1, 1, -1, -2},     {"NxMStrideSxSy", -1, -1, 1, 1, -1, -1},
    {"NxMDxDyStrideSxSy", -1, -1, -1, -1, -1, -1}, {"3x3DxDyStrideSxSy", 3, 3, -1, -1, -1, -1},
    {"3x3DxDyStride1x1", 3, 3, -1, -1, 1, 1}, {"3x3D2x2Stride1x1", 3, 3, 2, 2, 1, 1},
    {"3x3D4x4Stride1x1", 3, 3, 4, 4, 1, 1},   {"3x3D8x8Stride1x1", 3, 3, 8, 8, 1, 1},
    {"3x3D2x1Stride1x1", 3, 3, 2, 1, 1, 1},   {"3x3D4x1Stride1x1", 3, 3, 4, 1, 1, 1},
    {"3x3D8x1Stride1x1", 3, 3, 8, 1, 1, 1},   {"3x3DxD2Stride1x1", 3, 3, -1, 2, 1, 1},
};

// Depthwise convolutions with their reduction (KerParConvDWRedAct<shape>B32[_act]_SQ8).
constexpr KernelShape kDepthwiseShapes[] = {
    {"1x1Stride1", 1, 1, 1, 1, 1, 1},   {"1x1Stride2", 1, 1, 1, 1, 2, 2},   {"1x1StrideS", 1, 1, 1, 1, -1, -2},
    {"3x1Stride1x1", 3, 1, 1, 1, 1, 1}, {"3x1Stride2x1", 3, 1, 1, 1, 2, 1}, {"1x3Stride1x1", 1, 3, 1, 1, 1, 1},
    {"1x3Stride1x2", 1, 3, 1, 1, 1, 2}, {"3x3Stride1", 3, 3, 1, 1, 1, 1},   {"3x3Stride2", 3, 3, 1, 1, 2, 2},
    {"3x3StrideS", 3, 3, 1, 1, -1, -2}, {"5x1Stride1x1", 5, 1, 1, 1, 1, 1}, {"5x1Stride2x1", 5, 1, 1, 1, 2, 1},
    {"1x5Stride1x1", 1, 5, 1, 1, 1, 1}, {"1x5Stride1x2", 1, 5, 1, 1, 1, 2}, {"5x5Stride1", 5, 5, 1, 1, 1, 1},
    {"5x5Stride2", 5, 5, 1, 1, 2, 2},   {"5x5StrideS", 5, 5, 1, 1, -1, -2}, {"7x7StrideS", 7, 7, 1, 1, -1, -2},
    {"NxNStrideS", -1, -2, 1, 1, -1, -2}, {"NxMStrideSxSy", -1, -1, 1, 1, -1, -1},
    {"NxMDxDyStrideSxSy", -1, -1, -1, -1, -1, -1},
};

// The activations a reduction performs (KerParReduct[IO]_CC<suffix>_SQ8), and the depthwise kernels'.
const std::pair<KernelOper_T, const char*> kReductActivations[] = {
    {KOP_NONE, ""},          {KOP_RELU, "_ReLU"},           {KOP_RELUN, "_ReLUN"},   {KOP_RELUM, "_ReLUM"},
    {KOP_RELUMN, "_ReLUMN"}, {KOP_HSIGMOID, "_HSigmoid"}, {KOP_HSWISH, "_HSwish"}, {KOP_LEAKYRELU, "_LeakyReLU"}};
const std::pair<KernelOper_T, const char*> kDepthwiseActivations[] = {
    {KOP_NONE, ""}, {KOP_RELU, "_ReLU"}, {KOP_RELUM, "_ReLUM"}, {KOP_RELUN, "_ReLUN"}};

KernelOper_T* activationList(KernelOper_T oper)
{
    return oper == KOP_NONE ? nullptr : CNN_OperList(1, oper);
}

CNN_LayerOp_T* shapeMatch(KernelOper_T oper, KernelOper_T* after, int* type, const KernelShape& s)
{
    return CNN_Match(CNN_OperList(1, oper), after, 1, type, s.fx, s.fy, s.dx, s.dy, s.sx, s.sy);
}

// The standalone activation kernels (CNN_Act_SQ8's) an activation the other kernels do not fuse runs in.
const char* standaloneActivationKernel(KernelOper_T oper)
{
    switch (oper) {
    case KOP_RELU: return "Ker_ReLU_SQ8";
    case KOP_RELUN: return "Ker_ReLUN_SQ8";
    case KOP_RELUM: return "Ker_ReLUM_SQ8";
    case KOP_RELUMN: return "Ker_ReLUMN_SQ8";
    case KOP_HSIGMOID: return "Ker_HSigmoid_SQ8";
    case KOP_HSWISH: return "Ker_HSwish_SQ8";
    case KOP_LEAKYRELU: return "Ker_LeakyReLU_SQ8";
    default: return nullptr;
    }
}

}  // namespace

namespace tessera::gap {

void loadSdkConvolutionKernels_SQ8()
{
    LibKernelTemplate("KerSetBias_SQ8_T",
                      CArgs(6, TCArg("int * __restrict__", "Out"), TCArg("unsigned short int", "W"),
                            TCArg("unsigned short int", "H"), TCArg("unsigned short int", "Feat"),
                            TCArg("void * __restrict__", "Bias"), TCArg("unsigned char", "NormBias")));
    const auto convolutionFields = [](const char* out) {
        return CArgs(20, TCArg("signed char * __restrict__", "In"), TCArg("unsigned short int", "W"),
                     TCArg("unsigned short int", "UsedW"), TCArg("unsigned short int", "H"),
                     TCArg("unsigned short int", "UsedH"), TCArg("unsigned short int", "InFeatures"),
                     TCArg("unsigned short int", "OutFeatures"), TCArg("unsigned short int", "TotalInFeatures"),
                     TCArg("signed char * __restrict__", "Filter"), TCArg("signed char * __restrict__", "Bias"),
                     TCArg(out, "Out"), TCArg("v4s", "Pad"), TCArg("unsigned char", "NormBias"),
                     TCArg("unsigned char", "Orientation"), TCArg("unsigned short", "N"), TCArg("unsigned char", "S"),
                     TCArg("unsigned char", "D"), TCArg("unsigned short", "Ny"), TCArg("unsigned char", "Sy"),
                     TCArg("unsigned char", "Dy"));
    };
    LibKernelTemplate("KerConv_SQ8_T", convolutionFields("int * __restrict__"));
    // The depthwise kernels' structure has the per-channel scales and the Infos between Bias and Out.
    LibKernelTemplate(
        "KerConvRedAct_SQ8_T",
        CArgs(23, TCArg("signed char * __restrict__", "In"), TCArg("unsigned short int", "W"),
              TCArg("unsigned short int", "UsedW"), TCArg("unsigned short int", "H"),
              TCArg("unsigned short int", "UsedH"), TCArg("unsigned short int", "InFeatures"),
              TCArg("unsigned short int", "OutFeatures"), TCArg("unsigned short int", "TotalInFeatures"),
              TCArg("signed char * __restrict__", "Filter"), TCArg("signed char * __restrict__", "Bias"),
              TCArg("signed char * __restrict__", "Scale"), TCArg("signed char * __restrict__", "ScaleN"),
              TCArg("signed char * __restrict__", "Infos"), TCArg("signed char * __restrict__", "Out"),
              TCArg("v4s", "Pad"), TCArg("unsigned char", "NormBias"), TCArg("unsigned char", "Orientation"),
              TCArg("unsigned short", "N"), TCArg("unsigned char", "S"), TCArg("unsigned char", "D"),
              TCArg("unsigned short", "Ny"), TCArg("unsigned char", "Sy"), TCArg("unsigned char", "Dy")));
    LibKernelTemplate("KerConvLinReduct_SQ8_T",
                      CArgs(8, TCArg("int * __restrict__", "In"), TCArg("void * __restrict__", "Out"),
                            TCArg("unsigned short int", "Feat"), TCArg("unsigned short int", "W"),
                            TCArg("unsigned short int", "H"), TCArg("unsigned char * __restrict__", "Scale"),
                            TCArg("unsigned char * __restrict__", "ScaleN"), TCArg("signed char * __restrict__", "Infos")));

    LibKernel("KerParSetBiasB32_SQ8", CALL_PARALLEL, nullptr, "KerSetBias_SQ8_T",
              CNN_Match(CNN_OperList(1, KOP_SETBIAS), nullptr, 1, CNN_Type(4, 0, 0, 0, 4), 0, 0, 0, 0, 0, 0));
    for (const KernelShape& s : kConvShapes)
        LibKernel(("KerParConv" + std::string(s.name) + "_SQ8").c_str(), CALL_PARALLEL, nullptr, "KerConv_SQ8_T",
                  shapeMatch(KOP_CONV, nullptr, CNN_Type(1, 1, 1, 0, 4), s));
    LibKernel("KerParConv1D_NStrideS_SQ8", CALL_PARALLEL, nullptr, "KerConv_SQ8_T",
              shapeMatch(KOP_CONV1D, nullptr, CNN_Type(1, 1, 1, 0, 4), {"", -1, 1, 1, 1, -1, 1}));
    for (const KernelShape& s : kDepthwiseShapes)
        for (const auto& [oper, suffix] : kDepthwiseActivations)
            LibKernel(("KerParConvDWRedAct" + std::string(s.name) + "B32" + suffix + "_SQ8").c_str(), CALL_PARALLEL,
                      nullptr, "KerConvRedAct_SQ8_T",
                      shapeMatch(KOP_CONV_DW, activationList(oper), CNN_Type(1, 1, 4, 0, 1), s));
    for (const auto& [oper, suffix] : kReductActivations) {
        LibKernel(("KerParReduct_CC" + std::string(suffix) + "_SQ8").c_str(), CALL_PARALLEL, nullptr,
                  "KerConvLinReduct_SQ8_T",
                  CNN_Match(CNN_OperList(1, KOP_DP_REDUCT), CNN_OperList(1, oper), 1, CNN_Type(4, 0, 0, 0, 1), 0, 0,
                            0, 0, 0, 0));
        LibKernel(("KerParReductIO_CC" + std::string(suffix) + "_SQ8").c_str(), CALL_PARALLEL, nullptr,
                  "KerConvLinReduct_SQ8_T",
                  CNN_Match(CNN_OperList(1, KOP_DP_REDUCT_IO), CNN_OperList(1, oper), 1, CNN_Type(4, 0, 0, 0, 1), 0,
                            0, 0, 0, 0, 0));
    }
}

int sdkConvolutionPoolAct_SQ8(const char* Name, const ConvLayerShape& shape, KernelOper_T ActOper)
{
    LayerDeclaration layer(Name);
    const bool pooled = shape.poolOper != KOP_NONE;
    const ConvLayerGeometry g = convLayerGeometry(Name, shape);  // checks the shape, gives the output sizes
    const bool dw = g.depthwise;
    if (ActOper == KOP_SIGMOID || ActOper == KOP_TANH || ActOper == KOP_CUSTOM)
        layerError(Name, "the activation " + std::string(CNN_KernelOperImage(ActOper)) +
                             " has no kernel in Tessera's SQ8 library (the SDK's table-driven ones); give KOP_NONE, "
                             "KOP_RELU, KOP_RELUN, KOP_RELUM, KOP_RELUMN, KOP_HSIGMOID, KOP_HSWISH or KOP_LEAKYRELU, "
                             "or compile the SDK's generators and libraries with the model");
    if (ActOper != KOP_NONE && standaloneActivationKernel(ActOper) == nullptr)
        layerError(Name, "the activation must be KOP_NONE, KOP_RELU, KOP_RELUN, KOP_RELUM, KOP_RELUMN, KOP_HSIGMOID, "
                         "KOP_HSWISH or KOP_LEAKYRELU");
    if (shape.dcx > 255 || shape.dcy > 255 || shape.scx > 255 || shape.scy > 255 || shape.spx > 255 ||
        shape.spy > 255 || shape.fcx > 65535 || shape.fcy > 65535 || shape.fpx > 65535 || shape.fpy > 65535 ||
        shape.inFeat > 65535 || shape.outFeat > 65535 || shape.width > 65535 || shape.height > 65535)
        layerError(Name, "the SDK's kernels take at most 65535 features, columns, lines and filter positions and "
                         "strides and dilations of at most 255");
    const int spanX = shape.dcx * (shape.fcx - 1) + 1, spanY = shape.dcy * (shape.fcy - 1) + 1;
    const int Fpx = g.Fpx, Fpy = g.Fpy, Spx = g.Spx, Spy = g.Spy;
    const int Wo = g.outW, Ho = g.outH;
    // The SDK's geometry: the pooling and convolution inputs each layer uses, the right and bottom
    // padding left once the unused columns and lines are counted, the tile padding (the pooling's
    // padding lines, seen through the convolution's stride, on top of its own).
    Padding pc = shape.convPad, pp = shape.poolPad;
    const auto used = [](int outputs, int window, int stride, int before, int after) {
        return (outputs - 1) * stride + window - before - after;
    };
    int usedWc = used(Wo, Fpx, Spx, pp.left, pp.right), usedHc = used(Ho, Fpy, Spy, pp.top, pp.bottom);
    int usedW = used(usedWc, spanX, shape.scx, pc.left, pc.right);
    int usedH = used(usedHc, spanY, shape.scy, pc.top, pc.bottom);
    pc.right = std::max(0, pc.right - (shape.width - usedW));
    pc.bottom = std::max(0, pc.bottom - (shape.height - usedH));
    pp.right = std::max(0, pp.right - (g.convW - usedWc));
    pp.bottom = std::max(0, pp.bottom - (g.convH - usedHc));
    usedWc = used(Wo, Fpx, Spx, pp.left, pp.right);
    usedHc = used(Ho, Fpy, Spy, pp.top, pp.bottom);
    usedW = used(usedWc, spanX, shape.scx, pc.left, pc.right);
    usedH = used(usedHc, spanY, shape.scy, pc.top, pc.bottom);
    const int tilePad[4] = {pp.left * shape.scx + pc.left, pp.right * shape.scx + pc.right,
                            pp.top * shape.scy + pc.top, pp.bottom * shape.scy + pc.bottom};
    for (int v : {tilePad[0], tilePad[1], tilePad[2], tilePad[3], pp.left, pp.right, pp.top, pp.bottom})
        if (v > 127)
            layerError(Name, "a padding of " + std::to_string(v) + " lines or columns is over the 127 the kernels take");
    const v4s convTilePad = {std::int8_t(tilePad[0]), std::int8_t(tilePad[1]), std::int8_t(tilePad[2]),
                             std::int8_t(tilePad[3])};
    const v4s convPad = {std::int8_t(pc.left), std::int8_t(pc.right), std::int8_t(pc.top), std::int8_t(pc.bottom)};
    const v4s poolPad = {std::int8_t(pp.left), std::int8_t(pp.right), std::int8_t(pp.top), std::int8_t(pp.bottom)};
    const int overlapC = std::max(0, spanY + shape.scy * (Fpy - Spy - 1));
    const int overlapP = std::max(0, Fpy - Spy);
    const int tileCons = std::lcm(shape.scy, Spy);

    // The basic kernels, matched as the SDK's generator matches them.
    int needFx = 0, needFy = 0, needDx = 0, needDy = 0, needSx = 0, needSy = 0;
    const char* convKernel = nullptr;
    const char* setBiasKernel = nullptr;
    const char* reductKernel = nullptr;
    const char* poolKernel = nullptr;
    const char* actKernel = nullptr;
    bool activationDone = ActOper == KOP_NONE;
    const KernelOper_T convOper =
        !dw && shape.height == 1 && shape.fcx != 1 && shape.fcy == 1 ? KOP_CONV1D : dw ? KOP_CONV_DW : KOP_CONV;
    if (dw) {
        if (!pooled)
            convKernel = CNN_FindMatchingKernel(KOP_CONV_DW, ActOper, 1, 1, 1, 4, 0, 1, shape.fcx, shape.fcy,
                                                shape.dcx, shape.dcy, shape.scx, shape.scy, &needFx, &needFy, &needDx,
                                                &needDy, &needSx, &needSy, nullptr);
        activationDone = activationDone || convKernel != nullptr;
        if (convKernel == nullptr)
            convKernel = CNN_FindMatchingKernel(KOP_CONV_DW, KOP_NONE, 1, 1, 1, 4, 0, 1, shape.fcx, shape.fcy,
                                                shape.dcx, shape.dcy, shape.scx, shape.scy, &needFx, &needFy, &needDx,
                                                &needDy, &needSx, &needSy, nullptr);
    } else {
        setBiasKernel = CNN_FindMatchingKernel(KOP_SETBIAS, KOP_NONE, 1, 4, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, nullptr,
                                               nullptr, nullptr, nullptr, nullptr, nullptr, nullptr);
        convKernel = CNN_FindMatchingKernel(convOper, KOP_NONE, 1, 1, 1, 0, 0, 4, shape.fcx, shape.fcy, shape.dcx,
                                            shape.dcy, shape.scx, shape.scy, &needFx, &needFy, &needDx, &needDy,
                                            &needSx, &needSy, nullptr);
        if (!pooled)
            reductKernel = CNN_FindMatchingKernel(KOP_DP_REDUCT, ActOper, 1, 4, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, nullptr,
                                                  nullptr, nullptr, nullptr, nullptr, nullptr, nullptr);
        activationDone = activationDone || reductKernel != nullptr;
        if (reductKernel == nullptr)
            reductKernel = CNN_FindMatchingKernel(pooled ? KOP_DP_REDUCT_IO : KOP_DP_REDUCT, KOP_NONE, 1, 4, 0, 0, 0,
                                                  1, 0, 0, 0, 0, 0, 0, nullptr, nullptr, nullptr, nullptr, nullptr,
                                                  nullptr, nullptr);
    }
    if (convKernel == nullptr || (!dw && (setBiasKernel == nullptr || reductKernel == nullptr)))
        layerError(Name, "no SQ8 convolution basic kernel matches; call LoadCNN_SQ8_Library() before the layers");
    int needFpx = 0, needSpx = 0, needFpy = 0, needSpy = 0;
    std::string poolKernelName;
    if (pooled) {
        if (shape.dpx != 1 || shape.dpy != 1)
            layerError(Name, "pooling dilation must be 1 (the SDK's pooling kernels have none)");
        const bool fused = ActOper == KOP_RELU || ActOper == KOP_RELUN;
        poolKernelName = sdkPoolKernel(Name, Fpx, Fpy, Spx, Spy, fused ? ActOper : KOP_NONE, &needFpx, &needSpx,
                                       &needFpy, &needSpy);
        poolKernel = poolKernelName.c_str();
        activationDone = activationDone || fused;
    }
    if (!activationDone)
        actKernel = standaloneActivationKernel(ActOper);

    const KernelIteratorT planes = dw ? KER_ITER_D0 : KER_ITER_D1;
    const char* convOut = pooled ? "ConvOut" : "Out";
    const auto needed = [](int need, int value) { return need ? Imm(value) : AT_IGNORE_ARG_BINDING; };
    const auto spaceOf = [&](bool tiled) {
        return tiled ? KerArgSpace(2, planes, KER_ITER_TILE0) : KerArgSpace(1, planes);
    };
    const KernelCallLocationT epilog = dw ? LOC_LOOP : LOC_D0_EPILOG;

    CKernelCall_T* conv =
        dw ? Call(convKernel, LOC_LOOP,
                  Bindings(23, K_Arg("In", KER_ARG_TILE), K_Arg("In", KER_ARG_TILE_W), K_Arg("In", KER_ARG_TILE_USEDW),
                           K_Arg("In", KER_ARG_TILE_H), K_Arg("In", KER_ARG_TILE_USEDH),
                           K_ArgPar("Filter", KER_ARG_PARTILE_SIZE, KER_ITER_D0),
                           K_ArgPar(convOut, KER_ARG_PARTILE_SIZE, KER_ITER_D0),
                           K_ArgPar("Filter", KER_ARG_LOADEDPARTILE_SIZE, KER_ITER_D0), K_Arg("Filter", KER_ARG_TILE),
                           K_Arg("Bias", KER_ARG_TILE), K_Arg("Scale", KER_ARG_TILE), K_Arg("ScaleN", KER_ARG_TILE),
                           K_Arg("Infos", KER_ARG_TILE), K_Arg(convOut, KER_ARG_TILE), K_Arg("In", KER_ARG_TILE_PAD),
                           K_TileOper("Infos", "char *", '@', AT_INF_BIASN), AT_IGNORE_ARG_BINDING,
                           needed(needFx, shape.fcx), needed(needSx, shape.scx), needed(needDx, shape.dcx),
                           needed(needFy, shape.fcy), needed(needSy, shape.scy), needed(needDy, shape.dcy)))
           : Call(convKernel, LOC_D0,
                  Bindings(20, K_Arg("In", KER_ARG_TILE), K_Arg("In", KER_ARG_TILE_W), K_Arg("In", KER_ARG_TILE_USEDW),
                           K_Arg("In", KER_ARG_TILE_H), K_Arg("In", KER_ARG_TILE_USEDH),
                           K_ArgPar("Filter", KER_ARG_PARTILE_SIZE, KER_ITER_D0),
                           K_ArgPar("ConvOut", KER_ARG_PARTILE_SIZE, KER_ITER_D1),
                           K_ArgPar("Filter", KER_ARG_LOADEDPARTILE_SIZE, KER_ITER_D0), K_Arg("Filter", KER_ARG_TILE),
                           AT_IGNORE_ARG_BINDING, K_Arg("ConvOut", KER_ARG_TILE), K_Arg("In", KER_ARG_TILE_PAD),
                           AT_IGNORE_ARG_BINDING, AT_IGNORE_ARG_BINDING, needed(needFx, shape.fcx),
                           needed(needSx, shape.scx), needed(needDx, shape.dcx), needed(needFy, shape.fcy),
                           needed(needSy, shape.scy), needed(needDy, shape.dcy)));
    UserKernel(
        Name,
        dw ? KernelIterSpace(2, IterParSpace(KER_ITER_D0, unsigned(shape.inFeat), 8), IterTiledSpace(KER_ITER_TILE0))
           : KernelIterSpace(3, IterParSpace(KER_ITER_D1, unsigned(shape.outFeat), 8), IterTiledSpace(KER_ITER_TILE0),
                             IterParSpace(KER_ITER_D0, unsigned(shape.inFeat), 4)),
        TILE_HOR,
        CArgs(7, TCArg("signed char * __restrict__", "In"), TCArg("signed char * __restrict__", "Filter"),
              TCArg("int * __restrict__", "Bias"), TCArg("signed char * __restrict__", "Out"),
              TCArg("unsigned char * __restrict__", "Scale"), TCArg("signed char * __restrict__", "ScaleN"),
              TCArg("signed char * __restrict__", "Infos")),
        Calls(5,
              setBiasKernel == nullptr
                  ? AT_NO_CALL
                  : Call(setBiasKernel, LOC_D0_PROLOG,
                         Bindings(6, K_Arg("ConvOut", KER_ARG_TILE), K_Arg("ConvOut", KER_ARG_TILE_W),
                                  K_Arg("ConvOut", KER_ARG_TILE_H),
                                  K_ArgPar("ConvOut", KER_ARG_PARTILE_SIZE, KER_ITER_D1), K_Arg("Bias", KER_ARG_TILE),
                                  K_TileOper("Infos", "char *", '@', AT_INF_BIASN))),
              conv,
              reductKernel == nullptr
                  ? AT_NO_CALL
                  : Call(reductKernel, LOC_D0_EPILOG,
                         Bindings(8, K_Arg("ConvOut", KER_ARG_TILE), K_Arg(pooled ? "ConvOut" : "Out", KER_ARG_TILE),
                                  K_ArgPar("ConvOut", KER_ARG_PARTILE_SIZE, KER_ITER_D1),
                                  K_Arg("ConvOut", KER_ARG_TILE_W), K_Arg("ConvOut", KER_ARG_TILE_H),
                                  K_Arg("Scale", KER_ARG_TILE), K_Arg("ScaleN", KER_ARG_TILE),
                                  K_Arg("Infos", KER_ARG_TILE))),
              poolKernel == nullptr
                  ? AT_NO_CALL
                  : Call(poolKernel, epilog,
                         Bindings(18, K_Arg("ConvOut", KER_ARG_TILE), K_Arg("ConvOut", KER_ARG_TILE_W),
                                  K_Arg("ConvOut", KER_ARG_TILE_USEDW), K_Arg("ConvOut", KER_ARG_TILE_H),
                                  K_Arg("ConvOut", KER_ARG_TILE_USEDH),
                                  K_ArgPar("ConvOut", KER_ARG_PARTILE_SIZE, planes), K_Arg("Out", KER_ARG_TILE),
                                  K_Arg("ConvOut", KER_ARG_TILE_PAD), needed(needFpx, Fpx), needed(needSpx, Spx),
                                  AT_IGNORE_ARG_BINDING, needed(needFpy, Fpy), needed(needSpy, Spy),
                                  AT_IGNORE_ARG_BINDING, Imm(shape.poolOper == KOP_MAXPOOL), AT_IGNORE_ARG_BINDING,
                                  Imm(ActOper == KOP_NONE), K_Arg("Infos", KER_ARG_TILE))),
              actKernel == nullptr
                  ? AT_NO_CALL
                  : Call(actKernel, epilog,
                         Bindings(6, K_Arg("Out", KER_ARG_TILE), K_Arg("Out", KER_ARG_TILE),
                                  K_ArgPar("Out", KER_ARG_PARTILE_SIZE, planes), K_Arg("Out", KER_ARG_TILE_W),
                                  K_Arg("Out", KER_ARG_TILE_H), K_Arg("Infos", KER_ARG_TILE)))),
        KerArgs(8,
                KerArgP("In", KerArgSpace(2, KER_ITER_D0, KER_ITER_TILE0), OBJ_IN_DB, unsigned(shape.width),
                        unsigned(shape.height), unsigned(usedW), unsigned(usedH), convTilePad, convPad, 1, overlapC,
                        OBJ_CONSTRAINTS_NONE, unsigned(tileCons), "In"),
                KerArg("Bias", spaceOf(false), Object_Type_T(O_IN | O_DB | O_CONST), 1, 1, 4, 0, OBJ_CONSTRAINTS_NONE,
                       0, "Bias"),
                KerArg("Scale", spaceOf(false), Object_Type_T(O_IN | O_DB | O_CONST), 1, 1, 1, 0,
                       OBJ_CONSTRAINTS_NONE, 0, "Scale"),
                KerArg("ScaleN", spaceOf(false), Object_Type_T(O_IN | O_DB | O_CONST), 1, 1, 1, 0,
                       OBJ_CONSTRAINTS_NONE, 0, "ScaleN"),
                KerArg("Filter", dw ? KerArgSpace(1, KER_ITER_D0) : KerArgSpace(2, KER_ITER_D1, KER_ITER_D0),
                       Object_Type_T(O_IN | O_DB | O_CONST), 1, 1, unsigned(shape.fcx * shape.fcy), 0,
                       OBJ_CONSTRAINTS_NONE, 0, "Filter"),
                KerArg("Out", spaceOf(true), OBJ_OUT_DB, unsigned(Wo), unsigned(Ho), 1, 0, OBJ_CONSTRAINTS_NONE, 0,
                       "Out"),
                dw && !pooled ? AT_NO_KER_ARG
                              : KerArgP("ConvOut", spaceOf(true), Object_Type_T(O_BUFF | O_ONETILE), unsigned(usedWc),
                                        unsigned(usedHc), unsigned(usedWc), unsigned(usedHc), poolPad, poolPad,
                                        dw ? 1u : 4u, overlapP, OBJ_CONSTRAINTS_NONE, 0, ""),
                sdkInfosArg()));
    declaredKernel(Name).operations = std::uint64_t(shape.outFeat) * unsigned(usedWc) * unsigned(usedHc) *
                                      unsigned(dw ? 1 : shape.inFeat) * unsigned(shape.fcx) * unsigned(shape.fcy);
    AddKernelArgDim(Name, "In", 4, shape.inFeat, shape.height, shape.width, 1);
    if (dw)
        AddKernelArgDim(Name, "Filter", 4, shape.inFeat, shape.fcy, shape.fcx, 1);
    else
        AddKernelArgDim(Name, "Filter", 5, shape.outFeat, shape.inFeat, shape.fcy, shape.fcx, 1);
    AddKernelArgDim(Name, "Bias", 2, shape.outFeat, 4);
    AddKernelArgDim(Name, "Out", 4, shape.outFeat, Ho, Wo, 1);
    AddKernelArgDim(Name, "Scale", 2, shape.outFeat, 1);
    AddKernelArgDim(Name, "ScaleN", 2, shape.outFeat, 1);
    AddKernelArgDim(Name, "Infos", 2, AT_INF_DIM, 1);
    return layer.conclude();
}

}  // namespace tessera::gap
