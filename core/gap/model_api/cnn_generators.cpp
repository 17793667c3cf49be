// The CNN generators: each layer becomes one user kernel built with the public model API, so the
// tile solver treats it like any hand-written kernel. Arithmetic: docs/gap-fixed-point.md.
#include "CNN_Copy_Generators.h"
#include "CNN_Generators.h"

#include "cnn_generator_control.h"
#include "cnn_generator_support.h"

#include <cstdint>
#include <string>
#include <vector>

namespace {

using tessera::gap::layerError;
using tessera::gap::requirePositive;
using tessera::gap::requireSixteenBit;
using tessera::gap::ConvLayerGeometry;
using tessera::gap::convLayerGeometry;
using tessera::gap::ConvLayerShape;
using tessera::gap::convShapeFromFlags;
using tessera::gap::genControl;
using tessera::gap::GenControl;
using tessera::gap::poolShapeFromFlags;
using tessera::gap::finishConvolutionKernel;
using tessera::gap::declaredKernel;
using tessera::gap::declarePoolingKernel;
using tessera::gap::homeArgumentsInL3;
using tessera::gap::LayerDeclaration;

constexpr const char* kShort = "short int * __restrict__";

// The ReLU argument of the basic kernels for an activation (0 none, 1 ReLU, N > 1 capped at N):
// KOP_RELUN is ReLU6, its cap 6 in the output's Q format.
unsigned reluArgument(const char* name, KernelOper_T oper, int outQ)
{
    if (oper == KOP_NONE)
        return 0;
    if (oper == KOP_RELU)
        return 1;
    if (oper != KOP_RELUN)
        layerError(name, "the activation must be KOP_NONE, KOP_RELU or KOP_RELUN (ReLU6)");
    if (outQ < 0 || outQ > 12)
        layerError(name, "KOP_RELUN caps at 6, which Q" + std::to_string(outQ) +
                             " cannot hold in 16 bits; use an output Q format of 12 or less");
    return 6u << outQ;
}

// A depthwise layer: one input feature at a time (planes outer, tiles inner), each output plane
// from its own input plane with that feature's filter and bias; the full convolution's basic
// kernels run with one feature.
void declareDepthwiseKernel(const char* Name, const ConvLayerGeometry& g, const ConvLayerShape& s, int normBias,
                            int norm, int pool, unsigned relu)
{
    const int Features = s.inFeat, Width = s.width, Height = s.height, Fcx = s.fcx, Fcy = s.fcy;
    UserKernel(Name, KernelDimensions(unsigned(Features), unsigned(Width), unsigned(Height), 1),
               KernelIterationOrder(KER_DIM3, KER_IN_PLANE, KER_TILE), TILE_HOR,
               CArgs(4, TCArg(kShort, "In"), TCArg(kShort, "Filter"), TCArg(kShort, "Bias"), TCArg(kShort, "Out")),
               Calls(3,
                     Call("KerSetBias32", LOC_INNER_LOOP,
                          Bindings(6, K_Arg("ConvOut", KER_ARG_TILE), K_Arg("ConvOut", KER_ARG_TILE_W),
                                   K_Arg("ConvOut", KER_ARG_TILE_H), Imm(1), K_Arg("Bias", KER_ARG_TILE),
                                   Imm(normBias))),
                     Call("KerConv32", LOC_INNER_LOOP,
                          Bindings(15, K_Arg("In", KER_ARG_TILE), K_Arg("In", KER_ARG_TILE_W),
                                   K_Arg("In", KER_ARG_TILE_H), K_Arg("Filter", KER_ARG_TILE),
                                   K_Arg("ConvOut", KER_ARG_TILE), K_Arg("ConvOut", KER_ARG_TILE_W),
                                   K_Arg("ConvOut", KER_ARG_TILE_H), Imm(1), Imm(Fcx), Imm(Fcy), Imm(s.scx),
                                   Imm(s.scy), Imm(s.dcx), Imm(s.dcy), Imm(g.convPad.left))),
                     Call("KerNormPoolReLU", LOC_INNER_LOOP,
                          Bindings(18, K_Arg("ConvOut", KER_ARG_TILE), K_Arg("ConvOut", KER_ARG_TILE_W),
                                   K_Arg("ConvOut", KER_ARG_TILE_H), Imm(1), K_Arg("Out", KER_ARG_TILE),
                                   K_Arg("Out", KER_ARG_TILE_W), K_Arg("Out", KER_ARG_TILE_H), Imm(norm), Imm(pool),
                                   Imm(g.Fpx), Imm(g.Fpy), Imm(g.Spx), Imm(g.Spy), Imm(int(relu)),
                                   Imm(g.poolPad.left), Imm(g.poolPad.top), K_Arg("ConvOut", KER_ARG_TILEOFFSET),
                                   Imm(g.convH)))),
               KerArgs(5,
                       KerArg("In", OBJ_IN_DB_3D, unsigned(Width), unsigned(Height), 2, unsigned(g.inOverlap),
                              OBJ_CONSTRAINTS_NONE, 0, "In", 0),
                       KerArg("Bias", OBJ_IN_DB_NTILED_3D, 1, 1, 2, 0, OBJ_CONSTRAINTS_NONE, 0, "Bias", 0),
                       KerArg("Filter", OBJ_IN_DB_NTILED_3D, unsigned(Fcx * Fcy), 1, 2, 0, OBJ_CONSTRAINTS_NONE, 0,
                              "Filter", 0),
                       // 32-bit accumulators of one tile of one feature.
                       KerArg("ConvOut", OBJ_BUFFER_ONETILE, unsigned(g.convW), unsigned(g.accumulatorH), 4,
                              unsigned(g.convOverlap), OBJ_CONSTRAINTS_NONE, 0, nullptr, 0),
                       KerArg("Out", OBJ_OUT_DB_3D, unsigned(g.outW), unsigned(g.outH), 2, 0, OBJ_CONSTRAINTS_NONE, 0,
                              "Out", 0)));
}

}  // namespace

extern "C" {

void LoadCNNLibrary(void)
{
    LoadCNN_Copy_Library();  // as the SDK's
    LibKernel("KerSetBias32", CALL_PARALLEL,
              CArgs(6, TCArg("int * __restrict__", "Out"), TCArg("unsigned int", "W"), TCArg("unsigned int", "H"),
                    TCArg("unsigned int", "Feat"), TCArg(kShort, "Bias"), TCArg("int", "NormBias")),
              "KerSetBias32_Arg_T");
    LibKernel("KerConv32", CALL_PARALLEL,
              CArgs(15, TCArg(kShort, "In"), TCArg("unsigned int", "W"), TCArg("unsigned int", "H"),
                    TCArg(kShort, "Filter"), TCArg("int * __restrict__", "Out"), TCArg("unsigned int", "Wo"),
                    TCArg("unsigned int", "Ho"), TCArg("unsigned int", "Feat"), TCArg("unsigned int", "Fx"),
                    TCArg("unsigned int", "Fy"), TCArg("unsigned int", "Sx"), TCArg("unsigned int", "Sy"),
                    TCArg("unsigned int", "Dx"), TCArg("unsigned int", "Dy"), TCArg("unsigned int", "PadL")),
              "KerConv32_Arg_T");
    LibKernel("KerNormPoolReLU", CALL_PARALLEL,
              CArgs(18, TCArg("int * __restrict__", "In"), TCArg("unsigned int", "W"), TCArg("unsigned int", "H"),
                    TCArg("unsigned int", "Feat"), TCArg(kShort, "Out"), TCArg("unsigned int", "Wo"),
                    TCArg("unsigned int", "Ho"), TCArg("int", "Norm"), TCArg("unsigned int", "PoolOper"),
                    TCArg("unsigned int", "Fx"), TCArg("unsigned int", "Fy"), TCArg("unsigned int", "Sx"),
                    TCArg("unsigned int", "Sy"), TCArg("unsigned int", "ReLU"), TCArg("unsigned int", "PadL"),
                    TCArg("unsigned int", "PadT"), TCArg("unsigned int", "TileOffset"),
                    TCArg("unsigned int", "PlaneH")),
              "KerNormPoolReLU_Arg_T");
    LibKernel("KerLinear", CALL_PARALLEL,
              CArgs(9, TCArg(kShort, "In"), TCArg("unsigned int", "InDim"), TCArg(kShort, "Filter"),
                    TCArg(kShort, "Bias"), TCArg(kShort, "Out"), TCArg("unsigned int", "OutDim"),
                    TCArg("int", "NormBias"), TCArg("int", "Norm"), TCArg("unsigned int", "ReLU")),
              "KerLinear_Arg_T");
    LibKernel("KerPoolReLU", CALL_PARALLEL,
              CArgs(17, TCArg(kShort, "In"), TCArg("unsigned int", "W"), TCArg("unsigned int", "H"),
                    TCArg("unsigned int", "Feat"), TCArg(kShort, "Out"), TCArg("unsigned int", "Wo"),
                    TCArg("unsigned int", "Ho"), TCArg("unsigned int", "PoolOper"), TCArg("unsigned int", "Fx"),
                    TCArg("unsigned int", "Fy"), TCArg("unsigned int", "Sx"), TCArg("unsigned int", "Sy"),
                    TCArg("unsigned int", "ReLU"), TCArg("unsigned int", "PadL"), TCArg("unsigned int", "PadT"),
                    TCArg("unsigned int", "TileOffset"), TCArg("unsigned int", "PlaneH")),
              "KerPoolReLU_Arg_T");
    LibKernel("KerGlobalSumInit", CALL_SEQUENTIAL, CArgs(1, TCArg("int * __restrict__", "Sum")), nullptr);
    LibKernel("KerGlobalSum", CALL_PARALLEL,
              CArgs(5, TCArg(kShort, "In"), TCArg("unsigned int", "W"), TCArg("unsigned int", "H"),
                    TCArg("int * __restrict__", "Sum"), TCArg("int * __restrict__", "Partial")),
              "KerGlobalSum_Arg_T");
    LibKernel("KerGlobalAvgFinish", CALL_SEQUENTIAL,
              CArgs(3, TCArg("int * __restrict__", "Sum"), TCArg("unsigned int", "Count"), TCArg(kShort, "Out")),
              nullptr);
    LibKernel("KerMatAdd", CALL_PARALLEL,
              CArgs(8, TCArg(kShort, "In1"), TCArg(kShort, "In2"), TCArg(kShort, "Out"), TCArg("unsigned int", "W"),
                    TCArg("unsigned int", "H"), TCArg("int", "Norm1"), TCArg("int", "Norm2"),
                    TCArg("unsigned int", "ReLU")),
              "KerMatAdd_Arg_T");
    LibKernel("KerMatSub", CALL_PARALLEL,
              CArgs(8, TCArg(kShort, "In1"), TCArg(kShort, "In2"), TCArg(kShort, "Out"), TCArg("unsigned int", "W"),
                    TCArg("unsigned int", "H"), TCArg("int", "Norm1"), TCArg("int", "Norm2"),
                    TCArg("unsigned int", "ReLU")),
              "KerMatAdd_Arg_T");
    LibKernel("KerMatMul", CALL_PARALLEL,
              CArgs(10, TCArg(kShort, "In1"), TCArg(kShort, "In2"), TCArg(kShort, "Bias"), TCArg(kShort, "Out"),
                    TCArg("unsigned int", "Lines"), TCArg("unsigned int", "Cols1"), TCArg("unsigned int", "Cols2"),
                    TCArg("int", "NormBias"), TCArg("int", "Norm"), TCArg("unsigned int", "ReLU")),
              "KerMatMul_Arg_T");
    LibKernel("KerCopyRows", CALL_PARALLEL,
              CArgs(6, TCArg(kShort, "In"), TCArg("unsigned int", "W"), TCArg("unsigned int", "Rows"),
                    TCArg(kShort, "Out"), TCArg("unsigned int", "RowOffset"), TCArg("int", "Norm")),
              "KerCopyRows_Arg_T");
    LibKernel("KerCopyColumns", CALL_PARALLEL,
              CArgs(7, TCArg(kShort, "In"), TCArg("unsigned int", "W"), TCArg("unsigned int", "Lines"),
                    TCArg(kShort, "Out"), TCArg("unsigned int", "OutW"), TCArg("unsigned int", "ColOffset"),
                    TCArg("int", "Norm")),
              "KerCopyColumns_Arg_T");
    LibKernel("KerSliceRows", CALL_PARALLEL,
              CArgs(5, TCArg(kShort, "In"), TCArg("unsigned int", "W"), TCArg("unsigned int", "Rows"),
                    TCArg("unsigned int", "InRowOffset"), TCArg(kShort, "Out")),
              "KerSliceRows_Arg_T");
    LibKernel("KerShuffleRows", CALL_PARALLEL,
              CArgs(5, TCArg(kShort, "In"), TCArg("unsigned int", "W"), TCArg("unsigned int", "Rows"),
                    TCArg("unsigned int", "Groups"), TCArg(kShort, "Out")),
              "KerShuffleRows_Arg_T");
    LibKernel("KerScaleChannels", CALL_PARALLEL,
              CArgs(6, TCArg(kShort, "In"), TCArg("unsigned int", "W"), TCArg("unsigned int", "Rows"),
                    TCArg(kShort, "Gate"), TCArg(kShort, "Out"), TCArg("int", "Norm")),
              "KerScaleChannels_Arg_T");
    LibKernel("KerUpsampleNearest", CALL_PARALLEL,
              CArgs(6, TCArg(kShort, "In"), TCArg("unsigned int", "W"), TCArg("unsigned int", "Lines"),
                    TCArg("unsigned int", "FactorX"), TCArg("unsigned int", "FactorY"), TCArg(kShort, "Out")),
              "KerUpsampleNearest_Arg_T");
    LibKernel("KerPReluChannels", CALL_PARALLEL,
              CArgs(7, TCArg(kShort, "In"), TCArg("unsigned int", "W"), TCArg("unsigned int", "Rows"),
                    TCArg(kShort, "Slopes"), TCArg(kShort, "Out"), TCArg("int", "SlopeQ"), TCArg("int", "Norm")),
              "KerPReluChannels_Arg_T");
    LibKernel("KerActivation", CALL_PARALLEL,
              CArgs(12, TCArg(kShort, "In"), TCArg("unsigned int", "W"), TCArg("unsigned int", "H"),
                    TCArg(kShort, "Out"), TCArg("int", "Kind"), TCArg("int", "InScale"), TCArg("int", "InShift"),
                    TCArg("int", "Offset"), TCArg("int", "Cap"), TCArg("int", "Alpha"), TCArg("int", "OutScale"),
                    TCArg("int", "OutShift")),
              "KerActivation_Arg_T");
    LibKernel("KerSoftMax", CALL_PARALLEL,
              CArgs(4, TCArg(kShort, "In"), TCArg("unsigned int", "N"), TCArg("int", "InQ"), TCArg(kShort, "Out")),
              "KerSoftMax_Arg_T");
}

int CNN_ConvolutionPoolReLU(const char* Name, CNN_GenControl_T* Ctrl, int In_DataSize, int Filter_DataSize,
                            int Bias_DataSize, int Out_DataSize, int In_Q, int Filter_Q, int Bias_Q, int Out_Q,
                            int In_InL3, int Filter_InL3, int Bias_InL3, int Out_InL3, int InFeat, int OutFeat,
                            int Width, int Height, KernelOper_T ConvOper, int Fcx, int Fcy, int Dcx, int Dcy, int Scx,
                            int Scy, int ConvPad, KernelOper_T PoolOper, int Fpx, int Fpy, int Dpx, int Dpy, int Spx,
                            int Spy, int PoolPad, KernelOper_T ReLUOper)
{
    const GenControl control = genControl(Name, Ctrl);
    requireSixteenBit(Name, {In_DataSize, Filter_DataSize, Bias_DataSize, Out_DataSize});
    const int generated = tessera::gap::convolutionPoolReLU(
        Name,
        convShapeFromFlags(Name, InFeat, OutFeat, Width, Height, ConvOper, Fcx, Fcy, Dcx, Dcy, Scx, Scy, ConvPad,
                           PoolOper, Fpx, Fpy, Dpx, Dpy, Spx, Spy, PoolPad, control.padType),
        In_Q, Filter_Q, Bias_Q, Out_Q, ReLUOper);
    return homeArgumentsInL3(Name, generated,
                             {{"In", In_InL3 ? In_InL3 : int(control.inL3)}, {"Filter", Filter_InL3 ? Filter_InL3 : int(control.filterL3)},
                              {"Bias", Bias_InL3 ? Bias_InL3 : int(control.biasL3)}, {"Out", Out_InL3 ? Out_InL3 : int(control.outL3)}});
}

int CNN_LinearReLU(const char* Name, CNN_GenControl_T* Ctrl, int In_DataSize, int Filter_DataSize,
                   int Bias_DataSize, int Out_DataSize, int In_Q, int Filter_Q, int Bias_Q, int Out_Q, int In_InL3,
                   int Filter_InL3, int Bias_InL3, int Out_InL3, int InDim, int OutDim, KernelOper_T LinearOper,
                   KernelOper_T ReLUOper)
{
    LayerDeclaration layer(Name);
    (void) genControl(Name, Ctrl);  // its checks; the *_InL3 arguments give the homes here
    requireSixteenBit(Name, {In_DataSize, Filter_DataSize, Bias_DataSize, Out_DataSize});
    if (LinearOper != KOP_LINEAR)
        layerError(Name, "the operation must be KOP_LINEAR");
    const unsigned relu = reluArgument(Name, ReLUOper, Out_Q);
    requirePositive(Name, {{"InDim", InDim}, {"OutDim", OutDim}});
    // Tiles are groups of outputs: rows of the filter, entries of the bias and of the output.
    UserKernel(Name, KernelDimensions(1, unsigned(InDim), unsigned(OutDim), 1), KernelIterationOrder(KER_DIM2, KER_TILE),
               TILE_HOR,
               CArgs(4, TCArg(kShort, "In"), TCArg(kShort, "Filter"), TCArg(kShort, "Bias"), TCArg(kShort, "Out")),
               Calls(1, Call("KerLinear", LOC_INNER_LOOP,
                             Bindings(9, K_Arg("In", KER_ARG_TILE), Imm(InDim), K_Arg("Filter", KER_ARG_TILE),
                                      K_Arg("Bias", KER_ARG_TILE), K_Arg("Out", KER_ARG_TILE),
                                      K_Arg("Out", KER_ARG_TILE_H), Imm(Bias_Q - (In_Q + Filter_Q)),
                                      Imm(In_Q + Filter_Q - Out_Q), Imm(int(relu))))),
               KerArgs(4,
                       KerArg("In", OBJ_IN_DB_NTILED, unsigned(InDim), 1, 2, 0, OBJ_CONSTRAINTS_NONE, 0, "In", 0),
                       KerArg("Filter", OBJ_IN_DB, unsigned(InDim), unsigned(OutDim), 2, 0, OBJ_CONSTRAINTS_NONE, 0,
                              "Filter", 0),
                       KerArg("Bias", OBJ_IN_DB, 1, unsigned(OutDim), 2, 0, OBJ_CONSTRAINTS_NONE, 0, "Bias", 0),
                       KerArg("Out", OBJ_OUT_DB, 1, unsigned(OutDim), 2, 0, OBJ_CONSTRAINTS_NONE, 0, "Out", 0)));
    declaredKernel(Name).operations = std::uint64_t(InDim) * unsigned(OutDim);
    return homeArgumentsInL3(Name, layer.conclude(),
                             {{"In", In_InL3}, {"Filter", Filter_InL3}, {"Bias", Bias_InL3}, {"Out", Out_InL3}});
}

int CNN_PoolReLU(const char* Name, CNN_GenControl_T* Ctrl, int In_DataSize, int Out_DataSize, int In_Q, int Out_Q,
                 int In_InL3, int Out_InL3, int Feat, int Width, int Height, KernelOper_T PoolOper, int Fpx, int Fpy,
                 int Dpx, int Dpy, int Spx, int Spy, int PoolPad, KernelOper_T ReLUOper)
{
    const GenControl control = genControl(Name, Ctrl);
    requireSixteenBit(Name, {In_DataSize, Out_DataSize});
    if (In_Q != Out_Q)
        layerError(Name, "pooling keeps the format: Out_Q (" + std::to_string(Out_Q) + ") must equal In_Q (" +
                             std::to_string(In_Q) + ")");
    const int generated = tessera::gap::poolReLU(
        Name,
        poolShapeFromFlags(Name, Feat, Width, Height, PoolOper, Fpx, Fpy, Dpx, Dpy, Spx, Spy, PoolPad, control.padType),
        In_Q, ReLUOper);
    return homeArgumentsInL3(Name, generated, {{"In", In_InL3 ? In_InL3 : int(control.inL3)}, {"Out", Out_InL3 ? Out_InL3 : int(control.outL3)}});
}

int CNN_GlobalPool(const char* Name, CNN_GenControl_T* Ctrl, int In_DataSize, int Out_DataSize, int In_Q, int Out_Q,
                   int In_InL3, int Out_InL3, int Feat, int Width, int Height, KernelOper_T PoolOper)
{
    LayerDeclaration layer(Name);
    (void) genControl(Name, Ctrl);  // its checks; the *_InL3 arguments give the homes here
    requireSixteenBit(Name, {In_DataSize, Out_DataSize});
    if (PoolOper != KOP_GLOBAL_AVGPOOL)
        layerError(Name, "the operation must be KOP_GLOBAL_AVGPOOL");
    if (In_Q != Out_Q)
        layerError(Name, "global pooling keeps the format: Out_Q (" + std::to_string(Out_Q) + ") must equal In_Q (" +
                             std::to_string(In_Q) + ")");
    requirePositive(Name, {{"Feat", Feat}, {"Width", Width}, {"Height", Height}});
    if (std::int64_t(Width) * Height > 65535)
        layerError(Name, "planes of " + std::to_string(Width) + "x" + std::to_string(Height) +
                             " hold more than 65535 values; their sum could leave int32");
    // One feature at a time: its sum cleared, the tiles of the plane added, the mean written.
    UserKernel(Name, KernelDimensions(unsigned(Feat), unsigned(Width), unsigned(Height), 1),
               KernelIterationOrder(KER_DIM3, KER_IN_PLANE, KER_TILE), TILE_HOR,
               CArgs(2, TCArg(kShort, "In"), TCArg(kShort, "Out")),
               Calls(3, Call("KerGlobalSumInit", LOC_INNER_LOOP_PROLOG, Bindings(1, K_Arg("Sum", KER_ARG_TILE))),
                     Call("KerGlobalSum", LOC_INNER_LOOP,
                          Bindings(5, K_Arg("In", KER_ARG_TILE), K_Arg("In", KER_ARG_TILE_W),
                                   K_Arg("In", KER_ARG_TILE_H), K_Arg("Sum", KER_ARG_TILE),
                                   K_Arg("Partial", KER_ARG_TILE))),
                     Call("KerGlobalAvgFinish", LOC_INNER_LOOP_EPILOG,
                          Bindings(3, K_Arg("Sum", KER_ARG_TILE), Imm(Width * Height), K_Arg("Out", KER_ARG_TILE)))),
               KerArgs(4,
                       KerArg("In", OBJ_IN_DB_3D, unsigned(Width), unsigned(Height), 2, 0, OBJ_CONSTRAINTS_NONE, 0,
                              "In", 0),
                       KerArg("Sum", O_BUFF, 1, 1, 4, 0, OBJ_CONSTRAINTS_NONE, 0, nullptr, 0),
                       KerArg("Partial", O_BUFF, 8, 1, 4, 0, OBJ_CONSTRAINTS_NONE, 0, nullptr, 0),
                       KerArg("Out", O_OUT | O_DB | O_3D, 1, 1, 2, 0, OBJ_CONSTRAINTS_NONE, 0, "Out", 0)));
    tessera::tiler::UserKernel& kernel = declaredKernel(Name);
    kernel.operations = std::uint64_t(Feat) * unsigned(Width) * unsigned(Height);
    for (tessera::tiler::KernelArgument& arg : kernel.args)
        arg.planePerInput = arg.name == "Out";
    return homeArgumentsInL3(Name, layer.conclude(), {{"In", In_InL3}, {"Out", Out_InL3}});
}

int CNN_MatAdd(const char* Name, CNN_GenControl_T* Ctrl, int In1_DataSize, int In2_DataSize, int Out_DataSize,
               int In1_Q, int In2_Q, int Out_Q, int In1_InL3, int In2_InL3, int Out_InL3, int InFeat, int OutFeat,
               int Width, int Height, KernelOper_T AddMatOper)
{
    LayerDeclaration layer(Name);
    (void) genControl(Name, Ctrl);  // its checks; the *_InL3 arguments give the homes here
    requireSixteenBit(Name, {In1_DataSize, In2_DataSize, Out_DataSize});
    const bool subtract = AddMatOper == KOP_MATSUB || AddMatOper == KOP_MATSUB_RELU;
    const bool relu = AddMatOper == KOP_MATADD_RELU || AddMatOper == KOP_MATSUB_RELU;
    if (AddMatOper != KOP_MATADD && !relu && !subtract)
        layerError(Name, "the operation must be KOP_MATADD, KOP_MATADD_RELU, KOP_MATSUB or KOP_MATSUB_RELU");
    if (InFeat != OutFeat)
        layerError(Name, "InFeat (" + std::to_string(InFeat) + ") and OutFeat (" + std::to_string(OutFeat) +
                             ") must be equal: the two inputs and the output have one shape");
    for (const auto& [what, q] : {std::pair{"In1_Q", In1_Q}, {"In2_Q", In2_Q}, {"Out_Q", Out_Q}})
        if (q < 0 || q > 15)
            layerError(Name, std::string(what) + " is Q" + std::to_string(q) + ", outside Q0 to Q15");
    requirePositive(Name, {{"InFeat", InFeat}, {"Width", Width}, {"Height", Height}});
    if (std::int64_t(InFeat) * Height > 65536)
        layerError(Name, "InFeat x Height is over 65536 lines");
    // The tensors as one plane of Feat x Height lines: element-wise work tiles like a matrix.
    const unsigned lines = unsigned(InFeat) * unsigned(Height);
    UserKernel(Name, KernelDimensions(1, unsigned(Width), lines, 1), KernelIterationOrder(KER_DIM2, KER_TILE),
               TILE_HOR, CArgs(3, TCArg(kShort, "In1"), TCArg(kShort, "In2"), TCArg(kShort, "Out")),
               Calls(1, Call(subtract ? "KerMatSub" : "KerMatAdd", LOC_INNER_LOOP,
                             Bindings(8, K_Arg("In1", KER_ARG_TILE), K_Arg("In2", KER_ARG_TILE),
                                      K_Arg("Out", KER_ARG_TILE), K_Arg("Out", KER_ARG_TILE_W),
                                      K_Arg("Out", KER_ARG_TILE_H), Imm(In1_Q - Out_Q), Imm(In2_Q - Out_Q),
                                      Imm(relu)))),
               KerArgs(3,
                       KerArg("In1", OBJ_IN_DB, unsigned(Width), lines, 2, 0, OBJ_CONSTRAINTS_NONE, 0, "In1", 0),
                       KerArg("In2", OBJ_IN_DB, unsigned(Width), lines, 2, 0, OBJ_CONSTRAINTS_NONE, 0, "In2", 0),
                       KerArg("Out", OBJ_OUT_DB, unsigned(Width), lines, 2, 0, OBJ_CONSTRAINTS_NONE, 0, "Out", 0)));
    declaredKernel(Name).operations = std::uint64_t(lines) * unsigned(Width);
    return homeArgumentsInL3(Name, layer.conclude(), {{"In1", In1_InL3}, {"In2", In2_InL3}, {"Out", Out_InL3}});
}

int CNN_MatMul(const char* Name, CNN_GenControl_T* Ctrl, int In1_DataSize, int In2_DataSize, int Bias_DataSize,
               int Out_DataSize, int In1_Q, int In2_Q, int Bias_Q, int Out_Q, int In1_InL3, int In2_InL3,
               int Bias_InL3, int Out_InL3, int ColM1, int LineM1, int ColM2, int LineM2, int Width, int Height,
               int Scx, int Scy, KernelOper_T MatMulOper, KernelOper_T ReLUOper)
{
    LayerDeclaration layer(Name);
    (void) genControl(Name, Ctrl);  // its checks; the *_InL3 arguments give the homes here
    requireSixteenBit(Name, {In1_DataSize, In2_DataSize, Bias_DataSize, Out_DataSize});
    if (MatMulOper != KOP_MATMUL)
        layerError(Name, "the operation must be KOP_MATMUL");
    if (ReLUOper != KOP_NONE && ReLUOper != KOP_RELU)
        layerError(Name, "the activation must be KOP_NONE or KOP_RELU");
    if (Width != 0 || Height != 0 || Scx != 1 || Scy != 1)
        layerError(Name, "strided matrix products are not supported: pass Width 0, Height 0, Scx 1, Scy 1");
    requirePositive(Name, {{"ColM1", ColM1}, {"LineM1", LineM1}, {"ColM2", ColM2}, {"LineM2", LineM2}});
    if (ColM1 != LineM2)
        layerError(Name, "ColM1 (" + std::to_string(ColM1) + ") must equal LineM2 (" + std::to_string(LineM2) +
                             "): the columns of In1 meet the lines of In2");
    UserKernel(Name, KernelDimensions(1, unsigned(ColM1), unsigned(LineM1), 1), KernelIterationOrder(KER_DIM2, KER_TILE),
               TILE_HOR,
               CArgs(4, TCArg(kShort, "In1"), TCArg(kShort, "In2"), TCArg(kShort, "Bias"), TCArg(kShort, "Out")),
               Calls(1, Call("KerMatMul", LOC_INNER_LOOP,
                             Bindings(10, K_Arg("In1", KER_ARG_TILE), K_Arg("In2", KER_ARG_TILE),
                                      K_Arg("Bias", KER_ARG_TILE), K_Arg("Out", KER_ARG_TILE),
                                      K_Arg("Out", KER_ARG_TILE_H), Imm(ColM1), Imm(ColM2),
                                      Imm(Bias_Q - (In1_Q + In2_Q)), Imm(In1_Q + In2_Q - Out_Q),
                                      Imm(ReLUOper == KOP_RELU)))),
               KerArgs(4,
                       KerArg("In1", OBJ_IN_DB, unsigned(ColM1), unsigned(LineM1), 2, 0, OBJ_CONSTRAINTS_NONE, 0, "In1", 0),
                       KerArg("In2", OBJ_IN_DB_NTILED, unsigned(ColM2), unsigned(LineM2), 2, 0, OBJ_CONSTRAINTS_NONE, 0,
                              "In2", 0),
                       KerArg("Bias", OBJ_IN_DB, 1, unsigned(LineM1), 2, 0, OBJ_CONSTRAINTS_NONE, 0, "Bias", 0),
                       KerArg("Out", OBJ_OUT_DB, unsigned(ColM2), unsigned(LineM1), 2, 0, OBJ_CONSTRAINTS_NONE, 0, "Out", 0)));
    declaredKernel(Name).operations = std::uint64_t(LineM1) * unsigned(ColM1) * unsigned(ColM2);
    return homeArgumentsInL3(Name, layer.conclude(),
                             {{"In1", In1_InL3}, {"In2", In2_InL3}, {"Bias", Bias_InL3}, {"Out", Out_InL3}});
}

int CNN_SoftMax(const char* Name, CNN_GenControl_T* Ctrl, int In_DataSize, int Out_DataSize, int In_Q, int Out_Q,
                int In_InL3, int Out_InL3, int Dim, KernelOper_T SoftMaxOper)
{
    LayerDeclaration layer(Name);
    (void) genControl(Name, Ctrl);  // its checks; the *_InL3 arguments give the homes here
    requireSixteenBit(Name, {In_DataSize, Out_DataSize});
    if (SoftMaxOper != KOP_SOFTMAX)
        layerError(Name, "the operation must be KOP_SOFTMAX");
    if (Out_Q != 15)
        layerError(Name, "the output format must be Q15 (Out_Q 15), it is Q" + std::to_string(Out_Q));
    if (In_Q < 0 || In_Q > 15)
        layerError(Name, "the input format Q" + std::to_string(In_Q) + " is outside Q0 to Q15");
    requirePositive(Name, {{"Dim", Dim}});
    // The whole vector is one tile: every output depends on every input.
    UserKernel(Name, KernelDimensions(1, unsigned(Dim), 1, 1), KernelIterationOrder(KER_DIM2, KER_TILE), TILE_HOR,
               CArgs(2, TCArg(kShort, "In"), TCArg(kShort, "Out")),
               Calls(1, Call("KerSoftMax", LOC_INNER_LOOP,
                             Bindings(4, K_Arg("In", KER_ARG_TILE), Imm(Dim), Imm(In_Q), K_Arg("Out", KER_ARG_TILE)))),
               KerArgs(2, KerArg("In", OBJ_IN_DB, unsigned(Dim), 1, 2, 0, OBJ_CONSTRAINTS_NONE, 0, "In", 0),
                       KerArg("Out", OBJ_OUT_DB, unsigned(Dim), 1, 2, 0, OBJ_CONSTRAINTS_NONE, 0, "Out", 0)));
    declaredKernel(Name).operations = unsigned(Dim);
    return homeArgumentsInL3(Name, layer.conclude(), {{"In", In_InL3}, {"Out", Out_InL3}});
}

}  // extern "C"

namespace tessera::gap {

Padding sdkSamePadding(int Width, int Height, int Fx, int Fy, int Sx, int Sy, int Dx, int Dy, AT_PadType type)
{
    // The total keeps ceil(Dim / S) outputs: the window's span less the stride, or less what the
    // last stride step leaves over when Dim is not a multiple of it.
    const auto total = [](int dim, int f, int s, int d) {
        const int span = d * (f - 1) + 1, left = dim % s == 0 ? s : dim % s;
        return span > left ? span - left : 0;
    };
    // The part before (above, left) of a total, as the SDK's AT_PadType says.
    const auto before = [type](int pad) {
        switch (type) {
        case PAD_LEFT: return pad;
        case PAD_RIGHT: return 0;
        case PAD_BALANCED_RIGHT: return pad / 2;
        case PAD_BALANCED_LEFT: break;
        }
        return pad - pad / 2;
    };
    const int w = total(Width, Fx, Sx, Dx), h = total(Height, Fy, Sy, Dy);
    return {before(h), h - before(h), before(w), w - before(w)};
}

int convolutionPoolReLU(const char* Name, const ConvLayerShape& shape, int In_Q, int Filter_Q, int Bias_Q, int Out_Q,
                        KernelOper_T ReLUOper)
{
    LayerDeclaration layer(Name);
    const unsigned relu = reluArgument(Name, ReLUOper, Out_Q);
    const ConvLayerGeometry g = convLayerGeometry(Name, shape);
    const int InFeat = shape.inFeat, OutFeat = shape.outFeat, Width = shape.width, Height = shape.height;
    const int Fcx = shape.fcx, Fcy = shape.fcy;
    const int pool = shape.poolOper == KOP_MAXPOOL ? 1 : shape.poolOper == KOP_AVGPOOL ? 2 : 0;
    if (g.depthwise)
        declareDepthwiseKernel(Name, g, shape, Bias_Q - (In_Q + Filter_Q), In_Q + Filter_Q - Out_Q, pool, relu);
    else
        UserKernel(Name, KernelDimensions(unsigned(InFeat), unsigned(Width), unsigned(Height), unsigned(OutFeat)),
                   KernelIterationOrder(KER_DIM3, KER_TILE, KER_IN_PLANE), TILE_HOR,
                   CArgs(4, TCArg(kShort, "In"), TCArg(kShort, "Filter"), TCArg(kShort, "Bias"), TCArg(kShort, "Out")),
                   Calls(3,
                         Call("KerSetBias32", LOC_IN_PLANE_PROLOG,
                              Bindings(6, K_Arg("ConvOut", KER_ARG_TILE), K_Arg("ConvOut", KER_ARG_TILE_W),
                                       K_Arg("ConvOut", KER_ARG_TILE_H), Imm(OutFeat), K_Arg("Bias", KER_ARG_TILE),
                                       Imm(Bias_Q - (In_Q + Filter_Q)))),
                         Call("KerConv32", LOC_INNER_LOOP,
                              Bindings(15, K_Arg("In", KER_ARG_TILE), K_Arg("In", KER_ARG_TILE_W),
                                       K_Arg("In", KER_ARG_TILE_H), K_Arg("Filter", KER_ARG_TILE),
                                       K_Arg("ConvOut", KER_ARG_TILE), K_Arg("ConvOut", KER_ARG_TILE_W),
                                       K_Arg("ConvOut", KER_ARG_TILE_H), Imm(OutFeat), Imm(Fcx), Imm(Fcy),
                                       Imm(shape.scx), Imm(shape.scy), Imm(shape.dcx), Imm(shape.dcy),
                                       Imm(g.convPad.left))),
                         Call("KerNormPoolReLU", LOC_IN_PLANE_EPILOG,
                              Bindings(18, K_Arg("ConvOut", KER_ARG_TILE), K_Arg("ConvOut", KER_ARG_TILE_W),
                                       K_Arg("ConvOut", KER_ARG_TILE_H), Imm(OutFeat), K_Arg("Out", KER_ARG_TILE),
                                       K_Arg("Out", KER_ARG_TILE_W), K_Arg("Out", KER_ARG_TILE_H),
                                       Imm(In_Q + Filter_Q - Out_Q), Imm(pool), Imm(g.Fpx), Imm(g.Fpy), Imm(g.Spx),
                                       Imm(g.Spy), Imm(int(relu)), Imm(g.poolPad.left), Imm(g.poolPad.top),
                                       K_Arg("ConvOut", KER_ARG_TILEOFFSET), Imm(g.convH)))),
                   KerArgs(5,
                           KerArg("In", OBJ_IN_DB_3D, unsigned(Width), unsigned(Height), 2, unsigned(g.inOverlap),
                                  OBJ_CONSTRAINTS_NONE, 0, "In", 0),
                           KerArg("Bias", OBJ_IN_NTILED, unsigned(OutFeat), 1, 2, 0, OBJ_CONSTRAINTS_NONE, 0, "Bias", 0),
                           // One plane per input feature: the filters of all output features for it.
                           KerArg("Filter", OBJ_IN_DB_NTILED_3D, unsigned(Fcx * Fcy), unsigned(OutFeat), 2, 0,
                                  OBJ_CONSTRAINTS_NONE, 0, "Filter", 0),
                           // 32-bit accumulators of one tile, every output feature.
                           KerArg("ConvOut", OBJ_BUFFER_ONETILE | O_3D, unsigned(g.convW), unsigned(g.accumulatorH),
                                  4, unsigned(g.convOverlap), OBJ_CONSTRAINTS_NONE, 0, nullptr, 0),
                           KerArg("Out", OBJ_OUT_DB_3D, unsigned(g.outW), unsigned(g.outH), 2, 0, OBJ_CONSTRAINTS_NONE,
                                  0, "Out", 0)));
    finishConvolutionKernel(Name, g, InFeat, OutFeat, Fcx, Fcy);
    return layer.conclude();
}

int poolReLU(const char* Name, const PoolLayerShape& shape, int Q, KernelOper_T ReLUOper)
{
    LayerDeclaration layer(Name);
    (void) Q;  // pooling keeps the format
    if (shape.poolOper != KOP_MAXPOOL && shape.poolOper != KOP_AVGPOOL)
        layerError(Name, "the pooling operation must be KOP_MAXPOOL or KOP_AVGPOOL");
    if (ReLUOper != KOP_NONE && ReLUOper != KOP_RELU)
        layerError(Name, "the activation must be KOP_NONE or KOP_RELU");
    if (shape.dpx != 1 || shape.dpy != 1)
        layerError(Name, "pooling dilation must be 1");
    declarePoolingKernel({Name, "KerPoolReLU", kShort, 2, shape.features, shape.width, shape.height, shape.fpx,
                          shape.fpy, shape.spx, shape.spy, shape.pad, shape.poolOper == KOP_MAXPOOL ? 1 : 2,
                          ReLUOper == KOP_RELU ? 1u : 0u});
    return layer.conclude();
}

}  // namespace tessera::gap
