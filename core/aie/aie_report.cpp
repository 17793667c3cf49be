#include "aie/aie_report.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

namespace tessera::aie {

namespace {

std::string dims(const std::vector<int64_t>& values)
{
    std::string text = "{";
    for (size_t k = 0; k < values.size(); ++k)
        text += (k ? "," : "") + std::to_string(values[k]);
    return text + "}";
}

std::string tilingText(const MemtileTiling& t)
{
    return fmt::format("buffer_dimension={} tiling_dimension={} offset={} traversal_stride={}", dims(t.bufferDims),
                       dims(t.tileDims), dims(t.offset), dims(t.strides));
}

} // namespace

std::string formatKB(double kb)
{
    std::string text = fmt::format("{:.1f}", std::round(kb * 10.0) / 10.0);
    if (text.size() > 2 && text.compare(text.size() - 2, 2, ".0") == 0)
        text.resize(text.size() - 2);
    return text;
}

std::string formatTable(const AiePlan& plan)
{
    const std::vector<std::string> header{"Layer", "Input Tensor Shape", "Output Tensor Shape",
                                          "Input storage req. local tile (KB)", "Output storage req. local tile (KB)",
                                          "Kernel invocation", "Memory Tile invocation", "Note"};
    std::vector<std::vector<std::string>> rows;
    for (const LayerPlan& p : plan.layers)
        rows.push_back({p.layer.name, p.layer.inputShapeText(), p.layer.outputShapeText(), formatKB(p.inputKB),
                        formatKB(p.outputKB), std::to_string(p.kernelInvocations),
                        p.memtileInvocations ? std::to_string(*p.memtileInvocations) : "NA", p.note});
    // Column widths count characters, not bytes (the note may hold an em dash).
    auto width = [](const std::string& s) {
        return size_t(std::count_if(s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
    };
    std::vector<size_t> widths(header.size());
    for (size_t c = 0; c + 1 < header.size(); ++c) {
        widths[c] = width(header[c]);
        for (const auto& row : rows)
            widths[c] = std::max(widths[c], width(row[c]));
    }
    std::string out = fmt::format("AI Engine split plan for {} ({} KB tile, {} KB per ping-pong pair{})\n", plan.arch.name,
                                  plan.arch.tileBytes / 1024, plan.arch.pingPongBudget() / 1024,
                                  plan.arch.hasMemoryTile() ? fmt::format(", {} KB memory tile", plan.arch.memtileBytes / 1024)
                                                            : ", no memory tile");
    auto line = [&](const std::vector<std::string>& cells) {
        std::string text;
        for (size_t c = 0; c < cells.size(); ++c) {
            text += cells[c];
            if (c + 1 < cells.size())
                text += std::string(widths[c] - width(cells[c]) + 2, ' ');
        }
        out += text + "\n";
    };
    line(header);
    for (const auto& row : rows)
        line(row);
    return out;
}

std::string formatJson(const AiePlan& plan)
{
    nlohmann::json layers = nlohmann::json::array();
    auto optionalText = [](const std::optional<std::string>& value) {
        return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
    };
    for (const LayerPlan& p : plan.layers) {
        nlohmann::json inShape = p.layer.flat ? nlohmann::json::array({p.layer.inNodes})
                                              : nlohmann::json::array({p.layer.inNodes, p.layer.inSamples});
        nlohmann::json outShape = p.layer.flat ? nlohmann::json::array({p.layer.outNodes})
                                               : nlohmann::json::array({p.layer.outNodes, p.layer.outSamples});
        layers.push_back({{"name", p.layer.name},
                          {"op", layerKindName(p.layer.kind)},
                          {"input_shape", inShape},
                          {"output_shape", outShape},
                          {"input_kb", p.inputKB},
                          {"output_kb", p.outputKB},
                          {"kernel_invocations", p.kernelInvocations},
                          {"memtile_invocations", p.memtileInvocations ? nlohmann::json(*p.memtileInvocations) : nlohmann::json(nullptr)},
                          {"nsplit", p.nsplit},
                          {"async_buffer", optionalText(p.asyncBuffer)},
                          {"split_dim", optionalText(p.splitDim)},
                          {"note", p.note},
                          {"reasons", p.reasons}});
    }
    return nlohmann::json{{"arch", plan.arch.name}, {"layers", layers}}.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string formatAdf(const AiePlan& plan)
{
    std::string out = fmt::format("// ADF graph plan for {}: one graph iteration is one inference\n", plan.arch.name);
    for (const LayerPlan& p : plan.layers) {
        const AieLayer& l = p.layer;
        out += fmt::format("\nkernel {} ({})\n", l.name, layerKindName(l.kind));
        out += fmt::format("  repetition_count(kernel) = {}\n", p.kernelInvocations);
        out += fmt::format("  dimensions(in[0]) = {}{}\n", p.kernelInputElements,
                           p.asyncBuffer == std::optional<std::string>("input") ? "  // async input buffer" : "");
        out += fmt::format("  dimensions(out[0]) = {}{}\n", p.kernelOutputElements,
                           p.asyncBuffer == std::optional<std::string>("output")
                               ? fmt::format("  // async output buffer, released every 1/{} of the output", p.nsplit)
                               : "");
        if (p.weightBytes > 0)
            out += fmt::format("  weights: async RTP, single_buffer, {} bytes over {} tile(s)\n", p.weightBytes, p.weightTiles);
        if (p.memtileInvocations) {
            out += fmt::format("  shared_buffer {}_mt: repetition_count = {}, num_buffers = 2\n", l.name, *p.memtileInvocations);
            if (p.inputTiling)
                out += "    read  " + tilingText(*p.inputTiling) + "\n";
            if (p.outputTiling)
                out += "    write " + tilingText(*p.outputTiling) + "\n";
        }
        for (const std::string& reason : p.reasons)
            out += "  // " + reason + "\n";
    }
    return out;
}

} // namespace tessera::aie
