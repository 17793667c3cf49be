// Where a command writes its output file: "-" is standard output, any other name a file written
// atomically (core/io/file_io.h); an empty name is refused before any work.
#include "commands.h"

#include "io/file_io.h"

#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>

namespace tessera::cli {

void writeOutput(const std::string& path, const std::string& bytes)
{
    if (path == "-") {
        std::fwrite(bytes.data(), 1, bytes.size(), stdout);
        std::fflush(stdout);
        return;
    }
    writeFileAtomically(path, bytes);
}

std::FILE* summaryStream(const std::string& outputPath)
{
    return outputPath == "-" ? stderr : stdout;
}

CLI::Validator nonEmptyPath()
{
    return CLI::Validator(
        [](const std::string& value) {
            return value.empty() ? std::string("an empty name would write into the current folder; give a name")
                                 : std::string();
        },
        "PATH", "non-empty path");
}

CLI::Validator secondsLimit(double most)
{
    return CLI::Validator(
        [most](const std::string& value) {
            char* end = nullptr;
            const double seconds = std::strtod(value.c_str(), &end);
            const bool number = !value.empty() && end == value.c_str() + value.size();
            if (!number || !(seconds > 0) || !(seconds <= most))  // also NaN and infinity
                return fmt::format("'{}' is not a time limit: give seconds above 0 and at most {:g}", value, most);
            return std::string();
        },
        "SECONDS", "time limit");
}

CLI::Validator notNegative()
{
    return CLI::Validator(
        [](const std::string& value) {
            const std::size_t first = value.find_first_not_of(" \t");
            return first != std::string::npos && value[first] == '-'
                       ? "'" + value + "' is negative; give a number of bytes"
                       : std::string();
        },
        "BYTES", "not negative");
}

}  // namespace tessera::cli
