/* Host emulation of the GAP cluster's team of cores, for basic kernels and generated code.
 *
 * AT_FORK(Cores, Kernel, Arg) runs Kernel(Arg) once per core, but one core at a time and in a fixed
 * order: core 0 runs until it finishes or reaches a team barrier, then core 1, and so on; after the
 * last, the turn comes back to the first core still running. So a kernel sees gap_coreid()
 * 0..Cores-1 as on the chip, its barriers separate phases for real, and results do not depend on
 * thread timing.
 *
 * The calling thread is core 0; cores 1..Cores-1 are threads started at the first fork that needs
 * them and kept for the next ones (a tiled kernel forks once per tile: starting eight threads each
 * time cost more than the kernels). The running core holds AT_EmulTeamLock; a turn is handed over
 * by setting AT_EmulTurn and waking that core.
 *
 * The number of cores is AT_EMUL_CORES (default 1; build with -DAT_EMUL_CORES=8 to check that
 * parallel kernels split their work correctly over the eight cluster cores). */
#ifndef TESSERA_GAP_EMUL_TEAM_H
#define TESSERA_GAP_EMUL_TEAM_H

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef AT_EMUL_CORES
#define AT_EMUL_CORES 1
#endif

#define AT_EMUL_MAX_CORES 64
/* AT_EmulTurn when every core of the fork has finished: the forking thread goes on. */
#define AT_EMUL_TURN_DONE (-1)

/* Shared by every translation unit (weak definitions: the linker keeps one). */
__attribute__((weak)) __thread int AT_EmulCoreId;
__attribute__((weak)) int AT_EmulTeamSize;              /* 0 outside a fork */
__attribute__((weak)) pthread_mutex_t AT_EmulTeamLock = PTHREAD_MUTEX_INITIALIZER;
__attribute__((weak)) pthread_cond_t AT_EmulWake[AT_EMUL_MAX_CORES];
__attribute__((weak)) int AT_EmulTurn = AT_EMUL_TURN_DONE;
__attribute__((weak)) int AT_EmulFinished[AT_EMUL_MAX_CORES];
__attribute__((weak)) int AT_EmulWorkers = -1;          /* threads started: cores 1..AT_EmulWorkers; -1 before the first fork */
__attribute__((weak)) void (*AT_EmulEntry)(void *);
__attribute__((weak)) void *AT_EmulArg;

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

/* Gives the turn to the next core after Core that has not finished, or back to the forking thread
 * when none is left. Called with AT_EmulTeamLock held. */
static inline void AT_EmulPassTurn(int Core)
{
    for (int Step = 1; Step <= AT_EmulTeamSize; Step++) {
        const int Next = (Core + Step) % AT_EmulTeamSize;
        if (!AT_EmulFinished[Next]) {
            AT_EmulTurn = Next;
            pthread_cond_signal(&AT_EmulWake[Next]);
            return;
        }
    }
    AT_EmulTurn = AT_EMUL_TURN_DONE;
    pthread_cond_signal(&AT_EmulWake[0]);
}

static inline void AT_EmulAwaitTurn(int Core)
{
    while (AT_EmulTurn != Core)
        pthread_cond_wait(&AT_EmulWake[Core], &AT_EmulTeamLock);
}

static inline void gap_waitbarrier(int BarrierId)
{
    (void) BarrierId;
    if (AT_EmulTeamSize <= 1)
        return;
    AT_EmulPassTurn(AT_EmulCoreId);
    AT_EmulAwaitTurn(AT_EmulCoreId);
}

/* Core Id of every fork: waits for its turn, runs the fork's kernel, hands over. */
static inline void *AT_EmulWorkerMain(void *Id)
{
    const int Core = (int) (intptr_t) Id;
    AT_EmulCoreId = Core;
    pthread_mutex_lock(&AT_EmulTeamLock);
    for (;;) {
        AT_EmulAwaitTurn(Core);
        AT_EmulEntry(AT_EmulArg);
        AT_EmulFinished[Core] = 1;
        AT_EmulPassTurn(Core);
    }
    return 0;
}

static inline void AT_EmulFork(int Cores, void (*Entry)(void *), void *Arg)
{
    if (Cores < 1 || Cores > AT_EMUL_MAX_CORES) {
        fprintf(stderr, "AT_FORK: %d cores requested, the emulation supports 1 to %d\n", Cores, AT_EMUL_MAX_CORES);
        abort();
    }
    if (AT_EmulTeamSize) {
        fprintf(stderr, "AT_FORK: a core forked again inside a fork; the cluster's cores cannot\n");
        abort();
    }
    pthread_mutex_lock(&AT_EmulTeamLock);
    if (AT_EmulWorkers < 0) {
        pthread_cond_init(&AT_EmulWake[0], 0);
        AT_EmulWorkers = 0;
    }
    while (AT_EmulWorkers < Cores - 1) {
        const int Core = AT_EmulWorkers + 1;
        pthread_t Thread;
        pthread_cond_init(&AT_EmulWake[Core], 0);
        if (pthread_create(&Thread, 0, AT_EmulWorkerMain, (void *) (intptr_t) Core) != 0) {
            fprintf(stderr, "AT_FORK: cannot start emulated core %d\n", Core);
            abort();
        }
        pthread_detach(Thread);
        AT_EmulWorkers = Core;
    }
    AT_EmulTeamSize = Cores;
    AT_EmulEntry = Entry;
    AT_EmulArg = Arg;
    for (int i = 0; i < Cores; i++)
        AT_EmulFinished[i] = 0;
    const int CallerId = AT_EmulCoreId;
    AT_EmulCoreId = 0;
    AT_EmulTurn = 0;
    Entry(Arg);
    AT_EmulFinished[0] = 1;
    AT_EmulPassTurn(0);
    while (AT_EmulTurn != AT_EMUL_TURN_DONE)
        pthread_cond_wait(&AT_EmulWake[0], &AT_EmulTeamLock);
    AT_EmulCoreId = CallerId;
    AT_EmulTeamSize = 0;
    pthread_mutex_unlock(&AT_EmulTeamLock);
}

#endif
