// The C type of a generator's argument from its data size, as GreenWaves' generators build their
// CArgs: CNN_ArgDataType (signed), CNN_ArgDataTypeUns (unsigned) and CNN_ArgDataTypeF (float).
#include "AutoTilerLib.h"
#include "builder_support.h"

#include <string>

using namespace tessera::gap;

namespace {

// The names live as long as the program: generators keep the pointers in their CArgs.
struct TypeNames {
    const char* one;
    const char* two;
    const char* four;
};

char* argDataType(const char* call, const TypeNames& names, int DataSize, int Pointer, int Restrict)
{
    // Every form a generator may ask for, spelled once: [size][pointer/restrict].
    static std::string table[3][3][3];
    int size = 0;
    const char* base = nullptr;
    switch (DataSize) {
    case 1: size = 0; base = names.one; break;
    case 2: size = 1; base = names.two; break;
    case 4: size = 2; base = names.four; break;
    default: break;
    }
    if (base == nullptr)
        failModel(format("%s(%d, %d, %d): the data size is %d bytes; give 1, 2 or 4%s", call, DataSize, Pointer,
                         Restrict, DataSize, names.one == nullptr ? " (2 or 4 for floats)" : ""));
    const int form = Pointer == 0 ? 0 : (Restrict == 0 ? 1 : 2);
    const std::size_t kind = names.one == nullptr ? 2 : names.one[0] == 'u' ? 1 : 0;
    std::string& text = table[kind][size][form];
    if (text.empty())
        text = std::string(base) + (form == 0 ? "" : form == 1 ? " *" : " * __restrict__");
    return text.data();
}

}  // namespace

extern "C" {

char* CNN_ArgDataType(int DataSize, int Pointer, int Restrict)
{
    return argDataType("CNN_ArgDataType", {"signed char", "short int", "int"}, DataSize, Pointer, Restrict);
}

char* CNN_ArgDataTypeUns(int DataSize, int Pointer, int Restrict)
{
    return argDataType("CNN_ArgDataTypeUns", {"unsigned char", "unsigned short int", "unsigned int"}, DataSize,
                       Pointer, Restrict);
}

char* CNN_ArgDataTypeF(int DataSize, int Pointer, int Restrict)
{
    return argDataType("CNN_ArgDataTypeF", {nullptr, "F16", "float"}, DataSize, Pointer, Restrict);
}

}  // extern "C"
