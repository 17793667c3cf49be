/* The board's default devices, as on GAP8 boards: HyperRAM for the RAM, HyperFlash for the flash. */
#ifndef TESSERA_PI_EMUL_BSP_H
#define TESSERA_PI_EMUL_BSP_H

#include "flash.h"
#include "fs.h"
#include "fs/hostfs.h"
#include "fs/readfs.h"
#include "ram.h"

#define pi_default_ram_conf pi_hyperram_conf
#define pi_default_ram_conf_init pi_hyperram_conf_init
#define pi_default_flash_conf pi_hyperflash_conf
#define pi_default_flash_conf_init pi_hyperflash_conf_init

#endif
