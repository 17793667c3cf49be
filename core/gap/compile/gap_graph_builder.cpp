#include "gap/compile/gap_graph_builder.h"
#include "gap/compile/stacked_layers.h"

#include "CNN_Generators.h"
#include "gap/model_api/cnn_layers.h"
#include "gap/model_api/model_registry.h"
#include "base/error.h"
#include "tiler/code_generator.h"
#include "tiler/model_check.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <type_traits>

namespace tessera::gap {
namespace {

constexpr const char* kShortPointer = "short int *__restrict__";

KernelOper_T poolOperation(fixed_point::ConvPoolReluParams::Pool pool)
{
    switch (pool) {
    case fixed_point::ConvPoolReluParams::Pool::Max: return KOP_MAXPOOL;
    case fixed_point::ConvPoolReluParams::Pool::Average: return KOP_AVGPOOL;
    case fixed_point::ConvPoolReluParams::Pool::None: break;
    }
    return KOP_NONE;
}

KernelOper_T matAddOperation(const GapLayer& layer)
{
    if (layer.kind == GapLayerKind::Subtract)
        return layer.relu ? KOP_MATSUB_RELU : KOP_MATSUB;
    return layer.relu ? KOP_MATADD_RELU : KOP_MATADD;
}

KernelOper_T reluOperation(bool relu, bool relu6 = false)
{
    return relu6 ? KOP_RELUN : relu ? KOP_RELU : KOP_NONE;
}

// Pooling padding of `pad` on every side, and in ceil mode as much more below and right as the
// last window, which the rounded-up output count keeps, reaches past the plane.
Padding poolPadding(int pad, int height, int width, int outHeight, int outWidth, int windowY, int windowX,
                    int strideY, int strideX)
{
    Padding padding = Padding::uniform(pad);
    padding.bottom = std::max(pad, (outHeight - 1) * strideY + windowY - height - pad);
    padding.right = std::max(pad, (outWidth - 1) * strideX + windowX - width - pad);
    return padding;
}

// The generators' shapes of the lowered layers: ONNX pads every side alike.
ConvLayerShape convShape(const fixed_point::ConvPoolReluParams& c)
{
    const bool pooled = c.pool != fixed_point::ConvPoolReluParams::Pool::None;
    ConvLayerShape shape;
    shape.inFeat = c.inFeatures;
    shape.outFeat = c.outFeatures;
    shape.width = c.width;
    shape.height = c.height;
    shape.convOper = c.depthwise ? KOP_CONV_DW : KOP_CONV;
    shape.fcx = c.filterWidth;
    shape.fcy = c.filterHeight;
    shape.dcx = c.dilationX;
    shape.dcy = c.dilationY;
    shape.scx = c.strideX;
    shape.scy = c.strideY;
    shape.convPad = Padding::uniform(c.pad);
    shape.poolOper = poolOperation(c.pool);
    if (pooled) {
        shape.fpx = c.poolWidth;
        shape.fpy = c.poolHeight;
        shape.spx = c.poolStrideX;
        shape.spy = c.poolStrideY;
        const fixed_point::ConvPoolReluShape out = fixed_point::convPoolReluOutputShape(c);
        shape.poolPad = poolPadding(c.poolPad, out.convHeight, out.convWidth, out.height, out.width, c.poolHeight,
                                    c.poolWidth, c.poolStrideY, c.poolStrideX);
    }
    return shape;
}

PoolLayerShape poolShape(const fixed_point::PoolReluParams& p)
{
    PoolLayerShape shape;
    shape.features = p.features;
    shape.width = p.width;
    shape.height = p.height;
    shape.poolOper = poolOperation(p.pool);
    shape.fpx = p.poolWidth;
    shape.fpy = p.poolHeight;
    shape.spx = p.strideX;
    shape.spy = p.strideY;
    const auto [outHeight, outWidth] = fixed_point::poolOutputShape("pooling", p);
    shape.pad = poolPadding(p.pad, p.height, p.width, int(outHeight), int(outWidth), p.poolHeight, p.poolWidth,
                            p.strideY, p.strideX);
    return shape;
}

// The inputs of a concatenation as the copy layer takes them: channel counts and the conversion to
// the output's format.
std::vector<ConcatInput> concatInputs(const GapNetwork& network, const GapLayer& layer)
{
    std::vector<ConcatInput> inputs;
    const int outQ = network.tensors[size_t(layer.output)].q;
    for (size_t k = 0; k < layer.inputs.size(); ++k) {
        ConcatInput input;
        input.channels = layer.channels.at(k);
        input.norm = network.tensors[size_t(layer.inputs[k])].q - outQ;
        if (k < layer.inputScales.size()) {
            input.scale = layer.inputScales[k].scale;
            input.scaleN = layer.inputScales[k].shift;
        }
        inputs.push_back(input);
    }
    return inputs;
}

// The copy layers (Concat, Slice, Shuffle) in DataSize bytes per item.
void declareCopyLayer(const GapNetwork& network, const GapLayer& layer, int dataSize)
{
    const char* name = layer.name.c_str();
    if (layer.kind == GapLayerKind::Concat && layer.concatLines > 0)
        concatLines(name, dataSize, layer.concatLines, concatInputs(network, layer));
    else if (layer.kind == GapLayerKind::Concat)
        concatChannels(name, dataSize, layer.plane, concatInputs(network, layer));
    else if (layer.kind == GapLayerKind::Slice)
        sliceChannels(name, dataSize, layer.plane, layer.channels.at(0), layer.sliceBegin, layer.sliceCount);
    else
        shuffleChannels(name, dataSize, layer.plane, layer.channels.at(0), layer.groups);
}

// An activation layer over the items of its input, in DataSize bytes per item.
void declareActivationLayer(const GapNetwork& network, const GapLayer& layer, int dataSize)
{
    const fixed_point::ActivationParams& p = layer.activation;
    ActivationArguments arguments;
    arguments.kind = int(p.kind);
    arguments.inScale = p.inScale;
    arguments.inShift = p.inShift;
    arguments.offset = p.offset;
    arguments.cap = p.cap;
    arguments.alpha = p.alpha;
    arguments.outScale = p.outScale;
    arguments.outShift = p.outShift;
    activationLayer(layer.name.c_str(), dataSize, int(network.tensors[size_t(layer.inputs.at(0))].elements), arguments);
}

// One generator call per layer; every data size is 2 (16-bit) and tensor homes are left to the graph
// (the *_InL3 flags are 0).
void declareLayer(const GapNetwork& network, const GapLayer& layer)
{
    const char* name = layer.name.c_str();
    const int inQ = network.tensors[size_t(layer.inputs.at(0))].q;
    const int outQ = network.tensors[size_t(layer.output)].q;
    switch (layer.kind) {
    case GapLayerKind::Convolution:
        convolutionPoolReLU(name, convShape(layer.conv), layer.conv.inQ, layer.conv.filterQ, layer.conv.biasQ,
                            layer.conv.outQ, reluOperation(layer.conv.relu, layer.relu6));
        break;
    case GapLayerKind::Pooling:
        poolReLU(name, poolShape(layer.pool), inQ, reluOperation(layer.pool.relu));
        break;
    case GapLayerKind::GlobalAveragePool:
        CNN_GlobalPool(name, nullptr, 2, 2, inQ, outQ, 0, 0, layer.pool.features, layer.pool.width, layer.pool.height,
                       KOP_GLOBAL_AVGPOOL);
        break;
    case GapLayerKind::Linear:
        CNN_LinearReLU(name, nullptr, 2, 2, 2, 2, inQ, layer.weightsQ, layer.biasQ, outQ, 0, 0, 0, 0, layer.inDim,
                       layer.outDim, KOP_LINEAR, reluOperation(layer.relu, layer.relu6));
        break;
    case GapLayerKind::Softmax:
        CNN_SoftMax(name, nullptr, 2, 2, inQ, outQ, 0, 0, int(network.tensors[size_t(layer.output)].elements),
                    KOP_SOFTMAX);
        break;
    case GapLayerKind::Add:
    case GapLayerKind::Subtract:
        CNN_MatAdd(name, nullptr, 2, 2, 2, inQ, network.tensors[size_t(layer.inputs.at(1))].q, outQ, 0, 0, 0,
                   layer.pool.features, layer.pool.features, layer.pool.width, layer.pool.height,
                   matAddOperation(layer));
        break;
    case GapLayerKind::Concat:
    case GapLayerKind::Slice:
    case GapLayerKind::Shuffle:
        declareCopyLayer(network, layer, 2);
        break;
    case GapLayerKind::Activation:
        declareActivationLayer(network, layer, 2);
        break;
    case GapLayerKind::ChannelPRelu:
        preluChannels(name, 2, layer.plane, layer.channels.at(0), layer.weightsQ, inQ - outQ, 1, 0);
        break;
    case GapLayerKind::Upsample:
        upsampleNearest(name, 2, layer.pool.features, layer.pool.width, layer.pool.height, layer.factorX,
                        layer.factorY);
        break;
    case GapLayerKind::ChannelScale:
        scaleChannels(name, 2, layer.plane, layer.channels.at(0),
                      inQ + network.tensors[size_t(layer.inputs.at(1))].q - outQ, 1, 0);
        break;
    }
}

// The SQ8 generator call of a layer (docs/gap-fixed-point.md, "SQ8").
void declareSq8Layer(const GapNetwork& network, const GapLayer& layer)
{
    const char* name = layer.name.c_str();
    switch (layer.kind) {
    case GapLayerKind::Convolution:
        convolutionPoolAct_SQ8(name, convShape(layer.conv), reluOperation(layer.conv.relu, layer.relu6), layer.actCap);
        break;
    case GapLayerKind::Pooling:
        if (layer.poolsOnSdkContract())
            sdkPoolAct_SQ8(name, poolShape(layer.pool), reluOperation(layer.pool.relu));
        else
            poolAct_SQ8(name, poolShape(layer.pool), reluOperation(layer.pool.relu), 0);
        break;
    case GapLayerKind::GlobalAveragePool:
        sdkGlobalPoolAct_SQ8(name, layer.pool.features, layer.pool.width, layer.pool.height, KOP_GLOBAL_AVGPOOL,
                             KOP_NONE);
        break;
    case GapLayerKind::Linear:
        CNN_LinearAct_SQ8(name, nullptr, 4, 1, layer.inDim, layer.outDim, KOP_LINEAR,
                          reluOperation(layer.relu, layer.relu6));
        break;
    case GapLayerKind::Softmax:
        // Tessera's own: any input scale (the SDK's softmax needs a power of two, which costs the
        // input up to a bit of resolution; docs/gap-fixed-point.md, "Softmax on the SDK's contract").
        scaledSoftMax_SQ8(name, int(network.tensors[size_t(layer.output)].elements), layer.softmaxInput.scale,
                          layer.softmaxInput.shift, layer.softmaxInputQ);
        break;
    case GapLayerKind::Add:
        CNN_MatAddAct_SQ8(name, nullptr, layer.pool.features, layer.pool.width, layer.pool.height, KOP_MATADD,
                          reluOperation(layer.relu));
        break;
    case GapLayerKind::Subtract:
        CNN_MatAdd_SQ8(name, nullptr, layer.pool.features, layer.pool.width, layer.pool.height, matAddOperation(layer),
                       layer.addScale1, layer.addScale2, layer.addShift);
        break;
    case GapLayerKind::Concat:
    case GapLayerKind::Slice:
    case GapLayerKind::Shuffle:
        declareCopyLayer(network, layer, 1);
        break;
    case GapLayerKind::Activation:
        declareActivationLayer(network, layer, 1);
        break;
    case GapLayerKind::ChannelScale:
        scaleChannels(name, 1, layer.plane, layer.channels.at(0), 0, layer.inputScales.at(0).scale,
                      layer.inputScales.at(0).shift);
        break;
    case GapLayerKind::ChannelPRelu:
        preluChannels(name, 1, layer.plane, layer.channels.at(0), layer.weightsQ, 0, layer.inputScales.at(0).scale,
                      layer.inputScales.at(0).shift);
        break;
    case GapLayerKind::Upsample:
        upsampleNearest(name, 1, layer.pool.features, layer.pool.width, layer.pool.height, layer.factorX,
                        layer.factorY);
        break;
    }
}

// One constant of a layer: its graph symbol and the ConstInfo.
struct LayerConstant {
    std::string symbol;
    std::string cType;
    int bits = 16;
    int q = 0;                  // fractional bits of 16-bit constants
    bool beforeOutput = false;  // the generator takes it before the output (filters, biases)
};

// Layers whose SQ8 kernels are the SDK's read the layer's Infos, their last argument.
bool takesInfos(const GapNetwork& network, const GapLayer& layer)
{
    return network.quantization == GapQuantization::SymmetricInt8 &&
           (layer.kind == GapLayerKind::Linear || layer.kind == GapLayerKind::Add ||
            layer.kind == GapLayerKind::GlobalAveragePool || layer.poolsOnSdkContract());
}

// The constants a layer's node takes after its activations, in the generator's argument order.
std::vector<LayerConstant> layerConstants(const GapNetwork& network, const GapLayer& layer)
{
    if (layer.kind == GapLayerKind::ChannelPRelu)  // the slopes, int16 in both quantizations
        return {{layer.name + "_A", kShortPointer, 16, layer.weightsQ, true}};
    std::vector<LayerConstant> constants;
    if (layer.hasConstants() && network.quantization == GapQuantization::SymmetricInt8)
        constants = {{layer.name + "_W", "signed char *__restrict__", 8, 0, true},
                     {layer.name + "_B", "int *__restrict__", 32, 0, true},
                     {layer.name + "_S", "unsigned char *__restrict__", 8},
                     {layer.name + "_N", "unsigned char *__restrict__", 8}};
    else if (layer.hasConstants())
        constants = {{layer.name + "_W", kShortPointer, 16, layer.weightsQ, true},
                     {layer.name + "_B", kShortPointer, 16, layer.biasQ, true}};
    if (takesInfos(network, layer))
        constants.push_back({layer.name + "_I", "signed char *__restrict__", 8});
    return constants;
}

// The C pointer type of an activation tensor.
std::string activationType(const GapTensor& tensor)
{
    return tensor.dataSize == 1 ? "signed char *__restrict__" : kShortPointer;
}

struct GraphSymbolLists {
    std::vector<CKernel_Arg_T*> arguments;  // inputs, constants, outputs
    std::vector<CKernel_Arg_T*> locals;
};

// The graph's symbols: inputs in L2, constants from the flash image, locals for the activations.
// The constants' values are attached to the built model (ConstantSource::values): their ConstInfo
// names no file that is read.
GraphSymbolLists graphSymbols(const GapNetwork& network)
{
    GraphSymbolLists lists;
    std::vector<bool> isArgument(network.tensors.size(), false);
    std::vector<bool> isStackMember(network.tensors.size(), false);  // parts of a stacked tensor, not symbols
    for (const TensorStack& stack : tensorStacks(network))
        for (int part : stack.parts)
            isStackMember[size_t(part)] = true;
    for (int input : network.inputs) {
        isArgument[size_t(input)] = true;
        lists.arguments.push_back(TCArgInfo(activationType(network.tensors[size_t(input)]).c_str(),
                                            network.tensors[size_t(input)].name.c_str(), ARG_SCOPE_ARG, ARG_DIR_IN,
                                            AT_MEM_L2, AT_MEM_UNDEF, nullptr));
    }
    for (const GapLayer& layer : network.layers) {
        for (const LayerConstant& constant : layerConstants(network, layer)) {
            const std::string name = constant.symbol + ".tensor";
            lists.arguments.push_back(TCArgInfo(constant.cType.c_str(), constant.symbol.c_str(), ARG_SCOPE_GLOBAL,
                                                ARG_DIR_CONSTIN, AT_MEM_L3_DEFAULTFLASH, AT_MEM_UNDEF,
                                                ConstInfo(name.c_str(), 1, 1, constant.bits, constant.q)));
        }
    }
    for (int output : network.outputs) {
        isArgument[size_t(output)] = true;
        lists.arguments.push_back(TCArgInfo(activationType(network.tensors[size_t(output)]).c_str(),
                                            network.tensors[size_t(output)].name.c_str(), ARG_SCOPE_ARG, ARG_DIR_OUT,
                                            AT_MEM_UNDEF, AT_MEM_L2, nullptr));
    }
    for (size_t t = 0; t < network.tensors.size(); ++t)
        if (!isArgument[t] && !isStackMember[t])
            lists.locals.push_back(TCArgInfo(activationType(network.tensors[t]).c_str(), network.tensors[t].name.c_str(),
                                             ARG_SCOPE_LOCAL, ARG_DIR_INOUT, AT_MEM_UNDEF, AT_MEM_UNDEF, nullptr));
    return lists;
}

void addNode(const GapNetwork& network, const GapLayer& layer)
{
    ObjectArena& arena = registry().arena;
    std::vector<ArgBindingDescr_T*> bindings;
    for (int input : layer.inputs)
        bindings.push_back(GNodeArg(GNA_IN, network.tensors[size_t(input)].name.c_str(), 0));
    const std::vector<LayerConstant> constants = layerConstants(network, layer);
    // The generators' C arguments: In, Filter, Bias, Out, then (SQ8) Scale, ScaleN, Infos.
    for (const LayerConstant& constant : constants)
        if (constant.beforeOutput)
            bindings.push_back(GNodeArg(GNA_IN, constant.symbol.c_str(), 0));
    bindings.push_back(GNodeArg(GNA_OUT, network.tensors[size_t(layer.output)].name.c_str(), 0));
    for (const LayerConstant& constant : constants)
        if (!constant.beforeOutput)
            bindings.push_back(GNodeArg(GNA_IN, constant.symbol.c_str(), 0));
    AddNode(layer.name.c_str(), arena.makeList(std::move(bindings)));
}

template <typename Value>
std::shared_ptr<const std::vector<double>> asValues(const std::vector<Value>& items)
{
    return std::make_shared<const std::vector<double>>(items.begin(), items.end());
}

}  // namespace

GapConstantValues gapConstantValues(const GapNetwork& network)
{
    GapConstantValues values;
    for (const GapLayer& layer : network.layers) {
        const std::vector<LayerConstant> constants = layerConstants(network, layer);
        if (constants.empty())
            continue;
        if (takesInfos(network, layer))
            values[constants.back().symbol] = asValues(fixed_point::sq8::infosBytes(layer.infos));
        if (layer.kind == GapLayerKind::ChannelPRelu) {
            values[constants[0].symbol] = asValues(layer.quantizedWeights);
        } else if (!layer.hasConstants()) {
            continue;
        } else if (network.quantization == GapQuantization::SymmetricInt8) {
            values[constants[0].symbol] = asValues(layer.weights8);
            values[constants[1].symbol] = asValues(layer.bias32);
            // Scales and shifts are bytes the kernels read as unsigned char; the image stores the
            // same bytes, taken here as the signed 8-bit items of their ConstInfo.
            values[constants[2].symbol] = asValues(std::vector<int8_t>(layer.channelScales.scale.begin(),
                                                                       layer.channelScales.scale.end()));
            values[constants[3].symbol] = asValues(std::vector<int8_t>(layer.channelScales.shift.begin(),
                                                                       layer.channelScales.shift.end()));
        } else {
            values[constants[0].symbol] = asValues(layer.quantizedWeights);
            values[constants[1].symbol] = asValues(layer.quantizedBias);
        }
    }
    return values;
}

tiler::KernelModel buildGapKernelModel(const GapNetwork& network, const GapBudgets& budgets,
                                       const tiler::TilerCostModel& costModel, const GapConstantValues& values)
{
    if (budgets.privilegedFlash > 0xffffffffu)
        throw Error(fmt::format("the privileged flash budget of {} bytes is out of range; give 0 (none) to "
                                "4294967295 bytes", budgets.privilegedFlash));
    for (const auto& [what, size] : {std::pair{"L1", budgets.l1}, std::pair{"L2", budgets.l2},
                                     std::pair{"L3", budgets.l3}, std::pair{"flash", budgets.flash}})
        if (size == 0 || size > 0xffffffffu)
            throw Error(fmt::format("the {} budget of {} bytes is out of range; give 1 to 4294967295 bytes", what, size));
    const std::string kernelsSource = network.name + "Kernels.c";
    const std::string kernelsHeader = network.name + "Kernels.h";
    const std::string flashImage = gapFlashImageName(network, false);
    const std::string privilegedImage = gapFlashImageName(network, true);

    EmbeddedModelBuild build;
    try {
        currentModel().options.costModel = costModel;
        SetSymbolDynamics();
        const bool sq8 = network.quantization == GapQuantization::SymmetricInt8;
        SetUsedFilesNames(nullptr, 1, sq8 ? "CNN_BasicKernels_SQ8.h" : "CNN_BasicKernels.h");
        SetGeneratedFilesNames(kernelsSource.c_str(), kernelsHeader.c_str());
        const std::string l1 = network.name + "_L1_Memory";
        const std::string l2 = network.name + "_L2_Memory";
        const std::string l3 = network.name + "_L3_Memory";
        SetMemoryDeviceInfos(4, AT_MEM_L1, unsigned(budgets.l1), l1.c_str(), 0, 0, AT_MEM_L2, unsigned(budgets.l2),
                             l2.c_str(), 0, 0, AT_MEM_L3_DEFAULTRAM, unsigned(budgets.l3), l3.c_str(), 0, 0,
                             AT_MEM_L3_DEFAULTFLASH, unsigned(budgets.flash), "0", flashImage.c_str(), 0);
        if (budgets.privilegedFlash > 0) {
            SetMemoryDeviceInfos(1, AT_MEM_L3_MRAMFLASH, unsigned(budgets.privilegedFlash), "0",
                                 privilegedImage.c_str(), 0);
            AT_SetGraphCtrl(AT_GRAPH_PRIVILEGED_L3_HOME, AT_OPT_VAL(AT_MEM_L3_MRAMFLASH));
        }
        AT_SetGraphCtrl(AT_GRAPH_TRACE_EXEC, AT_OPT_OFF);
        // Constants that would take most of L3 RAM are read from flash where they are instead.
        uint64_t constantBytes = 0;
        for (const GapLayer& layer : network.layers)
            constantBytes += 2 * (layer.quantizedWeights.size() + layer.quantizedBias.size()) + layer.weights8.size() +
                             4 * layer.bias32.size() + 2 * layer.channelScales.scale.size() +
                             (takesInfos(network, layer) ? fixed_point::sq8::kInfosBytes : 0);
        if (constantBytes > budgets.l3 / 2)
            AT_SetGraphCtrl(AT_GRAPH_CONST_EXEC_FROM_FLASH, AT_OPT_ON);
        // A stacked Concat or Slice is no kernel: its parts are parts of one tensor (AddStackedTensors).
        if (sq8) {
            LoadCNN_SQ8_Library();
            for (const GapLayer& layer : network.layers)
                if (!layer.stacked)
                    declareSq8Layer(network, layer);
        } else {
            LoadCNNLibrary();
            for (const GapLayer& layer : network.layers)
                if (!layer.stacked)
                    declareLayer(network, layer);
        }
        GraphSymbolLists symbols = graphSymbols(network);
        ObjectArena& arena = registry().arena;
        CreateGraph(network.name.c_str(), arena.makeList(std::move(symbols.arguments)),
                    arena.makeList(std::move(symbols.locals)));
        for (const GapLayer& layer : network.layers)
            if (!layer.stacked)
                addNode(network, layer);
        for (const TensorStack& stack : tensorStacks(network)) {
            std::vector<std::string> parts;
            for (int part : stack.parts)
                parts.push_back(network.tensors[size_t(part)].name);
            stackTensors(network.tensors[size_t(stack.whole)].name, parts);
        }
        CloseGraph();
    } catch (const ModelBuildError& error) {
        throw Error("GAP model of " + network.name + ": " + error.what());
    }
    std::vector<std::string> problems = tiler::checkModel(currentModel());
    if (!problems.empty()) {
        std::string message = "GAP model of " + network.name + " is not valid:";
        for (const std::string& problem : problems)
            message += "\n  " + problem;
        throw Error(message);
    }
    tiler::KernelModel model = currentModel();
    for (tiler::GraphModel& graph : model.graphs)
        for (tiler::GraphArgument& argument : graph.arguments)
            if (argument.hasConstant)
                if (const auto found = values.find(argument.carg.name); found != values.end())
                    argument.constant.values = found->second;
    return model;
}

std::string gapFlashImageName(const GapNetwork& network, bool privileged)
{
    return network.name + (privileged ? "_L3_PrivilegedFlash_Const.dat" : "_L3_Flash_Const.dat");
}

GapGeneration generateGapCode(const GapNetwork& network, const tiler::PlacedModel& placed, const std::string& folder)
{
    GapGeneration generation;
    generation.kernelsSource = network.name + "Kernels.c";
    generation.kernelsHeader = network.name + "Kernels.h";
    const std::string flashImage = gapFlashImageName(network, false);
    const std::string privilegedImage = gapFlashImageName(network, true);
    std::filesystem::create_directories(folder);
    const tiler::GenerationResult result = tiler::generateTilingCode(placed, folder);
    if (!result.ok)
        throw Error(result.error);
    generation.files = result.writtenFiles;
    generation.log = result.log;
    for (const std::string& file : result.writtenFiles) {
        const std::filesystem::path path(file);
        if (path.filename() == flashImage)
            generation.constantsImage = flashImage;
        if (path.filename() == privilegedImage)
            generation.privilegedImage = privilegedImage;
        if (path.extension() == ".c")
            generation.sources.push_back(path.filename().string());
    }
    if (!placed.generated.graphs.empty())
        generation.graph = placed.graphReport(0);
    return generation;
}

}  // namespace tessera::gap
