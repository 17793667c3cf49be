#include "io/file_io.h"

#include "base/error.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <system_error>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace tessera {

namespace fs = std::filesystem;

std::string readFileBytes(const std::string& path)
{
    std::error_code error;
    const fs::file_status status = fs::status(path, error);
    if (error || !fs::exists(status))
        throw ModelError(path + ": no such file");
    if (fs::is_directory(status))
        throw ModelError(path + ": is a directory, expected a file");
    const std::uintmax_t size = fs::file_size(path, error);
    if (error)
        throw ModelError(path + ": cannot read (" + error.message() + ")");
    if (size > kMaxInputFileBytes)
        throw ModelError(path + ": " + std::to_string(size) + " bytes is larger than the " +
                         std::to_string(kMaxInputFileBytes) + "-byte limit");
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw ModelError(path + ": cannot open (" + std::strerror(errno) + ")");
    std::string bytes(static_cast<size_t>(size), '\0');
    in.read(bytes.data(), static_cast<std::streamsize>(size));
    if (static_cast<std::uintmax_t>(in.gcount()) != size)
        throw ModelError(path + ": read " + std::to_string(in.gcount()) + " of " + std::to_string(size) + " bytes");
    return bytes;
}

namespace {

// The file a path names once its symbolic links are followed (a missing file stays as named), so
// that writing to a link writes its target and leaves the link in place.
fs::path followLinks(const fs::path& path)
{
    fs::path current = path;
    for (int depth = 0; depth < 40; ++depth) {
        std::error_code error;
        if (!fs::is_symlink(fs::symlink_status(current, error)) || error)
            return current;
        const fs::path next = fs::read_symlink(current, error);
        if (error)
            throw Error(path.string() + ": cannot follow the symbolic link (" + error.message() + ")");
        current = next.is_absolute() ? next : current.parent_path() / next;
    }
    throw Error(path.string() + ": too many levels of symbolic links");
}

// Writes all of `bytes` to `fd`; false with errno set when the system refuses.
bool writeAll(int fd, const std::string& bytes)
{
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t written = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (written < 0 && errno == EINTR)
            continue;
        if (written <= 0)
            return false;
        done += std::size_t(written);
    }
    return true;
}

// Devices and pipes (/dev/null, /dev/stdout, a FIFO) are written as they are, never replaced.
void writeInPlace(const std::string& shown, const fs::path& path, const std::string& bytes)
{
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        throw Error(shown + ": cannot write (" + std::strerror(errno) + ")");
    const bool ok = writeAll(fd, bytes);
    const int savedErrno = errno;
    ::close(fd);
    if (!ok)
        throw Error(shown + ": write failed (" + std::strerror(savedErrno) + ")");
}

}  // namespace

void writeFileAtomically(const std::string& path, const std::string& bytes)
{
    if (path.empty())
        throw Error("no output file name given (an empty name would write into the current folder)");
    const fs::path target = followLinks(path);
    std::error_code error;
    const fs::file_status status = fs::status(target, error);
    if (!error && fs::exists(status)) {
        if (fs::is_directory(status))
            throw Error(path + ": is a directory; give a file name");
        if (fs::is_character_file(status) || fs::is_fifo(status))
            return writeInPlace(path, target, bytes);
        if (!fs::is_regular_file(status))
            throw Error(path + ": is not a regular file (a block device or socket); give a file name");
    }
    // A new file beside the target, complete and on disk before it replaces the target in one
    // rename: readers see the old file or the new one, never a part.
    std::string pattern = target.string() + ".tmp-XXXXXX";
    const int fd = ::mkstemp(pattern.data());
    if (fd < 0)
        throw Error(path + ": cannot write (" + std::strerror(errno) + ")");
    const fs::path temporary(pattern);
    const auto fail = [&](const std::string& what, int code) {
        ::close(fd);
        std::error_code ignored;
        fs::remove(temporary, ignored);
        throw Error(path + ": " + what + " (" + std::strerror(code) + ")");
    };
    // mkstemp makes the file private; keep the target's permissions, or the usual ones.
    mode_t mode = 0666;
    if (fs::is_regular_file(status)) {
        struct stat existing {};
        if (::stat(target.c_str(), &existing) == 0)
            mode = existing.st_mode & 07777;
    } else {
        const mode_t mask = ::umask(0);
        ::umask(mask);
        mode &= ~mask;
    }
    if (::fchmod(fd, mode) != 0)
        fail("cannot set the permissions", errno);
    if (!writeAll(fd, bytes))
        fail("write failed", errno);
    if (::fsync(fd) != 0)
        fail("write failed", errno);
    if (::close(fd) != 0) {
        const int code = errno;
        std::error_code ignored;
        fs::remove(temporary, ignored);
        throw Error(path + ": write failed (" + std::strerror(code) + ")");
    }
    fs::rename(temporary, target, error);
    if (error) {
        std::error_code ignored;
        fs::remove(temporary, ignored);
        throw Error(path + ": cannot replace file (" + error.message() + ")");
    }
}

} // namespace tessera
