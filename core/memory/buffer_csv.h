#pragma once
// Buffers as CSV, the format published planners share (MiniMalloc and tools built on it):
// a header row naming the columns, then one buffer per row.
//   required: id, lower, upper, size   (lifetime half-open [lower, upper))
//   optional: alignment, offset        (offset on input pins the buffer)
//   aliases:  buffer/buffer_id for id, start/begin for lower; an `end` column is inclusive
//             (as MiniMalloc reads it) unless the caller says the file's ends are exclusive.
#include "memory/buffer.h"

#include <string>
#include <vector>

namespace tessera {

// Throws Error "<source> line N: ..." naming the line and column of the first problem.
std::vector<Buffer> parseBufferCsv(const std::string& text, const std::string& source, bool endInclusive = true);
std::vector<Buffer> readBufferCsv(const std::string& path, bool endInclusive = true);

// The buffers with an `offset` column holding `offsets`.
std::string formatBufferCsv(const std::vector<Buffer>& buffers, const std::vector<int64_t>& offsets);

} // namespace tessera
