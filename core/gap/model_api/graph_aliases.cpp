// In-place bindings between two symbols: GNodeArg(GNA_INOUT, Name, AliasedArgName) with Name !=
// AliasedArgName. The SDK's meaning is that the node reads AliasedArgName and writes Name in its
// place, so the two are one buffer ("equivalent symbols"); NNTool's LSTM and GRU layers keep their
// state that way across the sequences they are split into. Resolved when the graph closes: Name
// must be a local, it is dropped from the locals, and every binding of it names the buffer.
#include "model_registry.h"

#include <algorithm>
#include <map>
#include <set>

using namespace tessera::gap;
namespace tiler = tessera::tiler;

namespace {

std::string inPlaceBindingText(const tiler::GraphNodeBinding& binding)
{
    return "GNodeArg(GNA_INOUT, \"" + binding.symbol + "\", \"" + binding.aliasOf + "\")";
}

// The first symbol of the chain local -> reads -> ... that is not itself written in place of another.
std::string bufferOf(const tiler::GraphModel& graph, const std::map<std::string, std::size_t>& aliasIndex,
                     const tiler::GraphAlias& alias)
{
    std::set<std::string> chain{alias.local};
    std::string buffer = alias.reads;
    for (auto found = aliasIndex.find(buffer); found != aliasIndex.end(); found = aliasIndex.find(buffer)) {
        if (!chain.insert(buffer).second) {
            std::string names;
            for (const std::string& name : chain)
                names += (names.empty() ? "" : ", ") + name;
            failModel("graph " + graph.name + ": the in-place bindings (GNA_INOUT) of " + names +
                      " form a cycle, so none of them has a buffer; one of them must be written as a symbol of "
                      "its own (GNodeArg(GNA_OUT, ...) or GNodeArg(GNA_INOUT, Name, 0))");
        }
        buffer = graph.aliases[found->second].reads;
    }
    return buffer;
}

}  // namespace

void tessera::gap::resolveInPlaceAliases(tiler::GraphModel& graph)
{
    std::map<std::string, std::size_t> aliasIndex;  // local: its entry in graph.aliases
    for (std::size_t n = 0; n < graph.nodes.size(); ++n)
        for (const tiler::GraphNodeBinding& binding : graph.nodes[n].bindings) {
            if (binding.aliasOf.empty() || !binding.bindsTensor())
                continue;
            const std::string context =
                "graph " + graph.name + ": node " + graph.nodes[n].kernel + ": " + inPlaceBindingText(binding);
            const tiler::GraphArgument* written = graph.findSymbol(binding.symbol);
            if (written == nullptr || written->scope != tiler::GraphArgScope::Local)
                failModel(context + ": " + binding.symbol + " is " +
                          (written ? std::string(tiler::graphArgScopeName(written->scope))
                                   : std::string("no symbol of the graph")) +
                          "; a symbol written in place of another must be declared as a local (ARG_SCOPE_LOCAL) in "
                          "CreateGraph's second list");
            const tiler::GraphArgument* read = graph.findSymbol(binding.aliasOf);
            if (read == nullptr)
                failModel(context + ": " + binding.aliasOf + " is no symbol of the graph; declare it in CreateGraph");
            if (read->hasConstant || read->direction == tiler::GraphArgDirection::ConstIn)
                failModel(context + ": " + binding.aliasOf + " is a constant, which no node writes; copy it into a "
                          "local first");
            const auto [known, inserted] = aliasIndex.emplace(binding.symbol, graph.aliases.size());
            if (inserted)
                graph.aliases.push_back({binding.symbol, binding.aliasOf, {}, n});
            else if (graph.aliases[known->second].reads != binding.aliasOf)
                failModel(context + ": " + binding.symbol + " is also written in place of " +
                          graph.aliases[known->second].reads + " by node " +
                          graph.nodes[graph.aliases[known->second].node].kernel +
                          "; a local shares the buffer of one symbol only");
        }
    if (graph.aliases.empty())
        return;
    for (tiler::GraphAlias& alias : graph.aliases)
        alias.buffer = bufferOf(graph, aliasIndex, alias);
    for (const tiler::StackedTensors& stack : graph.stacks)
        if (aliasIndex.count(stack.out))
            failModel("graph " + graph.name + ": AddStackedTensors(\"" + stack.out + "\"): " + stack.out +
                      " is written in place of " + graph.aliases[aliasIndex.at(stack.out)].reads +
                      " (GNA_INOUT), so it has no buffer to stack into; stack into " +
                      graph.aliases[aliasIndex.at(stack.out)].buffer);
    for (tiler::GraphNode& node : graph.nodes)
        for (tiler::GraphNodeBinding& binding : node.bindings)
            if (const auto found = aliasIndex.find(binding.symbol); found != aliasIndex.end() && binding.bindsTensor())
                binding.symbol = graph.aliases[found->second].buffer;
    graph.locals.erase(std::remove_if(graph.locals.begin(), graph.locals.end(),
                                      [&](const tiler::GraphArgument& local) {
                                          return aliasIndex.count(local.carg.name) != 0;
                                      }),
                       graph.locals.end());
}
