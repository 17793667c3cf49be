#include "scamp/kernel_set.h"

#include "io/file_io.h"
#include "base/error.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>

namespace tessera::scamp {

namespace {

using nlohmann::json;

std::vector<std::vector<double>> parseWeights(const json& value, const std::string& where)
{
    if (!value.is_array() || value.empty())
        throw Error(where + ": weights must be a non-empty array of rows");
    if (value.size() > size_t(kMaxKernelSide))
        throw Error(where + ": weights have " + std::to_string(value.size()) + " rows, more than the " +
                    std::to_string(kMaxKernelSide) + " a kernel may have; split the filter or shrink it");
    std::vector<std::vector<double>> rows;
    for (size_t r = 0; r < value.size(); ++r) {
        const json& row = value[r];
        if (!row.is_array() || row.empty())
            throw Error(where + ": weights row " + std::to_string(r) + " must be a non-empty array of numbers");
        std::vector<double> numbers;
        for (size_t c = 0; c < row.size(); ++c) {
            if (!row[c].is_number())
                throw Error(where + ": weight [" + std::to_string(r) + "][" + std::to_string(c) + "] is not a number (" +
                            row[c].dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + ")");
            numbers.push_back(row[c].get<double>());
        }
        if (!rows.empty() && numbers.size() != rows.front().size())
            throw Error(where + ": weights row " + std::to_string(r) + " has " + std::to_string(numbers.size()) +
                        " entries, row 0 has " + std::to_string(rows.front().size()) + " (rows must all be the same length)");
        rows.push_back(std::move(numbers));
    }
    if (rows.size() > size_t(kMaxKernelSide) || rows.front().size() > size_t(kMaxKernelSide))
        throw Error(where + ": weights are " + std::to_string(rows.size()) + "x" + std::to_string(rows.front().size()) +
                    ", larger than the " + std::to_string(kMaxKernelSide) + "x" + std::to_string(kMaxKernelSide) +
                    " a SCAMP-5 program can gather from the neighbouring pixels in reasonable time; split the "
                    "filter or shrink it");
    if (rows.size() % 2 == 0 || rows.front().size() % 2 == 0)
        throw Error(where + ": weights are " + std::to_string(rows.size()) + "x" + std::to_string(rows.front().size()) +
                    "; width and height must be odd so that the centre is the pixel itself");
    return rows;
}

} // namespace

KernelSet parseKernelSet(const std::string& text, const std::string& source)
{
    json document;
    try {
        document = json::parse(text);
    } catch (const json::exception& error) {  // parse_error, or out_of_range for a number such as 1e400
        throw Error(source + ": not valid JSON (" + jsonErrorText(error) + ")");
    }
    if (!document.is_object())
        throw Error(source + ": expected a JSON object with a \"kernels\" array");
    KernelSet set;
    try {
        set.name = document.value("name", std::string("kernels"));
        set.inputRegister = document.value("input_register", set.inputRegister);
        set.registers = document.value("registers", set.registers);
        set.maxApproximationDepth = document.value("max_approximation_depth", set.maxApproximationDepth);
        set.maxApproximationError = document.value("max_approximation_error", set.maxApproximationError);
    } catch (const json::exception& error) {
        throw Error(source + ": " + jsonErrorText(error));
    }
    if (set.maxApproximationDepth < 0 || set.maxApproximationDepth > 20)
        throw Error(source + ": max_approximation_depth must be between 0 and 20");
    std::set<std::string> registers;
    for (const std::string& name : set.registers) {
        // Programs name registers in instructions such as "add(B, A, C)": a name is a letter
        // followed by letters, digits or '_', so that every program can be read back.
        const bool word = !name.empty() && std::isalpha(static_cast<unsigned char>(name[0])) &&
                          std::all_of(name.begin(), name.end(), [](char c) {
                              return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
                          });
        if (!word)
            throw Error(source + ": register name '" + name +
                        "' is not a name: use a letter followed by letters, digits or '_' (e.g. A, B, R1)");
        if (!registers.insert(name).second)
            throw Error(source + ": register '" + name + "' is listed twice; register names must be unique");
    }
    if (!registers.count(set.inputRegister))
        throw Error(source + ": input register '" + set.inputRegister + "' is not among the registers");
    if (!document.contains("kernels") || !document["kernels"].is_array() || document["kernels"].empty())
        throw Error(source + ": \"kernels\" must be a non-empty array");
    std::set<std::string> outputs;
    for (size_t k = 0; k < document["kernels"].size(); ++k) {
        const json& entry = document["kernels"][k];
        const std::string where = source + ": kernel " + std::to_string(k);
        if (!entry.is_object() || !entry.contains("weights"))
            throw Error(where + " needs \"weights\"");
        KernelSpec kernel;
        kernel.outputRegister = entry.value("output_register", std::string());
        if (!entry.contains("scale"))
            kernel.scale = 1.0;
        else if (!entry["scale"].is_number())
            throw Error(where + ": scale is not a number");
        else
            kernel.scale = entry["scale"].get<double>();
        if (!registers.count(kernel.outputRegister))
            throw Error(where + ": output register '" + kernel.outputRegister + "' is not among the registers");
        if (!outputs.insert(kernel.outputRegister).second)
            throw Error(where + ": output register '" + kernel.outputRegister + "' is used by two kernels");
        kernel.weights = parseWeights(entry["weights"], where);
        set.kernels.push_back(std::move(kernel));
    }
    if (set.kernels.size() > set.registers.size())
        throw Error(source + ": " + std::to_string(set.kernels.size()) + " kernels but only " +
                    std::to_string(set.registers.size()) + " registers");
    return set;
}

KernelSet readKernelSet(const std::string& path)
{
    try {
        return parseKernelSet(readFileBytes(path), path);
    } catch (const ModelError& error) {
        throw Error(error.what());
    }
}

std::string kernelSetToJson(const KernelSet& set)
{
    json document = {{"name", set.name},
                     {"input_register", set.inputRegister},
                     {"registers", set.registers},
                     {"max_approximation_depth", set.maxApproximationDepth},
                     {"max_approximation_error", set.maxApproximationError},
                     {"kernels", json::array()}};
    for (const KernelSpec& kernel : set.kernels)
        document["kernels"].push_back(
            {{"output_register", kernel.outputRegister}, {"scale", kernel.scale}, {"weights", kernel.weights}});
    return document.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
}

ApproximatedKernels approximateKernels(const KernelSet& set)
{
    double bestError = INFINITY;
    std::string tooLarge;  // the first weight whose coefficient passes kMaxCoefficient, at the depth reached
    for (int depth = 0; depth <= set.maxApproximationDepth; ++depth) {
        ApproximatedKernels result;
        result.depth = depth;
        const double unit = std::ldexp(1.0, depth);
        bool within = true;
        for (size_t k = 0; k < set.kernels.size(); ++k) {
            const KernelSpec& kernel = set.kernels[k];
            std::vector<Goal::Term> terms;
            double error = 0.0;
            const int rows = int(kernel.weights.size());
            const int cols = int(kernel.weights.front().size());
            for (int r = 0; r < rows && tooLarge.empty(); ++r)
                for (int c = 0; c < cols; ++c) {
                    const double exact = kernel.weights[size_t(r)][size_t(c)] * kernel.scale;
                    const double count = std::round(exact * unit);
                    if (!(std::abs(count) <= double(kMaxCoefficient))) {  // also NaN and infinity
                        tooLarge = "kernel " + std::to_string(k) + " weight [" + std::to_string(r) + "][" +
                                   std::to_string(c) + "] (" + fmt::format("{:g}", exact) + " after its scale) needs " +
                                   fmt::format("{:g}", count) + " units of 2^-" + std::to_string(depth) +
                                   " of the input at depth " + std::to_string(depth);
                        break;
                    }
                    error += std::abs(count / unit - exact);
                    terms.push_back({{c - cols / 2, rows / 2 - r}, int64_t(count)});
                }
            if (!tooLarge.empty())
                break;
            result.goals.emplace_back(std::move(terms));
            result.errors.push_back(error);
            within = within && error <= set.maxApproximationError + 1e-12;
            bestError = std::min(bestError, error);
        }
        if (!tooLarge.empty())
            break;
        if (within) {
            for (const Goal& goal : result.goals)
                if (goal.isZero())
                    throw Error(set.name + ": a kernel rounds to all zeros at depth " + std::to_string(depth));
            return result;
        }
    }
    if (!tooLarge.empty())
        throw Error(set.name + ": " + tooLarge + ", more than the " + std::to_string(kMaxCoefficient) +
                    " a SCAMP-5 register can accumulate; scale the weights down (the output is only defined up " +
                    "to the register's range) or lower max_approximation_depth");
    throw Error(set.name + ": no approximation depth up to " + std::to_string(set.maxApproximationDepth) +
                " keeps the error within " + std::to_string(set.maxApproximationError) +
                " (raise max_approximation_depth or max_approximation_error)");
}

} // namespace tessera::scamp
