#include "fuzz_mutations.h"

#include <cctype>
#include <iterator>
#include <vector>

namespace tessera::fuzz {

namespace {

std::size_t pick(std::size_t size, std::mt19937& random)
{
    return size == 0 ? 0 : std::size_t(random() % size);
}

// Where each run of digits (with a sign, point or exponent) starts and how long it is.
std::vector<std::pair<std::size_t, std::size_t>> numbers(const std::string& text)
{
    std::vector<std::pair<std::size_t, std::size_t>> found;
    for (std::size_t k = 0; k < text.size();) {
        if (!std::isdigit(static_cast<unsigned char>(text[k]))) {
            ++k;
            continue;
        }
        std::size_t begin = k > 0 && text[k - 1] == '-' ? k - 1 : k;
        while (k < text.size() && (std::isdigit(static_cast<unsigned char>(text[k])) || text[k] == '.' ||
                                   text[k] == 'e' || text[k] == 'E'))
            ++k;
        found.emplace_back(begin, k - begin);
    }
    return found;
}

std::vector<std::pair<std::size_t, std::size_t>> lines(const std::string& text)
{
    std::vector<std::pair<std::size_t, std::size_t>> found;
    std::size_t begin = 0;
    while (begin < text.size()) {
        const std::size_t end = text.find('\n', begin);
        const std::size_t stop = end == std::string::npos ? text.size() : end + 1;
        found.emplace_back(begin, stop - begin);
        begin = stop;
    }
    return found;
}

}  // namespace

void mutateBytes(std::string& bytes, std::mt19937& random)
{
    if (bytes.empty()) {
        bytes.push_back(static_cast<char>(random()));
        return;
    }
    switch (random() % 4) {
    case 0:  // flip a few bytes
        for (int k = 0; k < 1 + int(random() % 4); ++k)
            bytes[pick(bytes.size(), random)] = static_cast<char>(random());
        break;
    case 1:  // truncate
        bytes.resize(pick(bytes.size(), random));
        break;
    case 2:  // insert random bytes
        bytes.insert(pick(bytes.size(), random), std::string(1 + random() % 8, static_cast<char>(random())));
        break;
    default:  // duplicate a slice
        bytes.insert(pick(bytes.size(), random), bytes.substr(pick(bytes.size(), random), 1 + random() % 16));
        break;
    }
}

void mutateText(std::string& text, std::mt19937& random)
{
    static const char* const absurd[] = {"0", "-1", "1", "-0", "1e300", "-1e300", "1e-300", "nan", "inf", "-inf",
                                         "9223372036854775807", "9223372036854775808", "-9223372036854775808",
                                         "18446744073709551616", "4294967296", "2147483648", "0.5", "1.5", "3e9",
                                         "", "00000000000000000000000000007", "0x10", "1,5"};
    static const char* const inserted[] = {",", ";", "\"", "(", ")", "[", "]", "{", "}", ":", "\t", " ", "\r", "\n",
                                           "\\", "\xef\xbb\xbf", "\xff", "/*", "//", "\0"};
    switch (random() % 8) {
    case 0:
    case 1:
    case 2: {  // a number made absurd
        const auto found = numbers(text);
        if (found.empty())
            break;
        const auto [begin, length] = found[pick(found.size(), random)];
        text.replace(begin, length, absurd[random() % std::size(absurd)]);
        break;
    }
    case 3: {  // a line removed or doubled
        const auto found = lines(text);
        if (found.empty())
            break;
        const auto [begin, length] = found[pick(found.size(), random)];
        if (random() % 2)
            text.erase(begin, length);
        else
            text.insert(begin, text.substr(begin, length));
        break;
    }
    case 4: {  // two lines swapped
        const auto found = lines(text);
        if (found.size() < 2)
            break;
        std::size_t a = pick(found.size(), random), b = pick(found.size(), random);
        if (a == b)
            break;
        if (a > b)
            std::swap(a, b);
        const std::string first = text.substr(found[a].first, found[a].second);
        const std::string second = text.substr(found[b].first, found[b].second);
        text.replace(found[b].first, found[b].second, first);
        text.replace(found[a].first, found[a].second, second);
        break;
    }
    case 5: {  // a separator, quote or bracket
        const std::string piece = random() % 20 == 0 ? std::string(1, '\0') : std::string(inserted[random() % (std::size(inserted) - 1)]);
        text.insert(pick(text.size() + 1, random), piece);
        break;
    }
    case 6:  // a byte-order mark
        text.insert(0, "\xef\xbb\xbf");
        break;
    default: {  // CRLF line ends
        std::string crlf;
        crlf.reserve(text.size() + text.size() / 16);
        for (char c : text) {
            if (c == '\n')
                crlf.push_back('\r');
            crlf.push_back(c);
        }
        text = std::move(crlf);
        break;
    }
    }
}

}  // namespace tessera::fuzz
