/* Declarations of the PMSIS calls Tessera's GAP runtime headers use, with the signatures of the
 * PMSIS API and split over the SDK's headers as the SDK splits them (the L3 RAM in bsp/ram.h, the
 * filesystems in bsp/fs.h), so tests can check that generated kernels build for GAP without the
 * SDK and that the runtime headers include what they use. Nothing here is implemented: it is only
 * compiled, never linked. */
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

void pi_cl_dma_cmd(uint32_t ext, uint32_t loc, uint32_t size, pi_cl_dma_dir_e dir, pi_cl_dma_cmd_t *cmd);
void pi_cl_dma_cmd_2d(uint32_t ext, uint32_t loc, uint32_t size, uint32_t stride, uint32_t length,
                      pi_cl_dma_dir_e dir, pi_cl_dma_cmd_t *cmd);
void pi_cl_dma_cmd_wait(pi_cl_dma_cmd_t *cmd);

void pi_cl_team_fork(int nb_cores, void (*entry)(void *), void *arg);
void pi_cl_team_barrier(void);
void pi_cl_team_critical_enter(void);
void pi_cl_team_critical_exit(void);
int pi_core_id(void);
#define PI_PERF_CYCLES 1
void pi_perf_conf(unsigned events);
void pi_perf_reset(void);
void pi_perf_start(void);
unsigned int pi_perf_read(int event);
int pi_cl_cluster_nb_pe_cores(void);

void *pi_cl_l1_malloc(struct pi_device *device, uint32_t size);
void pi_cl_l1_free(struct pi_device *device, void *chunk, uint32_t size);
void *pi_l2_malloc(int size);
void pi_l2_free(void *chunk, int size);

#endif
