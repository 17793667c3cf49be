#include "interp/kernels/kernels.h"

namespace tessera {

void registerNnKernels(KernelTable& table)
{
    (void)table;
}

} // namespace tessera
