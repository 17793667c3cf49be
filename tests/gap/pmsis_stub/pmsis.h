/* Declarations of the PMSIS calls Tessera's GAP runtime headers use, with the signatures of the
 * PMSIS API, so tests can check that generated kernels build for GAP without the SDK. Nothing
 * here is implemented: it is only compiled, never linked. */
#ifndef TESSERA_TEST_PMSIS_STUB_H
#define TESSERA_TEST_PMSIS_STUB_H

#include <stdint.h>

#define PI_CL_L1 __attribute__((section(".l1cl")))
#define PI_L2 __attribute__((section(".l2")))

struct pi_device {
    void *config;
    void *data;
};

typedef enum { PI_CL_DMA_DIR_LOC2EXT = 0, PI_CL_DMA_DIR_EXT2LOC = 1 } pi_cl_dma_dir_e;
typedef struct { uint32_t id; uint32_t size; } pi_cl_dma_cmd_t;
typedef struct { struct pi_device *device; void *addr; uint32_t size; int done; } pi_cl_ram_req_t;

void pi_cl_dma_cmd(uint32_t ext, uint32_t loc, uint32_t size, pi_cl_dma_dir_e dir, pi_cl_dma_cmd_t *cmd);
void pi_cl_dma_cmd_2d(uint32_t ext, uint32_t loc, uint32_t size, uint32_t stride, uint32_t length,
                      pi_cl_dma_dir_e dir, pi_cl_dma_cmd_t *cmd);
void pi_cl_dma_cmd_wait(pi_cl_dma_cmd_t *cmd);

void pi_cl_ram_copy(struct pi_device *device, uint32_t pi_ram_addr, void *addr, uint32_t size, int ext2loc,
                    pi_cl_ram_req_t *req);
void pi_cl_ram_copy_2d(struct pi_device *device, uint32_t pi_ram_addr, void *addr, uint32_t size, uint32_t stride,
                       uint32_t length, int ext2loc, pi_cl_ram_req_t *req);
void pi_cl_ram_copy_wait(pi_cl_ram_req_t *req);
int32_t pi_ram_alloc(struct pi_device *device, uint32_t *addr, uint32_t size);
int32_t pi_ram_free(struct pi_device *device, uint32_t addr, uint32_t size);
void pi_ram_write(struct pi_device *device, uint32_t pi_ram_addr, void *addr, uint32_t size);
void pi_ram_read(struct pi_device *device, uint32_t pi_ram_addr, void *addr, uint32_t size);

void pi_cl_team_fork(int nb_cores, void (*entry)(void *), void *arg);
void pi_cl_team_barrier(void);
int pi_core_id(void);
#define PI_PERF_CYCLES 1
unsigned int pi_perf_read(int event);
int pi_cl_cluster_nb_pe_cores(void);

void *pi_cl_l1_malloc(struct pi_device *device, uint32_t size);
void pi_cl_l1_free(struct pi_device *device, void *chunk, uint32_t size);
void *pi_l2_malloc(int size);
typedef struct pi_fs_file_s pi_fs_file_t;
pi_fs_file_t *pi_fs_open(struct pi_device *device, const char *file, int flags);
int pi_fs_seek(pi_fs_file_t *file, unsigned int offset);
int pi_fs_read(pi_fs_file_t *file, void *buffer, uint32_t size);
int pi_fs_write(pi_fs_file_t *file, void *buffer, uint32_t size);
#define PI_FS_FLAGS_WRITE 1
void pi_fs_close(pi_fs_file_t *file);
typedef struct { pi_fs_file_t *file; int done; } pi_cl_fs_req_t;
void pi_cl_fs_copy(pi_fs_file_t *file, uint32_t index, void *buffer, uint32_t size, int ext2loc, pi_cl_fs_req_t *req);
void pi_cl_fs_copy_2d(pi_fs_file_t *file, uint32_t index, void *buffer, uint32_t size, uint32_t stride,
                      uint32_t length, int ext2loc, pi_cl_fs_req_t *req);
int pi_cl_fs_wait(pi_cl_fs_req_t *req);
void pi_l2_free(void *chunk, int size);

#endif
