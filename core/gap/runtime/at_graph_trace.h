/* Tensor traces of generated graph runners (AT_GRAPH_CHECKSUM, AT_GRAPH_DUMP_TENSOR and
 * AT_GRAPH_DUMP_GRAPH_OUTPUTS), printed on the standard output after the node that produced them:
 *   Node <node>: checksum <tensor> <elements> x <bytes> B = <sum of the signed elements>
 *   Node <node>: dump <tensor> <elements> x <bytes> B =
 *   <values, 16 a line>
 * With AT_GRAPH_DUMP_TENSOR_TO_FILE the dumped values go instead, as they are in memory (little-endian
 * elements of <bytes> bytes), to the file <node>.<tensor>.bin in AT_DUMP_TENSOR_DIR (the working
 * folder by default; each run of the graph rewrites it), and the output says where:
 *   Node <node>: dump <tensor> <elements> x <bytes> B to <file>
 * A tensor in L3 RAM is read through a small buffer on the stack with blocking reads, which the
 * emulation does not count as L3 traffic (the kernels' DMA is what the counters measure). */
#ifndef TESSERA_AT_GRAPH_TRACE_H
#define TESSERA_AT_GRAPH_TRACE_H

#include <stdio.h>

#define AT_TRACE_IN_L2 0
#define AT_TRACE_IN_L3 1
#define AT_TRACE_CHECKSUM 0
#define AT_TRACE_DUMP 1
#define AT_TRACE_DUMP_TO_FILE 2

#ifndef AT_DUMP_TENSOR_DIR
#define AT_DUMP_TENSOR_DIR ""
#endif

static inline long long AT_TraceElement(const char *Bytes, int ElementSize)
{
    switch (ElementSize) {
    case 1: return *(const signed char *) Bytes;
    case 2: { short Value; memcpy(&Value, Bytes, 2); return Value; }
    case 4: { int Value; memcpy(&Value, Bytes, 4); return Value; }
    default: { long long Value; memcpy(&Value, Bytes, 8); return Value; }
    }
}

static inline void AT_TraceTensor(const char *Node, const char *Tensor, const void *Address, int Where,
                                  unsigned int Elements, int ElementSize, int What)
{
    char Chunk[128];
    const unsigned int PerChunk = sizeof(Chunk) / (unsigned int) ElementSize;
    long long Sum = 0;
    AT_DUMP_FILE_T File = 0;
    if (What == AT_TRACE_DUMP)
        printf("Node %s: dump %s %u x %d B =\n", Node, Tensor, Elements, ElementSize);
    if (What == AT_TRACE_DUMP_TO_FILE) {
        char Name[256];
        snprintf(Name, sizeof(Name), "%s%s.%s.bin", AT_DUMP_TENSOR_DIR, Node, Tensor);
        File = AT_DUMP_FILE_OPEN(Name);
        if (File == 0) {
            printf("Node %s: dump %s: cannot create %s\n", Node, Tensor, Name);
            return;
        }
        printf("Node %s: dump %s %u x %d B to %s\n", Node, Tensor, Elements, ElementSize, Name);
    }
    for (unsigned int Done = 0; Done < Elements;) {
        const unsigned int Count = Elements - Done < PerChunk ? Elements - Done : PerChunk;
        const char *From = (const char *) Address + (unsigned long) Done * (unsigned long) ElementSize;
        if (Where == AT_TRACE_IN_L3)
            AT_L3_FC_READ(AT_L3_DEFAULT_DEVICE, From, Chunk, Count * (unsigned int) ElementSize);
        else
            memcpy(Chunk, From, Count * (unsigned int) ElementSize);
        if (What == AT_TRACE_DUMP_TO_FILE)
            AT_DUMP_FILE_WRITE(File, Chunk, Count * (unsigned int) ElementSize);
        for (unsigned int K = 0; K < Count; K++) {
            const long long Value = AT_TraceElement(Chunk + K * (unsigned int) ElementSize, ElementSize);
            Sum += Value;
            if (What == AT_TRACE_DUMP)
                printf("%lld%s", Value, (Done + K + 1) % 16 == 0 || Done + K + 1 == Elements ? "\n" : " ");
        }
        Done += Count;
    }
    if (What == AT_TRACE_DUMP_TO_FILE)
        AT_DUMP_FILE_CLOSE(File);
    if (What == AT_TRACE_CHECKSUM)
        printf("Node %s: checksum %s %u x %d B = %lld\n", Node, Tensor, Elements, ElementSize, Sum);
}

#endif
