/* Basic kernels of the Resize example: a bilinear image resize whose input tiles follow its output
 * tiles by a ratio that is no whole number (OBJ_CONSTRAINTS_DYNAMIC). */
#ifndef RESIZE_BASIC_KERNELS_H
#define RESIZE_BASIC_KERNELS_H

#include "Gap.h"

/* ResizeLines: output lines [OutFirst, OutFirst + Lines) of a Win x Hin image resized to Wout x Hout.
 * Output pixel (x, y) samples the input at (x * (Win - 1) / Wout, y * (Hin - 1) / Hout), between the
 * two lines and columns around it, with weights of 8 fractional bits (exact rational positions, so
 * an input tile starting at line OutFirst * (Hin - 1) / Hout holds every line the tile reads). In
 * points at input line InFirst, Out at output line OutFirst. Parallel (columns shared among the
 * cores, ends on a team barrier). */
typedef struct {
    unsigned char * __restrict__ In;
    unsigned char * __restrict__ Out;
    unsigned int Win;
    unsigned int Hin;
    unsigned int Wout;
    unsigned int Hout;
    unsigned int Lines;
    unsigned int InFirst;
    unsigned int OutFirst;
} ResizeLines_Arg_T;

void ResizeLines(ResizeLines_Arg_T *Arg);

/* One output pixel from the four input pixels around its position: the definition ResizeLines and
 * the harness's untiled reference share. Top/Bottom point at the input's lines around the position,
 * FracY/FracX are its fractional parts in 1/256. */
static inline unsigned char ResizeSample(const unsigned char *Top, const unsigned char *Bottom, unsigned int Col,
                                         unsigned int FracX, unsigned int FracY)
{
    unsigned int Upper = Top[Col] * (256 - FracX) + Top[Col + 1] * FracX;
    unsigned int Lower = Bottom[Col] * (256 - FracX) + Bottom[Col + 1] * FracX;
    return (unsigned char) ((Upper * (256 - FracY) + Lower * FracY + (1u << 15)) >> 16);
}

#endif
