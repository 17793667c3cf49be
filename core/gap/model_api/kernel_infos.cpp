// What a model says about a user kernel after declaring it (AddKernelInfos) and the user-kernel
// options under their SDK name (AT_SetKernelCtrl).
#include "AutoTilerLib.h"
#include "builder_support.h"

#include <cstdarg>
#include <cstdint>
#include <string>
#include <vector>

using namespace tessera::gap;
namespace tiler = tessera::tiler;

extern "C" {

void AT_SetKernelCtrl(AT_GraphCtrl_T Ctrl, void* Val)
{
    if (Ctrl != AT_KERNEL_BUFFER_PROMOTE && Ctrl != AT_KERNEL_PARTIAL_BUFFER_PROMOTE && Ctrl != AT_KERNEL_NOSOLUTION_ERROR)
        failModel(format("AT_SetKernelCtrl: option %d is not one of AT_KERNEL_BUFFER_PROMOTE, "
                         "AT_KERNEL_PARTIAL_BUFFER_PROMOTE or AT_KERNEL_NOSOLUTION_ERROR; graph options go to AT_SetGraphCtrl",
                         int(Ctrl)));
    AT_SetGraphCtrl(Ctrl, Val);
}

void AddKernelInfos(const char* Name, AT_KernelInfo_T Info, long long int NumVal, void* Val)
{
    (void) Val;
    const std::string name = requireName(Name, "AddKernelInfos", "the user kernel name");
    tiler::KernelModel& model = currentModel();
    tiler::UserKernel* found = model.findUserKernel(name);
    if (found == nullptr)
        failModel("AddKernelInfos(\"" + name + "\"): no user kernel of that name was declared before");
    if (Info != AT_KERINFO_OPER && Info != AT_KERINFO_BANDWIDTH)
        failModel(format("AddKernelInfos(\"%s\"): information %d is not AT_KERINFO_OPER or AT_KERINFO_BANDWIDTH",
                         name.c_str(), int(Info)));
    if (NumVal < 0)
        failModel(format("AddKernelInfos(\"%s\"): the value %lld is negative", name.c_str(), NumVal));
    if (Info == AT_KERINFO_OPER)
        found->operations = std::uint64_t(NumVal);
}

}  // extern "C"

namespace {

// AddKernelArgDim and AddKernelFloatArgDim: reads the sizes and checks them against the argument.
void addArgDims(const char* call, const char* Name, const char* ArgName, int Dim, va_list sizes, bool floatItems)
{
    const std::string name = requireName(Name, call, "the user kernel name");
    const std::string argName = requireName(ArgName, call, "the argument name");
    const std::string where = format("%s(\"%s\", \"%s\")", call, name.c_str(), argName.c_str());
    tiler::UserKernel* kernel = currentModel().findUserKernel(name);
    if (kernel == nullptr)
        failModel(where + ": no user kernel of that name was declared before");
    tiler::KernelArgument* argument = nullptr;
    for (tiler::KernelArgument& candidate : kernel->args)
        if (candidate.name == argName)
            argument = &candidate;
    if (argument == nullptr)
        failModel(where + ": the user kernel has no argument of that name");
    constexpr int kMostDims = 8;
    if (Dim == 0 || Dim < -1 || Dim > kMostDims)
        failModel(format("%s: %d dimensions; give 1 to %d sizes, the item size last, or -1 and a list ended by 0",
                         where.c_str(), Dim, kMostDims));
    std::vector<unsigned> dims;
    for (int i = 0; Dim == -1 || i < Dim; ++i) {
        const int size = va_arg(sizes, int);
        if (Dim == -1 && size == 0)
            break;
        if (size <= 0)
            failModel(format("%s: size %d is %d; sizes must be positive", where.c_str(), i + 1, size));
        if (int(dims.size()) == kMostDims)
            failModel(format("%s: more than %d sizes before the ending 0", where.c_str(), kMostDims));
        dims.push_back(unsigned(size));
    }
    if (dims.empty())
        failModel(where + ": no sizes before the ending 0; give the item size at least");
    // The last size is the element's; an argument's item may hold several (the SDK's CNN generators
    // declare a filter as one item of Fx x Fy elements), or an element several items (its copy
    // generators declare tensors of 2-byte elements as arguments of bytes).
    if (argument->itemSize % dims.back() != 0 && dims.back() % argument->itemSize != 0)
        failModel(format("%s: the last size, the element's, is %u bytes, which neither divides the argument's "
                         "%u-byte items nor is a whole number of them",
                         where.c_str(), dims.back(), argument->itemSize));
    std::uint64_t bytes = 1;
    for (const unsigned size : dims)
        bytes *= size;
    const std::uint64_t plane = std::uint64_t(argument->width) * argument->height * argument->itemSize;
    if (plane == 0 || bytes % plane != 0)
        failModel(format("%s: the sizes make %llu bytes, not whole planes of %ux%u items of %u bytes; list the "
                         "argument's sizes, outermost first, the element size last",
                         where.c_str(), (unsigned long long) bytes, argument->width, argument->height,
                         argument->itemSize));
    argument->declaredDims = dims;
    argument->floatItems = floatItems;
}

}  // namespace

extern "C" {

void AddKernelArgDim(const char* Name, const char* ArgName, int Dim, ...)
{
    va_list sizes;
    va_start(sizes, Dim);
    addArgDims("AddKernelArgDim", Name, ArgName, Dim, sizes, false);
    va_end(sizes);
}

void AddKernelFloatArgDim(const char* Name, const char* ArgName, int Dim, ...)
{
    va_list sizes;
    va_start(sizes, Dim);
    addArgDims("AddKernelFloatArgDim", Name, ArgName, Dim, sizes, true);
    va_end(sizes);
}

}  // extern "C"
