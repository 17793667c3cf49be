// A model as the GAP CNN generators see it: a list of layers, each one generator call, between
// activation tensors in CHW order (batch 1). Lowering fills it from the ONNX graph, the quantizer
// adds the Q formats and the fixed-point constants, and the graph builder turns it into generator
// calls and a graph.
#pragma once

#include "interp/fixed_point/activations.h"
#include "interp/fixed_point/pow2_kernels.h"
#include "interp/fixed_point/sq8_kernels.h"
#include "ir/graph.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tessera::gap {

struct GapTensor {
    std::string name;      // C identifier of the graph symbol
    TensorId source = kNoTensor; // the ONNX tensor it holds (views share it: Flatten, Reshape...)
    Shape shape;           // without the batch dimension
    int64_t elements = 0;
    int q = 0;             // Q format (fractional bits), chosen by the 16-bit quantizer
    // SQ8 networks: the real value of an int8 item is item * scale; the softmax output is Q15 int16.
    double scale = 0.0;
    int dataSize = 2;      // bytes per item: 2 (16-bit), 1 (int8)
    // An input of a concatenation done in place (GapLayer::stacked) is written in the
    // concatenation's format: its producer takes this Q format (16-bit) or scale (SQ8) when it is
    // coarser than its own. Unset: -1 and 0.
    int tiedQ = -1;
    double tiedScale = 0.0;
};

// How a network's numbers are represented (tessera compile --quant).
enum class GapQuantization {
    Pow2Int16,      // 16-bit power-of-two Q formats (the CNN generators)
    SymmetricInt8,  // 8-bit, a scale per tensor and per output feature (the SQ8 generators)
};

enum class GapLayerKind { Convolution, Pooling, GlobalAveragePool, Linear, Softmax, Add, Subtract, Concat, Slice,
                          Shuffle, Activation, ChannelScale, Upsample, ChannelPRelu };

const char* gapLayerKindName(GapLayerKind kind);

struct GapLayer {
    GapLayerKind kind = GapLayerKind::Convolution;
    std::string name;                // C identifier of the user kernel and graph node
    std::vector<std::string> nodes;  // the ONNX nodes fused into this layer, in order
    std::vector<int> inputs;         // activation tensors (indices into GapNetwork::tensors)
    int output = -1;

    // The ONNX tensor whose values the layer normalizes to its output format before pooling and
    // ReLU (convolution and linear layers): its range decides the output Q format.
    TensorId normalized = kNoTensor;

    fixed_point::ConvPoolReluParams conv;  // Convolution; its Q fields are set by the quantizer
    std::string poolNode;                  // Convolution with a fused pooling: the pooling's node
    TensorId poolInput = kNoTensor;        // and the ONNX tensor it reads
    fixed_point::PoolReluParams pool;      // Pooling
    int inDim = 0;                         // Linear
    int outDim = 0;
    bool relu = false;                     // Linear, Add, Subtract
    bool relu6 = false;                    // Convolution, Linear: the ReLU is capped at 6 (KOP_RELUN)

    // Float constants: convolution [Cout][Cin][Fy][Fx] (depthwise [C][Fy][Fx]), linear [Out][In];
    // batch normalization already folded in.
    std::vector<float> weights;
    std::vector<float> bias;

    // Set by the quantizer.
    int weightsQ = 0;
    int biasQ = 0;
    std::vector<int16_t> quantizedWeights;
    std::vector<int16_t> quantizedBias;

    // Set by the SQ8 quantizer.
    std::vector<int8_t> weights8;
    std::vector<int32_t> bias32;                   // in the accumulator's scale, per output feature
    fixed_point::sq8::ChannelScales channelScales; // requantization per output feature
    int actCap = 0;                                // ReLU6: the cap in the output's int8 units
    // Linear, Add, pooling on the SDK's contract, global average pooling: the SDK's Infos bytes their
    // kernels read.
    fixed_point::sq8::LayerInfos infos;
    int addScale1 = 0, addScale2 = 0, addShift = 0; // Subtract: both inputs to the output's scale
    fixed_point::sq8::Multiplier softmaxInput;     // Softmax: the int8 input to Q softmaxInputQ
    int softmaxInputQ = 0;

    // ChannelScale: inputs x [C][H][W] and gate [C]; plane and channels as below, and (SQ8) the
    // multiplier from x's scale times the gate's to the output's in inputScales[0].
    // Concat (along channels): the values of one channel (H x W, 1 for [1, N] vectors), each
    // input's channel count, and (SQ8) each input's multiplier to the output's scale. Slice and
    // Shuffle: plane and channels (the input's) too; Slice copies sliceCount channels from
    // sliceBegin on, Shuffle interleaves `groups` groups.
    int plane = 0;
    std::vector<int> channels;
    std::vector<fixed_point::sq8::Multiplier> inputScales;
    // Concat along H or W: every input is concatLines lines (C, or C x H) and `channels` holds the
    // width of each input's lines (H_k x W, or W_k) instead of its channel count.
    int concatLines = 0;
    // Concat along channels, or Slice of a Split, done in place (stacked_layers.h): the producers
    // write into, or the readers read from, their parts of one tensor, so the layer is no
    // generator call and no graph node.
    bool stacked = false;
    int sliceBegin = 0, sliceCount = 0;
    int groups = 0;

    // Activation: which one, the ONNX alpha and beta it was given (HardSigmoid: clip(alpha * x +
    // beta, 0, 1); HardSwish: alpha 1/6, beta 1/2; LeakyRelu: alpha the negative slope), and the
    // integer parameters the quantizer derives from them.
    fixed_point::ActivationParams activation;
    double activationAlpha = 0.0, activationBeta = 0.0;

    // ChannelPRelu: plane and channels as for ChannelScale, the float slopes in `weights`, their
    // int16 values in `quantizedWeights` in Q weightsQ (in both quantizations) and (SQ8) the
    // multiplier from the input's scale to the output's in inputScales[0].

    // Upsample: the input's pool.features x pool.height x pool.width, each value repeated
    // factorX times along W and factorY times along H.
    int factorX = 1, factorY = 1;

    bool hasConstants() const { return kind == GapLayerKind::Convolution || kind == GapLayerKind::Linear; }
    // An SQ8 pooling layer goes through the SDK's contract (CNN_PoolAct_SQ8) when no window leaves
    // the plane: the SDK pools padding as zeros, ONNX skips it (those layers keep Tessera's own kernel).
    bool poolsOnSdkContract() const { return kind == GapLayerKind::Pooling && pool.pad == 0 && !pool.ceilMode; }
};

struct GapNetwork {
    std::string name;  // C identifier of the graph
    std::vector<GapTensor> tensors;
    std::vector<GapLayer> layers;  // in execution order
    std::vector<int> inputs;       // graph inputs, in the ONNX input order
    std::vector<int> outputs;      // graph outputs, in the ONNX output order
    GapQuantization quantization = GapQuantization::Pow2Int16;
};

// A C identifier from an ONNX name: letters, digits and '_' kept, anything else '_', never
// starting with a digit.
std::string cIdentifier(const std::string& name);

}  // namespace tessera::gap
