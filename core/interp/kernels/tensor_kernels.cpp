#include "interp/kernels/kernels.h"

namespace tessera {

void registerTensorKernels(KernelTable& table)
{
    (void)table;
}

} // namespace tessera
