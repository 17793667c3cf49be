#include "gap/compile/pooling_split.h"

#include "tiler/tile_solver.h"

#include <algorithm>

namespace tessera::gap {
namespace {

using Pool = fixed_point::ConvPoolReluParams::Pool;

bool splittable(const GapLayer& layer)
{
    return layer.kind == GapLayerKind::Convolution && layer.conv.pool != Pool::None &&
           !(layer.conv.pool == Pool::Average && layer.relu6);
}

}  // namespace

bool kernelTilesInL1(const tiler::KernelModel& model, const std::string& kernel, std::uint64_t l1Budget)
{
    const auto found = std::find_if(model.userKernels.begin(), model.userKernels.end(),
                                    [&](const tiler::UserKernel& k) { return k.name == kernel; });
    if (found == model.userKernels.end())
        return true;
    const tiler::TileSolverResult solved = tiler::solveTiling(*found, l1Budget, UINT64_MAX, model.options.costModel,
                                                              tiler::promotionPolicy(model.options), false);
    return solved.ok || solved.badKernel;
}

std::vector<std::string> fusedPoolingOverL1(const GapNetwork& network, const tiler::KernelModel& model,
                                            std::uint64_t l1Budget)
{
    std::vector<std::string> layers;
    for (const GapLayer& layer : network.layers)
        if (splittable(layer) && !kernelTilesInL1(model, layer.name, l1Budget))
            layers.push_back(layer.name);
    return layers;
}

GapNetwork splitFusedPooling(const GapNetwork& network, const std::vector<std::string>& layers)
{
    GapNetwork split = network;
    split.layers.clear();
    for (const GapLayer& layer : network.layers) {
        if (!splittable(layer) || std::find(layers.begin(), layers.end(), layer.name) == layers.end()) {
            split.layers.push_back(layer);
            continue;
        }
        const fixed_point::ConvPoolReluShape shape = fixed_point::convPoolReluOutputShape(layer.conv);
        const GapTensor& output = network.tensors[size_t(layer.output)];
        GapTensor unpooled = output;
        unpooled.name = layer.name + "_Unpooled";
        unpooled.source = layer.poolInput;
        unpooled.shape = {shape.features, shape.convHeight, shape.convWidth};
        unpooled.elements = int64_t(shape.features) * shape.convHeight * shape.convWidth;
        split.tensors.push_back(unpooled);

        GapLayer convolution = layer;
        GapLayer pooling;
        pooling.kind = GapLayerKind::Pooling;
        pooling.name = layer.name + "_pool";
        pooling.inputs = {int(split.tensors.size()) - 1};
        pooling.output = layer.output;
        convolution.output = pooling.inputs[0];
        // The pooling node and what follows it in the fused list move to the pooling layer.
        const auto poolNode = std::find(convolution.nodes.begin(), convolution.nodes.end(), layer.poolNode);
        pooling.nodes.assign(poolNode, convolution.nodes.end());
        convolution.nodes.erase(poolNode, convolution.nodes.end());

        fixed_point::PoolReluParams& p = pooling.pool;
        p.features = shape.features;
        p.width = shape.convWidth;
        p.height = shape.convHeight;
        p.pool = layer.conv.pool;
        p.poolWidth = layer.conv.poolWidth;
        p.poolHeight = layer.conv.poolHeight;
        p.strideX = layer.conv.poolStrideX;
        p.strideY = layer.conv.poolStrideY;
        p.pad = layer.conv.poolPad;
        p.ceilMode = layer.conv.poolCeilMode;
        // ReLU (and its cap) then max pooling equals max pooling then ReLU, so the ReLU stays where
        // the model has it (a cap stays in the convolution); an average is always taken before the
        // ReLU, which then runs in the pooling layer.
        const bool reluAfterPooling = pooling.nodes.size() > 1;
        if (layer.conv.pool == Pool::Average || (reluAfterPooling && !layer.relu6)) {
            p.relu = layer.conv.relu;
            convolution.conv.relu = false;
        }
        convolution.conv.pool = Pool::None;
        convolution.conv.poolPad = 0;
        convolution.conv.poolCeilMode = false;
        split.layers.push_back(std::move(convolution));
        split.layers.push_back(std::move(pooling));
    }
    return split;
}

}  // namespace tessera::gap
