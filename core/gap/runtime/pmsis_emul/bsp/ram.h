/* The L3 RAM (HyperRAM on GAP8 boards) on the host: an arena of PI_EMUL_RAM_SIZE bytes below 4 GiB
 * (pi_emul_memory.h). Addresses are uint32_t as on the chip, and are valid host pointers, so
 * generated kernels given an L3 address copy from it directly. Every access must lie inside one
 * allocated block; transfers complete before the call returns. */
#ifndef TESSERA_PI_EMUL_BSP_RAM_H
#define TESSERA_PI_EMUL_BSP_RAM_H

#include <string.h>

#include "../pi_emul_memory.h"
#include "../pi_emul_os.h"

struct pi_ram_conf {
    void *api;
};

/* HyperRAM's configuration, which the boards' default RAM is. */
struct pi_hyperram_conf {
    struct pi_ram_conf ram;
    int hyper_itf;
    int hyper_cs;
    int xip_en;
    uint32_t ram_start;
    uint32_t ram_size;
    int skip_pads_config;
    int reserve_addr_0;
};
static inline void pi_hyperram_conf_init(struct pi_hyperram_conf *conf)
{
    *conf = (struct pi_hyperram_conf) {0};
    conf->ram_size = PI_EMUL_RAM_SIZE;
}

typedef struct pi_cl_ram_req_s {
    struct pi_device *device;
    void *addr;
    uint32_t size;
    int done;
} pi_cl_ram_req_t;

static inline int32_t pi_ram_open(struct pi_device *device)
{
    device->emul_open = 1;
    return 0;
}
static inline void pi_ram_close(struct pi_device *device) { device->emul_open = 0; }

static inline int pi_ram_alloc(struct pi_device *device, uint32_t *addr, uint32_t size)
{
    if (!device->emul_open) {
        fprintf(stderr, "pmsis emulation: pi_ram_alloc: the RAM device is not open (call pi_ram_open first)\n");
        return -1;
    }
    char *Block = (char *) PiEmulAlloc(&PiEmulRam, size);
    if (!Block)
        return -1;
    *addr = (uint32_t) (uintptr_t) Block;
    return 0;
}
static inline int pi_ram_free(struct pi_device *device, uint32_t addr, uint32_t size)
{
    (void) device;
    PiEmulFree(&PiEmulRam, (void *) (uintptr_t) addr, size, "pi_ram_free");
    return 0;
}

/* size bytes; in 2-D, lines of `length` bytes `stride` bytes apart in the RAM, packed locally.
 * ext2loc: 1 reads the RAM into data, 0 writes data to the RAM. */
static inline void PiEmulRamCopy(uint32_t pi_ram_addr, void *data, uint32_t size, uint32_t stride, uint32_t length,
                                 int ext2loc, const char *Call)
{
    if (length == 0)
        length = size;
    for (uint32_t Done = 0; Done < size; Done += length, pi_ram_addr += stride) {
        const uint32_t Chunk = size - Done < length ? size - Done : length;
        char *Ram = PiEmulInside(&PiEmulRam, pi_ram_addr, Chunk, Call);
        if (ext2loc)
            memcpy((char *) data + Done, Ram, Chunk);
        else
            memcpy(Ram, (char *) data + Done, Chunk);
    }
}

static inline void pi_ram_copy(struct pi_device *device, uint32_t pi_ram_addr, void *data, uint32_t size, int ext2loc)
{
    (void) device;
    PiEmulRamCopy(pi_ram_addr, data, size, size, size, ext2loc, ext2loc ? "pi_ram_read" : "pi_ram_write");
}
static inline void pi_ram_copy_2d(struct pi_device *device, uint32_t pi_ram_addr, void *data, uint32_t size,
                                  uint32_t stride, uint32_t length, int ext2loc)
{
    (void) device;
    PiEmulRamCopy(pi_ram_addr, data, size, stride, length, ext2loc, ext2loc ? "pi_ram_read_2d" : "pi_ram_write_2d");
}
static inline void pi_ram_read(struct pi_device *device, uint32_t pi_ram_addr, void *data, uint32_t size)
{
    pi_ram_copy(device, pi_ram_addr, data, size, 1);
}
static inline void pi_ram_write(struct pi_device *device, uint32_t pi_ram_addr, void *data, uint32_t size)
{
    pi_ram_copy(device, pi_ram_addr, data, size, 0);
}
static inline void pi_ram_read_2d(struct pi_device *device, uint32_t pi_ram_addr, void *data, uint32_t size,
                                  uint32_t stride, uint32_t length)
{
    pi_ram_copy_2d(device, pi_ram_addr, data, size, stride, length, 1);
}
static inline void pi_ram_write_2d(struct pi_device *device, uint32_t pi_ram_addr, void *data, uint32_t size,
                                   uint32_t stride, uint32_t length)
{
    pi_ram_copy_2d(device, pi_ram_addr, data, size, stride, length, 0);
}
static inline void pi_ram_copy_async(struct pi_device *device, uint32_t pi_ram_addr, void *data, uint32_t size,
                                     int ext2loc, pi_task_t *task)
{
    pi_ram_copy(device, pi_ram_addr, data, size, ext2loc);
    pi_task_push(task);
}
static inline void pi_ram_copy_2d_async(struct pi_device *device, uint32_t pi_ram_addr, void *data, uint32_t size,
                                        uint32_t stride, uint32_t length, int ext2loc, pi_task_t *task)
{
    pi_ram_copy_2d(device, pi_ram_addr, data, size, stride, length, ext2loc);
    pi_task_push(task);
}
static inline void pi_ram_read_async(struct pi_device *device, uint32_t pi_ram_addr, void *data, uint32_t size, pi_task_t *task)
{
    pi_ram_copy_async(device, pi_ram_addr, data, size, 1, task);
}
static inline void pi_ram_write_async(struct pi_device *device, uint32_t pi_ram_addr, void *data, uint32_t size, pi_task_t *task)
{
    pi_ram_copy_async(device, pi_ram_addr, data, size, 0, task);
}

/* From the cluster: the request completes at once; the waits return. */
static inline void pi_cl_ram_copy(struct pi_device *device, uint32_t pi_ram_addr, void *addr, uint32_t size,
                                  int ext2loc, pi_cl_ram_req_t *req)
{
    pi_ram_copy(device, pi_ram_addr, addr, size, ext2loc);
    *req = (pi_cl_ram_req_t) {device, addr, size, 1};
}
static inline void pi_cl_ram_copy_2d(struct pi_device *device, uint32_t pi_ram_addr, void *addr, uint32_t size,
                                     uint32_t stride, uint32_t length, int ext2loc, pi_cl_ram_req_t *req)
{
    pi_ram_copy_2d(device, pi_ram_addr, addr, size, stride, length, ext2loc);
    *req = (pi_cl_ram_req_t) {device, addr, size, 1};
}
static inline void pi_cl_ram_read(struct pi_device *device, uint32_t pi_ram_addr, void *addr, uint32_t size, pi_cl_ram_req_t *req)
{
    pi_cl_ram_copy(device, pi_ram_addr, addr, size, 1, req);
}
static inline void pi_cl_ram_write(struct pi_device *device, uint32_t pi_ram_addr, void *addr, uint32_t size, pi_cl_ram_req_t *req)
{
    pi_cl_ram_copy(device, pi_ram_addr, addr, size, 0, req);
}
static inline void pi_cl_ram_read_2d(struct pi_device *device, uint32_t pi_ram_addr, void *addr, uint32_t size,
                                     uint32_t stride, uint32_t length, pi_cl_ram_req_t *req)
{
    pi_cl_ram_copy_2d(device, pi_ram_addr, addr, size, stride, length, 1, req);
}
static inline void pi_cl_ram_write_2d(struct pi_device *device, uint32_t pi_ram_addr, void *addr, uint32_t size,
                                      uint32_t stride, uint32_t length, pi_cl_ram_req_t *req)
{
    pi_cl_ram_copy_2d(device, pi_ram_addr, addr, size, stride, length, 0, req);
}
static inline void pi_cl_ram_copy_wait(pi_cl_ram_req_t *req) { (void) req; }
static inline void pi_cl_ram_read_wait(pi_cl_ram_req_t *req) { (void) req; }
static inline void pi_cl_ram_write_wait(pi_cl_ram_req_t *req) { (void) req; }

#endif
