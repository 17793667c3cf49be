#pragma once
// Reading and writing whole files. Writes are atomic: the data goes to a temporary file next to
// the target, which then replaces it, so an interrupted save never leaves a half-written file.
#include <cstdint>
#include <string>

namespace tessera {

// Largest file the readers accept (models with their weights included).
inline constexpr std::uintmax_t kMaxInputFileBytes = std::uintmax_t{2} << 30;

// Throws ModelError naming the path when it cannot be read, is a directory or is too large.
std::string readFileBytes(const std::string& path);
// Writes `bytes` to `path` through a temporary file in the same folder that replaces the target
// when complete (keeping its permissions). A symbolic link is followed: its target is written and
// the link stays. A character device or pipe (/dev/null, a FIFO) is written directly, never
// replaced. Throws Error naming the path when it is empty, a directory or another kind of file,
// or cannot be written; a failed write leaves the old file as it was.
void writeFileAtomically(const std::string& path, const std::string& bytes);

} // namespace tessera
