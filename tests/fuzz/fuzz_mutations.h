// The changes the fuzz campaigns make to an input (fuzz_targets.h).
#pragma once

#include <random>
#include <string>

namespace tessera::fuzz {

// Bytes flipped, cut off, inserted or a slice duplicated.
void mutateBytes(std::string& bytes, std::mt19937& random);

// A change a person or a broken tool makes to a text file: a number made absurd, a line removed,
// doubled or swapped, a separator or quote added, a byte-order mark, CRLF line ends.
void mutateText(std::string& text, std::mt19937& random);

}  // namespace tessera::fuzz
