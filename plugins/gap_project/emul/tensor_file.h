/* Float32 tensors in ONNX TensorProto files (.pb, as in ONNX test data sets), for the host
 * emulation program of a Tessera GAP project. Reads only what a float32 tensor needs (dims,
 * data_type, float_data or raw_data) and skips every other field. */
#ifndef TESSERA_TENSOR_FILE_H
#define TESSERA_TENSOR_FILE_H

/* Reads the float32 tensor of `path` into Values (Count values expected). Returns 0, or prints
 * what is wrong (naming the file) and returns -1. */
int ReadTensorFile(const char *path, float *Values, int Count);

/* Writes Count float32 values with the given dims as a TensorProto named Name. Returns 0 or -1. */
int WriteTensorFile(const char *path, const char *Name, const long long *Dims, int DimCount, const float *Values,
                    int Count);

#endif
