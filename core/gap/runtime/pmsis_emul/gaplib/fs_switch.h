/* The SDK's file switch (gaplib/fs_switch.h) on the host: the names SDK applications read their
 * inputs and write their outputs with, whether they run on the chip (the debug bridge's host
 * filesystem) or here. On the host a file is a POSIX file descriptor:
 *   __FS_INIT(Fs) / __FS_DEINIT(Fs)         nothing to mount;
 *   __OPEN_READ(Fs, Name) / __OPEN_WRITE    the file, or 0 when it cannot be opened (the reason on
 *                                           stderr; applications test the result against 0, as
 *                                           for the chip's NULL file); writing truncates;
 *   __READ / __WRITE(File, Buffer, Length)  bytes moved, all of them unless the file ends or fails;
 *   __WRITEATCLUSTER(File, Position, ...)   a write at that position, as the cluster does;
 *   __SEEK, __CLOSE;
 *   __ALLOC_L2 / __FREE_L2                  the emulated L2 (addresses the DMA can reach). */
#ifndef TESSERA_PI_EMUL_FS_SWITCH_H
#define TESSERA_PI_EMUL_FS_SWITCH_H

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "../pmsis.h"

/* Room the SDK's applications leave for a PPM header they write. */
#define PPM_HEADER 40

typedef int switch_fs_t;
typedef int switch_file_t;
#define __int_ssize_t ssize_t

static inline switch_file_t TesseraSwitchOpen(const char *Name, int Write)
{
    const int File = Write ? open(Name, O_WRONLY | O_CREAT | O_TRUNC, 0644) : open(Name, O_RDONLY);
    if (File < 0) {
        fprintf(stderr, "fs_switch: cannot open %s for %s: %s\n", Name, Write ? "writing" : "reading", strerror(errno));
        return 0;
    }
    return File;
}

/* A transfer of Length bytes, continued after short reads or writes until done, the end of the
 * file or an error. */
static inline ssize_t TesseraSwitchTransfer(switch_file_t File, void *Buffer, size_t Length, int Write)
{
    size_t Done = 0;
    while (Done < Length) {
        const ssize_t Moved = Write ? write(File, (const char *) Buffer + Done, Length - Done)
                                    : read(File, (char *) Buffer + Done, Length - Done);
        if (Moved < 0 && errno == EINTR)
            continue;
        if (Moved <= 0)
            break;
        Done += (size_t) Moved;
    }
    return (ssize_t) Done;
}

#define __FS_INIT(Fs) ((void) (Fs))
#define __FS_DEINIT(Fs) ((void) (Fs))
#define __OPEN_READ(Fs, Name) ((void) (Fs), TesseraSwitchOpen((Name), 0))
#define __OPEN_WRITE(Fs, Name) ((void) (Fs), TesseraSwitchOpen((Name), 1))
#define __CLOSE(File) close(File)
#define __SEEK(File, Position) lseek((File), (off_t) (Position), SEEK_SET)
#define __READ(File, Buffer, Length) TesseraSwitchTransfer((File), (void *) (Buffer), (size_t) (Length), 0)
#define __WRITE(File, Buffer, Length) TesseraSwitchTransfer((File), (void *) (Buffer), (size_t) (Length), 1)
#define __WRITEATCLUSTER(File, Position, Buffer, Length) \
    pwrite((File), (const void *) (Buffer), (size_t) (Length), (off_t) (Position))
#define __ALLOC_L2(Size) pi_l2_malloc((int) (Size))
#define __FREE_L2(Pointer, Size) pi_l2_free((Pointer), (int) (Size))

#endif
