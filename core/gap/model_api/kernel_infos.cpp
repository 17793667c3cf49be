// What a model says about a user kernel after declaring it (AddKernelInfos) and the user-kernel
// options under their SDK name (AT_SetKernelCtrl).
#include "AutoTilerLib.h"
#include "builder_support.h"

#include <cstdint>

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
