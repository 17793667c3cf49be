// The SQ8 CNN generators: 8-bit symmetric layers (int8 activations with a scale per tensor, int8
// filters with a scale per output feature, int32 biases), one user kernel per layer like the
// 16-bit generators, calling the basic kernels of CNN_BasicKernels_SQ8.h. Arithmetic:
// docs/gap-fixed-point.md, "SQ8".
#include "CNN_Copy_Generators.h"
#include "CNN_Generators.h"

#include "cnn_generator_control.h"
#include "cnn_generator_support.h"
#include "gap/cnn_kernels/CNN_Infos_SQ8.h"
#include "tiler/tile_solver.h"

#include <algorithm>
#include <cstdint>
#include <string>

namespace {

using tessera::gap::ConvLayerGeometry;
using tessera::gap::convLayerGeometry;
using tessera::gap::convShapeFromFlags;
using tessera::gap::genControl;
using tessera::gap::GenControl;
using tessera::gap::homeArgumentsInL3;
using tessera::gap::poolShapeFromFlags;
using tessera::gap::declaredKernel;
using tessera::gap::finishConvolutionKernel;
using tessera::gap::layerError;
using tessera::gap::requirePositive;
using tessera::gap::declarePoolingKernel;
using tessera::gap::LayerDeclaration;
using tessera::gap::sdkInfosArg;

constexpr const char* kChar = "signed char * __restrict__";
constexpr const char* kUChar = "unsigned char * __restrict__";
constexpr const char* kInt = "int * __restrict__";
constexpr const char* kUnsigned = "unsigned int";
constexpr const char* kUShort = "unsigned short int";

// The ReLU argument of the SQ8 basic kernels: 0 none, 1 ReLU, the cap (2..127, in the output's
// int8 units) for KOP_RELUN.
unsigned activationArgument(const char* name, KernelOper_T oper, int cap)
{
    if (oper == KOP_NONE)
        return 0;
    if (oper == KOP_RELU)
        return 1;
    if (oper != KOP_RELUN)
        layerError(name, "the activation must be KOP_NONE, KOP_RELU or KOP_RELUN");
    if (cap < 2 || cap > 127)
        layerError(name, "the KOP_RELUN cap is " + std::to_string(cap) +
                             "; give 2 to 127, the bound (6 for ReLU6) in the output's int8 units");
    return unsigned(cap);
}

void requireSizes(const char* name, int biasDataSize, int scaleDataSize)
{
    if (biasDataSize != 4)
        layerError(name, "Bias_DataSize is " + std::to_string(biasDataSize) + "; SQ8 biases are int32 (4)");
    if (scaleDataSize != 1)
        layerError(name, "Scale_DataSize is " + std::to_string(scaleDataSize) + "; SQ8 scales are 8-bit (1)");
}

void requireRange(const char* name, const char* what, int value, int low, int high)
{
    if (value < low || value > high)
        layerError(name, std::string(what) + " is " + std::to_string(value) + ", expected " + std::to_string(low) +
                             " to " + std::to_string(high));
}

int poolCode(KernelOper_T oper)
{
    return oper == KOP_MAXPOOL ? 1 : oper == KOP_AVGPOOL ? 2 : 0;
}

// The SDK's name of a basic kernel on its contract for the activation: the stem, "_ReLU" or
// "_ReLUN", then "_SQ8" (KerMatAdd_ReLU_SQ8).
std::string sdkActivationKernel(const char* name, const char* stem, KernelOper_T oper)
{
    if (oper != KOP_NONE && oper != KOP_RELU && oper != KOP_RELUN)
        layerError(name, "the activation must be KOP_NONE, KOP_RELU or KOP_RELUN (the bound of KOP_RELUN is the "
                         "layer's Infos[AT_INF_A0])");
    return std::string(stem) + (oper == KOP_RELU ? "_ReLU" : oper == KOP_RELUN ? "_ReLUN" : "") + "_SQ8";
}

// The Feat x Width x Height items of an element-wise layer whose SDK kernels count a tile's items in
// 16 bits: refused when the L1 budget would allow tiles of more (its `tensors` int8 tensors
// double-buffered, 65535 bytes each).
std::int64_t itemsInShortTiles(const char* Name, int Feat, int Width, int Height, unsigned tensors,
                               const char* layerKind)
{
    requirePositive(Name, {{"Feat", Feat}, {"Width", Width}, {"Height", Height}});
    const std::int64_t items = std::int64_t(Feat) * Width * Height;
    if (items > 65535 * 65535LL)
        layerError(Name, "Feat x Width x Height is over 65535 x 65535 items");
    const unsigned l1 = tessera::gap::currentModel().options.l1Size, largest = 2u * tensors * 65535u;
    if (items > 65535 && l1 > largest)
        layerError(Name, "the L1 budget of " + std::to_string(l1) + " bytes allows tiles of more than 65535 items, "
                         "which the SDK's " + layerKind + " kernels cannot count; give an L1 budget of at most " +
                         std::to_string(largest) + " bytes");
    return items;
}

// CNN_Act_SQ8's activations and the SDK's basic kernel of each.
const std::pair<KernelOper_T, const char*> kStandaloneActivations[] = {
    {KOP_ACT_NONE, "Ker_ActNone_SQ8"}, {KOP_RELU, "Ker_ReLU_SQ8"},         {KOP_RELUN, "Ker_ReLUN_SQ8"},
    {KOP_RELUM, "Ker_ReLUM_SQ8"},      {KOP_RELUMN, "Ker_ReLUMN_SQ8"},     {KOP_HSIGMOID, "Ker_HSigmoid_SQ8"},
    {KOP_HSWISH, "Ker_HSwish_SQ8"},    {KOP_LEAKYRELU, "Ker_LeakyReLU_SQ8"}};

// The C arguments of the SDK's linear layer: its constants, then the layer's AT_INF_DIM Infos bytes.
CKernel_Arg_T** linearCArgs()
{
    return CArgs(7, TCArg(kChar, "In"), TCArg(kChar, "Filter"), TCArg(kInt, "Bias"), TCArg(kChar, "Out"),
                 TCArg(kUChar, "Scale"), TCArg(kUChar, "ScaleN"), TCArg(kChar, "Infos"));
}

CKernel_Arg_T** convolutionCArgs()
{
    return CArgs(6, TCArg(kChar, "In"), TCArg(kChar, "Filter"), TCArg(kInt, "Bias"), TCArg(kChar, "Out"),
                 TCArg(kUChar, "Scale"), TCArg(kUChar, "ScaleN"));
}

}  // namespace

extern "C" {

void LoadCNN_SQ8_Library(void)
{
    LoadCNN_Copy_Library();  // as the SDK's
    tessera::gap::loadSdkConvolutionKernels_SQ8();
    LibKernel("KerSetBias_SQ8", CALL_PARALLEL,
              CArgs(5, TCArg(kInt, "Out"), TCArg(kUnsigned, "W"), TCArg(kUnsigned, "H"), TCArg(kUnsigned, "Feat"),
                    TCArg(kInt, "Bias")),
              "KerSetBias_SQ8_Arg_T");
    LibKernel("KerConv_SQ8", CALL_PARALLEL,
              CArgs(15, TCArg(kChar, "In"), TCArg(kUnsigned, "W"), TCArg(kUnsigned, "H"), TCArg(kChar, "Filter"),
                    TCArg(kInt, "Out"), TCArg(kUnsigned, "Wo"), TCArg(kUnsigned, "Ho"), TCArg(kUnsigned, "Feat"),
                    TCArg(kUnsigned, "Fx"), TCArg(kUnsigned, "Fy"), TCArg(kUnsigned, "Sx"), TCArg(kUnsigned, "Sy"),
                    TCArg(kUnsigned, "Dx"), TCArg(kUnsigned, "Dy"), TCArg(kUnsigned, "PadL")),
              "KerConv_SQ8_Arg_T");
    LibKernel("KerScalePoolAct_SQ8", CALL_PARALLEL,
              CArgs(19, TCArg(kInt, "In"), TCArg(kUnsigned, "W"), TCArg(kUnsigned, "H"), TCArg(kUnsigned, "Feat"),
                    TCArg(kChar, "Out"), TCArg(kUnsigned, "Wo"), TCArg(kUnsigned, "Ho"), TCArg(kUChar, "Scale"),
                    TCArg(kUChar, "ScaleN"), TCArg(kUnsigned, "PoolOper"), TCArg(kUnsigned, "Fx"),
                    TCArg(kUnsigned, "Fy"), TCArg(kUnsigned, "Sx"), TCArg(kUnsigned, "Sy"), TCArg(kUnsigned, "ReLU"),
                    TCArg(kUnsigned, "PadL"), TCArg(kUnsigned, "PadT"), TCArg(kUnsigned, "TileOffset"),
                    TCArg(kUnsigned, "PlaneH")),
              "KerScalePoolAct_SQ8_Arg_T");
    for (const char* name : {"KerParLinearLayerFullFeatB32_SQ8", "KerParLinearLayerFullFeatB32_ReLU_SQ8",
                             "KerParLinearLayerFullFeatB32_ReLUN_SQ8"})
        LibKernel(name, CALL_PARALLEL,
                  CArgs(10, TCArg(kChar, "In"), TCArg(kChar, "Weights"), TCArg("void * __restrict__", "Bias"),
                        TCArg(kInt, "Out"), TCArg(kUShort, "InDim"), TCArg(kUShort, "TotalInDim"),
                        TCArg(kUShort, "OutDim"), TCArg(kUChar, "Scale"), TCArg(kUChar, "ScaleN"),
                        TCArg(kChar, "Infos")),
                  "KerLinear_SQ8_T");
    LibKernel("KerCopyRows_SQ8", CALL_PARALLEL,
              CArgs(7, TCArg(kChar, "In"), TCArg(kUnsigned, "W"), TCArg(kUnsigned, "Rows"), TCArg(kChar, "Out"),
                    TCArg(kUnsigned, "RowOffset"), TCArg("int", "Scale"), TCArg("int", "ScaleN")),
              "KerCopyRows_SQ8_Arg_T");
    LibKernel("KerCopyColumns_SQ8", CALL_PARALLEL,
              CArgs(8, TCArg(kChar, "In"), TCArg(kUnsigned, "W"), TCArg(kUnsigned, "Lines"), TCArg(kChar, "Out"),
                    TCArg(kUnsigned, "OutW"), TCArg(kUnsigned, "ColOffset"), TCArg("int", "Scale"),
                    TCArg("int", "ScaleN")),
              "KerCopyColumns_SQ8_Arg_T");
    LibKernel("KerSliceRows_SQ8", CALL_PARALLEL,
              CArgs(5, TCArg(kChar, "In"), TCArg(kUnsigned, "W"), TCArg(kUnsigned, "Rows"),
                    TCArg(kUnsigned, "InRowOffset"), TCArg(kChar, "Out")),
              "KerSliceRows_SQ8_Arg_T");
    LibKernel("KerShuffleRows_SQ8", CALL_PARALLEL,
              CArgs(5, TCArg(kChar, "In"), TCArg(kUnsigned, "W"), TCArg(kUnsigned, "Rows"),
                    TCArg(kUnsigned, "Groups"), TCArg(kChar, "Out")),
              "KerShuffleRows_SQ8_Arg_T");
    LibKernel("KerScaleChannels_SQ8", CALL_PARALLEL,
              CArgs(7, TCArg(kChar, "In"), TCArg(kUnsigned, "W"), TCArg(kUnsigned, "Rows"), TCArg(kChar, "Gate"),
                    TCArg(kChar, "Out"), TCArg("int", "Scale"), TCArg("int", "ScaleN")),
              "KerScaleChannels_SQ8_Arg_T");
    LibKernel("KerUpsampleNearest_SQ8", CALL_PARALLEL,
              CArgs(6, TCArg(kChar, "In"), TCArg(kUnsigned, "W"), TCArg(kUnsigned, "Lines"),
                    TCArg(kUnsigned, "FactorX"), TCArg(kUnsigned, "FactorY"), TCArg(kChar, "Out")),
              "KerUpsampleNearest_SQ8_Arg_T");
    LibKernel("KerPReluChannels_SQ8", CALL_PARALLEL,
              CArgs(8, TCArg(kChar, "In"), TCArg(kUnsigned, "W"), TCArg(kUnsigned, "Rows"),
                    TCArg("short int * __restrict__", "Slopes"), TCArg(kChar, "Out"), TCArg("int", "SlopeQ"),
                    TCArg("int", "Scale"), TCArg("int", "ScaleN")),
              "KerPReluChannels_SQ8_Arg_T");
    LibKernel("KerActivation_SQ8", CALL_PARALLEL,
              CArgs(12, TCArg(kChar, "In"), TCArg(kUnsigned, "W"), TCArg(kUnsigned, "H"), TCArg(kChar, "Out"),
                    TCArg("int", "Kind"), TCArg("int", "InScale"), TCArg("int", "InShift"), TCArg("int", "Offset"),
                    TCArg("int", "Cap"), TCArg("int", "Alpha"), TCArg("int", "OutScale"), TCArg("int", "OutShift")),
              "KerActivation_SQ8_Arg_T");
    LibKernel("KerPoolAct_SQ8", CALL_PARALLEL,
              CArgs(17, TCArg(kChar, "In"), TCArg(kUnsigned, "W"), TCArg(kUnsigned, "H"), TCArg(kUnsigned, "Feat"),
                    TCArg(kChar, "Out"), TCArg(kUnsigned, "Wo"), TCArg(kUnsigned, "Ho"), TCArg(kUnsigned, "PoolOper"),
                    TCArg(kUnsigned, "Fx"), TCArg(kUnsigned, "Fy"), TCArg(kUnsigned, "Sx"), TCArg(kUnsigned, "Sy"),
                    TCArg(kUnsigned, "ReLU"), TCArg(kUnsigned, "PadL"), TCArg(kUnsigned, "PadT"),
                    TCArg(kUnsigned, "TileOffset"), TCArg(kUnsigned, "PlaneH")),
              "KerPoolAct_SQ8_Arg_T");
    for (const char* shape : {"2x2Stride2", "NxNStrideS", "NxMStrideSxSy"})
        for (const char* act : {"", "_ReLU", "_ReLUN"}) {
            const std::string name = std::string("KerParPool") + shape + act + "_SQ8";
            LibKernel(name.c_str(), CALL_PARALLEL,
                      CArgs(18, TCArg(kChar, "In"), TCArg(kUShort, "W"), TCArg(kUShort, "UsedW"), TCArg(kUShort, "H"),
                            TCArg(kUShort, "UsedH"), TCArg(kUShort, "Feat"), TCArg(kChar, "Out"), TCArg("v4s", "Pad"),
                            TCArg("unsigned short", "FS"), TCArg("unsigned char", "S"), TCArg("unsigned char", "D"),
                            TCArg("unsigned short", "FSy"), TCArg("unsigned char", "Sy"),
                            TCArg("unsigned char", "Dy"), TCArg("unsigned char", "PoolMax"),
                            TCArg("unsigned char", "Orientation"), TCArg("unsigned char", "DoScale"),
                            TCArg(kChar, "Infos")),
                      "KerPool_SQ8_T");
        }
    const auto globalPool = [](const char* name) {
        LibKernel(name, CALL_PARALLEL,
                  CArgs(8, TCArg("void * __restrict__", "In"), TCArg(kUShort, "W"), TCArg(kUShort, "H"),
                        TCArg(kUShort, "Feat"), TCArg("unsigned char", "FirstTile"), TCArg("void * __restrict__", "Out"),
                        TCArg("unsigned char", "DoScale"), TCArg(kChar, "Infos")),
                  "KerGlobalPool_SQ8_T");
    };
    for (const char* kind : {"Avg", "Max"}) {
        for (const char* act : {"", "_ReLU", "_ReLUN"}) {
            globalPool((std::string("KerParGlobal") + kind + "PoolFullFeat" + act + "_SQ8").c_str());
            globalPool((std::string("KerParGlobal") + kind + "Pool_Reduct" + act + "_SQ8").c_str());
        }
        globalPool((std::string("KerParGlobal") + kind + "Pool_SQ8").c_str());
    }
    // Shared with the 16-bit library when both are loaded.
    if (tessera::gap::currentModel().findBasicKernel("KerGlobalSumInit") == nullptr)
        LibKernel("KerGlobalSumInit", CALL_SEQUENTIAL, CArgs(1, TCArg(kInt, "Sum")), nullptr);
    LibKernel("KerGlobalSum_SQ8", CALL_PARALLEL,
              CArgs(5, TCArg(kChar, "In"), TCArg(kUnsigned, "W"), TCArg(kUnsigned, "H"), TCArg(kInt, "Sum"),
                    TCArg(kInt, "Partial")),
              "KerGlobalSum_SQ8_Arg_T");
    LibKernel("KerGlobalAvgFinish_SQ8", CALL_SEQUENTIAL,
              CArgs(5, TCArg(kInt, "Sum"), TCArg(kUnsigned, "Count"), TCArg("int", "Scale"), TCArg("int", "ScaleN"),
                    TCArg(kChar, "Out")),
              nullptr);
    LibKernel("KerMatAddScaled_SQ8", CALL_PARALLEL,
              CArgs(9, TCArg(kChar, "In1"), TCArg(kChar, "In2"), TCArg(kChar, "Out"), TCArg(kUnsigned, "W"),
                    TCArg(kUnsigned, "H"), TCArg("int", "Scale1"), TCArg("int", "Scale2"), TCArg("int", "ScaleN"),
                    TCArg(kUnsigned, "ReLU")),
              "KerMatAddScaled_SQ8_Arg_T");
    for (const char* name : {"KerMatAdd_SQ8", "KerMatAdd_ReLU_SQ8", "KerMatAdd_ReLUN_SQ8"})
        LibKernel(name, CALL_PARALLEL,
                  CArgs(8, TCArg(kChar, "In1"), TCArg(kChar, "In2"), TCArg(kChar, "Out"), TCArg(kUShort, "Feat"),
                        TCArg(kUShort, "W"), TCArg(kUShort, "H"), TCArg("unsigned char", "DoScale"),
                        TCArg(kChar, "Infos")),
                  "KerMat3_SQ8_T");
    for (const auto& [oper, name] : kStandaloneActivations)
        LibKernel(name, CALL_PARALLEL,
                  CArgs(6, TCArg(kChar, "In"), TCArg(kChar, "Out"), TCArg(kUShort, "Feat"), TCArg(kUShort, "W"),
                        TCArg(kUShort, "H"), TCArg(kChar, "Infos")),
                  "KerActivation_SQ8_T");
    for (const char* name : {"KerParSoftMax_SQ8", "KerParSoftMax8Bits_SQ8"})
        LibKernel(name, CALL_PARALLEL,
                  CArgs(6, TCArg(kChar, "In"), TCArg(kUShort, "Feat"), TCArg(kUShort, "N"), TCArg(kUShort, "Norm"),
                        TCArg("void * __restrict__", "Out"), TCArg(kChar, "Infos")),
                  "KerSoftMax_SQ8_T");
    LibKernel("KerSoftMax_SQ8", CALL_PARALLEL,
              CArgs(6, TCArg(kChar, "In"), TCArg(kUnsigned, "N"), TCArg("int", "Scale"), TCArg("int", "ScaleN"),
                    TCArg("int", "InQ"), TCArg("short int * __restrict__", "Out")),
              "KerSoftMax_SQ8_Arg_T");
}

int CNN_ConvolutionPoolAct_SQ8(const char* Name, CNN_GenControl_T* Ctrl, int Bias_DataSize, int Scale_DataSize,
                               int InFeat, int OutFeat, int Width, int Height, KernelOper_T ConvOper, int Fcx, int Fcy,
                               int Dcx, int Dcy, int Scx, int Scy, int ConvPad, KernelOper_T PoolOper, int Fpx, int Fpy,
                               int Dpx, int Dpy, int Spx, int Spy, int PoolPad, KernelOper_T ActOper)
{
    // A pointwise convolution of a 1x1 plane is a linear layer, as the SDK's generator maps it.
    if (Fcx == 1 && Fcy == 1 && Width == 1 && Height == 1 && ConvOper == KOP_CONV && PoolOper == KOP_NONE)
        return CNN_LinearAct_SQ8(Name, Ctrl, Bias_DataSize, Scale_DataSize, InFeat, OutFeat, KOP_LINEAR, ActOper);
    const GenControl control = genControl(Name, Ctrl);
    requireSizes(Name, Bias_DataSize, Scale_DataSize);
    if (ConvOper == KOP_NONE)
        return PoolOper != KOP_NONE ? CNN_PoolAct_SQ8(Name, Ctrl, InFeat, Width, Height, PoolOper, Fpx, Fpy, Dpx, Dpy,
                                                      Spx, Spy, PoolPad, ActOper)
                                    : CNN_Act_SQ8(Name, Ctrl, InFeat, Width, Height, ActOper);
    const int generated = tessera::gap::sdkConvolutionPoolAct_SQ8(
        Name,
        convShapeFromFlags(Name, InFeat, OutFeat, Width, Height, ConvOper, Fcx, Fcy, Dcx, Dcy, Scx, Scy, ConvPad,
                           PoolOper, Fpx, Fpy, Dpx, Dpy, Spx, Spy, PoolPad, control.padType),
        ActOper);
    return homeArgumentsInL3(Name, generated,
                             {{"In", control.inL3}, {"Filter", control.filterL3}, {"Bias", control.biasL3},
                              {"Out", control.outL3}});
}

int CNN_LinearAct_SQ8(const char* Name, CNN_GenControl_T* Ctrl, int Bias_DataSize, int Scale_DataSize, int InDim,
                      int OutDim, KernelOper_T LinearOper, KernelOper_T ActOper)
{
    LayerDeclaration layer(Name);
    const GenControl control = genControl(Name, Ctrl);
    requireSizes(Name, Bias_DataSize, Scale_DataSize);
    if (LinearOper != KOP_LINEAR)
        layerError(Name, "the operation must be KOP_LINEAR");
    const std::string kernel = sdkActivationKernel(Name, "KerParLinearLayerFullFeatB32", ActOper);
    requirePositive(Name, {{"InDim", InDim}, {"OutDim", OutDim}});
    if (InDim > 65535)
        layerError(Name, "InDim is " + std::to_string(InDim) + "; the linear kernels take at most 65535 inputs");
    // Tiles are groups of outputs: rows of the filter, entries of the bias, scales and output. The
    // inputs and the layer's Infos are whole in L1.
    UserKernel(Name, KernelDimensions(1, unsigned(InDim), unsigned(OutDim), 1), KernelIterationOrder(KER_DIM2, KER_TILE),
               TILE_HOR, linearCArgs(),
               Calls(1, Call(kernel.c_str(), LOC_INNER_LOOP,
                             Bindings(10, K_Arg("In", KER_ARG_TILE), K_Arg("Filter", KER_ARG_TILE),
                                      K_Arg("Bias", KER_ARG_TILE), K_Arg("Out", KER_ARG_TILE), Imm(InDim), Imm(InDim),
                                      K_Arg("Out", KER_ARG_TILE_H), K_Arg("Scale", KER_ARG_TILE),
                                      K_Arg("ScaleN", KER_ARG_TILE), K_Arg("Infos", KER_ARG_TILE)))),
               KerArgs(7,
                       KerArg("In", OBJ_IN_DB_NTILED, unsigned(InDim), 1, 1, 0, OBJ_CONSTRAINTS_NONE, 0, "In", 0),
                       KerArg("Filter", OBJ_IN_DB, unsigned(InDim), unsigned(OutDim), 1, 0, OBJ_CONSTRAINTS_NONE, 0,
                              "Filter", 0),
                       KerArg("Bias", OBJ_IN_DB, 1, unsigned(OutDim), 4, 0, OBJ_CONSTRAINTS_NONE, 0, "Bias", 0),
                       KerArg("Scale", OBJ_IN_DB, 1, unsigned(OutDim), 1, 0, OBJ_CONSTRAINTS_NONE, 0, "Scale", 0),
                       KerArg("ScaleN", OBJ_IN_DB, 1, unsigned(OutDim), 1, 0, OBJ_CONSTRAINTS_NONE, 0, "ScaleN", 0),
                       KerArg("Infos", OBJ_IN_DB_NTILED, AT_INF_DIM, 1, 1, 0, OBJ_CONSTRAINTS_NONE, 0, "Infos", 0),
                       KerArg("Out", OBJ_OUT_DB, 1, unsigned(OutDim), 1, 0, OBJ_CONSTRAINTS_NONE, 0, "Out", 0)));
    declaredKernel(Name).operations = std::uint64_t(InDim) * unsigned(OutDim);
    return homeArgumentsInL3(Name, layer.conclude(),
                             {{"In", control.inL3}, {"Filter", control.filterL3}, {"Bias", control.biasL3},
                              {"Out", control.outL3}});
}

int CNN_PoolAct_SQ8(const char* Name, CNN_GenControl_T* Ctrl, int Feat, int Width, int Height, KernelOper_T PoolOper,
                    int Fpx, int Fpy, int Dpx, int Dpy, int Spx, int Spy, int PoolPad, KernelOper_T ActOper)
{
    if (PoolOper == KOP_NONE && ActOper != KOP_NONE)  // the SDK's generator does the same
        return CNN_Act_SQ8(Name, Ctrl, Feat, Width, Height, ActOper);
    const GenControl control = genControl(Name, Ctrl);
    const int generated = tessera::gap::sdkPoolAct_SQ8(
        Name,
        poolShapeFromFlags(Name, Feat, Width, Height, PoolOper, Fpx, Fpy, Dpx, Dpy, Spx, Spy, PoolPad, control.padType),
        ActOper);
    return homeArgumentsInL3(Name, generated, {{"In", control.inL3}, {"Out", control.outL3}});
}

int CNN_GlobalPool_SQ8(const char* Name, CNN_GenControl_T* Ctrl, int Feat, int Width, int Height,
                       KernelOper_T PoolOper)
{
    (void) genControl(Name, Ctrl);  // its checks; nothing here depends on it
    if (PoolOper != KOP_GLOBAL_AVGPOOL) {
        LayerDeclaration layer(Name);
        layerError(Name, "the operation must be KOP_GLOBAL_AVGPOOL");
    }
    return tessera::gap::globalAveragePool_SQ8(Name, Feat, Width, Height, 1, 0);
}

int CNN_GlobalPoolAct_SQ8(const char* Name, CNN_GenControl_T* Ctrl, int Feat, int Width, int Height,
                          KernelOper_T PoolOper, KernelOper_T ActOper)
{
    (void) genControl(Name, Ctrl);  // its checks; nothing here depends on it
    return tessera::gap::sdkGlobalPoolAct_SQ8(Name, Feat, Width, Height, PoolOper, ActOper);
}

int CNN_MatAdd_SQ8(const char* Name, CNN_GenControl_T* Ctrl, int Feat, int Width, int Height,
                   KernelOper_T AddMatOper, int In1_Scale, int In2_Scale, int ScaleN)
{
    LayerDeclaration layer(Name);
    (void) genControl(Name, Ctrl);  // its checks; nothing here depends on it
    const bool subtract = AddMatOper == KOP_MATSUB || AddMatOper == KOP_MATSUB_RELU;
    const bool relu = AddMatOper == KOP_MATADD_RELU || AddMatOper == KOP_MATSUB_RELU;
    if (AddMatOper != KOP_MATADD && !relu && !subtract)
        layerError(Name, "the operation must be KOP_MATADD, KOP_MATADD_RELU, KOP_MATSUB or KOP_MATSUB_RELU");
    requireRange(Name, "In1_Scale", In1_Scale, 0, 32767);
    requireRange(Name, "In2_Scale", In2_Scale, 0, 32767);
    requireRange(Name, "ScaleN", ScaleN, 0, 62);
    requirePositive(Name, {{"Feat", Feat}, {"Width", Width}, {"Height", Height}});
    if (std::int64_t(Feat) * Height > 65536)
        layerError(Name, "Feat x Height is over 65536 lines");
    // The tensors as one plane of Feat x Height lines: element-wise work tiles like a matrix.
    const unsigned lines = unsigned(Feat) * unsigned(Height);
    UserKernel(Name, KernelDimensions(1, unsigned(Width), lines, 1), KernelIterationOrder(KER_DIM2, KER_TILE),
               TILE_HOR, CArgs(3, TCArg(kChar, "In1"), TCArg(kChar, "In2"), TCArg(kChar, "Out")),
               Calls(1, Call("KerMatAddScaled_SQ8", LOC_INNER_LOOP,
                             Bindings(9, K_Arg("In1", KER_ARG_TILE), K_Arg("In2", KER_ARG_TILE),
                                      K_Arg("Out", KER_ARG_TILE), K_Arg("Out", KER_ARG_TILE_W),
                                      K_Arg("Out", KER_ARG_TILE_H), Imm(In1_Scale),
                                      Imm(subtract ? -In2_Scale : In2_Scale), Imm(ScaleN), Imm(relu)))),
               KerArgs(3,
                       KerArg("In1", OBJ_IN_DB, unsigned(Width), lines, 1, 0, OBJ_CONSTRAINTS_NONE, 0, "In1", 0),
                       KerArg("In2", OBJ_IN_DB, unsigned(Width), lines, 1, 0, OBJ_CONSTRAINTS_NONE, 0, "In2", 0),
                       KerArg("Out", OBJ_OUT_DB, unsigned(Width), lines, 1, 0, OBJ_CONSTRAINTS_NONE, 0, "Out", 0)));
    declaredKernel(Name).operations = std::uint64_t(lines) * unsigned(Width);
    return layer.conclude();
}

int CNN_MatAddAct_SQ8(const char* Name, CNN_GenControl_T* Ctrl, int Feat, int Width, int Height,
                      KernelOper_T AddMatOper, KernelOper_T ActOper)
{
    LayerDeclaration layer(Name);
    (void) genControl(Name, Ctrl);  // its checks; nothing here depends on it
    if (AddMatOper != KOP_MATADD)
        layerError(Name, "the operation must be KOP_MATADD (the activation is ActOper)");
    const std::string kernel = sdkActivationKernel(Name, "KerMatAdd", ActOper);
    const std::int64_t items = itemsInShortTiles(Name, Feat, Width, Height, 3, "addition");
    // As the SDK declares it: the tensors as one column of items tiled in runs (each tile's count
    // is the kernel's Feat), the layer's Infos whole.
    const auto tiled = [] { return KerArgSpace(1, KER_ITER_TILE0); };
    UserKernel(Name, KernelIterSpace(1, IterTiledSpace(KER_ITER_TILE0)), TILE_HOR,
               CArgs(4, TCArg(kChar, "In1"), TCArg(kChar, "In2"), TCArg(kChar, "Out"), TCArg(kChar, "Infos")),
               Calls(1, Call(kernel.c_str(), LOC_LOOP,
                             Bindings(8, K_Arg("In1", KER_ARG_TILE), K_Arg("In2", KER_ARG_TILE),
                                      K_Arg("Out", KER_ARG_TILE), K_Arg("In1", KER_ARG_TILE_H), AT_IGNORE_ARG_BINDING,
                                      AT_IGNORE_ARG_BINDING, Imm(ActOper == KOP_NONE), K_Arg("Infos", KER_ARG_TILE)))),
               KerArgs(4, KerArg("In1", tiled(), OBJ_IN_DB, 1, unsigned(items), 1, 0, OBJ_CONSTRAINTS_NONE, 0, "In1"),
                       KerArg("In2", tiled(), OBJ_IN_DB, 1, unsigned(items), 1, 0, OBJ_CONSTRAINTS_NONE, 0, "In2"),
                       KerArg("Out", tiled(), OBJ_OUT_DB, 1, unsigned(items), 1, 0, OBJ_CONSTRAINTS_NONE, 0, "Out"),
                       KerArg("Infos", tiled(), Object_Type_T(O_IN | O_BUFF | O_NTILED), 1, 1, AT_INF_DIM, 0,
                              OBJ_CONSTRAINTS_NONE, 0, "Infos")));
    declaredKernel(Name).operations = std::uint64_t(items);
    return layer.conclude();
}

int CNN_Act_SQ8(const char* Name, CNN_GenControl_T* Ctrl, int Feat, int Width, int Height, KernelOper_T ActOper)
{
    LayerDeclaration layer(Name);
    (void) genControl(Name, Ctrl);  // its checks
    const char* kernel = nullptr;
    for (const auto& [oper, name] : kStandaloneActivations)
        if (oper == ActOper)
            kernel = name;
    if (ActOper == KOP_SIGMOID || ActOper == KOP_TANH)
        layerError(Name, "KOP_SIGMOID and KOP_TANH have no basic kernel of Tessera's on the SDK's contract yet; "
                         "compile the SDK's CNN_Generators_SQ8.c and CNN_Libraries_SQ8 with the model for them");
    if (!kernel)
        layerError(Name, "ActOper must be KOP_ACT_NONE, KOP_RELU, KOP_RELUN, KOP_RELUM, KOP_RELUMN, KOP_HSIGMOID, "
                         "KOP_HSWISH or KOP_LEAKYRELU");
    const std::int64_t items = itemsInShortTiles(Name, Feat, Width, Height, 2, "activation");
    // As the SDK declares it: one column of all the values, tiled; a tile's line count is the
    // kernel's Feat.
    UserKernel(Name, KernelIterSpace(1, IterTiledSpace(KER_ITER_TILE0)), TILE_HOR,
               CArgs(3, TCArg(kChar, "In"), TCArg(kChar, "Out"), TCArg(kChar, "Infos")),
               Calls(1, Call(kernel, LOC_LOOP,
                             Bindings(6, K_Arg("In", KER_ARG_TILE), K_Arg("Out", KER_ARG_TILE),
                                      K_Arg("In", KER_ARG_TILE_H), Imm(1), Imm(1), K_Arg("Infos", KER_ARG_TILE)))),
               KerArgs(3,
                       KerArg("In", KerArgSpace(1, KER_ITER_TILE0), OBJ_IN_DB, 1, unsigned(items), 1, 0,
                              OBJ_CONSTRAINTS_NONE, 0, "In"),
                       KerArg("Out", KerArgSpace(1, KER_ITER_TILE0), OBJ_OUT_DB, 1, unsigned(items), 1, 0,
                              OBJ_CONSTRAINTS_NONE, 0, "Out"),
                       sdkInfosArg()));
    declaredKernel(Name).operations = std::uint64_t(items);
    return layer.conclude();
}

int CNN_SoftMax_SQ8(const char* Name, CNN_GenControl_T* Ctrl, int Dim, KernelOper_T SoftMaxOper)
{
    return CNN_SoftMax2D_SQ8(Name, Ctrl, 1, Dim, SoftMaxOper);
}

int CNN_SoftMax2D_SQ8(const char* Name, CNN_GenControl_T* Ctrl, int Feat, int Dim, KernelOper_T SoftMaxOper)
{
    LayerDeclaration layer(Name);
    const GenControl control = genControl(Name, Ctrl, true);
    if (SoftMaxOper != KOP_SOFTMAX)
        layerError(Name, "the operation must be KOP_SOFTMAX");
    const int outBytes = control.outDataSize != 0 ? control.outDataSize : 2;
    if (outBytes != 1 && outBytes != 2)
        layerError(Name, "OutDataSize is " + std::to_string(outBytes) +
                             "; the softmax writes Q15 in 2 bytes or Q7 in 1 (set OUTPUT_DATASIZE to 2 or 1)");
    requirePositive(Name, {{"Feat", Feat}, {"Dim", Dim}});
    if (Feat > 65535 || Dim > 65535)
        layerError(Name, "the softmax kernels take at most 65535 vectors of at most 65535 values");
    const char* kernel = outBytes == 2 ? "KerParSoftMax_SQ8" : "KerParSoftMax8Bits_SQ8";
    // As the SDK declares it: tiles of whole vectors (lines), the layer's Infos whole in L1.
    UserKernel(Name, KernelIterSpace(1, IterTiledSpace(KER_ITER_TILE0)), TILE_HOR,
               CArgs(3, TCArg(kChar, "In"), TCArg(outBytes == 2 ? "short int * __restrict__" : kChar, "Out"),
                     TCArg(kChar, "Infos")),
               Calls(1, Call(kernel, LOC_LOOP,
                             Bindings(6, K_Arg("In", KER_ARG_TILE), K_Arg("In", KER_ARG_TILE_H),
                                      K_Arg("In", KER_ARG_TILE_W), K_TileOper("Infos", "char *", '@', AT_INF_BIASL_SM),
                                      K_Arg("Out", KER_ARG_TILE), K_Arg("Infos", KER_ARG_TILE)))),
               KerArgs(3,
                       KerArg("In", KerArgSpace(1, KER_ITER_TILE0), OBJ_IN_DB, unsigned(Dim), unsigned(Feat), 1, 0,
                              OBJ_CONSTRAINTS_NONE, 8, "In"),
                       KerArg("Out", KerArgSpace(1, KER_ITER_TILE0), OBJ_OUT_DB, unsigned(Dim), unsigned(Feat),
                              unsigned(outBytes), 0, OBJ_CONSTRAINTS_NONE, 0, "Out"),
                       sdkInfosArg()));
    declaredKernel(Name).operations = std::uint64_t(Feat) * unsigned(Dim);
    return layer.conclude();
}

}  // extern "C"

namespace tessera::gap {

Object_T* sdkInfosArg()
{
    return KerArg("Infos", KerArgSpace(1, KER_ITER_TILE0), Object_Type_T(O_IN | O_BUFF | O_NTILED | O_CONST),
                  AT_INF_DIM, 1, 1, 0, OBJ_CONSTRAINTS_NONE, 0, "Infos");
}

std::string sdkPoolKernel(const char* Name, int Fpx, int Fpy, int Spx, int Spy, KernelOper_T ActOper, int* needFx,
                          int* needSx, int* needFy, int* needSy)
{
    const bool square = Fpx == Fpy && Spx == Spy;
    const bool twoByTwo = square && Fpx == 2 && Spx == 2;
    *needFx = *needSx = !twoByTwo;
    *needFy = *needSy = !square;
    return sdkActivationKernel(Name, twoByTwo ? "KerParPool2x2Stride2" : square ? "KerParPoolNxNStrideS"
                                                                           : "KerParPoolNxMStrideSxSy",
                               ActOper);
}

int convolutionPoolAct_SQ8(const char* Name, const ConvLayerShape& shape, KernelOper_T ActOper, int ActCap)
{
    LayerDeclaration layer(Name);
    const unsigned act = activationArgument(Name, ActOper, ActCap);
    const ConvLayerGeometry g = convLayerGeometry(Name, shape);
    const int InFeat = shape.inFeat, OutFeat = shape.outFeat, Width = shape.width, Height = shape.height;
    const int Fcx = shape.fcx, Fcy = shape.fcy;
    const int pool = poolCode(shape.poolOper);
    // Depthwise: one feature at a time (planes outer, tiles inner), each with its own filter, bias
    // and scales; otherwise tiles outer, every input plane accumulated into all output features.
    const bool dw = g.depthwise;
    const unsigned feat = dw ? 1u : unsigned(OutFeat);
    const KernelCallLocationT biasAt = dw ? LOC_INNER_LOOP : LOC_IN_PLANE_PROLOG;
    const KernelCallLocationT scaleAt = dw ? LOC_INNER_LOOP : LOC_IN_PLANE_EPILOG;
    const unsigned perFeature = dw ? OBJ_IN_DB_NTILED_3D : OBJ_IN_NTILED;
    const unsigned perFeatureCount = dw ? 1u : unsigned(OutFeat);
    UserKernel(Name,
               KernelDimensions(unsigned(InFeat), unsigned(Width), unsigned(Height), dw ? 1u : unsigned(OutFeat)),
               dw ? KernelIterationOrder(KER_DIM3, KER_IN_PLANE, KER_TILE)
                  : KernelIterationOrder(KER_DIM3, KER_TILE, KER_IN_PLANE),
               TILE_HOR, convolutionCArgs(),
               Calls(3,
                     Call("KerSetBias_SQ8", biasAt,
                          Bindings(5, K_Arg("ConvOut", KER_ARG_TILE), K_Arg("ConvOut", KER_ARG_TILE_W),
                                   K_Arg("ConvOut", KER_ARG_TILE_H), Imm(int(feat)), K_Arg("Bias", KER_ARG_TILE))),
                     Call("KerConv_SQ8", LOC_INNER_LOOP,
                          Bindings(15, K_Arg("In", KER_ARG_TILE), K_Arg("In", KER_ARG_TILE_W),
                                   K_Arg("In", KER_ARG_TILE_H), K_Arg("Filter", KER_ARG_TILE),
                                   K_Arg("ConvOut", KER_ARG_TILE), K_Arg("ConvOut", KER_ARG_TILE_W),
                                   K_Arg("ConvOut", KER_ARG_TILE_H), Imm(int(feat)), Imm(Fcx), Imm(Fcy),
                                   Imm(shape.scx), Imm(shape.scy), Imm(shape.dcx), Imm(shape.dcy),
                                   Imm(g.convPad.left))),
                     Call("KerScalePoolAct_SQ8", scaleAt,
                          Bindings(19, K_Arg("ConvOut", KER_ARG_TILE), K_Arg("ConvOut", KER_ARG_TILE_W),
                                   K_Arg("ConvOut", KER_ARG_TILE_H), Imm(int(feat)), K_Arg("Out", KER_ARG_TILE),
                                   K_Arg("Out", KER_ARG_TILE_W), K_Arg("Out", KER_ARG_TILE_H),
                                   K_Arg("Scale", KER_ARG_TILE), K_Arg("ScaleN", KER_ARG_TILE), Imm(pool), Imm(g.Fpx),
                                   Imm(g.Fpy), Imm(g.Spx), Imm(g.Spy), Imm(int(act)), Imm(g.poolPad.left),
                                   Imm(g.poolPad.top), K_Arg("ConvOut", KER_ARG_TILEOFFSET), Imm(g.convH)))),
               KerArgs(7,
                       KerArg("In", OBJ_IN_DB_3D, unsigned(Width), unsigned(Height), 1, unsigned(g.inOverlap),
                              OBJ_CONSTRAINTS_NONE, 0, "In", 0),
                       KerArg("Bias", perFeature, perFeatureCount, 1, 4, 0, OBJ_CONSTRAINTS_NONE, 0, "Bias", 0),
                       KerArg("Scale", perFeature, perFeatureCount, 1, 1, 0, OBJ_CONSTRAINTS_NONE, 0, "Scale", 0),
                       KerArg("ScaleN", perFeature, perFeatureCount, 1, 1, 0, OBJ_CONSTRAINTS_NONE, 0, "ScaleN", 0),
                       // Per input feature: the filters of every output feature for it (depthwise: its own).
                       KerArg("Filter", OBJ_IN_DB_NTILED_3D, unsigned(Fcx * Fcy), feat, 1, 0, OBJ_CONSTRAINTS_NONE, 0,
                              "Filter", 0),
                       // 32-bit accumulators of one tile.
                       KerArg("ConvOut", dw ? OBJ_BUFFER_ONETILE : OBJ_BUFFER_ONETILE | O_3D, unsigned(g.convW),
                              unsigned(g.accumulatorH), 4, unsigned(g.convOverlap), OBJ_CONSTRAINTS_NONE, 0, nullptr, 0),
                       KerArg("Out", OBJ_OUT_DB_3D, unsigned(g.outW), unsigned(g.outH), 1, 0, OBJ_CONSTRAINTS_NONE, 0,
                              "Out", 0)));
    finishConvolutionKernel(Name, g, InFeat, OutFeat, Fcx, Fcy);
    return layer.conclude();
}

int poolAct_SQ8(const char* Name, const PoolLayerShape& shape, KernelOper_T ActOper, int ActCap)
{
    LayerDeclaration layer(Name);
    if (shape.poolOper != KOP_MAXPOOL && shape.poolOper != KOP_AVGPOOL)
        layerError(Name, "the pooling operation must be KOP_MAXPOOL or KOP_AVGPOOL");
    const unsigned act = activationArgument(Name, ActOper, ActCap);
    if (shape.dpx != 1 || shape.dpy != 1)
        layerError(Name, "pooling dilation must be 1");
    declarePoolingKernel({Name, "KerPoolAct_SQ8", kChar, 1, shape.features, shape.width, shape.height, shape.fpx,
                          shape.fpy, shape.spx, shape.spy, shape.pad, poolCode(shape.poolOper), act});
    return layer.conclude();
}

int sdkPoolAct_SQ8(const char* Name, const PoolLayerShape& shape, KernelOper_T ActOper)
{
    LayerDeclaration layer(Name);
    if (shape.poolOper != KOP_MAXPOOL && shape.poolOper != KOP_AVGPOOL)
        layerError(Name, "the pooling operation must be KOP_MAXPOOL or KOP_AVGPOOL");
    requirePositive(Name, {{"Feat", shape.features}, {"Width", shape.width}, {"Height", shape.height},
                           {"Fpx", shape.fpx}, {"Fpy", shape.fpy}, {"Spx", shape.spx}, {"Spy", shape.spy}});
    if (shape.dpx != 1 || shape.dpy != 1)
        layerError(Name, "pooling dilation must be 1 (the SDK's pooling kernels have none)");
    if (shape.features > 65535 || shape.width > 65535 || shape.height > 65535 || shape.fpx > 65535 ||
        shape.fpy > 65535 || shape.spx > 255 || shape.spy > 255)
        layerError(Name, "the pooling kernels take at most 65535 features, columns, lines and window positions "
                         "and strides of at most 255");
    requirePadding(Name, "the pooling padding", shape.pad, shape.fpx, shape.fpy);
    const Padding& pad = shape.pad;
    if (pad.left > 127 || pad.right > 127 || pad.top > 127 || pad.bottom > 127)
        layerError(Name, "the pooling padding is over 127 on a side");
    const int paddedW = shape.width + pad.left + pad.right, paddedH = shape.height + pad.top + pad.bottom;
    if (shape.fpx > paddedW || shape.fpy > paddedH)
        layerError(Name, "the pooling window is larger than the " + std::to_string(shape.width) + "x" +
                             std::to_string(shape.height) + " input with its padding");
    // The SDK's geometry: the outputs, the columns and lines their windows use, the right and bottom
    // padding left once the unused ones are counted.
    const int outW = (paddedW - shape.fpx) / shape.spx + 1, outH = (paddedH - shape.fpy) / shape.spy + 1;
    const int usedW = (outW - 1) * shape.spx + shape.fpx - pad.left - pad.right;
    const int usedH = (outH - 1) * shape.spy + shape.fpy - pad.top - pad.bottom;
    const v4s padding = {std::int8_t(pad.left), std::int8_t(std::max(0, pad.right - (shape.width - usedW))),
                         std::int8_t(pad.top), std::int8_t(std::max(0, pad.bottom - (shape.height - usedH)))};
    int needFx = 0, needSx = 0, needFy = 0, needSy = 0;
    const std::string kernel =
        sdkPoolKernel(Name, shape.fpx, shape.fpy, shape.spx, shape.spy, ActOper, &needFx, &needSx, &needFy, &needSy);
    const auto needed = [](bool need, int value) { return need ? Imm(value) : AT_IGNORE_ARG_BINDING; };
    const auto planes = [] { return KerArgSpace(2, KER_ITER_D0, KER_ITER_TILE0); };
    // As the SDK declares it: features in chunks split over the cores (the chunk's size is the
    // kernel's Feat), lines of each in tiles; the layer's Infos whole.
    UserKernel(Name,
               KernelIterSpace(2, IterParSpace(KER_ITER_D0, unsigned(shape.features), 8), IterTiledSpace(KER_ITER_TILE0)),
               TILE_HOR, CArgs(3, TCArg(kChar, "In"), TCArg(kChar, "Out"), TCArg(kChar, "Infos")),
               Calls(1, Call(kernel.c_str(), LOC_LOOP,
                             Bindings(18, K_Arg("In", KER_ARG_TILE), K_Arg("In", KER_ARG_TILE_W),
                                      K_Arg("In", KER_ARG_TILE_USEDW), K_Arg("In", KER_ARG_TILE_H),
                                      K_Arg("In", KER_ARG_TILE_USEDH),
                                      K_ArgPar("Out", KER_ARG_PARTILE_SIZE, KER_ITER_D0), K_Arg("Out", KER_ARG_TILE),
                                      K_Arg("In", KER_ARG_TILE_PAD), needed(needFx, shape.fpx),
                                      needed(needSx, shape.spx), AT_IGNORE_ARG_BINDING,
                                      needed(needFy, shape.fpy), needed(needSy, shape.spy), AT_IGNORE_ARG_BINDING,
                                      Imm(shape.poolOper == KOP_MAXPOOL), Imm(1), Imm(ActOper == KOP_NONE),
                                      K_Arg("Infos", KER_ARG_TILE)))),
               KerArgs(3,
                       KerArgP("In", planes(), OBJ_IN_DB, unsigned(shape.width), unsigned(shape.height),
                               unsigned(usedW), unsigned(usedH), padding, padding, 1,
                               std::max(0, shape.fpy - shape.spy), OBJ_CONSTRAINTS_NONE, unsigned(shape.spy), "In"),
                       KerArg("Out", planes(), OBJ_OUT_DB, unsigned(outW), unsigned(outH), 1, 0, OBJ_CONSTRAINTS_NONE,
                              0, "Out"),
                       sdkInfosArg()));
    declaredKernel(Name).operations =
        std::uint64_t(shape.features) * unsigned(outW) * unsigned(outH) * unsigned(shape.fpx) * unsigned(shape.fpy);
    return layer.conclude();
}

namespace {

// Whether the user kernel just declared has a tiling in the model's budgets.
bool lastKernelTiles()
{
    const tessera::tiler::KernelModel& model = currentModel();
    return tessera::tiler::solveTiling(model.userKernels.back(), model.options.l1Size, model.options.l2Size,
                                       model.options.costModel, tessera::tiler::promotionPolicy(model.options), false)
        .ok;
}

}  // namespace

int sdkGlobalPoolAct_SQ8(const char* Name, int Feat, int Width, int Height, KernelOper_T PoolOper,
                         KernelOper_T ActOper)
{
    LayerDeclaration layer(Name);
    if (PoolOper != KOP_GLOBAL_AVGPOOL && PoolOper != KOP_GLOBAL_MAXPOOL)
        layerError(Name, "the operation must be KOP_GLOBAL_AVGPOOL or KOP_GLOBAL_MAXPOOL");
    requirePositive(Name, {{"Feat", Feat}, {"Width", Width}, {"Height", Height}});
    if (Feat > 65535 || Width > 65535 || Height > 65535 || std::int64_t(Width) * Height > 131071)
        layerError(Name, "the global pooling kernels take at most 65535 features, columns and lines, and planes of "
                         "at most 131071 values (their sums times 128 stay in 32 bits)");
    const char* kind = PoolOper == KOP_GLOBAL_AVGPOOL ? "KerParGlobalAvgPool" : "KerParGlobalMaxPool";
    const std::string whole = sdkActivationKernel(Name, (std::string(kind) + "FullFeat").c_str(), ActOper);
    const auto cArgs = [] { return CArgs(3, TCArg(kChar, "In"), TCArg(kChar, "Out"), TCArg(kChar, "Infos")); };
    const unsigned plane = unsigned(Width) * unsigned(Height);
    // As the SDK declares it: whole planes in tiles of features when one fits in L1 ...
    UserKernel(Name, KernelIterSpace(1, IterTiledSpace(KER_ITER_TILE0)), TILE_HOR, cArgs(),
               Calls(1, Call(whole.c_str(), LOC_LOOP,
                             Bindings(8, K_Arg("In", KER_ARG_TILE), Imm(Width), Imm(Height), K_Arg("Out", KER_ARG_TILE_H),
                                      AT_IGNORE_ARG_BINDING, K_Arg("Out", KER_ARG_TILE), Imm(ActOper == KOP_NONE),
                                      K_Arg("Infos", KER_ARG_TILE)))),
               KerArgs(3,
                       KerArg("In", KerArgSpace(1, KER_ITER_TILE0), OBJ_IN_DB, plane, unsigned(Feat), 1, 0,
                              OBJ_CONSTRAINTS_NONE, 8, "In"),
                       KerArg("Out", KerArgSpace(1, KER_ITER_TILE0), OBJ_OUT_DB, 1, unsigned(Feat), 1, 0,
                              OBJ_CONSTRAINTS_NONE, 0, "Out"),
                       sdkInfosArg()));
    if (!lastKernelTiles()) {
        // ... else features in chunks, the lines of each tiled: the tiles' sums or maxima carried
        // in int32 (one per feature of the chunk) and reduced after the plane's last tile.
        withdrawLastUserKernel(registry().model);
        const std::string reduct = sdkActivationKernel(Name, (std::string(kind) + "_Reduct").c_str(), ActOper);
        const std::string partial = std::string(kind) + "_SQ8";
        UserKernel(Name,
                   KernelIterSpace(2, IterParSpace(KER_ITER_D0, unsigned(Feat), 8), IterTiledSpace(KER_ITER_TILE0)),
                   TILE_HOR, cArgs(),
                   Calls(2,
                         Call(partial.c_str(), LOC_LOOP,
                              Bindings(8, K_Arg("In", KER_ARG_TILE), K_Arg("In", KER_ARG_TILE_W),
                                       K_Arg("In", KER_ARG_TILE_H), K_ArgPar("In", KER_ARG_PARTILE_SIZE, KER_ITER_D0),
                                       K_ArgPred("In", KER_ARG_TILEFIRST, KER_ITER_TILE0), K_Arg("Sums", KER_ARG_TILE),
                                       AT_IGNORE_ARG_BINDING, AT_IGNORE_ARG_BINDING)),
                         Call(reduct.c_str(), LOC_LOOP_EPILOG,
                              Bindings(8, K_Arg("Sums", KER_ARG_TILE), Imm(Width), Imm(Height),
                                       K_ArgPar("In", KER_ARG_PARTILE_SIZE, KER_ITER_D0), AT_IGNORE_ARG_BINDING,
                                       K_Arg("Out", KER_ARG_TILE), Imm(ActOper == KOP_NONE),
                                       K_Arg("Infos", KER_ARG_TILE)))),
                   KerArgs(4,
                           KerArg("In", KerArgSpace(2, KER_ITER_D0, KER_ITER_TILE0), OBJ_IN_DB, unsigned(Width),
                                  unsigned(Height), 1, 0, OBJ_CONSTRAINTS_NONE, 0, "In"),
                           KerArg("Sums", KerArgSpace(1, KER_ITER_D0), O_BUFF, 1, 1, 4, 0, OBJ_CONSTRAINTS_NONE, 0,
                                  nullptr),
                           KerArg("Out", KerArgSpace(1, KER_ITER_D0), OBJ_OUT_DB, 1, 1, 1, 0, OBJ_CONSTRAINTS_NONE, 0,
                                  "Out"),
                           sdkInfosArg()));
    }
    declaredKernel(Name).operations = std::uint64_t(Feat) * plane;
    return layer.conclude();
}

int globalAveragePool_SQ8(const char* Name, int Feat, int Width, int Height, int Scale, int ScaleN)
{
    LayerDeclaration layer(Name);
    requirePositive(Name, {{"Feat", Feat}, {"Width", Width}, {"Height", Height}});
    if (Scale < 0 || Scale > 32767 || ScaleN < 0 || ScaleN > 62)
        layerError(Name, "Scale must be 0 to 32767 and ScaleN 0 to 62");
    if (std::int64_t(Width) * Height > 65535)
        layerError(Name, "planes of " + std::to_string(Width) + "x" + std::to_string(Height) +
                             " hold more than 65535 values");
    // One feature at a time: its sum cleared, the tiles of the plane added, the mean written.
    UserKernel(Name, KernelDimensions(unsigned(Feat), unsigned(Width), unsigned(Height), 1),
               KernelIterationOrder(KER_DIM3, KER_IN_PLANE, KER_TILE), TILE_HOR,
               CArgs(2, TCArg(kChar, "In"), TCArg(kChar, "Out")),
               Calls(3, Call("KerGlobalSumInit", LOC_INNER_LOOP_PROLOG, Bindings(1, K_Arg("Sum", KER_ARG_TILE))),
                     Call("KerGlobalSum_SQ8", LOC_INNER_LOOP,
                          Bindings(5, K_Arg("In", KER_ARG_TILE), K_Arg("In", KER_ARG_TILE_W),
                                   K_Arg("In", KER_ARG_TILE_H), K_Arg("Sum", KER_ARG_TILE),
                                   K_Arg("Partial", KER_ARG_TILE))),
                     Call("KerGlobalAvgFinish_SQ8", LOC_INNER_LOOP_EPILOG,
                          Bindings(5, K_Arg("Sum", KER_ARG_TILE), Imm(Width * Height), Imm(Scale), Imm(ScaleN),
                                   K_Arg("Out", KER_ARG_TILE)))),
               KerArgs(4,
                       KerArg("In", OBJ_IN_DB_3D, unsigned(Width), unsigned(Height), 1, 0, OBJ_CONSTRAINTS_NONE, 0,
                              "In", 0),
                       KerArg("Sum", O_BUFF, 1, 1, 4, 0, OBJ_CONSTRAINTS_NONE, 0, nullptr, 0),
                       KerArg("Partial", O_BUFF, 8, 1, 4, 0, OBJ_CONSTRAINTS_NONE, 0, nullptr, 0),
                       KerArg("Out", O_OUT | O_DB | O_3D, 1, 1, 1, 0, OBJ_CONSTRAINTS_NONE, 0, "Out", 0)));
    tessera::tiler::UserKernel& kernel = declaredKernel(Name);
    kernel.operations = std::uint64_t(Feat) * unsigned(Width) * unsigned(Height);
    for (tessera::tiler::KernelArgument& arg : kernel.args)
        arg.planePerInput = arg.name == "Out";
    return layer.conclude();
}

int scaledSoftMax_SQ8(const char* Name, int Dim, int In_Scale, int In_ScaleN, int In_Q)
{
    LayerDeclaration layer(Name);
    requireRange(Name, "In_Scale", In_Scale, 0, 32767);
    requireRange(Name, "In_ScaleN", In_ScaleN, 0, 62);
    requireRange(Name, "In_Q", In_Q, 0, 15);
    requirePositive(Name, {{"Dim", Dim}});
    // The whole vector is one tile: every output depends on every input.
    UserKernel(Name, KernelDimensions(1, unsigned(Dim), 1, 1), KernelIterationOrder(KER_DIM2, KER_TILE), TILE_HOR,
               CArgs(2, TCArg(kChar, "In"), TCArg("short int * __restrict__", "Out")),
               Calls(1, Call("KerSoftMax_SQ8", LOC_INNER_LOOP,
                             Bindings(6, K_Arg("In", KER_ARG_TILE), Imm(Dim), Imm(In_Scale), Imm(In_ScaleN),
                                      Imm(In_Q), K_Arg("Out", KER_ARG_TILE)))),
               KerArgs(2, KerArg("In", OBJ_IN_DB, unsigned(Dim), 1, 1, 0, OBJ_CONSTRAINTS_NONE, 0, "In", 0),
                       KerArg("Out", OBJ_OUT_DB, unsigned(Dim), 1, 2, 0, OBJ_CONSTRAINTS_NONE, 0, "Out", 0)));
    declaredKernel(Name).operations = unsigned(Dim);
    return layer.conclude();
}

}  // namespace tessera::gap
