/* The host filesystem (through the debug bridge on the chip): host paths as given (bsp/fs.h). */
#ifndef TESSERA_PI_EMUL_BSP_HOSTFS_H
#define TESSERA_PI_EMUL_BSP_HOSTFS_H

#include "../fs.h"

struct pi_hostfs_conf {
    struct pi_fs_conf fs;
};
static inline void pi_hostfs_conf_init(struct pi_hostfs_conf *conf)
{
    pi_fs_conf_init(&conf->fs);
    conf->fs.type = PI_FS_HOST;
}

#endif
