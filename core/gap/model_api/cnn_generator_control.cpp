// CNN_GenControl_T: CNN_InitGenCtrl / CNN_SetGenCtrl as GreenWaves' model programs call them
// (NNTool writes one descriptor per layer it tunes), and what Tessera's generators take from a
// descriptor (cnn_generator_control.h).
#include "cnn_generator_control.h"

#include "cnn_generator_support.h"

#include <cctype>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <string>

namespace {

std::string upper(const char* text)
{
    std::string out(text);
    for (char& c : out)
        c = char(std::toupper(static_cast<unsigned char>(c)));
    return out;
}

// A field the descriptor names: the field's own name and NNTool's, both upper case.
struct ControlField {
    const char* name;
    const char* nntoolName;  // nullptr: the same as the field's
    enum Kind { Char, Int, Pad, Text } kind;
    std::size_t offset;
};

#define TESSERA_FIELD(field, nntool, kind) {#field, nntool, ControlField::kind, offsetof(CNN_GenControl_T, field)}
const ControlField kFields[] = {
    TESSERA_FIELD(TileOrientation, nullptr, Char),
    TESSERA_FIELD(ParallelFeatures, nullptr, Char),
    TESSERA_FIELD(ForceDPconv, nullptr, Char),
    TESSERA_FIELD(UseHwCE, nullptr, Char),
    TESSERA_FIELD(PadType, nullptr, Pad),
    TESSERA_FIELD(EnableIm2Col, nullptr, Char),
    TESSERA_FIELD(ReluN, nullptr, Int),
    TESSERA_FIELD(MulBiasScalar, nullptr, Char),
    TESSERA_FIELD(In_L3, nullptr, Char),
    TESSERA_FIELD(Filter_L3, nullptr, Char),
    TESSERA_FIELD(Bias_L3, nullptr, Char),
    TESSERA_FIELD(Out_L3, nullptr, Char),
    TESSERA_FIELD(Scale_L3, nullptr, Char),
    TESSERA_FIELD(ScaleN_L3, nullptr, Char),
    TESSERA_FIELD(RNNUseHardActivation, "RNN_USE_HARDACT", Char),
    TESSERA_FIELD(RNNSameInStateScales, "RNN_SAME_INOUT_SCALE", Char),
    TESSERA_FIELD(MFCCDbInsteadOfLog, nullptr, Char),
    TESSERA_FIELD(DynamicIter, nullptr, Char),
    TESSERA_FIELD(Force_8BitsOutput, nullptr, Char),
    TESSERA_FIELD(HWC, nullptr, Char),
    TESSERA_FIELD(MfccLogOffset, "MFCC_LOG_OFFSET", Int),
    TESSERA_FIELD(InDataSize, "INPUT_DATASIZE", Char),
    TESSERA_FIELD(OutDataSize, "OUTPUT_DATASIZE", Char),
    TESSERA_FIELD(GatePrenorm, "GATE_PRENORM", Int),
    TESSERA_FIELD(FloatDump, "FLOAT_DUMP", Char),
    TESSERA_FIELD(CustomActivationName, "CUSTOM_ACTIVATION_NAME", Text),
    TESSERA_FIELD(CustomActivationInfos, "CUSTOM_ACTIVATION_INFOS", Int),
    TESSERA_FIELD(CompressedInputBits, nullptr, Int),
};
#undef TESSERA_FIELD

std::string knownNames()
{
    std::string names;
    for (const ControlField& field : kFields)
        names += (names.empty() ? "" : ", ") + upper(field.nntoolName ? field.nntoolName : field.name);
    return names;
}

} // namespace

extern "C" {

void CNN_InitGenCtrl(CNN_GenControl_T* Ctrl)
{
    if (!Ctrl)
        tessera::gap::failModel("CNN_InitGenCtrl: the descriptor is NULL; pass the address of a CNN_GenControl_T");
    *Ctrl = CNN_GenControl_T{};
    for (char* field : {&Ctrl->TileOrientation, &Ctrl->ParallelFeatures, &Ctrl->ForceDPconv, &Ctrl->UseHwCE,
                        &Ctrl->EnableIm2Col, &Ctrl->MulBiasScalar, &Ctrl->RNNUseHardActivation,
                        &Ctrl->RNNSameInStateScales})
        *field = -1;
    Ctrl->PadType = PAD_BALANCED_LEFT;
    Ctrl->ReluN = -1;
}

void CNN_SetGenCtrl(CNN_GenControl_T* Ctrl, const char* Name, void* Val)
{
    if (!Ctrl || !Name)
        tessera::gap::failModel("CNN_SetGenCtrl: the descriptor or the option name is NULL");
    const std::string wanted = upper(Name);
    for (const ControlField& field : kFields) {
        if (wanted != upper(field.name) && !(field.nntoolName && wanted == field.nntoolName))
            continue;
        char* place = reinterpret_cast<char*>(Ctrl) + field.offset;
        const auto number = static_cast<long long>(reinterpret_cast<std::intptr_t>(Val));
        switch (field.kind) {
        case ControlField::Char: *reinterpret_cast<char*>(place) = char(number); break;
        case ControlField::Int: *reinterpret_cast<int*>(place) = int(number); break;
        case ControlField::Text: *reinterpret_cast<char**>(place) = static_cast<char*>(Val); break;
        case ControlField::Pad:
            if (number < PAD_LEFT || number > PAD_BALANCED_RIGHT)
                tessera::gap::failModel("CNN_SetGenCtrl(\"" + std::string(Name) + "\", " + std::to_string(number) +
                                        "): a padding type is PAD_LEFT (0), PAD_RIGHT (1), PAD_BALANCED_LEFT (2) or "
                                        "PAD_BALANCED_RIGHT (3)");
            *reinterpret_cast<AT_PadType*>(place) = AT_PadType(number);
            break;
        }
        return;
    }
    tessera::gap::failModel("CNN_SetGenCtrl: no option \"" + std::string(Name) + "\"; the options are " + knownNames() +
                            " (case insensitive)");
}

void CNN_SetGenCtrlList(CNN_GenControl_T* Ctrl, ...)
{
    va_list pairs;
    va_start(pairs, Ctrl);
    while (const char* name = va_arg(pairs, const char*)) {
        void* value = va_arg(pairs, void*);
        CNN_SetGenCtrl(Ctrl, name, value);
    }
    va_end(pairs);
}

} // extern "C"

namespace tessera::gap {

GenControl genControl(const char* Name, const CNN_GenControl_T* Ctrl, bool readsOutDataSize, bool readsHwc)
{
    GenControl control;
    if (!Ctrl)
        return control;
    const auto refuse = [Name](const std::string& what) {
        layerError(Name, "the generator control sets " + what + ", which Tessera's generators do not compute; "
                                                                "leave it at its default (CNN_InitGenCtrl)");
    };
    if (Ctrl->HWC > 0 && !readsHwc)
        refuse("HWC (tensors in HWC order; they are CHW)");
    if (Ctrl->ReluN != -1 && Ctrl->ReluN != 6)
        refuse("RELUN " + std::to_string(Ctrl->ReluN) + " (KOP_RELUN clips at 6)");
    if (Ctrl->CustomActivationName || Ctrl->CustomActivationInfos != 0)
        refuse("a custom activation");
    if (Ctrl->InDataSize != 0 || (Ctrl->OutDataSize != 0 && !readsOutDataSize))
        refuse("INPUT_DATASIZE / OUTPUT_DATASIZE (the data sizes are the generator's arguments)");
    if (Ctrl->Force_8BitsOutput > 0)
        refuse("Force_8BitsOutput");
    if (Ctrl->DynamicIter > 0)
        refuse("DynamicIter (a run-time iteration count)");
    if (Ctrl->CompressedInputBits != 0)
        refuse("compressed inputs");
    if (Ctrl->PadType < PAD_LEFT || Ctrl->PadType > PAD_BALANCED_RIGHT)
        layerError(Name, "the generator control's PadType " + std::to_string(int(Ctrl->PadType)) +
                             " is no padding type (PAD_LEFT, PAD_RIGHT, PAD_BALANCED_LEFT or PAD_BALANCED_RIGHT)");
    control.padType = Ctrl->PadType;
    control.inL3 = Ctrl->In_L3 != 0;
    control.filterL3 = Ctrl->Filter_L3 != 0;
    control.biasL3 = Ctrl->Bias_L3 != 0;
    control.outL3 = Ctrl->Out_L3 != 0;
    control.outDataSize = readsOutDataSize ? Ctrl->OutDataSize : 0;
    control.hwc = Ctrl->HWC > 0;
    control.tileOrientation = Ctrl->TileOrientation < 0 ? -1 : Ctrl->TileOrientation != 0;
    control.parallelFeatures = Ctrl->ParallelFeatures < 0 ? -1 : Ctrl->ParallelFeatures != 0;
    return control;
}

} // namespace tessera::gap
