// Copy layers: a concatenation along channels, a run of channels (Split, Slice), a channel
// shuffle. In CHW order a tensor is a [channels][H x W] matrix and these layers move its rows: a
// concatenation copies each input into its rows of the output. They are tiled vertically: a tile
// is a band of columns of every channel of every argument, so all of them iterate together
// whatever their channel counts, and any of them may live in L3. A concatenation along H or W
// joins lines instead: it is tiled horizontally, a tile a run of lines of every argument.
#include "cnn_generator_support.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tessera::gap {

namespace {

// How input k of a concatenation reaches the output's format: a shift (16-bit) or a multiplier (SQ8).
void requireConcatInput(const char* Name, bool sq8, const ConcatInput& input, size_t k)
{
    const std::string what = "input " + std::to_string(k) + ": ";
    if (sq8 && (input.scale < 0 || input.scale > 32767 || input.scaleN < 0 || input.scaleN > 62))
        layerError(Name, what + "Scale must be 0 to 32767 and ScaleN 0 to 62");
    if (!sq8 && (input.norm < -15 || input.norm > 15))
        layerError(Name, what + "Norm " + std::to_string(input.norm) + " is outside -15 to 15");
}

}  // namespace

int concatChannels(const char* Name, int DataSize, int Plane, const std::vector<ConcatInput>& inputs)
{
    LayerDeclaration layer(Name);
    const char* basicKernel = layerBasicKernel(Name, DataSize, "KerCopyRows", "KerCopyRows_SQ8");
    const char* pointerType = activationPointerType(DataSize);
    const bool sq8 = DataSize == 1;
    if (inputs.empty())
        layerError(Name, "a concatenation needs at least one input");
    requirePositive(Name, {{"Plane", Plane}});

    ObjectArena& arena = registry().arena;
    std::vector<std::string> names;
    for (size_t k = 0; k < inputs.size(); ++k)
        names.push_back("In" + std::to_string(k));
    std::vector<CKernel_Arg_T*> cArgs;
    std::vector<CKernelCall_T*> calls;
    std::vector<Object_T*> kerArgs;
    int rows = 0;
    for (size_t k = 0; k < inputs.size(); ++k) {
        const ConcatInput& input = inputs[k];
        requirePositive(Name, {{"the channel count", input.channels}});
        requireConcatInput(Name, sq8, input, k);
        const char* name = names[k].c_str();
        cArgs.push_back(TCArg(pointerType, name));
        std::vector<ArgBindingDescr_T*> bindings{K_Arg(name, KER_ARG_TILE), K_Arg(name, KER_ARG_TILE_W),
                                                  Imm(input.channels), K_Arg("Out", KER_ARG_TILE), Imm(rows)};
        if (sq8) {
            bindings.push_back(Imm(input.scale));
            bindings.push_back(Imm(input.scaleN));
        } else {
            bindings.push_back(Imm(input.norm));
        }
        calls.push_back(Call(basicKernel, LOC_INNER_LOOP, arena.makeList(std::move(bindings))));
        kerArgs.push_back(KerArg(name, OBJ_IN_DB, unsigned(Plane), unsigned(input.channels), unsigned(DataSize), 0,
                                 OBJ_CONSTRAINTS_NONE, 0, name, 0));
        rows += input.channels;
        if (rows > 65536)
            layerError(Name, "the output has more than 65536 channels");
    }
    cArgs.push_back(TCArg(pointerType, "Out"));
    kerArgs.push_back(
        KerArg("Out", OBJ_OUT_DB, unsigned(Plane), unsigned(rows), unsigned(DataSize), 0, OBJ_CONSTRAINTS_NONE, 0, "Out", 0));
    UserKernel(Name, KernelDimensions(1, unsigned(Plane), unsigned(rows), 1), KernelIterationOrder(KER_DIM2, KER_TILE),
               TILE_VER, arena.makeList(std::move(cArgs)), arena.makeList(std::move(calls)),
               arena.makeList(std::move(kerArgs)));
    declaredKernel(Name).operations = std::uint64_t(rows) * unsigned(Plane);
    return layer.conclude();
}

int concatLines(const char* Name, int DataSize, int Lines, const std::vector<ConcatInput>& inputs)
{
    LayerDeclaration layer(Name);
    const char* basicKernel = layerBasicKernel(Name, DataSize, "KerCopyColumns", "KerCopyColumns_SQ8");
    const char* pointerType = activationPointerType(DataSize);
    const bool sq8 = DataSize == 1;
    if (inputs.empty())
        layerError(Name, "a concatenation needs at least one input");
    requirePositive(Name, {{"Lines", Lines}});
    int outWidth = 0;
    for (const ConcatInput& input : inputs) {
        requirePositive(Name, {{"an input's width", input.channels}});
        outWidth += input.channels;
        if (outWidth > 65536)
            layerError(Name, "the output lines are more than 65536 values wide");
    }
    ObjectArena& arena = registry().arena;
    std::vector<std::string> names;
    for (size_t k = 0; k < inputs.size(); ++k)
        names.push_back("In" + std::to_string(k));
    std::vector<CKernel_Arg_T*> cArgs;
    std::vector<CKernelCall_T*> calls;
    std::vector<Object_T*> kerArgs;
    int column = 0;
    for (size_t k = 0; k < inputs.size(); ++k) {
        const ConcatInput& input = inputs[k];
        requireConcatInput(Name, sq8, input, k);
        const char* name = names[k].c_str();
        cArgs.push_back(TCArg(pointerType, name));
        std::vector<ArgBindingDescr_T*> bindings{K_Arg(name, KER_ARG_TILE), Imm(input.channels),
                                                  K_Arg(name, KER_ARG_TILE_H), K_Arg("Out", KER_ARG_TILE),
                                                  Imm(outWidth), Imm(column)};
        if (sq8) {
            bindings.push_back(Imm(input.scale));
            bindings.push_back(Imm(input.scaleN));
        } else {
            bindings.push_back(Imm(input.norm));
        }
        calls.push_back(Call(basicKernel, LOC_INNER_LOOP, arena.makeList(std::move(bindings))));
        kerArgs.push_back(KerArg(name, OBJ_IN_DB, unsigned(input.channels), unsigned(Lines), unsigned(DataSize), 0,
                                 OBJ_CONSTRAINTS_NONE, 0, name, 0));
        column += input.channels;
    }
    cArgs.push_back(TCArg(pointerType, "Out"));
    kerArgs.push_back(KerArg("Out", OBJ_OUT_DB, unsigned(outWidth), unsigned(Lines), unsigned(DataSize), 0,
                             OBJ_CONSTRAINTS_NONE, 0, "Out", 0));
    UserKernel(Name, KernelDimensions(1, unsigned(outWidth), unsigned(Lines), 1),
               KernelIterationOrder(KER_DIM2, KER_TILE), TILE_HOR, arena.makeList(std::move(cArgs)),
               arena.makeList(std::move(calls)), arena.makeList(std::move(kerArgs)));
    declaredKernel(Name).operations = std::uint64_t(Lines) * unsigned(outWidth);
    return layer.conclude();
}

namespace {

// One input, one output, a basic kernel moving rows: the user kernel of a slice or a shuffle.
int rowMove(const char* Name, int DataSize, int Plane, int InRows, int OutRows, const char* basicKernel16,
            const char* basicKernel8, int immediate, std::uint64_t operations)
{
    if (DataSize != 1 && DataSize != 2)
        layerError(Name, "data size " + std::to_string(DataSize) + " is neither 1 (SQ8) nor 2 (16-bit)");
    requirePositive(Name, {{"Plane", Plane}, {"the input channels", InRows}, {"the output channels", OutRows}});
    const bool sq8 = DataSize == 1;
    const char* pointerType = sq8 ? "signed char * __restrict__" : "short int * __restrict__";
    const char* basicKernel = sq8 ? basicKernel8 : basicKernel16;
    if (currentModel().findBasicKernel(basicKernel) == nullptr)
        layerError(Name, std::string("basic kernel ") + basicKernel + " is not declared; call " +
                             (sq8 ? "LoadCNN_SQ8_Library()" : "LoadCNNLibrary()") + " first");
    UserKernel(Name, KernelDimensions(1, unsigned(Plane), unsigned(OutRows), 1), KernelIterationOrder(KER_DIM2, KER_TILE),
               TILE_VER, CArgs(2, TCArg(pointerType, "In"), TCArg(pointerType, "Out")),
               Calls(1, Call(basicKernel, LOC_INNER_LOOP,
                             Bindings(5, K_Arg("In", KER_ARG_TILE), K_Arg("In", KER_ARG_TILE_W), Imm(OutRows),
                                      Imm(immediate), K_Arg("Out", KER_ARG_TILE)))),
               KerArgs(2,
                       KerArg("In", OBJ_IN_DB, unsigned(Plane), unsigned(InRows), unsigned(DataSize), 0,
                              OBJ_CONSTRAINTS_NONE, 0, "In", 0),
                       KerArg("Out", OBJ_OUT_DB, unsigned(Plane), unsigned(OutRows), unsigned(DataSize), 0,
                              OBJ_CONSTRAINTS_NONE, 0, "Out", 0)));
    declaredKernel(Name).operations = operations;
    return 1;
}

}  // namespace

int sliceChannels(const char* Name, int DataSize, int Plane, int InChannels, int Begin, int Count)
{
    LayerDeclaration layer(Name);
    if (Begin < 0 || Count < 1 || Begin + Count > InChannels)
        layerError(Name, "channels " + std::to_string(Begin) + " to " + std::to_string(Begin + Count - 1) +
                             " are not within the input's " + std::to_string(InChannels));
    rowMove(Name, DataSize, Plane, InChannels, Count, "KerSliceRows", "KerSliceRows_SQ8", Begin,
            std::uint64_t(Count) * unsigned(Plane));
    return layer.conclude();
}

int shuffleChannels(const char* Name, int DataSize, int Plane, int Channels, int Groups)
{
    LayerDeclaration layer(Name);
    if (Groups < 1 || Channels % Groups != 0)
        layerError(Name, std::to_string(Channels) + " channels do not make " + std::to_string(Groups) +
                             " groups of the same size");
    rowMove(Name, DataSize, Plane, Channels, Channels, "KerShuffleRows", "KerShuffleRows_SQ8", Groups,
            std::uint64_t(Channels) * unsigned(Plane));
    return layer.conclude();
}

}  // namespace tessera::gap
