#pragma once
// Runs ONNX backend test cases (a directory holding model.onnx and test_data_set_N/ with
// input_K.pb and output_K.pb) through the importer and the reference interpreter.
#include <functional>
#include <string>
#include <vector>

namespace tessera {

enum class CaseOutcome { Passed, Failed, Skipped };

struct CaseResult {
    std::string name;    // directory name, e.g. test_conv_with_strides_padding
    CaseOutcome outcome = CaseOutcome::Passed;
    std::string message; // why it failed or was skipped
};

struct ConformanceSummary {
    std::vector<CaseResult> cases;
    size_t passed = 0, failed = 0, skipped = 0;
};

// Values agree when |actual - expected| <= tolerance * (1 + |expected|); NaN matches NaN.
inline constexpr double kConformanceTolerance = 1e-4;

// Test case directories under `paths`: each path is a case itself or a directory of cases.
// Throws ModelError for a path that does not exist. Sorted by name.
std::vector<std::string> findConformanceCases(const std::vector<std::string>& paths);

// Skipped: the model uses an operator, type or feature Tessera does not support.
CaseResult runConformanceCase(const std::string& directory, double tolerance = kConformanceTolerance);

using CaseCallback = std::function<void(const CaseResult&)>;
ConformanceSummary runConformance(const std::vector<std::string>& directories,
                                  const CaseCallback& onCase = {}, double tolerance = kConformanceTolerance);

} // namespace tessera
