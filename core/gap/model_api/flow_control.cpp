// Flow control of the model API: command line, file and symbol names, memory budgets, errors.
// GenerateTilingCode() lives in generate_tiling_code.cpp so that a program using only these calls
// does not pull in the tiling engine.
#include "AutoTilerLib.h"
#include "model_registry.h"

#include <cctype>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>
#include <string>
#include <utility>
#include <system_error>

using tessera::gap::currentModel;
using tessera::gap::failModel;
using tessera::gap::format;

namespace {

void printUsage(std::FILE* stream, const char* program)
{
    std::fprintf(stream,
                 "usage: %s [-o DIR] [-c DIR] [-R] [--l1 BYTES] [--l2 BYTES] [--l3 BYTES] [--debug] [-h]\n"
                 "  -o DIR      write the generated files into DIR (created if missing; default .)\n"
                 "  -c DIR      write the constants images (graphs' flash files) into DIR (default: as -o)\n"
                 "  -R          generate re-entrant user kernels\n"
                 "  --l1 BYTES  L1 memory budget; overrides SetL1MemorySize/SetMemorySizes in the model\n"
                 "  --l2 BYTES  L2 memory budget of graphs; overrides SetMemorySizes/SetMemoryDeviceInfos\n"
                 "  --l3 BYTES  L3 Ram budget of graphs; overrides SetMemorySizes/SetMemoryDeviceInfos\n"
                 "              (--L1, --L2 and --L3, as NNTool's build rules spell them, are the same)\n"
                 "  --debug     print the model's GenTilingDebug notes\n"
                 "  -h, --help  print this help and exit\n",
                 program);
}

// 1, 2 or 3 for --l1/--L1, --l2/--L2, --l3/--L3 (also written --l1=BYTES ...); 0 otherwise.
int memoryOption(const char* argument)
{
    if (std::strncmp(argument, "--", 2) != 0 || (argument[2] != 'l' && argument[2] != 'L') || argument[3] < '1' ||
        argument[3] > '3' || (argument[4] != '\0' && argument[4] != '='))
        return 0;
    return argument[3] - '0';
}

bool parseSize(const char* text, unsigned& size)
{
    if (text == nullptr || *text == '\0' || *text == '-')
        return false;
    errno = 0;
    char* end = nullptr;
    const unsigned long long value = std::strtoull(text, &end, 0);
    if (errno != 0 || *end != '\0' || value > std::numeric_limits<unsigned>::max())
        return false;
    size = unsigned(value);
    return true;
}

// The value of an option given as "-o DIR", "-oDIR", "--l1 N" or "--l1=N"; advances `index` past
// a separate value. Returns nullptr when the value is missing.
const char* optionValue(int argc, char** argv, int& index, const char* option)
{
    const char* argument = argv[index];
    const std::size_t optionLength = std::strlen(option);
    if (argument[optionLength] == '=' && option[1] == '-')
        return argument + optionLength + 1;
    if (argument[optionLength] != '\0' && option[1] != '-')
        return argument + optionLength;
    if (index + 1 >= argc)
        return nullptr;
    return argv[++index];
}

bool startsWithOption(const char* argument, const char* option)
{
    const std::size_t length = std::strlen(option);
    if (std::strncmp(argument, option, length) != 0)
        return false;
    // "--l1" must be followed by nothing or '='; "-o" may be glued to its value.
    return option[1] != '-' || argument[length] == '\0' || argument[length] == '=';
}

// Replaces `target` unless the model passed NULL or "" to keep the current name.
void setUnlessEmpty(std::string& target, const char* name)
{
    if (name != nullptr && *name != '\0')
        target = name;
}

// --debug: GenTilingDebug prints its notes.
bool printDebugNotes = false;

}  // namespace

extern "C" {

void AT_UseFirstAutotilerForm(void) { currentModel().options.kernelDescriptorArgument = true; }

int (TilerParseOptions)(int argc, char** argv)
{
    tessera::tiler::GenerationOptions& options = currentModel().options;
    const char* program = argc > 0 && argv[0] != nullptr ? argv[0] : "generator";
    for (int i = 1; i < argc; ++i) {
        const char* argument = argv[i];
        if (std::strcmp(argument, "-h") == 0 || std::strcmp(argument, "--help") == 0) {
            printUsage(stdout, program);
            // Nothing has been built yet, so the program ends here without running exit handlers
            // (a model may be embedded in a larger host program that registered its own).
            std::fflush(stdout);
            std::_Exit(0);
        } else if (std::strcmp(argument, "-R") == 0) {
            options.reentrant = true;
        } else if (std::strcmp(argument, "--debug") == 0) {
            printDebugNotes = true;
        } else if (startsWithOption(argument, "-o") || startsWithOption(argument, "-c")) {
            const bool output = startsWithOption(argument, "-o");
            const char* option = output ? "-o" : "-c";
            const char* directory = optionValue(argc, argv, i, option);
            if (directory == nullptr || *directory == '\0') {
                std::fprintf(stderr, "error: option %s needs a directory\n", option);
                printUsage(stderr, program);
                return 1;
            }
            std::error_code error;
            std::filesystem::create_directories(directory, error);
            if (error) {
                std::fprintf(stderr, "error: cannot create %s directory %s: %s\n", output ? "output" : "constants",
                             directory, error.message().c_str());
                return 1;
            }
            (output ? options.outputDir : options.constantsDir) = directory;
        } else if (const int level = memoryOption(argument); level > 0) {
            const std::string option = std::string(argument).substr(0, 4);
            const char* value = optionValue(argc, argv, i, option.c_str());
            unsigned size = 0;
            if (!parseSize(value, size) || size == 0) {
                std::fprintf(stderr, "error: option %s needs a positive size in bytes, got '%s'\n", option.c_str(),
                             value ? value : "");
                printUsage(stderr, program);
                return 1;
            }
            (level == 1 ? options.l1Size : level == 2 ? options.l2Size : options.l3Size) = size;
            (level == 1 ? options.l1SizeOverridden : level == 2 ? options.l2SizeOverridden : options.l3SizeOverridden) = true;
        } else {
            std::fprintf(stderr, "error: unknown option '%s'\n", argument);
            printUsage(stderr, program);
            return 1;
        }
    }
    return 0;
}

void GenTilingError(const char* Format, ...)
{
    std::string message;
    if (Format != nullptr) {
        va_list args;
        va_start(args, Format);
        message = tessera::gap::formatList(Format, args);
        va_end(args);
    }
    // A generator that tried its forms with AT_KERNEL_NOSOLUTION_ERROR off names the layer none of
    // them tiled: say why Tessera dropped each kernel of that name.
    std::string reasons;
    for (const auto& [name, reason] : tessera::gap::currentModel().droppedKernels) {
        const std::size_t at = message.find(name);
        const bool named = at != std::string::npos &&
                           (at + name.size() == message.size() ||
                            !(std::isalnum(static_cast<unsigned char>(message[at + name.size()])) || message[at + name.size()] == '_'));
        const std::string prefix = "user kernel " + name + ": ";  // the solver's reasons name it already
        const std::string why = reason.rfind(prefix, 0) == 0 ? reason.substr(prefix.size()) : reason;
        const std::string line = "\n  user kernel " + name + " was dropped: " + why;
        if (named && reasons.find(line) == std::string::npos)
            reasons += line;
    }
    failModel(message + reasons);
}

void GenTilingDebug(const char* Format, ...)
{
    if (!printDebugNotes || Format == nullptr)
        return;
    va_list args;
    va_start(args, Format);
    const std::string message = tessera::gap::formatList(Format, args);
    va_end(args);
    std::printf("debug: %s%s", message.c_str(), !message.empty() && message.back() == '\n' ? "" : "\n");
}

void SetUsedFilesNames(const char* StdTypedefsName, unsigned int LibKernelFileCount, ...)
{
    tessera::tiler::GenerationOptions& options = currentModel().options;
    setUnlessEmpty(options.stdTypesHeader, StdTypedefsName);
    std::vector<std::string> headers;
    va_list args;
    va_start(args, LibKernelFileCount);
    for (unsigned i = 0; i < LibKernelFileCount; ++i) {
        const char* header = va_arg(args, const char*);
        if (header == nullptr) {
            va_end(args);
            failModel(format("SetUsedFilesNames: basic kernel header %u of %u is NULL", i + 1,
                             LibKernelFileCount));
        }
        headers.emplace_back(header);
    }
    va_end(args);
    options.libKernelHeaders = std::move(headers);
}

// In parentheses: SetGeneratedFilesNames is also the argument-counting macro of AutoTilerLib.h.
void(SetGeneratedFilesNames)(const char* ArgInitsName, const char* ArgInitsHeaderName,
                             const char* CallTemplatesName, const char* CallTemplatesNameHeader)
{
    tessera::tiler::GenerationOptions& options = currentModel().options;
    setUnlessEmpty(options.initSource, ArgInitsName);
    setUnlessEmpty(options.initHeader, ArgInitsHeaderName);
    setUnlessEmpty(options.kernelsSource, CallTemplatesName);
    setUnlessEmpty(options.kernelsHeader, CallTemplatesNameHeader);
}

void SetGeneratedKernelFilesNames(const char* CallTemplatesName, const char* CallTemplatesNameHeader)
{
    tessera::tiler::GenerationOptions& options = currentModel().options;
    if (CallTemplatesName != nullptr && *CallTemplatesName != '\0')
        options.kernelsSource = CallTemplatesName;
    if (CallTemplatesNameHeader != nullptr && *CallTemplatesNameHeader != '\0')
        options.kernelsHeader = CallTemplatesNameHeader;
}

// In parentheses: SetSymbolNames is also the argument-counting macro of AutoTilerLib.h.
void(SetSymbolNames)(const char* L1SymbName, const char* L2SymbName, const char* KernelDescrName,
                     const char* KernelDescArgName)
{
    tessera::tiler::GenerationOptions& options = currentModel().options;
    setUnlessEmpty(options.l1Symbol, L1SymbName);
    setUnlessEmpty(options.l2Symbol, L2SymbName);
    setUnlessEmpty(options.kernelDescrSymbol, KernelDescrName);
    setUnlessEmpty(options.kernelDescrArgSymbol, KernelDescArgName);
}

void SetMemorySymbolNames(const char* L1SymbName, const char* L2SymbName)
{
    (SetSymbolNames)(L1SymbName, L2SymbName, nullptr, nullptr);
}

void SetSymbolDynamics(void)
{
    currentModel().options.dynamicSymbols = true;
}

void SetInlineMode(InlineModeT Mode)
{
    if (Mode != NEVER_INLINE && Mode != ALWAYS_INLINE && Mode != SINGLE_INLINE)
        failModel(format("SetInlineMode: mode %d is not NEVER_INLINE (0), ALWAYS_INLINE (1) or SINGLE_INLINE (2)",
                         int(Mode)));
}

void SetKernelOpts(KernelOptimizationT On, KernelOptimizationT Off)
{
    constexpr unsigned kKnown = KER_OPT_BUFFER_PROMOTE | KER_OPT_PARTIAL_BUFFER_PROMOTE | KER_OPT_KEEP_GROUP |
                                KER_OPT_GROUP_HEAD | KER_OPT_GROUP_TAIL;
    const unsigned on = unsigned(On), off = unsigned(Off);
    if ((on | off) & ~kKnown)
        failModel(format("SetKernelOpts: bits 0x%x are not KER_OPT_* options", (on | off) & ~kKnown));
    if (on & off)
        failModel(format("SetKernelOpts: options 0x%x are turned both on and off", on & off));
    tessera::tiler::GenerationOptions& options = currentModel().options;
    for (const auto& [bit, flag] : {std::pair{unsigned(KER_OPT_BUFFER_PROMOTE), &options.promoteBuffers},
                                    std::pair{unsigned(KER_OPT_PARTIAL_BUFFER_PROMOTE), &options.promotePartialBuffers}}) {
        if (on & bit)
            *flag = true;
        if (off & bit)
            *flag = false;
    }
}

void SetL1MemorySize(unsigned int Size)
{
    tessera::tiler::GenerationOptions& options = currentModel().options;
    if (!options.l1SizeOverridden)  // --l1 on the command line wins
        options.l1Size = Size;
}

void SetMemorySizes(unsigned int L1Size, unsigned int L2Size, unsigned int L3Size)
{
    SetL1MemorySize(L1Size);
    tessera::tiler::GenerationOptions& options = currentModel().options;
    if (!options.l2SizeOverridden)
        options.l2Size = L2Size;
    if (!options.l3SizeOverridden)
        options.l3Size = L3Size;
}

char* AppendNames(const char* Name, const char* Suffix)
{
    if (Name == nullptr || Suffix == nullptr)
        failModel(format("AppendNames(%s, %s): both names are needed", Name ? Name : "NULL",
                         Suffix ? Suffix : "NULL"));
    return tessera::gap::registry().arena.makeString(std::string(Name) + Suffix);  // no separator, as in the SDK
}

}  // extern "C"
