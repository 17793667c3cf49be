/* Default standard typedef header included by generated kernels (SetUsedFilesNames can name
 * another). */
#ifndef TESSERA_KERNEL_LIB_STD_TYPES_H
#define TESSERA_KERNEL_LIB_STD_TYPES_H
#include "Gap.h"
#endif
