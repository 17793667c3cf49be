// Legalization for NVDLA: named passes that rewrite an ONNX graph into operations the DLA's units
// (or the runtime's CPU emulator) run. Each pass can run alone, records what it did to which node,
// and the graph after it can be dumped as text (`tessera compile ... --dump-after PASS`).
#pragma once

#include "ir/graph.h"
#include "target/nvdla_configs.h"

#include <optional>
#include <string>
#include <vector>

namespace tessera::nvdla {

// What a pass did to a node ("folded BatchNormalization 'bn1' into the weights").
struct PassRecord {
    std::string pass;
    std::string node;
    std::string what;
    // For a node the pass removed: the node that does its work now (empty for a view, which does
    // none), so that a front end can show the unit a removed node's work went to.
    std::string into;
};

struct LegalizationLog {
    std::vector<PassRecord> records;
    void add(const std::string& pass, const std::string& node, const std::string& what)
    {
        records.push_back({pass, node, what, {}});
    }
    void addRemoved(const std::string& pass, const std::string& node, const std::string& into, const std::string& what)
    {
        records.push_back({pass, node, what, into});
    }
    // The records of `node`, in pass order.
    std::vector<const PassRecord*> of(const std::string& node) const;
};

struct LegalizationPass {
    const char* name;     // "fold-batchnorm"
    const char* summary;  // one line for --help and the report
    void (*run)(Graph& graph, const target::NvdlaConfig& config, LegalizationLog& log);
};

// Every pass, in the order compile runs them.
const std::vector<LegalizationPass>& legalizationPasses();
const LegalizationPass* findLegalizationPass(const std::string& name);

// Runs the passes in order, starting after `startAfter` and stopping after `stopAfter` when given
// (throws tessera::Error naming the passes when one is not a pass). The graph stays typed and
// verified after each pass.
void legalize(Graph& graph, const target::NvdlaConfig& config, LegalizationLog& log,
              const std::string& stopAfter = {}, const std::string& startAfter = {});

// The last pass after which the graph is still plain ONNX (what the float interpreter runs, as
// INT8 calibration does); the passes after it fuse operations into attributes.
inline constexpr const char* kLastOnnxPass = "views";

// The graph as stable text: one line per node in topological order with its inputs, outputs,
// shapes and attributes; constants by shape only.
std::string dumpGraph(const Graph& graph);

// A tensor as NVDLA sees it: a cube of channels x height x width (batch 1). 4-D [1,C,H,W],
// 3-D [1,C,W] (H 1), 2-D [1,F] and 1-D [F] (F channels of 1x1); nullopt for any other shape.
struct Cube {
    std::int64_t channels = 0, height = 0, width = 0;
    bool operator==(const Cube&) const = default;
};
std::optional<Cube> cubeOf(const Shape& shape);

}  // namespace tessera::nvdla
