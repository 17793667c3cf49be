/* The PMSIS cluster on the host: opening it, sending it a task, the team of cores (the emulated
 * team of gap_emul_team.h: AT_EMUL_CORES cores, one at a time, real barriers) and its L1 memory,
 * plus the fabric controller's L2 allocator. */
#ifndef TESSERA_PI_EMUL_CLUSTER_H
#define TESSERA_PI_EMUL_CLUSTER_H

#include "Gap.h"
#include "pi_emul_memory.h"
#include "pi_emul_os.h"

#define PI_CL_L1
#define PI_L1
#define PI_L2
#define PI_FC_L1

struct pi_cluster_conf {
    int device_type;
    int id;                 /* cluster 0 */
    uint32_t cc_stack_size; /* accepted; host threads have their own stacks */
    uint32_t scratch_size;
    void *heap_start;
    uint32_t heap_size;
    void *event_kernel;
    int flags;
};

typedef struct pi_cluster_task {
    void (*entry)(void *);
    void *arg;
    void *stacks;
    uint32_t stack_size;
    uint32_t slave_stack_size;
    int nb_cores; /* 0: all of them */
    pi_task_t *completion_callback;
    int stack_allocated;
    struct pi_cluster_task *next;
} pi_cluster_task_t;

static inline void pi_cluster_conf_init(struct pi_cluster_conf *conf)
{
    *conf = (struct pi_cluster_conf) {0};
    conf->cc_stack_size = 0x800;
}

static inline int pi_cluster_open(struct pi_device *device)
{
    device->emul_open = 1;
    return 0;
}
static inline int pi_cluster_close(struct pi_device *device)
{
    device->emul_open = 0;
    return 0;
}

static inline struct pi_cluster_task *pi_cluster_task(struct pi_cluster_task *task, void (*entry)(void *), void *arg)
{
    *task = (struct pi_cluster_task) {0};
    task->entry = entry;
    task->arg = arg;
    return task;
}

/* The stacks the task's cores use and the size of each worker core's stack. The emulation runs
 * cores as host threads with their own stacks; it keeps the values for code that reads them back. */
static inline struct pi_cluster_task *pi_cluster_task_stacks(struct pi_cluster_task *task, void *stacks, int stack_size)
{
    task->stacks = stacks;
    task->slave_stack_size = (uint32_t) stack_size;
    return task;
}

/* The cores a fork with nb_cores == 0 starts: the task's, else all of the cluster's. */
__attribute__((weak)) int PiEmulTaskCores;

/* Runs the task's entry on the cluster controller (core 0), as the chip does, to completion. */
static inline int pi_cluster_send_task_to_cl(struct pi_device *device, struct pi_cluster_task *task)
{
    if (!device->emul_open) {
        fprintf(stderr, "pmsis emulation: pi_cluster_send_task: the cluster device is not open (call pi_cluster_open first)\n");
        return -1;
    }
    if (task->nb_cores < 0 || task->nb_cores > AT_EMUL_CORES) {
        fprintf(stderr, "pmsis emulation: pi_cluster_send_task: %d cores requested, the emulated cluster has %d (build with -DAT_EMUL_CORES=N)\n",
                task->nb_cores, AT_EMUL_CORES);
        return -1;
    }
    PiEmulTaskCores = task->nb_cores ? task->nb_cores : AT_EMUL_CORES;
    AT_EmulCoreId = 0;
    task->entry(task->arg);
    PiEmulTaskCores = 0;
    if (task->completion_callback)
        pi_task_push(task->completion_callback);
    return 0;
}
static inline int pi_cluster_send_task(struct pi_device *device, struct pi_cluster_task *task)
{
    return pi_cluster_send_task_to_cl(device, task);
}
static inline int pi_cluster_send_task_to_cl_async(struct pi_device *device, struct pi_cluster_task *cluster_task, pi_task_t *task)
{
    const int Status = pi_cluster_send_task_to_cl(device, cluster_task);
    pi_task_push(task);
    return Status;
}
static inline int pi_cluster_send_task_async(struct pi_device *device, struct pi_cluster_task *cluster_task, pi_task_t *task)
{
    return pi_cluster_send_task_to_cl_async(device, cluster_task, task);
}

/* ---- the team of cores ---- */
static inline int pi_core_id(void) { return gap_coreid(); }
static inline int pi_cluster_id(void) { return 0; }
static inline int pi_cl_cluster_nb_cores(void) { return AT_EMUL_CORES; }
static inline int pi_cl_cluster_nb_pe_cores(void) { return AT_EMUL_CORES; }
static inline int pi_cl_team_nb_cores(void) { return AT_EmulTeamCores(); }
static inline void pi_cl_team_fork(int nb_cores, void (*entry)(void *), void *arg)
{
    AT_EmulFork(nb_cores ? nb_cores : (PiEmulTaskCores ? PiEmulTaskCores : AT_EMUL_CORES), entry, arg);
}
static inline void pi_cl_team_barrier(void) { gap_waitbarrier(0); }
static inline void pi_cl_team_critical_enter(void) { gap_cl_critical_enter(); }
static inline void pi_cl_team_critical_exit(void) { gap_cl_critical_exit(); }

/* ---- memory ---- */
static inline void *pmsis_l1_malloc(uint32_t size) { return PiEmulAlloc(&PiEmulL1, size); }
static inline void pmsis_l1_malloc_free(void *chunk, uint32_t size) { PiEmulFree(&PiEmulL1, chunk, size, "pmsis_l1_malloc_free"); }
static inline void *pi_cl_l1_malloc(struct pi_device *device, uint32_t size) { (void) device; return PiEmulAlloc(&PiEmulL1, size); }
static inline void pi_cl_l1_free(struct pi_device *device, void *chunk, uint32_t size)
{
    (void) device;
    PiEmulFree(&PiEmulL1, chunk, size, "pi_cl_l1_free");
}
#define pi_l1_malloc(device, size) pi_cl_l1_malloc((device), (size))
#define pi_l1_free(device, chunk, size) pi_cl_l1_free((device), (chunk), (size))
/* The fabric controller's own L1 (FC TCDM): a part of the emulated L2. */
static inline void *pi_fc_l1_malloc(int size) { return size < 0 ? 0 : PiEmulAlloc(&PiEmulL2, (uint32_t) size); }
static inline void pi_fc_l1_free(void *chunk, int size) { PiEmulFree(&PiEmulL2, chunk, (uint32_t) size, "pi_fc_l1_free"); }
static inline void *pmsis_l2_malloc(uint32_t size) { return PiEmulAlloc(&PiEmulL2, size); }
static inline void pmsis_l2_malloc_free(void *chunk, uint32_t size) { PiEmulFree(&PiEmulL2, chunk, size, "pmsis_l2_malloc_free"); }
static inline void *pi_l2_malloc(int size) { return size < 0 ? 0 : PiEmulAlloc(&PiEmulL2, (uint32_t) size); }
static inline void pi_l2_free(void *chunk, int size) { PiEmulFree(&PiEmulL2, chunk, (uint32_t) size, "pi_l2_free"); }

#endif
