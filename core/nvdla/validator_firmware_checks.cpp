// The checks of one DLA task that follow the firmware: the values it asserts or programs minus one,
// and its walk of the dependency graph.
#include "nvdla/validator_findings.h"

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <map>
#include <set>

namespace tessera::nvdla {

void checkFirmwareRules(FindingList& findings, const DlaTaskView& view, std::size_t i, const std::string& opWhere)
{
    const ConstRecord op = view.op(i), surface = view.surface(i);
    const auto atLeastOne = [&](const char* field) {
        if (op.get(field) < 1)
            findings.error(opWhere + " " + field, "is {}; the firmware programs it minus one, so it must be at least 1",
                  op.get(field));
    };
    for (const std::string& cube : view.interface->cubes.at(view.operations[i].type)) {
        if (surface.get(cube + ".address") == -1)
            continue;
        for (const char* dimension : {".width", ".height", ".channel"})
            if (surface.get(cube + dimension) > 8192)
                findings.error(opWhere + " " + cube + dimension, "{} exceeds the 8192 the firmware's cube check allows",
                      surface.get(cube + dimension));
    }
    switch (view.operations[i].type) {
    case DlaOp::Conv:
        for (const char* field : {"batch", "entry_per_slice", "fetch_grain", "data_bank", "weight_bank", "release",
                                  "bytes_per_kernel", "conv_stride_x", "conv_stride_y", "dilation_x", "dilation_y"})
            atLeastOne(field);
        if (op.get("out_cvt.scale") != 1 || op.get("out_cvt.offset") != 0)
            findings.error(opWhere + " out_cvt", "scale {} and offset {}: the firmware asserts scale 1 and offset 0",
                  op.get("out_cvt.scale"), op.get("out_cvt.offset"));
        if (op.get("data_bank") + op.get("weight_bank") > 32)
            findings.error(opWhere + " data_bank", "{} data and {} weight banks exceed every configuration's CBUF",
                  op.get("data_bank"), op.get("weight_bank"));
        break;
    case DlaOp::Sdp:
        atLeastOne("batch_num");
        break;
    case DlaOp::Pdp: {
        for (const char* field : {"pool_width", "pool_height"})
            if (op.get(field) > 7)
                findings.error(opWhere + " " + field, "{} is not a pooling size code (0..7 for 1..8)", op.get(field));
        for (const char* field : {"stride_x", "stride_y"})
            if (op.get(field) < 1 || op.get(field) > 8)
                findings.error(opWhere + " " + field, "{}: the firmware takes PDP strides 1..8", op.get(field));
        if (op.get("split_num") > 64)
            findings.error(opWhere + " split_num", "{} exceeds the firmware's 64", op.get("split_num"));
        // The firmware ORs each partial width minus one into a 10-bit field without masking.
        for (const char* field : {"partial_in_width_first", "partial_in_width_mid", "partial_in_width_last",
                                  "partial_width_first", "partial_width_mid", "partial_width_last"})
            if (op.get(field) > 1024)
                findings.error(opWhere + " " + field, "{} does not fit the register's 10 bits (at most 1024)",
                               op.get(field));
        if (surface.get("dst_data.type") == kMemoryHw)
            findings.error(opWhere + " dst_data.type", "PDP writes memory, never on the fly");
        if (op.get("precision") > kPrecisionFp16)
            findings.error(opWhere + " precision", "{} is not INT8, INT16 or FP16", op.get("precision"));
        if (op.get("precision") == kPrecisionFp16)
            for (int k = 0; k < 7; ++k)
                if (op.get(fmt::format("padding_value[{}]", k)) != 0)
                    findings.error(opWhere + fmt::format(" padding_value[{}]", k), "the firmware asserts FP16 padding values 0");
        break;
    }
    case DlaOp::Cdp: {
        if (op.get("in_precision") != op.get("out_precision"))
            findings.error(opWhere + " out_precision", "{} differs from in_precision {}: CDP does not convert precision",
                  op.get("out_precision"), op.get("in_precision"));
        // The firmware writes (local_size - 1) / 2 - 1 unmasked into a 2-bit field.
        const std::int64_t size = op.get("local_size");
        if (size != 3 && size != 5 && size != 7 && size != 9)
            findings.error(opWhere + " local_size", "{} is not one of CDP's 3, 5, 7 or 9 channels", size);
        for (const char* cube : {"src_data", "dst_data"})
            if (surface.get(std::string(cube) + ".type") == kMemoryHw)
                findings.error(opWhere + " " + cube + ".type", "CDP reads and writes memory, never on the fly");
        break;
    }
    case DlaOp::Bdma: {
        // bdma.c: at most 20 transfers, each asserted before it is queued; the registers drop the
        // low five bits of every address and stride.
        const std::int64_t count = surface.get("num_transfers");
        if (count > 20)
            findings.error(opWhere + " num_transfers", "{} exceeds the firmware's 20", count);
        for (std::int64_t t = 0; t < std::min<std::int64_t>(count, 20); ++t) {
            const std::string name = fmt::format("transfers[{}]", t);
            const auto field = [&](const char* f) { return surface.get(name + "." + f); };
            const std::string where = opWhere + " " + name;
            if (field("line_size") < 32 || field("line_size") % 32 != 0)
                findings.error(where + ".line_size", "{} is not a positive multiple of 32 bytes", field("line_size"));
            for (const char* repeat : {"line_repeat", "surface_repeat"})
                if (field(repeat) < 1 || field(repeat) > 8192)
                    findings.error(where + "." + repeat, "{}: the firmware takes 1..8192", field(repeat));
            for (const char* stride : {"source_line", "destination_line"})
                if (field(stride) < field("line_size"))
                    findings.error(where + "." + stride, "{} is less than line_size {} (the firmware asserts it)",
                                   field(stride), field("line_size"));
            if (field("source_surface") < field("source_line") * field("line_repeat") ||
                field("destination_surface") < field("destination_line") * field("line_repeat"))
                findings.error(where, "a surface stride is less than its line stride times line_repeat (the firmware "
                                      "asserts it)");
            for (const char* stride : {"source_line", "destination_line", "source_surface", "destination_surface"})
                if (field(stride) % 32 != 0)
                    findings.error(where + "." + stride, "{} is not a multiple of 32 bytes", field(stride));
            for (const char* address : {"source_address", "destination_address"})
                if (field(address) < 0 || std::size_t(field(address)) >= view.addressList.size())
                    findings.error(where + "." + address, "task address index {} is outside the task's {} addresses",
                                   field(address), view.addressList.size());
        }
        if (op.get("num_transfers") != count)
            findings.warning(opWhere + " num_transfers", "the operation says {}, its surface {}; the firmware uses the "
                                                         "surface's",
                             op.get("num_transfers"), count);
        break;
    }
    case DlaOp::Rubik: {
        const std::int64_t mode = op.get("mode");
        if (mode > kRubikMerge)
            findings.error(opWhere + " mode", "{} is not contract (0), split (1) or merge (2)", mode);
        if (op.get("precision") > kPrecisionFp16)
            findings.error(opWhere + " precision", "{} is not INT8, INT16 or FP16", op.get("precision"));
        for (const char* cube : {"src_data", "dst_data"}) {
            const std::string name = cube;
            if (surface.get(name + ".type") == kMemoryHw)
                findings.error(opWhere + " " + name + ".type", "RUBIK reads and writes memory, never on the fly");
            for (const char* field : {".offset", ".line_stride", ".surf_stride", ".plane_stride"})
                if ((std::string(field) != ".offset" || view.interface->dataCube.find("offset")) &&
                    surface.get(name + field) % 32 != 0)
                    findings.error(opWhere + " " + name + field, "{} is not a multiple of 32 bytes (the unit drops the "
                                                                "low bits)",
                                   surface.get(name + field));
        }
        if (mode == kRubikContract) {
            for (const char* stride : {"stride_x", "stride_y"})
                if (op.get(stride) < 1 || op.get(stride) > 32)
                    findings.error(opWhere + " " + stride, "{}: contract strides are 1..32", op.get(stride));
            if (surface.get("dst_data.width") != surface.get("src_data.width") * op.get("stride_x") ||
                surface.get("dst_data.height") != surface.get("src_data.height") * op.get("stride_y"))
                findings.error(opWhere + " dst_data", "{}x{} is not the source's {}x{} times the strides",
                               surface.get("dst_data.width"), surface.get("dst_data.height"),
                               surface.get("src_data.width"), surface.get("src_data.height"));
        }
        if (mode == kRubikMerge && surface.get("src_data.plane_stride") == 0)
            findings.error(opWhere + " src_data.plane_stride", "is 0; the firmware asserts a merge's plane stride");
        break;
    }
    default:
        break;
    }
}

// Walks the dependency graph as the firmware does: each unit takes its operations in the chain that
// starts at op_head and follows consumers[own unit]; an operation is programmed when its unit
// reaches it (two register groups per unit), enabled when its dependency count reaches 0, and
// completes after it was enabled. Programming, enabling and completion each decrement the counts of
// the consumers that wait for that event.
void checkDependencyGraph(FindingList& findings, const DlaTaskView& view, const std::string& where)
{
    const std::size_t count = view.operations.size();
    std::vector<int> remaining(count, 0);
    bool consistent = true;
    for (std::size_t i = 0; i < count; ++i) {
        const ConstRecord common = view.common(i);
        const std::string opWhere = fmt::format("{} op {} ({})", where, i, dlaOpName(view.operations[i].type));
        if (common.get("index") != std::int64_t(i))
            findings.warning(opWhere + " index", "is {}; the firmware sets it, the compiler writes the position {}",
                    common.get("index"), i);
        for (unsigned unit = 0; unit < kDlaOpCount; ++unit) {
            const std::int64_t target = common.get(fmt::format("consumers[{}].index", unit));
            if (target == -1)
                continue;
            if (target < 0 || std::size_t(target) >= count || unsigned(view.operations[std::size_t(target)].type) != unit) {
                findings.error(fmt::format("{}.consumers[{}].index", opWhere, unit), "{} is not a {} operation of this task",
                      target, dlaOpName(DlaOp(unit)));
                consistent = false;
                continue;
            }
            ++remaining[std::size_t(target)];
        }
        const std::int64_t parent = common.get("fused_parent.index");
        if (parent != -1) {
            if (parent < 0 || std::size_t(parent) >= count ||
                unsigned(view.operations[std::size_t(parent)].type) + 1 != unsigned(view.operations[i].type)) {
                findings.error(opWhere + ".fused_parent.index", "{} is not an operation of the unit before {}", parent,
                      dlaOpName(view.operations[i].type));
                consistent = false;
            } else {
                ++remaining[std::size_t(parent)];
            }
        }
    }
    for (std::size_t i = 0; i < count; ++i) {
        const std::int64_t declared = view.common(i).get("dependency_count");
        if (declared != remaining[i]) {
            findings.error(fmt::format("{} op {} ({}).dependency_count", where, i, dlaOpName(view.operations[i].type)),
                  "is {} but {} links point at the operation", declared, remaining[i]);
            consistent = false;
        }
    }
    if (!consistent)
        return;

    // Each unit's chain must visit its operations once each, in a loop-free order.
    std::array<std::vector<std::size_t>, kDlaOpCount> chains;
    std::vector<int> visits(count, 0);
    for (unsigned unit = 0; unit < kDlaOpCount; ++unit) {
        std::int64_t at = view.network().get(fmt::format("op_head[{}]", unit));
        while (at >= 0 && std::size_t(at) < count && visits[std::size_t(at)] == 0) {
            ++visits[std::size_t(at)];
            chains[unit].push_back(std::size_t(at));
            at = view.common(std::size_t(at)).get(fmt::format("consumers[{}].index", unit));
        }
        if (at >= 0 && std::size_t(at) < count && visits[std::size_t(at)] > 0) {
            findings.error(fmt::format("{} {} chain", where, dlaOpName(DlaOp(unit))), "returns to operation {}: a loop", at);
            return;
        }
    }
    for (std::size_t i = 0; i < count; ++i)
        if (visits[i] == 0)
            findings.error(fmt::format("{} op {} ({})", where, i, dlaOpName(view.operations[i].type)),
                  "is never reached: no op_head or consumers[{}] chain leads to it", unsigned(view.operations[i].type));

    enum State { Waiting, Programmed, Enabled, Completed };
    std::vector<State> state(count, Waiting);
    std::array<std::size_t, kDlaOpCount> next{};  // next chain position to program, per unit
    std::array<int, kDlaOpCount> inFlight{};      // programmed and not completed, per unit
    std::deque<std::pair<std::size_t, int>> events;  // (operation, DLA_EVENT_*)
    auto signal = [&](std::size_t op, int event) { events.emplace_back(op, event); };
    std::size_t completed = 0;
    bool progress = true;
    while (progress) {
        progress = false;
        for (unsigned unit = 0; unit < kDlaOpCount; ++unit)
            while (next[unit] < chains[unit].size() && inFlight[unit] < 2) {
                const std::size_t op = chains[unit][next[unit]++];
                state[op] = Programmed;
                ++inFlight[unit];
                signal(op, 2);
                progress = true;
            }
        for (std::size_t i = 0; i < count; ++i)
            if (state[i] == Programmed && remaining[i] == 0) {
                state[i] = Enabled;
                signal(i, 3);
                progress = true;
            }
        while (!events.empty()) {
            const auto [op, event] = events.front();
            events.pop_front();
            const ConstRecord common = view.common(op);
            for (unsigned unit = 0; unit < kDlaOpCount; ++unit)
                if (common.get(fmt::format("consumers[{}].index", unit)) != -1 &&
                    common.get(fmt::format("consumers[{}].event", unit)) == event)
                    --remaining[std::size_t(common.get(fmt::format("consumers[{}].index", unit)))];
            if (common.get("fused_parent.index") != -1 && common.get("fused_parent.event") == event)
                --remaining[std::size_t(common.get("fused_parent.index"))];
            progress = true;
        }
        // Enabled operations complete, the earliest of each unit first.
        for (unsigned unit = 0; unit < kDlaOpCount; ++unit)
            for (std::size_t position = 0; position < next[unit]; ++position) {
                const std::size_t op = chains[unit][position];
                if (state[op] == Enabled) {
                    state[op] = Completed;
                    --inFlight[unit];
                    ++completed;
                    signal(op, 1);
                    progress = true;
                    break;
                }
                if (state[op] != Completed)
                    break;
            }
    }
    if (completed == count)
        return;
    std::string stuck;
    for (std::size_t i = 0; i < count; ++i)
        if (state[i] != Completed)
            stuck += fmt::format("{}op {} ({}) waiting for {}", stuck.empty() ? "" : ", ", i,
                                 dlaOpName(view.operations[i].type), std::max(remaining[i], 0));
    findings.error(where + " dependency graph",
          "the firmware would wait forever: {} never run ({}; a loop of consumer links or a count too high)",
          count - completed, stuck);
}

}  // namespace tessera::nvdla
