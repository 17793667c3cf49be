// tessera gap model-cflags | model-libs | emul-cflags: the compiler flags to build an Autotiler
// model program against Tessera's model library, and to build generated kernels for the host with
// the emulation runtime — the way an SDK exposes its paths, e.g.
//   cc MyModel.c $(tessera gap model-cflags) $(tessera gap model-libs) -o GenTile
//   cc $(tessera gap emul-cflags) -I out out/GenKernels.c $(tessera gap cnn-sources) ... -o run
#include "commands.h"
#include "gap_project/gap_paths.h"

#include <fmt/format.h>

#include <memory>
#include <string>

namespace tessera::cli {

void addGapCommand(CLI::App& app, Action& action)
{
    auto* command = app.add_subcommand("gap", "Flags to build Autotiler models and generated GAP kernels");
    command->require_subcommand(1);
    const auto add = [&](const char* name, const char* description, std::string (*flags)(const gap::GapPaths&)) {
        command->add_subcommand(name, description)->callback([&action, flags] {
            action = [flags] {
                fmt::print("{}\n", flags(gap::gapPaths()));
                return 0;
            };
        });
    };
    // Gap.h too: GreenWaves' generator sources include it for the GAP vector types. Models written
    // for the SDK's first Autotiler (autotiler_v2) get kernels with its trailing Kernel_T * argument.
    auto* modelCflags = command->add_subcommand(
        "model-cflags", "Compiler flags for a model program (the AutoTilerLib.h and Gap.h include paths)");
    auto firstAutotiler = std::make_shared<bool>(false);
    modelCflags->add_flag("--first-autotiler", *firstAutotiler,
                          "The model is written for the SDK's first Autotiler (autotiler_v2): its generated kernels "
                          "and groups take a trailing Kernel_T * argument");
    modelCflags->callback([&action, firstAutotiler] {
        action = [first = *firstAutotiler] {
            const gap::GapPaths paths = gap::gapPaths();
            fmt::print("-I{} -I{}{}\n", paths.include, paths.runtime, first ? " -DAT_FIRST_AUTOTILER" : "");
            return 0;
        };
    });
    add("model-libs", "Libraries to link a model program with (after its sources)", [](const gap::GapPaths& paths) {
        std::string libs = paths.modelLibrary + " " + paths.tilerLibrary + " " + paths.plannerLibrary + " -lstdc++ -lm";
#ifdef TESSERA_SANITIZED_BUILD
        libs += " -fsanitize=address,undefined";  // the libraries themselves were built instrumented
#endif
        return libs;
    });
    // pmsis_emul: PMSIS on the host, so that SDK applications build next to the generated kernels.
    // Without position independence a program's globals sit below 4 GiB, so applications that keep
    // chip addresses in 32 bits (`(int) Coeffs` handed to the DMA) work on the host too.
    add("emul-cflags",
        "Compiler flags to build generated kernels and PMSIS applications for the host with the emulation runtime",
        [](const gap::GapPaths& paths) {
            return "-D__EMUL__ -fno-pie -no-pie -I" + paths.runtime + " -I" + paths.runtime + "/pmsis_emul -I" +
                   paths.cnnKernels;
        });
    add("cnn-sources", "The CNN basic-kernel sources to compile with code from the CNN generators",
        [](const gap::GapPaths& paths) {
            return paths.cnnKernels + "/CNN_BasicKernels.c " + paths.cnnKernels + "/CNN_BasicKernels_SQ8.c";
        });
}

} // namespace tessera::cli
