#include "fuzz_targets.h"

#include "fuzz_mutations.h"
#include "nvdla_samples.h"

#include "base/error.h"
#include "interp/interpreter.h"
#include "io/file_io.h"
#include "memory/buffer_csv.h"
#include "memory/memory_planner.h"
#include "memory/plan_validator.h"
#include "nvdla/compile/nvdla_compiler.h"
#include "nvdla/loadable.h"
#include "nvdla/loadable_inspector.h"
#include "nvdla/loadable_validator.h"
#include "nvdla/simulator/descriptor_simulator.h"
#include "onnx/onnx_import.h"
#include "onnx/tensor_proto.h"
#include "scamp/kernel_set.h"
#include "scamp/program.h"
#include "scamp/reverse_search.h"
#include "scamp/simulator.h"
#include "session/model_loader.h"
#include "session/project.h"
#include "target/nvdla_configs.h"
#include "tiler/tile_solver.h"
#include "tiler/tiling_report_file.h"
#include "zoo/zoo.h"

#include <nlohmann/json.hpp>
#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <filesystem>
#include <typeinfo>

namespace tessera::fuzz {

namespace fs = std::filesystem;

namespace {

// Largest tensor the ONNX target lets the interpreter allocate, so absurd but valid shapes stay cheap.
constexpr int64_t kMaxRunElements = 1 << 16;
// Larger inputs are read but not planned, searched or solved: one execution stays in milliseconds.
constexpr std::size_t kMaxPlannedBuffers = 2000;
constexpr std::size_t kMaxSolvedKernels = 16;

// Every verdict comes through here: a tessera::Error is a refusal (unless its text is a library's),
// anything else a failure.
Verdict guarded(const std::function<void()>& work)
{
    try {
        work();
        return {Outcome::Accepted, {}};
    } catch (const Error& error) {
        if (leaksLibraryText(error.what()))
            return {Outcome::Failed, std::string("message with library text: ") + error.what()};
        return {Outcome::Refused, error.what()};
    } catch (const std::exception& error) {
        return {Outcome::Failed, std::string(typeid(error).name()) + ": " + error.what()};
    } catch (...) {
        return {Outcome::Failed, "an exception of unknown type"};
    }
}

// A property of what was read that does not hold: the parser accepted something it cannot stand by.
[[noreturn]] void broken(const std::string& what) { throw std::logic_error(what); }

void runOnnx(const std::string& bytes)
{
    Graph graph = importOnnxBytes(bytes, "fuzz.onnx");
    prepareGraph(graph);
    std::vector<TensorData> inputs;
    for (TensorId id : graph.inputs) {
        const Tensor& tensor = graph.tensor(id);
        if (tensor.elements() > kMaxRunElements)
            return;
        inputs.emplace_back(tensor.dtype, tensor.shape);
    }
    for (const Tensor& tensor : graph.tensors())
        if (tensor.typed && tensor.elements() > kMaxRunElements)
            return;
    Interpreter(graph).run(inputs);
}

void runTensor(const std::string& bytes)
{
    const TensorData data = parseTensorBytes(bytes, "fuzz.pb");
    if (int64_t(data.byteSize()) != data.elements() * int64_t(dtypeSize(data.dtype())))
        broken("a tensor of " + std::to_string(data.elements()) + " elements holds " +
               std::to_string(data.byteSize()) + " bytes");
}

// What `tessera nvdla inspect` and `tessera nvdla run` do with a loadable.
void runLoadable(const std::string& bytes)
{
    const nvdla::Loadable loadable = nvdla::readLoadable(
        std::span(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()), "fuzz.nvdla");
    const auto findings = nvdla::validateLoadable(loadable);
    (void)nvdla::explainLoadable(loadable);
    (void)nvdla::loadableToJson(loadable).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    if (!nvdla::isValid(findings))
        return;
    std::vector<TensorData> inputs;
    for (const nvdla::TensorDesc& tensor : nvdla::loadableInputs(loadable)) {
        const int64_t elements = int64_t(std::max(0, tensor.c)) * std::max(0, tensor.h) * std::max(0, tensor.w);
        if (elements > kMaxRunElements)
            return;
        inputs.push_back(TensorData::fromFloats({1, tensor.c, tensor.h, tensor.w},
                                                std::vector<float>(std::size_t(elements), 0.5f)));
    }
    nvdla::simulateLoadable(loadable, inputs, target::nvdlaConfig("nv_full"));
}

// What `tessera plan BUFFERS.csv` does: a plan it calls optimal or feasible must pass the
// independent validator, and no peak may be below the lower bound.
void runBufferCsv(const std::string& text)
{
    const std::vector<Buffer> buffers = parseBufferCsv(text, "fuzz.csv", text.size() % 2 == 0);
    if (buffers.size() > kMaxPlannedBuffers)
        return;
    PlanOptions options;
    options.minimize = true;
    options.timeoutSeconds = 0.005;
    const PlanResult result = planMemory(buffers, options);
    if (result.status != PlanStatus::Optimal && result.status != PlanStatus::Feasible)
        return;
    const auto problems = validatePlan(buffers, result.offsets, result.peak);
    if (!problems.empty())
        broken("a plan reported " + planStatusName(result.status) + " is wrong: " + problems.front());
    if (result.peak < result.lowerBound || result.lowerBound < 0)
        broken("peak " + std::to_string(result.peak) + " below the lower bound " + std::to_string(result.lowerBound));
}

// What `tessera scamp KERNELS.json` does, on a small node budget: the program found must verify.
void runScampKernels(const std::string& text)
{
    const scamp::KernelSet set = scamp::parseKernelSet(text, "fuzz.json");
    const scamp::ApproximatedKernels kernels = scamp::approximateKernels(set);
    (void)scamp::parseKernelSet(scamp::kernelSetToJson(set), "the kernels written back");
    scamp::SearchOptions options;
    options.nodeLimit = 40;
    options.seconds = 0.5;
    options.threads = text.size() % 8 == 0 ? 2 : 1;  // the search's worker threads, now and then
    const scamp::CompileResult result = scamp::compileKernels(set, kernels, options);
    if (!result.best)
        return;
    const scamp::VerificationReport report = scamp::verifyProgram(*result.best, set, kernels, 1, 1);
    if (!report.exact)
        broken("the program found does not verify: " + report.problems.front());
}

// The 3x3 Gaussian the program target's inputs are checked against.
const scamp::KernelSet& gaussian3x3()
{
    static const scamp::KernelSet set = scamp::parseKernelSet(
        R"({"name": "gauss3", "input_register": "A", "registers": ["A","B","C","D","E","F"],
            "kernels": [{"output_register": "A", "scale": 0.0625, "weights": [[1,2,1],[2,4,2],[1,2,1]]}]})",
        "gauss3");
    return set;
}

// What `tessera scamp --verify` does; a program read must also read back in both written forms.
void runScampProgram(const std::string& text)
{
    const scamp::Program program = scamp::parseProgram(text, "fuzz.txt");
    const scamp::ProgramHeader header{"fuzz", "A", {"A"}, 4};
    for (const std::string& written : {scamp::formatProgram(program, header), scamp::formatCainProgram(program, header)})
        if (scamp::parseProgram(written, "the program written back").instructions.size() != program.instructions.size())
            broken("a program of " + std::to_string(program.instructions.size()) +
                   " instructions reads back with a different count");
    const scamp::KernelSet& set = gaussian3x3();
    (void)scamp::verifyProgram(program, set, scamp::approximateKernels(set), 1, 1);
}

// What the studio does when it opens a project; what it saves must open again as the same project.
void runProject(const std::string& text)
{
    const Project project = projectFromJson(text, "fuzz.tessera");
    const std::string written = projectToJson(project);
    if (projectToJson(projectFromJson(written, "the project written back")) != written)
        broken("a project does not read back as written");
}

// What the studio's Tiling dock does with a tiling report: read the model, solve every kernel again.
void runTilingReport(const std::string& text)
{
    const tiler::TilingReportFile report = tiler::parseTilingReport(text, "fuzz.tiling.json");
    std::size_t solved = 0;
    for (const tiler::UserKernel& kernel : report.model.userKernels)
        if (solved++ < kMaxSolvedKernels)
            (void)tiler::solveTiling(kernel, report.l1Budget);
}

std::vector<std::string> filesIn(const fs::path& folder)
{
    std::vector<std::string> files;
    std::error_code error;
    if (!fs::is_directory(folder, error))
        return files;
    std::vector<fs::path> paths;
    for (const auto& entry : fs::directory_iterator(folder))
        if (entry.is_regular_file())
            paths.push_back(entry.path());
    std::sort(paths.begin(), paths.end());
    for (const fs::path& path : paths)
        files.push_back(readFileBytes(path.string()));
    return files;
}

std::string bytesOf(const std::vector<std::uint8_t>& bytes) { return {bytes.begin(), bytes.end()}; }

// ONNX's node test models, every 9th: a deterministic spread over the operators.
std::vector<std::string> onnxSeeds(const std::string& testData)
{
    std::vector<std::string> seeds;
    std::error_code error;
    if (testData.empty() || !fs::is_directory(fs::path(testData) / "node", error))
        return seeds;
    std::vector<fs::path> dirs;
    for (const auto& entry : fs::directory_iterator(fs::path(testData) / "node"))
        dirs.push_back(entry.path());
    std::sort(dirs.begin(), dirs.end());
    for (std::size_t k = 0; k < dirs.size(); k += 9)
        if (fs::exists(dirs[k] / "model.onnx"))
            seeds.push_back(readFileBytes((dirs[k] / "model.onnx").string()));
    return seeds;
}

std::vector<std::string> tensorSeeds()
{
    std::vector<std::string> seeds;
    for (const TensorData& data : {TensorData::fromFloats({2, 3}, {1, 2, 3, 4, 5, 6}),
                                   TensorData::fromInts(DType::Int64, {3}, {1, -2, 3}),
                                   TensorData::fromInts(DType::Int8, {1, 2, 2}, {-128, 0, 1, 127})}) {
        onnx::TensorProto proto;
        tensorToProto(data, "t", proto);
        seeds.push_back(proto.SerializeAsString());
    }
    return seeds;
}

// The builder's sample and a compiled MNIST classifier, FP16 on nv_full and INT8 on nv_small.
std::vector<std::string> loadableSeeds()
{
    Graph mnist = buildZooModel("mnist", {});
    prepareGraph(mnist);
    nvdla::NvdlaCompileOptions small;
    small.config = "nv_small";
    return {bytesOf(nvdla::writeLoadable(testing::sampleLoadable())),
            bytesOf(nvdla::compileForNvdla(mnist, {}).bytes), bytesOf(nvdla::compileForNvdla(mnist, small).bytes)};
}

void append(std::vector<std::string>& to, std::vector<std::string> more)
{
    to.insert(to.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
}

}  // namespace

bool leaksLibraryText(const std::string& message)
{
    for (const char* text : {"json.exception", "vector::", "basic_string", "_M_", "std::", "bad_alloc",
                             "bad_optional_access", "map::at"})
        if (message.find(text) != std::string::npos)
            return true;
    // The conversion functions' own messages are their bare names. The user's own text, which
    // messages quote ("got 'stod'"), is left out first; inside a word ("westode") a name is not one.
    std::string unquoted;
    char quote = 0;
    for (const char c : message) {
        if (quote) {
            quote = c == quote ? 0 : quote;
        } else if (c == '\'' || c == '"') {
            quote = c;
        } else {
            unquoted += c;
        }
    }
    const auto isWordChar = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    for (const std::string name : {"stoi", "stol", "stoll", "stoul", "stoull", "stof", "stod", "stold"})
        for (std::size_t at = unquoted.find(name); at != std::string::npos; at = unquoted.find(name, at + 1))
            if ((at == 0 || !isWordChar(unquoted[at - 1])) &&
                (at + name.size() == unquoted.size() || !isWordChar(unquoted[at + name.size()])))
                return true;
    return false;
}

std::vector<FuzzTarget> fuzzTargets(const std::string& corpusFolder, const std::string& onnxTestData)
{
    struct Parser {
        const char* name;
        bool text;
        std::vector<std::string> seeds;
        void (*work)(const std::string&);
    };
    std::vector<Parser> parsers;
    parsers.push_back({"onnx", false, onnxSeeds(onnxTestData), runOnnx});
    parsers.push_back({"tensor", false, tensorSeeds(), runTensor});
    parsers.push_back({"loadable", false, loadableSeeds(), runLoadable});
    parsers.push_back({"buffer-csv", true, {}, runBufferCsv});
    parsers.push_back({"scamp-kernels", true, {}, runScampKernels});
    parsers.push_back({"scamp-program", true, {}, runScampProgram});
    parsers.push_back({"project", true, {}, runProject});
    parsers.push_back({"tiling", true, {}, runTilingReport});
    std::vector<FuzzTarget> targets;
    for (Parser& parser : parsers) {
        append(parser.seeds, filesIn(fs::path(corpusFolder) / parser.name));
        const auto work = parser.work;
        targets.push_back({parser.name, parser.text, std::move(parser.seeds),
                           [work](const std::string& input) { return guarded([&] { work(input); }); }});
    }
    return targets;
}

void mutate(std::string& input, bool text, std::mt19937& random)
{
    const int changes = 1 + int(random() % 3);
    for (int k = 0; k < changes; ++k) {
        if (text && random() % 3 != 0)
            mutateText(input, random);
        else
            mutateBytes(input, random);
    }
}

namespace {

void count(CampaignResult& result, const Verdict& verdict, const std::string& input, const std::string& label)
{
    ++result.executions;
    switch (verdict.outcome) {
    case Outcome::Accepted: ++result.accepted; break;
    case Outcome::Refused: ++result.refused; break;
    case Outcome::Failed:
        ++result.failed;
        if (result.failures.size() < 5) {
            result.failures.push_back(label + ": " + verdict.detail);
            result.failingInputs.push_back(input);
        }
        break;
    }
}

double secondsSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

CampaignResult runCampaign(const FuzzTarget& target, std::uint64_t executions, std::uint32_t seed)
{
    CampaignResult result;
    if (target.seeds.empty())
        return result;
    std::mt19937 random(seed);
    const auto start = std::chrono::steady_clock::now();
    for (std::uint64_t k = 0; k < executions; ++k) {
        std::string input = target.seeds[k % target.seeds.size()];
        mutate(input, target.text, random);
        count(result, target.run(input), input, "execution " + std::to_string(k));
    }
    result.seconds = secondsSince(start);
    return result;
}

CampaignResult runSeeds(const FuzzTarget& target)
{
    CampaignResult result;
    const auto start = std::chrono::steady_clock::now();
    for (std::size_t k = 0; k < target.seeds.size(); ++k)
        count(result, target.run(target.seeds[k]), target.seeds[k], "seed " + std::to_string(k));
    result.seconds = secondsSince(start);
    return result;
}

}  // namespace tessera::fuzz
