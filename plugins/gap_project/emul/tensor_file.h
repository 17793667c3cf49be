/* Float32 tensors in ONNX TensorProto files (.pb, as in ONNX test data sets), for the host
 * emulation program of a Tessera GAP project. Reads only what a float32 tensor needs (dims,
 * data_type, float_data or raw_data) and skips every other field. */
#ifndef TESSERA_TENSOR_FILE_H
#define TESSERA_TENSOR_FILE_H

/* Reads the float32 tensor of `path` into Values: its shape must be Dims (DimCount dims), which
 * hold Count values. Returns 0, or prints what is wrong (naming the file) and returns -1. */
int ReadTensorFile(const char *path, const long long *Dims, int DimCount, float *Values, int Count);

/* Writes Count float32 values with the given dims as a TensorProto named Name, through a file
 * beside it renamed when complete (a failure leaves an earlier file intact). Returns 0 or -1. */
int WriteTensorFile(const char *path, const char *Name, const long long *Dims, int DimCount, const float *Values,
                    int Count);

#endif
