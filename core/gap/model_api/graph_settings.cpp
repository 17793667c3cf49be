// The graph-mode settings of the model API: memory devices (SetMemoryDeviceInfos) and graph
// generation options (AT_SetGraphCtrl). Checks needing the whole model (device sizes, duplicate
// devices, flash devices without a constants file) are left to checkModel().
#include "AutoTilerLib.h"
#include "builder_support.h"

#include <cstdarg>
#include <cstdint>
#include <cstdio>

using namespace tessera::gap;
namespace tiler = tessera::tiler;

static_assert(int(AT_MEM_L3_DEFAULTFLASH) == int(tiler::MemoryLocation::L3DefaultFlash)
                  && int(AT_MEM_L3_HFLASH) == int(tiler::MemoryLocation::L3HyperFlash)
                  && int(AT_MEM_L2) == int(tiler::MemoryLocation::L2),
              "AT_MemLocation_T and MemoryLocation must keep the same values");

namespace {

constexpr int kLastMemoryLocation = int(AT_MEM_L3_DEFAULTFLASH);

// How AT_SetGraphCtrl reads an option's value.
enum class ValueKind {
    Number,            // on/off flags, masks, byte budgets: stored as given
    Name,              // a C name (string)
    L3Ram,             // an AT_MEM_* L3 Ram location
    L3Flash,           // an AT_MEM_* L3 flash location
    OptionalL3Flash,   // the same, or 0 for none
    WarmMode,          // WARM_DISABLED .. WARM_ALL
};

struct GraphControlInfo {
    AT_GraphCtrl_T option;
    const char* name;
    ValueKind kind;
    // Options Tessera accepts without acting on them: the value they have anyway (-1: none).
    std::intptr_t onlyValue = -1;
};

constexpr GraphControlInfo kGraphControls[] = {
    {AT_KERNEL_BUFFER_PROMOTE, "AT_KERNEL_BUFFER_PROMOTE", ValueKind::Number},
    {AT_KERNEL_PARTIAL_BUFFER_PROMOTE, "AT_KERNEL_PARTIAL_BUFFER_PROMOTE", ValueKind::Number},
    {AT_KERNEL_NOSOLUTION_ERROR, "AT_KERNEL_NOSOLUTION_ERROR", ValueKind::Number},
    {AT_GRAPH_MONITOR_CYCLES, "AT_GRAPH_MONITOR_CYCLES", ValueKind::Number},
    {AT_GRAPH_MONITOR_CVAR_NAME, "AT_GRAPH_MONITOR_CVAR_NAME", ValueKind::Name},
    {AT_GRAPH_PRODUCE_NODE_NAMES, "AT_GRAPH_PRODUCE_NODE_NAMES", ValueKind::Number},
    {AT_GRAPH_PRODUCE_NODE_CVAR_NAME, "AT_GRAPH_PRODUCE_NODE_CVAR_NAME", ValueKind::Name},
    {AT_GRAPH_PRODUCE_OPERINFOS, "AT_GRAPH_PRODUCE_OPERINFOS", ValueKind::Number},
    {AT_GRAPH_PRODUCE_OPERINFOS_CVAR_NAME, "AT_GRAPH_PRODUCE_OPERINFOS_CVAR_NAME", ValueKind::Name},
    {AT_GRAPH_REORDER_CONSTANT_IN, "AT_GRAPH_REORDER_CONSTANT_IN", ValueKind::Number, 1},
    {AT_GRAPH_TRACE_EXEC, "AT_GRAPH_TRACE_EXEC", ValueKind::Number},
    {AT_GRAPH_NOINLINE_NODE, "AT_GRAPH_NOINLINE_NODE", ValueKind::Number},
    {AT_GRAPH_PREF_L3_EXEC, "AT_GRAPH_PREF_L3_EXEC", ValueKind::L3Ram},
    {AT_GRAPH_CONST_EXEC_FROM_FLASH, "AT_GRAPH_CONST_EXEC_FROM_FLASH", ValueKind::Number},
    {AT_GRAPH_PREF_L3_HOME, "AT_GRAPH_PREF_L3_HOME", ValueKind::L3Flash},
    {AT_GRAPH_PRIVILEGED_L3_HOME, "AT_GRAPH_PRIVILEGED_L3_HOME", ValueKind::OptionalL3Flash},
    {AT_GRAPH_DUMP_TENSOR, "AT_GRAPH_DUMP_TENSOR", ValueKind::Number},
    {AT_GRAPH_DUMP_TENSOR_TO_FILE, "AT_GRAPH_DUMP_TENSOR_TO_FILE", ValueKind::Number},
    {AT_GRAPH_DUMP_ONE_NODE, "AT_GRAPH_DUMP_ONE_NODE", ValueKind::Name},
    {AT_GRAPH_ARG2STRUCT, "AT_GRAPH_ARG2STRUCT", ValueKind::Number, 0},
    {AT_GRAPH_SIZE_OPT, "AT_GRAPH_SIZE_OPT", ValueKind::Number},
    {AT_GRAPH_WARM_CONSTRUCT, "AT_GRAPH_WARM_CONSTRUCT", ValueKind::WarmMode},
    {AT_GRAPH_CHECKSUM, "AT_GRAPH_CHECKSUM", ValueKind::Number},
    {AT_GRAPH_GROUP_WEIGHTS, "AT_GRAPH_GROUP_WEIGHTS", ValueKind::Number, 0},
    {AT_GRAPH_ASYNC_FORK, "AT_GRAPH_ASYNC_FORK", ValueKind::Number, 0},
    {AT_GRAPH_DUMP_GRAPH_OUTPUTS, "AT_GRAPH_DUMP_GRAPH_OUTPUTS", ValueKind::Number},
    {AT_GRAPH_RUNNER_RE_ENTRANT, "AT_GRAPH_RUNNER_RE_ENTRANT", ValueKind::Number},
    {AT_GRAPH_L1_PROMOTION, "AT_GRAPH_L1_PROMOTION", ValueKind::Number, 0},
    {AT_GRAPH_DISABLE_CONST_L2_PROMOTION, "AT_GRAPH_DISABLE_CONST_L2_PROMOTION", ValueKind::Number},
    {AT_GRAPH_USE_MERGED_DMA, "AT_GRAPH_USE_MERGED_DMA", ValueKind::Number, 0},
    {AT_GRAPH_L2_STATIC_MEMORY_BUDGET, "AT_GRAPH_L2_STATIC_MEMORY_BUDGET", ValueKind::Number},
    {AT_GRAPH_L3_STATIC_MEMORY_BUDGET, "AT_GRAPH_L3_STATIC_MEMORY_BUDGET", ValueKind::Number},
};

const GraphControlInfo* findGraphControl(int option)
{
    for (const GraphControlInfo& info : kGraphControls)
        if (int(info.option) == option)
            return &info;
    return nullptr;
}

// One SetMemoryDeviceInfos item as read from '...'.
struct DeviceItem {
    int location = 0;
    unsigned size = 0;
    const char* baseName = nullptr;
    const char* constFile = nullptr;
    int externallyManaged = 0;
};

tiler::MemoryDevice deviceOf(const DeviceItem& item, int position, int count)
{
    if (item.location <= int(AT_MEM_UNDEF) || item.location > kLastMemoryLocation)
        failModel(format("SetMemoryDeviceInfos: device %d of %d has memory location %d, which is %s; use AT_MEM_L1, "
                         "AT_MEM_L2, AT_MEM_L3_DEFAULTRAM, AT_MEM_L3_DEFAULTFLASH or another AT_MEM_* device",
                         position, count, item.location,
                         item.location == int(AT_MEM_UNDEF) ? "AT_MEM_UNDEF" : "not an AT_MEM_* value"));
    tiler::MemoryDevice device;
    device.location = tiler::MemoryLocation(item.location);
    const std::string context = format("SetMemoryDeviceInfos: device %d of %d (%s)", position, count,
                                       tiler::memoryLocationName(device.location));
    device.size = item.size;
    device.baseName = requireName(item.baseName, context, "the memory base name");
    device.constFile = item.constFile != nullptr ? item.constFile : "";
    device.externallyManaged = item.externallyManaged != 0;
    return device;
}

// The L1, L2 and L3 Ram devices also set the tiling budgets, as SetMemorySizes() would.
void applyBudget(tiler::GenerationOptions& options, const tiler::MemoryDevice& device)
{
    const auto size = unsigned(device.size);
    if (device.location == tiler::MemoryLocation::L1 && !options.l1SizeOverridden)  // --l1 wins
        options.l1Size = size;
    else if (device.location == tiler::MemoryLocation::L2 && !options.l2SizeOverridden)
        options.l2Size = size;
    else if (tiler::isL3RamMemory(device.location) && !options.l3SizeOverridden)
        options.l3Size = size;
}

tiler::GraphControl controlOf(const GraphControlInfo& info, void* value)
{
    const auto number = reinterpret_cast<std::intptr_t>(value);
    const std::string context = std::string("AT_SetGraphCtrl(") + info.name + ")";
    tiler::GraphControl control;
    control.option = int(info.option);
    control.value = number;
    switch (info.kind) {
    case ValueKind::Number:
        break;
    case ValueKind::Name:
        // A small number cannot be the address of a string (the first page is never mapped).
        if (number > 0 && number < 4096)
            failModel(format("%s: value %lld is a number; this option takes a name, pass AT_OPT_VAL(\"Name\")",
                             context.c_str(), static_cast<long long>(number)));
        control.value = 0;
        control.text = requireName(static_cast<const char*>(value), context, "the name (pass AT_OPT_VAL(\"Name\"))");
        break;
    case ValueKind::L3Ram:
    case ValueKind::L3Flash:
    case ValueKind::OptionalL3Flash: {
        if (info.kind == ValueKind::OptionalL3Flash && number == 0)
            break;
        const bool wantsRam = info.kind == ValueKind::L3Ram;
        const auto location = tiler::MemoryLocation(number);
        const bool known = number > 0 && number <= kLastMemoryLocation;
        if (!known || (wantsRam ? !tiler::isL3RamMemory(location) : !tiler::isFlashMemory(location)))
            failModel(format("%s: value %lld is %s, not an L3 %s; pass AT_OPT_VAL(%s)", context.c_str(),
                             static_cast<long long>(number),
                             known ? tiler::memoryLocationName(location) : "not an AT_MEM_* value",
                             wantsRam ? "Ram" : "flash", wantsRam ? "AT_MEM_L3_DEFAULTRAM" : "AT_MEM_L3_DEFAULTFLASH"));
        break;
    }
    case ValueKind::WarmMode:
        if (number < WARM_DISABLED || number > WARM_ALL)
            failModel(format("%s: value %lld is not WARM_DISABLED (0), WARM_L1 (1), WARM_L2_DYN_L1 (2) or WARM_ALL (3)",
                             context.c_str(), static_cast<long long>(number)));
        break;
    }
    return control;
}

}  // namespace

extern "C" {

void SetMemoryDeviceInfos(int Count, ...)
{
    if (Count < 0)
        failModel(format("SetMemoryDeviceInfos: negative device count %d", Count));
    std::vector<DeviceItem> items(std::size_t(Count), DeviceItem{});
    va_list args;
    va_start(args, Count);
    for (DeviceItem& item : items) {
        item.location = va_arg(args, int);  // enums are passed as int
        item.size = va_arg(args, unsigned int);
        item.baseName = variadicString(va_arg(args, const void*));
        item.constFile = variadicString(va_arg(args, const void*));
        item.externallyManaged = va_arg(args, int);
    }
    va_end(args);

    tiler::KernelModel& model = currentModel();
    for (std::size_t i = 0; i < items.size(); ++i) {
        tiler::MemoryDevice device = deviceOf(items[i], int(i + 1), Count);
        applyBudget(model.options, device);
        model.devices.push_back(std::move(device));
    }
}

void AT_SetGraphCtrl(AT_GraphCtrl_T Ctrl, void* Val)
{
    const GraphControlInfo* info = findGraphControl(int(Ctrl));
    if (info == nullptr)
        failModel(format("AT_SetGraphCtrl: option %d is not one of the AT_GRAPH_* or AT_KERNEL_* options", int(Ctrl)));
    tiler::GraphControl control = controlOf(*info, Val);
    if (info->onlyValue >= 0 && control.value != info->onlyValue)
        std::fprintf(stderr, "warning: AT_SetGraphCtrl(%s): Tessera does not implement this option; the generated code "
                             "behaves as with the value %ld\n", info->name, long(info->onlyValue));
    tiler::GenerationOptions& options = currentModel().options;
    switch (Ctrl) {
    case AT_GRAPH_WARM_CONSTRUCT: options.warmConstruct = unsigned(control.value); break;
    case AT_GRAPH_TRACE_EXEC: options.traceGeneration = control.value != 0; break;
    case AT_GRAPH_MONITOR_CYCLES: options.monitorCycles = control.value != 0; break;
    case AT_GRAPH_MONITOR_CVAR_NAME: options.cyclesVariable = control.text; break;
    case AT_GRAPH_PRODUCE_NODE_NAMES: options.nodeNames = control.value != 0; break;
    case AT_GRAPH_PRODUCE_NODE_CVAR_NAME: options.nodeNamesVariable = control.text; break;
    case AT_GRAPH_PRODUCE_OPERINFOS: options.operationInfos = control.value != 0; break;
    case AT_GRAPH_PRODUCE_OPERINFOS_CVAR_NAME: options.operationInfosVariable = control.text; break;
    case AT_GRAPH_DISABLE_CONST_L2_PROMOTION: options.promoteConstantsToL2 = control.value == 0; break;
    case AT_GRAPH_CONST_EXEC_FROM_FLASH: options.constantsExecuteFromFlash = control.value != 0; break;
    case AT_GRAPH_PRIVILEGED_L3_HOME: options.privilegedFlash = int(control.value); break;
    case AT_GRAPH_L2_STATIC_MEMORY_BUDGET: options.l2StaticBudget = unsigned(control.value); break;
    case AT_GRAPH_L3_STATIC_MEMORY_BUDGET: options.l3StaticBudget = unsigned(control.value); break;
    case AT_GRAPH_CHECKSUM: options.checksumTensors = control.value != 0; break;
    case AT_GRAPH_DUMP_TENSOR: options.dumpTensorMask = unsigned(control.value); break;
    case AT_GRAPH_DUMP_ONE_NODE: options.dumpOneNode = control.text; break;
    case AT_GRAPH_DUMP_GRAPH_OUTPUTS: options.dumpGraphOutputs = control.value != 0; break;
    case AT_GRAPH_DUMP_TENSOR_TO_FILE: options.dumpTensorsToFile = control.value != 0; break;
    case AT_GRAPH_NOINLINE_NODE: options.noinlineKernels = control.value != 0; break;
    case AT_GRAPH_SIZE_OPT: options.sizeOptimizedGraph = control.value != 0; break;
    case AT_KERNEL_BUFFER_PROMOTE: options.promoteBuffers = control.value != 0; break;
    case AT_KERNEL_PARTIAL_BUFFER_PROMOTE: options.promotePartialBuffers = control.value != 0; break;
    case AT_KERNEL_NOSOLUTION_ERROR: options.noSolutionError = control.value != 0; break;
    case AT_GRAPH_PREF_L3_EXEC: options.preferredL3Ram = int(control.value); break;
    case AT_GRAPH_PREF_L3_HOME: options.preferredL3Flash = int(control.value); break;
    default: break;
    }
    std::vector<tiler::GraphControl>& controls = currentModel().graphControls;
    for (tiler::GraphControl& existing : controls)
        if (existing.option == control.option) {
            existing = std::move(control);  // the last setting wins, in the place of the first
            return;
        }
    controls.push_back(std::move(control));
}

}  // extern "C"
