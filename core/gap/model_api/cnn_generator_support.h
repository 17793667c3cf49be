// Checks and helpers shared by the CNN generators (16-bit and SQ8).
#pragma once

#include "CNN_Generators.h"
#include "cnn_layers.h"
#include "model_registry.h"

#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

namespace tessera::gap {

// Stops generation with a message naming the layer (GenTilingError does not return).
[[noreturn]] inline void layerError(const char* name, const std::string& what)
{
    GenTilingError("%s: %s", name ? name : "(unnamed layer)", what.c_str());
}

inline void requireSixteenBit(const char* name, std::initializer_list<int> sizes)
{
    for (int size : sizes)
        if (size != 2)
            layerError(name, "data size " + std::to_string(size) +
                                 " is not supported; the 16-bit power-of-two layers need every data size to be 2");
}

inline void requirePositive(const char* name, std::initializer_list<std::pair<const char*, int>> values)
{
    for (const auto& [what, value] : values)
        if (value < 1 || value > (1 << 16))
            layerError(name, std::string(what) + " is " + std::to_string(value) + ", expected 1 to 65536");
}

// One CNN generator call. Its user kernel is checked for a tiling (AT_KERNEL_NOSOLUTION_ERROR
// off) when the generator concludes, after it has completed the kernel; `return layer.conclude();`
// gives the generator's result: 1, or 0 when the kernel was dropped.
class LayerDeclaration {
public:
    explicit LayerDeclaration(const char* name) : name_(name ? name : "") { ++registry().layersInProgress; }
    ~LayerDeclaration()
    {
        if (!concluded_)  // a layer error thrown in an embedded build
            --registry().layersInProgress;
    }
    LayerDeclaration(const LayerDeclaration&) = delete;
    LayerDeclaration& operator=(const LayerDeclaration&) = delete;

    int conclude()
    {
        concluded_ = true;
        --registry().layersInProgress;
        return keepKernelIfItTiles(name_) ? 1 : 0;
    }

private:
    std::string name_;
    bool concluded_ = false;
};

// The user kernel a generator has just declared, to add what the C API cannot say.
// The basic kernel a Tessera layer of DataSize 2 (16-bit, `sixteenBit`) or 1 (SQ8, `sq8`) calls,
// after checking the data size and that its library was loaded.
inline const char* layerBasicKernel(const char* Name, int DataSize, const char* sixteenBit, const char* sq8)
{
    if (DataSize != 1 && DataSize != 2)
        layerError(Name, "data size " + std::to_string(DataSize) + " is neither 1 (SQ8) nor 2 (16-bit)");
    const char* basicKernel = DataSize == 1 ? sq8 : sixteenBit;
    if (currentModel().findBasicKernel(basicKernel) == nullptr)
        layerError(Name, std::string("basic kernel ") + basicKernel + " is not declared; call " +
                             (DataSize == 1 ? "LoadCNN_SQ8_Library()" : "LoadCNNLibrary()") + " first");
    return basicKernel;
}

// The C type of an activation of DataSize bytes.
inline const char* activationPointerType(int DataSize)
{
    return DataSize == 1 ? "signed char * __restrict__" : "short int * __restrict__";
}

inline tessera::tiler::UserKernel& declaredKernel(const char* name)
{
    std::vector<tessera::tiler::UserKernel>& kernels = currentModel().userKernels;
    for (auto kernel = kernels.rbegin(); kernel != kernels.rend(); ++kernel)
        if (kernel->name == name)
            return *kernel;
    layerError(name, "the generated user kernel is missing from the model");
}

// The SDK generators' *_InL3 flags: the arguments whose home is the L3 RAM, which the kernel
// streams through L2 staging buffers (O_L2DB). In a graph the graph decides instead. `generated`
// is the generator's result: a kernel dropped for want of a tiling has nothing to mark.
inline int homeArgumentsInL3(const char* Name, int generated,
                             std::initializer_list<std::pair<const char*, int>> flags)
{
    for (const auto& [arg, flag] : flags)
        if (flag < 0)
            layerError(Name, std::string(arg) + "_InL3 is " + std::to_string(flag) +
                                 "; give 0 (in L2) or non-zero (in L3)");
    if (!generated)
        return generated;
    tessera::tiler::UserKernel& kernel = declaredKernel(Name);
    for (const auto& [name, flag] : flags)
        for (tessera::tiler::KernelArgument& arg : kernel.args)
            if (flag != 0 && arg.name == name)
                arg.flags |= tessera::tiler::ArgFlag::L2DoubleBuffer;
    return generated;
}

// The checked geometry of a convolution + pooling layer, shared by the 16-bit and SQ8 generators.
struct ConvLayerGeometry {
    bool depthwise = false;
    int Fpx = 1, Fpy = 1, Spx = 1, Spy = 1;  // the pooling window (1x1 stride 1 without pooling)
    int convW = 0, convH = 0;                // the convolution's output planes
    int outW = 0, outH = 0;                  // after pooling
    int convOverlap = 0;                     // accumulator lines shared by neighbouring tiles
    int inOverlap = 0;                       // input lines shared by neighbouring tiles
    Padding convPad;                         // zero lines and columns around the input
    // Pooling padding: the accumulator tiles see poolPad.top extra lines above and poolPad.bottom
    // below the convolution's output (accumulatorH lines in all), computed from the input's
    // inPadBefore / inPadAfter zero lines; the pooling kernel skips them, and the padding columns,
    // as it pools.
    Padding poolPad;
    int accumulatorH = 0;
    int inPadBefore = 0, inPadAfter = 0;
};

inline void requirePadding(const char* Name, const char* what, const Padding& pad, int limitX, int limitY)
{
    const auto side = [&](const char* which, int value, int limit) {
        if (value < 0 || value >= limit)
            layerError(Name, std::string(what) + " " + which + " is " + std::to_string(value) + "; give 0 to " +
                                 std::to_string(limit - 1) + ", so that every window meets the plane");
    };
    side("top", pad.top, limitY);
    side("bottom", pad.bottom, limitY);
    side("left", pad.left, limitX);
    side("right", pad.right, limitX);
}

inline ConvLayerGeometry convLayerGeometry(const char* Name, ConvLayerShape s)
{
    ConvLayerGeometry g;
    if (s.convOper != KOP_CONV && s.convOper != KOP_CONV_DP && s.convOper != KOP_CONV_DW)
        layerError(Name, "the convolution operation must be KOP_CONV, KOP_CONV_DP or KOP_CONV_DW");
    g.depthwise = s.convOper == KOP_CONV_DW;
    if (g.depthwise && s.inFeat != s.outFeat)
        layerError(Name, "a depthwise convolution (KOP_CONV_DW) needs InFeat == OutFeat, got " +
                             std::to_string(s.inFeat) + " and " + std::to_string(s.outFeat));
    if (s.poolOper != KOP_NONE && s.poolOper != KOP_MAXPOOL && s.poolOper != KOP_AVGPOOL)
        layerError(Name, "the pooling operation must be KOP_NONE, KOP_MAXPOOL or KOP_AVGPOOL");
    const bool pooled = s.poolOper != KOP_NONE;
    if (!pooled) {
        if (!s.poolPad.none())
            layerError(Name, "pooling padding without pooling; give PoolPad 0 or a pooling operation");
        s.fpx = s.fpy = s.spx = s.spy = s.dpx = s.dpy = 1;
    }
    if (s.dpx != 1 || s.dpy != 1)
        layerError(Name, "pooling dilation must be 1");
    requirePositive(Name, {{"InFeat", s.inFeat}, {"OutFeat", s.outFeat}, {"Width", s.width}, {"Height", s.height},
                           {"Fcx", s.fcx}, {"Fcy", s.fcy}, {"Dcx", s.dcx}, {"Dcy", s.dcy}, {"Scx", s.scx},
                           {"Scy", s.scy}, {"Fpx", s.fpx}, {"Fpy", s.fpy}, {"Spx", s.spx}, {"Spy", s.spy}});
    const int spanX = s.dcx * (s.fcx - 1) + 1, spanY = s.dcy * (s.fcy - 1) + 1;
    requirePadding(Name, "the convolution padding", s.convPad, spanX, spanY);
    const int paddedW = s.width + s.convPad.left + s.convPad.right;
    const int paddedH = s.height + s.convPad.top + s.convPad.bottom;
    if (spanX > paddedW || spanY > paddedH)
        layerError(Name, "the " + std::to_string(spanX) + "x" + std::to_string(spanY) +
                             " filter window is larger than the " + std::to_string(s.width) + "x" +
                             std::to_string(s.height) + " input with its padding");
    g.convW = (paddedW - spanX) / s.scx + 1;
    g.convH = (paddedH - spanY) / s.scy + 1;
    requirePadding(Name, "the pooling padding", s.poolPad, s.fpx, s.fpy);
    const Padding& pp = s.poolPad;
    if (s.fpx > g.convW + pp.left + pp.right || s.fpy > g.convH + pp.top + pp.bottom)
        layerError(Name, "the pooling window is larger than the " + std::to_string(g.convW) + "x" +
                             std::to_string(g.convH) + " convolution output with its padding");
    g.convPad = s.convPad;
    g.poolPad = pp;
    g.accumulatorH = g.convH + pp.top + pp.bottom;
    g.inPadBefore = s.convPad.top + pp.top * s.scy;
    g.inPadAfter = s.convPad.bottom + pp.bottom * s.scy;
    g.outW = (g.convW + pp.left + pp.right - s.fpx) / s.spx + 1;
    g.outH = (g.accumulatorH - s.fpy) / s.spy + 1;
    // Lines shared by neighbouring tiles: pooling windows wider than their stride, then the
    // convolution window (scaled by its stride) on top of that.
    g.convOverlap = s.fpy > s.spy ? s.fpy - s.spy : 0;
    g.inOverlap = s.scy * g.convOverlap + (spanY > s.scy ? spanY - s.scy : 0);
    g.Fpx = s.fpx, g.Fpy = s.fpy, g.Spx = s.spx, g.Spy = s.spy;
    return g;
}

// ConvPad / PoolPad of the SDK-named generators: a flag, 0 no padding or 1 "same" zero padding.
inline void requirePadFlag(const char* Name, const char* what, int flag)
{
    if (flag != 0 && flag != 1)
        layerError(Name, std::string(what) + " is " + std::to_string(flag) +
                             "; it is a flag, as in GreenWaves' generators: 0 no padding, 1 \"same\" zero padding "
                             "(its amount follows from the window, stride and dilation)");
}

// The shape an SDK-named convolution generator describes, its flags turned into padding.
inline ConvLayerShape convShapeFromFlags(const char* Name, int InFeat, int OutFeat, int Width, int Height,
                                         KernelOper_T ConvOper, int Fcx, int Fcy, int Dcx, int Dcy, int Scx, int Scy,
                                         int ConvPad, KernelOper_T PoolOper, int Fpx, int Fpy, int Dpx, int Dpy,
                                         int Spx, int Spy, int PoolPad, AT_PadType padType = PAD_BALANCED_LEFT)
{
    requirePadFlag(Name, "ConvPad", ConvPad);
    requirePadFlag(Name, "PoolPad", PoolPad);
    ConvLayerShape s{InFeat, OutFeat, Width, Height, ConvOper, Fcx, Fcy, Dcx, Dcy, Scx, Scy, {},
                     PoolOper, Fpx, Fpy, Dpx, Dpy, Spx, Spy, {}};
    if (ConvPad && Scx > 0 && Scy > 0)
        s.convPad = sdkSamePadding(Width, Height, Fcx, Fcy, Scx, Scy, Dcx, Dcy, padType);
    if (PoolPad && PoolOper != KOP_NONE && Spx > 0 && Spy > 0) {
        const ConvLayerShape unpooled{InFeat, OutFeat, Width, Height, ConvOper, Fcx, Fcy, Dcx, Dcy, Scx, Scy,
                                      s.convPad, KOP_NONE, 1, 1, 1, 1, 1, 1, {}};
        const ConvLayerGeometry conv = convLayerGeometry(Name, unpooled);
        s.poolPad = sdkSamePadding(conv.convW, conv.convH, Fpx, Fpy, Spx, Spy, Dpx, Dpy, padType);
    }
    return s;
}

// The shape an SDK-named pooling generator describes, its flag turned into padding.
inline PoolLayerShape poolShapeFromFlags(const char* Name, int Feat, int Width, int Height, KernelOper_T PoolOper,
                                         int Fpx, int Fpy, int Dpx, int Dpy, int Spx, int Spy, int PoolPad,
                                         AT_PadType padType = PAD_BALANCED_LEFT)
{
    requirePadFlag(Name, "PoolPad", PoolPad);
    PoolLayerShape s{Feat, Width, Height, PoolOper, Fpx, Fpy, Dpx, Dpy, Spx, Spy, {}};
    if (PoolPad && Spx > 0 && Spy > 0)
        s.pad = sdkSamePadding(Width, Height, Fpx, Fpy, Spx, Spy, Dpx, Dpy, padType);
    return s;
}

// What the C API of a convolution layer cannot say: its MACs, the filters' home layout, the
// padding lines the tiles see and, for depthwise layers, outputs that follow the input planes.
inline void finishConvolutionKernel(const char* Name, const ConvLayerGeometry& g, int InFeat, int OutFeat, int Fcx,
                                    int Fcy)
{
    tessera::tiler::UserKernel& kernel = declaredKernel(Name);
    kernel.operations = std::uint64_t(OutFeat) * unsigned(g.convW) * unsigned(g.convH) *
                        unsigned(g.depthwise ? 1 : InFeat) * unsigned(Fcx) * unsigned(Fcy);
    (void) InFeat;
    for (tessera::tiler::KernelArgument& arg : kernel.args) {
        // Filters are homed [OutFeat][InFeat][Fcy][Fcx], as the SDK documents them; the kernel reads
        // the OutFeat filters of one input feature at a time.
        if (arg.name == "Filter" && !g.depthwise)
            arg.interleavedPlanes = true;
        if (arg.name == "In") {  // zero lines the tiles see, not stored
            arg.padBefore = unsigned(g.inPadBefore);
            arg.padAfter = unsigned(g.inPadAfter);
        }
        if (arg.name == "Out")
            arg.planePerInput = g.depthwise;
    }
}

// The user kernel of a pooling layer alone (CNN_PoolReLU, CNN_PoolAct_SQ8): one feature at a
// time, tiles of lines inside it. With padding the tiles see its zero lines above and below
// the plane (the tile solver's padding lines, not stored), and the basic kernel, told where its
// tile sits in the plane, skips every window position outside the real plane.
struct PoolingLayer {
    const char* name;
    const char* basicKernel;  // KerPoolReLU or KerPoolAct_SQ8
    const char* pointerType;  // of In and Out
    int elementBytes;
    int features, width, height;
    int fpx, fpy, spx, spy;
    Padding pad;
    int poolCode;       // the basic kernel's PoolOper
    unsigned relu;      // the basic kernel's ReLU argument
};

inline void declarePoolingKernel(const PoolingLayer& p)
{
    requirePositive(p.name, {{"Feat", p.features}, {"Width", p.width}, {"Height", p.height}, {"Fpx", p.fpx},
                             {"Fpy", p.fpy}, {"Spx", p.spx}, {"Spy", p.spy}});
    requirePadding(p.name, "the pooling padding", p.pad, p.fpx, p.fpy);
    const int paddedW = p.width + p.pad.left + p.pad.right, paddedH = p.height + p.pad.top + p.pad.bottom;
    if (p.fpx > paddedW || p.fpy > paddedH)
        layerError(p.name, "the pooling window is larger than the " + std::to_string(p.width) + "x" +
                               std::to_string(p.height) + " input with its padding");
    const int outW = (paddedW - p.fpx) / p.spx + 1, outH = (paddedH - p.fpy) / p.spy + 1;
    const int overlap = p.fpy > p.spy ? p.fpy - p.spy : 0;
    UserKernel(p.name, KernelDimensions(unsigned(p.features), unsigned(p.width), unsigned(p.height), 1),
               KernelIterationOrder(KER_DIM3, KER_IN_PLANE, KER_TILE), TILE_HOR,
               CArgs(2, TCArg(p.pointerType, "In"), TCArg(p.pointerType, "Out")),
               Calls(1, Call(p.basicKernel, LOC_INNER_LOOP,
                             Bindings(17, K_Arg("In", KER_ARG_TILE), K_Arg("In", KER_ARG_TILE_W),
                                      K_Arg("In", KER_ARG_TILE_H), Imm(1), K_Arg("Out", KER_ARG_TILE),
                                      K_Arg("Out", KER_ARG_TILE_W), K_Arg("Out", KER_ARG_TILE_H), Imm(p.poolCode),
                                      Imm(p.fpx), Imm(p.fpy), Imm(p.spx), Imm(p.spy), Imm(int(p.relu)),
                                      Imm(p.pad.left), Imm(p.pad.top), K_Arg("In", KER_ARG_TILEOFFSET),
                                      Imm(p.height)))),
               KerArgs(2,
                       KerArg("In", OBJ_IN_DB_3D, unsigned(p.width), unsigned(p.height), p.elementBytes,
                              unsigned(overlap), OBJ_CONSTRAINTS_NONE, 0, "In", 0),
                       KerArg("Out", OBJ_OUT_DB_3D, unsigned(outW), unsigned(outH), p.elementBytes, 0,
                              OBJ_CONSTRAINTS_NONE, 0, "Out", 0)));
    tessera::tiler::UserKernel& kernel = declaredKernel(p.name);
    kernel.operations =
        std::uint64_t(p.features) * unsigned(outW) * unsigned(outH) * unsigned(p.fpx) * unsigned(p.fpy);
    for (tessera::tiler::KernelArgument& arg : kernel.args) {
        arg.planePerInput = arg.name == "Out";
        if (arg.name == "In") {
            arg.padBefore = unsigned(p.pad.top);
            arg.padAfter = unsigned(p.pad.bottom);
        }
    }
}

}  // namespace tessera::gap
