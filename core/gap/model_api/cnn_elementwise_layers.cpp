// Element-wise layers. The activation layer (Sigmoid, Tanh, HardSigmoid, HardSwish, LeakyRelu or
// Swish on every item) sees its tensor as a matrix of lines of at most kLineItems items, tiled
// horizontally: a tile is a run of whole lines, contiguous in memory, and the smallest tile is one
// line whatever the tensor's shape. The channel scaling (a squeeze-and-excitation gate) is tiled
// vertically like the copy layers, every channel of a band of columns, with the gate whole in L1;
// so is the PRelu with one slope per channel, its slopes whole in L1.
// The nearest upsampling is tiled by runs of input lines, each with its FactorY output lines.
#include "cnn_generator_support.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace tessera::gap {
namespace {

constexpr int kLineItems = 256;

// The longest line of at most kLineItems items that divides Items (1 for a large prime).
int lineLength(int Items)
{
    for (int length = std::min(Items, kLineItems); length > 1; --length)
        if (Items % length == 0)
            return length;
    return 1;
}

void requireChannelwise(const char* Name, int DataSize, int Plane, int Channels)
{
    if (DataSize != 1 && DataSize != 2)
        layerError(Name, "data size " + std::to_string(DataSize) + " is neither 1 (SQ8) nor 2 (16-bit)");
    requirePositive(Name, {{"Plane", Plane}, {"Channels", Channels}});
}

// A layer over a CHW tensor of Channels x Plane values with one value per channel of a vector
// argument (VectorName, VectorSize bytes per item) whole in L1, tiled vertically: the basic kernel
// gets In, the tile width, the channel count, the vector, Out, then the immediates.
void declareChannelwise(const char* Name, int DataSize, int Plane, int Channels, const char* basicKernel,
                        const char* VectorName, int VectorSize, const std::vector<int>& immediates)
{
    const char* pointerType = activationPointerType(DataSize);
    const char* vectorType = activationPointerType(VectorSize);
    std::vector<ArgBindingDescr_T*> bindings{K_Arg("In", KER_ARG_TILE), K_Arg("In", KER_ARG_TILE_W), Imm(Channels),
                                              K_Arg(VectorName, KER_ARG_TILE), K_Arg("Out", KER_ARG_TILE)};
    for (int value : immediates)
        bindings.push_back(Imm(value));
    ObjectArena& arena = registry().arena;
    UserKernel(Name, KernelDimensions(1, unsigned(Plane), unsigned(Channels), 1), KernelIterationOrder(KER_DIM2, KER_TILE),
               TILE_VER, CArgs(3, TCArg(pointerType, "In"), TCArg(vectorType, VectorName), TCArg(pointerType, "Out")),
               Calls(1, Call(basicKernel, LOC_INNER_LOOP, arena.makeList(std::move(bindings)))),
               KerArgs(3,
                       KerArg("In", OBJ_IN_DB, unsigned(Plane), unsigned(Channels), unsigned(DataSize), 0,
                              OBJ_CONSTRAINTS_NONE, 0, "In", 0),
                       KerArg(VectorName, OBJ_IN_NTILED, unsigned(Channels), 1, unsigned(VectorSize), 0,
                              OBJ_CONSTRAINTS_NONE, 0, VectorName, 0),
                       KerArg("Out", OBJ_OUT_DB, unsigned(Plane), unsigned(Channels), unsigned(DataSize), 0,
                              OBJ_CONSTRAINTS_NONE, 0, "Out", 0)));
    declaredKernel(Name).operations = std::uint64_t(Plane) * unsigned(Channels);
}

}  // namespace

int activationLayer(const char* Name, int DataSize, int Items, const ActivationArguments& a)
{
    LayerDeclaration layer(Name);
    const char* basicKernel = layerBasicKernel(Name, DataSize, "KerActivation", "KerActivation_SQ8");
    const char* pointerType = activationPointerType(DataSize);
    if (Items < 1)
        layerError(Name, "Items is " + std::to_string(Items) + ", expected at least 1");
    if (a.kind < 0 || a.kind > 5)
        layerError(Name, "activation kind " + std::to_string(a.kind) + " is not one of 0 (sigmoid) to 5 (swish)");
    if (a.inScale < 0 || a.inScale > 32767 || a.outScale < 0 || a.outScale > 32767 || a.inShift < 0 ||
        a.inShift > 62 || a.outShift < 0 || a.outShift > 62)
        layerError(Name, "the input and output multipliers need scales 0 to 32767 and shifts 0 to 62");
    const int width = lineLength(Items), height = Items / width;
    requirePositive(Name, {{"the number of lines of up to 256 items", height}});
    UserKernel(Name, KernelDimensions(1, unsigned(width), unsigned(height), 1), KernelIterationOrder(KER_DIM2, KER_TILE),
               TILE_HOR, CArgs(2, TCArg(pointerType, "In"), TCArg(pointerType, "Out")),
               Calls(1, Call(basicKernel, LOC_INNER_LOOP,
                             Bindings(12, K_Arg("In", KER_ARG_TILE), K_Arg("In", KER_ARG_TILE_W),
                                      K_Arg("In", KER_ARG_TILE_H), K_Arg("Out", KER_ARG_TILE), Imm(a.kind),
                                      Imm(a.inScale), Imm(a.inShift), Imm(a.offset), Imm(a.cap), Imm(a.alpha),
                                      Imm(a.outScale), Imm(a.outShift)))),
               KerArgs(2,
                       KerArg("In", OBJ_IN_DB, unsigned(width), unsigned(height), unsigned(DataSize), 0,
                              OBJ_CONSTRAINTS_NONE, 0, "In", 0),
                       KerArg("Out", OBJ_OUT_DB, unsigned(width), unsigned(height), unsigned(DataSize), 0,
                              OBJ_CONSTRAINTS_NONE, 0, "Out", 0)));
    declaredKernel(Name).operations = std::uint64_t(Items);
    return layer.conclude();
}

int scaleChannels(const char* Name, int DataSize, int Plane, int Channels, int Norm, int Scale, int ScaleN)
{
    LayerDeclaration layer(Name);
    requireChannelwise(Name, DataSize, Plane, Channels);
    const bool sq8 = DataSize == 1;
    if (!sq8 && (Norm < -31 || Norm > 31))
        layerError(Name, "Norm " + std::to_string(Norm) + " is outside -31 to 31");
    if (sq8 && (Scale < 0 || Scale > 32767 || ScaleN < 0 || ScaleN > 62))
        layerError(Name, "Scale must be 0 to 32767 and ScaleN 0 to 62");
    declareChannelwise(Name, DataSize, Plane, Channels,
                       layerBasicKernel(Name, DataSize, "KerScaleChannels", "KerScaleChannels_SQ8"), "Gate", DataSize,
                       sq8 ? std::vector<int>{Scale, ScaleN} : std::vector<int>{Norm});
    return layer.conclude();
}

int preluChannels(const char* Name, int DataSize, int Plane, int Channels, int SlopeQ, int Norm, int Scale, int ScaleN)
{
    LayerDeclaration layer(Name);
    requireChannelwise(Name, DataSize, Plane, Channels);
    const bool sq8 = DataSize == 1;
    if (SlopeQ < 0 || SlopeQ > 15)
        layerError(Name, "SlopeQ " + std::to_string(SlopeQ) + " is outside Q0 to Q15");
    if (!sq8 && (Norm < -31 || Norm + SlopeQ > 31))
        layerError(Name, "Norm " + std::to_string(Norm) + " is outside -31 to " + std::to_string(31 - SlopeQ));
    if (sq8 && (Scale < 0 || Scale > 32767 || ScaleN < 0 || ScaleN + SlopeQ > 62))
        layerError(Name, "Scale must be 0 to 32767 and ScaleN 0 to " + std::to_string(62 - SlopeQ));
    declareChannelwise(Name, DataSize, Plane, Channels,
                       layerBasicKernel(Name, DataSize, "KerPReluChannels", "KerPReluChannels_SQ8"), "Slopes", 2,
                       sq8 ? std::vector<int>{SlopeQ, Scale, ScaleN} : std::vector<int>{SlopeQ, Norm});
    return layer.conclude();
}

int upsampleNearest(const char* Name, int DataSize, int Channels, int Width, int Height, int FactorX, int FactorY)
{
    LayerDeclaration layer(Name);
    const char* basicKernel = layerBasicKernel(Name, DataSize, "KerUpsampleNearest", "KerUpsampleNearest_SQ8");
    const char* pointerType = activationPointerType(DataSize);
    requirePositive(Name, {{"Channels", Channels}, {"Width", Width}, {"Height", Height}, {"FactorX", FactorX},
                           {"FactorY", FactorY}});
    const std::int64_t lines = std::int64_t(Channels) * Height, outWidth = std::int64_t(Width) * FactorX * FactorY;
    if (lines > 65536 || outWidth > 65536)
        layerError(Name, "Channels x Height (" + std::to_string(lines) + ") and Width x FactorX x FactorY (" +
                             std::to_string(outWidth) + ") must each be at most 65536");
    UserKernel(Name, KernelDimensions(1, unsigned(Width), unsigned(lines), 1), KernelIterationOrder(KER_DIM2, KER_TILE),
               TILE_HOR, CArgs(2, TCArg(pointerType, "In"), TCArg(pointerType, "Out")),
               Calls(1, Call(basicKernel, LOC_INNER_LOOP,
                             Bindings(6, K_Arg("In", KER_ARG_TILE), K_Arg("In", KER_ARG_TILE_W),
                                      K_Arg("In", KER_ARG_TILE_H), Imm(FactorX), Imm(FactorY),
                                      K_Arg("Out", KER_ARG_TILE)))),
               KerArgs(2,
                       KerArg("In", OBJ_IN_DB, unsigned(Width), unsigned(lines), unsigned(DataSize), 0,
                              OBJ_CONSTRAINTS_NONE, 0, "In", 0),
                       KerArg("Out", OBJ_OUT_DB, unsigned(outWidth), unsigned(lines), unsigned(DataSize), 0,
                              OBJ_CONSTRAINTS_NONE, 0, "Out", 0)));
    declaredKernel(Name).operations = std::uint64_t(lines) * std::uint64_t(outWidth);
    return layer.conclude();
}

}  // namespace tessera::gap
