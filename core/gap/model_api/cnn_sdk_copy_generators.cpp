// The copy generators on the SDK's contract (CNN_Copy_Generators.h): CNN_Copy, CNN_Repeat,
// CNN_MatTranspose, CNN_3DTensorPermute, CNN_Convert and CNN_Norm declare the user kernels GreenWaves'
// generators declare for them and call the basic kernels of CNN_Copy.h by the SDK's names, found
// with CNN_FindMatchingKernel as the SDK finds them.
#include "CNN_Copy_Generators.h"

#include "cnn_generator_control.h"
#include "cnn_generator_support.h"

#include <cstdint>
#include <iterator>
#include <string>
#include <vector>

namespace {

using tessera::gap::currentModel;
using tessera::gap::declaredKernel;
using tessera::gap::genControl;
using tessera::gap::GenControl;
using tessera::gap::LayerDeclaration;
using tessera::gap::layerError;

// What a layer's Size (FeatureSize) says: the bytes of an item and whether items are unsigned.
struct ItemType {
    int bytes = 1;
    bool isUnsigned = false;
    const char* pointer() const
    {
        return isUnsigned ? CNN_ArgDataTypeUns(bytes, 1, 1) : CNN_ArgDataType(bytes, 1, 1);
    }
};

ItemType itemType(const char* Name, int Size, const char* what, bool wordsToo)
{
    const int bytes = Size < 0 ? -Size : Size;
    if (bytes != 1 && bytes != 2 && !(wordsToo && bytes == 4))
        layerError(Name, std::string(what) + " is " + std::to_string(Size) + "; give 1 or 2" +
                             (wordsToo ? " or 4" : "") + " (bytes per item, negative for unsigned items)");
    return {bytes, Size < 0};
}

void requireDimension(const char* Name, const char* what, int value)
{
    if (value < 1 || value > 65535)
        layerError(Name, std::string(what) + " is " + std::to_string(value) + ", expected 1 to 65535");
}

// The basic kernel of a transposition or permutation; the library declares them all.
const char* copyKernel(const char* Name, KernelOper_T oper, bool parallel, bool hwc, int bytes)
{
    // The HWC permutations are declared CALL_HWC_KER, the others with no attribute.
    const char* kernel = CNN_FindMatchingKernelAttr(oper, KOP_NONE, parallel, hwc ? unsigned(CALL_HWC_KER) : 0u, bytes, 0,
                                                    0, 0, bytes, 0, 0, 0, 0, 0, 0, nullptr, nullptr, nullptr, nullptr,
                                                    nullptr, nullptr, nullptr);
    if (!kernel)
        layerError(Name, std::string("no basic kernel performs ") + CNN_KernelOperImage(oper) + " on " +
                             std::to_string(bytes) + "-byte items; call LoadCNN_Copy_Library() (or "
                             "LoadCNN_SQ8_Library()) before the layers");
    return kernel;
}

// A permutation's output as one matrix: Width x Height items, tiled vertically (in bands of columns)
// or horizontally (in bands of lines), so that the input's band of columns (CHW) or channels (HWC)
// is one band of it.
struct PermutedOutput {
    KernelOper_T oper;
    bool hwc;
    unsigned width, height;
    KernelArgConstraints_T tiling;
};

PermutedOutput permutedOutput(const char* Name, KernelOper_T oper, bool hwc, unsigned C, unsigned W, unsigned H)
{
    const PermutedOutput outputs[] = {
        {KOP_MATPERM_CHW2CWH, false, W * H, C, OBJ_CONSTRAINTS_TILE_VER},
        {KOP_MATPERM_CHW2HWC, false, W * C, H, OBJ_CONSTRAINTS_TILE_VER},
        {KOP_MATPERM_CHW2WHC, false, H * C, W, OBJ_CONSTRAINTS_TILE_HOR},
        {KOP_MATPERM_CHW2WCH, false, H * C, W, OBJ_CONSTRAINTS_TILE_HOR},
        {KOP_MATPERM_CHW2HCW, false, W, H * C, OBJ_CONSTRAINTS_TILE_VER},
        {KOP_MATPERM_HWC2HCW, true, C * W, H, OBJ_CONSTRAINTS_TILE_VER},
        {KOP_MATPERM_HWC2WCH, true, C * H, W, OBJ_CONSTRAINTS_TILE_VER},
        {KOP_MATPERM_HWC2WHC, true, C, W * H, OBJ_CONSTRAINTS_TILE_VER},
        {KOP_MATPERM_HWC2CHW, true, W * H, C, OBJ_CONSTRAINTS_TILE_HOR},
        {KOP_MATPERM_HWC2CWH, true, W * H, C, OBJ_CONSTRAINTS_TILE_HOR},
    };
    for (const PermutedOutput& output : outputs)
        if (output.oper == oper && output.hwc == hwc)
            return output;
    layerError(Name, hwc ? "an HWC tensor (Ctrl->HWC) permutes with KOP_MATPERM_HWC2HCW, KOP_MATPERM_HWC2WCH, "
                           "KOP_MATPERM_HWC2WHC, KOP_MATPERM_HWC2CHW or KOP_MATPERM_HWC2CWH"
                         : "a CHW tensor permutes with KOP_MATPERM_CHW2CWH, KOP_MATPERM_CHW2HWC, KOP_MATPERM_CHW2WHC, "
                           "KOP_MATPERM_CHW2WCH or KOP_MATPERM_CHW2HCW (an HWC one needs Ctrl->HWC)");
}

int permute(const char* Name, const GenControl& control, int Size, int Feat, int Width, int Height, KernelOper_T oper)
{
    LayerDeclaration layer(Name);
    const ItemType item = itemType(Name, Size, "Size", false);
    requireDimension(Name, "InFeat", Feat);
    requireDimension(Name, "Width", Width);
    requireDimension(Name, "Height", Height);
    if (std::uint64_t(Feat) * unsigned(Width) * unsigned(Height) > 0xFFFFFFFFu / 4)
        layerError(Name, "InFeat x Width x Height is over 2^30 items");
    const unsigned C = unsigned(Feat), W = unsigned(Width), H = unsigned(Height);
    const PermutedOutput out = permutedOutput(Name, oper, control.hwc, C, W, H);
    const char* kernel = copyKernel(Name, oper, true, control.hwc, item.bytes);
    const unsigned bytes = unsigned(item.bytes);
    // The input tiled in bands of columns: of every line of every plane (CHW), or of channels of every
    // pixel (HWC). The kernel sees the band as a whole tensor whose W (CHW) or Feat (HWC) is the band's.
    Object_T* in = control.hwc ? KerArg("In", KerArgSpace(1, KER_ITER_TILE0), OBJ_IN_DB, C, W * H, bytes, 0,
                                        OBJ_CONSTRAINTS_NONE, 0, "In")
                               : KerArg("In", KerArgSpace(1, KER_ITER_TILE0), OBJ_IN_DB, W, H * C, bytes, 0,
                                        OBJ_CONSTRAINTS_NONE, 0, "In");
    UserKernel(Name, KernelIterSpace(1, IterTiledSpace(KER_ITER_TILE0)), TILE_VER,
               CArgs(2, TCArg(item.pointer(), "In"), TCArg(item.pointer(), "Out")),
               Calls(1, Call(kernel, LOC_LOOP,
                             Bindings(7, K_Arg("In", KER_ARG_TILE), K_Arg("Out", KER_ARG_TILE),
                                      control.hwc ? K_Arg("In", KER_ARG_TILE_W) : Imm(int(C)),
                                      control.hwc ? Imm(int(W)) : K_Arg("In", KER_ARG_TILE_W), Imm(int(H)),
                                      AT_IGNORE_ARG_BINDING, AT_IGNORE_ARG_BINDING))),
               KerArgs(2, in,
                       KerArg("Out", KerArgSpace(1, KER_ITER_TILE0), OBJ_OUT_DB, out.width, out.height, bytes, 0,
                              out.tiling, 0, "Out")));
    declaredKernel(Name).operations = std::uint64_t(C) * W * H;
    return layer.conclude();
}

// Feat matrices, each transposed: the input tiled in bands of lines (or columns), the output in the
// matching bands of columns (or lines).
int transpose(const char* Name, const GenControl& control, int Size, int Feat, int Width, int Height)
{
    LayerDeclaration layer(Name);
    const ItemType item = itemType(Name, Size, "Size", false);
    requireDimension(Name, "InFeat", Feat);
    requireDimension(Name, "Width", Width);
    requireDimension(Name, "Height", Height);
    const bool parallel = control.parallelFeatures != 0;
    const bool vertical = control.tileOrientation == 1;
    const char* kernel = copyKernel(Name, KOP_MATTRANSP, parallel, false, item.bytes);
    const unsigned bytes = unsigned(item.bytes);
    UserKernel(Name,
               parallel ? KernelIterSpace(2, IterParSpace(KER_ITER_D0, unsigned(Feat), 8), IterTiledSpace(KER_ITER_TILE0))
                        : KernelIterSpace(2, IterFixedSpace(KER_ITER_D0, unsigned(Feat)), IterTiledSpace(KER_ITER_TILE0)),
               vertical ? TILE_VER : TILE_HOR, CArgs(2, TCArg(item.pointer(), "In"), TCArg(item.pointer(), "Out")),
               Calls(1, Call(kernel, LOC_LOOP,
                             Bindings(7, K_Arg("In", KER_ARG_TILE), K_Arg("Out", KER_ARG_TILE),
                                      parallel ? K_ArgPar("In", KER_ARG_PARTILE_SIZE, KER_ITER_D0) : Imm(1),
                                      K_Arg("In", KER_ARG_TILE_W), K_Arg("In", KER_ARG_TILE_H), AT_IGNORE_ARG_BINDING,
                                      AT_IGNORE_ARG_BINDING))),
               KerArgs(2,
                       KerArg("In", KerArgSpace(2, KER_ITER_D0, KER_ITER_TILE0), OBJ_IN_DB, unsigned(Width),
                              unsigned(Height), bytes, 0, OBJ_CONSTRAINTS_NONE, 0, "In"),
                       KerArg("Out", KerArgSpace(2, KER_ITER_D0, KER_ITER_TILE0), OBJ_OUT_DB, unsigned(Height),
                              unsigned(Width), bytes, 0, vertical ? OBJ_CONSTRAINTS_TILE_HOR : OBJ_CONSTRAINTS_TILE_VER,
                              0, "Out")));
    declaredKernel(Name).operations = std::uint64_t(Feat) * unsigned(Width) * unsigned(Height);
    return layer.conclude();
}

// The conversions' item types as the SDK names them in its kernels: Fps int8, UFps uint8, Fp int16,
// UFp uint16 (a size, negative for unsigned).
const char* itemCode(int size)
{
    return size == 1 ? "Fps" : size == -1 ? "UFps" : size == 2 ? "Fp" : "UFp";
}

const char* itemCType(int size)
{
    return size == 1 ? "signed char" : size == -1 ? "unsigned char" : size == 2 ? "signed short" : "unsigned short";
}

// The conversion kernels of the SDK's library: those adding a zero point, those widening or
// narrowing by 8 bits, and a scaled one for every pair of types (CNN_Copy.h). The SDK also matches
// CNN_UFpsFp and CNN_UFpFps, which its library does not define.
struct Conversion {
    KernelOper_T oper;
    int in, out;
};
constexpr Conversion kConversions[] = {
    {KOP_CONVERT_FP_FP_ZEROPOINT, 1, -1}, {KOP_CONVERT_FP_FP_ZEROPOINT, -1, 1},
    {KOP_CONVERT_FP_FP_ZEROPOINT, 2, -2}, {KOP_CONVERT_FP_FP_ZEROPOINT, -2, 2},
    {KOP_CONVERT_FP_FP, 1, 2},            {KOP_CONVERT_FP_FP, -1, -2},
    {KOP_CONVERT_FP_FP, 2, 1},            {KOP_CONVERT_FP_FP, -2, -1},
};
constexpr int kItemSizes[] = {1, -1, 2, -2};

std::string conversionKernel(const Conversion& conversion)
{
    return std::string("CNN_") + itemCode(conversion.in) + itemCode(conversion.out) +
           (conversion.oper == KOP_CONVERT_FP_FP_SCALE ? "Scaled" : "");
}

void loadConversionKernels()
{
    for (int in : kItemSizes)
        for (int out : kItemSizes) {
            const std::string type = std::string("CNN_") + itemCode(in) + itemCode(out) + "_T";
            const std::string inType = std::string(itemCType(in)) + " *__restrict__";
            const std::string outType = std::string(itemCType(out)) + " *__restrict__";
            LibKernelTemplate(type.c_str(), CArgs(5, TCArg(inType.c_str(), "In"), TCArg(outType.c_str(), "Out"),
                                                  TCArg("unsigned short int", "W"), TCArg("unsigned short int", "H"),
                                                  TCArg("signed char *__restrict__", "Infos")));
        }
    std::vector<Conversion> conversions(std::begin(kConversions), std::end(kConversions));
    for (int in : kItemSizes)
        for (int out : kItemSizes)
            conversions.push_back({KOP_CONVERT_FP_FP_SCALE, in, out});
    for (const Conversion& conversion : conversions) {
        const std::string type = std::string("CNN_") + itemCode(conversion.in) + itemCode(conversion.out) + "_T";
        LibKernel(conversionKernel(conversion).c_str(), CALL_PARALLEL, nullptr, type.c_str(),
                  CNN_Match(CNN_OperList(1, conversion.oper), nullptr, 1, CNN_Type(conversion.in, 0, 0, 0, conversion.out),
                            0, 0, 0, 0, 1, 1));
    }
}

// The image normalization kernels (CNN_Norm), with the SDK's structures.
void loadNormalizationKernels()
{
    const struct {
        const char* name;
        const char* type;
        const char* in;
        const char* out;
        bool rgb;
    } kernels[] = {
        {"CNN_NormRGB565_offset_fps", "KerNormRGB565_fps_T", "unsigned short *__restrict__", "signed char *__restrict__", true},
        {"CNN_NormRGB565_shift_fps", "KerNormRGB565_fps_T", "unsigned short *__restrict__", "signed char *__restrict__", true},
        {"CNN_NormRGB888_offset_fps", "KerNormRGB888_fps_T", "unsigned char *__restrict__", "signed char *__restrict__", true},
        {"CNN_NormRGB888_shift_fps", "KerNormRGB888_fps_T", "unsigned char *__restrict__", "signed char *__restrict__", true},
        {"CNN_NormRGB16_fp", "KerNormRGB16_fp_T", "unsigned char *__restrict__", "signed short int *__restrict__", true},
        {"CNN_NormBW_offset_fps", "KerNormBW_fps_T", "unsigned char *__restrict__", "signed char *__restrict__", false},
        {"CNN_NormBW_shift_fps", "KerNormBW_fps_T", "unsigned char *__restrict__", "signed char *__restrict__", false},
        {"CNN_NormBW_fp", "KerNormBW_fp_T", "unsigned char *__restrict__", "signed short int *__restrict__", false},
    };
    for (const auto& kernel : kernels)
        LibKernel(kernel.name, CALL_PARALLEL,
                  kernel.rgb ? CArgs(6, TCArg(kernel.in, "In"), TCArg(kernel.out, "Out0"), TCArg(kernel.out, "Out1"),
                                     TCArg(kernel.out, "Out2"), TCArg("unsigned int", "W"), TCArg("unsigned int", "H"))
                             : CArgs(4, TCArg(kernel.in, "In"), TCArg(kernel.out, "Out"), TCArg("unsigned int", "W"),
                                     TCArg("unsigned int", "H")),
                  kernel.type, nullptr);
}

[[noreturn]] void notProvided(const char* Name, const char* generator)
{
    layerError(Name, std::string(generator) + " has no generator of Tessera's yet; compile the SDK's "
                                              "CNN_Copy_Generators.c and CNN_Copy.c with the model for it");
}

}  // namespace

extern "C" {

void LoadCNN_Copy_Library(void)
{
    if (currentModel().findBasicKernel("CNN_Copy_void") != nullptr)
        return;  // both CNN libraries load this one
    LibKernelTemplate("KerCopy_void_T", CArgs(3, TCArg("void *__restrict__", "In"), TCArg("void *__restrict__", "Out"),
                                              TCArg("unsigned int", "N")));
    LibKernelTemplate("KerRepeat_void_T",
                      CArgs(4, TCArg("void *__restrict__", "In"), TCArg("void *__restrict__", "Out"),
                            TCArg("unsigned int", "NTile"), TCArg("unsigned int", "NRepeat")));
    for (const auto& [type, item] : {std::pair{"KerMatTranspose_fps_T", "signed char *__restrict__"},
                                     std::pair{"KerMatTranspose_fp_T", "short int *__restrict__"}})
        LibKernelTemplate(type, CArgs(7, TCArg(item, "In"), TCArg(item, "Out"), TCArg("unsigned int", "Feat"),
                                      TCArg("unsigned int", "W"), TCArg("unsigned int", "H"),
                                      TCArg("unsigned char", "Sx"), TCArg("unsigned char", "Sy")));
    LibKernel("CNN_Copy_void", CALL_PARALLEL,
              CArgs(3, TCArg("void *__restrict__", "In"), TCArg("void *__restrict__", "Out"), TCArg("unsigned int", "N")),
              "KerCopy_void_T", nullptr);
    LibKernel("CNN_Repeat_void", CALL_PARALLEL,
              CArgs(4, TCArg("void *__restrict__", "In"), TCArg("void *__restrict__", "Out"),
                    TCArg("unsigned int", "NRepeat"), TCArg("unsigned int", "NTile")),
              "KerRepeat_void_T", nullptr);
    // As the SDK matches them: the operation, whether the matrices are split over the cores, the
    // item size in and out; HWC permutations carry CALL_HWC_KER.
    struct Entry {
        const char* name;
        KernelOper_T oper;
        int parallel;
        bool hwc;
    };
    const Entry entries[] = {
        {"CNN_ParTranspose", KOP_MATTRANSP, 1, false},        {"CNN_Transpose", KOP_MATTRANSP, 0, false},
        {"CNN_MatPermCHW2CWH", KOP_MATPERM_CHW2CWH, 1, false}, {"CNN_MatPermCHW2HWC", KOP_MATPERM_CHW2HWC, 1, false},
        {"CNN_MatPermCHW2WHC", KOP_MATPERM_CHW2WHC, 1, false}, {"CNN_MatPermCHW2WCH", KOP_MATPERM_CHW2WCH, 1, false},
        {"CNN_MatPermCHW2HCW", KOP_MATPERM_CHW2HCW, 1, false}, {"CNN_MatPermHWC2HCW", KOP_MATPERM_HWC2HCW, 1, true},
        {"CNN_MatPermHWC2WCH", KOP_MATPERM_HWC2WCH, 1, true},  {"CNN_MatPermHWC2WHC", KOP_MATPERM_HWC2WHC, 1, true},
        {"CNN_MatPermHWC2CHW", KOP_MATPERM_HWC2CHW, 1, true},  {"CNN_MatPermHWC2CWH", KOP_MATPERM_HWC2CWH, 1, true},
    };
    for (const auto& [suffix, type, bytes] : {std::tuple{"_fps", "KerMatTranspose_fps_T", 1},
                                               std::tuple{"_fp", "KerMatTranspose_fp_T", 2}})
        for (const Entry& entry : entries)
            LibKernel((std::string(entry.name) + suffix).c_str(), entry.hwc ? KernelCallTypeT(CALL_PARALLEL | CALL_HWC_KER) : CALL_PARALLEL,
                      nullptr, type,
                      CNN_Match(CNN_OperList(1, entry.oper), nullptr, entry.parallel, CNN_Type(bytes, 0, 0, 0, bytes), 0,
                                0, 0, 0, 1, 1));
    loadNormalizationKernels();
    loadConversionKernels();
}

int CNN_MatTranspose(const char* Name, CNN_GenControl_T* Ctrl, int Size, int InFeat, int Width, int Height,
                     KernelOper_T MatTransOper)
{
    const GenControl control = genControl(Name, Ctrl, false, true);
    if (control.hwc)  // an HWC tensor's planes are its channels: [H][W][C] to [W][H][C]
        return CNN_3DTensorPermute(Name, Ctrl, Size, InFeat, Width, Height, KOP_MATPERM_HWC2WHC);
    if (MatTransOper != KOP_MATTRANSP)
        layerError(Name, "MatTransOper must be KOP_MATTRANSP");
    // As the SDK: without a tiling in the budget, the transposition becomes a permutation.
    tessera::tiler::GenerationOptions& options = currentModel().options;
    const bool noSolutionError = options.noSolutionError;
    options.noSolutionError = false;
    const int transposed = transpose(Name, control, Size, InFeat, Width, Height);
    options.noSolutionError = noSolutionError;
    if (transposed)
        return transposed;
    std::erase_if(currentModel().droppedKernels, [&](const auto& dropped) { return dropped.first == Name; });
    return permute(Name, control, Size, InFeat, Width, Height, KOP_MATPERM_CHW2CWH);
}

int CNN_3DTensorPermute(const char* Name, CNN_GenControl_T* Ctrl, int Size, int InFeat, int Width, int Height,
                        KernelOper_T MatPermOper)
{
    return permute(Name, genControl(Name, Ctrl, false, true), Size, InFeat, Width, Height, MatPermOper);
}

int CNN_Copy(const char* Name, CNN_GenControl_T* Ctrl, int Sz, int FeatureSize)
{
    LayerDeclaration layer(Name);
    (void) genControl(Name, Ctrl);  // its checks
    const ItemType item = itemType(Name, FeatureSize, "FeatureSize", true);
    if (Sz < 1 || std::int64_t(Sz) * item.bytes > 0x7FFFFFFF)
        layerError(Name, "Sz is " + std::to_string(Sz) + "; give 1 to 2^31 / FeatureSize items");
    const unsigned bytes = unsigned(Sz) * unsigned(item.bytes);
    // As the SDK declares it: one parametric space over the bytes, run in chunks (a multiple of 4
    // bytes where the budget allows), each copied by CNN_Copy_void.
    UserKernel(Name, KernelIterSpace(1, IterParSpace(KER_ITER_D0, bytes, 4)), TILE_HOR,
               CArgs(2, TCArg(item.pointer(), "In"), TCArg(item.pointer(), "Out")),
               Calls(1, Call("CNN_Copy_void", LOC_D0,
                             Bindings(3, K_Arg("In", KER_ARG_TILE), K_Arg("Out", KER_ARG_TILE),
                                      K_ArgPar("In", KER_ARG_PARTILE_SIZE, KER_ITER_D0)))),
               KerArgs(2,
                       KerArg("In", KerArgSpace(1, KER_ITER_D0), OBJ_IN_DB, 1, 1, 1, 0, OBJ_CONSTRAINTS_NONE, 0, "In"),
                       KerArg("Out", KerArgSpace(1, KER_ITER_D0), OBJ_OUT_DB, 1, 1, 1, 0, OBJ_CONSTRAINTS_NONE, 0,
                              "Out")));
    declaredKernel(Name).operations = bytes;
    return layer.conclude();
}

int CNN_Repeat(const char* Name, CNN_GenControl_T* Ctrl, int Sz, int FeatureSize, int NRepeat)
{
    LayerDeclaration layer(Name);
    (void) genControl(Name, Ctrl);
    const ItemType item = itemType(Name, FeatureSize, "FeatureSize", true);
    requireDimension(Name, "NRepeat", NRepeat);
    if (Sz < 1 || std::int64_t(Sz) * item.bytes * NRepeat > 0x7FFFFFFF)
        layerError(Name, "Sz is " + std::to_string(Sz) + "; Sz x FeatureSize x NRepeat must be 1 to 2^31 bytes");
    const unsigned bytes = unsigned(Sz) * unsigned(item.bytes);
    // As the SDK declares it: the input in bands of bytes, each written into a chunk of the repeats.
    UserKernel(Name, KernelIterSpace(2, IterParSpace(KER_ITER_D0, unsigned(NRepeat), 1), IterTiledSpace(KER_ITER_TILE0)),
               TILE_VER, CArgs(2, TCArg(item.pointer(), "In"), TCArg(item.pointer(), "Out")),
               Calls(1, Call("CNN_Repeat_void", LOC_LOOP,
                             Bindings(4, K_Arg("In", KER_ARG_TILE), K_Arg("Out", KER_ARG_TILE),
                                      K_ArgPar("Out", KER_ARG_PARTILE_SIZE, KER_ITER_D0), K_Arg("In", KER_ARG_TILE_W)))),
               KerArgs(2,
                       KerArg("In", KerArgSpace(1, KER_ITER_TILE0), OBJ_IN_DB, bytes, 1, 1, 0, OBJ_CONSTRAINTS_NONE, 8,
                              "In"),
                       KerArg("Out", KerArgSpace(2, KER_ITER_D0, KER_ITER_TILE0), OBJ_OUT_DB, bytes, 1, 1, 0,
                              OBJ_CONSTRAINTS_NONE, 0, "Out")));
    declaredKernel(Name).operations = std::uint64_t(bytes) * unsigned(NRepeat);
    return layer.conclude();
}

int CNN_Norm(const char* Name, int Width, int Height, int DoOffset, KernelOper_T kop)
{
    const bool bw = kop == KOP_NORM_BW || kop == KOP_NORM_BW16;
    if (!bw && kop != KOP_NORM_RGB565 && kop != KOP_NORM_RGB888 && kop != KOP_NORM_RGB16)
        layerError(Name, "kop must be KOP_NORM_RGB565, KOP_NORM_RGB888, KOP_NORM_RGB16, KOP_NORM_BW or KOP_NORM_BW16");
    requireDimension(Name, "Width", Width);
    requireDimension(Name, "Height", Height);
    const unsigned W = unsigned(Width), H = unsigned(Height);
    const bool sixteen = kop == KOP_NORM_RGB16 || kop == KOP_NORM_BW16;
    const char* kernel = kop == KOP_NORM_RGB16   ? "CNN_NormRGB16_fp"
                         : kop == KOP_NORM_BW16  ? "CNN_NormBW_fp"
                         : kop == KOP_NORM_RGB565 ? (DoOffset ? "CNN_NormRGB565_offset_fps" : "CNN_NormRGB565_shift_fps")
                         : kop == KOP_NORM_RGB888 ? (DoOffset ? "CNN_NormRGB888_offset_fps" : "CNN_NormRGB888_shift_fps")
                                                 : (DoOffset ? "CNN_NormBW_offset_fps" : "CNN_NormBW_shift_fps");
    if (!currentModel().findBasicKernel(kernel))
        layerError(Name, std::string("basic kernel ") + kernel + " is not declared; call LoadCNN_Copy_Library() first");
    const char* outType = CNN_ArgDataType(sixteen ? 2 : 1, 1, 1);
    if (bw) {  // As the SDK declares it: the image and the plane tiled by lines.
        LayerDeclaration layer(Name);
        UserKernel(Name, KernelIterSpace(1, IterTiledSpace(KER_ITER_TILE0)), TILE_HOR,
                   CArgs(2, TCArg(CNN_ArgDataTypeUns(1, 1, 1), "In"), TCArg(outType, "Out")),
                   Calls(1, Call(kernel, LOC_LOOP,
                                 Bindings(4, K_Arg("In", KER_ARG_TILE), K_Arg("Out", KER_ARG_TILE),
                                          K_Arg("In", KER_ARG_TILE_W), K_Arg("In", KER_ARG_TILE_H)))),
                   KerArgs(2,
                           KerArg("In", KerArgSpace(1, KER_ITER_TILE0), OBJ_IN_DB, W, H, 1, 0, OBJ_CONSTRAINTS_NONE, 0,
                                  "In"),
                           KerArg("Out", KerArgSpace(1, KER_ITER_TILE0), OBJ_OUT_DB, W, H, sixteen ? 2 : 1, 0,
                                  OBJ_CONSTRAINTS_NONE, 0, "Out")));
        declaredKernel(Name).operations = std::uint64_t(W) * H;
        return layer.conclude();
    }
    // As the SDK declares it: a group of one body kernel, the interleaved image in, the three planes
    // of Out (at 0, W x H and 2 W x H items) out.
    const bool rgb565 = kop == KOP_NORM_RGB565;
    const std::string body = std::string(Name) + "Body";
    const char* inType = CNN_ArgDataTypeUns(rgb565 ? 2 : 1, 1, 1);
    OpenKernelGroup(Name);
    int generated = 0;
    {
        LayerDeclaration layer(body.c_str());
        UserKernel(body.c_str(), KernelIterSpace(1, IterTiledSpace(KER_ITER_TILE0)), TILE_HOR,
                   CArgs(4, TCArg(inType, "In"), TCArg(outType, "Out0"), TCArg(outType, "Out1"), TCArg(outType, "Out2")),
                   Calls(1, Call(kernel, LOC_LOOP,
                                 Bindings(6, K_Arg("In", KER_ARG_TILE), K_Arg("Out0", KER_ARG_TILE),
                                          K_Arg("Out1", KER_ARG_TILE), K_Arg("Out2", KER_ARG_TILE),
                                          K_Arg("Out0", KER_ARG_TILE_W), K_Arg("Out0", KER_ARG_TILE_H)))),
                   KerArgs(4,
                           KerArg("In", KerArgSpace(1, KER_ITER_TILE0), OBJ_IN_DB, rgb565 ? W : 3 * W, H, rgb565 ? 2 : 1,
                                  0, OBJ_CONSTRAINTS_NONE, 0, "In"),
                           KerArg("Out0", KerArgSpace(1, KER_ITER_TILE0), OBJ_OUT_DB, W, H, sixteen ? 2 : 1, 0,
                                  OBJ_CONSTRAINTS_NONE, 0, "Out0"),
                           KerArg("Out1", KerArgSpace(1, KER_ITER_TILE0), OBJ_OUT_DB, W, H, sixteen ? 2 : 1, 0,
                                  OBJ_CONSTRAINTS_NONE, 0, "Out1"),
                           KerArg("Out2", KerArgSpace(1, KER_ITER_TILE0), OBJ_OUT_DB, W, H, sixteen ? 2 : 1, 0,
                                  OBJ_CONSTRAINTS_NONE, 0, "Out2")));
        declaredKernel(body.c_str()).operations = std::uint64_t(W) * H * 3;
        generated = layer.conclude();
    }
    CloseKernelGroup();
    const int plane = int(W * H);
    UserKernelGroup(Name, CArgs(2, TCArg(inType, "In"), TCArg(outType, "Out")),
                    Calls(1, UserKernelCall(body.c_str(), LOC_GROUP,
                                            Bindings(4, C_Arg("In"), C_ArgPlusImmOffset("Out", 0),
                                                     C_ArgPlusImmOffset("Out", plane),
                                                     C_ArgPlusImmOffset("Out", 2 * plane)))));
    return generated;
}

int CNN_Convert(const char* Name, int In_DataSize, int Out_DataSize, int Sz, KernelOper_T kop)
{
    LayerDeclaration layer(Name);
    if (kop == KOP_CONVERT_FL_FP || kop == KOP_CONVERT_FP_FL || kop == KOP_CONVERT_FL_FL)
        layerError(Name, "conversions from or to floating point have no basic kernel of Tessera's; compile the "
                         "SDK's CNN_Copy.c (with its float16 support) for them");
    if (kop != KOP_CONVERT_FP_FP && kop != KOP_CONVERT_FP_FP_ZEROPOINT && kop != KOP_CONVERT_FP_FP_SCALE)
        layerError(Name, "kop must be KOP_CONVERT_FP_FP, KOP_CONVERT_FP_FP_ZEROPOINT or KOP_CONVERT_FP_FP_SCALE");
    const ItemType in = itemType(Name, In_DataSize, "In_DataSize", false);
    const ItemType out = itemType(Name, Out_DataSize, "Out_DataSize", false);
    if (Sz < 1 || Sz > 0x3FFFFFFF)
        layerError(Name, "Sz is " + std::to_string(Sz) + "; give 1 to 2^30 items");
    const unsigned l1 = currentModel().options.l1Size, largest = 2u * unsigned(in.bytes + out.bytes) * 65535u;
    if (Sz > 65535 && l1 > largest)
        layerError(Name, "the L1 budget of " + std::to_string(l1) + " bytes allows chunks of more than 65535 items, "
                         "which the SDK's conversion kernels cannot count; give an L1 budget of at most " +
                         std::to_string(largest) + " bytes");
    const char* kernel = CNN_FindMatchingKernel(kop, KOP_NONE, 1, In_DataSize, 0, 0, 0, Out_DataSize, 0, 0, 0, 0, 1, 1,
                                                nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr);
    if (!kernel)
        layerError(Name, std::string("no basic kernel converts ") + itemCode(In_DataSize) + " items to " +
                             itemCode(Out_DataSize) + " ones with " + CNN_KernelOperImage(kop) +
                             " (call LoadCNN_Copy_Library() first; the zero-point and 8-bit conversions keep the size "
                             "or change it by one byte and the sign with it, the scaled ones take any pair)");
    const bool constants = kop != KOP_CONVERT_FP_FP;
    const std::string inType = in.pointer(), outType = out.pointer();
    // As the SDK declares it: the items a parametric space run in chunks (a multiple of 8 where the
    // budget allows), the constants (8 bytes of Infos) whole in L1.
    UserKernel(Name, KernelIterSpace(2, IterTiledSpace(KER_ITER_TILE0), IterParSpace(KER_ITER_D0, unsigned(Sz), 8)),
               TILE_HOR,
               CArgs(3, TCArg(inType.c_str(), "In"), TCArg(outType.c_str(), "Out"),
                     constants ? TCArg("signed char * __restrict__", "Infos") : AT_NO_C_ARG),
               Calls(1, Call(kernel, LOC_D0,
                             Bindings(5, K_Arg("In", KER_ARG_TILE), K_Arg("Out", KER_ARG_TILE),
                                      K_ArgPar("In", KER_ARG_PARTILE_SIZE, KER_ITER_D0), Imm(1),
                                      constants ? K_Arg("Infos", KER_ARG_TILE) : AT_IGNORE_ARG_BINDING))),
               KerArgs(3,
                       KerArg("In", KerArgSpace(1, KER_ITER_D0), OBJ_IN_DB, 1, 1, unsigned(in.bytes), 0,
                              OBJ_CONSTRAINTS_NONE, 0, "In"),
                       KerArg("Out", KerArgSpace(1, KER_ITER_D0), OBJ_OUT_DB, 1, 1, unsigned(out.bytes), 0,
                              OBJ_CONSTRAINTS_NONE, 0, "Out"),
                       constants ? KerArg("Infos", KerArgSpace(1, KER_ITER_TILE0), O_IN | O_BUFF | O_NTILED, 1, 1, 8, 0,
                                          OBJ_CONSTRAINTS_NONE, 0, "Infos")
                                 : AT_NO_KER_ARG));
    declaredKernel(Name).operations = unsigned(Sz);
    return layer.conclude();
}

int CNN_ConcatLastAxis_Generator(const char* Name, CNN_GenControl_T*, int, int, int, int, int, int, KernelOper_T)
{
    notProvided(Name, "CNN_ConcatLastAxis_Generator");
}

int CNN_SplitLastAxis_Generator(const char* Name, CNN_GenControl_T*, int, int, int, int, int, int, KernelOper_T)
{
    notProvided(Name, "CNN_SplitLastAxis_Generator");
}

}  // extern "C"
