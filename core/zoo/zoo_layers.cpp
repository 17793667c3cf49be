#include "zoo/zoo_layers.h"

#include <cmath>

namespace tessera::zoo {

TensorData LayerBuilder::weights(const Shape& shape, int64_t fanIn)
{
    const float limit = std::sqrt(6.0f / static_cast<float>(std::max<int64_t>(fanIn, 1)));
    std::uniform_real_distribution<float> distribution(-limit, limit);
    TensorData data(DType::Float32, shape);
    float* values = data.data<float>();
    for (int64_t i = 0; i < data.elements(); ++i)
        values[i] = distribution(random_);
    return data;
}

TensorId LayerBuilder::conv(TensorId x, const ConvSpec& spec, const std::string& name)
{
    const Shape& in = builder_.tensor(x).shape;
    const int64_t inChannels = in.at(1);
    Shape weightShape{spec.outChannels, inChannels / spec.group};
    int64_t fanIn = inChannels / spec.group;
    std::vector<int64_t> pads, strides;
    for (int64_t k : spec.kernel) {
        weightShape.push_back(k);
        fanIn *= k;
        strides.push_back(spec.stride);
    }
    for (int side = 0; side < 2; ++side)
        for (int64_t k : spec.kernel)
            pads.push_back(spec.samePadding ? k / 2 : 0);
    const TensorId w = builder_.constant(name + ".weight", weights(weightShape, fanIn));
    const TensorId b = builder_.constant(name + ".bias", weights({spec.outChannels}, fanIn * 16));
    AttributeMap attributes{{"kernel_shape", Attribute::ofInts(spec.kernel)},
                            {"strides", Attribute::ofInts(strides)},
                            {"pads", Attribute::ofInts(pads)},
                            {"group", Attribute::ofInt(spec.group)}};
    return builder_.op("Conv", {x, w, b}, std::move(attributes), name);
}

TensorId LayerBuilder::dense(TensorId x, int64_t outFeatures, const std::string& name)
{
    const int64_t inFeatures = builder_.tensor(x).shape.at(1);
    const TensorId w = builder_.constant(name + ".weight", weights({outFeatures, inFeatures}, inFeatures));
    const TensorId b = builder_.constant(name + ".bias", weights({outFeatures}, inFeatures * 16));
    return builder_.op("Gemm", {x, w, b}, {{"transB", Attribute::ofInt(1)}}, name);
}

TensorId LayerBuilder::relu6(TensorId x, const std::string& name)
{
    const TensorId low = builder_.constant(name + ".min", TensorData::fromFloats({}, {0.0f}));
    const TensorId high = builder_.constant(name + ".max", TensorData::fromFloats({}, {6.0f}));
    return builder_.op("Clip", {x, low, high}, {}, name);
}

TensorId LayerBuilder::hardSigmoid(TensorId x, const std::string& name)
{
    return builder_.op("HardSigmoid", {x}, {{"alpha", Attribute::ofFloat(1.0f / 6.0f)}}, name);
}

TensorId LayerBuilder::maxPool(TensorId x, std::vector<int64_t> kernel, std::vector<int64_t> strides,
                               const std::string& name)
{
    return builder_.op("MaxPool", {x},
                       {{"kernel_shape", Attribute::ofInts(std::move(kernel))}, {"strides", Attribute::ofInts(std::move(strides))}},
                       name);
}

TensorId LayerBuilder::averagePool(TensorId x, std::vector<int64_t> kernel, std::vector<int64_t> strides,
                                   const std::string& name)
{
    return builder_.op("AveragePool", {x},
                       {{"kernel_shape", Attribute::ofInts(std::move(kernel))}, {"strides", Attribute::ofInts(std::move(strides))}},
                       name);
}

TensorId LayerBuilder::flatten(TensorId x, const std::string& name)
{
    return builder_.op("Flatten", {x}, {{"axis", Attribute::ofInt(1)}}, name);
}

} // namespace tessera::zoo
