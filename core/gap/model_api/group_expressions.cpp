// GreenWaves' generators bind the calls of a grouped convolution's kernel group with expressions
// such as "KArg(In, Name) + GroupIn*Width*Height * KArg(In, TileIndex)": the group's argument moved
// by one group's worth per iteration, with the sizes given as symbols (KerDynamicSymbols). Tessera
// turns them into the C the group function evaluates in its loop over the iterations.
#include "group_expressions.h"

#include "builder_support.h"

#include <cctype>
#include <set>

namespace tessera::gap {
namespace {

bool isIdentifierStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool isIdentifierPart(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The words a cast to a C type may use (a type symbol's text, or one written out).
const std::set<std::string>& typeWords()
{
    static const std::set<std::string> words{"signed", "unsigned", "char", "short", "int", "long", "void",
                                             "float", "double", "const", "__restrict__", "restrict"};
    return words;
}

// The identifiers of `text` (not those inside number literals such as 0x1F or 1u).
std::vector<std::string> identifiersOf(const std::string& text)
{
    std::vector<std::string> names;
    for (std::size_t i = 0; i < text.size();) {
        if (std::isdigit(static_cast<unsigned char>(text[i]))) {
            while (i < text.size() && isIdentifierPart(text[i]))
                ++i;
        } else if (isIdentifierStart(text[i])) {
            const std::size_t start = i;
            while (i < text.size() && isIdentifierPart(text[i]))
                ++i;
            names.push_back(text.substr(start, i - start));
        } else {
            ++i;
        }
    }
    return names;
}

// The comma-separated words inside the parentheses that follow position `open` (at '('), and the
// position after the closing one; empty when the form is not Word(a[, b]).
std::vector<std::string> callArguments(const std::string& text, std::size_t open, std::size_t& end)
{
    const std::size_t close = text.find(')', open);
    if (close == std::string::npos)
        return {};
    std::vector<std::string> words;
    std::string current;
    for (std::size_t i = open + 1; i < close; ++i) {
        if (text[i] == ',') {
            words.push_back(current);
            current.clear();
        } else if (!std::isspace(static_cast<unsigned char>(text[i]))) {
            current += text[i];
        }
    }
    words.push_back(current);
    for (const std::string& word : words)
        if (word.empty() || !isIdentifierStart(word[0]))
            return {};
    end = close + 1;
    return words;
}

}  // namespace

std::string groupExpressionToC(const std::string& expression, const std::map<std::string, std::string>& groupArguments,
                               const std::vector<tiler::CArgument>& cargs,
                               const std::map<std::string, std::string>& symbols, const std::string& context)
{
    const std::string where = context + ": BindKGExpr(\"" + expression + "\")";
    std::set<std::string> cargNames;
    for (const tiler::CArgument& carg : cargs)
        cargNames.insert(carg.name);
    std::string out;
    for (std::size_t i = 0; i < expression.size();) {
        if (!isIdentifierStart(expression[i]) || (i > 0 && isIdentifierPart(expression[i - 1]))) {
            out += expression[i++];
            continue;
        }
        std::size_t j = i;
        while (j < expression.size() && isIdentifierPart(expression[j]))
            ++j;
        const std::string word = expression.substr(i, j - i);
        std::size_t open = j;
        while (open < expression.size() && std::isspace(static_cast<unsigned char>(expression[open])))
            ++open;
        if ((word == "KArg" || word == "CArg") && open < expression.size() && expression[open] == '(') {
            std::size_t end = open;
            const std::vector<std::string> words = callArguments(expression, open, end);
            if (word == "CArg" && words.size() == 1) {
                out += words[0];
            } else if (word == "KArg" && words.size() == 2 && words[1] == "Name") {
                const auto found = groupArguments.find(words[0]);
                out += found == groupArguments.end() ? words[0] : found->second;
            } else if (word == "KArg" && words.size() == 2 && words[1] == "TileIndex") {
                out += tiler::kGroupIterationVariable;
            } else {
                failModel(where + ": " + expression.substr(i, end == open ? open - i + 1 : end - i) +
                          " is not supported; Tessera reads KArg(Arg, Name), KArg(Arg, TileIndex) and CArg(Name)");
            }
            i = end;
            continue;
        }
        if (const auto symbol = symbols.find(word); symbol != symbols.end()) {
            // A number in parentheses keeps the expression's precedence; a type is a cast's own text.
            const bool number = !symbol->second.empty() &&
                                (std::isdigit(static_cast<unsigned char>(symbol->second[0])) || symbol->second[0] == '-');
            out += number ? "(" + symbol->second + ")" : symbol->second;
        } else {
            out += word;
        }
        i = j;
    }
    for (const std::string& name : identifiersOf(out))
        if (!cargNames.count(name) && name != tiler::kGroupIterationVariable && !typeWords().count(name))
            failModel(where + ": " + name + " is neither a C argument of the group nor a symbol; declare it with "
                              "KerDynamicSymbols() or UserSymbols() before the group, or pass it as a C argument");
    return "(" + out + ")";
}

}  // namespace tessera::gap
