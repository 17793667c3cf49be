/* The MatAddL3 example uses the MatAdd example's basic kernel. */
#include "../MatAdd/MatAddBasicKernels.c"
