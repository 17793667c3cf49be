// exclude-pad-count: an AveragePool that leaves the padding out of its count (count_include_pad 0,
// ONNX's default) becomes PDP's pooling, which divides by the whole window, followed by a multiply
// by window / count at each output position: a constant cube SDP reads per point. Poolings whose
// windows never reach the padding only change their attribute.
#include "nvdla/compile/legalization_passes.h"

#include <fmt/format.h>

namespace tessera::nvdla {

void excludePadCountPass(Graph& graph, const target::NvdlaConfig&, LegalizationLog& log)
{
    const std::size_t count = graph.nodeCount();
    for (std::size_t n = 0; n < count; ++n) {
        const Node pool = graph.node(NodeId(n));
        if (pool.opType != "AveragePool" || pool.attrInt("count_include_pad", 0) != 0 || pool.hasAttr("auto_pad") ||
            pool.attrInt("ceil_mode", 0) != 0)
            continue;
        const std::vector<std::int64_t> kernel = pool.attrInts("kernel_shape");
        const std::vector<std::int64_t> strides = pool.attrInts("strides", {1, 1});
        const std::vector<std::int64_t> pads = pool.attrInts("pads", {0, 0, 0, 0});
        const Shape& in = graph.tensor(pool.inputs[0]).shape;
        const Shape& out = graph.tensor(pool.outputs[0]).shape;
        if (kernel.size() != 2 || strides.size() != 2 || pads.size() != 4 || in.size() != 4 || out.size() != 4 ||
            in[0] != 1)
            continue;  // the mapping names what it cannot pool
        if (pads[0] == 0 && pads[1] == 0 && pads[2] == 0 && pads[3] == 0)
            continue;  // no padding to count
        const std::int64_t window = kernel[0] * kernel[1];
        std::vector<float> factors;
        bool anyBorder = false;
        for (std::int64_t y = 0; y < out[2]; ++y)
            for (std::int64_t x = 0; x < out[3]; ++x) {
                std::int64_t inside = 0;
                for (std::int64_t r = 0; r < kernel[0]; ++r)
                    for (std::int64_t s = 0; s < kernel[1]; ++s) {
                        const std::int64_t iy = y * strides[0] - pads[0] + r, ix = x * strides[1] - pads[1] + s;
                        inside += iy >= 0 && iy < in[2] && ix >= 0 && ix < in[3];
                    }
                factors.push_back(inside > 0 ? float(window) / float(inside) : 0.0f);
                anyBorder = anyBorder || inside != window;
            }
        Node& counted = graph.node(NodeId(n));
        counted.attributes["count_include_pad"] = Attribute::ofInt(1);
        if (!anyBorder) {
            log.add("exclude-pad-count", pool.name, "no window reaches the padding: the count is the window");
            continue;
        }
        std::vector<float> cube;
        cube.reserve(std::size_t(out[1]) * factors.size());
        for (std::int64_t c = 0; c < out[1]; ++c)
            cube.insert(cube.end(), factors.begin(), factors.end());
        const TensorId correction = addConstant(graph, pool.name + "_count", TensorData::fromFloats(out, cube));
        const TensorId whole = addTensor(graph, pool.name + "_whole_window");
        const TensorId result = pool.outputs[0];
        graph.node(NodeId(n)).outputs[0] = whole;
        Node multiply;
        multiply.name = pool.name + "_border";
        multiply.opType = "Mul";
        multiply.inputs = {whole, correction};
        multiply.outputs = {result};
        multiply.attributes[kPadCountCorrection] = Attribute::ofInt(1);
        graph.addNode(multiply);
        log.add("exclude-pad-count", pool.name,
                fmt::format("pools over the whole {}x{} window; '{}' multiplies the border by window / count",
                            kernel[0], kernel[1], multiply.name));
        log.add("exclude-pad-count", multiply.name, "corrects '" + pool.name + "' where its windows reach the padding");
    }
}

}  // namespace tessera::nvdla
