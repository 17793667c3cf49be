/* Memory and DMA operations used by generated kernels. Two implementations behind one set of
 * macros: host emulation (at_api_emul.h: copies happen at once, every byte is counted) and GAP
 * (at_api_pmsis.h: PMSIS cluster DMA, L2 allocation and team fork). */
#ifndef TESSERA_AT_API_H
#define TESSERA_AT_API_H

#include "Gap.h"

#define DMA_COPY_IN 1   /* external (L2) -> local (L1) */
#define DMA_COPY_OUT 0  /* local (L1) -> external (L2) */

/* What <Graph>_Memory(Which) reports. */
typedef enum { AT_L1_MEM, AT_L2_MEM, AT_L2_DYN_MEM, AT_L3_MEM, AT_L3_DYN_MEM, AT_CTXT_MEM } AT_MEM_TYPE;

#if defined(__EMUL__)
#include "at_api_emul.h"
#else
#include "at_api_pmsis.h"
#endif

#endif
