#pragma once
// The sample zoo: reference networks built in code with seeded random weights, so examples,
// tests and benchmarks need no downloads. Shapes and layer lists follow the published models.
#include "ir/graph.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tessera {

struct ZooOptions {
    double width = 1.0;     // MobileNet width multiplier: 1.0, 0.5 or 0.25
    int64_t resolution = 224; // MobileNet input resolution: 224, 192, 160 or 128
    uint32_t seed = 1;      // weights are a pure function of the seed
};

struct ZooEntry {
    std::string name;
    std::string description;
};

const std::vector<ZooEntry>& zooModels();

// Throws Error naming the model or option when `name` is unknown or an option is out of range.
// The graph is typed and verified.
Graph buildZooModel(const std::string& name, const ZooOptions& options = {});

} // namespace tessera
