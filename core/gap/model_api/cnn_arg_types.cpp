// The C type of a generator's argument from its data size, as GreenWaves' generators build their
// CArgs: CNN_ArgDataType (signed), CNN_ArgDataTypeUns (unsigned) and CNN_ArgDataTypeF (float).
#include "AutoTilerLib.h"
#include "builder_support.h"

#include <string>

using namespace tessera::gap;

namespace {

// One family of type names, and every form of them spelled so far: [size][plain/pointer/restrict].
// The spellings live as long as the program: generators keep the pointers in their CArgs.
struct TypeNames {
    const char* one;
    const char* two;
    const char* four;
    std::string spelled[3][3];
};

char* argDataType(const char* call, TypeNames& names, int DataSize, int Pointer, int Restrict)
{
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
    std::string& text = names.spelled[size][form];
    if (text.empty())
        text = std::string(base) + (form == 0 ? "" : form == 1 ? " *" : " * __restrict__");
    return text.data();
}

}  // namespace

extern "C" {

char* CNN_ArgDataType(int DataSize, int Pointer, int Restrict)
{
    static TypeNames names{"signed char", "short int", "int", {}};
    return argDataType("CNN_ArgDataType", names, DataSize, Pointer, Restrict);
}

char* CNN_ArgDataTypeUns(int DataSize, int Pointer, int Restrict)
{
    static TypeNames names{"unsigned char", "unsigned short int", "unsigned int", {}};
    return argDataType("CNN_ArgDataTypeUns", names, DataSize, Pointer, Restrict);
}

char* CNN_ArgDataTypeF(int DataSize, int Pointer, int Restrict)
{
    static TypeNames names{nullptr, "F16", "float", {}};
    return argDataType("CNN_ArgDataTypeF", names, DataSize, Pointer, Restrict);
}

}  // extern "C"
