// The reference fixed-point kernels of the GAP CNN layers (docs/gap-fixed-point.md): the rounding
// helpers, convolution + pooling + ReLU, linear and the integer softmax, on hand-computed examples
// (the arithmetic is worked out in the comments) and against float computations on random data.
#include "interp/fixed_point/pow2_kernels.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>

using namespace tessera::fixed_point;

namespace {

using Pool = ConvPoolReluParams::Pool;
using Values = std::vector<int16_t>;

// Parameters of a single-feature convolution with Q 0 everywhere and no bias effect.
ConvPoolReluParams plainConv(int width, int height, int filterWidth, int filterHeight)
{
    ConvPoolReluParams p;
    p.width = width;
    p.height = height;
    p.filterWidth = filterWidth;
    p.filterHeight = filterHeight;
    return p;
}

// A 1x1 convolution with filter 1, bias 0 and Q 0: the conv output is the input itself, so the
// pooling and ReLU stages can be checked on chosen values.
ConvPoolReluParams identityConv(int width, int height)
{
    return plainConv(width, height, 1, 1);
}

Values runIdentityConv(const ConvPoolReluParams& p, const Values& input)
{
    return convPoolRelu(p, input, Values(1, 1), Values(1, 0));
}

// A filter of zeros with a single 1 at (ky, kx): the output reads the input at that tap.
Values singleTap(int filterWidth, int filterHeight, int ky, int kx)
{
    Values filter(size_t(filterWidth * filterHeight), 0);
    filter[size_t(ky * filterWidth + kx)] = 1;
    return filter;
}

// The message of the std::invalid_argument `call` throws, or "" when it throws none.
std::string invalidArgumentMessage(const std::function<void()>& call)
{
    try {
        call();
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return {};
}

void requireMessage(const std::function<void()>& call, const std::vector<std::string>& fragments)
{
    const std::string message = invalidArgumentMessage(call);
    QVERIFY2(!message.empty(), "no std::invalid_argument thrown");
    for (const std::string& fragment : fragments)
        QVERIFY2(message.find(fragment) != std::string::npos,
                 ("'" + message + "' lacks '" + fragment + "'").c_str());
}

Values randomValues(std::mt19937& rng, size_t count, int range)
{
    std::uniform_int_distribution<int> dist(-range, range);
    Values values(count);
    for (int16_t& v : values)
        v = int16_t(dist(rng));
    return values;
}

std::vector<double> toReal(const Values& values, int q)
{
    std::vector<double> real;
    for (float v : dequantizeQ(values, q))
        real.push_back(v);
    return real;
}

// Convolution + pooling + ReLU in double on the real values, straight from the definitions.
std::vector<double> floatConvPoolRelu(const ConvPoolReluParams& p, const std::vector<double>& in,
                                      const std::vector<double>& w, const std::vector<double>& b)
{
    const ConvPoolReluShape s = convPoolReluOutputShape(p);
    std::vector<double> conv(size_t(s.features * s.convHeight * s.convWidth));
    for (int co = 0; co < p.outFeatures; ++co)
        for (int y = 0; y < s.convHeight; ++y)
            for (int x = 0; x < s.convWidth; ++x) {
                double sum = b[size_t(co)];
                for (int ci = 0; ci < p.inFeatures; ++ci)
                    for (int ky = 0; ky < p.filterHeight; ++ky)
                        for (int kx = 0; kx < p.filterWidth; ++kx) {
                            const int iy = y * p.strideY + ky * p.dilationY - p.pad;
                            const int ix = x * p.strideX + kx * p.dilationX - p.pad;
                            if (iy >= 0 && iy < p.height && ix >= 0 && ix < p.width)
                                sum += in[size_t((ci * p.height + iy) * p.width + ix)] *
                                       w[size_t(((co * p.inFeatures + ci) * p.filterHeight + ky) * p.filterWidth + kx)];
                        }
                conv[size_t((co * s.convHeight + y) * s.convWidth + x)] = sum;
            }
    std::vector<double> out;
    for (int c = 0; c < s.features; ++c)
        for (int y = 0; y < s.height; ++y)
            for (int x = 0; x < s.width; ++x) {
                double v = 0;
                if (p.pool == Pool::None) {
                    v = conv[size_t((c * s.convHeight + y) * s.convWidth + x)];
                } else {
                    std::vector<double> window;
                    for (int py = 0; py < p.poolHeight; ++py)
                        for (int px = 0; px < p.poolWidth; ++px) {
                            const int cy = y * p.poolStrideY - p.poolPad + py;
                            const int cx = x * p.poolStrideX - p.poolPad + px;
                            if (cy >= 0 && cy < s.convHeight && cx >= 0 && cx < s.convWidth)
                                window.push_back(conv[size_t((c * s.convHeight + cy) * s.convWidth + cx)]);
                        }
                    v = p.pool == Pool::Max ? *std::max_element(window.begin(), window.end())
                                            : std::accumulate(window.begin(), window.end(), 0.0) / double(window.size());
                }
                out.push_back(p.relu ? std::max(v, 0.0) : v);
            }
    return out;
}

std::vector<double> floatSoftmax(const std::vector<double>& x)
{
    const double m = *std::max_element(x.begin(), x.end());
    std::vector<double> e;
    for (double v : x)
        e.push_back(std::exp(v - m));
    const double sum = std::accumulate(e.begin(), e.end(), 0.0);
    for (double& v : e)
        v /= sum;
    return e;
}

} // namespace

class TestFixedPoint : public QObject {
    Q_OBJECT

private slots:
    void roundnormRoundsHalvesUpwards()
    {
        QCOMPARE(roundnorm(5, 1), int64_t(3));    // 2.5 -> 3
        QCOMPARE(roundnorm(-5, 1), int64_t(-2));  // -2.5 -> (-4) >> 1 = -2: halves go towards +inf
        QCOMPARE(roundnorm(-1, 1), int64_t(0));   // -0.5 -> 0
        QCOMPARE(roundnorm(-3, 1), int64_t(-1));  // -1.5 -> -1
        QCOMPARE(roundnorm(1, 1), int64_t(1));    // 0.5 -> 1
        QCOMPARE(roundnorm(6, 2), int64_t(2));    // 1.5 -> 2
        QCOMPARE(roundnorm(7, 2), int64_t(2));    // 1.75 -> 2
        QCOMPARE(roundnorm(5, 2), int64_t(1));    // 1.25 -> 1
        QCOMPARE(roundnorm(-6, 2), int64_t(-1));  // -1.5 -> -1
        QCOMPARE(roundnorm(-7, 2), int64_t(-2));  // -1.75 -> -2
        QCOMPARE(roundnorm(-5, 2), int64_t(-1));  // -1.25 -> -1
        QCOMPARE(roundnorm(-12, 0), int64_t(-12)); // shift 0: unchanged
        QCOMPARE(roundnorm(5, -3), int64_t(40));   // negative shift: left shift
        QCOMPARE(roundnorm(-3, -2), int64_t(-12));
        // Computed in int64: the rounding term does not overflow an int32 maximum.
        QCOMPARE(roundnorm(std::numeric_limits<int32_t>::max(), 1), int64_t(1) << 30);
        QCOMPARE(roundnorm(int64_t(1) << 40, 40), int64_t(1));

        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, roundnorm(1, 63));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, roundnorm(1, -63));
        QVERIFY_THROWS_EXCEPTION(std::overflow_error, roundnorm(int64_t(1) << 40, -30));
    }

    void clip16Saturates()
    {
        QCOMPARE(clip16(0), int16_t(0));
        QCOMPARE(clip16(-5), int16_t(-5));
        QCOMPARE(clip16(32767), int16_t(32767));
        QCOMPARE(clip16(32768), int16_t(32767));
        QCOMPARE(clip16(40000), int16_t(32767));
        QCOMPARE(clip16(-32768), int16_t(-32768));
        QCOMPARE(clip16(-32769), int16_t(-32768));
        QCOMPARE(clip16(-40000), int16_t(-32768));
        QCOMPARE(clip16(int64_t(1) << 40), int16_t(32767));
    }

    void ndivRoundsHalvesAwayFromZero()
    {
        QCOMPARE(ndiv(7, 2), int64_t(4));    // 3.5 -> 4
        QCOMPARE(ndiv(-7, 2), int64_t(-4));  // -3.5 -> -4
        QCOMPARE(ndiv(5, 2), int64_t(3));
        QCOMPARE(ndiv(-5, 2), int64_t(-3));
        QCOMPARE(ndiv(6, 4), int64_t(2));    // 1.5 -> 2
        QCOMPARE(ndiv(-6, 4), int64_t(-2));  // -1.5 -> -2
        QCOMPARE(ndiv(-5, 4), int64_t(-1));  // -1.25 -> -1
        QCOMPARE(ndiv(-13, 9), int64_t(-1)); // -1.44 -> -((13 + 4) / 9) = -1
        QCOMPARE(ndiv(-14, 9), int64_t(-2)); // -1.56 -> -((14 + 4) / 9) = -2
        QCOMPARE(ndiv(-1, 3), int64_t(0));   // -0.33 -> 0
        QCOMPARE(ndiv(-2, 3), int64_t(-1));  // -0.67 -> -1
        QCOMPARE(ndiv(0, 3), int64_t(0));
        QCOMPARE(ndiv(4, 9), int64_t(0));    // odd divisor: 0.44 -> 0
        QCOMPARE(ndiv(5, 9), int64_t(1));    // 0.56 -> 1
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, ndiv(3, 0));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, ndiv(3, -2));
    }

    void convHandExample()
    {
        // In_Q 3, Filter_Q 5, Bias_Q 4, Out_Q 6. The accumulator is in Q(3 + 5) = Q8; the bias is
        // brought there by roundnorm(b, 4 - 8) = b << 4, and the result by roundnorm(acc, 8 - 6):
        // (acc + 2) >> 2.
        ConvPoolReluParams p = plainConv(4, 4, 3, 3);
        p.inQ = 3;
        p.filterQ = 5;
        p.biasQ = 4;
        p.outQ = 6;
        const Values input{8, -4, 2, 0,   //
                           1, 3, -6, 5,   //
                           -2, 7, 4, -1,  //
                           6, 0, -3, 2};
        const Values filter{1, 2, 0,  //
                            -1, 3, 1, //
                            0, -2, 4};
        const Values bias{-1}; // -1 << 4 = -16 in Q8
        // (0,0): 8*1 - 4*2 + 2*0 + 1*-1 + 3*3 - 6*1 - 2*0 + 7*-2 + 4*4 = 4; acc = 4 - 16 = -12;
        //        (-12 + 2) >> 2 = -3.
        // (0,1): -4*1 + 2*2 + 0 + 3*-1 - 6*3 + 5*1 + 0 + 4*-2 - 1*4 = -28; acc = -44 -> -42 >> 2 = -11.
        // (1,0): 1*1 + 3*2 + 0 - 2*-1 + 7*3 + 4*1 + 0 + 0 - 3*4 = 22; acc = 6 -> 8 >> 2 = 2 (1.5 up).
        // (1,1): 3*1 - 6*2 + 0 - 7 + 4*3 - 1 + 0 + 6 + 2*4 = 9; acc = -7 -> -5 >> 2 = -2 (-1.75).
        QCOMPARE(convPoolReluOutputShape(p), (ConvPoolReluShape{1, 2, 2, 2, 2}));
        QCOMPARE(convPoolRelu(p, input, filter, bias), (Values{-3, -11, 2, -2}));

        // With zero padding 1 the output is 4x4. The corners, e.g. (0,0), read in[-1..1][-1..1]:
        // 8*3 - 4*1 + 1*-2 + 3*4 = 30 (the taps of filter row 0 and column 0 fall in the padding);
        // acc = 30 - 16 = 14 -> 16 >> 2 = 4 (3.5 rounds up). (3,0) gets acc -2 -> 0 >> 2 = 0: -0.5
        // rounds up to 0; (0,2) gets 26 -> 7 (6.5 up).
        p.pad = 1;
        const Values padded{4, -16, 7, -7,  //
                            10, -3, -11, 2, //
                            -6, 2, -2, -6,  //
                            0, -3, -2, -1};
        QCOMPARE(convPoolReluOutputShape(p), (ConvPoolReluShape{1, 4, 4, 4, 4}));
        QCOMPARE(convPoolRelu(p, input, filter, bias), padded);

        // ReLU without pooling clamps the negative outputs.
        p.relu = true;
        Values rectified = padded;
        for (int16_t& v : rectified)
            v = std::max<int16_t>(v, 0);
        QCOMPARE(convPoolRelu(p, input, filter, bias), rectified);
    }

    void convFilterLayoutIsOutputThenInputFeature()
    {
        // Two 1x2 input planes, 1x1 filters w[co][ci] = {{1, 10}, {100, 1000}}, bias {0, 5}, Q 0.
        ConvPoolReluParams p = plainConv(2, 1, 1, 1);
        p.inFeatures = 2;
        p.outFeatures = 2;
        const Values input{1, 2,  // feature 0
                           3, 4}; // feature 1
        // out[0] = 1*in0 + 10*in1 = {31, 42}; out[1] = 100*in0 + 1000*in1 + 5 = {3105, 4205}.
        QCOMPARE(convPoolRelu(p, input, Values{1, 10, 100, 1000}, Values{0, 5}), (Values{31, 42, 3105, 4205}));
    }

    void convSaturatesToInt16()
    {
        // 1x1 conv, Q 0: 200 * 200 = 40000 -> 32767; 200 * -200 = -40000 -> -32768.
        ConvPoolReluParams p = plainConv(2, 1, 1, 1);
        QCOMPARE(convPoolRelu(p, Values{200, -200}, Values{200}, Values{0}), (Values{32767, -32768}));
    }

    void convStrideReadsEverySecondOrThirdPosition()
    {
        // Input 9 wide, 7 high, in[y][x] = 16y + x; a 3x2 filter (Fcx 3, Fcy 2) with its only 1 at
        // ky 1, kx 2; stride Scx 2, Scy 3. Hc = (7 - 2) / 3 + 1 = 2, Wc = (9 - 3) / 2 + 1 = 4 and
        // out[y][x] = in[3y + 1][2x + 2] = 16(3y + 1) + 2x + 2.
        ConvPoolReluParams p = plainConv(9, 7, 3, 2);
        p.strideX = 2;
        p.strideY = 3;
        Values input;
        for (int y = 0; y < 7; ++y)
            for (int x = 0; x < 9; ++x)
                input.push_back(int16_t(16 * y + x));
        QCOMPARE(convPoolReluOutputShape(p), (ConvPoolReluShape{1, 2, 4, 2, 4}));
        QCOMPARE(convPoolRelu(p, input, singleTap(3, 2, 1, 2), Values{0}), (Values{18, 20, 22, 24, 66, 68, 70, 72}));
    }

    void convDilationSpreadsTheTaps()
    {
        // Same input, dilation Dcx 2, Dcy 3: the window spans 2*(3-1)+1 = 5 columns and
        // 3*(2-1)+1 = 4 rows, so Wc = 5, Hc = 4; tap (1, 2) reads in[y + 3][x + 4].
        ConvPoolReluParams p = plainConv(9, 7, 3, 2);
        p.dilationX = 2;
        p.dilationY = 3;
        Values input;
        for (int y = 0; y < 7; ++y)
            for (int x = 0; x < 9; ++x)
                input.push_back(int16_t(16 * y + x));
        QCOMPARE(convPoolReluOutputShape(p), (ConvPoolReluShape{1, 4, 5, 4, 5}));
        QCOMPARE(convPoolRelu(p, input, singleTap(3, 2, 1, 2), Values{0}), (Values{52, 53, 54, 55, 56,   //
                                                                                   68, 69, 70, 71, 72,   //
                                                                                   84, 85, 86, 87, 88,   //
                                                                                   100, 101, 102, 103, 104}));
    }

    void convStrideDilationAndPadding()
    {
        // Stride 2, dilation 2 and padding 1 on both axes: Hc = (7 + 2 - 3) / 2 + 1 = 4,
        // Wc = (9 + 2 - 5) / 2 + 1 = 4. Tap (0, 0) reads in[2y - 1][2x - 1] (0 in the padding on
        // row 0 and column 0); tap (1, 2) reads in[2y + 1][2x + 3] (row 7 and column 9 are padding).
        ConvPoolReluParams p = plainConv(9, 7, 3, 2);
        p.strideX = p.strideY = 2;
        p.dilationX = p.dilationY = 2;
        p.pad = 1;
        Values input;
        for (int y = 0; y < 7; ++y)
            for (int x = 0; x < 9; ++x)
                input.push_back(int16_t(16 * y + x));
        QCOMPARE(convPoolRelu(p, input, singleTap(3, 2, 0, 0), Values{0}), (Values{0, 0, 0, 0,    //
                                                                                   0, 17, 19, 21, //
                                                                                   0, 49, 51, 53, //
                                                                                   0, 81, 83, 85}));
        QCOMPARE(convPoolRelu(p, input, singleTap(3, 2, 1, 2), Values{0}), (Values{19, 21, 23, 0, //
                                                                                   51, 53, 55, 0, //
                                                                                   83, 85, 87, 0, //
                                                                                   0, 0, 0, 0}));
    }

    // A depthwise convolution is the full convolution whose filter is zero between different
    // features (a block-diagonal filter), with every other setting alike.
    void depthwiseIsTheBlockDiagonalConvolution()
    {
        std::mt19937 random(3);
        std::uniform_int_distribution<int> value(-2000, 2000), weight(-200, 200);
        ConvPoolReluParams p;
        p.inFeatures = p.outFeatures = 3;
        p.width = 9;
        p.height = 8;
        p.filterWidth = p.filterHeight = 3;
        p.strideX = p.strideY = 2;
        p.pad = 1;
        p.pool = ConvPoolReluParams::Pool::Max;
        p.poolWidth = p.poolHeight = p.poolStrideX = p.poolStrideY = 2;
        p.relu = true;
        p.inQ = p.outQ = 12;
        p.filterQ = p.biasQ = 14;
        Values input(3 * 8 * 9), depthwise(3 * 9), bias{100, -3000, 77};
        for (int16_t& v : input)
            v = int16_t(value(random));
        for (int16_t& v : depthwise)
            v = int16_t(weight(random));
        Values full(3 * 3 * 9, 0);
        for (int c = 0; c < 3; ++c)
            for (int k = 0; k < 9; ++k)
                full[size_t((c * 3 + c) * 9 + k)] = depthwise[size_t(c * 9 + k)];
        ConvPoolReluParams dw = p;
        dw.depthwise = true;
        QCOMPARE(convPoolRelu(dw, input, depthwise, bias), convPoolRelu(p, input, full, bias));
        dw.outFeatures = 2;
        requireMessage([&] { convPoolReluOutputShape(dw); }, {"depthwise", "inFeatures == outFeatures"});
    }

    // Pooling alone, global average pooling and element-wise addition by hand.
    void poolingAloneGlobalAverageAndAddition()
    {
        PoolReluParams pool;
        pool.width = pool.height = 4;
        pool.poolWidth = pool.poolHeight = pool.strideX = pool.strideY = 2;
        Values input;
        for (int i = 0; i < 16; ++i)
            input.push_back(int16_t(i - 6));  // -6 .. 9, row by row
        QCOMPARE(poolRelu(pool, input), (Values{-1, 1, 7, 9}));
        pool.pool = PoolReluParams::Pool::Average;  // sums -14, -6, 18, 26 over 4: halves away from 0
        QCOMPARE(poolRelu(pool, input), (Values{-4, -2, 5, 7}));
        pool.relu = true;
        QCOMPARE(poolRelu(pool, input), (Values{0, 0, 5, 7}));

        QCOMPARE(globalAveragePool(2, 2, 2, Values{1, 2, 3, 4, -1, -2, -3, -4}), (Values{3, -3}));  // 2.5 -> 3, -2.5 -> -3
        requireMessage([] { globalAveragePool(1, 300, 300, Values(90000)); }, {"65535"});

        // 1000 in Q12 is 500 in Q11; 1000 in Q10 is 2000 in Q11; -5 in Q12 is (-5 + 1) >> 1 = -2.
        QCOMPARE(matAdd(Values{1000, 30000, -5}, 12, Values{1000, 30000, -5}, 10, 11, false),
                 (Values{2500, 32767, -12}));
        QCOMPARE(matAdd(Values{-100, 100}, 12, Values{50, 50}, 12, 12, true), (Values{0, 150}));
        // The difference of the same inputs brought to Q11: 500 - 2000, 15000 + 60000 (clipped), -2 + 10.
        QCOMPARE(matAdd(Values{1000, 30000, -5}, 12, Values{1000, -30000, -5}, 10, 11, false, true),
                 (Values{-1500, 32767, 8}));
        QCOMPARE(matAdd(Values{1000, 30000, -5}, 12, Values{1000, -30000, -5}, 10, 11, true, true),
                 (Values{0, 32767, 8}));
        requireMessage([] { matAdd(Values{1, 2}, 12, Values{1}, 12, 12, false); }, {"second input"});

        // [[1, 2], [3, 4]] x [[5], [6]] in Q0 plus bias [100, -100] in Q1 (50, -50 in Q0).
        QCOMPARE(matMul(2, 2, 1, Values{1, 2, 3, 4}, 0, Values{5, 6}, 0, Values{100, -100}, 1, 0, false),
                 (Values{67, -11}));
        QCOMPARE(matMul(2, 2, 1, Values{1, 2, 3, 4}, 0, Values{5, 6}, 0, Values{100, -100}, 1, 0, true), (Values{67, 0}));
        requireMessage([] { matMul(2, 2, 1, Values{1, 2, 3}, 0, Values{5, 6}, 0, Values{0, 0}, 0, 0, false); },
                       {"first matrix"});
    }

    void maxAndAveragePooling2x2()
    {
        const Values input{3, -1, 4, 1,   //
                           -5, 9, -2, 6,  //
                           5, -3, -5, 8,  //
                           -9, 7, -9, 0};
        ConvPoolReluParams p = identityConv(4, 4);
        p.poolWidth = p.poolHeight = 2;
        p.poolStrideX = p.poolStrideY = 2;
        QCOMPARE(convPoolReluOutputShape(p).height, 4); // pooling fields ignored while pool is None
        p.pool = Pool::Max;
        QCOMPARE(convPoolReluOutputShape(p), (ConvPoolReluShape{1, 4, 4, 2, 2}));
        QCOMPARE(runIdentityConv(p, input), (Values{9, 6, 7, 8}));
        // Window sums 6, 9, 0, -6 over 4 values: ndiv gives 2 (1.5), 2 (2.25), 0, -2 (-1.5 away
        // from zero).
        p.pool = Pool::Average;
        QCOMPARE(runIdentityConv(p, input), (Values{2, 2, 0, -2}));
    }

    void pooling3x3Stride2RoundsNegativeAverages()
    {
        // 5x5 input, 3x3 windows, stride 2: Hp = Wp = (5 - 3) / 2 + 1 = 2; windows start at 0 and 2.
        const Values input{2, -7, 1, -3, 6,   //
                           -4, 0, -8, 5, -1,  //
                           9, -6, -2, -9, 3,  //
                           -5, 4, -7, 0, -6,  //
                           1, -3, 8, -4, 2};
        ConvPoolReluParams p = identityConv(5, 5);
        p.poolWidth = p.poolHeight = 3;
        p.poolStrideX = p.poolStrideY = 2;
        p.pool = Pool::Max;
        QCOMPARE(runIdentityConv(p, input), (Values{9, 6, 9, 8}));
        // Sums -15, -8, -1, -15 over 9 values: -1.67 -> -2, -0.89 -> -1, -0.11 -> 0, -2.
        p.pool = Pool::Average;
        QCOMPARE(runIdentityConv(p, input), (Values{-2, -1, 0, -2}));
    }

    void poolingPaddingSkipsPositions()
    {
        // 4x4 input, 3x3 windows, stride 2, PoolPad 1: Hp = (4 + 2 - 3) / 2 + 1 = 2. The windows
        // cover rows/columns {0, 1} or {1, 2, 3}, so they hold 4, 6, 6 and 9 values.
        const Values input{3, -1, 4, 1,   //
                           -5, 9, -2, 6,  //
                           5, -3, -5, 8,  //
                           -9, 7, -9, 0};
        ConvPoolReluParams p = identityConv(4, 4);
        p.poolWidth = p.poolHeight = 3;
        p.poolStrideX = p.poolStrideY = 2;
        p.poolPad = 1;
        p.pool = Pool::Average;
        // Sums 6/4 -> 2, 17/6 -> 3, 4/6 -> 1, 11/9 -> 1 (dividing by 9 everywhere would give 2, 2, 0, 1).
        QCOMPARE(runIdentityConv(p, input), (Values{2, 3, 1, 1}));

        // On an all-negative input the padding must not contribute a 0 to the maximum.
        const Values negative{-4, -1, -5, -2,  //
                              -5, -10, -2, -7, //
                              -6, -3, -5, -9,  //
                              -9, -8, -9, -1};
        p.pool = Pool::Max;
        QCOMPARE(runIdentityConv(p, negative), (Values{-1, -1, -3, -1}));
        // Sums -20/4 = -5, -27/6 = -4.5 -> -5, -41/6 = -6.83 -> -7, -54/9 = -6.
        p.pool = Pool::Average;
        QCOMPARE(runIdentityConv(p, negative), (Values{-5, -5, -7, -6}));
    }

    void poolingCeilModeKeepsTheLastPartialWindow()
    {
        // 5x5 input, 2x2 windows, stride 2: floor mode gives 2x2, ceil mode 3x3, the last row and
        // column of windows holding the input's last row / column only.
        Values input;
        for (int v = 1; v <= 25; ++v)
            input.push_back(int16_t(v));
        PoolReluParams p;
        p.features = 1;
        p.width = p.height = 5;
        p.poolWidth = p.poolHeight = 2;
        p.strideX = p.strideY = 2;
        p.pool = Pool::Max;
        QCOMPARE(poolRelu(p, input), (Values{7, 9, 17, 19}));
        p.ceilMode = true;
        QCOMPARE(poolRelu(p, input), (Values{7, 9, 10, 17, 19, 20, 22, 24, 25}));
        // Average over the values met: (21 + 22) / 2 -> 22 (half up), 25 / 1.
        p.pool = Pool::Average;
        const Values averages = poolRelu(p, input);
        QCOMPARE(averages.at(6), int16_t(22));
        QCOMPARE(averages.at(8), int16_t(25));
        // A window that would start in the padding is dropped (PyTorch's rule): 5 + 2 - 2 = 5
        // positions, stride 2, rounds up to 4 windows, but the 4th starts at 6 - 1 = 5 >= 5.
        p.pad = 1;
        QCOMPARE(poolOutputShape("pool", p), (std::pair<int64_t, int64_t>{3, 3}));
        // Fused after a convolution the same rule applies to the convolution's output.
        ConvPoolReluParams c = identityConv(5, 5);
        c.pool = Pool::Max;
        c.poolWidth = c.poolHeight = 2;
        c.poolStrideX = c.poolStrideY = 2;
        c.poolCeilMode = true;
        QCOMPARE(runIdentityConv(c, input), (Values{7, 9, 10, 17, 19, 20, 22, 24, 25}));
    }

    void concatenationBringsEachInputToTheOutputFormat()
    {
        // Q4 values to Q2 (rounded halves up), Q2 values copied.
        QCOMPARE(concatenate({{6, -6, 7}, {5}}, {4, 2}, 2), (Values{2, -1, 2, 5}));
        // A finer output format shifts left and saturates.
        QCOMPARE(concatenate({{20000}}, {2}, 3), (Values{32767}));
        requireMessage([] { concatenate({{1}}, {2, 3}, 2); }, {"concatenate", "one per input"});
    }

    void reluComesAfterPooling()
    {
        // Two 2x2 features through a 1x1 identity filter, 2x2 average pooling, ReLU.
        // Feature 0: sum -8 + 4 + 4 - 4 = -4 -> ndiv -1 -> ReLU 0 (ReLU first would give 8/4 = 2).
        // Feature 1: sum -1 + 6 + 6 - 3 = 8 -> 2 (ReLU first would give 12/4 = 3).
        ConvPoolReluParams p = identityConv(2, 2);
        p.inFeatures = p.outFeatures = 2;
        p.pool = Pool::Average;
        p.poolWidth = p.poolHeight = 2;
        p.poolStrideX = p.poolStrideY = 2;
        p.relu = true;
        const Values input{-8, 4, 4, -4, -1, 6, 6, -3};
        QCOMPARE(convPoolRelu(p, input, Values{1, 0, 0, 1}, Values{0, 0}), (Values{0, 2}));
        // And the normalization to Out_Q comes before the pooling: with In_Q 1 and Out_Q 0 the
        // values of feature 1, {1, 1, -1, -1}, become roundnorm(v, 1) = {1, 1, 0, 0} (0.5 -> 1,
        // -0.5 -> 0), whose average 2/4 rounds to 1; pooling the accumulators first would give
        // roundnorm(ndiv(0, 4), 1) = 0. Feature 0 becomes {-4, 2, 2, -2} -> ndiv(-2, 4) = -1 -> 0.
        p.inQ = 1;
        const Values halves{-8, 4, 4, -4, 1, 1, -1, -1};
        QCOMPARE(convPoolRelu(p, halves, Values{1, 0, 0, 1}, Values{0, 0}), (Values{0, 1}));
    }

    void linearHandExample()
    {
        // In_Q 2, Filter_Q 3, Bias_Q 7, Out_Q 4: accumulator Q5, bias roundnorm(b, 7 - 5) =
        // (b + 2) >> 2, output roundnorm(acc, 5 - 4) = (acc + 1) >> 1.
        const Values input{5, -3, 8};
        const Values filter{4, 2, -1,  // row 0: the weights of output 0
                            -6, 7, 3};
        const Values bias{10, -18};
        // o0: bias (10 + 2) >> 2 = 3; 5*4 - 3*2 - 8*1 = 6; acc 9 -> 10 >> 1 = 5 (4.5 up).
        // o1: bias (-18 + 2) >> 2 = -4 (-4.5 up); -30 - 21 + 24 = -27; acc -31 -> -30 >> 1 = -15.
        QCOMPARE(linearRelu(3, 2, false, 2, 3, 7, 4, input, filter, bias), (Values{5, -15}));
        QCOMPARE(linearRelu(3, 2, true, 2, 3, 7, 4, input, filter, bias), (Values{5, 0}));

        // Out_Q above In_Q + Filter_Q: a left shift. acc = 2*3 + 1 = 7 in Q0 -> 7 << 3 = 56 in Q3.
        QCOMPARE(linearRelu(1, 1, false, 0, 0, 0, 3, Values{2}, Values{3}, Values{1}), (Values{56}));
        // Saturation: 200 * 200 = 40000 and -40000 in Q0.
        QCOMPARE(linearRelu(1, 2, false, 0, 0, 0, 0, Values{200}, Values{200, -200}, Values{0, 0}),
                 (Values{32767, -32768}));
    }

    void softmaxHandExample()
    {
        // In_Q 12, in = {2048, 0, -6144} = {0.5, 0, -1.5}; m = 2048.
        // i0: d 0 -> k 0, f15 0, p 32768, e 32768.
        // i1: d -2048; t = (-2048 * 23637) >> 14 = -48408576 >> 14 = -2955 (floor of -2954.6);
        //     k = 2955 >> 12 = 0, f = 2955, f15 = 2955 << 3 = 23640; Horner: 315 -> -1819 + 227 =
        //     -1592 -> 7872 - 1149 = 6723 -> -22713 + 4850 = -17863 -> 32768 - 12888 = 19880; e 19880.
        // i2: d -8192; t = -193634304 >> 14 = -11819 (floor of -11818.5); k = 11819 >> 12 = 2,
        //     f = 11819 - 8192 = 3627, f15 = 29016; Horner: -1541, 6507, -16952, 17757;
        //     e = 17757 >> 2 = 4439.
        // sum = 57087; out = ndiv(e * 32768, 57087): 1073741824 / 57087 = 18808.87 -> 18809,
        // 651427840 / 57087 = 11411.14 -> 11411, 145457152 / 57087 = 2547.99 -> 2548.
        const Values out = softmaxQ15(Values{2048, 0, -6144}, 12);
        QCOMPARE(out, (Values{18809, 11411, 2548}));
        // The float softmax of {0.5, 0, -1.5} times 32768: 18812.0, 11410.1, 2545.9.
    }

    void softmaxOfEqualInputsIsUniform()
    {
        // Every e is 32768; four inputs: 32768 * 32768 / 131072 = 8192 each, summing to 32768.
        QCOMPARE(softmaxQ15(Values(4, 100), 12), Values(4, 8192));
        // Three inputs: 32768 / 3 = 10922.67 -> 10923 each; the sum is 32769.
        const Values three = softmaxQ15(Values(3, -500), 11);
        QCOMPARE(three, Values(3, 10923));
        // A single input: 32768 is clipped to 32767.
        QCOMPARE(softmaxQ15(Values{-1234}, 15), Values{32767});
        // Inputs far below the maximum vanish (k >= 31 or p >> k == 0).
        QCOMPARE(softmaxQ15(Values{32767, -32768}, 0), (Values{32767, 0}));
    }

    void softmaxIsMonotoneAndNearTheFloatSoftmax()
    {
        std::mt19937 rng(20240611);
        for (int inQ : {8, 11, 12, 15, 16}) { // 16 takes the f15 >> (In_Q - 15) branch
            for (size_t dim : {size_t(2), size_t(10), size_t(37), size_t(100)}) {
                for (int trial = 0; trial < 20; ++trial) {
                    // Values within about +-4 (the full int16 range from In_Q 13 on) so that several
                    // outputs are not negligible.
                    const int range = std::min(32767, 4 << inQ);
                    const Values in = randomValues(rng, dim, range);
                    const Values out = softmaxQ15(in, inQ);
                    QCOMPARE(out.size(), dim);

                    const int64_t sum = std::accumulate(out.begin(), out.end(), int64_t(0));
                    QVERIFY2(std::abs(sum - 32768) <= int64_t(dim / 2 + 1), std::to_string(sum).c_str());

                    // Monotone: a larger input never gets a smaller output; the largest input gets
                    // the largest output.
                    std::vector<size_t> order(dim);
                    std::iota(order.begin(), order.end(), size_t(0));
                    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return in[a] < in[b]; });
                    for (size_t k = 1; k < dim; ++k)
                        QVERIFY(out[order[k]] >= out[order[k - 1]]);
                    QCOMPARE(out[order.back()], *std::max_element(out.begin(), out.end()));

                    const std::vector<double> expected = floatSoftmax(toReal(in, inQ));
                    for (size_t i = 0; i < dim; ++i)
                        QVERIFY2(std::abs(out[i] / 32768.0 - expected[i]) <= 1.0 / 256,
                                 ("In_Q " + std::to_string(inQ) + ": " + std::to_string(out[i] / 32768.0) +
                                  " vs " + std::to_string(expected[i]))
                                     .c_str());
                }
            }
        }
    }

    void convAgreesWithFloat_data()
    {
        QTest::addColumn<int>("config");
        QTest::newRow("3x3 pad 1, bias shifted left") << 0;
        QTest::newRow("3x2 dilated strided, bias shifted right, max pool, relu") << 1;
        QTest::newRow("bias in accumulator format, avg pool 3x3/2 pad 1") << 2;
        QTest::newRow("5x5 pad 2, Out_Q above accumulator, avg pool 2x2/1") << 3;
        QTest::newRow("stride 2 dilation 2 pad 2, relu") << 4;
    }

    void convAgreesWithFloat()
    {
        QFETCH(int, config);
        ConvPoolReluParams p;
        int inRange = 0, filterRange = 0, biasRange = 0;
        switch (config) {
        case 0: // acc Q22, bias Q14 << 8, norm 12
            p = plainConv(8, 7, 3, 3);
            p.inFeatures = 3, p.outFeatures = 4, p.pad = 1;
            p.inQ = 10, p.filterQ = 12, p.biasQ = 14, p.outQ = 10;
            inRange = 1024, filterRange = 2048, biasRange = 16384;
            break;
        case 1: // acc Q22, bias Q24 roundnorm'd by 2, norm 13
            p = plainConv(9, 10, 3, 2);
            p.inFeatures = 2, p.outFeatures = 3, p.dilationX = 2, p.strideY = 2;
            p.pool = Pool::Max, p.poolWidth = p.poolHeight = 2, p.poolStrideX = p.poolStrideY = 2, p.relu = true;
            p.inQ = 8, p.filterQ = 14, p.biasQ = 24, p.outQ = 9;
            inRange = 256, filterRange = 8192, biasRange = 30000;
            break;
        case 2: // acc Q19 = Bias_Q, norm 6
            p = plainConv(9, 9, 3, 3);
            p.inFeatures = 2, p.outFeatures = 2, p.pad = 1;
            p.pool = Pool::Average, p.poolWidth = p.poolHeight = 3, p.poolStrideX = p.poolStrideY = 2, p.poolPad = 1;
            p.inQ = 12, p.filterQ = 7, p.biasQ = 19, p.outQ = 13;
            inRange = 4096, filterRange = 12, biasRange = 30000;
            break;
        case 3: // acc Q7, bias Q2 << 5, norm -2: exact
            p = plainConv(6, 5, 5, 5);
            p.outFeatures = 2, p.pad = 2;
            p.pool = Pool::Average, p.poolWidth = p.poolHeight = 2;
            p.inQ = 4, p.filterQ = 3, p.biasQ = 2, p.outQ = 9;
            inRange = 64, filterRange = 4, biasRange = 20;
            break;
        default: // acc Q24, bias Q15 << 9, norm 12
            p = plainConv(11, 8, 3, 3);
            p.inFeatures = 2, p.outFeatures = 3, p.strideX = p.strideY = 2, p.dilationX = p.dilationY = 2, p.pad = 2;
            p.relu = true;
            p.inQ = 11, p.filterQ = 13, p.biasQ = 15, p.outQ = 12;
            inRange = 2048, filterRange = 4096, biasRange = 8000;
            break;
        }
        std::mt19937 rng(7 + unsigned(config));
        const ConvPoolReluShape shape = convPoolReluOutputShape(p);
        for (int trial = 0; trial < 10; ++trial) {
            const Values input = randomValues(rng, size_t(p.inFeatures * p.height * p.width), inRange);
            const Values filter =
                randomValues(rng, size_t(p.outFeatures * p.inFeatures * p.filterHeight * p.filterWidth), filterRange);
            const Values bias = randomValues(rng, size_t(p.outFeatures), biasRange);
            const Values out = convPoolRelu(p, input, filter, bias);
            QCOMPARE(out.size(), size_t(shape.features * shape.height * shape.width));
            const std::vector<double> expected =
                floatConvPoolRelu(p, toReal(input, p.inQ), toReal(filter, p.filterQ), toReal(bias, p.biasQ));
            // Rounding to Out_Q costs half a unit, the average's ndiv another half: one unit of Out_Q
            // (the bias rounding in config 1 is 2^-22, far below).
            const double unit = std::ldexp(1.0, -p.outQ);
            const std::vector<float> actual = dequantizeQ(out, p.outQ);
            for (size_t i = 0; i < out.size(); ++i) {
                QVERIFY2(std::abs(expected[i]) < 32767 * unit, "test data saturates");
                QVERIFY2(std::abs(actual[i] - expected[i]) <= unit * (1 + 1e-9),
                         (std::to_string(i) + ": " + std::to_string(actual[i]) + " vs " + std::to_string(expected[i]))
                             .c_str());
            }
        }
    }

    void linearAgreesWithFloat()
    {
        std::mt19937 rng(99);
        struct Config {
            int inQ, filterQ, biasQ, outQ, inRange, filterRange, biasRange;
        };
        // acc Q26 with bias Q13 << 13; acc Q14 with bias Q20 roundnorm'd by 6.
        for (const Config c : {Config{12, 14, 13, 11, 4096, 2048, 8192}, Config{7, 7, 20, 10, 128, 16, 30000}}) {
            for (int trial = 0; trial < 10; ++trial) {
                const int inDim = 64, outDim = 10;
                const Values input = randomValues(rng, inDim, c.inRange);
                const Values filter = randomValues(rng, size_t(inDim * outDim), c.filterRange);
                const Values bias = randomValues(rng, outDim, c.biasRange);
                const Values out = linearRelu(inDim, outDim, false, c.inQ, c.filterQ, c.biasQ, c.outQ, input, filter, bias);
                const std::vector<double> x = toReal(input, c.inQ), w = toReal(filter, c.filterQ),
                                          b = toReal(bias, c.biasQ);
                const double unit = std::ldexp(1.0, -c.outQ);
                for (int o = 0; o < outDim; ++o) {
                    double expected = b[size_t(o)];
                    for (int i = 0; i < inDim; ++i)
                        expected += x[size_t(i)] * w[size_t(o * inDim + i)];
                    QVERIFY2(std::abs(expected) < 32767 * unit, "test data saturates");
                    // Half a unit for the final rounding plus at most half a unit of Q14 for the bias.
                    QVERIFY(std::abs(out[size_t(o)] * unit - expected) <= 0.5 * unit + std::ldexp(0.5, -14) + 1e-12);
                }
            }
        }
    }

    void quantizeRoundsHalvesAwayFromZero()
    {
        // q 0: 0.5 -> 1, -0.5 -> -1, 1.49 -> 1; q 1: 1.25 * 2 = 2.5 -> 3, -1.25 -> -3; q 4: 0.3 * 16
        // = 4.8 -> 5; out of range and infinities saturate.
        QCOMPARE(quantizeQ({0.5f, -0.5f, 1.49f, -1.49f, 0.f}, 0), (Values{1, -1, 1, -1, 0}));
        QCOMPARE(quantizeQ({1.25f, -1.25f, 0.3f}, 1), (Values{3, -3, 1}));
        QCOMPARE(quantizeQ({0.3f, -0.3f}, 4), (Values{5, -5}));
        QCOMPARE(quantizeQ({1.0f, -1.0f, 0.99999f}, 15), (Values{32767, -32768, 32767}));
        QCOMPARE(quantizeQ({1e30f, -1e30f, std::numeric_limits<float>::infinity(),
                            -std::numeric_limits<float>::infinity()},
                           12),
                 (Values{32767, -32768, 32767, -32768}));
        QCOMPARE(quantizeQ({96.f}, -3), (Values{12})); // a negative Q: 96 / 8
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, quantizeQ({std::nanf("")}, 3));

        QCOMPARE(dequantizeQ({3, -3, 32767}, 1), (std::vector<float>{1.5f, -1.5f, 16383.5f}));
        QCOMPARE(dequantizeQ({-16384}, 15), (std::vector<float>{-0.5f}));
        // Quantizing a dequantized tensor gives it back.
        const Values values{-32768, -1, 0, 1, 12345, 32767};
        QCOMPARE(quantizeQ(dequantizeQ(values, 13), 13), values);
    }

    void badSizesAndParametersAreExplained()
    {
        ConvPoolReluParams p = plainConv(4, 4, 3, 3);
        const Values input(16, 1), filter(9, 1), bias(1, 0);
        QCOMPARE(convPoolRelu(p, input, filter, bias).size(), size_t(4));

        requireMessage([&] { convPoolRelu(p, Values(15, 1), filter, bias); },
                       {"convPoolRelu", "the input has 15 values", "inFeatures*height*width = 1*4*4 = 16"});
        requireMessage([&] { convPoolRelu(p, input, Values(8, 1), bias); },
                       {"the filter has 8 values", "= 1*1*3*3 = 9"});
        requireMessage([&] { convPoolRelu(p, input, filter, Values(2, 0)); },
                       {"the bias has 2 values", "outFeatures = 1"});

        ConvPoolReluParams tooLarge = plainConv(4, 4, 5, 3);
        requireMessage([&] { convPoolReluOutputShape(tooLarge); }, {"convolution width", "empty"});
        ConvPoolReluParams dilated = plainConv(4, 4, 3, 3);
        dilated.dilationY = 2; // spans 5 rows of 4
        requireMessage([&] { convPoolReluOutputShape(dilated); }, {"convolution height", "empty"});
        ConvPoolReluParams zeroStride = p;
        zeroStride.strideX = 0;
        requireMessage([&] { convPoolReluOutputShape(zeroStride); }, {"strideX is 0, must be at least 1"});
        ConvPoolReluParams negativePad = p;
        negativePad.pad = -1;
        requireMessage([&] { convPoolReluOutputShape(negativePad); }, {"pad is -1"});
        ConvPoolReluParams noFeatures = p;
        noFeatures.inFeatures = 0;
        requireMessage([&] { convPoolReluOutputShape(noFeatures); }, {"inFeatures is 0"});
        ConvPoolReluParams badQ = p;
        badQ.outQ = 40;
        requireMessage([&] { convPoolReluOutputShape(badQ); }, {"outQ is 40", "[0, 31]"});
        ConvPoolReluParams huge = p;
        huge.width = huge.height = huge.inFeatures = 100000;
        requireMessage([&] { convPoolReluOutputShape(huge); }, {"the input would have more than 2^31 - 1 values"});

        ConvPoolReluParams pool = p; // conv output 2x2
        pool.pool = Pool::Max;
        pool.poolWidth = pool.poolHeight = 3;
        requireMessage([&] { convPoolReluOutputShape(pool); }, {"pooling height", "empty"});
        pool.poolWidth = pool.poolHeight = 2;
        pool.poolPad = 2;
        requireMessage([&] { convPoolReluOutputShape(pool); }, {"poolPad 2 must be smaller than the pooling window"});
        pool.poolPad = 0;
        pool.poolStrideY = 0;
        requireMessage([&] { convPoolReluOutputShape(pool); }, {"poolStrideY is 0"});

        requireMessage([&] { linearRelu(3, 2, false, 0, 0, 0, 0, Values(4), Values(6), Values(2)); },
                       {"linearRelu", "the input has 4 values", "inDim = 3"});
        requireMessage([&] { linearRelu(3, 2, false, 0, 0, 0, 0, Values(3), Values(5), Values(2)); },
                       {"the filter has 5 values", "outDim*inDim = 2*3 = 6"});
        requireMessage([&] { linearRelu(3, 2, false, 0, 0, 0, 0, Values(3), Values(6), Values(3)); },
                       {"the bias has 3 values", "outDim = 2"});
        requireMessage([&] { linearRelu(0, 2, false, 0, 0, 0, 0, Values(), Values(), Values(2)); }, {"inDim is 0"});
        requireMessage([&] { linearRelu(1, 1, false, -1, 0, 0, 0, Values(1), Values(1), Values(1)); }, {"inQ is -1"});

        requireMessage([] { softmaxQ15(Values(), 12); }, {"softmaxQ15", "empty"});
        requireMessage([] { softmaxQ15(Values(3), 31); }, {"inQ is 31", "[0, 30]"});
    }

    void accumulatorOverflowIsRefused()
    {
        // Three products of 32767 * 32767 = 1073676289 sum to 3.2e9, beyond int32.
        ConvPoolReluParams p = plainConv(1, 1, 1, 1);
        p.inFeatures = 3;
        QVERIFY_THROWS_EXCEPTION(std::overflow_error,
                                 convPoolRelu(p, Values(3, 32767), Values(3, 32767), Values{0}));
        QVERIFY_THROWS_EXCEPTION(std::overflow_error,
                                 linearRelu(3, 1, false, 0, 0, 0, 0, Values(3, 32767), Values(3, 32767), Values{0}));
        // A sum that would wrap on the way in int32 but ends in range is accepted: int32 arithmetic
        // wraps modulo 2^32, so whatever the order the final value is the same. In Q30 the sum is
        // 32767^2 = 1073676289; roundnorm(., 30 - 15) = (1073676289 + 16384) >> 15 = 32766.
        QCOMPARE(linearRelu(3, 1, false, 15, 15, 15, 15, Values{32767, 32767, -32767}, Values(3, 32767), Values{0}),
                 Values{32766});
    }
};

QTEST_APPLESS_MAIN(TestFixedPoint)
#include "tst_fixed_point.moc"
