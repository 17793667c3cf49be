// fold-pad: a Pad of zeros over H and W whose only reader is a convolution (or an average pooling
// that counts the padding) becomes that operation's own padding, when the sum stays within what the
// unit pads (31 for CONV, 7 for PDP). Any other Pad is left for the mapping to refuse.
#include "nvdla/compile/legalization_passes.h"

#include <fmt/format.h>

namespace tessera::nvdla {

void foldPadPass(Graph& graph, const target::NvdlaConfig&, LegalizationLog& log)
{
    std::vector<bool> remove(graph.nodeCount(), false);
    for (std::size_t n = 0; n < graph.nodeCount(); ++n) {
        const Node pad = graph.node(NodeId(n));
        if (pad.opType != "Pad" || pad.inputs.empty() || pad.outputs.size() != 1)
            continue;
        if (pad.attrString("mode", "constant") != "constant")
            continue;
        std::vector<std::int64_t> amounts = pad.attrInts("pads");
        if (pad.inputs.size() > 1 && pad.inputs[1] != kNoTensor) {
            if (!graph.tensor(pad.inputs[1]).isConstant())
                continue;
            amounts = graph.tensor(pad.inputs[1]).constant->toInts();
        }
        double value = pad.attrFloat("value", 0.0f);
        if (pad.inputs.size() > 2 && pad.inputs[2] != kNoTensor) {
            if (!graph.tensor(pad.inputs[2]).isConstant() || graph.tensor(pad.inputs[2]).elements() != 1)
                continue;
            value = graph.tensor(pad.inputs[2]).constant->getDouble(0);
        }
        if (value != 0.0 || amounts.size() != 8 || amounts[0] || amounts[1] || amounts[4] || amounts[5] ||
            (pad.inputs.size() > 3 && pad.inputs[3] != kNoTensor))
            continue;  // padding of N or C, a non-zero value, or explicit axes
        const auto consumer = soleConsumer(graph, pad.outputs[0]);
        if (!consumer)
            continue;
        Node& layer = graph.node(*consumer);
        const bool conv = layer.opType == "Conv";
        const bool averaging = layer.opType == "AveragePool" && layer.attrInt("count_include_pad", 0) != 0;
        if ((!conv && !averaging) || layer.inputs[0] != pad.outputs[0] || layer.hasAttr("auto_pad"))
            continue;
        std::vector<std::int64_t> pads = layer.attrInts("pads", {0, 0, 0, 0});
        const std::int64_t most = conv ? 31 : 7;
        // ONNX Pad: [x1_begin, x2_begin, ..., x1_end, ...]; the layer's: [top, left, bottom, right].
        const std::vector<std::int64_t> added = {amounts[2], amounts[3], amounts[6], amounts[7]};
        bool fits = true;
        for (std::size_t k = 0; k < 4; ++k)
            fits = fits && added[k] >= 0 && pads[k] + added[k] <= most;
        if (!fits)
            continue;
        for (std::size_t k = 0; k < 4; ++k)
            pads[k] += added[k];
        layer.attributes["pads"] = Attribute::ofInts(pads);
        layer.inputs[0] = pad.inputs[0];
        remove[n] = true;
        log.add("fold-pad", layer.name, fmt::format("Pad '{}' folded into the padding ({},{},{},{})", pad.name, pads[0],
                                                    pads[1], pads[2], pads[3]));
        log.addRemoved("fold-pad", pad.name, layer.name, "folded into '" + layer.name + "'");
    }
    graph.removeNodes(remove);
}

}  // namespace tessera::nvdla
