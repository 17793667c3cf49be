// tessera nvdla configs | check MODEL | inspect FILE.nvdla | run FILE.nvdla: the NVDLA configurations
// Tessera targets, which unit would run each node of a model (or why none can), a loadable explained
// and checked against what NVIDIA's runtime and firmware require, and a loadable run on the host by
// the descriptor simulator.
#include "commands.h"

#include "base/error.h"
#include "io/file_io.h"
#include "nvdla/compile/legalization.h"
#include "nvdla/compile/unit_mapping.h"
#include "nvdla/loadable.h"
#include "nvdla/loadable_inspector.h"
#include "nvdla/loadable_validator.h"
#include "nvdla/simulator/descriptor_simulator.h"
#include "nvdla_project/runtime_image.h"
#include "onnx/tensor_proto.h"
#include "session/model_loader.h"
#include "target/nvdla_configs.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <memory>

namespace tessera::cli {

namespace {

nvdla::Loadable readLoadableFile(const std::string& path)
{
    const std::string bytes = readFileBytes(path);
    return nvdla::readLoadable(std::span(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()), path);
}

int printConfigs(bool json)
{
    const auto yes = [](bool value) { return value ? "yes" : "no"; };
    if (json) {
        nlohmann::json list = nlohmann::json::array();
        for (const target::NvdlaConfig& c : target::nvdlaConfigs()) {
            nlohmann::json precisions = nlohmann::json::array();
            for (target::NvdlaPrecision p : c.precisions)
                precisions.push_back(target::nvdlaPrecisionName(p));
            list.push_back({{"name", c.name}, {"description", c.description}, {"atomic_c", c.atomicC},
                            {"atomic_k", c.atomicK}, {"memory_atomic_bytes", c.memoryAtomicBytes},
                            {"cbuf_banks", c.cbufBanks}, {"cbuf_entries_per_bank", c.cbufEntriesPerBank},
                            {"cbuf_entry_bytes", c.cbufEntryBytes}, {"cbuf_bytes", c.cbufBytes()},
                            {"bdma", c.hasBdma}, {"rubik", c.hasRubik}, {"sdp_lut", c.hasSdpLut},
                            {"sdp_elementwise", c.hasSdpElementwise}, {"batch", c.hasBatch},
                            {"pdp", c.hasPdp}, {"cdp", c.hasCdp}, {"precisions", precisions}});
        }
        fmt::print("{}\n", list.dump(2, ' ', false, nlohmann::json::error_handler_t::replace));
        return 0;
    }
    fmt::print("{:<9} {:>8} {:>8} {:>7} {:>15} {:>9}  {:<4} {:<5} {:<7} {:<8} {:<5} {}\n", "config", "atomic C",
               "atomic K", "atom B", "CBUF banks", "CBUF", "BDMA", "RUBIK", "SDP LUT", "SDP elt.", "batch",
               "precisions");
    for (const target::NvdlaConfig& c : target::nvdlaConfigs()) {
        std::string precisions;
        for (target::NvdlaPrecision p : c.precisions)
            precisions += fmt::format("{}{}", precisions.empty() ? "" : " ", target::nvdlaPrecisionName(p));
        fmt::print("{:<9} {:>8} {:>8} {:>7} {:>15} {:>6} KiB  {:<4} {:<5} {:<7} {:<8} {:<5} {}\n", c.name, c.atomicC,
                   c.atomicK, c.memoryAtomicBytes,
                   fmt::format("{}x{}x{}", c.cbufBanks, c.cbufEntriesPerBank, c.cbufEntryBytes), c.cbufBytes() / 1024,
                   yes(c.hasBdma), yes(c.hasRubik), yes(c.hasSdpLut), yes(c.hasSdpElementwise), yes(c.hasBatch),
                   precisions);
    }
    return 0;
}

int inspect(const std::string& path, bool json)
{
    const nvdla::Loadable loadable = readLoadableFile(path);
    const std::vector<nvdla::Finding> findings = nvdla::validateLoadable(loadable);
    if (json) {
        nlohmann::json document = nvdla::loadableToJson(loadable);
        nlohmann::json list = nlohmann::json::array();
        for (const nvdla::Finding& finding : findings)
            list.push_back({{"severity", finding.severity == nvdla::Finding::Severity::Error ? "error" : "warning"},
                            {"where", finding.where},
                            {"message", finding.message}});
        document["findings"] = list;
        document["valid"] = nvdla::isValid(findings);
        fmt::print("{}\n", document.dump(2, ' ', false, nlohmann::json::error_handler_t::replace));
    } else {
        fmt::print("{}", nvdla::explainLoadable(loadable));
        if (findings.empty())
            fmt::print("checks: every list, cross-reference and descriptor is as the runtime and firmware require\n");
        else
            fmt::print(stderr, "{}", nvdla::formatFindings(findings));
    }
    if (!nvdla::isValid(findings)) {
        fmt::print(stderr, "error: {}: the loadable breaks what NVIDIA's runtime or firmware require (see above)\n",
                   path);
        return 1;
    }
    return 0;
}

struct CheckOptions {
    std::string model;
    std::string config = "nv_full";
    std::string precision;
    std::string dumpAfter;
    bool json = false;
};

int check(const CheckOptions& options)
{
    const target::NvdlaConfig& config = target::nvdlaConfig(options.config);
    const target::NvdlaPrecision precision = options.precision.empty()
                                                 ? config.precisions.back()
                                                 : target::parseNvdlaPrecision(options.precision);
    nvdla::requirePrecision(config, precision);
    Graph graph = loadModel(options.model);
    nvdla::LegalizationLog log;
    nvdla::legalize(graph, config, log, options.dumpAfter);
    if (!options.dumpAfter.empty()) {
        fmt::print("{}", nvdla::dumpGraph(graph));
        return 0;
    }
    const nvdla::MappingReport report = nvdla::mapToUnits(graph, config, precision, log);
    if (options.json)
        fmt::print("{}\n", report.json().dump(2, ' ', false, nlohmann::json::error_handler_t::replace));
    else
        fmt::print("{}", report.text());
    return report.ok() ? 0 : 1;
}

struct RunOptions {
    std::string loadable;
    std::vector<std::string> inputs;
    std::string image;  // instead of -i: an image as nvdla_runtime --image reads it
    int normalize = 1;
    std::vector<float> mean;
    std::string outputDir;
    std::string config;  // empty: nv_small for loadables of 8-byte atoms, else nv_full
    bool trace = false;
};

int runLoadable(const RunOptions& options)
{
    const nvdla::Loadable loadable = readLoadableFile(options.loadable);
    const std::vector<nvdla::Finding> findings = nvdla::validateLoadable(loadable);
    if (!nvdla::isValid(findings))
        throw tessera::Error(options.loadable + ": the loadable breaks what NVIDIA's runtime or firmware require; "
                    "`tessera nvdla inspect` names each violation:\n" + nvdla::formatFindings(findings));
    const std::vector<nvdla::TensorDesc> expected = nvdla::loadableInputs(loadable);
    std::vector<TensorData> inputs;
    if (!options.image.empty()) {
        if (expected.size() != 1)
            throw tessera::ModelError(fmt::format("{}: the loadable binds {} inputs; --image fills one, so give a tensor "
                                             "file per input with -i",
                                             options.loadable, expected.size()));
        nvdla::RuntimeImageOptions imageOptions;
        imageOptions.normalize = options.normalize;
        for (std::size_t c = 0; c < options.mean.size(); ++c)
            imageOptions.mean[c] = options.mean[c];
        inputs.push_back(nvdla::runtimeImageInput(nvdla::readRuntimeImageFile(options.image), expected[0],
                                                  options.image, imageOptions));
    } else if (options.inputs.size() != expected.size()) {
        std::string names;
        for (const nvdla::TensorDesc& tensor : expected)
            names += fmt::format("{}'{}' {}x{}x{}", names.empty() ? "" : ", ", tensor.name, tensor.c, tensor.h, tensor.w);
        throw tessera::ModelError(fmt::format("{}: the loadable binds {} inputs ({}), {} given with -i", options.loadable,
                                expected.size(), names, options.inputs.size()));
    }
    for (std::size_t k = 0; k < options.inputs.size(); ++k) {
        if (expected[k].dataType != nvdla::kDataTypeInt8) {
            inputs.push_back(readTensorFileAs(options.inputs[k], DType::Float32));
            continue;
        }
        // INT8 inputs are the quantized values the application writes, not real values.
        TensorData data = readTensorFile(options.inputs[k]);
        if (data.dtype() != DType::Int8)
            throw tessera::Error(fmt::format("{}: input '{}' of the loadable is INT8: give its int8 values, round(x / "
                                             "scale) with the scale of '{}' in the compile report (report.json "
                                             "\"scales\"), as an int8 tensor",
                                             options.inputs[k], expected[k].name, expected[k].name));
        inputs.push_back(std::move(data));
    }
    // Loadables for 8-byte memory atoms (FEATURE_X8 tensors) are nv_small's.
    std::string config = options.config;
    if (config.empty())
        config = !expected.empty() && expected[0].pixelFormat == nvdla::kPixelFormatFeature + 1 ? "nv_small" : "nv_full";
    const nvdla::SimulationResult result = nvdla::simulateLoadable(loadable, inputs, target::nvdlaConfig(config));
    if (options.trace)
        for (const std::string& line : result.trace)
            fmt::print("{}\n", line);
    std::error_code error;
    std::filesystem::create_directories(options.outputDir, error);
    if (error)
        throw tessera::Error(options.outputDir + ": cannot create the output directory (" + error.message() + ")");
    for (std::size_t k = 0; k < result.outputs.size(); ++k) {
        const std::string path = (std::filesystem::path(options.outputDir) / fmt::format("output_{}.pb", k)).string();
        writeTensorFile(path, result.outputs[k], result.names[k]);
        fmt::print("{}: '{}' {} {}\n", path, result.names[k], dtypeName(result.outputs[k].dtype()),
                   shapeToString(result.outputs[k].shape()));
    }
    return 0;
}

}  // namespace

void addNvdlaCommand(CLI::App& app, Action& action)
{
    auto* command = app.add_subcommand("nvdla", "NVDLA: hardware configurations and loadables");
    command->require_subcommand(1);

    auto* configs = command->add_subcommand("configs", "List the NVDLA hardware configurations Tessera targets");
    auto configsJson = std::make_shared<bool>(false);
    configs->add_flag("--json", *configsJson, "Print JSON");
    configs->callback([&action, configsJson] { action = [configsJson] { return printConfigs(*configsJson); }; });

    auto* checkCommand = command->add_subcommand(
        "check", "Which NVDLA unit runs each node of a model on a configuration, or why none can (exit 1 then)");
    auto checkOptions = std::make_shared<CheckOptions>();
    checkCommand->add_option("model", checkOptions->model, "The ONNX model")->required()->check(nonEmptyPath());
    checkCommand->add_option("--config", checkOptions->config, "nv_full, nv_large or nv_small")->capture_default_str();
    checkCommand->add_option("--precision", checkOptions->precision,
                             "fp16 or int8 (default: fp16 where the configuration has it, else int8)");
    std::string passNames;
    for (const nvdla::LegalizationPass& pass : nvdla::legalizationPasses())
        passNames += (passNames.empty() ? "" : ", ") + std::string(pass.name);
    checkCommand->add_option("--dump-after", checkOptions->dumpAfter,
                             "Print the graph after this legalization pass instead (" + passNames + ")");
    checkCommand->add_flag("--json", checkOptions->json, "Print JSON");
    checkCommand->callback([&action, checkOptions] { action = [checkOptions] { return check(*checkOptions); }; });

    auto* inspectCommand = command->add_subcommand(
        "inspect", "Explain an NVDLA loadable (.nvdla) and check it against what NVIDIA's runtime and firmware require");
    auto file = std::make_shared<std::string>();
    auto inspectJson = std::make_shared<bool>(false);
    inspectCommand->add_option("loadable", *file, "The loadable file")->required()->check(nonEmptyPath());
    inspectCommand->add_flag("--json", *inspectJson, "Every list and every descriptor field as JSON");
    auto* runCommand = command->add_subcommand(
        "run", "Run an NVDLA loadable on the host with the descriptor simulator; write output_<k>.pb");
    auto runOptions = std::make_shared<RunOptions>();
    runCommand->add_option("loadable", runOptions->loadable, "The loadable file")->required()->check(nonEmptyPath());
    runCommand->add_option("-i,--input", runOptions->inputs,
                           "Input tensor files (.pb) in bind order: real values (float) for FP16 inputs, the "
                           "quantized int8 values for INT8 inputs");
    auto* image = runCommand->add_option("--image", runOptions->image,
                                         "Instead of -i: an image (.pgm or .jpg) made into the input as nvdla_runtime "
                                         "--image makes it");
    image->excludes(runCommand->get_option("--input"));
    runCommand->add_option("--normalize", runOptions->normalize,
                           "With --image: FP16 inputs take (pixel - mean) / normalize, as nvdla_runtime's option")
        ->check(CLI::Range(1, 255))->needs(image)->capture_default_str();
    runCommand->add_option("--mean", runOptions->mean, "With --image: the mean per image channel (blue, green, red "
                                                       "for a colour JPEG), comma-separated")
        ->delimiter(',')->expected(1, 4)->needs(image);
    runCommand->add_option("-o,--output-dir", runOptions->outputDir, "Directory for output_<k>.pb")
        ->required()->check(nonEmptyPath());
    runCommand->add_option("--config", runOptions->config,
                           "The configuration the loadable was compiled for (default: nv_small for loadables of "
                           "8-byte memory atoms, else nv_full)");
    runCommand->add_flag("--trace", runOptions->trace, "Print each operation as it runs");
    runCommand->callback([&action, runOptions] { action = [runOptions] { return runLoadable(*runOptions); }; });

    inspectCommand->callback([&action, file, inspectJson] { action = [file, inspectJson] { return inspect(*file, *inspectJson); }; });
}

}  // namespace tessera::cli
