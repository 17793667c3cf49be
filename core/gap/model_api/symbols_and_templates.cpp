// What GreenWaves' DSP generators declare once and use in many calls: basic-kernel argument structs
// (LibKernelTemplate, then LibKernel with NULL C arguments), user symbols (UserSymbols with US_Int /
// US_Float, bound with BindKExpr), and bindings to one item of a tile (K_TileOper with '@').
#include "AutoTilerLib.h"
#include "builder_support.h"

#include <cmath>
#include <cstdarg>
#include <cstdio>

using namespace tessera::gap;
namespace tiler = tessera::tiler;

extern "C" {

void LibKernelTemplate(const char* TemplateName, CKernel_Arg_T** CArgs)
{
    const std::string name = requireName(TemplateName, "LibKernelTemplate", "the template name");
    const std::string context = "LibKernelTemplate(\"" + name + "\")";
    if (CArgs == nullptr)
        failModel(context + ": its C arguments are NULL; pass CArgs(...) with the struct's fields");
    cArgumentsOf(CArgs, context);  // checked now, so a bad list is named here rather than at its first use
    registry().kernelTemplates[name] = CArgs;
}

CKernel_Arg_T** KerTypeTemplate(const char* TemplateName)
{
    const std::string name = requireName(TemplateName, "KerTypeTemplate", "the template name");
    const auto found = registry().kernelTemplates.find(name);
    if (found == registry().kernelTemplates.end())
        failModel("KerTypeTemplate(\"" + name + "\"): no LibKernelTemplate declares " + name);
    return found->second;
}

UserSymbol_T* US_Int(const char* Name, int Value)
{
    const std::string name = requireName(Name, "US_Int", "the symbol name");
    return registry().arena.make(UserSymbol_S{name, std::to_string(Value)});
}

UserSymbol_T* US_Type(const char* Name, const char* String)
{
    const std::string name = requireName(Name, "US_Type", "the symbol name");
    const std::string type = requireName(String, "US_Type", "the type");
    return registry().arena.make(UserSymbol_S{name, type});  // bound as the C text itself
}

UserSymbol_T* US_Float(const char* Name, float Value)
{
    const std::string name = requireName(Name, "US_Float", "the symbol name");
    if (!std::isfinite(Value))
        failModel("US_Float(\"" + name + "\"): the value is not a finite number");
    // Nine significant digits give back the same float.
    char text[48];
    std::snprintf(text, sizeof text, "%.9gf", double(Value));
    std::string constant = text;
    if (constant.find_first_of(".eE") == std::string::npos)
        constant.insert(constant.size() - 1, ".0");  // "1f" is no C constant, "1.0f" is
    return registry().arena.make(UserSymbol_S{name, constant});
}

void UserSymbols(int SCount, ...)
{
    if (SCount < 0)
        failModel(format("UserSymbols(%d, ...): the symbol count is negative", SCount));
    va_list args;
    va_start(args, SCount);
    for (int i = 0; i < SCount; ++i) {
        const UserSymbol_S* symbol = va_arg(args, UserSymbol_S*);
        if (symbol == nullptr) {
            va_end(args);
            failModel(format("UserSymbols(%d, ...): symbol %d is NULL; pass US_Int() or US_Float()", SCount, i + 1));
        }
        registry().userSymbols[symbol->name] = symbol->text;
    }
    va_end(args);
}

ArgBindingDescr_T* BindKExpr(const char* Expr)
{
    const std::string expression = requireName(Expr, "BindKExpr", "the expression");
    const auto found = registry().userSymbols.find(expression);
    if (found == registry().userSymbols.end())
        failModel("BindKExpr(\"" + expression + "\"): Tessera binds the value of a symbol declared with "
                  "UserSymbols(); declare it there (US_Int / US_Float), or bind the value with Imm() or K_Arg()");
    tiler::Binding binding;
    binding.kind = tiler::Binding::Kind::Literal;
    binding.name = found->second;
    return registry().arena.make(ArgBindingDescr_S{std::move(binding)});
}

ArgBindingDescr_T* K_TileOper(const char* ArgName, const char* AccessType, char Oper, int Value)
{
    const std::string name = requireName(ArgName, "K_TileOper", "the kernel argument name");
    const std::string context = "K_TileOper(\"" + name + "\")";
    const std::string type = requireName(AccessType, context, "the access type");
    if (Oper != '@')
        failModel(format("%s: operator '%c' is not supported; Tessera binds one item of the tile, '@'",
                         context.c_str(), Oper >= 32 && Oper < 127 ? Oper : '?'));
    if (type.find('*') == std::string::npos)
        failModel(context + ": the access type \"" + type + "\" is not a pointer type; give the pointer the tile "
                  "is read through, such as \"short int *\"");
    if (Value < 0)
        failModel(format("%s: item index %d is negative", context.c_str(), Value));
    tiler::Binding binding;
    binding.kind = tiler::Binding::Kind::TileItem;
    binding.name = name;
    binding.value = Value;
    binding.accessType = type;
    return registry().arena.make(ArgBindingDescr_S{std::move(binding)});
}

}  // extern "C"
