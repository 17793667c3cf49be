#include "tensor_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const unsigned char *At;
    const unsigned char *End;
} Reader;

static int ReadVarint(Reader *R, unsigned long long *Value)
{
    *Value = 0;
    for (int Shift = 0; Shift < 64; Shift += 7) {
        if (R->At >= R->End)
            return -1;
        const unsigned char Byte = *R->At++;
        *Value |= (unsigned long long) (Byte & 0x7f) << Shift;
        if (!(Byte & 0x80))
            return 0;
    }
    return -1;
}

static float FloatAt(const unsigned char *Bytes)
{
    unsigned int Bits = (unsigned int) Bytes[0] | (unsigned int) Bytes[1] << 8 | (unsigned int) Bytes[2] << 16 |
                        (unsigned int) Bytes[3] << 24;
    float Value;
    memcpy(&Value, &Bits, sizeof Value);
    return Value;
}

/* Reads an entire file; NULL (with a message) when it cannot. */
static unsigned char *ReadWholeFile(const char *path, long *Size)
{
    FILE *File = fopen(path, "rb");
    if (!File) {
        fprintf(stderr, "error: cannot open %s\n", path);
        return 0;
    }
    fseek(File, 0, SEEK_END);
    *Size = ftell(File);
    fseek(File, 0, SEEK_SET);
    unsigned char *Bytes = malloc(*Size > 0 ? (size_t) *Size : 1);
    if (!Bytes || (*Size > 0 && fread(Bytes, 1, (size_t) *Size, File) != (size_t) *Size)) {
        fprintf(stderr, "error: cannot read %s\n", path);
        free(Bytes);
        Bytes = 0;
    }
    fclose(File);
    return Bytes;
}

/* "[2, 3]" into Text (at most Size bytes). */
static void ShapeText(char *Text, size_t Size, const unsigned long long *Dims, int DimCount)
{
    size_t Used = (size_t) snprintf(Text, Size, "[");
    for (int k = 0; k < DimCount && Used < Size; ++k)
        Used += (size_t) snprintf(Text + Used, Size - Used, k ? ", %llu" : "%llu", Dims[k]);
    if (Used < Size)
        snprintf(Text + Used, Size - Used, "]");
}

int ReadTensorFile(const char *path, const long long *Dims, int DimCount, float *Values, int Count)
{
    long Size = 0;
    unsigned char *Bytes = ReadWholeFile(path, &Size);
    if (!Bytes)
        return -1;
    Reader R = {Bytes, Bytes + Size};
    /* The dims as the file gives them; more than MAX_DIMS cannot be the model's shape. */
    enum { MAX_DIMS = 16 };
    unsigned long long FileDims[MAX_DIMS];
    int FileDimCount = 0, TooManyDims = 0;
    int DataType = 0, Found = 0, Status = 0;
    while (R.At < R.End && Status == 0) {
        unsigned long long Key, Value;
        if (ReadVarint(&R, &Key)) {
            Status = -1;
            break;
        }
        const unsigned Field = (unsigned) (Key >> 3), Wire = (unsigned) (Key & 7);
        if (Wire == 0) {
            Status = ReadVarint(&R, &Value);
            if (Field == 1) {
                if (FileDimCount < MAX_DIMS)
                    FileDims[FileDimCount++] = Value;
                else
                    TooManyDims = 1;
            } else if (Field == 2) {
                DataType = (int) Value;
            }
        } else if (Wire == 2) {
            if (ReadVarint(&R, &Value) || Value > (unsigned long long) (R.End - R.At)) {
                Status = -1;
                break;
            }
            const unsigned char *Start = R.At;
            R.At += Value;
            if (Field == 1) { /* packed dims */
                Reader Packed = {Start, R.At};
                unsigned long long Dim;
                while (Packed.At < Packed.End && Status == 0)
                    if ((Status = ReadVarint(&Packed, &Dim)) == 0) {
                        if (FileDimCount < MAX_DIMS)
                            FileDims[FileDimCount++] = Dim;
                        else
                            TooManyDims = 1;
                    }
            } else if (Field == 4 || Field == 9) { /* float_data packed, raw_data */
                if (Value != (unsigned long long) Count * 4) {
                    fprintf(stderr, "error: %s holds %llu values, the model's input has %d\n", path, Value / 4, Count);
                    Status = -2;
                    break;
                }
                for (int k = 0; k < Count; ++k)
                    Values[k] = FloatAt(Start + 4 * k);
                Found = 1;
            }
        } else if (Wire == 5) {
            if (R.End - R.At < 4) {
                Status = -1;
                break;
            }
            if (Field == 4) { /* one unpacked float_data value */
                if (Found >= Count) {
                    Status = -1;
                    break;
                }
                Values[Found++] = FloatAt(R.At);
            }
            R.At += 4;
        } else if (Wire == 1) {
            if (R.End - R.At < 8) {
                Status = -1;
                break;
            }
            R.At += 8;
        } else {
            Status = -1;
        }
    }
    free(Bytes);
    if (Status == -1)
        fprintf(stderr, "error: %s is not a valid TensorProto file\n", path);
    if (Status)
        return -1;
    if (DataType != 1) {
        fprintf(stderr, "error: %s holds data type %d; the model's input is float32 (1)\n", path, DataType);
        return -1;
    }
    /* The shape must be the model's, dim by dim: a [784] or [28, 28] file is not a [1, 1, 28, 28] input. */
    int SameShape = !TooManyDims && FileDimCount == DimCount;
    for (int k = 0; SameShape && k < DimCount; ++k)
        SameShape = FileDims[k] == (unsigned long long) Dims[k];
    if (!SameShape) {
        char Have[256], Want[256];
        unsigned long long Expected[MAX_DIMS];
        for (int k = 0; k < DimCount && k < MAX_DIMS; ++k)
            Expected[k] = (unsigned long long) Dims[k];
        ShapeText(Have, sizeof Have, FileDims, FileDimCount);
        ShapeText(Want, sizeof Want, Expected, DimCount < MAX_DIMS ? DimCount : MAX_DIMS);
        fprintf(stderr, "error: %s has shape %s%s, the model's input is %s\n", path, Have, TooManyDims ? " and more" : "",
                Want);
        return -1;
    }
    if (Found != 1 && Found != Count) {
        fprintf(stderr, "error: %s holds %d values, the model's input has %d\n", path, Found, Count);
        return -1;
    }
    return 0;
}

static void PutVarint(FILE *File, unsigned long long Value)
{
    do {
        unsigned char Byte = Value & 0x7f;
        Value >>= 7;
        if (Value)
            Byte |= 0x80;
        fputc(Byte, File);
    } while (Value);
}

int WriteTensorFile(const char *path, const char *Name, const long long *Dims, int DimCount, const float *Values,
                    int Count)
{
    /* Written beside the final name and renamed when complete, so that a failure (a full disk)
     * leaves any earlier result as it was, never a truncated file. */
    char Partial[4096];
    if (snprintf(Partial, sizeof Partial, "%s.partial", path) >= (int) sizeof Partial) {
        fprintf(stderr, "error: the path %s is too long\n", path);
        return -1;
    }
    FILE *File = fopen(Partial, "wb");
    if (!File) {
        fprintf(stderr, "error: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    for (int k = 0; k < DimCount; ++k) {
        PutVarint(File, 1 << 3 | 0);
        PutVarint(File, (unsigned long long) Dims[k]);
    }
    PutVarint(File, 2 << 3 | 0);
    PutVarint(File, 1); /* FLOAT */
    PutVarint(File, 8 << 3 | 2);
    PutVarint(File, strlen(Name));
    fputs(Name, File);
    PutVarint(File, 9 << 3 | 2);
    PutVarint(File, (unsigned long long) Count * 4);
    for (int k = 0; k < Count; ++k) {
        unsigned int Bits;
        memcpy(&Bits, &Values[k], sizeof Bits);
        const unsigned char Bytes[4] = {Bits & 0xff, (Bits >> 8) & 0xff, (Bits >> 16) & 0xff, Bits >> 24};
        fwrite(Bytes, 1, 4, File);
    }
    /* The first error's errno (a full disk: ENOSPC), before fclose or remove can change it. */
    int Error = fflush(File) != 0 || ferror(File) ? (errno ? errno : EIO) : 0;
    if (fclose(File) && !Error)
        Error = errno;
    if (!Error && rename(Partial, path))
        Error = errno;
    if (Error) {
        fprintf(stderr, "error: cannot write %s: %s\n", path, strerror(Error));
        remove(Partial);
        return -1;
    }
    return 0;
}
