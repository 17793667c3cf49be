/* A full disk on demand, for tst_full_disk. Loaded with LD_PRELOAD, it lets the process write
 * TESSERA_FAIL_WRITES_AFTER bytes to regular files in all; the write that crosses that limit is cut
 * short and every later one fails with ENOSPC, as on a disk that has just filled up. Writes to
 * terminals, pipes and devices (the messages on standard error) are let through. Covers write,
 * writev, pwrite, pwritev, sendfile and copy_file_range: what libc++/libstdc++ streams, protobuf
 * and std::filesystem::copy_file use. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

static long long remaining = -2; /* bytes still allowed; -1 without a limit; -2 before reading it */

/* How many of `count` bytes may go to `fd`: all of them for non-files and without a limit. Sets
 * errno and returns -1 when the disk is already full. */
static long long allowed(int fd, size_t count)
{
    if (__atomic_load_n(&remaining, __ATOMIC_SEQ_CST) == -2) {
        const char* limit = getenv("TESSERA_FAIL_WRITES_AFTER");
        __atomic_store_n(&remaining, limit ? atoll(limit) : -1, __ATOMIC_SEQ_CST);
    }
    struct stat status;
    if (remaining < 0 || count == 0 || fstat(fd, &status) != 0 || !S_ISREG(status.st_mode))
        return (long long)count;
    long long left = __atomic_load_n(&remaining, __ATOMIC_SEQ_CST);
    for (;;) {
        if (left <= 0) {
            errno = ENOSPC;
            return -1;
        }
        const long long granted = (long long)count < left ? (long long)count : left;
        if (__atomic_compare_exchange_n(&remaining, &left, left - granted, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
            return granted;
    }
}

#define REAL(name) ((__typeof__(&name))dlsym(RTLD_NEXT, #name))

ssize_t write(int fd, const void* buffer, size_t count)
{
    const long long granted = allowed(fd, count);
    return granted < 0 ? -1 : REAL(write)(fd, buffer, (size_t)granted);
}

ssize_t pwrite(int fd, const void* buffer, size_t count, off_t offset)
{
    const long long granted = allowed(fd, count);
    return granted < 0 ? -1 : REAL(pwrite)(fd, buffer, (size_t)granted, offset);
}

ssize_t pwrite64(int fd, const void* buffer, size_t count, off_t offset)
{
    const long long granted = allowed(fd, count);
    return granted < 0 ? -1 : REAL(pwrite64)(fd, buffer, (size_t)granted, offset);
}

/* Vectors are written whole or refused: a short vector write is legal but rarely exercised. */
static size_t total(const struct iovec* vectors, int count)
{
    size_t bytes = 0;
    for (int k = 0; k < count; ++k)
        bytes += vectors[k].iov_len;
    return bytes;
}

/* 1 when the whole vector may go to `fd`; else 0 with errno ENOSPC. */
static int allowedWhole(int fd, const struct iovec* vectors, int count)
{
    const size_t bytes = total(vectors, count);
    const long long granted = allowed(fd, bytes);
    if (granted >= 0 && (size_t)granted == bytes)
        return 1;
    errno = ENOSPC;
    return 0;
}

ssize_t writev(int fd, const struct iovec* vectors, int count)
{
    return allowedWhole(fd, vectors, count) ? REAL(writev)(fd, vectors, count) : -1;
}

ssize_t pwritev(int fd, const struct iovec* vectors, int count, off_t offset)
{
    return allowedWhole(fd, vectors, count) ? REAL(pwritev)(fd, vectors, count, offset) : -1;
}

ssize_t sendfile(int out, int in, off_t* offset, size_t count)
{
    const long long granted = allowed(out, count);
    return granted < 0 ? -1 : REAL(sendfile)(out, in, offset, (size_t)granted);
}

ssize_t sendfile64(int out, int in, off_t* offset, size_t count)
{
    const long long granted = allowed(out, count);
    return granted < 0 ? -1 : REAL(sendfile64)(out, in, offset, (size_t)granted);
}

ssize_t copy_file_range(int in, off_t* inOffset, int out, off_t* outOffset, size_t count, unsigned flags)
{
    const long long granted = allowed(out, count);
    return granted < 0 ? -1 : REAL(copy_file_range)(in, inOffset, out, outOffset, (size_t)granted, flags);
}
