// tessera: the command-line compiler. Every subcommand drives the same core as the studio.
#include "commands.h"

#include "base/error.h"

#include <fmt/format.h>

#include <cstdio>
#include <exception>

int main(int argc, char** argv)
{
    CLI::App app{"Tessera: put neural networks onto accelerators with tiny memories", "tessera"};
    app.require_subcommand(1);
    app.set_version_flag("--version", "tessera 0.1.0");
    tessera::cli::Action action;
    tessera::cli::addInspectCommand(app, action);
    tessera::cli::addRunCommand(app, action);
    tessera::cli::addConformanceCommand(app, action);
    tessera::cli::addZooCommand(app, action);
    tessera::cli::addPlanCommand(app, action);
    tessera::cli::addScampCommand(app, action);
    tessera::cli::addAieCommand(app, action);
    tessera::cli::addGapCommand(app, action);
    tessera::cli::addCompileCommand(app, action);
    tessera::cli::addNvdlaCommand(app, action);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& error) {
        if (error.get_exit_code() == 0)  // --help, --version
            return app.exit(error);
        // Bad command-line input: exit status 2, as for every other bad input.
        fmt::print(stderr, "error: {}\n(tessera --help lists the commands, tessera COMMAND --help their options)\n",
                   error.what());
        return 2;
    }
    try {
        return action ? action() : 0;
    } catch (const tessera::ModelError& error) {  // a file that cannot be read or is not valid: bad input
        fmt::print(stderr, "error: {}\n", error.what());
        return 2;
    } catch (const tessera::ShapeError& error) {  // a model whose shapes break an operator's rules
        fmt::print(stderr, "error: {}\n", error.what());
        return 2;
    } catch (const std::bad_alloc&) {
        fmt::print(stderr, "error: out of memory (the model or its tensors are too large for this machine)\n");
    } catch (const std::exception& error) {
        fmt::print(stderr, "error: {}\n", error.what());
    }
    return 1;
}
