/* HyperFlash is the flash device of bsp/flash.h. */
#include "../flash.h"
