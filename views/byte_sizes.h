#pragma once
// Memory sizes as the studio writes and reads them, one way everywhere: whole MiB as "8 MiB", whole
// KiB as "448 KiB", anything else in bytes with its thousands grouped ("22 345 B"). A user may type
// a number with B, K/KB/KiB, M/MB/MiB or G/GB/GiB (powers of 1024; a bare number is in bytes).
#include <QString>

#include <optional>

namespace tessera::views {

// "8 MiB", "448 KiB", "22 345 B".
QString formatByteSize(qint64 bytes);
// Always in bytes, thousands grouped: "51 200 B" (tile and DMA figures read next to the solver's).
QString exactBytes(qint64 bytes);
// The inverse of formatByteSize, also taking "64K", "1.5 MiB", "2000"; nullopt when not a size.
std::optional<qint64> parseByteSize(const QString& text);

} // namespace tessera::views
