#include "onnx/quantization_metadata.h"

#include "base/error.h"

#include <nlohmann/json.hpp>

#include <string_view>

namespace tessera {

namespace {
constexpr std::string_view kKeyPrefix = "tessera.quantization:";
}

void writeQuantizationMetadata(const Graph& graph, onnx::ModelProto& model)
{
    for (const Tensor& tensor : graph.tensors()) {
        const Quantization& q = tensor.quantization;
        if (q.empty())
            continue;
        nlohmann::json value = nlohmann::json::object();
        if (!q.scale.empty())
            value["scale"] = q.scale;
        if (!q.zeroPoint.empty())
            value["zero_point"] = q.zeroPoint;
        if (q.perChannel())
            value["axis"] = q.axis;
        if (q.fractionalBits)
            value["fractional_bits"] = *q.fractionalBits;
        auto* entry = model.add_metadata_props();
        entry->set_key(std::string(kKeyPrefix) + tensor.name);
        entry->set_value(value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    }
}

void applyQuantizationMetadata(const onnx::ModelProto& model, Graph& graph)
{
    for (const auto& entry : model.metadata_props()) {
        if (entry.key().rfind(kKeyPrefix, 0) != 0)
            continue;
        const std::string name = entry.key().substr(kKeyPrefix.size());
        const auto id = graph.findTensor(name);
        if (!id)
            throw ModelError("metadata entry '" + entry.key() + "' names no tensor of the model");
        Quantization q;
        try {
            const nlohmann::json value = nlohmann::json::parse(entry.value());
            q.scale = value.value("scale", std::vector<float>{});
            q.zeroPoint = value.value("zero_point", std::vector<int64_t>{});
            q.axis = value.value("axis", int64_t{-1});
            if (value.contains("fractional_bits"))
                q.fractionalBits = value.at("fractional_bits").get<int>();
        } catch (const nlohmann::json::exception& error) {
            throw ModelError("metadata entry '" + entry.key() + "' is not valid quantization JSON: " + jsonErrorText(error));
        }
        if (!q.zeroPoint.empty() && q.zeroPoint.size() != q.scale.size())
            throw ModelError("metadata entry '" + entry.key() + "' has " + std::to_string(q.scale.size()) +
                             " scales but " + std::to_string(q.zeroPoint.size()) + " zero points");
        graph.tensor(*id).quantization = std::move(q);
    }
}

} // namespace tessera
