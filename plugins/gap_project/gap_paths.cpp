#include "gap_project/gap_paths.h"

#include <filesystem>

namespace tessera::gap {
namespace {

std::filesystem::path executableDirectory()
{
    std::error_code error;
    const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
    return error ? std::filesystem::path() : self.parent_path();
}

} // namespace

GapPaths gapPaths()
{
    const std::filesystem::path prefix = executableDirectory().parent_path();
    const std::filesystem::path installedLibrary = prefix / "lib/tessera/libtessera_gap_model.a";
    std::error_code error;
    if (!prefix.empty() && std::filesystem::exists(installedLibrary, error))
        return {(prefix / "include/tessera/gap").string(),
                (prefix / "share/tessera/gap/runtime").string(),
                (prefix / "share/tessera/gap/cnn_kernels").string(),
                (prefix / "share/tessera/gap/emul").string(),
                installedLibrary.string(),
                (prefix / "lib/tessera/libtessera_tiler.a").string(),
                (prefix / "lib/tessera/libtessera_planner.a").string()};
    return {TESSERA_GAP_INCLUDE_DIR,    TESSERA_GAP_RUNTIME_DIR, TESSERA_GAP_CNN_KERNELS_DIR,
            TESSERA_GAP_EMUL_DIR,    TESSERA_GAP_MODEL_LIBRARY, TESSERA_TILER_LIBRARY,
            TESSERA_PLANNER_LIBRARY};
}

} // namespace tessera::gap
