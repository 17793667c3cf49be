#pragma once
// One function per zoo network (each in its own file).
#include "zoo/zoo.h"

namespace tessera::zoo {

Graph buildMnist(const ZooOptions& options);
Graph buildLenet5(const ZooOptions& options);
Graph buildMobilenetV1(const ZooOptions& options);
Graph buildMobilenetV2(const ZooOptions& options);
Graph buildRadioml(const ZooOptions& options);
Graph buildSqueezenet11(const ZooOptions& options);
Graph buildResnet18(const ZooOptions& options);
Graph buildMnasnet10(const ZooOptions& options);
Graph buildShufflenetV2(const ZooOptions& options);
Graph buildMobilenetV3Large(const ZooOptions& options);
Graph buildMobilenetV3Small(const ZooOptions& options);
Graph buildEfficientnetB0(const ZooOptions& options);

} // namespace tessera::zoo
