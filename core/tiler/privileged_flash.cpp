#include "tiler/privileged_flash.h"

#include <algorithm>

namespace tessera::tiler {

const MemoryDevice* privilegedFlashDevice(const KernelModel& model)
{
    if (model.options.privilegedFlash == 0)
        return nullptr;
    for (const MemoryDevice& device : model.devices)
        if (int(device.location) == model.options.privilegedFlash)
            return &device;
    return nullptr;
}

std::set<std::size_t> choosePrivilegedConstants(const std::vector<GraphTensor>& tensors,
                                                const std::set<std::size_t>& candidates, std::uint64_t capacity,
                                                std::uint64_t alignment)
{
    std::vector<std::size_t> order(candidates.begin(), candidates.end());
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return tensors[a].bytes > tensors[b].bytes; });
    std::set<std::size_t> chosen;
    std::uint64_t used = 0;
    for (std::size_t index : order) {
        const std::uint64_t start = (used + alignment - 1) / alignment * alignment;
        if (start + tensors[index].bytes > capacity)
            continue;
        chosen.insert(index);
        used = start + tensors[index].bytes;
    }
    return chosen;
}

}  // namespace tessera::tiler
