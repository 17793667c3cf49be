#include "tiler/model_json.h"

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

namespace tessera::tiler {
namespace {

using nlohmann::json;

template <class T> struct Named {
    T value;
    const char* name;
};

constexpr Named<CallType> kCallTypes[] = {{CallType::Sequential, "sequential"}, {CallType::Parallel, "parallel"},
                                          {CallType::SequentialStruct, "sequential_struct"}};
constexpr Named<IterationSpace> kSpaces[] = {
    {IterationSpace::Tile, "tile"}, {IterationSpace::InPlane, "in_plane"}, {IterationSpace::OutPlane, "out_plane"},
    {IterationSpace::OuterTile, "outer_tile"}};
constexpr Named<Orientation> kOrientations[] = {{Orientation::Horizontal, "horizontal"},
                                                {Orientation::Vertical, "vertical"}};
constexpr Named<CallLocation> kLocations[] = {
    {CallLocation::Prolog, "prolog"},           {CallLocation::InnerLoopProlog, "inner_loop_prolog"},
    {CallLocation::InPlaneProlog, "in_plane_prolog"}, {CallLocation::InnerLoop, "inner_loop"},
    {CallLocation::InPlaneEpilog, "in_plane_epilog"}, {CallLocation::InnerLoopEpilog, "inner_loop_epilog"},
    {CallLocation::Epilog, "epilog"},           {CallLocation::Group, "group"}};
constexpr Named<ArgSelect> kSelects[] = {
    {ArgSelect::Tile, "tile"},           {ArgSelect::Plane, "plane"},         {ArgSelect::TileWidth, "tile_width"},
    {ArgSelect::TileWidth0, "tile_width0"}, {ArgSelect::TileHeight, "tile_height"}, {ArgSelect::TileHeight0, "tile_height0"},
    {ArgSelect::TileCount, "tile_count"}, {ArgSelect::TileIndex, "tile_index"}, {ArgSelect::TileOffset, "tile_offset"},
    {ArgSelect::Width, "width"}, {ArgSelect::Height, "height"},
    {ArgSelect::NextTile, "next_tile"}, {ArgSelect::TilePad, "tile_pad"},
    {ArgSelect::TileUsedWidth, "tile_used_width"}, {ArgSelect::TileUsedHeight, "tile_used_height"}};
constexpr Named<Binding::Kind> kBindingKinds[] = {{Binding::Kind::KernelArg, "kernel_arg"}, {Binding::Kind::CArg, "c_arg"},
                                                  {Binding::Kind::CArgIndex, "c_arg_index"}, {Binding::Kind::Immediate, "immediate"},
                                                  {Binding::Kind::Ignored, "ignored"}, {Binding::Kind::Literal, "literal"},
                                                  {Binding::Kind::TileItem, "tile_item"},
                                                  {Binding::Kind::LoopIndex, "loop_index"},
                                                  {Binding::Kind::LoopPredicate, "loop_predicate"},
                                                  {Binding::Kind::PlaneChunk, "plane_chunk"}};
constexpr Named<ModelItem::Kind> kItemKinds[] = {{ModelItem::Kind::UserKernel, "user_kernel"},
                                                 {ModelItem::Kind::Group, "group"}};
constexpr Named<std::uint32_t> kFlags[] = {
    {ArgFlag::In, "in"},           {ArgFlag::Out, "out"},         {ArgFlag::Buffer, "buffer"},
    {ArgFlag::Tiled, "tiled"},     {ArgFlag::OneTile, "one_tile"}, {ArgFlag::DynTile, "dyn_tile"},
    {ArgFlag::DoubleBuffer, "double_buffer"}, {ArgFlag::L2DoubleBuffer, "l2_double_buffer"},
    {ArgFlag::ThreeD, "3d"},       {ArgFlag::FourD, "4d"}};
constexpr Named<std::uint32_t> kConstraints[] = {
    {ArgConstraint::Even, "even"}, {ArgConstraint::Odd, "odd"}, {ArgConstraint::OnePreferredTile, "one_preferred_tile"},
    {ArgConstraint::TileHorizontal, "tile_horizontal"}, {ArgConstraint::TileVertical, "tile_vertical"}};

template <class T, std::size_t N> const char* nameOf(const Named<T> (&table)[N], T value)
{
    for (const Named<T>& entry : table)
        if (entry.value == value)
            return entry.name;
    return table[0].name;
}

template <std::size_t N> json flagNames(const Named<std::uint32_t> (&table)[N], std::uint32_t bits)
{
    json names = json::array();
    for (const Named<std::uint32_t>& entry : table)
        if ((bits & entry.value) == entry.value && entry.value != 0)
            names.push_back(entry.name);
    return names;
}

json cArgumentsJson(const std::vector<CArgument>& args)
{
    json list = json::array();
    for (const CArgument& arg : args)
        list.push_back({{"type", arg.type}, {"name", arg.name}});
    return list;
}

json callsJson(const std::vector<KernelCall>& calls)
{
    json list = json::array();
    for (const KernelCall& call : calls) {
        json bindings = json::array();
        for (const Binding& binding : call.bindings)
            bindings.push_back({{"kind", nameOf(kBindingKinds, binding.kind)}, {"name", binding.name},
                                {"select", nameOf(kSelects, binding.select)},
                                {"iterator", nameOf(kSpaces, binding.iterator)}, {"value", binding.value},
                                {"access_type", binding.accessType}});
        list.push_back({{"callee", call.callee}, {"location", nameOf(kLocations, call.location)}, {"bindings", bindings}});
    }
    return list;
}

json userKernelJson(const UserKernel& kernel)
{
    json order = json::array();
    for (IterationSpace space : kernel.order)
        order.push_back(nameOf(kSpaces, space));
    json args = json::array();
    for (const KernelArgument& arg : kernel.args) {
        args.push_back({{"name", arg.name}, {"flags", flagNames(kFlags, arg.flags)}, {"width", arg.width},
                        {"height", arg.height}, {"item_size", arg.itemSize}, {"tile_overlap", arg.tileOverlap},
                        {"constraints", flagNames(kConstraints, arg.constraints)},
                        {"preferred_tile_size", arg.preferredTileSize}, {"c_arg", arg.cArgName},
                        {"next_plane_update", arg.nextPlaneUpdate}, {"pad_before", arg.padBefore},
                        {"pad_after", arg.padAfter}, {"kernel_pads_itself", arg.kernelPadsItself},
                        {"kernel_pad", arg.kernelPad}, {"used_width", arg.usedWidth}, {"used_height", arg.usedHeight},
                        {"room_before", arg.roomBefore}, {"room_after", arg.roomAfter},
                        {"plane_per_input", arg.planePerInput},
                        {"plane_per_output", arg.planePerOutput}, {"outer_tiled", arg.outerTiled}});
        if (!arg.sharesBufferOf.empty())  // KerArgAliased only: other models' files stay as they were
            args.back()["shares_buffer_of"] = arg.sharesBufferOf;
        if (arg.reverseInPlanes)
            args.back()["reverse_in_planes"] = true;
        if (arg.reverseOutPlanes)
            args.back()["reverse_out_planes"] = true;
        if (arg.hwcPlanes)
            args.back()["hwc_planes"] = true;
    }
    return {{"name", kernel.name}, {"in_planes", kernel.inPlanes}, {"width", kernel.width}, {"height", kernel.height},
            {"out_planes", kernel.outPlanes}, {"dimension", kernel.dimension}, {"order", order},
            {"outer_tiles", kernel.outerTiles}, {"chunkable_planes", nameOf(kSpaces, kernel.chunkablePlanes)},
            {"chunk_divider", kernel.chunkDivider}, {"in_planes_bound", kernel.inPlanesBound},
            {"out_planes_bound", kernel.outPlanesBound},
            {"orientation", nameOf(kOrientations, kernel.orientation)}, {"cargs", cArgumentsJson(kernel.cargs)},
            {"calls", callsJson(kernel.calls)}, {"args", args}, {"group", kernel.group},
            {"l2_staging_base", kernel.l2StagingBase}, {"operations", kernel.operations}};
}

// The generation options by JSON key; the writer and the reader walk the same lists.
constexpr std::pair<const char*, std::string GenerationOptions::*> kOptionTexts[] = {
    {"output_dir", &GenerationOptions::outputDir},           {"constants_dir", &GenerationOptions::constantsDir},           {"std_types_header", &GenerationOptions::stdTypesHeader},
    {"init_source", &GenerationOptions::initSource},         {"init_header", &GenerationOptions::initHeader},
    {"kernels_source", &GenerationOptions::kernelsSource},   {"kernels_header", &GenerationOptions::kernelsHeader},
    {"l1_symbol", &GenerationOptions::l1Symbol},             {"l2_symbol", &GenerationOptions::l2Symbol},
    {"kernel_descr_symbol", &GenerationOptions::kernelDescrSymbol},
    {"kernel_descr_arg_symbol", &GenerationOptions::kernelDescrArgSymbol},
    {"cycles_variable", &GenerationOptions::cyclesVariable},
    {"node_names_variable", &GenerationOptions::nodeNamesVariable},
    {"operation_infos_variable", &GenerationOptions::operationInfosVariable},
    {"dump_one_node", &GenerationOptions::dumpOneNode}};
constexpr std::pair<const char*, unsigned GenerationOptions::*> kOptionSizes[] = {
    {"l1_size", &GenerationOptions::l1Size}, {"l2_size", &GenerationOptions::l2Size}, {"l3_size", &GenerationOptions::l3Size},
    {"warm_construct", &GenerationOptions::warmConstruct},
    {"l2_static_budget", &GenerationOptions::l2StaticBudget},
    {"l3_static_budget", &GenerationOptions::l3StaticBudget},
    {"dump_tensor_mask", &GenerationOptions::dumpTensorMask}};
constexpr std::pair<const char*, bool GenerationOptions::*> kOptionSwitches[] = {
    {"reentrant", &GenerationOptions::reentrant},
    {"l1_size_overridden", &GenerationOptions::l1SizeOverridden},
    {"l2_size_overridden", &GenerationOptions::l2SizeOverridden},
    {"l3_size_overridden", &GenerationOptions::l3SizeOverridden},
    {"dynamic_symbols", &GenerationOptions::dynamicSymbols},
    {"trace_generation", &GenerationOptions::traceGeneration},
    {"promote_constants_to_l2", &GenerationOptions::promoteConstantsToL2},
    {"monitor_cycles", &GenerationOptions::monitorCycles},
    {"node_names", &GenerationOptions::nodeNames},
    {"operation_infos", &GenerationOptions::operationInfos},
    {"checksum_tensors", &GenerationOptions::checksumTensors},
    {"dump_graph_outputs", &GenerationOptions::dumpGraphOutputs},
    {"dump_tensors_to_file", &GenerationOptions::dumpTensorsToFile},
    {"noinline_kernels", &GenerationOptions::noinlineKernels},
    {"size_optimized_graph", &GenerationOptions::sizeOptimizedGraph},
    {"promote_buffers", &GenerationOptions::promoteBuffers},
    {"promote_partial_buffers", &GenerationOptions::promotePartialBuffers},
    {"no_solution_error", &GenerationOptions::noSolutionError},
    {"kernel_descriptor_argument", &GenerationOptions::kernelDescriptorArgument}};

json optionsJson(const GenerationOptions& options)
{
    json object = {{"lib_kernel_headers", options.libKernelHeaders}};
    for (const auto& [key, member] : kOptionTexts)
        object[key] = options.*member;
    for (const auto& [key, member] : kOptionSizes)
        object[key] = options.*member;
    for (const auto& [key, member] : kOptionSwitches)
        object[key] = options.*member;
    return object;
}

// Reads the fields of one JSON object, naming "path.key" in every error. Fields without a
// fallback are required.
class ObjectReader {
public:
    ObjectReader(const json& value, std::string path) : value_(value), path_(std::move(path))
    {
        if (!value_.is_object())
            fail(path_, std::string("expected an object, got ") + value_.type_name());
    }

    [[noreturn]] static void fail(const std::string& path, const std::string& problem)
    {
        throw std::runtime_error("kernel model: " + (path.empty() ? std::string("top level") : path) + ": " + problem);
    }

    std::string pathOf(const std::string& key) const { return path_.empty() ? key : path_ + "." + key; }

    const json* find(const char* key) const
    {
        const auto it = value_.find(key);
        return it == value_.end() ? nullptr : &*it;
    }

    const json& require(const char* key) const
    {
        const json* value = find(key);
        if (!value)
            fail(pathOf(key), "missing");
        return *value;
    }

    std::string string(const char* key, std::optional<std::string> fallback = std::nullopt) const
    {
        const json* value = fallback ? find(key) : &require(key);
        if (!value)
            return *fallback;
        if (!value->is_string())
            fail(pathOf(key), std::string("expected a string, got ") + value->type_name());
        return value->get<std::string>();
    }

    std::uint64_t number(const char* key, std::uint64_t max, std::optional<std::uint64_t> fallback = std::nullopt) const
    {
        const json* value = fallback ? find(key) : &require(key);
        if (!value)
            return *fallback;
        if (!value->is_number_integer())
            fail(pathOf(key), std::string("expected an unsigned integer, got ") + value->type_name());
        if (!value->is_number_unsigned() && value->get<std::int64_t>() < 0)
            fail(pathOf(key), "must not be negative, got " + value->dump());
        const std::uint64_t number = value->get<std::uint64_t>();
        if (number > max)
            fail(pathOf(key), std::to_string(number) + " is over the limit " + std::to_string(max));
        return number;
    }

    std::int64_t integer(const char* key, std::int64_t fallback) const
    {
        const json* value = find(key);
        if (!value)
            return fallback;
        if (!value->is_number_integer())
            fail(pathOf(key), std::string("expected an integer, got ") + value->type_name());
        if (value->is_number_unsigned() && value->get<std::uint64_t>() > std::uint64_t(INT64_MAX))
            fail(pathOf(key), "too large for a signed 64-bit value");
        return value->get<std::int64_t>();
    }

    bool boolean(const char* key, bool fallback) const
    {
        const json* value = find(key);
        if (!value)
            return fallback;
        if (!value->is_boolean())
            fail(pathOf(key), std::string("expected true or false, got ") + value->type_name());
        return value->get<bool>();
    }

    // An array field; a missing optional array reads as empty.
    const json& array(const char* key, bool required = false) const
    {
        static const json empty = json::array();
        const json* value = required ? &require(key) : find(key);
        if (!value)
            return empty;
        if (!value->is_array())
            fail(pathOf(key), std::string("expected an array, got ") + value->type_name());
        return *value;
    }

    std::vector<std::string> strings(const char* key) const
    {
        std::vector<std::string> texts;
        const json& list = array(key);
        for (std::size_t i = 0; i < list.size(); ++i) {
            if (!list[i].is_string())
                fail(pathOf(key) + "[" + std::to_string(i) + "]", std::string("expected a string, got ") + list[i].type_name());
            texts.push_back(list[i].get<std::string>());
        }
        return texts;
    }

    template <class T, std::size_t N>
    static T choiceOf(const json& value, const std::string& path, const Named<T> (&table)[N])
    {
        if (!value.is_string())
            fail(path, std::string("expected a name, got ") + value.type_name());
        const std::string name = value.get<std::string>();
        std::string known;
        for (const Named<T>& entry : table) {
            if (name == entry.name)
                return entry.value;
            known += std::string(known.empty() ? "" : ", ") + entry.name;
        }
        fail(path, "unknown value \"" + name + "\" (expected one of " + known + ")");
    }

    template <class T, std::size_t N> T choice(const char* key, const Named<T> (&table)[N], T fallback) const
    {
        const json* value = find(key);
        return value ? choiceOf(*value, pathOf(key), table) : fallback;
    }

    template <std::size_t N> std::uint32_t flagSet(const char* key, const Named<std::uint32_t> (&table)[N]) const
    {
        const json& names = array(key);
        std::uint32_t bits = 0;
        for (std::size_t i = 0; i < names.size(); ++i)
            bits |= choiceOf(names[i], pathOf(key) + "[" + std::to_string(i) + "]", table);
        return bits;
    }

private:
    const json& value_;
    std::string path_;
};

std::string indexed(const std::string& path, std::size_t index) { return path + "[" + std::to_string(index) + "]"; }

unsigned dimension(const ObjectReader& reader, const char* key, std::optional<std::uint64_t> fallback = std::nullopt)
{
    return unsigned(reader.number(key, kMaxModelDimension, fallback));
}

std::vector<CArgument> cArgumentsFrom(const ObjectReader& owner, const char* key)
{
    std::vector<CArgument> args;
    const json& list = owner.array(key);
    for (std::size_t i = 0; i < list.size(); ++i) {
        const ObjectReader arg(list[i], indexed(owner.pathOf(key), i));
        args.push_back({arg.string("type"), arg.string("name")});
    }
    return args;
}

std::vector<KernelCall> callsFrom(const ObjectReader& owner)
{
    std::vector<KernelCall> calls;
    const json& list = owner.array("calls");
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string path = indexed(owner.pathOf("calls"), i);
        const ObjectReader call(list[i], path);
        KernelCall parsed;
        parsed.callee = call.string("callee");
        parsed.location = call.choice("location", kLocations, CallLocation::InnerLoop);
        const json& bindings = call.array("bindings");
        for (std::size_t b = 0; b < bindings.size(); ++b) {
            const ObjectReader binding(bindings[b], indexed(call.pathOf("bindings"), b));
            parsed.bindings.push_back({binding.choice("kind", kBindingKinds, Binding::Kind::Immediate),
                                       binding.string("name", ""), binding.choice("select", kSelects, ArgSelect::Tile),
                                       binding.choice("iterator", kSpaces, IterationSpace::Tile),
                                       binding.integer("value", 0), binding.string("access_type", "")});
        }
        calls.push_back(std::move(parsed));
    }
    return calls;
}

KernelArgument argumentFrom(const ObjectReader& arg)
{
    KernelArgument parsed;
    parsed.name = arg.string("name");
    parsed.flags = arg.flagSet("flags", kFlags);
    parsed.width = dimension(arg, "width");
    parsed.height = dimension(arg, "height");
    parsed.itemSize = unsigned(arg.number("item_size", kMaxModelItemSize));
    if (parsed.itemSize == 0)
        ObjectReader::fail(arg.pathOf("item_size"), "must be at least 1 byte");
    parsed.tileOverlap = dimension(arg, "tile_overlap", 0);
    parsed.constraints = arg.flagSet("constraints", kConstraints);
    parsed.preferredTileSize = dimension(arg, "preferred_tile_size", 0);
    parsed.cArgName = arg.string("c_arg", "");
    parsed.nextPlaneUpdate = dimension(arg, "next_plane_update", 0);
    parsed.padBefore = dimension(arg, "pad_before", 0);
    parsed.padAfter = dimension(arg, "pad_after", 0);
    parsed.kernelPadsItself = arg.boolean("kernel_pads_itself", false);
    const json& kernelPad = arg.array("kernel_pad");
    if (!kernelPad.empty() && kernelPad.size() != 4)
        ObjectReader::fail(arg.pathOf("kernel_pad"), "expected 4 integers (left, right, top, bottom), got " +
                                                         std::to_string(kernelPad.size()));
    for (std::size_t side = 0; side < kernelPad.size(); ++side) {
        if (!kernelPad[side].is_number_integer() || kernelPad[side].get<std::int64_t>() < 0 ||
            kernelPad[side].get<std::int64_t>() > 127)
            ObjectReader::fail(indexed(arg.pathOf("kernel_pad"), side), "expected an integer from 0 to 127, got " +
                                                                            kernelPad[side].dump());
        parsed.kernelPad[side] = kernelPad[side].get<int>();
    }
    parsed.usedWidth = dimension(arg, "used_width", 0);
    parsed.usedHeight = dimension(arg, "used_height", 0);
    parsed.roomBefore = dimension(arg, "room_before", 0);
    parsed.roomAfter = dimension(arg, "room_after", 0);
    parsed.planePerInput = arg.boolean("plane_per_input", false);
    parsed.planePerOutput = arg.boolean("plane_per_output", false);
    parsed.outerTiled = arg.boolean("outer_tiled", false);
    parsed.reverseInPlanes = arg.boolean("reverse_in_planes", false);
    parsed.reverseOutPlanes = arg.boolean("reverse_out_planes", false);
    parsed.hwcPlanes = arg.boolean("hwc_planes", false);
    parsed.sharesBufferOf = arg.string("shares_buffer_of", "");
    return parsed;
}

UserKernel userKernelFrom(const ObjectReader& kernel)
{
    UserKernel parsed;
    parsed.name = kernel.string("name");
    parsed.inPlanes = dimension(kernel, "in_planes", 1);
    parsed.width = dimension(kernel, "width");
    parsed.height = dimension(kernel, "height");
    parsed.outPlanes = dimension(kernel, "out_planes", 1);
    parsed.dimension = int(kernel.number("dimension", 4, 2));
    if (parsed.dimension < 2)
        ObjectReader::fail(kernel.pathOf("dimension"), "must be 2, 3 or 4");
    const json& order = kernel.array("order");
    for (std::size_t i = 0; i < order.size(); ++i)
        parsed.order.push_back(ObjectReader::choiceOf(order[i], indexed(kernel.pathOf("order"), i), kSpaces));
    parsed.outerTiles = kernel.boolean("outer_tiles", false);
    parsed.chunkablePlanes = kernel.choice("chunkable_planes", kSpaces, IterationSpace::Tile);
    if (parsed.chunkablePlanes != IterationSpace::Tile && parsed.chunkablePlanes != IterationSpace::InPlane &&
        parsed.chunkablePlanes != IterationSpace::OutPlane)
        ObjectReader::fail(kernel.pathOf("chunkable_planes"), "must be in_plane, out_plane or tile (none)");
    parsed.chunkDivider = unsigned(kernel.number("chunk_divider", 1u << 16, 1));
    if (parsed.chunkDivider == 0)
        ObjectReader::fail(kernel.pathOf("chunk_divider"), "must be at least 1");
    parsed.inPlanesBound = kernel.string("in_planes_bound", "");
    parsed.outPlanesBound = kernel.string("out_planes_bound", "");
    parsed.orientation = kernel.choice("orientation", kOrientations, Orientation::Horizontal);
    parsed.cargs = cArgumentsFrom(kernel, "cargs");
    parsed.calls = callsFrom(kernel);
    const json& args = kernel.array("args", true);
    for (std::size_t i = 0; i < args.size(); ++i)
        parsed.args.push_back(argumentFrom(ObjectReader(args[i], indexed(kernel.pathOf("args"), i))));
    parsed.group = kernel.string("group", "");
    parsed.l2StagingBase = kernel.string("l2_staging_base", "");
    parsed.operations = kernel.number("operations", UINT64_MAX, 0);
    return parsed;
}

GenerationOptions optionsFrom(const ObjectReader& reader)
{
    GenerationOptions options;
    for (const auto& [key, member] : kOptionTexts)
        options.*member = reader.string(key, options.*member);
    for (const auto& [key, member] : kOptionSizes)
        options.*member = unsigned(reader.number(key, UINT32_MAX, options.*member));
    for (const auto& [key, member] : kOptionSwitches)
        options.*member = reader.boolean(key, options.*member);
    options.libKernelHeaders = reader.strings("lib_kernel_headers");
    return options;
}

}  // namespace

nlohmann::json kernelModelToJson(const KernelModel& model)
{
    json basics = json::array();
    for (const BasicKernel& kernel : model.basicKernels)
        basics.push_back({{"name", kernel.name}, {"call_type", nameOf(kCallTypes, kernel.callType)},
                          {"args", cArgumentsJson(kernel.args)}, {"parallel_arg_type", kernel.parallelArgType}});
    json users = json::array();
    for (const UserKernel& kernel : model.userKernels)
        users.push_back(userKernelJson(kernel));
    json groups = json::array();
    for (const KernelGroup& group : model.groups)
    {
        json arguments = json::array();
        for (const GroupArgument& argument : group.arguments)
            arguments.push_back({{"carg", argument.cArgName}, {"bytes_per_iteration", argument.bytesPerIteration},
                                 {"same_each_iteration", argument.sameEachIteration}});
        groups.push_back({{"name", group.name}, {"members", group.members}, {"cargs", cArgumentsJson(group.cargs)},
                          {"calls", callsJson(group.calls)}, {"has_template", group.hasTemplate},
                          {"iterations", group.iterations}, {"group_args", arguments}});
    }
    json items = json::array();
    for (const ModelItem& item : model.items)
        items.push_back({{"kind", nameOf(kItemKinds, item.kind)}, {"index", item.index}});
    return {{"options", optionsJson(model.options)}, {"basic_kernels", basics}, {"user_kernels", users},
            {"groups", groups}, {"items", items}};
}

KernelModel kernelModelFromJson(const nlohmann::json& value)
{
    const ObjectReader top(value, "");
    KernelModel model;
    if (const json* options = top.find("options"))
        model.options = optionsFrom(ObjectReader(*options, "options"));
    const json& basics = top.array("basic_kernels");
    for (std::size_t i = 0; i < basics.size(); ++i) {
        const ObjectReader kernel(basics[i], indexed("basic_kernels", i));
        model.basicKernels.push_back({kernel.string("name"), kernel.choice("call_type", kCallTypes, CallType::Sequential),
                                      cArgumentsFrom(kernel, "args"), kernel.string("parallel_arg_type", "")});
    }
    const json& users = top.array("user_kernels", true);
    for (std::size_t i = 0; i < users.size(); ++i)
        model.userKernels.push_back(userKernelFrom(ObjectReader(users[i], indexed("user_kernels", i))));
    const json& groups = top.array("groups");
    for (std::size_t i = 0; i < groups.size(); ++i) {
        const ObjectReader group(groups[i], indexed("groups", i));
        KernelGroup parsed;
        parsed.name = group.string("name");
        parsed.members = group.strings("members");
        parsed.cargs = cArgumentsFrom(group, "cargs");
        parsed.calls = callsFrom(group);
        parsed.hasTemplate = group.boolean("has_template", false);
        parsed.iterations = unsigned(group.number("iterations", kMaxModelDimension, 1));
        if (parsed.iterations == 0)
            ObjectReader::fail(group.pathOf("iterations"), "is 0; a kernel group runs at least once");
        if (group.find("group_args") != nullptr) {
            const json& arguments = group.array("group_args", true);
            for (std::size_t a = 0; a < arguments.size(); ++a) {
                const ObjectReader argument(arguments[a], group.pathOf("group_args") + "[" + std::to_string(a) + "]");
                parsed.arguments.push_back({argument.string("carg"),
                                            argument.number("bytes_per_iteration", std::uint64_t(1) << 31),
                                            argument.boolean("same_each_iteration", false)});
            }
        }
        model.groups.push_back(std::move(parsed));
    }
    const json& items = top.array("items");
    for (std::size_t i = 0; i < items.size(); ++i) {
        const ObjectReader item(items[i], indexed("items", i));
        const ModelItem::Kind kind = item.choice("kind", kItemKinds, ModelItem::Kind::UserKernel);
        const std::size_t count = kind == ModelItem::Kind::UserKernel ? model.userKernels.size() : model.groups.size();
        if (count == 0)
            ObjectReader::fail(item.pathOf("index"), "refers to a list that is empty");
        model.items.push_back({kind, std::size_t(item.number("index", count - 1))});
    }
    // A model written without an order lists its user kernels in declaration order.
    if (!top.find("items"))
        for (std::size_t i = 0; i < model.userKernels.size(); ++i)
            model.items.push_back({ModelItem::Kind::UserKernel, i});
    return model;
}

}  // namespace tessera::tiler
