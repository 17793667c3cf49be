#include "nvdla/compile/unit_mapping.h"

#include "base/error.h"
#include "ir/topology.h"
#include "nvdla/compile/legalization_passes.h"
#include "nvdla/compile/pooling_split.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>
#include <unordered_map>

namespace tessera::nvdla {

namespace {

using target::NvdlaConfig;

// The window, stride and padding limits of the units (NVDLA's hardware fields; the same as
// ONNC's legalization uses).
constexpr std::int64_t kConvMaxKernel = 32, kConvMaxStride = 8, kConvMaxPad = 31;
constexpr std::int64_t kPoolMaxStride = 8, kPoolMaxPad = 7;  // the firmware takes PDP strides 1..8
constexpr std::uint64_t kBdmaMaxLineBytes = 8192 * 32;       // BDMA's line size register: 13 bits of 32 bytes

// A constant the SDP applies as one value (scalar) or one value per channel of `output`'s cube.
bool isConstantPerChannelOrScalar(const Graph& graph, TensorId id, TensorId output)
{
    const Tensor& tensor = graph.tensor(id);
    if (!tensor.isConstant())
        return false;
    if (tensor.elements() == 1)
        return true;
    const Shape& out = graph.tensor(output).shape;
    const auto cube = cubeOf(out);
    if (!cube || tensor.elements() != cube->channels)
        return false;
    // Broadcast aligns trailing dimensions: [C,1,1] (or [1,C,1,1]) is per channel of an NCHW tensor;
    // [C] is per channel only of a [1,C] tensor.
    const Shape& shape = tensor.shape;
    if (shape.size() == 1)
        return out.size() == 2;
    if (shape.size() < 3 || shape[shape.size() - 3] != cube->channels)
        return false;
    return shape[shape.size() - 1] == 1 && shape[shape.size() - 2] == 1;
}

// A constant with one value per element of `output`'s cube (exclude-pad-count's border factors).
bool isConstantCube(const Graph& graph, TensorId id, TensorId output)
{
    const Tensor& tensor = graph.tensor(id);
    const auto cube = cubeOf(graph.tensor(output).shape);
    return tensor.isConstant() && cube && cubeOf(tensor.shape) == cube && tensor.elements() > 1 &&
           tensor.elements() == cube->channels * cube->height * cube->width;
}

// Why a Concat's producers cannot write into one surface at their channel offsets (empty when they
// can): each offset must start at a memory atom, and each input must be written by a DLA operation
// for this Concat alone.
std::string concatAliasProblem(const Graph& graph, NodeId id, const NvdlaConfig& config,
                               target::NvdlaPrecision precision)
{
    const std::int64_t perAtom = config.memoryAtomicBytes / target::NvdlaConfig::elementBytes(precision);
    std::int64_t offset = 0;
    for (TensorId input : graph.node(id).inputs) {
        const Tensor& tensor = graph.tensor(input);
        if (offset % perAtom != 0)
            return fmt::format("input '{}' starts at channel {}, not at a memory atom of {} channels", tensor.name,
                               offset, perAtom);
        const auto producer = producerOf(graph, input);
        if (!producer || soleConsumer(graph, input) != id)
            return fmt::format("input '{}' is a network input or read by other nodes too", tensor.name);
        const Node& writer = graph.node(*producer);
        if (writer.opType == "Softmax" || writer.opType == "Concat" || writer.opType == "Slice" ||
            writer.opType == "Split" || isCubeView(graph, writer))
            return fmt::format("input '{}' comes from a {}, which does not write into part of a surface", tensor.name,
                               writer.opType);
        offset += cubeOf(tensor.shape)->channels;
    }
    return {};
}

void mapNode(const Graph& graph, NodeId id, const NvdlaConfig& config, target::NvdlaPrecision precision,
             NodeMapping& m)
{
    const Node& node = graph.node(id);
    const std::string& op = node.opType;
    const auto cube = [&](TensorId id) { return cubeOf(graph.tensor(id).shape); };
    const auto refuse = [&](std::string problem, std::string fallback = {}) {
        m.problem = std::move(problem);
        m.fallback = std::move(fallback);
    };
    for (TensorId tensor : node.outputs)
        if (graph.tensor(tensor).dtype != DType::Float32 && graph.tensor(tensor).dtype != DType::Float16)
            return refuse(fmt::format("'{}' is {}: NVDLA's units compute on FP16 or quantized INT8 feature data of "
                                      "float models",
                                      graph.tensor(tensor).name, dtypeName(graph.tensor(tensor).dtype)));
    if (op == "Clip" && !clipBounds(graph, node))
        return refuse("Clip with bounds that are not finite constants (computed at run time)");
    if ((op == "Conv" || op == "MaxPool" || op == "AveragePool") && graph.tensor(node.inputs[0]).shape.size() != 4)
        return refuse(fmt::format("{} over {} spatial dimensions: NVDLA's units slide over two (a 1-D layer as "
                                  "height 1 is not built yet)",
                                  op, std::int64_t(graph.tensor(node.inputs[0]).shape.size()) - 2));
    for (TensorId input : node.inputs)
        if (input != kNoTensor && !graph.tensor(input).isConstant() && !cube(input))
            return refuse(fmt::format("input '{}' of shape [{}] is not a cube of batch 1 (N=1 and at most 4 dimensions)",
                                      graph.tensor(input).name, fmt::join(graph.tensor(input).shape, ",")),
                          "export the model with batch size 1");
    const std::string activation = node.hasAttr(kFusedActivation) ? node.attrString(kFusedActivation, "") : "";
    // A fused Clip whose lower bound is not 0 takes SDP's x2 and y stages; y is the element-wise
    // stage, absent on nv_small.
    if (activation == "Clip" && node.attrFloat(kClipMin, 0.0f) != 0.0f && !config.hasSdpElementwise)
        return refuse(fmt::format("Clip from {:g}: its minimum needs SDP's element-wise (Y) stage, absent on {}",
                                  node.attrFloat(kClipMin, 0.0f), config.name),
                      "ReLU or ReLU6 (Clip from 0)");
    if (op == "Conv") {
        if (!graph.tensor(node.inputs[1]).isConstant() ||
            (node.inputs.size() > 2 && node.inputs[2] != kNoTensor && !graph.tensor(node.inputs[2]).isConstant()))
            return refuse("weights or bias computed at run time: CONV reads them from the loadable",
                          "make them initializers of the model");
        const auto kernel = node.attrInts("kernel_shape", {graph.tensor(node.inputs[1]).shape[2], graph.tensor(node.inputs[1]).shape[3]});
        const auto strides = node.attrInts("strides", {1, 1});
        const auto pads = node.attrInts("pads", {0, 0, 0, 0});
        const auto dilations = node.attrInts("dilations", {1, 1});
        const std::int64_t group = node.attrInt("group", 1);
        const Shape& weightShape = graph.tensor(node.inputs[1]).shape;
        const std::int64_t perAtom = config.memoryAtomicBytes / target::NvdlaConfig::elementBytes(precision);
        const bool depthwise = group > 1 && weightShape[1] == 1 && weightShape[0] == group;
        if (group > 1 && !depthwise && (weightShape[1] % perAtom != 0 || (weightShape[0] / group) % perAtom != 0))
            return refuse(fmt::format("grouped convolution (group {}, {} input and {} output channels per group): "
                                      "the groups do not start at a memory atom of {} channels",
                                      group, weightShape[1], weightShape[0] / group, perAtom),
                          "depthwise convolutions and groups of whole atoms are split; other groupings are not");
        for (std::int64_t k : kernel)
            if (k > kConvMaxKernel)
                return refuse(fmt::format("kernel {}x{} exceeds CONV's {}", kernel[0], kernel[1], kConvMaxKernel));
        for (std::int64_t s : strides)
            if (s > kConvMaxStride)
                return refuse(fmt::format("stride {} exceeds CONV's {}", s, kConvMaxStride));
        for (std::int64_t p : pads)
            if (p > kConvMaxPad)
                return refuse(fmt::format("padding {} exceeds CONV's {}", p, kConvMaxPad),
                              "pad the input with a separate operation");
        for (std::int64_t d : dilations)
            if (d != 1)
                return refuse("dilated convolution: not built yet");
        m.units = "CONV+SDP";
        m.detail = fmt::format("{}x{} kernel, {} kernels, stride {}x{}{}; SDP: bias{}", kernel[0], kernel[1],
                               graph.tensor(node.inputs[1]).shape[0], strides[0], strides[1],
                               depthwise ? fmt::format(", depthwise in blocks of {} channels", perAtom)
                               : group > 1 ? fmt::format(", in {} groups", group)
                                           : std::string(),
                               activation.empty() ? "" : ", " + activation);
        return;
    }
    if (op == "Relu") {
        m.units = "SDP";
        m.detail = "ReLU";
        return;
    }
    if (op == "PRelu" || op == "LeakyRelu") {
        if (op == "PRelu" && !isConstantPerChannelOrScalar(graph, node.inputs[1], node.outputs[0]))
            return refuse("PRelu with slopes that are not constants per channel or one for all",
                          "make the slope an initializer of shape [C,1,1] or [1]");
        m.units = "SDP";
        m.detail = "the multiplier for negative values (PReLU mode)";
        return;
    }
    if (op == "Clip") {
        const auto bounds = clipBounds(graph, node);
        if (!bounds)
            return refuse("Clip with bounds that are not finite constants");
        m.units = "SDP";
        m.detail = fmt::format("maximum {:g}, minimum {:g}", bounds->first, bounds->second);
        return;
    }
    if (op == "Sigmoid" || op == "Tanh") {
        if (!config.hasSdpLut)
            return refuse(fmt::format("{} needs the SDP LUT, absent on {}", op, config.name),
                          "nv_full or nv_large, or a ReLU-family activation");
        m.units = "SDP";
        m.detail = fmt::format("{} through the SDP's lookup table", op);
        return;
    }
    if (op == "Add" || op == "Mul" || op == "Max" || op == "Min" || op == "Sub") {
        if (node.inputs.size() != 2)
            return refuse("an element-wise operation of other than two inputs");
        const auto out = cube(node.outputs[0]);
        const bool constantOperand = isConstantPerChannelOrScalar(graph, node.inputs[1], node.outputs[0]) ||
                                     isConstantPerChannelOrScalar(graph, node.inputs[0], node.outputs[0]);
        if (isConstantCube(graph, node.inputs[1], node.outputs[0]) ||
            (op != "Sub" && isConstantCube(graph, node.inputs[0], node.outputs[0]))) {
            // The constant read per point, as a second tensor would be.
            if (precision == target::NvdlaPrecision::Int8 && op != "Mul")
                return refuse(fmt::format("INT8 {} with a constant per element: not built yet (INT8 multiplies by one)",
                                          op),
                              "--precision fp16");
            m.units = "SDP";
            m.detail = fmt::format("{} with a constant per element{}", op, activation.empty() ? "" : ", " + activation);
            return;
        }
        // A second tensor is read per point by x1 (BS), as NVIDIA's compiler does on every
        // configuration, nv_small included: the element-wise (Y) stage is not needed.
        if (op == "Sub" && !isConstantPerChannelOrScalar(graph, node.inputs[1], node.outputs[0]))
            return refuse("Sub of two tensors, or of a tensor from a constant: SDP adds, multiplies and compares "
                          "only",
                          "Add of the negated operand");
        if (!constantOperand && (cube(node.inputs[0]) != out || cube(node.inputs[1]) != out))
            return refuse("element-wise operands of different shapes (broadcasting between tensors)");
        m.units = "SDP";
        m.detail = fmt::format("{} {}{}", op, constantOperand ? "with a constant" : "of two tensors",
                               activation.empty() ? "" : ", " + activation);
        return;
    }
    if (op == "MaxPool" || op == "AveragePool") {
        const auto kernel = node.attrInts("kernel_shape");
        const auto strides = node.attrInts("strides", {1, 1});
        const auto pads = node.attrInts("pads", {0, 0, 0, 0});
        if (kernel.size() != 2)
            return refuse("pooling over other than two dimensions");
        if (node.outputs.size() > 1)
            return refuse("MaxPool's indices output: PDP writes the pooled values only");
        for (std::int64_t d : node.attrInts("dilations", {1, 1}))
            if (d != 1)
                return refuse("dilated pooling: PDP's windows are dense");
        for (std::int64_t k : kernel)
            if (k > std::int64_t(config.pdpMaxKernel))
                return refuse(fmt::format("{} {}x{} exceeds PDP's {}", op, kernel[0], kernel[1], config.pdpMaxKernel),
                              "split the window into steps of at most 8 (exact for non-overlapping windows)");
        for (std::int64_t s : strides)
            if (s > kPoolMaxStride)
                return refuse(fmt::format("stride {} exceeds PDP's {}", s, kPoolMaxStride));
        for (std::int64_t p : pads)
            if (p > kPoolMaxPad)
                return refuse(fmt::format("padding {} exceeds PDP's {}", p, kPoolMaxPad));
        if (node.attrInt("ceil_mode", 0) != 0)
            return refuse("ceil_mode pooling: not built yet");
        const bool anyPad = std::any_of(pads.begin(), pads.end(), [](std::int64_t p) { return p != 0; });
        if (op == "MaxPool" && anyPad)
            return refuse("padded max pooling: what PDP's padding value does to a maximum is not modelled yet",
                          "pad with a separate operation, or pool without padding");
        if (op == "AveragePool" && anyPad && node.attrInt("count_include_pad", 0) == 0)
            return refuse("AveragePool excluding the padding from the count: PDP counts the padding, and "
                          "exclude-pad-count did not rewrite it");
        // Outputs wider than PDP's line buffer are pooled in splits of the width (pooling_split.h).
        std::string splitNote;
        if (const auto in = cube(node.inputs[0]), out = cube(node.outputs[0]); in && out) {
            const std::int64_t padRight = (out->width - 1) * strides[1] + kernel[1] - (in->width + pads[1]);
            try {
                const PoolingSplit split =
                    poolingSplit(in->width + std::min<std::int64_t>(padRight, 0), out->width, kernel[1], strides[1],
                                 pads[1], std::max<std::int64_t>(padRight, 0),
                                 pdpFlyingWidth(config, precision, kernel[0], strides[0]));
                if (split.count > 1)
                    splitNote = fmt::format(", in {} splits of the width", split.count);
            } catch (const UnsupportedError& error) {
                return refuse(error.what());
            }
        }
        m.units = "PDP";
        m.detail = fmt::format("{} {}x{} stride {}x{}{}", op == "MaxPool" ? "max" : "average", kernel[0], kernel[1],
                               strides[0], strides[1], splitNote);
        return;
    }
    if (op == "LRN") {
        if (!config.hasCdp)
            return refuse(fmt::format("LRN needs CDP, absent on {}", config.name));
        const std::int64_t size = node.attrInt("size", 0);
        if (size < 3 || size > 9 || size % 2 == 0)
            return refuse(fmt::format("LRN size {} is not one CDP takes (3, 5, 7 or 9)", size));
        m.units = "CDP";
        m.detail = fmt::format("local response normalization over {} channels (its factor from CDP's lookup table)",
                               size);
        return;
    }
    if (op == "Softmax") {
        const auto in = cube(node.inputs[0]);
        const std::int64_t rank = std::int64_t(graph.tensor(node.inputs[0]).shape.size());
        std::int64_t axis = node.attrInt("axis", graph.opset >= 13 ? -1 : 1);
        if (axis < 0)
            axis += rank;
        if (!in || in->height != 1 || in->width != 1 || axis != 1)
            return refuse("Softmax other than over the channels of a 1x1 cube (the runtime's CPU softmax)",
                          "a model whose softmax follows the classifier");
        m.units = "EMU";
        m.detail = "softmax on the CPU (the runtime's emulator)";
        return;
    }
    if (op == "Flatten" || op == "Reshape" || op == "Squeeze" || op == "Unsqueeze") {
        if (cube(node.inputs[0]) && cube(node.inputs[0]) == cube(node.outputs[0])) {
            m.units = "view";
            m.detail = "the same cube: no work";
            return;
        }
        return refuse(fmt::format("{} changes the cube ([{}] to [{}]): NVDLA's feature layout would need a copy "
                                  "that is not built yet",
                                  op, fmt::join(graph.tensor(node.inputs[0]).shape, ","),
                                  fmt::join(graph.tensor(node.outputs[0]).shape, ",")));
    }
    if (op == "GlobalAveragePool" || op == "GlobalMaxPool" || op == "ReduceMean" || op == "ReduceMax") {
        const Shape& shape = graph.tensor(node.inputs[0]).shape;
        if (shape.size() == 4)
            return refuse(fmt::format("{} over a {}x{} plane: the plane does not split into pooling windows of at "
                                      "most {} (a factor above {} is prime)",
                                      op, shape[2], shape[3], config.pdpMaxKernel, config.pdpMaxKernel),
                          "a model whose last feature map is at most 8x8 or splits into such windows");
        return refuse(fmt::format("{} over other axes than H and W", op));
    }
    if (op == "Gemm" || op == "MatMul")
        return refuse(fmt::format("{} with a weight operand computed at run time, transposed input or a bias that is "
                                  "not per output: only a constant matrix becomes a convolution",
                                  op));
    if (op == "BatchNormalization")
        return refuse("BatchNormalization not after a convolution: the SDP scale and shift is not built yet",
                      "put it after a convolution (it is then folded)");
    if (op == "Concat") {
        // The producers write into one surface, each at its channel offset: the offsets must start at
        // a memory atom, and each input must be written by a DLA operation for this Concat alone.
        // Otherwise RUBIK copies the inputs in: each split into planes at its channel offset, the
        // planes merged into the output.
        const std::int64_t rank = std::int64_t(graph.tensor(node.outputs[0]).shape.size());
        std::int64_t axis = node.attrInt("axis", 1);
        if (axis < 0)
            axis += rank;
        if (rank != 4 || axis != 1)
            return refuse("Concat along other than the channels of an NCHW tensor: a copy is not built yet");
        for (TensorId input : node.inputs)
            if (graph.tensor(input).isConstant())
                return refuse(fmt::format("input '{}' is a constant: NVDLA joins feature surfaces only",
                                          graph.tensor(input).name));
        const std::string aliasProblem = concatAliasProblem(graph, id, config, precision);
        if (aliasProblem.empty()) {
            m.units = "view";
            m.detail = "the producers write into one surface at their channel offsets";
            return;
        }
        if (!config.hasRubik)
            return refuse(aliasProblem + fmt::format("; a copy needs RUBIK, absent on {}", config.name),
                          "--config nv_full, which has RUBIK");
        m.units = "RUBIK";
        m.detail = fmt::format("copied: RUBIK splits each input into planes at its channel offset and merges them "
                               "({})",
                               aliasProblem);
        return;
    }
    if (op == "Slice" || op == "Split") {
        std::string problem;
        const auto parts = channelParts(graph, node);
        if (!parts)
            return refuse(fmt::format("{} other than of the channels of a cube with constant bounds and step 1", op));
        const std::int64_t perAtom = config.memoryAtomicBytes / target::NvdlaConfig::elementBytes(precision);
        for (std::size_t k = 0; k < parts->size() && problem.empty(); ++k) {
            if ((*parts)[k].first % perAtom != 0)
                problem = fmt::format("output '{}' starts at channel {}, not at a memory atom of {} channels",
                                      graph.tensor(node.outputs[k]).name, (*parts)[k].first, perAtom);
            else if (std::find(graph.outputs.begin(), graph.outputs.end(), node.outputs[k]) != graph.outputs.end())
                problem = fmt::format("output '{}' is a network output, which cannot be part of another surface",
                                      graph.tensor(node.outputs[k]).name);
        }
        if (problem.empty()) {
            m.units = "view";
            m.detail = parts->size() == 1 ? fmt::format("channels {}..{} of the input's surface", parts->front().first,
                                                        parts->front().first + parts->front().second - 1)
                                          : fmt::format("{} parts of the input's surface", parts->size());
            return;
        }
        if (!config.hasRubik)
            return refuse(problem + fmt::format("; a copy needs RUBIK, absent on {}", config.name),
                          "--config nv_full, which has RUBIK");
        m.units = "RUBIK";
        m.detail = fmt::format("copied: RUBIK splits the input into planes and merges each part ({})", problem);
        return;
    }
    if (op == "DepthToSpace") {
        if (!config.hasRubik)
            return refuse(fmt::format("DepthToSpace needs RUBIK's contract mode, absent on {}", config.name),
                          "--config nv_full, which has RUBIK");
        if (node.attrString("mode", "DCR") != "DCR")
            return refuse("DepthToSpace in CRD order whose input is not written by a convolution for it alone: "
                          "RUBIK reads the DCR order, and depth-to-space-order could not reorder the channels",
                          "a convolution right before the DepthToSpace (PixelShuffle)");
        const std::int64_t block = node.attrInt("blocksize", 1);
        const std::int64_t perAtom = config.memoryAtomicBytes / target::NvdlaConfig::elementBytes(precision);
        const auto out = cube(node.outputs[0]);
        if (block < 1 || block > 32)
            return refuse(fmt::format("block size {}: RUBIK's contract strides are 1..32", block));
        if (!out || out->channels % perAtom != 0)
            return refuse(fmt::format("{} output channels: RUBIK's contract moves whole memory atoms, so the output "
                                      "needs a multiple of {} channels",
                                      out ? out->channels : 0, perAtom));
        m.units = "RUBIK";
        m.detail = fmt::format("contract: {} channel blocks into {}x{} phases of the plane", block * block, block, block);
        return;
    }
    if (op == "Gather") {
        const auto order = channelPermutation(graph, node);
        if (!order)
            return refuse("Gather other than a permutation of the channels with constant indices");
        if (!config.hasRubik || !config.hasBdma)
            return refuse(fmt::format("a permutation of the channels needs RUBIK and BDMA, absent on {}", config.name),
                          "--config nv_full, which has RUBIK and BDMA");
        const auto in = cube(node.inputs[0]);
        const std::uint64_t line = (std::uint64_t(in->width) * target::NvdlaConfig::elementBytes(precision) + 31) / 32 * 32;
        if (line > kBdmaMaxLineBytes)
            return refuse(fmt::format("lines of {} bytes exceed the {} BDMA copies at once", line, kBdmaMaxLineBytes));
        m.units = "RUBIK+BDMA";
        m.detail = fmt::format("channel permutation: RUBIK splits the {} channels into planes, BDMA copies them in "
                               "the new order, RUBIK merges them",
                               in->channels);
        return;
    }
    refuse(fmt::format("no NVDLA unit and no CPU operation of the stock runtime (Softmax, Power) runs {}", op));
}

}  // namespace

void requirePrecision(const NvdlaConfig& config, target::NvdlaPrecision precision)
{
    if (!config.supports(precision)) {
        std::string supported;
        for (target::NvdlaPrecision p : config.precisions)
            supported += (supported.empty() ? "" : " and ") + std::string(target::nvdlaPrecisionName(p));
        throw UnsupportedError(fmt::format("{} does not run {}: it runs {} only (use --precision {})", config.name,
                                           target::nvdlaPrecisionName(precision), supported,
                                           target::nvdlaPrecisionName(config.precisions.front())));
    }
}

MappingReport mapToUnits(const Graph& legalized, const NvdlaConfig& config, target::NvdlaPrecision precision,
                         const LegalizationLog& log)
{
    requirePrecision(config, precision);
    MappingReport report;
    report.config = config.name;
    report.precision = precision;
    std::set<std::string> present;
    for (NodeId id : topologicalOrder(legalized)) {
        const Node& node = legalized.node(id);
        NodeMapping mapping;
        mapping.node = node.name;
        mapping.opType = node.opType;
        for (const PassRecord* record : log.of(node.name))
            mapping.passes.push_back(record->pass + ": " + record->what);
        mapNode(legalized, id, config, precision, mapping);
        report.nodes.push_back(std::move(mapping));
        present.insert(node.name);
    }
    for (const PassRecord& record : log.records)
        if (!present.count(record.node))
            report.removed.push_back(record);
    std::stable_partition(report.nodes.begin(), report.nodes.end(),
                          [](const NodeMapping& m) { return !m.problem.empty(); });
    return report;
}

std::vector<ModelNodeMapping> mapModelNodes(const Graph& model, const MappingReport& report)
{
    std::unordered_map<std::string, const NodeMapping*> mapped;
    for (const NodeMapping& m : report.nodes)
        mapped[m.node] = &m;
    std::unordered_map<std::string, std::vector<const PassRecord*>> removed;
    for (const PassRecord& record : report.removed)
        removed[record.node].push_back(&record);
    std::vector<ModelNodeMapping> result(model.nodeCount());
    for (std::size_t n = 0; n < model.nodeCount(); ++n) {
        ModelNodeMapping& entry = result[n];
        std::string name = model.node(NodeId(n)).name;
        for (const PassRecord* record : removed[name])
            entry.passes.push_back(record->pass + ": " + record->what);
        // Follow the removals to the node doing the work (a ReLU fused into a convolution that was
        // then split goes to the split's first part).
        for (int hop = 0; hop < 16 && !mapped.count(name); ++hop) {
            const auto found = removed.find(name);
            if (found == removed.end())
                break;
            std::string into;
            bool view = false;
            for (const PassRecord* record : found->second) {
                if (!record->into.empty())
                    into = record->into;
                view = view || record->pass == "views" || record->pass == "gemm-to-conv";
            }
            if (into.empty()) {
                if (view) {
                    entry.units = "view";
                    entry.detail = "removed: its readers read its input";
                }
                break;
            }
            name = into;
            entry.doneBy = into;
        }
        const auto found = mapped.find(name);
        if (found == mapped.end())
            continue;
        const NodeMapping& m = *found->second;
        entry.units = m.problem.empty() ? m.units : "CANNOT RUN";
        // An activation fused into an operation runs in that operation's SDP.
        const auto& own = removed[model.node(NodeId(n)).name];
        if (m.problem.empty() &&
            std::any_of(own.begin(), own.end(), [](const PassRecord* r) { return r->pass == "fuse-activation"; }))
            entry.units = "SDP";
        entry.detail = m.detail;
        entry.problem = m.problem.empty() ? std::string() : m.problem + (m.fallback.empty() ? "" : "; " + m.fallback);
        if (entry.doneBy.empty())
            entry.passes.insert(entry.passes.end(), m.passes.begin(), m.passes.end());
    }
    return result;
}

bool MappingReport::ok() const
{
    return std::none_of(nodes.begin(), nodes.end(), [](const NodeMapping& m) { return !m.problem.empty(); });
}

std::string MappingReport::problems() const
{
    std::string text;
    for (const NodeMapping& m : nodes)
        if (!m.problem.empty())
            text += fmt::format("node '{}' ({}): {}{}\n", m.node, m.opType, m.problem,
                                m.fallback.empty() ? "" : "; " + m.fallback);
    return text;
}

std::string MappingReport::text() const
{
    std::size_t problemCount = 0;
    for (const NodeMapping& m : nodes)
        problemCount += !m.problem.empty();
    std::string text = fmt::format("NVDLA {} {}: {} operations, {} that no unit runs\n", config,
                                   target::nvdlaPrecisionName(precision), nodes.size(), problemCount);
    for (const NodeMapping& m : nodes) {
        if (!m.problem.empty())
            text += fmt::format("  {:<24} {:<18} CANNOT RUN: {}{}\n", m.node, m.opType, m.problem,
                                m.fallback.empty() ? "" : " (" + m.fallback + ")");
        else
            text += fmt::format("  {:<24} {:<18} {:<9} {}\n", m.node, m.opType, m.units, m.detail);
        for (const std::string& pass : m.passes)
            text += fmt::format("  {:<24} {:<18} {:<9} {}\n", "", "", "", pass);
    }
    for (const PassRecord& record : removed)
        text += fmt::format("  {:<24} {:<18} {:<9} {}: {}\n", record.node, "(removed)", "", record.pass, record.what);
    return text;
}

nlohmann::json MappingReport::json() const
{
    nlohmann::json list = nlohmann::json::array();
    for (const NodeMapping& m : nodes)
        list.push_back({{"node", m.node}, {"op", m.opType}, {"units", m.units}, {"detail", m.detail},
                        {"passes", m.passes}, {"problem", m.problem}, {"fallback", m.fallback}});
    nlohmann::json removedList = nlohmann::json::array();
    for (const PassRecord& record : removed)
        removedList.push_back({{"node", record.node}, {"pass", record.pass}, {"what", record.what}, {"into", record.into}});
    return {{"config", config}, {"precision", target::nvdlaPrecisionName(precision)}, {"ok", ok()},
            {"nodes", list}, {"removed", removedList}};
}

}  // namespace tessera::nvdla
