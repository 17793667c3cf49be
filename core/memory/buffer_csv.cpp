#include "memory/buffer_csv.h"

#include "io/file_io.h"
#include "base/error.h"

#include <charconv>
#include <map>
#include <sstream>
#include <string_view>

namespace tessera {

namespace {

std::string trim(const std::string& text)
{
    const size_t first = text.find_first_not_of(" \t\r");
    if (first == std::string::npos)
        return {};
    return text.substr(first, text.find_last_not_of(" \t\r") - first + 1);
}

std::vector<std::string> splitCells(const std::string& line)
{
    std::vector<std::string> cells;
    std::stringstream stream(line);
    std::string cell;
    while (std::getline(stream, cell, ','))
        cells.push_back(trim(cell));
    if (!line.empty() && line.back() == ',')
        cells.emplace_back();
    return cells;
}

enum class Column { Id, Lower, Upper, End, Size, Alignment, Offset, Other };

Column columnOf(const std::string& name)
{
    static const std::map<std::string, Column> names = {
        {"id", Column::Id},         {"buffer", Column::Id},      {"buffer_id", Column::Id},
        {"lower", Column::Lower},   {"start", Column::Lower},    {"begin", Column::Lower},
        {"upper", Column::Upper},   {"end", Column::End},        {"size", Column::Size},
        {"alignment", Column::Alignment}, {"offset", Column::Offset}};
    const auto found = names.find(name);
    return found == names.end() ? Column::Other : found->second;
}

} // namespace

std::vector<Buffer> parseBufferCsv(const std::string& text, const std::string& source, bool endInclusive)
{
    // Spreadsheet programs start UTF-8 files with a byte order mark; it is not part of the header.
    const std::string_view bom = "\xEF\xBB\xBF";
    std::stringstream stream(text.compare(0, bom.size(), bom) == 0 ? text.substr(bom.size()) : text);
    std::string line;
    size_t lineNumber = 0;
    std::vector<Column> columns;
    std::vector<std::string> headers;
    std::vector<Buffer> buffers;
    auto fail = [&](const std::string& message) -> void {
        throw Error(source + " line " + std::to_string(lineNumber) + ": " + message);
    };
    while (std::getline(stream, line)) {
        ++lineNumber;
        if (trim(line).empty())
            continue;
        const std::vector<std::string> cells = splitCells(line);
        if (columns.empty()) {
            headers = cells;
            bool seen[8] = {};
            for (const std::string& header : cells) {
                const Column column = columnOf(header);
                if (column != Column::Other && seen[int(column)])
                    fail("column '" + header + "' appears twice");
                seen[int(column)] = true;
                columns.push_back(column);
            }
            if (!seen[int(Column::Id)] || !seen[int(Column::Lower)] || !seen[int(Column::Size)] ||
                (!seen[int(Column::Upper)] && !seen[int(Column::End)]))
                fail("the header must name the columns id, lower, upper and size (found '" + trim(line) + "')");
            continue;
        }
        if (cells.size() != columns.size())
            fail("expected " + std::to_string(columns.size()) + " cells, found " + std::to_string(cells.size()));
        Buffer buffer;
        for (size_t c = 0; c < cells.size(); ++c) {
            if (columns[c] == Column::Other)
                continue;
            if (columns[c] == Column::Id) {
                if (cells[c].empty())
                    fail("empty id");
                buffer.id = cells[c];
                continue;
            }
            if (columns[c] == Column::Offset && cells[c].empty())
                continue;
            int64_t value = 0;
            const char* begin = cells[c].data();
            const char* end = begin + cells[c].size();
            const auto [next, error] = std::from_chars(begin, end, value);
            if (error != std::errc() || next != end || cells[c].empty())
                fail("column '" + headers[c] + "' is not a whole number: '" + cells[c] + "'");
            switch (columns[c]) {
            case Column::Lower: buffer.lower = value; break;
            case Column::Upper: buffer.upper = value; break;
            case Column::End:
                if (value == INT64_MAX)
                    fail("column 'end' is too large");
                buffer.upper = endInclusive ? value + 1 : value;
                break;
            case Column::Size: buffer.size = value; break;
            case Column::Alignment: buffer.alignment = value; break;
            case Column::Offset: buffer.fixedOffset = value; break;
            default: break;
            }
        }
        const std::vector<std::string> problems = checkBuffers({buffer});
        if (!problems.empty())
            fail(problems.front());
        buffers.push_back(std::move(buffer));
    }
    if (columns.empty())
        throw Error(source + ": empty file (expected a header id,lower,upper,size and one row per buffer)");
    // Duplicate ids are only visible across rows.
    std::map<std::string, size_t> seenIds;
    for (size_t k = 0; k < buffers.size(); ++k)
        if (!seenIds.emplace(buffers[k].id, k).second)
            throw Error(source + ": buffer id '" + buffers[k].id + "' appears twice");
    return buffers;
}

std::vector<Buffer> readBufferCsv(const std::string& path, bool endInclusive)
{
    try {
        return parseBufferCsv(readFileBytes(path), path, endInclusive);
    } catch (const ModelError& error) {
        throw Error(error.what());
    }
}

std::string formatBufferCsv(const std::vector<Buffer>& buffers, const std::vector<int64_t>& offsets)
{
    bool anyAlignment = false;
    for (const Buffer& b : buffers)
        anyAlignment = anyAlignment || b.alignment != 1;
    std::string text = anyAlignment ? "id,lower,upper,size,alignment,offset\n" : "id,lower,upper,size,offset\n";
    for (size_t k = 0; k < buffers.size(); ++k) {
        const Buffer& b = buffers[k];
        text += b.id + "," + std::to_string(b.lower) + "," + std::to_string(b.upper) + "," + std::to_string(b.size) + ",";
        if (anyAlignment)
            text += std::to_string(b.alignment) + ",";
        text += std::to_string(k < offsets.size() ? offsets[k] : 0) + "\n";
    }
    return text;
}

} // namespace tessera
