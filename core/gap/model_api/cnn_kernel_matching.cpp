// The SDK's choice of CNN basic kernels by what they compute: CNN_Type, CNN_OperList and CNN_Match
// describe a basic kernel when a library declares it (LibKernel's fifth argument);
// CNN_FindMatchingKernel(Attr) returns, for a layer's operation, operand sizes and filter, the name of
// the kernel to call. GreenWaves' CNN generator libraries choose all their basic kernels this way.
// Also the operations' names (CNN_KernelOperImage) and composite operations (CNN_CompositeKernel).
// AutoTilerLib.h states the matching rules.
#include "AutoTilerLib.h"
#include "builder_support.h"

#include <algorithm>
#include <cstdarg>
#include <iterator>
#include <string_view>

using namespace tessera::gap;
namespace tiler = tessera::tiler;

namespace {

// KernelOper_T's names, in the order of its declaration in AutoTilerLibTypes.h (tst_gap_cnn_library_api
// reads that header to check this table).
constexpr const char* kOperationNames[] = {
    "KOP_NONE", "KOP_CONV", "KOP_CONV_DP", "KOP_CONV_DW", "KOP_MAXPOOL", "KOP_AVGPOOL", "KOP_RELU",
    "KOP_LINEAR", "KOP_SOFTMAX", "KOP_GLOBAL_AVGPOOL", "KOP_MATADD", "KOP_MATADD_RELU", "KOP_MATMUL",
    "KOP_RELUN", "KOP_MATSUB", "KOP_MATSUB_RELU", "KOP_SETBIAS", "KOP_SETBIAS_DP", "KOP_CONV_HWCE",
    "KOP_CONV1D", "KOP_CONV1D_DP", "KOP_CONV_DWDP", "KOP_MM_CONV", "KOP_MM_CONV_DW", "KOP_MM_CONV1D",
    "KOP_DP_REDUCT", "KOP_DP_REDUCT_NOSCALE", "KOP_DP_REDUCT_CHW2HWC", "KOP_DP_REDUCT_IO",
    "KOP_DP_REDUCT_IO_NOSCALE", "KOP_DP_REDUCT_MULBIAS", "KOP_DP_REDUCT_IO_MULBIAS",
    "KOP_DP_REDUCT_MULBIAS_SCALAR", "KOP_DP_REDUCT_IO_MULBIAS_SCALAR", "KOP_GLOBAL_MAXPOOL",
    "KOP_GLOBAL_MAXPOOL_REDUCT", "KOP_GLOBAL_AVGPOOL_REDUCT", "KOP_GLOBAL_SUMPOOL", "KOP_GLOBAL_SUMPOOL_REDUCT",
    "KOP_SCALE", "KOP_ACT_NONE", "KOP_RELUM", "KOP_RELUMN", "KOP_HSIGMOID", "KOP_HTANH", "KOP_HSWISH",
    "KOP_LEAKYRELU", "KOP_SIGMOID", "KOP_TANH", "KOP_SWISH", "KOP_LINEAR_DP", "KOP_DP_REDUCT_LINEAR",
    "KOP_MATADD_DYNADJUST", "KOP_MATMUL_NOBIAS", "KOP_MATMUL_SM1", "KOP_MATMUL_SCALE",
    "KOP_MATMUL_SCALE_SCALAR", "KOP_MATMUL_NOBIAS_SCALE_SCALAR", "KOP_MATMUL_TRANSPOSED",
    "KOP_MATMUL_NOBIAS_TRANSPOSED", "KOP_MATMUL_SCALE_SCALAR_TRANSPOSED",
    "KOP_MATMUL_NOBIAS_SCALE_SCALAR_TRANSPOSED", "KOP_MATMUL_SCALE_SM1", "KOP_MATMUL_SCALE_SCALAR_SM1",
    "KOP_MATSCALE_VECTOR", "KOP_MATSCALE_SCALAR", "KOP_MATSCALE_VECTOR_SCALAR", "KOP_MATVECTMUL",
    "KOP_MATTRANSP", "KOP_MATPERM_CHW2CWH", "KOP_MATPERM_CHW2HWC", "KOP_MATPERM_CHW2WHC", "KOP_MATPERM_CHW2WCH",
    "KOP_MATPERM_CHW2HCW", "KOP_MATPERM_HWC2HCW", "KOP_MATPERM_HWC2WCH", "KOP_MATPERM_HWC2WHC",
    "KOP_MATPERM_HWC2CHW", "KOP_MATPERM_HWC2CWH", "KOP_EXPAND", "KOP_COLLAPSE", "KOP_COPY", "KOP_CONCAT",
    "KOP_SPLIT", "KOP_RNN", "KOP_LSTM", "KOP_GRU", "KOP_CONV_RELU", "KOP_CONV_RELUN", "KOP_CONV_MAXPOOL",
    "KOP_CONV_MAXPOOL_RELU", "KOP_CONV_MAXPOOL_RELUN", "KOP_CONV_AVGPOOL", "KOP_CONV_AVGPOOL_RELU",
    "KOP_CONV_AVGPOOL_RELUN", "KOP_CONV_DP_RELU", "KOP_CONV_DP_RELUN", "KOP_CONV_DP_MAXPOOL",
    "KOP_CONV_DP_MAXPOOL_RELU", "KOP_CONV_DP_MAXPOOL_RELUN", "KOP_CONV_DP_AVGPOOL", "KOP_CONV_DP_AVGPOOL_RELU",
    "KOP_CONV_DP_AVGPOOL_RELUN", "KOP_CONV_DW_RELU", "KOP_CONV_DW_RELUN", "KOP_CONV_DW_MAXPOOL",
    "KOP_CONV_DW_MAXPOOL_RELU", "KOP_CONV_DW_MAXPOOL_RELUN", "KOP_CONV_DW_AVGPOOL", "KOP_CONV_DW_AVGPOOL_RELU",
    "KOP_CONV_DW_AVGPOOL_RELUN", "KOP_CONV_DWDP_RELU", "KOP_CONV_DWDP_RELUN", "KOP_CONV_DWDP_MAXPOOL",
    "KOP_CONV_DWDP_MAXPOOL_RELU", "KOP_CONV_DWDP_MAXPOOL_RELUN", "KOP_CONV_DWDP_AVGPOOL",
    "KOP_CONV_DWDP_AVGPOOL_RELU", "KOP_CONV_DWDP_AVGPOOL_RELUN", "KOP_MAXPOOL_RELU", "KOP_MAXPOOL_RELUN",
    "KOP_AVGPOOL_RELU", "KOP_AVGPOOL_RELUN", "KOP_LINEAR_RELU", "KOP_LINEAR_RELUN", "KOP_MATADD_RELUN",
    "KOP_MATMUL_RELU", "KOP_MATMUL_RELUN", "KOP_ACT_NONE_IN_SCALE", "KOP_RELU_IN_SCALE", "KOP_RELUN_IN_SCALE",
    "KOP_RELUM_IN_SCALE", "KOP_RELUMN_IN_SCALE", "KOP_HSIGMOID_IN_SCALE", "KOP_HTANH_IN_SCALE",
    "KOP_HSWISH_IN_SCALE", "KOP_LEAKYRELU_IN_SCALE", "KOP_SIGMOID_IN_SCALE", "KOP_TANH_IN_SCALE",
    "KOP_SWISH_IN_SCALE", "KOP_DP_REDUCT_UNSIGNED", "KOP_NORM_RGB565", "KOP_NORM_RGB888", "KOP_NORM_RGB16",
    "KOP_NORM_BW", "KOP_NORM_BW16", "KOP_CONVERT_FL_FL", "KOP_CONVERT_FP_FP", "KOP_CONVERT_FP_FP_ZEROPOINT",
    "KOP_CONVERT_FP_FP_SCALE", "KOP_CONVERT_FL_FP", "KOP_CONVERT_FP_FL", "KOP_CUSTOM"
};
static_assert(std::size(kOperationNames) == std::size_t(KOP_LAST), "one name per KernelOper_T value");

bool lists(const std::vector<KernelOper_T>& operations, KernelOper_T wanted)
{
    return std::find(operations.begin(), operations.end(), wanted) != operations.end();
}

// How well a kernel written for `offered` serves a layer asking `asked` (the x value `askedX` for a
// -2): -1 not at all, 0 it takes the value as an argument, 1 it is written for it.
int fit(int offered, int asked, int askedX)
{
    if (offered == 0 || asked == 0)  // not a filter value of the kernel, or the layer has none
        return 1;
    if (offered == -1)
        return 0;
    if (offered == -2)
        return asked == askedX ? 0 : -1;
    return offered == asked ? 1 : -1;
}

char* findMatchingKernel(KernelOper_T first, KernelOper_T second, int parallelFeatures,
                         unsigned int attributes, const std::array<int, 5>& sizes, const std::array<int, 6>& filter,
                         const std::array<int*, 6>& needs, int* argCount)
{
    const ModelRegistry::MatchableKernel* best = nullptr;
    int bestScore = -1;
    std::array<bool, 6> bestNeeds{};
    for (const ModelRegistry::MatchableKernel& kernel : registry().matchableKernels) {
        const CNN_LayerOp_S& match = *kernel.match;
        const bool splitsAsAsked =
            match.parallelFeatures < 0 || match.parallelFeatures == (parallelFeatures != 0 ? 1 : 0);
        if (unsigned(kernel.attributes) != attributes || !splitsAsAsked || !lists(match.primary, first))
            continue;
        if (match.secondary.empty() ? second != KOP_NONE : !lists(match.secondary, second))
            continue;
        bool sizesFit = true;
        for (std::size_t k = 0; k < sizes.size(); ++k)
            sizesFit = sizesFit && (match.operandSizes[k] == 0 || sizes[k] == 0 || match.operandSizes[k] == sizes[k]);
        if (!sizesFit)
            continue;
        int score = 0;
        std::array<bool, 6> kernelNeeds{};
        for (std::size_t k = 0; k < filter.size() && score >= 0; ++k) {
            const int askedX = filter[k & ~std::size_t(1)];  // Fx for Fy, Dx for Dy, Sx for Sy
            const int f = fit(match.geometry[k], filter[k], askedX);
            score = f < 0 ? -1 : score + f;
            kernelNeeds[k] = f == 0;
        }
        if (score > bestScore) {  // ties keep the first declared
            best = &kernel;
            bestScore = score;
            bestNeeds = kernelNeeds;
        }
    }
    for (std::size_t k = 0; k < needs.size(); ++k)
        if (needs[k] != nullptr)
            *needs[k] = best != nullptr && bestNeeds[k] ? 1 : 0;
    if (argCount != nullptr) {
        const tiler::BasicKernel* kernel = best != nullptr ? currentModel().findBasicKernel(best->name) : nullptr;
        *argCount = kernel != nullptr ? int(kernel->args.size()) : 0;
    }
    return best != nullptr ? registry().arena.makeString(best->name) : nullptr;
}

}  // namespace

extern "C" {

int* CNN_Type(int I1, int I2, int I3, int I4, int O)
{
    for (const int size : {I1, I2, I3, I4, O})
        if (size < -4 || size > 4 || size == 3 || size == -3)
            failModel(format("CNN_Type(%d, %d, %d, %d, %d): an operand size is 1, 2 or 4 bytes (negative for "
                             "unsigned), or 0 for any",
                             I1, I2, I3, I4, O));
    return registry().arena.make(std::array<int, 5>{I1, I2, I3, I4, O})->data();
}

KernelOper_T* CNN_OperList(int N, ...)
{
    if (N < 1 || N > 64)
        failModel(format("CNN_OperList(%d, ...): give 1 to 64 operations", N));
    std::vector<KernelOper_T> operations;
    va_list args;
    va_start(args, N);
    for (int i = 0; i < N; ++i) {
        const int operation = va_arg(args, int);  // enums are passed as int
        if (operation < 0 || operation >= int(KOP_LAST)) {
            va_end(args);
            failModel(format("CNN_OperList(%d, ...): operation %d has value %d, which is no KOP_* operation", N, i + 1,
                             operation));
        }
        operations.push_back(KernelOper_T(operation));
    }
    va_end(args);
    operations.push_back(KOP_LAST);  // the end, for CNN_Match
    return registry().arena.make(std::move(operations))->data();
}

CNN_LayerOp_T* CNN_Match(KernelOper_T* KerOper1, KernelOper_T* KerOper2, int ParFeat, int* OpType, int Fx, int Fy,
                         int Dx, int Dy, int Sx, int Sy)
{
    if (KerOper1 == nullptr)
        failModel("CNN_Match(NULL, ...): a basic kernel performs at least one operation; pass "
                  "CNN_OperList(1, KOP_...)");
    CNN_LayerOp_S match;
    for (const KernelOper_T* op = KerOper1; *op != KOP_LAST; ++op)
        match.primary.push_back(*op);
    for (const KernelOper_T* op = KerOper2; op != nullptr && *op != KOP_LAST; ++op)
        match.secondary.push_back(*op);
    match.parallelFeatures = ParFeat < 0 ? -1 : ParFeat != 0 ? 1 : 0;
    if (OpType != nullptr)
        std::copy(OpType, OpType + 5, match.operandSizes.begin());
    match.geometry = {Fx, Fy, Dx, Dy, Sx, Sy};
    const char* names[] = {"Fx", "Fy", "Dx", "Dy", "Sx", "Sy"};
    for (std::size_t k = 0; k < match.geometry.size(); ++k) {
        const int value = match.geometry[k];
        if (value < -2 || (value == -2 && k % 2 == 0))
            failModel(format("CNN_Match(%s, ...): %s is %d; give a size, 0 (none), -1 (any)%s",
                             CNN_KernelOperImage(match.primary.front()), names[k], value,
                             k % 2 == 1 ? " or -2 (any, equal to the x one)" : ""));
    }
    return registry().arena.make(std::move(match));
}

char* CNN_FindMatchingKernel(KernelOper_T KerOper1, KernelOper_T KerOper2, int ParallelOutFeat, int I1Size,
                             int I2Size, int I3Size, int I4Size, int OSize, int FX, int FY, int DX, int DY, int SX,
                             int SY, int* NeedFx, int* NeedFy, int* NeedDx, int* NeedDy, int* NeedSx, int* NeedSy,
                             int* ArgCount)
{
    return findMatchingKernel(KerOper1, KerOper2, ParallelOutFeat, 0,
                              {I1Size, I2Size, I3Size, I4Size, OSize}, {FX, FY, DX, DY, SX, SY},
                              {NeedFx, NeedFy, NeedDx, NeedDy, NeedSx, NeedSy}, ArgCount);
}

char* CNN_FindMatchingKernelAttr(KernelOper_T KerOper1, KernelOper_T KerOper2, int ParallelOutFeat,
                                 unsigned int Attr, int I1Size, int I2Size, int I3Size, int I4Size, int OSize,
                                 int FX, int FY, int DX, int DY, int SX, int SY, int* NeedFx, int* NeedFy,
                                 int* NeedDx, int* NeedDy, int* NeedSx, int* NeedSy, int* ArgCount)
{
    if ((Attr & ~unsigned(int(CALL_FLOAT_KER) | int(CALL_HWC_KER))) != 0)
        failModel(format("CNN_FindMatchingKernelAttr(%s, ...): attributes 0x%x are not CALL_FLOAT_KER and/or "
                         "CALL_HWC_KER",
                         CNN_KernelOperImage(KerOper1), Attr));
    return findMatchingKernel(KerOper1, KerOper2, ParallelOutFeat, Attr,
                              {I1Size, I2Size, I3Size, I4Size, OSize}, {FX, FY, DX, DY, SX, SY},
                              {NeedFx, NeedFy, NeedDx, NeedDy, NeedSx, NeedSy}, ArgCount);
}

char* CNN_KernelOperImage(KernelOper_T Op)
{
    static char unknown[] = "KOP_?";
    if (int(Op) < 0 || int(Op) >= int(KOP_LAST))
        return unknown;
    return const_cast<char*>(kOperationNames[int(Op)]);
}

KernelOper_T CNN_CompositeKernel(KernelOper_T K1, KernelOper_T K2, KernelOper_T K3)
{
    std::string name = CNN_KernelOperImage(K1);
    for (const KernelOper_T next : {K2, K3})
        if (next != KOP_NONE)
            name += std::string_view(CNN_KernelOperImage(next)).substr(3);  // "_RELU" of "KOP_RELU"
    for (int op = 0; op < int(KOP_LAST); ++op)
        if (name == kOperationNames[op])
            return KernelOper_T(op);
    return K1;
}

}  // extern "C"
