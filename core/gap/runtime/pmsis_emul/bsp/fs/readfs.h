/* The read-only filesystem: host files found through TESSERA_READFS_PATH (bsp/fs.h). */
#ifndef TESSERA_PI_EMUL_BSP_READFS_H
#define TESSERA_PI_EMUL_BSP_READFS_H

#include "../fs.h"

struct pi_readfs_conf {
    struct pi_fs_conf fs;
};
static inline void pi_readfs_conf_init(struct pi_readfs_conf *conf)
{
    pi_fs_conf_init(&conf->fs);
    conf->fs.type = PI_FS_READ_ONLY;
}

#endif
