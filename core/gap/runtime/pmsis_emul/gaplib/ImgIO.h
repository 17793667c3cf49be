/* The SDK's image I/O library (gaplib) on the host: binary PGM (P5, gray) and PPM (P6, RGB) images,
 * 8 bits per sample, read from and written to host files as the debug bridge does on the chip.
 * ReadImageFromFile and WriteImageToFile return 0 on success, and 1 with the reason on stdout. */
#ifndef TESSERA_PI_EMUL_IMGIO_H
#define TESSERA_PI_EMUL_IMGIO_H

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "../bsp/ram.h"

typedef enum { IMGIO_OUTPUT_CHAR, IMGIO_OUTPUT_SHORT, IMGIO_OUTPUT_RGB565 } img_io_out_t;
enum { BYPASS_IO = 0, GRAY_SCALE_IO = 1, RGB565_IO = 2, RGB888_IO = 3 };
typedef enum { IMGIO_SHIFT = 1 } img_io_post_process_t;

/* One header number, skipping white space and # comments. */
static inline int ImgIONumber(FILE *File, unsigned int *Value)
{
    int c = fgetc(File);
    while (c == '#' || isspace(c)) {
        if (c == '#')
            while (c != '\n' && c != EOF)
                c = fgetc(File);
        c = fgetc(File);
    }
    if (!isdigit(c))
        return 1;
    unsigned long Number = 0;
    for (; isdigit(c) && Number < 100000000ul; c = fgetc(File))
        Number = Number * 10 + (unsigned long) (c - '0');
    *Value = (unsigned int) Number;
    return isspace(c) ? 0 : 1; /* exactly one white-space character ends the header */
}

/* A PGM or PPM image of DesiredW x DesiredH with DesiredBytesPerPixel (1: P5, 3: P6) into InBuffer:
 * bytes (CHAR), one short per sample (SHORT) or RGB565 pixels; Transpose2CHW stores the colour
 * planes one after the other instead of interleaved. */
static inline int ReadImageFromFile(char *ImageName, unsigned int DesiredW, unsigned int DesiredH,
                                    unsigned int DesiredBytesPerPixel, void *InBuffer, unsigned int BuffSize,
                                    img_io_out_t out_type, int Transpose2CHW)
{
    FILE *File = fopen(ImageName, "rb");
    if (!File) {
        printf("Failed to open file, %s\n", ImageName);
        return 1;
    }
    unsigned int W = 0, H = 0, MaxValue = 0, BytesPerPixel = 0;
    const int Magic0 = fgetc(File), Magic1 = fgetc(File);
    BytesPerPixel = Magic0 == 'P' && Magic1 == '5' ? 1 : Magic0 == 'P' && Magic1 == '6' ? 3 : 0;
    if (!BytesPerPixel || ImgIONumber(File, &W) || ImgIONumber(File, &H) || ImgIONumber(File, &MaxValue) ||
        MaxValue == 0 || MaxValue > 255) {
        printf("Not a binary 8-bit PGM (P5) or PPM (P6) image, %s\n", ImageName);
        fclose(File);
        return 1;
    }
    const int Fail = BytesPerPixel != DesiredBytesPerPixel || W != DesiredW || H != DesiredH;
    const unsigned int Pixels = W * H, Samples = Pixels * BytesPerPixel;
    const unsigned int Needed = out_type == IMGIO_OUTPUT_RGB565 ? Pixels * 2 : out_type == IMGIO_OUTPUT_SHORT ? Samples * 2 : Samples;
    if (Fail || BuffSize < Needed || (out_type == IMGIO_OUTPUT_RGB565 && BytesPerPixel != 3)) {
        if (Fail)
            printf("Expecting [%ux%u] image with %u bytes per pixel, got [%ux%u] with %u, %s\n", DesiredW, DesiredH,
                   DesiredBytesPerPixel, W, H, BytesPerPixel, ImageName);
        else
            printf("Buffer is too small (%u bytes, %u needed) or the format does not fit, %s\n", BuffSize, Needed, ImageName);
        fclose(File);
        return 1;
    }
    unsigned char *Data = (unsigned char *) malloc(Samples ? Samples : 1);
    if (!Data || fread(Data, 1, Samples, File) != Samples) {
        printf("Input ended unexpectedly or bad format, %s\n", ImageName);
        free(Data);
        fclose(File);
        return 1;
    }
    fclose(File);
    for (unsigned int p = 0; p < Pixels; p++)
        for (unsigned int c = 0; c < BytesPerPixel; c++) {
            const unsigned int From = p * BytesPerPixel + c, To = Transpose2CHW ? c * Pixels + p : From;
            if (out_type == IMGIO_OUTPUT_CHAR)
                ((unsigned char *) InBuffer)[To] = Data[From];
            else if (out_type == IMGIO_OUTPUT_SHORT)
                ((short int *) InBuffer)[To] = (short int) Data[From];
        }
    if (out_type == IMGIO_OUTPUT_RGB565)
        for (unsigned int p = 0; p < Pixels; p++)
            ((unsigned short *) InBuffer)[p] = (unsigned short) (((Data[3 * p] >> 3) << 11) | ((Data[3 * p + 1] >> 2) << 5) | (Data[3 * p + 2] >> 3));
    free(Data);
    return 0;
}

/* W x H pixels of PixelSize bytes: a PGM (GRAY_SCALE_IO), a PPM from RGB888 or RGB565 pixels, or the
 * raw bytes (BYPASS_IO). */
static inline int WriteImageToFile(char *ImageName, unsigned int W, unsigned int H, unsigned char PixelSize,
                                   unsigned char *OutBuffer, unsigned char imgFormat)
{
    FILE *File = fopen(ImageName, "wb");
    if (!File) {
        printf("Failed to open file, %s\n", ImageName);
        return 1;
    }
    int Failed = 0;
    if (imgFormat == GRAY_SCALE_IO || imgFormat == RGB888_IO || imgFormat == RGB565_IO)
        Failed = fprintf(File, "P%c\n%u %u\n255\n", imgFormat == GRAY_SCALE_IO ? '5' : '6', W, H) < 0;
    for (unsigned int p = 0; p < W * H && !Failed; p++) {
        if (imgFormat == RGB565_IO) {
            const unsigned int v = OutBuffer[2 * p] | (OutBuffer[2 * p + 1] << 8);
            const unsigned char Rgb[3] = {(unsigned char) ((v >> 11) << 3), (unsigned char) (((v >> 5) & 0x3F) << 2), (unsigned char) ((v & 0x1F) << 3)};
            Failed = fwrite(Rgb, 1, 3, File) != 3;
        } else {
            Failed = fwrite(OutBuffer + p * PixelSize, 1, PixelSize, File) != PixelSize;
        }
    }
    Failed |= fclose(File) != 0;
    if (Failed)
        printf("Failed to write image %s\n", ImageName);
    return Failed;
}

/* The same from an L3 RAM buffer. */
static inline int WriteImageToFileL3(struct pi_device *l3_mem, char *ImageName, unsigned int W, unsigned int H,
                                     unsigned char PixelSize, unsigned int OutBuffer, unsigned char imgFormat)
{
    const unsigned int Size = W * H * (imgFormat == RGB565_IO ? 2u : PixelSize);
    unsigned char *Local = (unsigned char *) malloc(Size ? Size : 1);
    if (!Local)
        return 1;
    pi_ram_read(l3_mem, OutBuffer, Local, Size);
    const int Result = WriteImageToFile(ImageName, W, H, PixelSize, Local, imgFormat);
    free(Local);
    return Result;
}

#endif
