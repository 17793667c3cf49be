#include "tiler/model_check.h"

#include <algorithm>
#include <cstdint>
#include <set>

namespace tessera::tiler {

namespace {

// Kernel arguments (all planes) must stay addressable with 32-bit signed offsets.
constexpr std::uint64_t kMaxArgumentBytes = std::uint64_t(1) << 31;

const char* iteratorName(IterationSpace iterator)
{
    switch (iterator) {
    case IterationSpace::Tile: return "KER_TILE";
    case IterationSpace::InPlane: return "KER_IN_PLANE";
    case IterationSpace::OutPlane: return "KER_OUT_PLANE";
    case IterationSpace::OuterTile: return "KER_ITER_TILE1";
    }
    return "?";
}

std::string orderText(const std::vector<IterationSpace>& order)
{
    std::string text = "(";
    for (std::size_t i = 0; i < order.size(); ++i)
        text += (i ? ", " : "") + std::string(iteratorName(order[i]));
    return text + ")";
}

template <class T>
std::string namesOf(const std::vector<T>& items)
{
    if (items.empty())
        return "(none)";
    std::string text;
    for (const T& item : items)
        text += (text.empty() ? "" : ", ") + item.name;
    return text;
}

template <class T>
bool hasNamed(const std::vector<T>& items, const std::string& name)
{
    return std::any_of(items.begin(), items.end(), [&](const T& item) { return item.name == name; });
}

// The names that occur more than once, each reported once.
template <class T>
std::vector<std::string> duplicateNames(const std::vector<T>& items)
{
    std::set<std::string> seen, reported;
    std::vector<std::string> duplicates;
    for (const T& item : items)
        if (!seen.insert(item.name).second && reported.insert(item.name).second)
            duplicates.push_back(item.name);
    return duplicates;
}

// a * b, saturated at kMaxArgumentBytes so that chained products never wrap around.
std::uint64_t saturatingProduct(std::uint64_t a, std::uint64_t b)
{
    std::uint64_t product = 0;
    if (__builtin_mul_overflow(a, b, &product) || product > kMaxArgumentBytes)
        return kMaxArgumentBytes;
    return product;
}

// The number of WxH planes an argument holds in its user kernel's iteration space.
std::uint64_t planeCount(const UserKernel& kernel, const KernelArgument& argument)
{
    if (argument.has(ArgFlag::FourD))
        return saturatingProduct(kernel.inPlanes, kernel.outPlanes);
    if (!argument.has(ArgFlag::ThreeD))
        return 1;
    if (argument.planePerOutput)
        return kernel.outPlanes;
    if (argument.has(ArgFlag::In) || argument.planePerInput)  // an in-out argument counts as an input
        return kernel.inPlanes;
    if (argument.has(ArgFlag::Out))
        return kernel.outPlanes;
    return std::max(kernel.inPlanes, kernel.outPlanes);
}

bool isSupportedOrder(int dimension, const std::vector<IterationSpace>& order)
{
    using I = IterationSpace;
    static const std::vector<std::vector<I>> supported[3] = {
        {{I::Tile}},
        {{I::Tile, I::InPlane}, {I::OutPlane, I::Tile}, {I::InPlane, I::Tile}},
        {{I::OutPlane, I::Tile, I::InPlane}, {I::OutPlane, I::InPlane, I::Tile}},
    };
    const auto& forms = supported[dimension - 2];
    return std::find(forms.begin(), forms.end(), order) != forms.end();
}

class ModelChecker {
public:
    explicit ModelChecker(const KernelModel& model) : model_(model) {}

    std::vector<std::string> run()
    {
        if (model_.options.l1Size == 0)
            report("the L1 memory budget is 0 bytes: call SetL1MemorySize() in the model or pass --l1");
        for (const std::string& name : duplicateNames(model_.basicKernels))
            report("basic kernel " + name + " is declared more than once: give each LibKernel() a unique name");
        for (const std::string& name : duplicateNames(model_.userKernels))
            report("user kernel " + name + " is declared more than once: give each UserKernel() a unique name");
        for (const BasicKernel& kernel : model_.basicKernels)
            for (const std::string& name : duplicateNames(kernel.args))
                report("basic kernel " + kernel.name + ": C argument " + name + " appears more than once");
        for (const UserKernel& kernel : model_.userKernels)
            checkUserKernel(kernel);
        for (const KernelGroup& group : model_.groups)
            checkGroup(group);
        for (std::string& problem : checkGraphModel(model_))
            report(std::move(problem));
        return std::move(problems_);
    }

private:
    void report(std::string message) { problems_.push_back(std::move(message)); }

    void checkUserKernel(const UserKernel& kernel)
    {
        const std::string where = "user kernel " + kernel.name;
        if (kernel.inPlanes == 0 || kernel.outPlanes == 0)
            report(where + ": KernelDimensions() gives " + std::to_string(kernel.inPlanes) + " input and "
                   + std::to_string(kernel.outPlanes) + " output planes; use 1 for a kernel without planes");
        checkIterationOrder(kernel, where);
        for (const std::string& name : duplicateNames(kernel.cargs))
            report(where + ": C argument " + name + " appears more than once in CArgs()");
        for (const std::string& name : duplicateNames(kernel.args))
            report(where + ": kernel argument " + name + " appears more than once in KerArgs()");
        for (std::size_t a = 0; a < kernel.args.size(); ++a) {
            checkKernelArgument(kernel, kernel.args[a], where + ": argument " + kernel.args[a].name);
            if (!kernel.args[a].sharesBufferOf.empty())
                checkSharedBuffer(kernel, a, where + ": argument " + kernel.args[a].name);
        }
        for (std::size_t i = 0; i < kernel.calls.size(); ++i)
            checkBasicKernelCall(kernel, kernel.calls[i],
                                 where + ": call " + std::to_string(i + 1) + " (" + kernel.calls[i].callee + ")");
        checkChunkablePlanes(kernel, where);
        checkRuntimeBounds(kernel, where);
    }

    // A plane loop counted at run time (IterFixedSpaceDynBound) is one of the kernel's loops, not run
    // in chunks, and its count is one of the kernel's integer C arguments.
    void checkRuntimeBounds(const UserKernel& kernel, const std::string& where)
    {
        for (IterationSpace loop : {IterationSpace::InPlane, IterationSpace::OutPlane}) {
            const std::string& bound = kernel.runtimeBound(loop);
            if (bound.empty())
                continue;
            const std::string name = iteratorName(loop);
            if (std::find(kernel.order.begin(), kernel.order.end(), loop) == kernel.order.end())
                report(where + ": its " + name + " loop is counted by " + bound + " at run time, but the kernel has no such loop");
            if (kernel.chunkablePlanes == loop)
                report(where + ": its " + name + " loop is counted by " + bound + " at run time, so it cannot also run in "
                       "chunks; declare it IterFixedSpaceDynBound (not IterParSpace)");
            const auto carg = std::find_if(kernel.cargs.begin(), kernel.cargs.end(),
                                           [&](const CArgument& a) { return a.name == bound; });
            if (carg == kernel.cargs.end())
                report(where + ": its " + name + " loop is counted by " + bound + ", which is not one of its C arguments");
        }
    }

    // A plane loop run in chunks must be one of the kernel's loops, and no call may read its index:
    // a C_ArgIndex or Ker_IteratorIndex counts planes, and a chunk would skip some.
    void checkChunkablePlanes(const UserKernel& kernel, const std::string& where)
    {
        const IterationSpace loop = kernel.chunkablePlanes;
        if (loop == IterationSpace::Tile)
            return;
        const std::string name = iteratorName(loop);
        if (std::find(kernel.order.begin(), kernel.order.end(), loop) == kernel.order.end()) {
            report(where + ": its " + name + " loop is to run in chunks, but the kernel has no such loop");
            return;
        }
        for (std::size_t i = 0; i < kernel.calls.size(); ++i)
            for (const Binding& binding : kernel.calls[i].bindings)
                if (binding.iterator == loop &&
                    (binding.kind == Binding::Kind::CArgIndex || binding.kind == Binding::Kind::LoopIndex))
                    report(where + ": call " + std::to_string(i + 1) + " (" + kernel.calls[i].callee + ") reads the "
                           + name + " index, so that loop cannot run in chunks; drop the index binding or run the "
                           "loop one plane at a time");
        for (const KernelArgument& arg : kernel.args)
            if (arg.reverses(loop))
                report(where + ": argument " + arg.name + " runs through the " + name + " planes backwards, so that "
                       "loop cannot run in chunks; run it one plane at a time or drop the reversal");
    }

    void checkIterationOrder(const UserKernel& kernel, const std::string& where)
    {
        if (kernel.dimension < 2 || kernel.dimension > 4) {
            report(where + ": iteration dimension " + std::to_string(kernel.dimension)
                   + " is not KER_DIM2, KER_DIM3 or KER_DIM4");
            return;
        }
        const std::string order = "KER_DIM" + std::to_string(kernel.dimension) + " " + orderText(kernel.order);
        // A 2-D space has the tile iterator only; each further dimension adds a plane iterator.
        const std::size_t expected = std::size_t(kernel.dimension - 1);
        if (kernel.order.size() != expected) {
            report(where + ": iteration order " + order + " has " + std::to_string(kernel.order.size())
                   + " iterator(s) but KER_DIM" + std::to_string(kernel.dimension) + " needs " + std::to_string(expected)
                   + ": KER_TILE plus one plane iterator per dimension above 2");
            return;
        }
        const auto tiles = std::count(kernel.order.begin(), kernel.order.end(), IterationSpace::Tile);
        if (tiles != 1) {
            report(where + ": iteration order " + order + " must contain KER_TILE exactly once, not "
                   + std::to_string(tiles) + " times");
            return;
        }
        if (!isSupportedOrder(kernel.dimension, kernel.order))
            report(where + ": iteration order " + order
                   + " is not supported; use (KER_DIM2, KER_TILE), (KER_DIM3, KER_TILE, KER_IN_PLANE), "
                     "(KER_DIM3, KER_IN_PLANE, KER_TILE), (KER_DIM3, KER_OUT_PLANE, KER_TILE), "
                     "(KER_DIM4, KER_OUT_PLANE, KER_TILE, KER_IN_PLANE) or (KER_DIM4, KER_OUT_PLANE, KER_IN_PLANE, KER_TILE)");
    }

    // KerArgAliased: an output using the L1 buffer of an input declared before it. Both are whole
    // buffers (untiled, one plane) of one size, so the input is read into it before the loops, the
    // kernel rewrites it, and the output is written from it after them.
    void checkSharedBuffer(const UserKernel& kernel, std::size_t index, const std::string& where)
    {
        const KernelArgument& argument = kernel.args[index];
        const std::string& name = argument.sharesBufferOf;
        const auto shared = std::find_if(kernel.args.begin(), kernel.args.begin() + std::ptrdiff_t(index),
                                         [&](const KernelArgument& other) { return other.name == name; });
        if (shared == kernel.args.begin() + std::ptrdiff_t(index)) {
            report(where + ": it shares the L1 buffer of " + name + ", which is not an argument declared before it "
                           "in KerArgs(); KerArgAliased's Alias is the position (from 0) of that argument in the list");
            return;
        }
        if (!shared->sharesBufferOf.empty())
            report(where + ": it shares the L1 buffer of " + name + ", which shares the buffer of " +
                   shared->sharesBufferOf + " itself; alias " + shared->sharesBufferOf + " directly");
        for (std::size_t other = 0; other < index; ++other)
            if (kernel.args[other].sharesBufferOf == name)
                report(where + ": " + kernel.args[other].name + " already shares the L1 buffer of " + name +
                       "; one output shares an input's buffer");
        const auto whole = [](const KernelArgument& arg) {
            return arg.has(ArgFlag::Buffer) && !arg.has(ArgFlag::Tiled) && !arg.has(ArgFlag::ThreeD) &&
                   arg.roomBefore == 0 && arg.roomAfter == 0 && arg.padBefore == 0 && arg.padAfter == 0;
        };
        if (!argument.has(ArgFlag::Out) || argument.has(ArgFlag::In) || !shared->has(ArgFlag::In) ||
            shared->has(ArgFlag::Out))
            report(where + ": it shares the L1 buffer of " + name + "; the shared buffer is read from an input (O_IN) "
                           "and written to an output (O_OUT), so " + name + " must be O_IN and " + argument.name +
                           " O_OUT, neither both");
        if (!whole(argument) || !whole(*shared))
            report(where + ": it shares the L1 buffer of " + name + "; both must be whole buffers in L1 (O_BUFF, "
                           "O_NTILED, one plane, no room or padding), as GreenWaves' recurrent layers declare their "
                           "state");
        else if (argument.width != shared->width || argument.height != shared->height ||
                 argument.itemSize != shared->itemSize)
            report(where + ": it is " + std::to_string(argument.width) + " x " + std::to_string(argument.height) +
                   " items of " + std::to_string(argument.itemSize) + " bytes but shares the L1 buffer of " + name +
                   ", " + std::to_string(shared->width) + " x " + std::to_string(shared->height) + " items of " +
                   std::to_string(shared->itemSize) + " bytes; a shared buffer has one size");
    }

    void checkKernelArgument(const UserKernel& kernel, const KernelArgument& argument, const std::string& where)
    {
        if (argument.width == 0 || argument.height == 0 || argument.itemSize == 0) {
            report(where + ": width " + std::to_string(argument.width) + ", height " + std::to_string(argument.height)
                   + " and item size " + std::to_string(argument.itemSize)
                   + " must all be positive (use 1 for a 1-D argument's height)");
        } else {
            const std::uint64_t planes = planeCount(kernel, argument);
            const std::uint64_t bytes = saturatingProduct(
                saturatingProduct(saturatingProduct(argument.width, argument.height), argument.itemSize), planes);
            if (bytes >= kMaxArgumentBytes)
                report(where + ": " + std::to_string(argument.width) + " x " + std::to_string(argument.height) + " x "
                       + std::to_string(argument.itemSize) + " bytes x " + std::to_string(planes)
                       + " planes is 2 GiB or more; reduce its dimensions");
        }
        if (argument.usedWidth > argument.width || argument.usedHeight > argument.height)
            report(where + ": it uses " + std::to_string(argument.usedWidth) + " x " +
                   std::to_string(argument.usedHeight) + " of its " + std::to_string(argument.width) + " x " +
                   std::to_string(argument.height) + " planes; the used part cannot be larger than the planes");

        const bool isIn = argument.has(ArgFlag::In), isOut = argument.has(ArgFlag::Out);
        const bool isBuffer = argument.has(ArgFlag::Buffer);
        // Such an argument is in L1 whole, read before the loops and written after them; tiled
        // (OBJ_BUFFER_IN / OBJ_BUFFER_OUT), its kernel sees the current tile of it.
        if (isBuffer && (isIn || isOut) &&
            (argument.has(ArgFlag::OneTile) || argument.has(ArgFlag::DynTile)))
            report(where + ": O_BUFF with O_IN or O_OUT is the whole argument in L1, read before the loops or "
                           "written after them (OBJ_BUFFER_IN, OBJ_BUFFER_OUT and their _NTILED forms), so it cannot be "
                           "O_ONETILE or O_DYNTILE; drop those, or O_BUFF");
        if (!isBuffer && !isIn && !isOut)
            report(where + ": it is neither an input, an output nor a buffer; add O_IN, O_OUT or O_BUFF");
        if (!isBuffer && argument.has(ArgFlag::OneTile))
            report(where + ": O_ONETILE is a buffer property; add O_BUFF (e.g. OBJ_BUFFER_ONETILE) or drop it");
        if (!isBuffer && argument.has(ArgFlag::DynTile))
            report(where + ": O_DYNTILE is a buffer property; add O_BUFF (e.g. OBJ_BUFFER_DYN) or drop it");
        if ((argument.constraints & ArgConstraint::Even) && (argument.constraints & ArgConstraint::Odd))
            report(where + ": OBJ_CONSTRAINTS_EVEN and OBJ_CONSTRAINTS_ODD exclude each other; keep one");
        if ((argument.constraints & ArgConstraint::TileHorizontal) && (argument.constraints & ArgConstraint::TileVertical))
            report(where + ": OBJ_CONSTRAINTS_TILE_HOR and OBJ_CONSTRAINTS_TILE_VER exclude each other; keep one");

        if (argument.cArgName.empty()) {
            if (isIn || isOut)
                report(where + ": it is an " + std::string(isIn ? "input" : "output")
                       + " but names no C argument; pass the C argument holding its home address as KerArg's "
                         "CArgName (one of " + namesOf(kernel.cargs) + ")");
        } else if (!hasNamed(kernel.cargs, argument.cArgName)) {
            report(where + ": it names C argument " + argument.cArgName + ", which " + kernel.name
                   + " does not have; its C arguments are " + namesOf(kernel.cargs));
        }
    }

    void checkBasicKernelCall(const UserKernel& kernel, const KernelCall& call, const std::string& where)
    {
        if (call.location == CallLocation::Group)
            report(where + ": LOC_GROUP is only for UserKernelCall() in a kernel group; use LOC_INNER_LOOP or "
                           "another loop location");
        const BasicKernel* callee = model_.findBasicKernel(call.callee);
        if (callee == nullptr) {
            if (model_.findUserKernel(call.callee) != nullptr)
                report(where + ": " + call.callee + " is a user kernel, not a basic kernel; call user kernels "
                                                    "from a kernel group with UserKernelCall()");
            else
                report(where + ": no basic kernel named " + call.callee + "; declare it with LibKernel()");
        } else if (call.bindings.size() != callee->args.size()) {
            report(where + ": binding count " + std::to_string(call.bindings.size()) + " but the basic kernel has "
                   + std::to_string(callee->args.size()) + " C arguments (" + namesOf(callee->args)
                   + "); give one binding per C argument, in order");
        }

        for (std::size_t j = 0; j < call.bindings.size(); ++j) {
            const Binding& binding = call.bindings[j];
            std::string label = where + ": binding " + std::to_string(j + 1);
            if (callee != nullptr && j < callee->args.size())
                label += " (" + callee->args[j].name + ")";
            switch (binding.kind) {
            case Binding::Kind::KernelArg:
            case Binding::Kind::TileItem:
            case Binding::Kind::PlaneChunk:
                if (!hasNamed(kernel.args, binding.name))
                    report(label + ": " +
                           (binding.kind == Binding::Kind::KernelArg  ? "K_Arg"
                            : binding.kind == Binding::Kind::TileItem ? "K_TileOper"
                                                                      : "K_ArgPar") +
                           "(\""
                           + binding.name + "\") names no kernel argument of " + kernel.name
                           + "; its kernel arguments are " + namesOf(kernel.args));
                break;
            case Binding::Kind::CArg:
            case Binding::Kind::CArgIndex: {
                const char* form = binding.kind == Binding::Kind::CArg ? "C_Arg" : "C_ArgIndex";
                const auto carg = std::find_if(kernel.cargs.begin(), kernel.cargs.end(),
                                               [&](const CArgument& c) { return c.name == binding.name; });
                if (carg == kernel.cargs.end())
                    report(label + ": " + form + "(\"" + binding.name + "\") names no C argument of " + kernel.name
                           + "; its C arguments are " + namesOf(kernel.cargs));
                else if (binding.kind == Binding::Kind::CArgIndex && carg->type.find('*') == std::string::npos)
                    report(label + ": C_ArgIndex(\"" + binding.name + "\") indexes C argument " + binding.name
                           + " of type " + carg->type + ", which is not a pointer; use C_Arg() or make it a pointer");
                break;
            }
            case Binding::Kind::Immediate:
            case Binding::Kind::Ignored:
            case Binding::Kind::Literal:
            case Binding::Kind::LoopIndex:
            case Binding::Kind::LoopPredicate:
                break;
            }
        }
    }

    void checkGroup(const KernelGroup& group)
    {
        const std::string where = "kernel group " + group.name;
        if (group.members.empty())
            report(where + " has no user kernels; declare them between OpenKernelGroup(\"" + group.name
                   + "\") and CloseKernelGroup()");
        if (!group.hasTemplate) {
            if (!group.members.empty())
                report(where + ": UserKernelGroup(\"" + group.name + "\", ...) is never called, so its user kernels "
                       + joined(group.members) + " are never called; add it after CloseKernelGroup()");
            return;
        }
        for (const std::string& name : duplicateNames(group.cargs))
            report(where + ": C argument " + name + " appears more than once in CArgs()");
        if (group.iterations == 0)
            report(where + " runs 0 times; a kernel group runs at least once");
        for (const GroupArgument& argument : group.arguments)
            if (std::none_of(group.cargs.begin(), group.cargs.end(),
                             [&](const CArgument& carg) { return carg.name == argument.cArgName; }))
                report(where + ": its KerGroupArg names C argument " + argument.cArgName +
                       ", which the group does not have; give the name of one of its CArgs()");

        std::set<std::string> called;
        for (std::size_t i = 0; i < group.calls.size(); ++i) {
            const KernelCall& call = group.calls[i];
            const std::string label = where + ": call " + std::to_string(i + 1) + " (" + call.callee + ")";
            called.insert(call.callee);
            checkGroupCall(group, call, label);
        }
        for (const std::string& member : group.members)
            if (!called.count(member))
                report(where + ": its user kernel " + member + " is never called; add UserKernelCall(\"" + member
                       + "\", LOC_GROUP, ...) to UserKernelGroup(\"" + group.name + "\") or move it out of the group");
    }

    void checkGroupCall(const KernelGroup& group, const KernelCall& call, const std::string& where)
    {
        if (call.location != CallLocation::Group)
            report(where + ": a call in a kernel group must use LOC_GROUP");
        const UserKernel* callee = model_.findUserKernel(call.callee);
        if (callee == nullptr)
            report(where + ": no user kernel named " + call.callee + "; a group calls the user kernels declared "
                           "between its OpenKernelGroup() and CloseKernelGroup()");
        else if (std::find(group.members.begin(), group.members.end(), call.callee) == group.members.end())
            report(where + ": user kernel " + call.callee + " is not a member of " + group.name
                   + "; declare it between OpenKernelGroup(\"" + group.name + "\") and CloseKernelGroup()");
        else if (call.bindings.size() != callee->cargs.size())
            report(where + ": binding count " + std::to_string(call.bindings.size()) + " but the user kernel has "
                   + std::to_string(callee->cargs.size()) + " C arguments (" + namesOf(callee->cargs)
                   + "); give one binding per C argument, in order");

        for (std::size_t j = 0; j < call.bindings.size(); ++j) {
            const Binding& binding = call.bindings[j];
            std::string label = where + ": binding " + std::to_string(j + 1);
            if (callee != nullptr && j < callee->cargs.size())
                label += " (" + callee->cargs[j].name + ")";
            if (binding.kind == Binding::Kind::KernelArg || binding.kind == Binding::Kind::CArgIndex ||
                binding.kind == Binding::Kind::Ignored || binding.kind == Binding::Kind::TileItem ||
                binding.kind == Binding::Kind::LoopIndex || binding.kind == Binding::Kind::LoopPredicate ||
                binding.kind == Binding::Kind::PlaneChunk)
                report(label + ": " +
                       (binding.kind == Binding::Kind::KernelArg   ? "K_Arg"
                        : binding.kind == Binding::Kind::CArgIndex ? "C_ArgIndex"
                        : binding.kind == Binding::Kind::TileItem  ? "K_TileOper"
                        : binding.kind == Binding::Kind::LoopIndex ? "Ker_IteratorIndex"
                        : binding.kind == Binding::Kind::PlaneChunk ? "K_ArgPar"
                        : binding.kind == Binding::Kind::LoopPredicate ? "K_ArgPred"
                                                                   : "AT_IGNORE_ARG_BINDING") +
                       " cannot be used in a kernel group; bind C_Arg() or Imm() only");
            else if (binding.kind == Binding::Kind::CArg && !hasNamed(group.cargs, binding.name))
                report(label + ": C_Arg(\"" + binding.name + "\") names no C argument of group " + group.name
                       + "; its C arguments are " + namesOf(group.cargs));
        }
    }

    static std::string joined(const std::vector<std::string>& names)
    {
        std::string text;
        for (const std::string& name : names)
            text += (text.empty() ? "" : ", ") + name;
        return text;
    }

    const KernelModel& model_;
    std::vector<std::string> problems_;
};

}  // namespace

std::vector<std::string> checkModel(const KernelModel& model)
{
    return ModelChecker(model).run();
}

}  // namespace tessera::tiler
