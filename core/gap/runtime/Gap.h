/* The standard GAP C types, the cores' DSP instructions and the cluster helpers basic kernels use.
 * Host emulation (__EMUL__ or a non-RISC-V compiler): a team of AT_EMUL_CORES emulated cores
 * (gap_emul_team.h).
 * On GAP: the PMSIS cluster calls. */
#ifndef TESSERA_GAP_H
#define TESSERA_GAP_H

#include <stdint.h>

typedef int8_t Word8;
typedef int16_t Word16;
typedef int32_t Word32;
typedef uint8_t Wordu8;
typedef uint16_t Wordu16;
typedef uint32_t Wordu32;

#ifndef TESSERA_V4S_DEFINED /* AutoTilerLibTypes.h declares it too, for KerArgP */
#define TESSERA_V4S_DEFINED
typedef int8_t v4s __attribute__((vector_size(4)));
#endif
typedef uint8_t v4u __attribute__((vector_size(4)));
typedef int16_t v2s __attribute__((vector_size(4)));
typedef uint16_t v2u __attribute__((vector_size(4)));

/* AT_FORCE_PMSIS selects the GAP branch on any compiler (used to check that code builds for GAP). */
#if defined(__EMUL__) || (!defined(__riscv) && !defined(AT_FORCE_PMSIS))
#ifndef __EMUL__
#define __EMUL__ 1
#endif
#include "gap_emul_team.h"
#include <time.h>
#define L1_CL_MEM
#define L2_MEM
/* The cluster's cycle counter (graphs read it for AT_GRAPH_MONITOR_CYCLES, applications start and
 * reset it): host nanoseconds since the last reset stand in for its cycles. The base is one for the
 * whole program (a weak definition), so every file reads the same counter. */
__attribute__((weak)) unsigned long long GapEmulTimerBase;
static inline unsigned long long GapEmulNow(void)
{
    struct timespec Now;
    timespec_get(&Now, TIME_UTC);
    return (unsigned long long) Now.tv_sec * 1000000000ull + (unsigned long long) Now.tv_nsec;
}
static inline unsigned int gap_cl_readhwtimer(void) { return (unsigned int) (GapEmulNow() - GapEmulTimerBase); }
static inline void gap_cl_resethwtimer(void) { GapEmulTimerBase = GapEmulNow(); }
static inline void gap_cl_starttimer(void) {}
/* The fabric controller's counter, the same host clock. */
static inline unsigned int gap_fc_readhwtimer(void) { return gap_cl_readhwtimer(); }
static inline void gap_fc_resethwtimer(void) { gap_cl_resethwtimer(); }
static inline void gap_fc_starttimer(void) {}
#else
#include "pmsis.h"
static inline int gap_ncore(void) { return pi_cl_cluster_nb_pe_cores(); }
static inline int gap_coreid(void) { return pi_core_id(); }
static inline void gap_waitbarrier(int BarrierId) { (void) BarrierId; pi_cl_team_barrier(); }
static inline void gap_cl_critical_enter(void) { pi_cl_team_critical_enter(); }
static inline void gap_cl_critical_exit(void) { pi_cl_team_critical_exit(); }
/* Cycles since the application started the performance counter (pi_perf_conf / pi_perf_start, or
 * gap_cl_starttimer and gap_cl_resethwtimer as the SDK's applications call them). */
static inline unsigned int gap_cl_readhwtimer(void) { return pi_perf_read(PI_PERF_CYCLES); }
static inline void gap_cl_starttimer(void)
{
    pi_perf_conf(1 << PI_PERF_CYCLES);
    pi_perf_start();
}
static inline void gap_cl_resethwtimer(void) { pi_perf_reset(); }
/* The fabric controller's counter: PMSIS counts on the core that asks. */
static inline unsigned int gap_fc_readhwtimer(void) { return pi_perf_read(PI_PERF_CYCLES); }
static inline void gap_fc_starttimer(void) { gap_cl_starttimer(); }
static inline void gap_fc_resethwtimer(void) { pi_perf_reset(); }
#define L1_CL_MEM PI_CL_L1
#define L2_MEM PI_L2
#endif

/* The cores' DSP instructions (gap_clip, gap_sumdotp2, ...) in portable C. */
#include "gap_builtins.h"

/* Older spellings kept for basic kernels written against the GAP8 runtime. */
#define gap8_ncore gap_ncore
#define gap8_coreid gap_coreid
#define gap8_waitbarrier gap_waitbarrier
#define rt_nb_pe gap_ncore
#define rt_core_id gap_coreid
#define rt_team_barrier() gap_waitbarrier(0)

/* As in GreenWaves' Gap.h: the generated code's runtime (AT_L2_COPY, AT_L2_EXT2LOC, ...), and on
 * the host the PMSIS emulation when `tessera gap emul-cflags` puts it on the include path, so
 * sources that include Gap.h alone find what they use on the chip. */
#include "at_api.h"
#if defined(__EMUL__) && defined(__has_include)
#if __has_include("pmsis.h")
#include "pmsis.h"
#endif
#endif

#endif
