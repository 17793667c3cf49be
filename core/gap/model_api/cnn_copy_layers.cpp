// Copy layers: a concatenation along channels. In CHW order the inputs of such a concatenation lie
// one after the other in the output, so the layer copies each of them into its rows of the output
// seen as a [channels][H x W] matrix. It is tiled vertically: a tile is a band of columns of every
// channel of every input and of the output, so all of them iterate together whatever their
// channel counts, and any of them may live in L3.
#include "cnn_generator_support.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tessera::gap {

int concatChannels(const char* Name, int DataSize, int Plane, const std::vector<ConcatInput>& inputs)
{
    LayerDeclaration layer(Name);
    if (DataSize != 1 && DataSize != 2)
        layerError(Name, "data size " + std::to_string(DataSize) + " is neither 1 (SQ8) nor 2 (16-bit)");
    if (inputs.empty())
        layerError(Name, "a concatenation needs at least one input");
    requirePositive(Name, {{"Plane", Plane}});
    const bool sq8 = DataSize == 1;
    const char* pointerType = sq8 ? "signed char * __restrict__" : "short int * __restrict__";
    const char* basicKernel = sq8 ? "KerCopyRows_SQ8" : "KerCopyRows";
    if (currentModel().findBasicKernel(basicKernel) == nullptr)
        layerError(Name, std::string("basic kernel ") + basicKernel + " is not declared; call " +
                             (sq8 ? "LoadCNN_SQ8_Library()" : "LoadCNNLibrary()") + " first");

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
        const std::string what = "input " + std::to_string(k) + ": ";
        requirePositive(Name, {{"the channel count", input.channels}});
        if (sq8 && (input.scale < 0 || input.scale > 32767 || input.scaleN < 0 || input.scaleN > 62))
            layerError(Name, what + "Scale must be 0 to 32767 and ScaleN 0 to 62");
        if (!sq8 && (input.norm < -15 || input.norm > 15))
            layerError(Name, what + "Norm " + std::to_string(input.norm) + " is outside -15 to 15");
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

}  // namespace tessera::gap
