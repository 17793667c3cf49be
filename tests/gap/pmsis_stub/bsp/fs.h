/* The filesystem calls of the PMSIS board support (declarations only, see ../pmsis.h). */
#ifndef TESSERA_TEST_PMSIS_STUB_BSP_FS_H
#define TESSERA_TEST_PMSIS_STUB_BSP_FS_H

#include "pmsis.h"

typedef struct pi_fs_file_s pi_fs_file_t;
pi_fs_file_t *pi_fs_open(struct pi_device *device, const char *file, int flags);
int32_t pi_fs_seek(pi_fs_file_t *file, unsigned int offset);
int32_t pi_fs_read(pi_fs_file_t *file, void *buffer, uint32_t size);
int32_t pi_fs_write(pi_fs_file_t *file, void *buffer, uint32_t size);
#define PI_FS_FLAGS_WRITE 1
void pi_fs_close(pi_fs_file_t *file);
typedef struct { pi_fs_file_t *file; int done; } pi_cl_fs_req_t;
void pi_cl_fs_copy(pi_fs_file_t *file, uint32_t index, void *buffer, uint32_t size, int ext2loc, pi_cl_fs_req_t *req);
void pi_cl_fs_copy_2d(pi_fs_file_t *file, uint32_t index, void *buffer, uint32_t size, uint32_t stride,
                      uint32_t length, int ext2loc, pi_cl_fs_req_t *req);
int32_t pi_cl_fs_wait(pi_cl_fs_req_t *req);
#endif
