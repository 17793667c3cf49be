#include "gap_project/gap_project_writer.h"
#include "gap_project/gap_paths.h"

#include "base/error.h"
#include "io/file_io.h"
#include "io/staged_folder.h"
#include "onnx/tensor_proto.h"

#include <fmt/format.h>

#include <filesystem>
#include <sstream>

namespace tessera::gap {
namespace {

namespace fs = std::filesystem;

// Whole files only: written beside and renamed into place, a full disk reported, never a part left.
void writeTextFile(const fs::path& path, const std::string& text) { writeFileAtomically(path.string(), text); }

void copyFiles(const fs::path& from, const fs::path& to, std::initializer_list<const char*> extensions)
{
    std::error_code error;
    fs::create_directories(to, error);
    if (!fs::is_directory(from, error))
        throw Error("the GAP support files are missing: " + from.string() + " is not a folder; reinstall Tessera");
    for (const fs::directory_entry& entry : fs::directory_iterator(from)) {
        if (!entry.is_regular_file())
            continue;
        for (const char* extension : extensions)
            // Read and written rather than fs::copy_file, whose short sendfile on a full disk is
            // reported as "Input/output error" instead of the disk being full.
            if (entry.path().extension() == extension)
                writeTextFile(to / entry.path().filename(), readFileBytes(entry.path().string()));
    }
}

std::string dimsInitializer(const Shape& shape)
{
    std::vector<std::string> dims;
    for (int64_t dim : shape)
        dims.push_back(std::to_string(dim) + "LL");
    return fmt::format("{{{}}}", fmt::join(dims, ", "));
}

// The constants images the application opens at construction, for the SDK's flash file system
// (a privileged image goes to the privileged flash where the board configuration maps it).
std::string readfsFiles(const GapGeneration& generation)
{
    std::string files;
    for (const std::string& image : {generation.constantsImage, generation.privilegedImage})
        if (!image.empty())
            files += "READFS_FILES += $(realpath " + image + ")\n";
    return files;
}

std::string makefile(const GapNetwork& network, const GapGeneration& generation)
{
    std::ostringstream text;
    text << "# Tessera project for the GAP graph " << network.name << ".\n"
         << "#\n"
         << "#   make emul    host build with the emulation runtime:\n"
         << "#                ./emul_run input_0.pb [input_1.pb ...] RESULTDIR  writes RESULTDIR/output_K.pb\n"
         << "#   make gap     the GAP SDK build (run from a shell where the SDK is sourced): the generated\n"
         << "#                graph, the basic kernels and your application's main in APP_MAIN\n"
         << "\n"
         << "CC ?= cc\n"
         << "CFLAGS ?= -O2\n"
         << "GRAPH_SOURCES = " << fmt::format("{}", fmt::join(generation.sources, " ")) << " kernels/CNN_BasicKernels.c kernels/CNN_BasicKernels_SQ8.c kernels/CNN_Conv_SQ8.c kernels/CNN_Copy.c\n"
         << "EMUL_SOURCES = $(GRAPH_SOURCES) emul/emul_main.c emul/tensor_file.c\n"
         << "\n"
         << "emul: emul_run\n"
         << "\n"
         << "emul_run: $(EMUL_SOURCES) " << generation.kernelsHeader << "\n"
         << "\t$(CC) $(CFLAGS) -D__EMUL__ -I. -Iruntime -Ikernels -Iemul $(EMUL_SOURCES) -lm -o $@\n"
         << "\n"
         << "clean:\n"
         << "\trm -f emul_run\n"
         << "\n"
         << ".PHONY: emul clean gap\n"
         << "\n"
         << "# GAP SDK build (pmsis): the SDK's rules compile APP_SRCS for the chip.\n"
         << "ifdef GAP_SDK_HOME\n"
         << "APP = " << network.name << "\n"
         << "APP_MAIN ?= main.c\n"
         << "APP_SRCS += $(APP_MAIN) $(GRAPH_SOURCES)\n"
         << "APP_CFLAGS += -O3 -I. -Iruntime -Ikernels\n"
         << readfsFiles(generation)
         << "gap: all\n"
         << "include $(RULES_DIR)/pmsis_rules.mk\n"
         << "else\n"
         << "gap:\n"
         << "\t@echo \"make gap needs the GAP SDK: source its sourceme.sh first (GAP_SDK_HOME is not set)\"; exit 1\n"
         << "endif\n";
    return text.str();
}

// The C type of a tensor's items.
std::string cItemType(const GapTensor& tensor)
{
    return tensor.dataSize == 1 ? "signed char" : "short int";
}

// The call converting float Values to the tensor's items ("Quantize") or back ("Dequantize").
std::string conversion(const std::string& direction, const GapTensor& tensor)
{
    const bool quantize = direction == "Quantize";
    const std::string from = quantize ? "Values" : tensor.name, to = quantize ? tensor.name : "Values";
    if (tensor.dataSize == 1)  // the scale with every digit a double has
        return fmt::format("{}SQ8({}, {}, {}, {:.17g})", direction, from, to, tensor.elements, tensor.scale);
    return fmt::format("{}({}, {}, {}, {})", direction, from, to, tensor.elements, tensor.q);
}

}  // namespace

std::string emulationMainSource(const Graph& graph, const GapNetwork& network, const GapGeneration& generation)
{
    std::ostringstream c;
    c << "/* Host emulation of the GAP graph " << network.name << ", written by Tessera:\n"
      << " *   emul_run input_0.pb [input_1.pb ...] RESULTDIR\n"
      << " * reads each float32 input (ONNX TensorProto), converts it to its fixed-point format, runs the generated\n"
      << " * graph with the emulation runtime and writes RESULTDIR/output_K.pb (float32, dequantized). */\n"
      << "#include <limits.h>\n#include <math.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n"
      << "#include <sys/stat.h>\n#include <unistd.h>\n\n"
      << "#include \"" << generation.kernelsHeader << "\"\n#include \"tensor_file.h\"\n\n";
    std::vector<std::string> runnerArguments;
    size_t largest = 1;
    for (int input : network.inputs) {
        const GapTensor& tensor = network.tensors[size_t(input)];
        c << "static " << cItemType(tensor) << " " << tensor.name << "[" << tensor.elements << "];\n";
        runnerArguments.push_back(tensor.name);
        largest = std::max(largest, size_t(tensor.elements));
    }
    for (int output : network.outputs) {
        const GapTensor& tensor = network.tensors[size_t(output)];
        c << "static " << cItemType(tensor) << " " << tensor.name << "[" << tensor.elements << "];\n";
        runnerArguments.push_back(tensor.name);
        largest = std::max(largest, size_t(tensor.elements));
    }
    c << "static float Values[" << largest << "];\n\n"
      << "/* clip16(round half away from zero(v * 2^q)), as Tessera's quantizer. */\n"
      << "static inline int Quantize(const float *From, short int *To, int Count, int Q)\n{\n"
      << "    for (int k = 0; k < Count; ++k) {\n"
      << "        if (isnan(From[k]))\n            return -1;\n"
      << "        double Scaled = round(ldexp((double) From[k], Q));\n"
      << "        To[k] = (short int) (Scaled < -32768.0 ? -32768.0 : Scaled > 32767.0 ? 32767.0 : Scaled);\n"
      << "    }\n    return 0;\n}\n\n"
      << "static inline void Dequantize(const short int *From, float *To, int Count, int Q)\n{\n"
      << "    for (int k = 0; k < Count; ++k)\n        To[k] = (float) ldexp((double) From[k], -Q);\n}\n\n"
      << "/* SQ8: clip8(round half away from zero(v / scale)), as Tessera's quantizer, and back. */\n"
      << "static inline int QuantizeSQ8(const float *From, signed char *To, int Count, double Scale)\n{\n"
      << "    for (int k = 0; k < Count; ++k) {\n"
      << "        if (isnan(From[k]))\n            return -1;\n"
      << "        double Scaled = round((double) From[k] / Scale);\n"
      << "        To[k] = (signed char) (Scaled < -128.0 ? -128.0 : Scaled > 127.0 ? 127.0 : Scaled);\n"
      << "    }\n    return 0;\n}\n\n"
      << "static inline void DequantizeSQ8(const signed char *From, float *To, int Count, double Scale)\n{\n"
      << "    for (int k = 0; k < Count; ++k)\n        To[k] = (float) ((double) From[k] * Scale);\n}\n\n"
      << "/* The folder of this program, where the constants image lives. */\n"
      << "static int ProgramFolder(const char *Argv0, char *Folder, size_t Size)\n{\n"
      << "    ssize_t Length = readlink(\"/proc/self/exe\", Folder, Size - 1);\n"
      << "    if (Length <= 0) {\n"
      << "        if (!realpath(Argv0, Folder))\n            return -1;\n"
      << "        Length = (ssize_t) strlen(Folder);\n    }\n"
      << "    Folder[Length] = 0;\n"
      << "    char *Slash = strrchr(Folder, '/');\n"
      << "    if (Slash)\n        *Slash = 0;\n"
      << "    return 0;\n}\n\n"
      << "int main(int argc, char **argv)\n{\n"
      << "    if (argc != " << network.inputs.size() + 2 << ") {\n"
      << "        fprintf(stderr, \"usage: %s";
    for (size_t k = 0; k < network.inputs.size(); ++k)
        c << " input_" << k << ".pb";
    c << " RESULTDIR\\n\", argv[0]);\n        return 2;\n    }\n";
    for (size_t k = 0; k < network.inputs.size(); ++k) {
        const GapTensor& tensor = network.tensors[size_t(network.inputs[k])];
        const Shape& shape = graph.tensor(graph.inputs.at(k)).shape;
        c << "    {\n"
          << "        static const long long Dims[] = " << dimsInitializer(shape) << ";\n"
          << "        if (ReadTensorFile(argv[" << k + 1 << "], Dims, " << shape.size() << ", Values, " << tensor.elements
          << "))\n            return 1;\n    }\n"
          << "    if (" << conversion("Quantize", tensor) << ") {\n"
          << "        fprintf(stderr, \"error: %s holds NaN values\\n\", argv[" << k + 1 << "]);\n        return 1;\n    }\n";
    }
    c << "    const char *ResultDir = argv[" << network.inputs.size() + 1 << "];\n"
      << "    if (mkdir(ResultDir, 0777) != 0) {\n"
      << "        struct stat Status;\n"
      << "        if (stat(ResultDir, &Status) != 0 || !S_ISDIR(Status.st_mode)) {\n"
      << "            fprintf(stderr, \"error: cannot create the result folder %s\\n\", ResultDir);\n"
      << "            return 1;\n        }\n    }\n"
      << "    char Home[PATH_MAX], Folder[PATH_MAX];\n"
      << "    if (!getcwd(Home, sizeof Home) || ProgramFolder(argv[0], Folder, sizeof Folder) || chdir(Folder)) {\n"
      << "        fprintf(stderr, \"error: cannot find the folder of %s\\n\", argv[0]);\n        return 1;\n    }\n"
      << "    const int Error = " << network.name << "_Construct();\n"
      << "    if (chdir(Home)) {\n        fprintf(stderr, \"error: cannot return to %s\\n\", Home);\n        return 1;\n    }\n"
      << "    if (Error) {\n"
      << "        fprintf(stderr, \"error: " << network.name << "_Construct failed with code %d (1: L3 RAM, 2: L3 "
         "flash or its constants image " << generation.constantsImage << ", 3: L1, 4: L2)\\n\", Error);\n"
      << "        return 1;\n    }\n"
      << "    __L3_Read = __L3_Write = 0;\n"
      << "    " << network.name << "(" << fmt::format("{}", fmt::join(runnerArguments, ", ")) << ");\n"
      << "    printf(\"" << network.name << ": %u bytes of L3 traffic\\n\", __L3_Read + __L3_Write);\n"
      << "    " << network.name << "_Destruct();\n"
      << "    char Path[PATH_MAX];\n";
    for (size_t k = 0; k < network.outputs.size(); ++k) {
        const GapTensor& tensor = network.tensors[size_t(network.outputs[k])];
        const Shape& shape = graph.tensor(graph.outputs.at(k)).shape;
        c << "    {\n"
          << "        static const long long Dims[] = " << dimsInitializer(shape) << ";\n"
          << "        " << conversion("Dequantize", tensor) << ";\n"
          << "        snprintf(Path, sizeof Path, \"%s/output_" << k << ".pb\", ResultDir);\n"
          << "        if (WriteTensorFile(Path, \"" << graph.tensor(graph.outputs[k]).name << "\", Dims, "
          << shape.size() << ", Values, " << tensor.elements << "))\n            return 1;\n"
          << "    }\n";
    }
    c << "    return 0;\n}\n";
    return c.str();
}

void writeGapProject(const Graph& graph, const GapCompileResult& result, const GapProjectSources& sources,
                     const std::string& folder)
{
    const std::vector<TensorData>& expectedInputs = result.sampleInputs;
    const std::vector<TensorData>& expectedOutputs = result.sampleOutputs;
    const fs::path root(folder);
    copyFiles(sources.runtimeDir, root / "runtime", {".h"});
    copyFiles(sources.cnnKernelsDir, root / "kernels", {".h", ".c"});
    copyFiles(sources.emulDir, root / "emul", {".h", ".c"});
    writeTextFile(root / "emul" / "emul_main.c", emulationMainSource(graph, result.network, result.generation));
    writeTextFile(root / "Makefile", makefile(result.network, result.generation));
    writeTextFile(root / "report.json", result.report().dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
    writeTextFile(root / "report.txt", result.reportText());
    std::error_code error;
    fs::create_directories(root / "test_data", error);
    for (size_t k = 0; k < expectedInputs.size(); ++k)
        writeTensorFile((root / "test_data" / fmt::format("input_{}.pb", k)).string(), expectedInputs[k],
                        graph.tensor(graph.inputs.at(k)).name);
    for (size_t k = 0; k < expectedOutputs.size(); ++k)
        writeTensorFile((root / "test_data" / fmt::format("output_{}.pb", k)).string(), expectedOutputs[k],
                        graph.tensor(graph.outputs.at(k)).name);
}

GapCompileResult exportGapProject(const Session& session, const SessionChoices& choices, const std::string& folder,
                                  const GapProgress& progress)
{
    // Written beside the folder and swapped in when complete: interrupted or failed, the folder
    // holds exactly the project it held before.
    StagedFolder staged(folder);
    GapCompileResult result = session.compile(choices, staged.path(), progress);
    if (progress)
        progress("writing the project to " + folder);
    writeGapProject(session.graph(), result, gapPaths().projectSources(), staged.path());
    staged.commit();
    return result;
}

}  // namespace tessera::gap
