// tessera gap model-cflags | model-libs | emul-cflags: the compiler flags to build an Autotiler
// model program against Tessera's model library, and to build generated kernels for the host with
// the emulation runtime — the way an SDK exposes its paths, e.g.
//   cc MyModel.c $(tessera gap model-cflags) $(tessera gap model-libs) -o GenTile
//   cc $(tessera gap emul-cflags) -I out out/GenKernels.c $(tessera gap cnn-sources) ... -o run
#include "commands.h"

#include <fmt/format.h>

#include <filesystem>
#include <string>
#include <unistd.h>

namespace tessera::cli {
namespace {

struct GapPaths {
    std::string include;  // AutoTilerLib.h
    std::string runtime;  // at_api.h, Gap.h
    std::string cnnKernels;  // CNN_BasicKernels.h/.c
    std::string modelLibrary;
    std::string tilerLibrary;
    std::string plannerLibrary;
};

std::filesystem::path executableDirectory()
{
    std::error_code error;
    const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
    return error ? std::filesystem::path() : self.parent_path();
}

// An installed tessera (bin/tessera next to lib/tessera and share/tessera) uses the installed
// files; a build tree uses the sources and libraries it was built with.
GapPaths gapPaths()
{
    const std::filesystem::path prefix = executableDirectory().parent_path();
    const std::filesystem::path installedLibrary = prefix / "lib/tessera/libtessera_gap_model.a";
    std::error_code error;
    if (!prefix.empty() && std::filesystem::exists(installedLibrary, error))
        return {(prefix / "include/tessera/gap").string(), (prefix / "share/tessera/gap/runtime").string(),
                (prefix / "share/tessera/gap/cnn_kernels").string(), installedLibrary.string(),
                (prefix / "lib/tessera/libtessera_tiler.a").string(),
                (prefix / "lib/tessera/libtessera_planner.a").string()};
    return {TESSERA_GAP_INCLUDE_DIR, TESSERA_GAP_RUNTIME_DIR, TESSERA_GAP_CNN_KERNELS_DIR, TESSERA_GAP_MODEL_LIBRARY,
            TESSERA_TILER_LIBRARY, TESSERA_PLANNER_LIBRARY};
}

} // namespace

void addGapCommand(CLI::App& app, Action& action)
{
    auto* command = app.add_subcommand("gap", "Flags to build Autotiler models and generated GAP kernels");
    command->require_subcommand(1);
    const auto add = [&](const char* name, const char* description, std::string (*flags)(const GapPaths&)) {
        command->add_subcommand(name, description)->callback([&action, flags] {
            action = [flags] {
                fmt::print("{}\n", flags(gapPaths()));
                return 0;
            };
        });
    };
    add("model-cflags", "Compiler flags for a model program (the AutoTilerLib.h include path)",
        [](const GapPaths& paths) { return "-I" + paths.include; });
    add("model-libs", "Libraries to link a model program with (after its sources)", [](const GapPaths& paths) {
        std::string libs = paths.modelLibrary + " " + paths.tilerLibrary + " " + paths.plannerLibrary + " -lstdc++ -lm";
#ifdef TESSERA_SANITIZED_BUILD
        libs += " -fsanitize=address,undefined";  // the libraries themselves were built instrumented
#endif
        return libs;
    });
    add("emul-cflags", "Compiler flags to build generated kernels for the host with the emulation runtime",
        [](const GapPaths& paths) { return "-D__EMUL__ -I" + paths.runtime + " -I" + paths.cnnKernels; });
    add("cnn-sources", "The CNN basic-kernel sources to compile with code from the CNN generators",
        [](const GapPaths& paths) { return paths.cnnKernels + "/CNN_BasicKernels.c"; });
}

} // namespace tessera::cli
