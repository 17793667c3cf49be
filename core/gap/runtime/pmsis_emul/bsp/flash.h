/* The flash device on the host: it only carries the read-only filesystem (bsp/fs.h), whose files
 * are host files; raw flash reads and writes are not emulated. */
#ifndef TESSERA_PI_EMUL_BSP_FLASH_H
#define TESSERA_PI_EMUL_BSP_FLASH_H

#include "../pi_emul_os.h"

struct pi_flash_conf {
    void *api;
};

/* HyperFlash's configuration, which the boards' default flash is. */
struct pi_hyperflash_conf {
    struct pi_flash_conf flash;
    int hyper_itf;
    int hyper_cs;
    int xip_en;
};
static inline void pi_hyperflash_conf_init(struct pi_hyperflash_conf *conf) { *conf = (struct pi_hyperflash_conf) {0}; }

static inline int pi_flash_open(struct pi_device *device)
{
    device->emul_open = 1;
    return 0;
}
static inline void pi_flash_close(struct pi_device *device) { device->emul_open = 0; }

#endif
