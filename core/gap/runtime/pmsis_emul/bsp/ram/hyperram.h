/* HyperRAM is the emulated L3 RAM of bsp/ram.h. */
#include "../ram.h"
