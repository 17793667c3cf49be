/* Raw int16 files of the layer harnesses (MnistLayers, ConvLayers, CnnOps): DIR/<Layer>.<What>
 * read whole, DIR/<Layer>.out written; any failure ends the harness with status 2. */
#ifndef TESSERA_GAP_LAYER_FILES_H
#define TESSERA_GAP_LAYER_FILES_H

#include <stdio.h>
#include <stdlib.h>

static short *ReadFile(const char *Dir, const char *Layer, const char *What, size_t Count)
{
    char Path[1024];
    snprintf(Path, sizeof Path, "%s/%s.%s", Dir, Layer, What);
    FILE *File = fopen(Path, "rb");
    short *Data = (short *) malloc(Count * sizeof(short));
    if (!File || !Data || fread(Data, sizeof(short), Count, File) != Count) {
        fprintf(stderr, "harness: cannot read %zu values from %s\n", Count, Path);
        exit(2);
    }
    fclose(File);
    return Data;
}

static void WriteFile(const char *Dir, const char *Layer, const short *Data, size_t Count)
{
    char Path[1024];
    snprintf(Path, sizeof Path, "%s/%s.out", Dir, Layer);
    FILE *File = fopen(Path, "wb");
    if (!File || fwrite(Data, sizeof(short), Count, File) != Count) {
        fprintf(stderr, "harness: cannot write %s\n", Path);
        exit(2);
    }
    fclose(File);
}

#endif
