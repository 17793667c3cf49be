#pragma once
// Writing a whole folder (an exported project) so that it is never seen half-written: the files go
// to a staging folder beside the target, which takes the target's place only once complete (an
// atomic exchange where the file system offers one). Interrupted or failed, the target is exactly
// what it was before; only a staging folder ".<name>.partial-XXXXXX" may be left beside it.
//
// An existing target is replaced only when it is empty or was written this way before (it holds
// the marker file kStagedFolderMarker): a folder of the user's own is never swapped away.
#include <string>

namespace tessera {

inline constexpr const char* kStagedFolderMarker = ".tessera-project";

class StagedFolder {
public:
    // Checks that `target` may be written and makes the staging folder. Throws Error naming the
    // target when the name is empty, it is a file, or a folder Tessera did not write.
    explicit StagedFolder(const std::string& target);
    // Removes the staging folder unless commit() succeeded.
    ~StagedFolder();
    StagedFolder(const StagedFolder&) = delete;
    StagedFolder& operator=(const StagedFolder&) = delete;

    // Where to write the folder's files.
    const std::string& path() const { return staging_; }
    // Puts the staging folder in the target's place (and removes the old one). Throws Error when
    // the file system refuses; the target is then unchanged.
    void commit();

private:
    std::string target_;
    std::string staging_;
    bool committed_ = false;
};

}  // namespace tessera
