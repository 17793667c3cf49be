#include "tiler/code_generator.h"

#include "tiler/constant_image.h"
#include "tiler/graph_code_parts.h"
#include "tiler/graph_allocation.h"
#include "tiler/graph_emitter.h"
#include "tiler/graph_report.h"
#include "tiler/kernel_emitter.h"
#include "tiler/l3_devices.h"
#include "tiler/model_json.h"
#include "tiler/privileged_flash.h"
#include "tiler/tile_solver.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unordered_map>

namespace tessera::tiler {
namespace {

std::string guardName(const std::string& file)
{
    std::string guard = "TESSERA_GENERATED_";
    for (char c : file)
        guard += std::isalnum(static_cast<unsigned char>(c)) ? char(std::toupper(static_cast<unsigned char>(c))) : '_';
    return guard;
}

std::string stem(const std::string& file)
{
    return std::filesystem::path(file).stem().string();
}

// Writes through a temporary file and a rename, so an interrupted run leaves no half file.
bool writeFileAtomically(const std::filesystem::path& path, const std::string& text, std::string& error)
{
    const std::filesystem::path temporary = path.string() + ".tmp";
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        if (!out) {
            error = "cannot write " + temporary.string() + " (does the output folder exist and is it writable?)";
            return false;
        }
        out << text;
        if (!out.flush()) {
            error = "writing " + temporary.string() + " failed (disk full?)";
            return false;
        }
    }
    std::error_code code;
    std::filesystem::rename(temporary, path, code);
    if (code) {
        error = "cannot rename " + temporary.string() + " to " + path.string() + ": " + code.message();
        return false;
    }
    return true;
}

const char* residenceName(ArgResidence residence)
{
    switch (residence) {
    case ArgResidence::Streamed: return "streamed";
    case ArgResidence::Promoted: return "promoted";
    case ArgResidence::Scratch: return "scratch";
    }
    return "streamed";
}

nlohmann::json tilingJson(const KernelTiling& tiling)
{
    nlohmann::json kernel;
    kernel["name"] = tiling.kernel->name;
    kernel["group"] = tiling.kernel->group;
    kernel["orientation"] = tiling.kernel->orientation == Orientation::Horizontal ? "horizontal" : "vertical";
    kernel["tiles"] = tiling.tileCount;
    if (tiling.kernel->outerTiles)
        kernel["outer_tiles"] = tiling.outerTileCount;
    const ArgTiling* reference = tiling.referenceArg();
    kernel["tile_size"] = reference ? reference->tileSize : 0;
    kernel["last_tile_size"] = reference ? reference->lastTileSize : 0;
    kernel["l1_bytes"] = tiling.l1Bytes;
    kernel["estimated_cycles"] = tiling.estimatedCycles;
    kernel["dma"] = {{"l2_read", tiling.dmaRead}, {"l2_write", tiling.dmaWrite}, {"l3_read", tiling.l3Read},
                     {"l3_write", tiling.l3Write}};
    kernel["l2_staging_bytes"] = tiling.l2Bytes;
    nlohmann::json loops = nlohmann::json::array();
    for (const LoopLevel& loop : tiling.loops)
        loops.push_back({{"space", loop.space == IterationSpace::Tile        ? "tile"
                                   : loop.space == IterationSpace::InPlane   ? "in_plane"
                                   : loop.space == IterationSpace::OuterTile ? "outer_tile"
                                                                             : "out_plane"},
                         {"count", loop.count}, {"planes", loop.planes}, {"chunk", loop.chunk}});
    kernel["loops"] = loops;
    nlohmann::json args = nlohmann::json::array();
    for (const ArgTiling& arg : tiling.args)
        args.push_back({{"name", arg.arg->name},
                        {"residence", residenceName(arg.residence)},
                        {"tiled", arg.tiled},
                        {"dynamic", arg.dynamic},
                        {"outer", arg.outer},
                        {"tile_size", arg.tileSize},
                        {"last_tile_size", arg.lastTileSize},
                        {"buffers", arg.bufferCount},
                        {"planes_per_chunk", arg.planesPerChunk},
                        {"l1_offset", arg.l1Offset},
                        {"l1_bytes", arg.l1Bytes},
                        {"l2_read", arg.dmaRead},
                        {"l2_write", arg.dmaWrite},
                        {"l3_read", arg.l3Read},
                        {"l3_write", arg.l3Write},
                        {"l2_offset", arg.l2Offset},
                        {"l2_bytes", arg.l2Bytes}});
    for (std::size_t i = 0; i < tiling.args.size(); ++i)
        if (const KernelArgument& model = *tiling.args[i].arg; !model.declaredDims.empty()) {
            args[i]["dims"] = model.declaredDims;
            args[i]["float_items"] = model.floatItems;
        }
    for (std::size_t i = 0; i < tiling.args.size(); ++i)
        if (!tiling.args[i].arg->sharesBufferOf.empty())
            args[i]["shares_buffer_of"] = tiling.args[i].arg->sharesBufferOf;
    kernel["args"] = args;
    return kernel;
}

const MemoryDevice* findDevice(const KernelModel& model, bool (*matches)(const MemoryDevice&))
{
    for (const MemoryDevice& device : model.devices)
        if (matches(device))
            return &device;
    return nullptr;
}

// The memory symbols of a graph: the devices' base names where the model gives them.
GraphSymbols graphSymbols(const KernelModel& model, const GraphModel& graph, std::uint64_t l1Bytes)
{
    GraphSymbols symbols;
    symbols.l1 = model.options.l1Symbol;
    symbols.l1Bytes = l1Bytes;
    symbols.dynamicL1 = model.options.dynamicSymbols;
    const MemoryDevice* l2 = findDevice(model, [](const MemoryDevice& d) { return d.location == MemoryLocation::L2; });
    symbols.l2 = l2 && !l2->baseName.empty() && l2->baseName != model.options.l2Symbol ? l2->baseName
                                                                                          : graph.name + "_L2_Memory";
    symbols.l2Dynamic = symbols.l2 + "_Dyn";
    const MemoryDevice* l3 = executionL3Ram(model);
    symbols.l3 = l3 && !l3->baseName.empty() ? l3->baseName : graph.name + "_L3_Memory";
    symbols.l3Dynamic = symbols.l3 + "_Dyn";
    const MemoryDevice* privileged = privilegedFlashDevice(model);
    const MemoryDevice* flash = homeFlash(model);
    symbols.flashFile = flash ? flash->constFile : graph.name + "_L3_Flash_Const.dat";
    symbols.privilegedFlashFile = privileged ? privileged->constFile : std::string();
    return symbols;
}



// The arguments a node reads from flash, each with the flash image it is read through: the
// graph's own in the standard form, the one the layer took from its context in the re-entrant form.
std::vector<std::pair<std::string, std::string>> flashReads(const NodeExecution& node, const std::string& graph,
                                                            bool reentrant)
{
    std::vector<std::pair<std::string, std::string>> reads;
    for (const std::string& argument : node.flashArguments)
        reads.push_back({argument, reentrant ? graph_code::flashHandle(graph, false) : "&" + graph + "_Flash"});
    for (const std::string& argument : node.privilegedFlashArguments)
        reads.push_back({argument, reentrant ? graph_code::flashHandle(graph, true) : "&" + graph + "_PrivilegedFlash"});
    return reads;
}

// The model as generated: every node that streams L3 tensors calls a variant of its kernel with
// those arguments homed in L3 and its staging buffers in the graph's dynamic L2 block.
KernelModel withNodeVariants(const KernelModel& model, const std::vector<GraphAllocation>& allocations)
{
    KernelModel result = model;
    // By name, the first of each as findUserKernel finds it (looked up per node).
    std::unordered_map<std::string, std::size_t> indexOf;
    for (std::size_t k = 0; k < model.userKernels.size(); ++k)
        indexOf.emplace(model.userKernels[k].name, k);
    for (std::size_t g = 0; g < model.graphs.size(); ++g) {
        const GraphSymbols symbols = graphSymbols(model, model.graphs[g], 0);
        for (std::size_t n = 0; n < allocations[g].nodes.size(); ++n) {
            const NodeExecution& node = allocations[g].nodes[n];
            if (node.l3Arguments.empty())
                continue;
            const UserKernel variant =
                l3HomedVariant(model.userKernels.at(indexOf.at(node.sourceKernel)), node.l3Arguments, node.kernel,
                               symbols.l2Dynamic + "+" + std::to_string(node.stagingOffset), node.stagingLimit,
                               flashReads(node, model.graphs[g].name, model.options.reentrant));
            result.graphs[g].nodes[n].kernel = node.kernel;
            if (const auto found = indexOf.find(variant.name); found != indexOf.end()) {
                result.userKernels[found->second] = variant;
            } else {
                indexOf.emplace(variant.name, result.userKernels.size());
                result.userKernels.push_back(variant);
                result.items.push_back({ModelItem::Kind::UserKernel, result.userKernels.size() - 1});
            }
        }
    }
    return result;
}

// When the graph cannot be placed: the kernels that have no tiling in L1 even with all their
// arguments in L2 and L2 unbounded fail whatever the placement, so that is the budget to name.
void reportKernelsOverL1(const KernelModel& model, PlacedModel& placed)
{
    const GenerationOptions& options = model.options;
    std::string failures;
    std::uint64_t minimumL1 = 0;
    for (const UserKernel& kernel : model.userKernels) {
        bool overL1 = false;
        const TileSolverResult solved = solveWithoutL2Limit(kernel, options, overL1);
        if (overL1) {
            failures += solved.error + "\n";
            minimumL1 = std::max(minimumL1, solved.minimumL1);
        }
    }
    if (failures.empty())
        return;
    placed.minimumL1 = minimumL1;
    placed.shortfall = BudgetShortfall{"L1", options.l1Size, minimumL1, "the model's kernels"};
    placed.error = failures + "the model needs at least " + std::to_string(minimumL1) +
                   " bytes of L1 for all its kernels, budget is " + std::to_string(options.l1Size);
}

}  // namespace

const KernelTiling* PlacedModel::tilingOf(const std::string& kernel) const
{
    for (const KernelTiling& tiling : tilings)
        if (tiling.kernel->name == kernel)
            return &tiling;
    return nullptr;
}

std::uint64_t PlacedModel::l1Used() const
{
    std::uint64_t used = 4;
    for (const KernelTiling& tiling : tilings)
        used = std::max(used, tiling.l1Bytes);
    return used;
}

nlohmann::json PlacedModel::graphReport(std::size_t g) const
{
    return graphReportJson({generated, generated.graphs.at(g), allocations.at(g), tilings, l1Used()});
}

std::shared_ptr<const PlacedModel> placeModel(const KernelModel& model, AllocationMemo* memo)
{
    auto placed = std::make_shared<PlacedModel>();
    // The model's memory devices name the symbols: the kernels use the L1 device's base name.
    placed->model = model;
    KernelModel& named = placed->model;
    if (const MemoryDevice* l1 =
            findDevice(model, [](const MemoryDevice& d) { return d.location == MemoryLocation::L1; });
        l1 && !l1->baseName.empty())
        named.options.l1Symbol = l1->baseName;
    // Without graphs the L2 device's name is the kernels' L2 symbol too (graphs give it to their
    // static L2 block, and their nodes stage in the graph's dynamic block).
    if (const MemoryDevice* l2 =
            findDevice(model, [](const MemoryDevice& d) { return d.location == MemoryLocation::L2; });
        l2 && !l2->baseName.empty() && model.graphs.empty())
        named.options.l2Symbol = l2->baseName;
    // A graph decides where its tensors live: arguments its nodes' kernels declare in L3 (O_L2DB,
    // the CNN generators' *_InL3 flags) are homed wherever the graph places what they are bound to.
    for (const GraphModel& graph : named.graphs)
        for (const GraphNode& node : graph.nodes)
            for (UserKernel& kernel : named.userKernels)
                if (kernel.name == node.kernel)
                    for (KernelArgument& arg : kernel.args)
                        arg.flags &= ~std::uint32_t(ArgFlag::L2DoubleBuffer);
    // Graph tensors are placed first: where they live decides how their nodes are tiled.
    for (const GraphModel& graph : named.graphs) {
        placed->allocations.push_back(
            allocateGraph(named, graph, named.options.l2Size, named.graphs.size() == 1 ? memo : nullptr));
        if (!placed->allocations.back().ok) {
            placed->error = placed->allocations.back().error;
            placed->shortfall = placed->allocations.back().shortfall;
            reportKernelsOverL1(named, *placed);
            return placed;
        }
    }
    placed->generated = withNodeVariants(named, placed->allocations);
    const KernelModel& generated = placed->generated;
    const GenerationOptions& options = generated.options;
    // Every kernel is solved before reporting, so a failure names the budget the whole model needs.
    std::vector<std::string> failures;
    placed->tilings.reserve(generated.userKernels.size());
    for (const UserKernel& kernel : generated.userKernels) {
        TileSolverResult solved =
            solveTiling(kernel, options.l1Size, options.l2Size, options.costModel, promotionPolicy(options));
        placed->minimumL1 = std::max(placed->minimumL1, solved.minimumL1);
        if (!solved.ok) {
            failures.push_back(solved.error);
            continue;
        }
        placed->tilings.push_back(solved.tiling);
    }
    if (!failures.empty()) {
        for (const std::string& failure : failures)
            placed->error += failure + "\n";
        if (placed->minimumL1 > options.l1Size) {
            placed->shortfall = BudgetShortfall{"L1", options.l1Size, placed->minimumL1, "the model's kernels"};
            placed->error += "the model needs at least " + std::to_string(placed->minimumL1) +
                             " bytes of L1 for all its kernels, budget is " + std::to_string(options.l1Size);
        }
        else
            placed->error.pop_back();
        return placed;
    }
    placed->ok = true;
    return placed;
}

GenerationResult generateTilingCode(const KernelModel& model)
{
    const std::shared_ptr<const PlacedModel> placed = placeModel(model);
    if (!placed->ok) {
        GenerationResult result;
        result.error = placed->error;
        return result;
    }
    return generateTilingCode(*placed);
}

GenerationResult generateTilingCode(const PlacedModel& placed, const std::string& outputFolder)
{
    const KernelModel& model = placed.generated;
    const std::vector<GraphAllocation>& allocations = placed.allocations;
    const std::vector<KernelTiling>& tilings = placed.tilings;
    GenerationResult result;
    if (!placed.ok) {
        result.error = placed.error;
        return result;
    }
    const GenerationOptions& options = model.options;
    std::uint64_t l1Used = 0, l2Used = 0;
    std::ostringstream log;
    for (const auto& [name, reason] : model.droppedKernels)
        log << "user kernel " << name << ": dropped when declared (AT_KERNEL_NOSOLUTION_ERROR off): " << reason << "\n";
    for (const KernelTiling& tiling : tilings) {
        const UserKernel& kernel = *tiling.kernel;
        l1Used = std::max(l1Used, tiling.l1Bytes);
        if (kernel.l2StagingBase.empty())  // graph nodes stage in their graph's dynamic L2 block
            l2Used = std::max(l2Used, tiling.l2Bytes);
        log << "user kernel " << kernel.name << ": " << tiling.tileCount << " tile(s)";
        if (kernel.outerTiles)
            log << " in each of " << tiling.outerTileCount << " outer tile(s)";
        log << ", L1 " << tiling.l1Bytes
            << " of " << options.l1Size << " bytes, DMA " << tiling.dmaRead << " B in, " << tiling.dmaWrite
            << " B out";
        if (tiling.l2Bytes)
            log << ", L2 staging " << tiling.l2Bytes << " bytes, L3 " << tiling.l3Read << " B in, " << tiling.l3Write
                << " B out";
        log << "\n";
    }
    const auto tilingOf = [&](const std::string& name) { return placed.tilingOf(name); };
    const std::string l1Size = "_" + options.l1Symbol + "_SIZE";
    const std::string l2Size = "_" + options.l2Symbol + "_SIZE";
    // The L1 and L2 symbols live in the kernels' own files, as GreenWaves' generated code has them:
    // the header gives their sizes and declares them, the source defines them. With
    // SetSymbolDynamics() they are pointers the application (or a graph's constructor) allocates:
    //     L1_Memory = (AT_L1_POINTER) AT_L1_ALLOC(0, _L1_Memory_SIZE);
    std::ostringstream header;
    header << "/* Generated by Tessera: tiled user kernels and kernel groups. */\n"
           << "#ifndef " << guardName(options.kernelsHeader) << "\n#define " << guardName(options.kernelsHeader)
           << "\n\n#include \"at_api.h\"\n#include \"" << options.stdTypesHeader << "\"\n";
    for (const std::string& library : options.libKernelHeaders)
        header << "#include \"" << library << "\"\n";
    if (options.kernelDescriptorArgument)
        header << "\n/* The first Autotiler's kernel descriptor, passed last to every kernel (as 0). */\n"
                  "typedef struct Kernel_S Kernel_T;\n";
    header << "\n/* L1 working memory of the tiled kernels, and L2 staging buffers of arguments homed in L3. */\n"
           << "#define " << l1Size << " " << std::max<std::uint64_t>(l1Used, 4) << "\n#define " << l2Size << " "
           << std::max<std::uint64_t>(l2Used, 4) << "\n";
    if (options.dynamicSymbols)
        header << "/* Allocate these sizes (L1 in the cluster memory) and store the addresses before calling a "
                  "kernel. */\n"
               << "extern AT_L1_POINTER " << options.l1Symbol << ";\nextern AT_L2_POINTER " << options.l2Symbol
               << ";\n\n";
    else
        header << "extern L1_CL_MEM char " << options.l1Symbol << "[" << l1Size << "];\nextern L2_MEM char "
               << options.l2Symbol << "[" << l2Size << "];\n\n";

    std::ostringstream source;
    source << "/* Generated by Tessera. */\n#include \"" << options.kernelsHeader << "\"\n\n";
    if (options.dynamicSymbols)
        source << "L1_CL_MEM AT_L1_POINTER " << options.l1Symbol << ";\nL2_MEM AT_L2_POINTER " << options.l2Symbol
               << ";\n\n";
    else
        source << "L1_CL_MEM char " << options.l1Symbol << "[" << l1Size << "] __attribute__((aligned(8)));\n"
               << "L2_MEM char " << options.l2Symbol << "[" << l2Size << "] __attribute__((aligned(8)));\n\n";

    // The argument-initialisation files of the four-name SetGeneratedFilesNames(): nothing needs
    // them any more; they are written (including the kernels' header) so that builds listing them
    // keep working.
    std::ostringstream initHeader, initSource;
    if (!options.initHeader.empty())
        initHeader << "/* Generated by Tessera: the kernels' symbols are declared in " << options.kernelsHeader
                   << ". */\n#ifndef " << guardName(options.initHeader) << "\n#define "
                   << guardName(options.initHeader) << "\n\n#include \"" << options.kernelsHeader
                   << "\"\n\n#endif\n";
    if (!options.initSource.empty())
        initSource << "/* Generated by Tessera: the kernels' symbols are defined in " << options.kernelsSource
                   << ". */\n#include \"" << options.kernelsHeader << "\"\n";
    nlohmann::json report;
    report["l1_budget"] = options.l1Size;
    report["l1_used"] = l1Used;
    report["l2_staging_used"] = l2Used;
    report["kernels"] = nlohmann::json::array();
    report["groups"] = nlohmann::json::array();
    report["model"] = kernelModelToJson(model);
    for (const KernelTiling& tiling : tilings)
        report["kernels"].push_back(tilingJson(tiling));
    try {
        for (const ModelItem& item : model.items) {
            if (item.kind == ModelItem::Kind::UserKernel) {
                const UserKernel& kernel = model.userKernels[item.index];
                header << functionSignature(kernel.name, generatedArguments(model, kernel.cargs)) << ";\n";
                source << emitUserKernel(model, *tilingOf(kernel.name)) << "\n";
                continue;
            }
            const KernelGroup& group = model.groups[item.index];
            for (const std::string& member : group.members) {
                const KernelTiling* tiling = tilingOf(member);
                if (!tiling)
                    continue;
                header << functionSignature(tiling->kernel->name, generatedArguments(model, tiling->kernel->cargs))
                       << ";\n";
                source << emitUserKernel(model, *tiling) << "\n";
            }
            header << functionSignature(group.name, generatedArguments(model, group.cargs)) << ";\n";
            source << emitKernelGroup(model, group) << "\n";
            report["groups"].push_back({{"name", group.name}, {"members", group.members}, {"iterations", group.iterations}});
        }
    } catch (const std::exception& error) {
        result.error = error.what();
        return result;
    }
    // Graphs: their tensors placed in L2, the constants image, construct / run / destruct.
    std::vector<std::pair<std::string, std::string>> images;
    report["graphs"] = nlohmann::json::array();
    std::string graphReports;
    for (std::size_t g = 0; g < model.graphs.size(); ++g) {
        const GraphModel& graph = model.graphs[g];
        const GraphAllocation& allocation = allocations[g];
        const GraphSymbols symbols = graphSymbols(model, graph, std::max<std::uint64_t>(l1Used, 4));
        for (const bool privileged : {false, true}) {
            const std::uint64_t bytes = privileged ? allocation.privilegedFlashBytes : allocation.flashBytes;
            if (bytes == 0)
                continue;
            std::vector<std::uint8_t> image;
            try {
                image = buildConstantImage(graph, allocation, privileged);
            } catch (const Error& error) {
                result.error = error.what();
                return result;
            }
            images.push_back({privileged ? symbols.privilegedFlashFile : symbols.flashFile,
                              std::string(image.begin(), image.end())});
        }
        header << "\n" << graphDeclarations(model, graph, allocation, symbols);
        source << emitGraph(model, graph, allocation, symbols) << "\n";
        const GraphReportInput reportInput{model, graph, allocation, tilings, symbols.l1Bytes};
        report["graphs"].push_back(graphReportJson(reportInput));
        graphReports += graphReportText(reportInput) + "\n";
        log << "graph " << graph.name << ": L2 " << allocation.l2Static << " bytes static (constants), "
            << allocation.l2Dynamic << " bytes dynamic; L3 " << allocation.l3Static << " bytes static, "
            << allocation.l3Dynamic << " bytes dynamic, " << allocation.l3Traffic << " bytes of L3 traffic per run; "
            << "constants image " << symbols.flashFile << " " << allocation.flashBytes << " bytes"
            << (allocation.privilegedFlashBytes ? ", privileged flash image " + symbols.privilegedFlashFile + " " +
                                                      std::to_string(allocation.privilegedFlashBytes) + " bytes"
                                                : std::string())
            << "\n";
    }
    header << "\n#endif\n";

    const std::filesystem::path folder(outputFolder.empty() ? options.outputDir : outputFolder);
    std::error_code code;
    std::filesystem::create_directories(folder, code);
    const std::pair<std::string, std::string> files[] = {
        {options.initHeader, initHeader.str()},
        {options.initSource, initSource.str()},
        {options.kernelsHeader, header.str()},
        {options.kernelsSource, source.str()},
        {stem(options.kernelsSource) + ".tiling.json", report.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n"},
    };
    for (const auto& [name, text] : files) {
        if (name.empty())  // no initialisation files were named
            continue;
        if (!writeFileAtomically(folder / name, text, result.error))
            return result;
        result.writtenFiles.push_back((folder / name).string());
    }
    if (!graphReports.empty()) {
        const std::string name = stem(options.kernelsSource) + ".report.txt";
        if (!writeFileAtomically(folder / name, graphReports, result.error))
            return result;
        result.writtenFiles.push_back((folder / name).string());
        if (options.traceGeneration)
            log << graphReports;
    }
    const std::filesystem::path constantsFolder =
        options.constantsDir.empty() ? folder : std::filesystem::path(options.constantsDir);
    for (const auto& [name, bytes] : images) {
        if (!writeFileAtomically(constantsFolder / name, bytes, result.error))
            return result;
        result.writtenFiles.push_back((constantsFolder / name).string());
    }
    log << "L1 memory: " << l1Used << " of " << options.l1Size << " bytes (" << l1Size << "); L2 staging: " << l2Used
        << " bytes (" << l2Size << ")\n";
    result.log = log.str();
    result.ok = true;
    return result;
}

}  // namespace tessera::tiler
