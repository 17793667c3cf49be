/* The PMSIS operating-system calls on the host: start and exit, devices, tasks, time, frequencies
 * and performance counters. Asynchronous operations complete before they return, so a task is done
 * as soon as the call that takes it returns. */
#ifndef TESSERA_PI_EMUL_OS_H
#define TESSERA_PI_EMUL_OS_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* A device: the configuration it was opened from, and whether it is open. */
struct pi_device {
    void *config;
    void *data;
    int emul_open;
};
typedef struct pi_device pi_device_t;

static inline void pi_open_from_conf(struct pi_device *device, void *conf)
{
    device->config = conf;
    device->data = 0;
    device->emul_open = 0;
}

/* ---- start and exit ---- */
/* Runs the application's main function (void (*)(void)); pmsis_exit ends the program. */
static inline int pmsis_kickoff(void *arg)
{
    ((void (*)(void)) arg)();
    return 0;
}
/* Applications that define pmsis_exit themselves (`#define pmsis_exit(a) exit(a)`) keep theirs. */
#ifndef pmsis_exit
static inline void pmsis_exit(int err)
{
    fflush(stdout);
    exit(err);
}
#endif

/* ---- tasks ---- */
typedef struct pi_task {
    void (*callback)(void *);
    void *arg;
    volatile int done;
    int id;
} pi_task_t;
typedef void (*pi_callback_func_t)(void *);

static inline pi_task_t *pi_task_block(pi_task_t *task)
{
    task->callback = 0;
    task->arg = 0;
    task->done = 0;
    return task;
}
static inline pi_task_t *pi_task_callback(pi_task_t *task, void (*callback)(void *), void *arg)
{
    task->callback = callback;
    task->arg = arg;
    task->done = 0;
    return task;
}
/* Marks the task done and runs its callback: what the chip's event kernel does on completion. */
static inline void pi_task_push(pi_task_t *task)
{
    task->done = 1;
    if (task->callback)
        task->callback(task->arg);
}
static inline void pi_task_release(pi_task_t *task) { pi_task_push(task); }
static inline void pi_task_destroy(pi_task_t *task) { (void) task; }
static inline void pi_task_wait_on(pi_task_t *task)
{
    if (!task->done) {
        fprintf(stderr, "pmsis emulation: pi_task_wait_on(%p): nothing completes this task, the chip would wait forever\n",
                (void *) task);
        abort();
    }
}

/* ---- time ---- */
static inline uint64_t PiEmulNanoseconds(void)
{
    struct timespec Now;
    clock_gettime(CLOCK_MONOTONIC, &Now);
    return (uint64_t) Now.tv_sec * 1000000000ull + (uint64_t) Now.tv_nsec;
}
static inline uint32_t pi_time_get_us(void) { return (uint32_t) (PiEmulNanoseconds() / 1000u); }
static inline void pi_time_wait_us(int time_us)
{
    struct timespec Wait = {time_us / 1000000, (long) (time_us % 1000000) * 1000};
    nanosleep(&Wait, 0);
}

/* ---- frequencies (GAP8's defaults; setting one changes what pi_freq_get and the cycle counters
 * report) ---- */
typedef enum { PI_FREQ_DOMAIN_FC = 0, PI_FREQ_DOMAIN_CL = 1, PI_FREQ_DOMAIN_PERIPH = 2 } pi_freq_domain_e;
__attribute__((weak)) uint32_t PiEmulFrequency[3] = {50000000u, 50000000u, 50000000u};
static inline int32_t pi_freq_set(pi_freq_domain_e domain, uint32_t freq)
{
    if ((unsigned) domain > 2 || freq == 0)
        return -1;
    PiEmulFrequency[domain] = freq;
    return 0;
}
static inline uint32_t pi_freq_get(pi_freq_domain_e domain) { return (unsigned) domain > 2 ? 0 : PiEmulFrequency[domain]; }

/* ---- performance counters: cycles are the host's elapsed time at the cluster frequency; the
 * events the host cannot observe (instructions, stalls, misses, ...) read 0 ---- */
typedef enum {
    PI_PERF_CYCLES = 0, PI_PERF_ACTIVE_CYCLES, PI_PERF_INSTR, PI_PERF_LD_STALL, PI_PERF_JR_STALL, PI_PERF_IMISS,
    PI_PERF_LD, PI_PERF_ST, PI_PERF_JUMP, PI_PERF_BRANCH, PI_PERF_BTAKEN, PI_PERF_RVC, PI_PERF_LD_EXT,
    PI_PERF_ST_EXT, PI_PERF_LD_EXT_CYC, PI_PERF_ST_EXT_CYC, PI_PERF_TCDM_CONT
} pi_perf_event_e;
__attribute__((weak)) uint64_t PiEmulPerfStart, PiEmulPerfElapsed;
__attribute__((weak)) int PiEmulPerfRunning;
static inline void pi_perf_conf(unsigned events) { (void) events; }
static inline void pi_perf_reset(void)
{
    PiEmulPerfElapsed = 0;
    PiEmulPerfStart = PiEmulNanoseconds();
}
static inline void pi_perf_start(void)
{
    PiEmulPerfStart = PiEmulNanoseconds();
    PiEmulPerfRunning = 1;
}
static inline void pi_perf_stop(void)
{
    if (PiEmulPerfRunning)
        PiEmulPerfElapsed += PiEmulNanoseconds() - PiEmulPerfStart;
    PiEmulPerfRunning = 0;
}
static inline unsigned int pi_perf_read(int id)
{
    if (id != PI_PERF_CYCLES && id != PI_PERF_ACTIVE_CYCLES)
        return 0;
    const uint64_t Nanoseconds = PiEmulPerfElapsed + (PiEmulPerfRunning ? PiEmulNanoseconds() - PiEmulPerfStart : 0);
    return (unsigned int) (Nanoseconds * (PiEmulFrequency[PI_FREQ_DOMAIN_CL] / 1000000u) / 1000u);
}

#endif
