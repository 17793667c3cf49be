#include "io/file_io.h"

#include "base/error.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <system_error>
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

void writeFileAtomically(const std::string& path, const std::string& bytes)
{
    const fs::path target(path);
    fs::path temporary = target;
    temporary += ".tmp-" + std::to_string(::getpid());
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        if (!out)
            throw Error(path + ": cannot write (" + std::strerror(errno) + ")");
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        out.flush();
        if (!out) {
            std::error_code ignored;
            fs::remove(temporary, ignored);
            throw Error(path + ": write failed (" + std::strerror(errno) + ")");
        }
    }
    std::error_code error;
    fs::rename(temporary, target, error);
    if (error) {
        std::error_code ignored;
        fs::remove(temporary, ignored);
        throw Error(path + ": cannot replace file (" + error.message() + ")");
    }
}

} // namespace tessera
