/* Host emulation of the GAP cluster's team of cores, for basic kernels and generated code.
 *
 * AT_FORK(Cores, Kernel, Arg) runs Kernel(Arg) once per core, each on its own thread, but one at a
 * time: a core runs until it finishes or reaches a team barrier, where it hands over to the next.
 * So a kernel sees gap_coreid() 0..Cores-1 as on the chip, its barriers separate phases for real,
 * and results do not depend on thread timing.
 *
 * The number of cores is AT_EMUL_CORES (default 1; build with -DAT_EMUL_CORES=8 to check that
 * parallel kernels split their work correctly over the eight cluster cores). */
#ifndef TESSERA_GAP_EMUL_TEAM_H
#define TESSERA_GAP_EMUL_TEAM_H

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef AT_EMUL_CORES
#define AT_EMUL_CORES 1
#endif

/* Shared by every translation unit (weak definitions: the linker keeps one). */
__attribute__((weak)) __thread int AT_EmulCoreId;
__attribute__((weak)) int AT_EmulTeamSize;              /* 0 outside a fork */
__attribute__((weak)) pthread_mutex_t AT_EmulRunLock = PTHREAD_MUTEX_INITIALIZER;
__attribute__((weak)) pthread_barrier_t AT_EmulBarrier;

/* The cluster's cores. A constant, as on the chip, where gap_ncore() reads the cluster's core count
 * rather than the size of the team forked; basic kernels use it in static initializers too. */
#define gap_ncore() (AT_EMUL_CORES)
/* The cores of the team running now (pi_cl_team_nb_cores). */
static inline int AT_EmulTeamCores(void) { return AT_EmulTeamSize ? AT_EmulTeamSize : AT_EMUL_CORES; }
static inline int gap_coreid(void) { return AT_EmulCoreId; }

/* A critical section of the team (pi_cl_team_critical_enter / _exit): the emulated cores run one at
 * a time and hand over only at barriers, so a section without a barrier in it is already exclusive. */
static inline void gap_cl_critical_enter(void) {}
static inline void gap_cl_critical_exit(void) {}

static inline void gap_waitbarrier(int BarrierId)
{
    (void) BarrierId;
    if (AT_EmulTeamSize <= 1)
        return;
    pthread_mutex_unlock(&AT_EmulRunLock);
    pthread_barrier_wait(&AT_EmulBarrier);
    pthread_mutex_lock(&AT_EmulRunLock);
}

typedef struct {
    void (*Entry)(void *);
    void *Arg;
    int CoreId;
} AT_EmulCoreStart;

static inline void *AT_EmulCoreMain(void *Start)
{
    AT_EmulCoreStart *Core = (AT_EmulCoreStart *) Start;
    AT_EmulCoreId = Core->CoreId;
    pthread_mutex_lock(&AT_EmulRunLock);
    Core->Entry(Core->Arg);
    pthread_mutex_unlock(&AT_EmulRunLock);
    return 0;
}

static inline void AT_EmulFork(int Cores, void (*Entry)(void *), void *Arg)
{
    AT_EmulCoreStart Start[64];
    pthread_t Threads[64];
    if (Cores < 1 || Cores > 64) {
        fprintf(stderr, "AT_FORK: %d cores requested, the emulation supports 1 to 64\n", Cores);
        abort();
    }
    if (Cores == 1) {
        Entry(Arg);
        return;
    }
    AT_EmulTeamSize = Cores;
    pthread_barrier_init(&AT_EmulBarrier, 0, (unsigned) Cores);
    for (int i = 0; i < Cores; i++) {
        Start[i].Entry = Entry;
        Start[i].Arg = Arg;
        Start[i].CoreId = i;
        if (pthread_create(&Threads[i], 0, AT_EmulCoreMain, &Start[i]) != 0) {
            fprintf(stderr, "AT_FORK: cannot start emulated core %d\n", i);
            abort();
        }
    }
    for (int i = 0; i < Cores; i++)
        pthread_join(Threads[i], 0);
    pthread_barrier_destroy(&AT_EmulBarrier);
    AT_EmulTeamSize = 0;
}

#endif
