#include "aie/aie_architecture.h"

#include "base/error.h"

namespace tessera::aie {

namespace {

std::vector<AieArchitecture> architectures()
{
    // AM009 (AIE), AM020 (AIE-ML), AM027 (AIE-ML v2).
    return {
        {"aie", 32 * 1024, 8, 0, 2, 0, 16, 32},
        {"aie-ml", 64 * 1024, 8, 512 * 1024, 2, 6, 16, 32},
        {"aie-ml-v2", 64 * 1024, 8, 512 * 1024, 2, 6, 16, 64},
    };
}

} // namespace

AieArchitecture aieArchitecture(const std::string& name)
{
    for (const AieArchitecture& arch : architectures())
        if (arch.name == name)
            return arch;
    std::string known;
    for (const std::string& n : aieArchitectureNames())
        known += (known.empty() ? "" : ", ") + n;
    throw Error("unknown AI Engine architecture '" + name + "' (known: " + known + ")");
}

std::vector<std::string> aieArchitectureNames()
{
    std::vector<std::string> names;
    for (const AieArchitecture& arch : architectures())
        names.push_back(arch.name);
    return names;
}

} // namespace tessera::aie
