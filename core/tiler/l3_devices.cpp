#include "tiler/l3_devices.h"

#include "tiler/privileged_flash.h"

namespace tessera::tiler {

namespace {

// The device at `preferred` if the model declares it, else the first one `eligible` accepts.
template <typename Eligible>
const MemoryDevice* preferredDevice(const KernelModel& model, int preferred, Eligible eligible)
{
    const MemoryDevice* first = nullptr;
    for (const MemoryDevice& device : model.devices) {
        if (!eligible(device))
            continue;
        if (int(device.location) == preferred)
            return &device;
        if (first == nullptr)
            first = &device;
    }
    return first;
}

}  // namespace

const MemoryDevice* executionL3Ram(const KernelModel& model)
{
    return preferredDevice(model, model.options.preferredL3Ram,
                           [](const MemoryDevice& device) { return isL3RamMemory(device.location); });
}

std::uint64_t executionL3RamBytes(const KernelModel& model)
{
    const MemoryDevice* ram = executionL3Ram(model);
    return ram != nullptr && !model.options.l3SizeOverridden ? ram->size : model.options.l3Size;
}

const MemoryDevice* homeFlash(const KernelModel& model)
{
    const MemoryDevice* privileged = privilegedFlashDevice(model);
    return preferredDevice(model, model.options.preferredL3Flash, [&](const MemoryDevice& device) {
        return !device.constFile.empty() && &device != privileged;
    });
}

}  // namespace tessera::tiler
