#include "io/staged_folder.h"

#include "io/file_io.h"

#include "base/error.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <system_error>

#include <fcntl.h>
#include <stdlib.h>

namespace tessera {

namespace fs = std::filesystem;

namespace {

// Empty, or holding the marker of a folder written by a StagedFolder.
bool replaceable(const fs::path& folder)
{
    std::error_code error;
    if (fs::is_empty(folder, error) && !error)
        return true;
    return fs::exists(folder / kStagedFolderMarker, error);
}

}  // namespace

StagedFolder::StagedFolder(const std::string& target)
{
    if (target.empty())
        throw Error("no output folder given (an empty name would write into the current folder)");
    fs::path path = fs::path(target).lexically_normal();
    if (path.filename().empty())  // "out/" names the folder "out"
        path = path.parent_path();
    std::error_code error;
    // A link to a folder is followed: the folder it points to is replaced, the link stays.
    if (fs::is_symlink(fs::symlink_status(path, error))) {
        path = fs::canonical(path, error);
        if (error)
            throw Error(target + ": cannot follow the link (" + error.message() + ")");
    }
    const fs::file_status status = fs::status(path, error);  // not_found when missing
    if (fs::exists(status)) {
        if (!fs::is_directory(status))
            throw Error(target + ": exists and is not a folder; give a folder name");
        if (!replaceable(path))
            throw Error(target + ": the folder exists and holds files Tessera did not write; give a new or "
                                 "empty folder (Tessera replaces only folders it wrote itself)");
    }
    target_ = path.string();
    const fs::path parent = path.has_parent_path() ? path.parent_path() : fs::path(".");
    fs::create_directories(parent, error);
    if (error)
        throw Error(target + ": cannot create the folder it goes in (" + error.message() + ")");
    std::string pattern = (parent / ("." + path.filename().string() + ".partial-XXXXXX")).string();
    if (!::mkdtemp(pattern.data()))
        throw Error(target + ": cannot create a folder beside it (" + std::strerror(errno) + ")");
    staging_ = pattern;
}

StagedFolder::~StagedFolder()
{
    if (committed_)
        return;
    std::error_code ignored;
    fs::remove_all(staging_, ignored);
}

void StagedFolder::commit()
{
    writeFileAtomically((fs::path(staging_) / kStagedFolderMarker).string(),
                        "Written by Tessera; Tessera replaces this folder whole when it writes it again.\n");
    std::error_code error;
    if (!fs::exists(target_, error)) {
        int moved = ::renameat2(AT_FDCWD, staging_.c_str(), AT_FDCWD, target_.c_str(), RENAME_NOREPLACE);
        if (moved != 0 && (errno == EINVAL || errno == ENOSYS))  // no RENAME_NOREPLACE here
            moved = std::rename(staging_.c_str(), target_.c_str());
        if (moved != 0)
            throw Error(target_ + ": cannot move the finished folder into place (" + std::strerror(errno) + ")");
        committed_ = true;
        return;
    }
    // One atomic exchange: the old folder moves to the staging name and is removed after.
    if (::renameat2(AT_FDCWD, staging_.c_str(), AT_FDCWD, target_.c_str(), RENAME_EXCHANGE) != 0) {
        if (errno != EINVAL && errno != ENOSYS)
            throw Error(target_ + ": cannot move the finished folder into place (" + std::strerror(errno) + ")");
        // A file system without exchange: two renames, with the old folder kept until the new
        // one is in place.
        const std::string old = staging_ + ".old";
        if (std::rename(target_.c_str(), old.c_str()) != 0)
            throw Error(target_ + ": cannot move the old folder aside (" + std::strerror(errno) + ")");
        if (std::rename(staging_.c_str(), target_.c_str()) != 0) {
            const int code = errno;
            std::rename(old.c_str(), target_.c_str());
            throw Error(target_ + ": cannot move the finished folder into place (" + std::strerror(code) + ")");
        }
        committed_ = true;
        fs::remove_all(old, error);
        return;
    }
    fs::remove_all(staging_, error);  // now the old folder
    committed_ = true;
}

}  // namespace tessera
