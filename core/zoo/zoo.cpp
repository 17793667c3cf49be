#include "zoo/zoo.h"

#include "base/error.h"
#include "zoo/zoo_networks.h"

#include <algorithm>
#include <functional>

namespace tessera {

namespace {

struct Recipe {
    ZooEntry entry;
    std::function<Graph(const ZooOptions&)> build;
};

const std::vector<Recipe>& recipes()
{
    static const std::vector<Recipe> all = {
        {{"mnist", "MNIST digit classifier of the GAP Autotiler guide, 1x1x28x28 -> 10"}, zoo::buildMnist},
        {{"lenet5", "LeNet-5, 1x1x32x32 -> 10"}, zoo::buildLenet5},
        {{"mobilenet_v1", "MobileNet v1, --width 1.0|0.5|0.25 --resolution 224|192|160|128 -> 1000"},
         zoo::buildMobilenetV1},
        {{"mobilenet_v2", "MobileNet v2 1.0 (inverted residuals, ReLU6), --resolution 32 to 512 -> 1000"},
         zoo::buildMobilenetV2},
        {{"radioml", "RadioML 2018 1-D conv classifier, 2x1024 I/Q -> 24"}, zoo::buildRadioml},
        {{"squeezenet1_1", "SqueezeNet 1.1 (fire modules, ceil-mode pooling), --resolution 32 to 512 -> 1000"},
         zoo::buildSqueezenet11},
        {{"resnet18", "ResNet-18 (basic blocks, 7x7/2 stem with padded max pooling), --resolution 32 to 512 -> 1000"},
         zoo::buildResnet18},
        {{"mnasnet1_0", "MnasNet 1.0 (inverted residuals, ReduceMean global pooling), --resolution 32 to 512 -> 1000"},
         zoo::buildMnasnet10},
        {{"shufflenet_v2_x1_0", "ShuffleNet v2 1.0x (Split, Concat, channel shuffle), --resolution 32 to 512 -> 1000"},
         zoo::buildShufflenetV2},
        {{"mobilenet_v3_large", "MobileNet v3 Large (Hardswish, squeeze-and-excitation), --resolution 32 to 512 -> 1000"},
         zoo::buildMobilenetV3Large},
        {{"mobilenet_v3_small", "MobileNet v3 Small (Hardswish, squeeze-and-excitation), --resolution 32 to 512 -> 1000"},
         zoo::buildMobilenetV3Small},
        {{"efficientnet_b0", "EfficientNet-B0 (SiLU, squeeze-and-excitation), --resolution 32 to 512 -> 1000"},
         zoo::buildEfficientnetB0},
    };
    return all;
}

void checkOptions(const std::string& name, const ZooOptions& options)
{
    if (name != "mobilenet_v1" && name != "mnist" && name != "lenet5" && name != "radioml" &&
        (options.resolution < 32 || options.resolution > 512))
        throw Error(name + ": resolution " + std::to_string(options.resolution) + " is not within 32 to 512");
    if (name != "mobilenet_v1")
        return;
    const double widths[] = {1.0, 0.5, 0.25};
    if (std::none_of(std::begin(widths), std::end(widths), [&](double w) { return w == options.width; }))
        throw Error("mobilenet_v1: width " + std::to_string(options.width) + " is not one of 1.0, 0.5, 0.25");
    const int64_t resolutions[] = {224, 192, 160, 128};
    if (std::none_of(std::begin(resolutions), std::end(resolutions), [&](int64_t r) { return r == options.resolution; }))
        throw Error("mobilenet_v1: resolution " + std::to_string(options.resolution) +
                    " is not one of 224, 192, 160, 128");
}

} // namespace

const std::vector<ZooEntry>& zooModels()
{
    static const std::vector<ZooEntry> entries = [] {
        std::vector<ZooEntry> list;
        for (const Recipe& recipe : recipes())
            list.push_back(recipe.entry);
        return list;
    }();
    return entries;
}

Graph buildZooModel(const std::string& name, const ZooOptions& options)
{
    for (const Recipe& recipe : recipes()) {
        if (recipe.entry.name != name)
            continue;
        checkOptions(name, options);
        return recipe.build(options);
    }
    std::string known;
    for (const Recipe& recipe : recipes())
        known += (known.empty() ? "" : ", ") + recipe.entry.name;
    throw Error("unknown zoo model '" + name + "' (available: " + known + ")");
}

} // namespace tessera
