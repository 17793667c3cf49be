#pragma once
// What the SCAMP-5 tests share: the bundled kernel files and a search stopped by node count.
#include "scamp/kernel_set.h"
#include "scamp/reverse_search.h"
#include "test_support.h"

#include <string>

namespace tessera::test {

// resources/scamp/<name>.json
inline scamp::KernelSet bundledKernels(const std::string& name)
{
    return scamp::readKernelSet(sourcePath("resources/scamp/" + name + ".json"));
}

// One thread stopped by a node count, not the clock: the same result on any machine.
inline scamp::SearchOptions nodeBudget(uint64_t nodes)
{
    scamp::SearchOptions options;
    options.nodeLimit = nodes;
    options.seconds = 600;
    return options;
}

} // namespace tessera::test
