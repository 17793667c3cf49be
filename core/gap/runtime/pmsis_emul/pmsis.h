/* PMSIS on the host, so that GAP applications written for the SDK (main through pmsis_kickoff, the
 * cluster, L1/L2 allocation, the L3 RAM and the read-only filesystem) build and run unmodified next
 * to emulated generated kernels: `cc $(tessera gap emul-cflags) App.c AppKernels.c ...`.
 * What each part does on the host is said in its header; what is not here is not emulated. */
#ifndef TESSERA_PMSIS_EMUL_H
#define TESSERA_PMSIS_EMUL_H

#ifndef __EMUL__
#define __EMUL__ 1
#endif

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pi_emul_os.h"
#include "pi_emul_cluster.h"
#include "pi_emul_rt.h"
#include "pi_emul_cl_dma.h"
#include "bsp/bsp.h"

#endif
