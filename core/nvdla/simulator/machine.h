// The descriptor simulator's machine: the loadable's memories, task-local addresses and data cubes,
// and the units (fp16_units.cpp, int8_units.cpp, emulator_units.cpp). Internal to the simulator.
#pragma once

#include "base/error.h"
#include "ir/dtype.h"
#include "interp/fixed_point/dla_arithmetic.h"
#include "nvdla/loadable_contents.h"
#include "nvdla/simulator/descriptor_simulator.h"
#include "nvdla/weight_layout.h"
#include "target/nvdla_configs.h"

#include <fmt/format.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tessera::nvdla::simulation {

// The most memory a simulation allocates in all, and the most multiply-accumulates (or window
// elements) one operation may ask for.
inline constexpr std::uint64_t kMaxSimulatedBytes = std::uint64_t(4) << 30;
inline constexpr double kMaxSimulatedMacs = 1e11;

// Values channels x height x width: single precision for FP16 data, int32 for INT8 data (what CACC
// hands to SDP, and int8 values widened).
template <typename T>
struct CubeOf {
    unsigned channels = 0, height = 0, width = 0;
    std::vector<T> values;
    CubeOf() = default;
    CubeOf(unsigned c, unsigned h, unsigned w) : channels(c), height(h), width(w), values(std::size_t(c) * h * w, T{}) {}
    T& at(unsigned c, unsigned y, unsigned x) { return values[(std::size_t(c) * height + y) * width + x]; }
    T at(unsigned c, unsigned y, unsigned x) const { return values[(std::size_t(c) * height + y) * width + x]; }
};
using Cube = CubeOf<float>;
using IntCube = CubeOf<std::int32_t>;

// FP16 values in memory, little-endian.
inline float readHalf(const std::vector<std::uint8_t>& memory, std::uint64_t at)
{
    return halfToFloat(std::uint16_t(memory[at] | (memory[at + 1] << 8)));
}

inline void writeHalf(std::vector<std::uint8_t>& memory, std::uint64_t at, float value)
{
    const std::uint16_t bits = floatToHalf(value);
    memory[at] = std::uint8_t(bits);
    memory[at + 1] = std::uint8_t(bits >> 8);
}

// A feature cube (dla_data_cube `cube` of a surface descriptor) in memory.
struct CubeAccess {
    std::vector<std::uint8_t>* memory = nullptr;
    std::uint64_t base = 0, line = 0, surface = 0;
    unsigned width = 0, height = 0, channels = 0;
    unsigned elementBytes = 2, atomBytes = 32;
    std::uint64_t offsetOf(unsigned c, unsigned y, unsigned x) const
    {
        const unsigned perGroup = atomBytes / elementBytes;
        return base + (c / perGroup) * surface + y * line + std::uint64_t(x) * atomBytes + (c % perGroup) * elementBytes;
    }
};

// One pass of a PDP operation over its width: input columns [start, start + columns) with
// padLeft columns of padding before them (windows past the last column see padding too), into
// output columns [outStart, outStart + outputs). An operation without a split is one pass.
struct PoolingPass {
    std::int64_t start = 0, columns = 0, padLeft = 0, outStart = 0, outputs = 0;
};
// The passes as the unit walks them (split_num and the partial widths). Throws tessera::ModelError
// naming the field when they do not tile the source and the destination.
std::vector<PoolingPass> poolingPasses(const ConstRecord& op, unsigned sourceWidth, unsigned destinationWidth,
                                       const std::string& where);

class Machine {
public:
    Machine(const Loadable& loadable, const target::NvdlaConfig& config);

    std::vector<std::uint8_t>& memory(std::uint16_t id) { return memories_.at(id); }

    // Memory and byte offset of a task-local address index.
    std::pair<std::vector<std::uint8_t>*, std::uint64_t> resolve(const std::vector<std::uint16_t>& addressList,
                                                                  std::int64_t index, const std::string& where);

    std::vector<std::string> trace;
    OperationObserver observer;

    void runDla(const TaskEntry& task);
    void runEmu(const TaskEntry& task);

private:
    // The cube `cube` of `surface` with elements of `elementBytes`, checked to lie in its memory as
    // feature data (`featureExtent`; RUBIK's planar cubes are checked by the unit).
    CubeAccess access(const DlaTaskView& view, const ConstRecord& surface, const std::string& cube,
                      const std::string& where, unsigned elementBytes, bool featureExtent = true);

    Cube loadHalves(const CubeAccess& a) const;
    void storeHalves(const CubeAccess& a, const Cube& cube) const;
    IntCube loadInt8(const CubeAccess& a) const;
    void storeInt8(const CubeAccess& a, const std::vector<std::int8_t>& values) const;  // c, y, x order

    // The LUT an SDP operation names (lut_index), from its task's LUT list.
    static dla::Lut lutOf(const DlaTaskView& view, const ConstRecord& op, const std::string& where);

    // The memory and base of a convolution's weights, checked to hold `layout`.
    std::pair<const std::vector<std::uint8_t>*, std::uint64_t> weights(const DlaTaskView& view, const ConstRecord& surface,
                                                                       const WeightLayout& layout, const std::string& where);
    // The multiply-accumulates of a convolution, refused beyond what the simulator runs for one operation.
    static void requireSimulatable(double macs, const std::string& where);

    Cube convolution(const DlaTaskView& view, std::size_t i, const std::string& where);
    void sdp(const DlaTaskView& view, std::size_t i, std::optional<Cube> onTheFly, const std::string& where);
    void pdp(const DlaTaskView& view, std::size_t i, const std::string& where);
    void cdp(const DlaTaskView& view, std::size_t i, const std::string& where);
    IntCube convolutionInt8(const DlaTaskView& view, std::size_t i, const std::string& where);
    void sdpInt8(const DlaTaskView& view, std::size_t i, std::optional<IntCube> onTheFly, const std::string& where);
    void pdpInt8(const DlaTaskView& view, std::size_t i, const std::string& where);
    void cdpInt8(const DlaTaskView& view, std::size_t i, const std::string& where);
    void bdma(const DlaTaskView& view, std::size_t i, const std::string& where);
    void rubik(const DlaTaskView& view, std::size_t i, const std::string& where);
    // Hands operation i's destination cube to the observer, if it wrote one to memory.
    void observe(const TaskEntry& task, const DlaTaskView& view, std::size_t i, const std::string& where);

    const Loadable& l_;
    const target::NvdlaConfig& config_;
    std::vector<std::vector<std::uint8_t>> memories_;
};

}  // namespace tessera::nvdla::simulation
