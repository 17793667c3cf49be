#include "model_registry.h"

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace tessera::gap {

std::optional<std::size_t> ObjectArena::listLength(const void* list) const
{
    const auto it = listLengths_.find(list);
    if (it == listLengths_.end())
        return std::nullopt;
    return it->second;
}

char* ObjectArena::makeString(const std::string& text)
{
    // A vector of char rather than a std::string so the model may write into the buffer.
    std::vector<char> buffer(text.begin(), text.end());
    buffer.push_back('\0');
    return make(std::move(buffer))->data();
}

void ObjectArena::clear()
{
    listLengths_.clear();
    owned_.clear();
}

ModelRegistry& registry()
{
    // A function-local static: built on first use, destroyed at exit (also after exit(1)).
    static ModelRegistry instance;
    return instance;
}

tiler::KernelModel& currentModel()
{
    return registry().model;
}

void resetModel()
{
    ModelRegistry& state = registry();
    tiler::KernelModel empty;  // named: GCC 12 wrongly warns of an uninitialized map in a temporary
    state.model = std::move(empty);
    state.arena.clear();
    state.openGroup.reset();
    state.openGraph.reset();
    state.kernelTemplates.clear();
    state.userSymbols.clear();
    state.groupSymbols.clear();
    state.groupArguments.clear();
    state.matchableKernels.clear();
    state.poppedKernels.clear();
}

std::vector<std::string> unfinishedBuildProblems()
{
    const ModelRegistry& state = registry();
    std::vector<std::string> problems;
    if (state.openGroup)
        problems.push_back("kernel group " + state.model.groups[*state.openGroup].name
                           + " was opened but never closed: call CloseKernelGroup() after its last UserKernel()");
    if (state.openGraph)
        problems.push_back("graph " + state.model.graphs[*state.openGraph].name
                           + " was created but never closed: call CloseGraph() after its last AddNode()");
    return problems;
}

namespace {
std::mutex& embeddedBuildMutex()
{
    static std::mutex mutex;
    return mutex;
}
}  // namespace

EmbeddedModelBuild::EmbeddedModelBuild() : lock_(embeddedBuildMutex())
{
    resetModel();
    registry().throwErrors = true;
}

EmbeddedModelBuild::~EmbeddedModelBuild()
{
    resetModel();
    registry().throwErrors = false;
}

void failModel(const std::string& message)
{
    if (registry().throwErrors)
        throw ModelBuildError(message);
    std::fflush(stdout);
    std::fprintf(stderr, "error: %s\n", message.c_str());
    std::exit(1);
}

std::string formatList(const char* pattern, va_list args)
{
    va_list sizing;
    va_copy(sizing, args);
    const int length = std::vsnprintf(nullptr, 0, pattern, sizing);
    va_end(sizing);
    std::string text;
    if (length > 0) {
        text.resize(std::size_t(length) + 1);
        std::vsnprintf(text.data(), text.size(), pattern, args);
        text.resize(std::size_t(length));
    }
    return text;
}

std::string format(const char* pattern, ...)
{
    va_list args;
    va_start(args, pattern);
    std::string text = formatList(pattern, args);
    va_end(args);
    return text;
}

const char* variadicString(const void* pointer)
{
    const auto bits = reinterpret_cast<std::uintptr_t>(pointer);
    return (bits & 0xffffffffu) == 0 ? nullptr : static_cast<const char*>(pointer);
}

}  // namespace tessera::gap
