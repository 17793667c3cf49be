/* Convolution layers with zero padding (and strides, dilation, pooling), shared by the model and
 * its harness. X(Name, InFeat, OutFeat, Width, Height, Filter, Dilation, Stride, Pad, PoolOper,
 * PoolSize, PoolStride, ReLU); Q formats: In 12, Filter 14, Bias 14, Out 12. */
#define CONV_LAYERS(X) \
    X(Same3x3, 4, 8, 20, 18, 3, 1, 1, 1, KOP_NONE, 1, 1, 1) \
    X(Same3x3Stride2MaxPool, 3, 6, 17, 15, 3, 1, 2, 1, KOP_MAXPOOL, 2, 2, 0) \
    X(Pad2Dilated3x3AvgPool, 2, 5, 16, 16, 3, 2, 1, 2, KOP_AVGPOOL, 2, 2, 1) \
    X(Same5x5, 3, 4, 12, 11, 5, 1, 1, 2, KOP_NONE, 1, 1, 0) \
    X(Same3x3Wide, 16, 16, 40, 32, 3, 1, 1, 1, KOP_NONE, 1, 1, 1)
