/* Filesystems on the host. The read-only filesystem (readfs) the SDK builds into flash from the
 * application's READFS_FILES holds files by their base names; here they are host files found as
 * at_emul_readfs.h says (TESSERA_READFS_PATH, else the working folder). The host
 * filesystem (hostfs) opens host paths as given. Transfers complete before the call returns. */
#ifndef TESSERA_PI_EMUL_BSP_FS_H
#define TESSERA_PI_EMUL_BSP_FS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../pi_emul_os.h"
#include "at_emul_readfs.h"

typedef enum { PI_FS_READ_ONLY = 0, PI_FS_HOST = 1, PI_FS_LFS = 2 } pi_fs_type_e;
typedef enum { PI_FS_FLAGS_READ = 0, PI_FS_FLAGS_WRITE = 1, PI_FS_FLAGS_APPEND = 2 } pi_fs_flags_e;

struct pi_fs_conf {
    pi_fs_type_e type;
    struct pi_device *flash;
    char *partition_name;
    bool auto_format;
    void *api;
};

typedef struct pi_fs_file_s {
    struct pi_device *fs;
    void *api;
    void *data; /* the host FILE */
    unsigned int size;
    void *fs_data;
} pi_fs_file_t;

typedef struct pi_cl_fs_req_s {
    pi_fs_file_t *file;
    int32_t result;
    int done;
} pi_cl_fs_req_t;

static inline void pi_fs_conf_init(struct pi_fs_conf *conf)
{
    *conf = (struct pi_fs_conf) {0};
    conf->type = PI_FS_READ_ONLY;
}

static inline int32_t pi_fs_mount(struct pi_device *device)
{
    const struct pi_fs_conf *Conf = (const struct pi_fs_conf *) device->config;
    if (!Conf || (Conf->type != PI_FS_READ_ONLY && Conf->type != PI_FS_HOST)) {
        fprintf(stderr, "pmsis emulation: pi_fs_mount: only the read-only and host filesystems are emulated\n");
        return -1;
    }
    device->emul_open = 1;
    return 0;
}
static inline void pi_fs_unmount(struct pi_device *device) { device->emul_open = 0; }

static inline pi_fs_file_t *pi_fs_open(struct pi_device *device, const char *file, int flags)
{
    const struct pi_fs_conf *Conf = (const struct pi_fs_conf *) device->config;
    if (!device->emul_open) {
        fprintf(stderr, "pmsis emulation: pi_fs_open(\"%s\"): the filesystem is not mounted (call pi_fs_mount first)\n", file);
        return 0;
    }
    FILE *Host = 0;
    if (Conf->type == PI_FS_READ_ONLY) {
        if (flags != PI_FS_FLAGS_READ) {
            fprintf(stderr, "pmsis emulation: pi_fs_open(\"%s\"): the read-only filesystem cannot write\n", file);
            return 0;
        }
        Host = AT_EmulReadfsOpen(file);
    } else {
        Host = fopen(file, flags == PI_FS_FLAGS_WRITE ? "wb" : flags == PI_FS_FLAGS_APPEND ? "ab" : "rb");
        if (!Host)
            fprintf(stderr, "pmsis emulation: pi_fs_open(\"%s\"): cannot open the host file\n", file);
    }
    if (!Host)
        return 0;
    pi_fs_file_t *File = (pi_fs_file_t *) calloc(1, sizeof(pi_fs_file_t));
    if (!File) {
        fclose(Host);
        return 0;
    }
    File->fs = device;
    File->data = Host;
    if (flags == PI_FS_FLAGS_READ && fseek(Host, 0, SEEK_END) == 0) {
        const long End = ftell(Host);
        File->size = End > 0 ? (unsigned int) End : 0;
        rewind(Host);
    }
    return File;
}

static inline void pi_fs_close(pi_fs_file_t *file)
{
    if (!file)
        return;
    fclose((FILE *) file->data);
    free(file);
}

static inline int32_t pi_fs_read(pi_fs_file_t *file, void *buffer, uint32_t size)
{
    return (int32_t) fread(buffer, 1, size, (FILE *) file->data);
}
static inline int32_t pi_fs_direct_read(pi_fs_file_t *file, void *buffer, uint32_t size) { return pi_fs_read(file, buffer, size); }
static inline int32_t pi_fs_write(pi_fs_file_t *file, void *buffer, uint32_t size)
{
    return (int32_t) fwrite(buffer, 1, size, (FILE *) file->data);
}
static inline int32_t pi_fs_seek(pi_fs_file_t *file, unsigned int offset)
{
    return fseek((FILE *) file->data, (long) offset, SEEK_SET) == 0 ? 0 : -1;
}

/* size bytes at `index` of the file; in 2-D, lines of `length` bytes `stride` apart in the file.
 * ext2loc: 1 reads into buffer, 0 writes buffer. 0 on success. */
static inline int32_t pi_fs_copy_2d(pi_fs_file_t *file, uint32_t index, void *buffer, uint32_t size, uint32_t stride,
                                    uint32_t length, int32_t ext2loc)
{
    if (length == 0)
        length = size;
    for (uint32_t Done = 0; Done < size; Done += length, index += stride) {
        const uint32_t Chunk = size - Done < length ? size - Done : length;
        if (pi_fs_seek(file, index) != 0)
            return -1;
        const int32_t Moved = ext2loc ? pi_fs_read(file, (char *) buffer + Done, Chunk) : pi_fs_write(file, (char *) buffer + Done, Chunk);
        if (Moved != (int32_t) Chunk)
            return -1;
    }
    return 0;
}
static inline int32_t pi_fs_copy(pi_fs_file_t *file, uint32_t index, void *buffer, uint32_t size, int32_t ext2loc)
{
    return pi_fs_copy_2d(file, index, buffer, size, size, size, ext2loc);
}

static inline int32_t pi_fs_read_async(pi_fs_file_t *file, void *buffer, uint32_t size, pi_task_t *task)
{
    const int32_t Result = pi_fs_read(file, buffer, size);
    pi_task_push(task);
    return Result;
}
static inline int32_t pi_fs_direct_read_async(pi_fs_file_t *file, void *buffer, uint32_t size, pi_task_t *task)
{
    return pi_fs_read_async(file, buffer, size, task);
}
static inline int32_t pi_fs_write_async(pi_fs_file_t *file, void *buffer, uint32_t size, pi_task_t *task)
{
    const int32_t Result = pi_fs_write(file, buffer, size);
    pi_task_push(task);
    return Result;
}
static inline int32_t pi_fs_copy_async(pi_fs_file_t *file, uint32_t index, void *buffer, uint32_t size, int32_t ext2loc, pi_task_t *task)
{
    const int32_t Result = pi_fs_copy(file, index, buffer, size, ext2loc);
    pi_task_push(task);
    return Result;
}
static inline int32_t pi_fs_copy_2d_async(pi_fs_file_t *file, uint32_t index, void *buffer, uint32_t size, uint32_t stride,
                                          uint32_t length, int32_t ext2loc, pi_task_t *task)
{
    const int32_t Result = pi_fs_copy_2d(file, index, buffer, size, stride, length, ext2loc);
    pi_task_push(task);
    return Result;
}

/* From the cluster: the request completes at once; pi_cl_fs_wait returns its result. */
static inline void pi_cl_fs_read(pi_fs_file_t *file, void *buffer, uint32_t size, pi_cl_fs_req_t *req)
{
    *req = (pi_cl_fs_req_t) {file, pi_fs_read(file, buffer, size), 1};
}
static inline void pi_cl_fs_direct_read(pi_fs_file_t *file, void *buffer, uint32_t size, pi_cl_fs_req_t *req)
{
    pi_cl_fs_read(file, buffer, size, req);
}
static inline void pi_cl_fs_write(pi_fs_file_t *file, void *buffer, uint32_t size, pi_cl_fs_req_t *req)
{
    *req = (pi_cl_fs_req_t) {file, pi_fs_write(file, buffer, size), 1};
}
static inline void pi_cl_fs_seek(pi_fs_file_t *file, uint32_t offset, pi_cl_fs_req_t *req)
{
    *req = (pi_cl_fs_req_t) {file, pi_fs_seek(file, offset), 1};
}
static inline void pi_cl_fs_copy(pi_fs_file_t *file, uint32_t index, void *buffer, uint32_t size, int32_t ext2loc, pi_cl_fs_req_t *req)
{
    *req = (pi_cl_fs_req_t) {file, pi_fs_copy(file, index, buffer, size, ext2loc), 1};
}
static inline void pi_cl_fs_copy_2d(pi_fs_file_t *file, uint32_t index, void *buffer, uint32_t size, uint32_t stride,
                                    uint32_t length, int32_t ext2loc, pi_cl_fs_req_t *req)
{
    *req = (pi_cl_fs_req_t) {file, pi_fs_copy_2d(file, index, buffer, size, stride, length, ext2loc), 1};
}
static inline int32_t pi_cl_fs_wait(pi_cl_fs_req_t *req) { return req->result; }

#endif
