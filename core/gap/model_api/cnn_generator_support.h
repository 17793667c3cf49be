// Checks and helpers shared by the CNN generators (16-bit and SQ8).
#pragma once

#include "CNN_Generators.h"
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
inline tessera::tiler::UserKernel& declaredKernel(const char* name)
{
    std::vector<tessera::tiler::UserKernel>& kernels = currentModel().userKernels;
    for (auto kernel = kernels.rbegin(); kernel != kernels.rend(); ++kernel)
        if (kernel->name == name)
            return *kernel;
    layerError(name, "the generated user kernel is missing from the model");
}

// The checked geometry of a convolution + pooling layer, shared by the 16-bit and SQ8 generators.
struct ConvLayerGeometry {
    bool depthwise = false;
    int Fpx = 1, Fpy = 1, Spx = 1, Spy = 1;  // the pooling window (1x1 stride 1 without pooling)
    int convW = 0, convH = 0;                // the convolution's output planes
    int outW = 0, outH = 0;                  // after pooling
    int convOverlap = 0;                     // accumulator lines shared by neighbouring tiles
    int inOverlap = 0;                       // input lines shared by neighbouring tiles
    // Pooling padding (PoolPad): the accumulator tiles see poolPad extra lines above and below the
    // convolution's output (accumulatorH lines in all), computed from inPad = ConvPad + PoolPad * Scy
    // zero input lines; the pooling kernel skips them, and the padding columns, as it pools.
    int poolPad = 0;
    int accumulatorH = 0;
    int inPad = 0;
};

inline ConvLayerGeometry convLayerGeometry(const char* Name, int InFeat, int OutFeat, int Width, int Height,
                                           KernelOper_T ConvOper, int Fcx, int Fcy, int Dcx, int Dcy, int Scx,
                                           int Scy, int ConvPad, KernelOper_T PoolOper, int Fpx, int Fpy, int Dpx,
                                           int Dpy, int Spx, int Spy, int PoolPad)
{
    ConvLayerGeometry g;
    if (ConvOper != KOP_CONV && ConvOper != KOP_CONV_DP && ConvOper != KOP_CONV_DW)
        layerError(Name, "the convolution operation must be KOP_CONV, KOP_CONV_DP or KOP_CONV_DW");
    g.depthwise = ConvOper == KOP_CONV_DW;
    if (g.depthwise && InFeat != OutFeat)
        layerError(Name, "a depthwise convolution (KOP_CONV_DW) needs InFeat == OutFeat, got " +
                             std::to_string(InFeat) + " and " + std::to_string(OutFeat));
    if (PoolOper != KOP_NONE && PoolOper != KOP_MAXPOOL && PoolOper != KOP_AVGPOOL)
        layerError(Name, "the pooling operation must be KOP_NONE, KOP_MAXPOOL or KOP_AVGPOOL");
    if (ConvPad < 0 || ConvPad > 64)
        layerError(Name, "ConvPad is " + std::to_string(ConvPad) + ", expected 0 to 64");
    const bool pooled = PoolOper != KOP_NONE;
    if (!pooled)
        Fpx = Fpy = Spx = Spy = Dpx = Dpy = 1;
    if (Dpx != 1 || Dpy != 1)
        layerError(Name, "pooling dilation must be 1");
    requirePositive(Name, {{"InFeat", InFeat}, {"OutFeat", OutFeat}, {"Width", Width}, {"Height", Height},
                           {"Fcx", Fcx}, {"Fcy", Fcy}, {"Dcx", Dcx}, {"Dcy", Dcy}, {"Scx", Scx}, {"Scy", Scy},
                           {"Fpx", Fpx}, {"Fpy", Fpy}, {"Spx", Spx}, {"Spy", Spy}});
    const int spanX = Dcx * (Fcx - 1) + 1, spanY = Dcy * (Fcy - 1) + 1;
    // The tiles see the input with its ConvPad zero lines above and below (the tile solver's
    // padding lines); the basic kernel adds the zero columns left and right.
    const int paddedW = Width + 2 * ConvPad, paddedH = Height + 2 * ConvPad;
    if (spanX > paddedW || spanY > paddedH)
        layerError(Name, "the " + std::to_string(spanX) + "x" + std::to_string(spanY) +
                             " filter window is larger than the " + std::to_string(Width) + "x" +
                             std::to_string(Height) + " input with its padding of " + std::to_string(ConvPad));
    g.convW = (paddedW - spanX) / Scx + 1;
    g.convH = (paddedH - spanY) / Scy + 1;
    if (!pooled && PoolPad != 0)
        layerError(Name, "PoolPad is " + std::to_string(PoolPad) + " without pooling; give 0 or a pooling operation");
    if (PoolPad < 0 || (pooled && (PoolPad >= Fpx || PoolPad >= Fpy)))
        layerError(Name, "PoolPad is " + std::to_string(PoolPad) + "; it must be at least 0 and smaller than the " +
                             std::to_string(Fpx) + "x" + std::to_string(Fpy) +
                             " pooling window, so that every window meets the convolution output");
    if (Fpx > g.convW + 2 * PoolPad || Fpy > g.convH + 2 * PoolPad)
        layerError(Name, "the pooling window is larger than the " + std::to_string(g.convW) + "x" +
                             std::to_string(g.convH) + " convolution output with its padding of " +
                             std::to_string(PoolPad));
    g.poolPad = PoolPad;
    g.accumulatorH = g.convH + 2 * PoolPad;
    g.inPad = ConvPad + PoolPad * Scy;
    g.outW = (g.convW + 2 * PoolPad - Fpx) / Spx + 1;
    g.outH = (g.accumulatorH - Fpy) / Spy + 1;
    // Lines shared by neighbouring tiles: pooling windows wider than their stride, then the
    // convolution window (scaled by its stride) on top of that.
    g.convOverlap = Fpy > Spy ? Fpy - Spy : 0;
    g.inOverlap = Scy * g.convOverlap + (spanY > Scy ? spanY - Scy : 0);
    g.Fpx = Fpx, g.Fpy = Fpy, g.Spx = Spx, g.Spy = Spy;
    return g;
}

// What the C API of a convolution layer cannot say: its MACs, the input-feature-major filter layout
// of the graph's constants, the padding lines the tiles see and, for depthwise layers, outputs that
// follow the input planes.
inline void finishConvolutionKernel(const char* Name, const ConvLayerGeometry& g, int InFeat, int OutFeat, int Fcx,
                                    int Fcy)
{
    tessera::tiler::UserKernel& kernel = declaredKernel(Name);
    kernel.operations = std::uint64_t(OutFeat) * unsigned(g.convW) * unsigned(g.convH) *
                        unsigned(g.depthwise ? 1 : InFeat) * unsigned(Fcx) * unsigned(Fcy);
    // Filter constants come [OutFeat][InFeat][Fcy][Fcx]; graphs store them input-feature major.
    for (tessera::tiler::KernelArgument& arg : kernel.args) {
        if (arg.name == "Filter" && !g.depthwise) {
            arg.constantOuter = unsigned(OutFeat);
            arg.constantInner = unsigned(InFeat);
        }
        if (arg.name == "In")
            arg.padBefore = arg.padAfter = unsigned(g.inPad);  // zero lines the tiles see, not stored
        if (arg.name == "Out")
            arg.planePerInput = g.depthwise;
    }
}

// The user kernel of a pooling layer alone (CNN_PoolReLU, CNN_PoolAct_SQ8): one feature at a
// time, tiles of lines inside it. With PoolPad the tiles see PoolPad zero lines above and below
// the plane (the tile solver's padding lines, not stored), and the basic kernel, told where its
// tile sits in the plane, skips every window position outside the real plane.
struct PoolingLayer {
    const char* name;
    const char* basicKernel;  // KerPoolReLU or KerPoolAct_SQ8
    const char* pointerType;  // of In and Out
    int elementBytes;
    int features, width, height;
    int fpx, fpy, spx, spy, pad;
    int poolCode;       // the basic kernel's PoolOper
    unsigned relu;      // the basic kernel's ReLU argument
};

inline void declarePoolingKernel(const PoolingLayer& p)
{
    requirePositive(p.name, {{"Feat", p.features}, {"Width", p.width}, {"Height", p.height}, {"Fpx", p.fpx},
                             {"Fpy", p.fpy}, {"Spx", p.spx}, {"Spy", p.spy}});
    if (p.pad < 0 || p.pad >= p.fpx || p.pad >= p.fpy)
        layerError(p.name, "PoolPad is " + std::to_string(p.pad) + "; it must be at least 0 and smaller than the " +
                               std::to_string(p.fpx) + "x" + std::to_string(p.fpy) +
                               " window, so that every window meets the input");
    if (p.fpx > p.width + 2 * p.pad || p.fpy > p.height + 2 * p.pad)
        layerError(p.name, "the pooling window is larger than the " + std::to_string(p.width) + "x" +
                               std::to_string(p.height) + " input with its padding of " + std::to_string(p.pad));
    const int outW = (p.width + 2 * p.pad - p.fpx) / p.spx + 1, outH = (p.height + 2 * p.pad - p.fpy) / p.spy + 1;
    const int overlap = p.fpy > p.spy ? p.fpy - p.spy : 0;
    UserKernel(p.name, KernelDimensions(unsigned(p.features), unsigned(p.width), unsigned(p.height), 1),
               KernelIterationOrder(KER_DIM3, KER_IN_PLANE, KER_TILE), TILE_HOR,
               CArgs(2, TCArg(p.pointerType, "In"), TCArg(p.pointerType, "Out")),
               Calls(1, Call(p.basicKernel, LOC_INNER_LOOP,
                             Bindings(16, K_Arg("In", KER_ARG_TILE), K_Arg("In", KER_ARG_TILE_W),
                                      K_Arg("In", KER_ARG_TILE_H), Imm(1), K_Arg("Out", KER_ARG_TILE),
                                      K_Arg("Out", KER_ARG_TILE_W), K_Arg("Out", KER_ARG_TILE_H), Imm(p.poolCode),
                                      Imm(p.fpx), Imm(p.fpy), Imm(p.spx), Imm(p.spy), Imm(int(p.relu)), Imm(p.pad),
                                      K_Arg("In", KER_ARG_TILEOFFSET), Imm(p.height)))),
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
        if (arg.name == "In")
            arg.padBefore = arg.padAfter = unsigned(p.pad);
    }
}

}  // namespace tessera::gap
