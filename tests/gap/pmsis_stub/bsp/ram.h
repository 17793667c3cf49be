/* The L3 RAM calls of the PMSIS board support (declarations only, see ../pmsis.h). */
#ifndef TESSERA_TEST_PMSIS_STUB_BSP_RAM_H
#define TESSERA_TEST_PMSIS_STUB_BSP_RAM_H

#include "pmsis.h"

typedef struct { struct pi_device *device; void *addr; uint32_t size; int done; } pi_cl_ram_req_t;

void pi_cl_ram_copy(struct pi_device *device, uint32_t pi_ram_addr, void *addr, uint32_t size, int ext2loc,
                    pi_cl_ram_req_t *req);
void pi_cl_ram_copy_2d(struct pi_device *device, uint32_t pi_ram_addr, void *addr, uint32_t size, uint32_t stride,
                       uint32_t length, int ext2loc, pi_cl_ram_req_t *req);
void pi_cl_ram_copy_wait(pi_cl_ram_req_t *req);
int32_t pi_ram_alloc(struct pi_device *device, uint32_t *addr, uint32_t size);
int32_t pi_ram_free(struct pi_device *device, uint32_t addr, uint32_t size);
void pi_ram_write(struct pi_device *device, uint32_t pi_ram_addr, void *addr, uint32_t size);
void pi_ram_read(struct pi_device *device, uint32_t pi_ram_addr, void *addr, uint32_t size);

#endif
