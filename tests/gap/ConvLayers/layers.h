/* Convolution layers with zero padding (and strides, dilation, pooling with and without padding,
 * depthwise), shared by the model and its harness. X(Name, Oper, InFeat, OutFeat, Width, Height,
 * Filter, Dilation, Stride, Pad, PoolOper, PoolSize, PoolStride, PoolPad, ReLU); Pad and PoolPad are
 * the generators' flags (0 none, 1 "same": the amount follows from window, stride and dilation,
 * the larger half above and left). Q formats: In 12, Filter 14, Bias 14, Out 12. */
#define CONV_LAYERS(X) \
    X(Same3x3, KOP_CONV, 4, 8, 20, 18, 3, 1, 1, 1, KOP_NONE, 1, 1, 0, 1) \
    X(Same3x3Stride2MaxPool, KOP_CONV, 3, 6, 17, 15, 3, 1, 2, 1, KOP_MAXPOOL, 2, 2, 0, 0) \
    X(Pad2Dilated3x3AvgPool, KOP_CONV, 2, 5, 16, 16, 3, 2, 1, 1, KOP_AVGPOOL, 2, 2, 0, 1) \
    X(Same5x5, KOP_CONV, 3, 4, 12, 11, 5, 1, 1, 1, KOP_NONE, 1, 1, 0, 0) \
    X(Same3x3Wide, KOP_CONV, 16, 16, 40, 32, 3, 1, 1, 1, KOP_NONE, 1, 1, 0, 1) \
    X(Depthwise3x3, KOP_CONV_DW, 8, 8, 24, 20, 3, 1, 1, 1, KOP_NONE, 1, 1, 0, 1) \
    X(Depthwise3x3Stride2, KOP_CONV_DW, 6, 6, 25, 23, 3, 1, 2, 1, KOP_NONE, 1, 1, 0, 0) \
    X(Depthwise5x5MaxPool, KOP_CONV_DW, 4, 4, 18, 16, 5, 1, 1, 1, KOP_MAXPOOL, 2, 2, 0, 1) \
    X(Same3x3MaxPool3x3Pad1, KOP_CONV, 3, 6, 19, 17, 3, 1, 1, 1, KOP_MAXPOOL, 3, 2, 1, 1) \
    X(Stride2AvgPool3x3Pad1, KOP_CONV, 4, 5, 23, 21, 3, 1, 2, 1, KOP_AVGPOOL, 3, 2, 1, 0) \
    X(Depthwise3x3MaxPool3x3Pad1, KOP_CONV_DW, 5, 5, 20, 18, 3, 1, 1, 1, KOP_MAXPOOL, 3, 2, 1, 0) \
    X(Same2x2, KOP_CONV, 3, 5, 14, 12, 2, 1, 1, 1, KOP_NONE, 1, 1, 0, 0) \
    X(Same4x4Stride2Odd, KOP_CONV, 2, 4, 17, 15, 4, 1, 2, 1, KOP_NONE, 1, 1, 0, 1) \
    X(Depthwise2x2, KOP_CONV_DW, 4, 4, 13, 11, 2, 1, 1, 1, KOP_NONE, 1, 1, 0, 1)
