// The graph-mode part of checkModel(): memory devices (SetMemoryDeviceInfos) and graphs (nodes
// naming existing kernels with one binding per C argument, symbols that resolve, directions that
// agree, locals and outputs written before they are read, constants with their values).
#include "tiler/model_check.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>

namespace tessera::tiler {

namespace {

std::string symbolNames(const GraphModel& graph)
{
    std::string text;
    for (const std::vector<GraphArgument>* list : {&graph.arguments, &graph.locals})
        for (const GraphArgument& symbol : *list)
            text += (text.empty() ? "" : ", ") + symbol.carg.name;
    return text.empty() ? "(none)" : text;
}

std::string cargNames(const std::vector<CArgument>& cargs)
{
    std::string text;
    for (const CArgument& carg : cargs)
        text += (text.empty() ? "" : ", ") + carg.name;
    return text.empty() ? "(none)" : text;
}

bool writes(GraphNodeBinding::Direction direction)
{
    return direction != GraphNodeBinding::Direction::In;
}

bool reads(GraphNodeBinding::Direction direction)
{
    return direction != GraphNodeBinding::Direction::Out;
}

// Symbols whose contents are undefined until a node writes them.
bool startsUndefined(const GraphArgument& symbol)
{
    return symbol.scope == GraphArgScope::Local
        || (isGraphArgument(symbol.scope) && symbol.direction == GraphArgDirection::Out);
}

std::string symbolRole(const GraphArgument& symbol)
{
    return symbol.scope == GraphArgScope::Local ? "local " + symbol.carg.name : "graph output " + symbol.carg.name;
}

// What a graph node calls: a user kernel or a kernel group, with the C arguments to bind.
struct NodeCallee {
    std::string kind;
    const std::vector<CArgument>* cargs = nullptr;  // nullptr: a group without UserKernelGroup()
};

class GraphChecker {
public:
    explicit GraphChecker(const KernelModel& model) : model_(model)
    {
        // Looked up once per node: a model of 10^5 layers would make linear searches quadratic.
        for (const UserKernel& kernel : model.userKernels)
            userKernels_.emplace(kernel.name, &kernel);
    }

    std::vector<std::string> run()
    {
        checkDevices();
        checkPrivilegedFlash();
        for (const GraphModel& graph : model_.graphs)
            checkGraph(graph);
        return std::move(problems_);
    }

private:
    void report(std::string message) { problems_.push_back(std::move(message)); }

    bool hasDevice(MemoryLocation location) const
    {
        return std::any_of(model_.devices.begin(), model_.devices.end(),
                           [&](const MemoryDevice& device) { return device.location == location; });
    }

    void checkDevices()
    {
        std::map<MemoryLocation, int> declarations;
        for (const MemoryDevice& device : model_.devices) {
            const std::string where =
                std::string("memory device ") + memoryLocationName(device.location) + " (" + device.baseName + ")";
            if (++declarations[device.location] == 2)
                report(std::string("memory device ") + memoryLocationName(device.location)
                       + " is declared more than once in SetMemoryDeviceInfos(); keep one entry per device");
            if (device.size == 0)
                report(where + ": its available memory is 0 bytes; give its size in SetMemoryDeviceInfos()");
            if (isFlashMemory(device.location) && device.constFile.empty())
                report(where + ": a flash device needs the name of its constants file (ConstFileName, the 4th value "
                               "of its SetMemoryDeviceInfos() entry, e.g. \"Model_L3_Flash_Const.dat\")");
        }
    }

    // AT_GRAPH_PRIVILEGED_L3_HOME names a flash device declared with its size and image file,
    // besides the ordinary flash.
    void checkPrivilegedFlash()
    {
        const int wanted = model_.options.privilegedFlash;
        if (wanted == 0 || model_.graphs.empty())
            return;
        const std::string option = std::string("AT_GRAPH_PRIVILEGED_L3_HOME names ") +
                                   memoryLocationName(MemoryLocation(wanted));
        if (!hasDevice(MemoryLocation(wanted))) {
            report(option + ", which SetMemoryDeviceInfos() does not declare; add an entry for it with its size and "
                            "the name of its constants file");
            return;
        }
        const auto flashes = std::count_if(model_.devices.begin(), model_.devices.end(),
                                           [](const MemoryDevice& device) { return isFlashMemory(device.location); });
        if (flashes < 2)
            report(option + ", the only flash device; the privileged flash comes in addition to the ordinary one "
                            "(e.g. AT_MEM_L3_DEFAULTFLASH), declare both in SetMemoryDeviceInfos()");
    }

    void checkGraph(const GraphModel& graph)
    {
        const std::string where = "graph " + graph.name;
        for (const MemoryLocation required : {MemoryLocation::L1, MemoryLocation::L2})
            if (!hasDevice(required))
                report(where + ": no " + memoryLocationName(required)
                       + " memory device; declare it with SetMemoryDeviceInfos() (size and C base name)");
        if (model_.findUserKernel(graph.name) != nullptr
            || std::any_of(model_.groups.begin(), model_.groups.end(),
                           [&](const KernelGroup& group) { return group.name == graph.name; }))
            report(where + ": a user kernel or kernel group has the same name; graphs and kernels become C functions, "
                           "rename one of them");
        if (graph.nodes.empty())
            report(where + " has no nodes; add AddNode() calls between CreateGraph() and CloseGraph()");
        checkSymbols(graph, where);
        checkNodes(graph, where);
    }

    void checkSymbols(const GraphModel& graph, const std::string& where)
    {
        std::string constants;
        for (const std::vector<GraphArgument>* list : {&graph.arguments, &graph.locals})
            for (const GraphArgument& symbol : *list) {
                const bool inLocals = list == &graph.locals;
                if (inLocals != (symbol.scope == GraphArgScope::Local))
                    report(where + ": symbol " + symbol.carg.name + " is " + graphArgScopeName(symbol.scope)
                           + " but listed with the " + (inLocals ? "locals" : "arguments and globals")
                           + "; locals (ARG_SCOPE_LOCAL) go in CreateGraph()'s second list, the others in its first");
                if (symbol.scope == GraphArgScope::AllocatedArgument)
                    checkAllocatedArgument(symbol, where);
                if (symbol.direction != GraphArgDirection::ConstIn)
                    continue;
                constants += (constants.empty() ? "" : ", ") + symbol.carg.name;
                if (!symbol.hasConstant)
                    report(where + ": symbol " + symbol.carg.name
                           + " is ARG_DIR_CONSTIN but has no ConstInfo(); pass ConstInfo(\"File\", Format, Binary, "
                             "Size, Fract) as the last argument of its TCArgInfo()");
            }
        const bool hasFlash = std::any_of(model_.devices.begin(), model_.devices.end(),
                                          [](const MemoryDevice& device) { return isFlashMemory(device.location); });
        if (!constants.empty() && !hasFlash)
            report(where + ": its constants (" + constants
                   + ") need a flash memory device; add an AT_MEM_L3_DEFAULTFLASH entry with a constants file name "
                     "to SetMemoryDeviceInfos()");
    }

    // An ARG_SCOPE_ARG_ALLOC symbol: an input or output the constructor allocates in L2.
    void checkAllocatedArgument(const GraphArgument& symbol, const std::string& where)
    {
        const std::string label = where + ": symbol " + symbol.carg.name + " (ARG_SCOPE_ARG_ALLOC)";
        if (symbol.direction == GraphArgDirection::ConstIn || symbol.hasConstant)
            report(label + " is a constant; constants are ARG_SCOPE_GLOBAL, make it ARG_SCOPE_GLOBAL");
        for (const MemoryLocation location : {symbol.home, symbol.execution})
            if (location != MemoryLocation::Undefined && location != MemoryLocation::L2) {
                report(label + " is placed in " + memoryLocationName(location)
                       + "; the graph allocates such arguments in L2, give AT_MEM_L2 (or AT_MEM_UNDEF) as its home "
                         "and execution locations, or make it ARG_SCOPE_ARG");
                break;
            }
        if (model_.options.reentrant)
            report(label + ": a re-entrant graph (AT_GRAPH_REENTRANT) keeps its state in the caller's context, "
                           "not in globals; make it ARG_SCOPE_ARG");
    }

    const std::string* droppedReason(const std::string& kernel) const
    {
        for (const auto& [name, reason] : model_.droppedKernels)
            if (name == kernel)
                return &reason;
        return nullptr;
    }

    std::optional<NodeCallee> calleeOf(const std::string& name) const
    {
        if (const auto kernel = userKernels_.find(name); kernel != userKernels_.end())
            return NodeCallee{"user kernel", &kernel->second->cargs};
        for (const KernelGroup& group : model_.groups)
            if (group.name == name)
                return NodeCallee{"kernel group", group.hasTemplate ? &group.cargs : nullptr};
        return std::nullopt;
    }

    void checkNodes(const GraphModel& graph, const std::string& where)
    {
        symbols_.clear();
        valueSymbols_.clear();
        tensorSymbols_.clear();
        for (const std::vector<GraphArgument>* list : {&graph.arguments, &graph.locals})
            for (const GraphArgument& argument : *list)
                symbols_.emplace(argument.carg.name, &argument);  // the first of a name, as findSymbol
        std::set<std::string> written;
        for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
            const GraphNode& node = graph.nodes[i];
            const std::string label = where + ": node " + std::to_string(i + 1) + " (" + node.kernel + ")";
            const std::optional<NodeCallee> callee = calleeOf(node.kernel);
            const std::vector<CArgument>* cargs = callee ? callee->cargs : nullptr;
            if (!callee) {
                if (model_.findBasicKernel(node.kernel) != nullptr)
                    report(label + ": " + node.kernel + " is a basic kernel; a graph node calls a user kernel or a "
                                                        "kernel group, declare one that calls it");
                else if (const std::string* reason = droppedReason(node.kernel))
                    report(label + ": user kernel " + node.kernel + " was dropped (AT_KERNEL_NOSOLUTION_ERROR is off): "
                           + *reason + "; check the generator's result and declare another kernel under that name");
                else
                    report(label + ": no user kernel or kernel group named " + node.kernel
                           + "; declare it (UserKernel(), a CNN_* generator or a kernel group) or fix the AddNode() name");
            } else if (cargs != nullptr && cargs->size() != node.bindings.size()) {
                report(label + ": binding count " + std::to_string(node.bindings.size()) + " but " + callee->kind + " "
                       + node.kernel + " has " + std::to_string(cargs->size()) + " C arguments (" + cargNames(*cargs)
                       + "); give one binding (GNodeArg(), GNodeCArg() or Imm()) per C argument, in order");
            }
            for (std::size_t j = 0; j < node.bindings.size(); ++j) {
                std::string bindingLabel = label + ": binding " + std::to_string(j + 1);
                if (cargs != nullptr && j < cargs->size())
                    bindingLabel += " (" + (*cargs)[j].name + ")";
                checkBinding(graph, node.bindings[j], bindingLabel, written);
            }
        }
        for (const GraphArgument& symbol : graph.arguments)
            if (isGraphArgument(symbol.scope) && symbol.direction == GraphArgDirection::Out
                && !written.count(symbol.carg.name))
                report(where + ": output " + symbol.carg.name + " (" + graphArgScopeName(symbol.scope)
                       + ", ARG_DIR_OUT) is never written; bind it GNA_OUT in the node that produces it");
    }

    void checkBinding(const GraphModel& graph, const GraphNodeBinding& binding, const std::string& label,
                      std::set<std::string>& written)
    {
        if (binding.kind == GraphNodeBinding::Kind::Immediate)
            return;
        if (binding.kind == GraphNodeBinding::Kind::Value) {
            checkValueBinding(graph, binding, label);
            return;
        }
        const char* direction = nodeBindingDirectionName(binding.direction);
        const auto found = symbols_.find(binding.symbol);
        const GraphArgument* symbol = found == symbols_.end() ? nullptr : found->second;
        if (valueSymbols_.count(binding.symbol)) {
            report(label + ": GNodeArg(" + direction + ", \"" + binding.symbol + "\") binds as a tensor a symbol that "
                   + "another node takes by value (GNodeCArg); a runner argument is either a tensor the graph places "
                     "or a value it passes on, bind it one way");
            return;
        }
        if (symbol == nullptr) {
            report(label + ": GNodeArg(" + direction + ", \"" + binding.symbol + "\") names no symbol of graph "
                   + graph.name + "; its symbols are " + symbolNames(graph) + "; declare it in CreateGraph()");
            return;
        }
        const bool readOnly =
            symbol->direction == GraphArgDirection::In || symbol->direction == GraphArgDirection::ConstIn;
        if (writes(binding.direction) && readOnly)
            report(label + ": " + direction + " writes symbol " + binding.symbol + ", which is "
                   + graphArgDirectionName(symbol->direction) + "; bind it GNA_IN, or declare it ARG_DIR_OUT or "
                   + "ARG_DIR_INOUT in its TCArgInfo()");
        if (reads(binding.direction) && startsUndefined(*symbol) && !written.count(binding.symbol))
            report(label + ": " + direction + " reads " + symbolRole(*symbol)
                   + " before any node writes it; an earlier node must bind it GNA_OUT");
        if (writes(binding.direction))
            written.insert(binding.symbol);
        tensorSymbols_.insert(binding.symbol);
    }

    // GNodeCArg(Name): Name must be a runner argument the nodes read (ARG_SCOPE_ARG, ARG_DIR_IN), bound
    // by value only.
    void checkValueBinding(const GraphModel& graph, const GraphNodeBinding& binding, const std::string& label)
    {
        const std::string form = "GNodeCArg(\"" + binding.symbol + "\")";
        const auto found = symbols_.find(binding.symbol);
        const GraphArgument* symbol = found == symbols_.end() ? nullptr : found->second;
        if (symbol == nullptr) {
            report(label + ": " + form + " names no argument of graph " + graph.name + "; its symbols are "
                   + symbolNames(graph) + "; declare it in CreateGraph()'s first list, e.g. TCArgInfo(\"bool\", \""
                   + binding.symbol + "\", ARG_SCOPE_ARG, ARG_DIR_IN, AT_MEM_UNDEF, AT_MEM_UNDEF, 0)");
            return;
        }
        if (symbol->scope != GraphArgScope::Argument)
            report(label + ": " + form + " passes " + graphArgScopeName(symbol->scope) + " symbol " + binding.symbol
                   + " by value; only runner arguments (ARG_SCOPE_ARG) are passed on as they are, bind the others "
                     "with GNodeArg()");
        else if (symbol->direction != GraphArgDirection::In)
            report(label + ": " + form + " passes " + binding.symbol + ", which is "
                   + graphArgDirectionName(symbol->direction) + ", by value; a node cannot write a value it is given, "
                   + "declare it ARG_DIR_IN");
        if (tensorSymbols_.count(binding.symbol))
            report(label + ": " + form + " takes by value a symbol that a node binds as a tensor (GNodeArg); a runner "
                   + "argument is either a tensor the graph places or a value it passes on, bind it one way");
        valueSymbols_.insert(binding.symbol);
    }

    const KernelModel& model_;
    std::vector<std::string> problems_;
    std::set<std::string> valueSymbols_;   // of the graph being checked: bound by GNodeCArg
    std::set<std::string> tensorSymbols_;  // ... and by GNodeArg
    std::unordered_map<std::string, const UserKernel*> userKernels_;   // the first of each name
    std::unordered_map<std::string, const GraphArgument*> symbols_;    // of the graph being checked
};

}  // namespace

std::vector<std::string> checkGraphModel(const KernelModel& model)
{
    return GraphChecker(model).run();
}

}  // namespace tessera::tiler
