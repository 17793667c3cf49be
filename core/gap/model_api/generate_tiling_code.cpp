// GenerateTilingCode(): checks the model built by the C calls, then hands it to the tiling engine.
// Kept apart from flow_control.cpp so only programs that generate code link the engine.
#include "AutoTilerLib.h"
#include "model_registry.h"
#include "tiler/code_generator.h"
#include "tiler/model_check.h"

#include <cstdio>
#include <cstdlib>

extern "C" int GenerateTilingCode(void)
{
    const tessera::tiler::KernelModel& model = tessera::gap::currentModel();
    std::vector<std::string> problems = tessera::gap::unfinishedBuildProblems();
    for (std::string& problem : tessera::tiler::checkModel(model))
        problems.push_back(std::move(problem));
    if (!problems.empty()) {
        std::fflush(stdout);
        for (const std::string& problem : problems)
            std::fprintf(stderr, "error: %s\n", problem.c_str());
        std::fprintf(stderr, "error: the model has %zu problem%s; no code was generated\n", problems.size(),
                     problems.size() == 1 ? "" : "s");
        std::exit(1);
    }

    const tessera::tiler::GenerationResult result = tessera::tiler::generateTilingCode(model);
    if (!result.log.empty()) {
        std::fputs(result.log.c_str(), stdout);
        if (result.log.back() != '\n')
            std::fputc('\n', stdout);
    }
    std::fflush(stdout);
    if (!result.ok) {
        std::fprintf(stderr, "error: %s\n", result.error.c_str());
        std::exit(1);
    }
    return 0;
}
