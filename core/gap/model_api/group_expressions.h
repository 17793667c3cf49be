// The C text of the SDK's kernel-group binding expressions (BindKGExpr), resolved when the group is
// declared: see group_expressions.cpp.
#pragma once

#include "tiler/kernel_model.h"

#include <map>
#include <string>
#include <vector>

namespace tessera::gap {

// The marker a BindKGExpr binding carries until its group resolves it (a Literal binding whose
// text starts with it holds the expression as written).
inline constexpr char kUnresolvedGroupExpression = '\x1f';

inline bool isUnresolvedGroupExpression(const tiler::Binding& binding)
{
    return binding.kind == tiler::Binding::Kind::Literal && !binding.name.empty() &&
           binding.name[0] == kUnresolvedGroupExpression;
}

// `expression` as C, or ModelError naming `context` and the fix:
//   KArg(Arg, Name)       the C argument the group argument Arg stands for (KerGroupArg's CArgName,
//                         Arg itself when the group lists none);
//   KArg(Arg, TileIndex)  the group's iteration (tiler::kGroupIterationVariable);
//   CArg(Name)            the C argument Name;
//   a symbol              its value (KerDynamicSymbols, UserSymbols).
// What remains must be C arguments of the group, numbers, operators and C type words.
std::string groupExpressionToC(const std::string& expression, const std::map<std::string, std::string>& groupArguments,
                               const std::vector<tiler::CArgument>& cargs,
                               const std::map<std::string, std::string>& symbols, const std::string& context);

}  // namespace tessera::gap
