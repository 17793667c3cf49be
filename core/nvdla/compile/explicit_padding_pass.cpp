// explicit-padding: SAME_UPPER / SAME_LOWER / VALID padding of Conv, MaxPool and AveragePool becomes
// the explicit pads ONNX defines for it (the shape rules' window geometry), so every later step reads
// one attribute.
#include "nvdla/compile/legalization_passes.h"

#include "ir/op_shapes/window_geometry.h"

#include <fmt/format.h>

namespace tessera::nvdla {

void explicitPaddingPass(Graph& graph, const target::NvdlaConfig&, LegalizationLog& log)
{
    for (std::size_t n = 0; n < graph.nodeCount(); ++n) {
        Node& node = graph.node(NodeId(n));
        if (node.opType != "Conv" && node.opType != "MaxPool" && node.opType != "AveragePool")
            continue;
        const std::string autoPad = node.attrString("auto_pad", "NOTSET");
        if (autoPad == "NOTSET" || node.inputs.empty())
            continue;
        const Shape& input = graph.tensor(node.inputs[0]).shape;
        if (input.size() != 4)
            continue;
        std::vector<std::int64_t> kernel = node.attrInts("kernel_shape");
        if (kernel.empty() && node.opType == "Conv" && node.inputs.size() > 1) {
            const Shape& weights = graph.tensor(node.inputs[1]).shape;
            kernel = {weights[2], weights[3]};
        }
        const WindowGeometry window = forwardWindow(node, input, kernel, node.attrInt("ceil_mode", 0) != 0);
        node.attributes.erase("auto_pad");
        node.attributes["pads"] = Attribute::ofInts({window.padBegin[0], window.padBegin[1], window.padEnd[0], window.padEnd[1]});
        log.add("explicit-padding", node.name,
                fmt::format("auto_pad {} as pads {},{},{},{}", autoPad, window.padBegin[0], window.padBegin[1],
                            window.padEnd[0], window.padEnd[1]));
    }
}

}  // namespace tessera::nvdla
