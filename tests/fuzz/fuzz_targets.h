// Seeded mutation fuzzing of every parser of user files: each target reads one input the way the
// command line or the studio does, then uses what it read (plans the buffers, verifies the program,
// solves the kernels, simulates the loadable, ...). An input must either work or be refused with a
// tessera::Error whose message holds no library text; anything else is a failure. A crash or a
// memory error ends the process, and the sanitized build catches what a release build would not.
// tst_fuzz runs a short seeded slice of every target; bench_fuzz runs 10^6 executions of each.
#pragma once

#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace tessera::fuzz {

enum class Outcome { Accepted, Refused, Failed };

struct Verdict {
    Outcome outcome = Outcome::Accepted;
    std::string detail;  // the refusal's message, or what failed
};

struct FuzzTarget {
    std::string name;                // "onnx", "tensor", "loadable", "buffer-csv", ...
    bool text = false;               // also mutated as text: numbers, lines, separators, BOM, CRLF
    std::vector<std::string> seeds;  // well-formed inputs the mutations start from
    std::function<Verdict(const std::string& input)> run;
};

// Every target, with its seeds: the files under `corpusFolder`/<target name>/ (tests/fuzz/corpus)
// and, for the binary formats, inputs Tessera writes itself (ONNX models from `onnxTestData` when
// that folder exists, tensors, compiled loadables).
std::vector<FuzzTarget> fuzzTargets(const std::string& corpusFolder, const std::string& onnxTestData);

// One to three random changes: bytes flipped, inserted, duplicated or cut; for text also a number
// made absurd (1e300, 2^63, -1, nan, ...), a line removed, doubled or swapped, a separator added,
// a byte-order mark or CRLF line ends.
void mutate(std::string& input, bool text, std::mt19937& random);

// A message that leaks a library's own text ("[json.exception...", "vector::_M_range_check",
// "stoll", "basic_string") instead of saying what is wrong in Tessera's words.
bool leaksLibraryText(const std::string& message);

struct CampaignResult {
    std::uint64_t executions = 0, accepted = 0, refused = 0, failed = 0;
    double seconds = 0;
    std::vector<std::string> failures;  // the first few, with the input's seed index
    std::vector<std::string> failingInputs;  // the same inputs, to keep in the corpus
};

// `executions` runs of mutated seeds (round robin over the seeds), from `seed`.
CampaignResult runCampaign(const FuzzTarget& target, std::uint64_t executions, std::uint32_t seed);

// Every seed once, unmutated: the corpus' regression files must keep working or be refused cleanly.
CampaignResult runSeeds(const FuzzTarget& target);

}  // namespace tessera::fuzz
