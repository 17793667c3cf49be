#include "tiler/kernel_model.h"

#include <algorithm>
#include <iterator>

namespace tessera::tiler {

const BasicKernel* KernelModel::findBasicKernel(const std::string& name) const
{
    const auto it = std::find_if(basicKernels.begin(), basicKernels.end(),
                                 [&](const BasicKernel& kernel) { return kernel.name == name; });
    return it == basicKernels.end() ? nullptr : &*it;
}

const UserKernel* KernelModel::findUserKernel(const std::string& name) const
{
    const auto it = std::find_if(userKernels.begin(), userKernels.end(),
                                 [&](const UserKernel& kernel) { return kernel.name == name; });
    return it == userKernels.end() ? nullptr : &*it;
}

UserKernel* KernelModel::findUserKernel(const std::string& name)
{
    return const_cast<UserKernel*>(static_cast<const KernelModel*>(this)->findUserKernel(name));
}

const char* memoryLocationName(MemoryLocation location)
{
    static const char* const names[] = {
        "AT_MEM_UNDEF",         "AT_MEM_L1",           "AT_MEM_L2",           "AT_MEM_L3_HRAM",
        "AT_MEM_L3_QSPIRAM",    "AT_MEM_L3_OSPIRAM",   "AT_MEM_L3_DEFAULTRAM", "AT_MEM_L3_HFLASH",
        "AT_MEM_L3_QSPIFLASH",  "AT_MEM_L3_OSPIFLASH", "AT_MEM_L3_MRAMFLASH", "AT_MEM_L3_PRI1",
        "AT_MEM_L3_PRI2",       "AT_MEM_L3_DEFAULTFLASH",
    };
    const auto index = std::size_t(location);
    return index < std::size(names) ? names[index] : "?";
}

bool isFlashMemory(MemoryLocation location)
{
    switch (location) {
    case MemoryLocation::L3HyperFlash:
    case MemoryLocation::L3QspiFlash:
    case MemoryLocation::L3OspiFlash:
    case MemoryLocation::L3MramFlash:
    case MemoryLocation::L3Priority1:
    case MemoryLocation::L3Priority2:
    case MemoryLocation::L3DefaultFlash:
        return true;
    default:
        return false;
    }
}

bool isL3RamMemory(MemoryLocation location)
{
    switch (location) {
    case MemoryLocation::L3HyperRam:
    case MemoryLocation::L3QspiRam:
    case MemoryLocation::L3OspiRam:
    case MemoryLocation::L3DefaultRam:
        return true;
    default:
        return false;
    }
}

const char* graphArgScopeName(GraphArgScope scope)
{
    switch (scope) {
    case GraphArgScope::Argument: return "ARG_SCOPE_ARG";
    case GraphArgScope::Global: return "ARG_SCOPE_GLOBAL";
    case GraphArgScope::Local: return "ARG_SCOPE_LOCAL";
    case GraphArgScope::AllocatedArgument: return "ARG_SCOPE_ARG_ALLOC";
    }
    return "?";
}

const char* graphArgDirectionName(GraphArgDirection direction)
{
    switch (direction) {
    case GraphArgDirection::In: return "ARG_DIR_IN";
    case GraphArgDirection::Out: return "ARG_DIR_OUT";
    case GraphArgDirection::InOut: return "ARG_DIR_INOUT";
    case GraphArgDirection::ConstIn: return "ARG_DIR_CONSTIN";
    }
    return "?";
}

const char* nodeBindingDirectionName(GraphNodeBinding::Direction direction)
{
    switch (direction) {
    case GraphNodeBinding::Direction::In: return "GNA_IN";
    case GraphNodeBinding::Direction::Out: return "GNA_OUT";
    case GraphNodeBinding::Direction::InOut: return "GNA_INOUT";
    }
    return "?";
}

std::uint64_t StackedTensors::totalBytes() const
{
    std::uint64_t total = 0;
    for (std::uint64_t size : bytes)
        total += size;
    return total;
}

std::uint64_t argumentHomeBytes(const UserKernel& kernel, const KernelArgument& arg)
{
    std::uint64_t planes = 1;
    if (arg.has(ArgFlag::FourD))
        planes = std::uint64_t(kernel.inPlanes) * kernel.outPlanes;
    else if (arg.has(ArgFlag::ThreeD))
        planes = (arg.has(ArgFlag::Out) && !arg.has(ArgFlag::In) && !arg.planePerInput) || arg.planePerOutput
                     ? kernel.outPlanes
                     : kernel.inPlanes;
    const std::uint64_t plane = std::uint64_t(arg.width) * arg.height * arg.itemSize;
    return plane * planes;
}

const GraphArgument* GraphModel::findSymbol(const std::string& symbol) const
{
    for (const std::vector<GraphArgument>* list : {&arguments, &locals})
        for (const GraphArgument& argument : *list)
            if (argument.carg.name == symbol)
                return &argument;
    return nullptr;
}

}  // namespace tessera::tiler
