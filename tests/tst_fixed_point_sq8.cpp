// The reference SQ8 kernels of the GAP CNN layers (docs/gap-fixed-point.md, "SQ8"): requantization
// and the multipliers, convolution + pooling + activation, pooling, global average, linear,
// addition and softmax, on hand-computed examples (the arithmetic is worked out in the comments),
// on properties (multiplier precision, depthwise as a block-diagonal convolution) and against float
// computations on random data.
#include "interp/fixed_point/sq8_kernels.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>

namespace fp = tessera::fixed_point;
namespace sq8 = tessera::fixed_point::sq8;

namespace {

using Pool = fp::ConvPoolReluParams::Pool;
using Bytes = std::vector<int8_t>;

bool throwsInvalid(const std::function<void()>& call)
{
    try {
        call();
    } catch (const std::invalid_argument&) {
        return true;
    }
    return false;
}

bool throwsOverflow(const std::function<void()>& call)
{
    try {
        call();
    } catch (const std::overflow_error&) {
        return true;
    }
    return false;
}

sq8::ChannelScales scales(std::vector<uint8_t> scale, std::vector<uint8_t> shift)
{
    return {std::move(scale), std::move(shift)};
}

Bytes randomBytes(std::mt19937& rng, size_t count)
{
    std::uniform_int_distribution<int> dist(-128, 127);
    Bytes values(count);
    for (int8_t& v : values)
        v = int8_t(dist(rng));
    return values;
}

std::string describe(double factor, const sq8::Multiplier& m)
{
    return "factor " + std::to_string(factor) + " -> scale " + std::to_string(m.scale) + ", shift " +
           std::to_string(m.shift);
}

// A 4x4 plane for the pooling examples, pooled 2x2 / 2 in them.
Bytes poolingPlane()
{
    return {1, -2, 3, 4,  //
            -5, 6, -7, 8, //
            127, -128, 0, 1,
            -1, -1, -1, -2};
}

} // namespace

class TestFixedPointSq8 : public QObject {
    Q_OBJECT

private slots:
    void clip8AndRequantize()
    {
        QCOMPARE(int(sq8::clip8(200)), 127);
        QCOMPARE(int(sq8::clip8(-129)), -128);
        QCOMPARE(int(sq8::clip8(-128)), -128);
        QCOMPARE(int(sq8::clip8(5)), 5);
        // 100 * 200 = 20000; (20000 + 512) >> 10 = 20 (19.53 rounded).
        QCOMPARE(int(sq8::requantize(100, 200, 10)), 20);
        // Halves go up: 3 * 128 / 2^8 = 1.5 -> 2; -3 * 128 / 2^8 = -1.5 -> -1 ((-384 + 128) >> 8);
        // -5 * 128 / 2^8 = -2.5 -> -2 ((-640 + 128) >> 8 = -512 >> 8).
        QCOMPARE(int(sq8::requantize(3, 128, 8)), 2);
        QCOMPARE(int(sq8::requantize(-3, 128, 8)), -1);
        QCOMPARE(int(sq8::requantize(-5, 128, 8)), -2);
        // Shift 0: the product itself, -7 * 3.
        QCOMPARE(int(sq8::requantize(-7, 3, 0)), -21);
        // 2^20 * 255 / 2^10 = 261120: clipped to 127, and -261120 to -128.
        QCOMPARE(int(sq8::requantize(1 << 20, 255, 10)), 127);
        QCOMPARE(int(sq8::requantize(-(1 << 20), 255, 10)), -128);
        // Scale 0 maps everything to 0; shift 62 with the largest product too ((2^31 - 1) * 255 < 2^61).
        QCOMPARE(int(sq8::requantize(std::numeric_limits<int32_t>::min(), 0, 5)), 0);
        QCOMPARE(int(sq8::requantize(std::numeric_limits<int32_t>::max(), 255, 62)), 0);
        QCOMPARE(int(sq8::requantize(std::numeric_limits<int32_t>::min(), 255, 62)), 0);
        // (2^31 - 1) * 255 / 2^38 = 1.99... -> 2.
        QCOMPARE(int(sq8::requantize(std::numeric_limits<int32_t>::max(), 255, 38)), 2);

        QVERIFY(throwsInvalid([] { sq8::requantize(1, 256, 0); }));
        QVERIFY(throwsInvalid([] { sq8::requantize(1, -1, 0); }));
        QVERIFY(throwsInvalid([] { sq8::requantize(1, 1, 63); }));
        QVERIFY(throwsInvalid([] { sq8::requantize(1, 1, -1); }));
        QVERIFY(throwsOverflow([] { sq8::requantize(int64_t(1) << 31, 1, 0); }));
        QVERIFY(throwsOverflow([] { sq8::requantize(-(int64_t(1) << 31) - 1, 1, 0); }));
    }

    void multiplierHandExamples()
    {
        const auto check = [](double factor, int scale, int shift, bool fifteen = false) {
            const sq8::Multiplier m = fifteen ? sq8::multiplier15For(factor) : sq8::multiplierFor(factor);
            QVERIFY2(m.scale == scale && m.shift == shift, describe(factor, m).c_str());
        };
        check(0.5, 128, 8);             // 0.5 * 2^8 = 128
        check(1.0, 128, 7);             // 1 * 2^7 = 128
        check(0.75, 192, 8);            // 0.75 * 2^8 = 192
        check(3.0, 192, 6);             // 3 * 2^6 = 192
        check(200.0, 200, 0);           // already 8 bits
        check(0.001, 131, 17);          // 0.001 * 2^17 = 131.07 -> 131
        check(255.75 / 256, 128, 7);    // 255.75 rounds to 256: one shift less, 128 / 2^7
        check(255.7, 255, 0);           // rounds to 256 with no shift left: the largest scale
        check(std::ldexp(1.0, -60), 4, 62);  // 2^-60 = 4 / 2^62: the shift is capped at 62
        check(std::ldexp(1.0, -70), 0, 62);  // below 2^-63: scale 0
        check(0.0, 0, 0);                     // a zero factor (e.g. an all-zero filter): scale 0

        check(0.5, 16384, 15, true);     // 0.5 * 2^15
        check(1.0, 16384, 14, true);
        check(204.8, 26214, 7, true);    // 204.8 * 2^7 = 26214.4 -> 26214
        check(300.0, 19200, 6, true);    // 300 * 2^6 = 19200
        check(32767.7, 32767, 0, true);  // rounds to 32768 with no shift left
        check(0.0, 0, 0, true);

        for (double bad : {256.0, 1e9, -1.0, -1e-9, std::numeric_limits<double>::quiet_NaN(),
                           std::numeric_limits<double>::infinity()})
            QVERIFY2(throwsInvalid([bad] { sq8::multiplierFor(bad); }), std::to_string(bad).c_str());
        for (double bad : {32768.0, -0.5, std::numeric_limits<double>::quiet_NaN(),
                           -std::numeric_limits<double>::infinity()})
            QVERIFY2(throwsInvalid([bad] { sq8::multiplier15For(bad); }), std::to_string(bad).c_str());
        QCOMPARE(sq8::multiplier15For(1000.0).shift, 5); // 1000 * 2^5 = 32000, fine for 15 bits
    }

    void multipliersAreTheClosestWithinTheirPrecision_data()
    {
        QTest::addColumn<int>("bits");
        QTest::newRow("8 bits") << 8;
        QTest::newRow("15 bits") << 15;
    }
    void multipliersAreTheClosestWithinTheirPrecision()
    {
        QFETCH(int, bits);
        const auto multiplier = [bits](double factor) {
            return bits == 8 ? sq8::multiplierFor(factor) : sq8::multiplier15For(factor);
        };
        const int low = 1 << (bits - 1), high = (1 << bits) - 1;
        const double bound = std::ldexp(1.0, -bits);
        int checked = 0;
        // Factors 2^(k/37) from 2^-40 up to just below 2^bits - 0.5, and a few irregular ones.
        std::vector<double> factors;
        for (int k = -40 * 37; std::exp2(k / 37.0) < (1 << bits) - 0.5; ++k)
            factors.push_back(std::exp2(k / 37.0));
        std::mt19937 rng(7);
        std::uniform_real_distribution<double> mantissa(0.5, 1.0);
        for (int i = 0; i < 2000; ++i)
            factors.push_back(std::ldexp(mantissa(rng), int(rng() % unsigned(bits + 30)) - 30));
        for (double factor : factors) {
            if (factor >= (1 << bits) - 0.5)
                continue;
            const sq8::Multiplier m = multiplier(factor);
            const double value = std::ldexp(double(m.scale), -m.shift);
            QVERIFY2(m.scale >= low && m.scale <= high && m.shift >= 0 && m.shift <= 62, describe(factor, m).c_str());
            QVERIFY2(std::abs(value - factor) <= bound * factor, describe(factor, m).c_str());
            // The closest with this shift: neither neighbouring scale is nearer.
            QVERIFY2(std::abs(std::ldexp(double(m.scale + 1), -m.shift) - factor) >= std::abs(value - factor) &&
                         std::abs(std::ldexp(double(m.scale - 1), -m.shift) - factor) >= std::abs(value - factor),
                     describe(factor, m).c_str());
            ++checked;
        }
        QVERIFY(checked > 3000);
        // Below 2^(bits-1-62) the shift stays at 62 and the scale shrinks, down to 0: the absolute
        // error is at most half a unit of 2^-62.
        for (int e = -80; e < bits - 1 - 62; ++e) {
            const double factor = std::ldexp(1.37, e);
            const sq8::Multiplier m = multiplier(factor);
            QVERIFY2(m.shift == 62 && m.scale < low, describe(factor, m).c_str());
            QVERIFY2(std::abs(std::ldexp(double(m.scale), -62) - factor) <= std::ldexp(0.5, -62),
                     describe(factor, m).c_str());
        }
    }

    // One 3x3 input plane, two output features, a 2x2 filter.
    void convHandExample()
    {
        fp::ConvPoolReluParams p;
        p.inFeatures = 1;
        p.outFeatures = 2;
        p.width = p.height = 3;
        p.filterWidth = p.filterHeight = 2;
        const Bytes input = {1, 2, 3, 4, 5, 6, 7, 8, 9};
        const Bytes filter = {1, 0, 0, 1, -1, -1, -1, -1};
        const std::vector<int32_t> bias = {10, -3};
        const sq8::ChannelScales s = scales({128, 192}, {8, 7}); // x0.5 and x1.5
        // Feature 0 (diagonal filter): 1+5, 2+6, 4+8, 5+9 plus 10 = 16, 18, 22, 24; halved: 8, 9, 11, 12
        // (16 * 128 = 2048, (2048 + 128) >> 8 = 8).
        // Feature 1 (all -1): -(1+2+4+5) - 3 = -15, -19, -27, -31; x1.5 = -22.5, -28.5, -40.5, -46.5,
        // halves up: -22, -28, -40, -46 ((-15 * 192 + 64) >> 7 = -2816 >> 7 = -22).
        QCOMPARE(sq8::convPoolAct(p, input, filter, bias, s), (Bytes{8, 9, 11, 12, -22, -28, -40, -46}));
        // ReLU, and ReLU capped at 10 (int8 units).
        p.relu = true;
        QCOMPARE(sq8::convPoolAct(p, input, filter, bias, s), (Bytes{8, 9, 11, 12, 0, 0, 0, 0}));
        p.reluCap = 10;
        QCOMPARE(sq8::convPoolAct(p, input, filter, bias, s), (Bytes{8, 9, 10, 10, 0, 0, 0, 0}));
        // 2x2 pooling of the 2x2 planes: max 12 and -22 (ReLU: 0), average 40 / 4 = 10 and
        // -136 / 4 = -34; the ReLU comes after the pooling.
        p.reluCap = 0;
        p.relu = false;
        p.pool = Pool::Max;
        p.poolWidth = p.poolHeight = 2;
        p.poolStrideX = p.poolStrideY = 2;
        QCOMPARE(sq8::convPoolAct(p, input, filter, bias, s), (Bytes{12, -22}));
        p.pool = Pool::Average;
        QCOMPARE(sq8::convPoolAct(p, input, filter, bias, s), (Bytes{10, -34}));
        p.relu = true;
        QCOMPARE(sq8::convPoolAct(p, input, filter, bias, s), (Bytes{10, 0}));
        // The Q fields of the 16-bit layer are ignored, even out of their range.
        p.inQ = 99;
        QCOMPARE(sq8::convPoolAct(p, input, filter, bias, s), (Bytes{10, 0}));
    }

    // Zero padding: a 2x2 input, a 3x3 filter of ones with 2 in the centre, pad 1, scale 1.
    void convPaddingAndSaturation()
    {
        fp::ConvPoolReluParams p;
        p.width = p.height = 2;
        p.filterWidth = p.filterHeight = 3;
        p.pad = 1;
        const Bytes input = {10, -20, 30, -128};
        const Bytes filter = {1, 1, 1, 1, 2, 1, 1, 1, 1};
        // Every 3x3 window covers the whole input (sum -108) plus the centre value once more:
        // -108 + 10 = -98, -108 - 20 = -128, -108 + 30 = -78, -108 - 128 = -236 -> -128.
        // Multiplier 128 / 2^7 = 1, bias 0.
        QCOMPARE(sq8::convPoolAct(p, input, filter, {0}, scales({128}, {7})), (Bytes{-98, -128, -78, -128}));
        // The bias is in the accumulator's scale: +300 gives 202, 172, 222, 64 -> 127, 127, 127, 64.
        QCOMPARE(sq8::convPoolAct(p, input, filter, {300}, scales({128}, {7})), (Bytes{127, 127, 127, 64}));
        // Stride 2 keeps the top-left window only.
        p.strideX = p.strideY = 2;
        QCOMPARE(sq8::convPoolAct(p, input, filter, {0}, scales({128}, {7})), (Bytes{-98}));
    }

    void depthwiseIsTheBlockDiagonalConvolution()
    {
        std::mt19937 rng(11);
        for (int trial = 0; trial < 4; ++trial) {
            fp::ConvPoolReluParams p;
            p.inFeatures = p.outFeatures = 5;
            p.width = 9 + trial;
            p.height = 7;
            p.filterWidth = p.filterHeight = 3;
            p.strideX = 1 + trial % 2;
            p.strideY = 2 - trial % 2;
            p.dilationX = p.dilationY = 1 + trial / 2;
            p.pad = 1 + trial % 3;
            p.pool = trial % 2 ? Pool::Max : Pool::Average;
            p.poolWidth = p.poolHeight = 2;
            p.poolStrideX = p.poolStrideY = 2;
            p.relu = trial == 3;
            const int C = p.outFeatures, taps = p.filterWidth * p.filterHeight;
            const Bytes input = randomBytes(rng, size_t(C * p.width * p.height));
            const Bytes depthwise = randomBytes(rng, size_t(C * taps));
            Bytes full(size_t(C * C * taps), 0);
            for (int c = 0; c < C; ++c)
                std::copy_n(depthwise.begin() + c * taps, taps, full.begin() + (c * C + c) * taps);
            std::vector<int32_t> bias;
            sq8::ChannelScales s;
            for (int c = 0; c < C; ++c) {
                bias.push_back(int32_t(rng() % 20001) - 10000);
                s.scale.push_back(uint8_t(128 + rng() % 128));
                s.shift.push_back(uint8_t(8 + rng() % 6));
            }
            const Bytes blockDiagonal = sq8::convPoolAct(p, input, full, bias, s);
            p.depthwise = true;
            const Bytes dw = sq8::convPoolAct(p, input, depthwise, bias, s);
            QCOMPARE(dw, blockDiagonal);
            QVERIFY(std::count(dw.begin(), dw.end(), dw.front()) < int(dw.size())); // not degenerate
        }
    }

    void poolingHandExample()
    {
        fp::PoolReluParams p;
        p.width = p.height = 4;
        p.poolWidth = p.poolHeight = 2;
        p.strideX = p.strideY = 2;
        const Bytes input = poolingPlane();
        // Max: {1,-2,-5,6} 6, {3,4,-7,8} 8, {127,-128,-1,-1} 127, {0,1,-1,-2} 1.
        p.pool = Pool::Max;
        QCOMPARE(sq8::poolAct(p, input), (Bytes{6, 8, 127, 1}));
        p.relu = true;
        QCOMPARE(sq8::poolAct(p, input, 5), (Bytes{5, 5, 5, 1})); // ReLU capped at 5
        // Average: sums 0, 8, -3, -2; ndiv by 4: 0, 2, -1 (-0.75), -1 (-0.5, away from zero).
        p.relu = false;
        p.pool = Pool::Average;
        QCOMPARE(sq8::poolAct(p, input), (Bytes{0, 2, -1, -1}));
        p.relu = true;
        QCOMPARE(sq8::poolAct(p, input), (Bytes{0, 2, 0, 0}));
        // A 3x3 window with stride 1 on the 4x4 plane: 2x2 outputs.
        p.relu = false;
        p.pool = Pool::Max;
        p.poolWidth = p.poolHeight = 3;
        p.strideX = p.strideY = 1;
        QCOMPARE(sq8::poolAct(p, input), (Bytes{127, 8, 127, 8}));

        // Global average: [1, 2, 2] -> 5/3 = 1.67 -> 2; [-128, -128, -127] -> -383/3 = -127.67 -> -128.
        QCOMPARE(sq8::globalAveragePool(2, 3, 1, {1, 2, 2, -128, -128, -127}), (Bytes{2, -128}));
        // [1, -2] -> -0.5 -> -1 (away from zero); [3, 2] -> 2.5 -> 3.
        QCOMPARE(sq8::globalAveragePool(2, 1, 2, {1, -2, 3, 2}), (Bytes{-1, 3}));
    }

    void sdkPoolingHandExample()
    {
        using Act = sq8::Activation;
        fp::PoolReluParams p;
        p.width = p.height = 4;
        p.poolWidth = p.poolHeight = 2;
        p.strideX = p.strideY = 2;
        const Bytes input = poolingPlane();
        sq8::LayerInfos infos;
        infos.actScale = 0;  // no scaling
        p.pool = Pool::Max;
        QCOMPARE(sq8::sdkPoolAct(p, Act::None, infos, input), (Bytes{6, 8, 127, 1}));
        // Average: sums 0, 8, -3, -2 times (1 << 16) / 4, roundnorm 16 (halves up): 0, 2, -1 (-0.75),
        // 0 (-0.5; Tessera's own pooling rounds it away from zero, to -1).
        p.pool = Pool::Average;
        QCOMPARE(sq8::sdkPoolAct(p, Act::None, infos, input), (Bytes{0, 2, -1, 0}));
        // ReLU then 3 / 2^1: 0, 3, 0, 0.
        infos.actScale = 3;
        infos.actScaleN = 1;
        QCOMPARE(sq8::sdkPoolAct(p, Act::ReLU, infos, input), (Bytes{0, 3, 0, 0}));
        // ReLU-N bound 1 on the maxima, no scaling; then the maxima alone scaled by 200 / 2^8.
        p.pool = Pool::Max;
        infos.actScale = 0;
        infos.a0 = 1;
        QCOMPARE(sq8::sdkPoolAct(p, Act::ReLUN, infos, input), (Bytes{1, 1, 1, 1}));
        infos.actScale = 200;
        infos.actScaleN = 8;
        QCOMPARE(sq8::sdkPoolAct(p, Act::None, infos, input), (Bytes{5, 6, 99, 1}));

        // Padding counts as zeros, for the maximum too: a 2x2 plane of negative values, windows 2x2 /
        // 2 padded by 1, each meeting one value. Max 0 everywhere (Tessera's own pooling skips the
        // padding: the values themselves); average -5/4, -6/4, -7/4, -8/4 -> -1, -1 (-1.5 up), -2, -2.
        fp::PoolReluParams padded;
        padded.width = padded.height = 2;
        padded.poolWidth = padded.poolHeight = 2;
        padded.strideX = padded.strideY = 2;
        padded.pad = 1;
        infos = sq8::LayerInfos{};
        infos.actScale = 0;
        const Bytes negative = {-5, -6, -7, -8};
        padded.pool = Pool::Max;
        QCOMPARE(sq8::sdkPoolAct(padded, Act::None, infos, negative), (Bytes{0, 0, 0, 0}));
        QCOMPARE(sq8::poolAct(padded, negative), (Bytes{-5, -6, -7, -8}));
        padded.pool = Pool::Average;
        QCOMPARE(sq8::sdkPoolAct(padded, Act::None, infos, negative), (Bytes{-1, -1, -2, -2}));
        padded.ceilMode = true;
        QVERIFY(throwsInvalid([&] { sq8::sdkPoolAct(padded, Act::None, infos, negative); }));
    }

    void sdkGlobalPoolingHandExample()
    {
        using Act = sq8::Activation;
        const Bytes planes = {3, 4, -2, 0, /**/ -1, -2, -3, -3};
        sq8::LayerInfos infos;
        infos.actScale = 0;
        // Means times 128: (5 * 128) / 4 = 160 and (-9 * 128) / 4 = -288; by 128 / 2^14: 1.75 -> 1
        // and -2.25 -> -2 (roundnorm: halves and above up).
        infos.sumScale = 128;
        infos.sumScaleN = 14;
        QCOMPARE(sq8::sdkGlobalPoolAct(2, 2, 2, false, Act::None, infos, planes), (Bytes{1, -2}));
        QCOMPARE(sq8::sdkGlobalPoolAct(2, 2, 2, false, Act::ReLU, infos, planes), (Bytes{1, 0}));
        // By 192 / 2^14 (x 1.5): 2.375 -> 2, -3.375 -> -3.
        infos.sumScale = 192;
        QCOMPARE(sq8::sdkGlobalPoolAct(2, 2, 2, false, Act::None, infos, planes), (Bytes{2, -3}));
        QCOMPARE(sq8::infosBytes(infos).at(8), int8_t(-64));  // 192 as the byte AT_INF_GLOBAL_SUM_SCALE
        // Maxima 4 and -1; ReLU-N bound 3 and the scaling 200 / 2^7 after it on whole planes
        // (3 -> 4.69 -> 5), before it on tiles (4 -> 6.25 -> 6, bounded to 3).
        infos = sq8::LayerInfos{};
        infos.a0 = 3;
        infos.actScale = 200;
        infos.actScaleN = 7;
        QCOMPARE(sq8::sdkGlobalPoolAct(2, 2, 2, true, Act::ReLUN, infos, planes), (Bytes{5, 0}));
        QCOMPARE(sq8::sdkGlobalPoolAct(2, 2, 2, true, Act::ReLUN, infos, planes, false), (Bytes{3, 0}));
        infos.actScale = 0;
        QCOMPARE(sq8::sdkGlobalPoolAct(2, 2, 2, true, Act::ReLUN, infos, planes, false), (Bytes{3, 0}));
        QCOMPARE(sq8::sdkGlobalPoolAct(2, 2, 2, true, Act::None, infos, planes), (Bytes{4, -1}));
        // The mean's multiplier shares its bytes with the addition's first-input one.
        infos.sumScale = 128;
        infos.in1Scale = 200;
        QVERIFY(throwsInvalid([&] { sq8::infosBytes(infos); }));
        QVERIFY(throwsInvalid([&] { sq8::sdkGlobalPoolAct(1, 400, 400, false, Act::None, sq8::LayerInfos{}, Bytes(160000)); }));
    }

    // CNN_Act_SQ8's activations, worked out: S(x) = roundnorm32(x * 3, 1).
    void sdkStandaloneActivationHandExample()
    {
        using A = sq8::StandaloneActivation;
        const Bytes in = {-7, -1, 0, 5, 100};
        sq8::LayerInfos infos;
        infos.actScale = 3, infos.actScaleN = 1, infos.a0 = 4, infos.b0 = 2, infos.c0 = -3;
        QCOMPARE(sq8::sdkStandaloneAct(A::None, infos, in), in);  // no scaling at all
        // max(v, 0) * 1.5, halves up: 0 0 0 7.5 -> 8, 150 -> 127.
        QCOMPARE(sq8::sdkStandaloneAct(A::ReLU, infos, in), (Bytes{0, 0, 0, 8, 127}));
        QCOMPARE(sq8::sdkStandaloneAct(A::ReLUN, infos, in), (Bytes{0, 0, 0, 6, 6}));        // bound 4
        QCOMPARE(sq8::sdkStandaloneAct(A::ReLUM, infos, in), (Bytes{6, 6, 6, 8, 127}));      // at least 4
        QCOMPARE(sq8::sdkStandaloneAct(A::ReLUMN, infos, in), (Bytes{6, 6, 6, 6, 6}));       // max(min(v, 2), 4)
        // clip(v + 2, 0, 4) * 1.5 (halves up) - 3: 0 - 3, 2 - 3, 3 - 3, 6 - 3, 6 - 3.
        QCOMPARE(sq8::sdkStandaloneAct(A::HSigmoid, infos, in), (Bytes{-3, -1, 0, 3, 3}));
        // clip(v + 2, 0, 4) * v * 1.5 - 3: 0, -1.5 -> -1, 0, 30, 600 -> 597 -> 127; then -3.
        QCOMPARE(sq8::sdkStandaloneAct(A::HSwish, infos, in), (Bytes{-3, -4, -3, 27, 127}));
        // Below 0 times 4 / 128 (roundnorm 7: -28 -> 0, -4 -> 0), then 1.5, then + 2.
        QCOMPARE(sq8::sdkStandaloneAct(A::LeakyReLU, infos, in), (Bytes{2, 2, 2, 10, 127}));
        infos.actScale = 0;  // always applied: a scale 0 gives 0
        QCOMPARE(sq8::sdkStandaloneAct(A::ReLU, infos, in), (Bytes{0, 0, 0, 0, 0}));
        infos.b0 = 200;
        QVERIFY(throwsInvalid([&] { sq8::sdkStandaloneAct(A::HSwish, infos, in); }));
    }

    // CNN_ConvolutionPoolAct_SQ8 on the SDK's contract, worked out on a 3x3 plane 1..9 and the 2x2
    // filter [1 0; 0 2]: the bias 10 << 1 = 20 plus in(y, x) + 2 in(y + 1, x + 1) gives 31 34 40 43.
    void sdkConvolutionHandExample()
    {
        using A = sq8::StandaloneActivation;
        sq8::SdkConvParams p;
        p.width = p.height = 3, p.filterWidth = p.filterHeight = 2;
        const Bytes in = {1, 2, 3, 4, 5, 6, 7, 8, 9}, filter = {1, 0, 0, 2};
        const std::vector<int32_t> bias = {10};
        sq8::LayerInfos infos;
        infos.biasNorm = 1, infos.prenorm = 1, infos.a0 = 30;
        // Full: prenorm 1 (halves up) 16 17 20 22, times 3 / 2: 24 25.5 -> 26 30 33, ReLU-N 30.
        const sq8::ChannelScales scales{{3}, {1}};
        QCOMPARE(sq8::sdkConvPoolAct(p, A::None, infos, in, filter, bias, scales), (Bytes{24, 26, 30, 33}));
        QCOMPARE(sq8::sdkConvPoolAct(p, A::ReLUN, infos, in, filter, bias, scales), (Bytes{24, 26, 30, 30}));
        // Depthwise: no prenorm, 31 34 40 43 times 3 / 2: 46.5 -> 47, 51, 60, 64.5 -> 65.
        p.depthwise = true;
        QCOMPARE(sq8::sdkConvPoolAct(p, A::None, infos, in, filter, bias, scales), (Bytes{47, 51, 60, 65}));
        // Its hard swish runs after the clip8: 31 x 255 -> 127, then clip(127 + 48, 0, 96) x 127 / 2^7
        // = 95.25 -> 95 (on the unclipped 7905 it would saturate).
        sq8::LayerInfos swish;
        swish.a0 = 96, swish.b0 = 48, swish.actScale = 1, swish.actScaleN = 7;
        const sq8::ChannelScales large{{255}, {0}};
        QCOMPARE(sq8::sdkConvPoolAct(p, A::HSwish, swish, in, filter, bias, large)[0], int8_t(95));
        // Padding: one column left, the taps in it skipped: output (0, 0) = 20 + 2 x 4 = 28, x 3 / 2 = 42.
        p.padLeft = 1;
        QCOMPARE(sq8::sdkConvPoolAct(p, A::None, infos, in, filter, bias, scales)[0], int8_t(42));
        // Full with a 2x2 maximum pooling: 33, its ReLU, scaled by 2 / 2^1.
        p.depthwise = false, p.padLeft = 0;
        p.pool = fp::PoolReluParams::Pool::Max, p.poolWidth = p.poolHeight = 2;
        infos.actScale = 2, infos.actScaleN = 1;
        QCOMPARE(sq8::sdkConvPoolAct(p, A::ReLU, infos, in, filter, bias, scales), (Bytes{33}));
        p.depthwise = true, p.outFeatures = 2;
        QVERIFY(throwsInvalid([&] { sq8::sdkConvPoolAct(p, A::None, infos, in, filter, bias, scales); }));
        p.depthwise = false, p.outFeatures = 1, p.filterWidth = 5;
        QVERIFY(throwsInvalid([&] { sq8::sdkConvPoolAct(p, A::None, infos, in, filter, bias, scales); }));
    }

    // The SDK's exponential: e^(-y / 2^15) in Q15 through e^n and a Taylor polynomial of e^r,
    // r in [-1/2, 1/2), then inverted.
    void sdkExponentialHandExample()
    {
        QCOMPARE(sq8::sdkExpQ15(0), 32768u);
        // y = 1.0: n 1, r 0, the polynomial 32767; e = roundnorm(32767 * 23537, 15) + 32767 * 2 =
        // 89070 (e^1 in Q15 is 89073); (2^31 - 1) / 89070 >> 1 = 12055 (exactly 12054.67).
        QCOMPARE(sq8::sdkExpQ15(32768), 12055u);
        // y = 0.5: r's bit 14 set, so n 2 - 1 = 1 and r = -0.5: p = 19874 (e^-0.5 x 32767), e = 54023,
        // 19875 (exactly 19874.80).
        QCOMPARE(sq8::sdkExpQ15(16384), 19875u);
        // y = 0.25: n 0, p = 42074, 25520 (exactly 25519.74).
        QCOMPARE(sq8::sdkExpQ15(8192), 25520u);
        // y = 11.25: e = 42074 * 59874 + roundnorm(42074 * 4644, 15) = 2,519,144,639, beyond int32 but
        // within the unsigned 32 bits: 0 (the SDK's signed arithmetic wraps it to a negative e).
        QCOMPARE(sq8::sdkExpQ15(368640), 0u);
        // y = 11.5 rounds up to n 12: beyond the table, 0.
        QCOMPARE(sq8::sdkExpQ15(376832), 0u);
        // Within 2 LSB of e^-x all the way (its largest error is 1.53 LSB near x = 0.024).
        double worst = 0.0;
        for (uint32_t y = 0; y < (13u << 15); y += 5)
            worst = std::max(worst, std::fabs(double(sq8::sdkExpQ15(y)) - std::exp(-double(y) / 32768.0) * 32768.0));
        QVERIFY2(worst < 2.0, qPrintable(QString::number(worst)));
    }

    void sdkSoftmaxHandExample()
    {
        using Shorts = std::vector<int16_t>;
        // Norm 10: the input's scale 2^-5, 0 and -32 are 0 and -1.0: e = 32768 and 12055, S = 44823,
        // I = (32767 << 15) / S = 23954; out = (e * I + 2^14) >> 15: 23954 and 8812 (0.731, 0.269).
        QCOMPARE(sq8::sdkSoftmax({0, -32}, 1, 10, 15), (Shorts{23954, 8812}));
        // In Q7: (e * I + 2^22) >> 23.
        QCOMPARE(sq8::sdkSoftmax({0, -32}, 1, 10, 7), (Shorts{94, 34}));
        // Equal values: S = 4 * 32768, I = 8191, each 8191 (the SDK's 1.0 is 32767).
        QCOMPARE(sq8::sdkSoftmax({5, 5, 5, 5}, 1, 7, 15), (Shorts(4, 8191)));
        // One value dominates (255 << 15 is beyond e^-11.5): 32767; in Q7 128 bounded to 127.
        QCOMPARE(sq8::sdkSoftmax({127, -128}, 1, 15, 15), (Shorts{32767, 0}));
        QCOMPARE(sq8::sdkSoftmax({127, -128}, 1, 15, 7), (Shorts{127, 0}));
        // Two vectors, each on its own.
        QCOMPARE(sq8::sdkSoftmax({0, -32, 5, 5}, 2, 10, 15), (Shorts{23954, 8812, 16383, 16383}));
        // The Infos byte: the norm in actScale's place.
        sq8::LayerInfos infos;
        infos.softmaxNorm = 10;
        QCOMPARE(sq8::infosBytes(infos).at(0), int8_t(10));
        QVERIFY(throwsInvalid([] { sq8::sdkSoftmax({1, 2, 3}, 2, 10, 15); }));
        QVERIFY(throwsInvalid([] { sq8::sdkSoftmax({1}, 1, 16, 15); }));
        QVERIFY(throwsInvalid([] { sq8::sdkSoftmax({1}, 1, 10, 8); }));
        QVERIFY(throwsInvalid([] { sq8::sdkSoftmax({}, 1, 10, 15); }));
    }

    void linearHandExample()
    {
        const Bytes input = {3, -4};
        const Bytes filter = {2, 1, -128, -128, 127, 127};
        const std::vector<int32_t> bias = {100, -5, 0};
        const sq8::ChannelScales s = scales({128, 255, 200}, {8, 8, 9});
        // o0: 100 + 6 - 4 = 102, x0.5 = 51.
        // o1: -5 - 384 + 512 = 123, x255/256: (31365 + 128) >> 8 = 123 (122.52).
        // o2: 381 - 508 = -127, x200/512: (-25400 + 256) >> 9 = -50 (-49.61).
        using Act = sq8::Activation;
        const sq8::LayerInfos plain;
        QCOMPARE(sq8::linearAct(2, 3, Act::None, plain, input, filter, bias, s), (Bytes{51, 123, -50}));
        QCOMPARE(sq8::linearAct(2, 3, Act::ReLU, plain, input, filter, bias, s), (Bytes{51, 123, 0}));
        sq8::LayerInfos capped;
        capped.a0 = 100;
        QCOMPARE(sq8::linearAct(2, 3, Act::ReLUN, capped, input, filter, bias, s), (Bytes{51, 100, 0}));
        // The bound is ignored without KOP_RELUN; ReLU's result is rescaled: 51 x 3/2 = 76.5 -> 77,
        // 123 x 3/2 = 184.5 -> 185 -> 127.
        capped.actScale = 3;
        capped.actScaleN = 1;
        QCOMPARE(sq8::linearAct(2, 3, Act::ReLU, capped, input, filter, bias, s), (Bytes{77, 127, 0}));
        QCOMPARE(sq8::linearAct(2, 3, Act::None, capped, input, filter, bias, s), (Bytes{51, 123, -50}));
        // The bias shift: 100 << 2 = 400, + 2 = 402, x0.5 = 201 -> 127; -20 - 384 + 512 = 108 -> 108.
        sq8::LayerInfos shifted;
        shifted.biasNorm = 2;
        QCOMPARE(sq8::linearAct(2, 3, Act::None, shifted, input, filter, bias, s), (Bytes{127, 108, -50}));
        // The bytes the generated code reads: ActScale, ActScaleN, A0 (2 bytes), ..., BiasN at 8.
        capped.biasNorm = 5;
        QCOMPARE(sq8::infosBytes(capped), (Bytes{3, 1, 100, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0}));
    }

    void matAddHandExample()
    {
        const Bytes a = {10, -10, 127, -128, 1};
        const Bytes b = {20, 5, 127, -128, 0};
        // Scales 0.5 and 0.75 in Q15 (16384, 24576), shift 15:
        // 5 + 15 = 20; -5 + 3.75 = -1.25 -> (-40960 + 16384) >> 15 = -1; 63.5 + 95.25 -> 127;
        // -64 - 96 -> -128; 0.5 -> 1 (halves up).
        QCOMPARE(sq8::matAdd(a, 16384, b, 24576, 15, false), (Bytes{20, -1, 127, -128, 1}));
        QCOMPARE(sq8::matAdd(a, 16384, b, 24576, 15, true), (Bytes{20, 0, 127, 0, 1}));
        // Shift 0: the plain weighted sum, 10 * 1 + 20 * 2 = 50 etc.
        QCOMPARE(sq8::matAdd({10, -3}, 1, {20, 1}, 2, 0, false), (Bytes{50, -1}));
        // A subtraction is the second scale negated: 5 - 15 = -10; -5 - 3.75 = -8.75 -> -9;
        // 63.5 - 95.25 = -31.75 -> -32; -64 + 96 = 32; 0.5 -> 1.
        QCOMPARE(sq8::matAdd(a, 16384, b, -24576, 15, false), (Bytes{-10, -9, -32, 32, 1}));
    }

    void sdkMatAddHandExample()
    {
        using Act = sq8::Activation;
        const Bytes a = {10, -10, 127, -128, 3};
        const Bytes b = {20, 5, 127, -128, -1};
        sq8::LayerInfos infos;
        // No scaling at all (scales 0): the plain sum, clipped.
        QCOMPARE(sq8::matAddAct(a, b, Act::None, infos), (Bytes{30, -5, 127, -128, 2}));
        // a x 3/2 (192 / 2^7) then + b: 15 + 20 = 35; -15 + 5 = -10; 190.5 -> 191 + 127; -192 - 128;
        // 4.5 -> 5, - 1 = 4. Then the sum x 1/2 (128 / 2^8): 17.5 -> 18; -5; 159; -160 -> -128; 2.
        infos.in1Scale = 192;
        infos.in1ScaleN = 7;
        infos.outScale = 128;
        infos.outScaleN = 8;
        QCOMPARE(sq8::matAddAct(a, b, Act::None, infos), (Bytes{18, -5, 127, -128, 2}));
        QCOMPARE(sq8::matAddAct(a, b, Act::ReLU, infos), (Bytes{18, 0, 127, 0, 2}));
        infos.a0 = 10;
        QCOMPARE(sq8::matAddAct(a, b, Act::ReLUN, infos), (Bytes{10, 0, 10, 0, 2}));
        // An activation scale of 0 is none for the additions; 3 / 2 rescales: 15, 0, 15, 0, 3.
        infos.actScale = 0;
        QCOMPARE(sq8::matAddAct(a, b, Act::ReLUN, infos), (Bytes{10, 0, 10, 0, 2}));
        infos.actScale = 3;
        infos.actScaleN = 1;
        QCOMPARE(sq8::matAddAct(a, b, Act::ReLUN, infos), (Bytes{15, 0, 15, 0, 3}));
        // The bytes: in1Scale and its shift at 8 and 9, the output's at 10 and 11.
        QCOMPARE(sq8::infosBytes(infos), (Bytes{3, 1, 10, 0, 0, 0, 0, 0, -64, 7, -128, 8, 0}));
        infos.biasNorm = 1;
        QVERIFY(throwsInvalid([&] { sq8::infosBytes(infos); }));
        QVERIFY(throwsInvalid([&] { sq8::matAddAct({1, 2}, {1}, Act::None, sq8::LayerInfos{}); }));
    }

    void softmaxConvertsThenUsesThe16BitSoftmax()
    {
        // Scale 16384 / 2^10 = 16: inputs 0, 10, -10 become 0, 160, -160 in Q4 (0, 10, -10).
        QCOMPARE(sq8::softmaxQ15({0, 10, -10}, 16384, 10, 4), fp::softmaxQ15({0, 160, -160}, 4));
        // Rounding and clipping of the conversion: 3 / 2 = 1.5 -> 2, -3 / 2 = -1.5 -> -1,
        // 127 / 2 = 63.5 -> 64; 127 * 32767 = 4161409 -> 32767, -128 * 32767 -> -32768.
        QCOMPARE(sq8::softmaxQ15({3, -3, 127}, 1, 1, 5), fp::softmaxQ15({2, -1, 64}, 5));
        QCOMPARE(sq8::softmaxQ15({127, -128, 0}, 32767, 0, 12), fp::softmaxQ15({32767, -32768, 0}, 12));
        // Equal inputs: uniform, ndiv(32768 * 32768, 4 * 32768) = 8192 each.
        QCOMPARE(sq8::softmaxQ15({-5, -5, -5, -5}, 300, 2, 12), (std::vector<int16_t>(4, 8192)));
        // A single value: the whole mass, 32768 clipped to 32767.
        QCOMPARE(sq8::softmaxQ15({42}, 300, 2, 12), (std::vector<int16_t>{32767}));
    }

    void softmaxAgreesWithFloat()
    {
        std::mt19937 rng(3);
        for (double sIn : {0.01, 0.05, 0.2}) {
            // The quantizer's choice (the document's "Deriving the multipliers"): the largest InQ <= 12
            // with 127 * s_in * 2^InQ <= 32767 (12, 12 and 10 here), multiplier15For(s_in * 2^InQ).
            int inQ = 12;
            while (inQ > 0 && 127 * sIn * std::ldexp(1.0, inQ) > 32767)
                --inQ;
            QCOMPARE(inQ, sIn == 0.2 ? 10 : 12);
            const sq8::Multiplier m = sq8::multiplier15For(std::ldexp(sIn, inQ));
            const Bytes input = randomBytes(rng, 20);
            const std::vector<int16_t> out = sq8::softmaxQ15(input, m.scale, m.shift, inQ);
            double denominator = 0;
            for (int8_t v : input)
                denominator += std::exp(v * sIn);
            for (size_t i = 0; i < input.size(); ++i) {
                const double expected = std::exp(input[i] * sIn) / denominator;
                QVERIFY2(std::abs(out[i] / 32768.0 - expected) <= 1.0 / 256,
                         (std::to_string(out[i] / 32768.0) + " vs " + std::to_string(expected)).c_str());
            }
        }
    }

    void quantizeAndDequantize()
    {
        // /0.5: 0.75 -> 1.5 -> 2, -1.25 -> -2.5 -> -3 (away from zero), 0.2 -> 0, 100 -> 127, -100 -> -128,
        // infinities saturate.
        QCOMPARE(sq8::quantize({0.75f, -1.25f, 0.2f, 100.f, -100.f, std::numeric_limits<float>::infinity(),
                                -std::numeric_limits<float>::infinity()},
                               0.5),
                 (Bytes{2, -3, 0, 127, -128, 127, -128}));
        QCOMPARE(sq8::dequantize({-128, 3, 0}, 0.5), (std::vector<float>{-64.f, 1.5f, 0.f}));
        QVERIFY(throwsInvalid([] { sq8::quantize({std::numeric_limits<float>::quiet_NaN()}, 1.0); }));
        QVERIFY(throwsInvalid([] { sq8::quantize({1.f}, 0.0); }));
        QVERIFY(throwsInvalid([] { sq8::quantize({1.f}, -1.0); }));
    }

    // Quantize a random float convolution (per-channel filter scales, int32 bias), run the kernel,
    // dequantize: each output is within the error the quantization explains. That error is bounded
    // by E (the accumulator's real value minus the float result, computed exactly), half an output
    // step for the final rounding and 2^-8 of the value for the 8-bit multiplier.
    void convAgreesWithFloat_data()
    {
        QTest::addColumn<bool>("depthwise");
        QTest::addColumn<int>("pool");
        QTest::newRow("conv") << false << int(Pool::None);
        QTest::newRow("conv + max pool") << false << int(Pool::Max);
        QTest::newRow("depthwise") << true << int(Pool::None);
    }
    void convAgreesWithFloat()
    {
        QFETCH(bool, depthwise);
        QFETCH(int, pool);
        std::mt19937 rng(depthwise ? 5 : 6);
        std::uniform_real_distribution<float> unit(-1.f, 1.f);
        fp::ConvPoolReluParams p;
        p.inFeatures = p.outFeatures = 4;
        p.width = 11;
        p.height = 9;
        p.filterWidth = p.filterHeight = 3;
        p.pad = 1;
        p.depthwise = depthwise;
        const int Cin = p.inFeatures, Cout = p.outFeatures, K = p.filterWidth * p.filterHeight;
        const int filterInputs = depthwise ? 1 : Cin;
        std::vector<float> x(static_cast<size_t>(Cin * p.width * p.height));
        std::vector<float> w(static_cast<size_t>(Cout * filterInputs * K)), b(static_cast<size_t>(Cout));
        for (float& v : x)
            v = unit(rng);
        for (int co = 0; co < Cout; ++co) // channels of different magnitudes: per-channel scales matter
            for (int i = 0; i < filterInputs * K; ++i)
                w[size_t(co * filterInputs * K + i)] = unit(rng) * float(std::ldexp(1.0, -co));
        for (float& v : b)
            v = 0.3f * unit(rng);

        const double sIn = 1.0 / 127; // |x| <= 1
        const Bytes xq = sq8::quantize(x, sIn);
        std::vector<double> sW(static_cast<size_t>(Cout));
        Bytes wq;
        for (int co = 0; co < Cout; ++co) {
            const auto first = w.begin() + co * filterInputs * K, last = first + filterInputs * K;
            float largest = 0;
            for (auto it = first; it != last; ++it)
                largest = std::max(largest, std::abs(*it));
            sW[size_t(co)] = largest / 127.0;
            const Bytes q = sq8::quantize(std::vector<float>(first, last), sW[size_t(co)]);
            wq.insert(wq.end(), q.begin(), q.end());
        }
        std::vector<int32_t> bq;
        for (int co = 0; co < Cout; ++co)
            bq.push_back(int32_t(std::lround(b[size_t(co)] / (sIn * sW[size_t(co)]))));

        // The float convolution and the exact real value of each int32 accumulator.
        const fp::ConvPoolReluShape shape = fp::convPoolReluOutputShape(p);
        const int Hc = shape.convHeight, Wc = shape.convWidth;
        std::vector<double> reference(static_cast<size_t>(Cout * Hc * Wc)), accReal(reference.size());
        double largest = 0;
        for (int co = 0; co < Cout; ++co)
            for (int y = 0; y < Hc; ++y)
                for (int xo = 0; xo < Wc; ++xo) {
                    double f = b[size_t(co)], a = bq[size_t(co)] * sIn * sW[size_t(co)];
                    for (int ci = depthwise ? co : 0; ci < (depthwise ? co + 1 : Cin); ++ci)
                        for (int ky = 0; ky < 3; ++ky)
                            for (int kx = 0; kx < 3; ++kx) {
                                const int iy = y + ky - 1, ix = xo + kx - 1;
                                if (iy < 0 || iy >= p.height || ix < 0 || ix >= p.width)
                                    continue;
                                const size_t in = size_t((ci * p.height + iy) * p.width + ix);
                                const size_t wi = size_t(((co * filterInputs + (depthwise ? 0 : ci)) * 3 + ky) * 3 + kx);
                                f += double(x[in]) * w[wi];
                                a += xq[in] * sIn * wq[wi] * sW[size_t(co)];
                            }
                    reference[size_t((co * Hc + y) * Wc + xo)] = f;
                    accReal[size_t((co * Hc + y) * Wc + xo)] = a;
                    largest = std::max({largest, std::abs(f), std::abs(a)});
                }
        const double sOut = largest * 1.05 / 127; // no output clips
        sq8::ChannelScales s;
        for (int co = 0; co < Cout; ++co) {
            const sq8::Multiplier m = sq8::multiplierFor(sIn * sW[size_t(co)] / sOut);
            s.scale.push_back(uint8_t(m.scale));
            s.shift.push_back(uint8_t(m.shift));
        }

        if (pool == int(Pool::Max)) {
            // Max pooling commutes with the monotone requantization: compare the float max of each
            // window with the kernel's pooled output, bounded by the window's worst error.
            p.pool = Pool::Max;
            p.poolWidth = p.poolHeight = 2;
            p.poolStrideX = p.poolStrideY = 2;
        }
        const std::vector<float> actual = sq8::dequantize(sq8::convPoolAct(p, xq, wq, bq, s), sOut);
        const fp::ConvPoolReluShape pooled = fp::convPoolReluOutputShape(p);
        double worst = 0;
        for (int co = 0; co < Cout; ++co)
            for (int y = 0; y < pooled.height; ++y)
                for (int xo = 0; xo < pooled.width; ++xo) {
                    double expected = -1e30, bound = 0;
                    const int window = pool == int(Pool::Max) ? 2 : 1;
                    for (int dy = 0; dy < window; ++dy)
                        for (int dx = 0; dx < window; ++dx) {
                            const size_t i = size_t((co * Hc + y * window + dy) * Wc + xo * window + dx);
                            expected = std::max(expected, reference[i]);
                            bound = std::max(bound, std::abs(accReal[i] - reference[i]) +
                                                        sOut * 0.5 + std::abs(accReal[i]) * std::ldexp(1.0, -8));
                        }
                    const double got = actual[size_t((co * pooled.height + y) * pooled.width + xo)];
                    worst = std::max(worst, std::abs(got - expected) / sOut);
                    QVERIFY2(std::abs(got - expected) <= bound * (1 + 1e-6) + 1e-9,
                             (std::to_string(got) + " vs " + std::to_string(expected) + " bound " +
                              std::to_string(bound))
                                 .c_str());
                }
        qInfo("largest error: %.3f output steps", worst);
        QVERIFY(worst < 2.5); // and in absolute terms a couple of output steps at most
    }

    void matAddAgreesWithFloat()
    {
        std::mt19937 rng(9);
        const double sA = 0.02, sB = 0.035, sOut = 0.05;
        // A common shift: the larger factor's 15-bit multiplier fixes it, the other uses the same shift.
        const sq8::Multiplier mb = sq8::multiplier15For(sB / sOut);
        const int scaleA = int(std::lround(std::ldexp(sA / sOut, mb.shift)));
        const Bytes a = randomBytes(rng, 200), b = randomBytes(rng, 200);
        const Bytes out = sq8::matAdd(a, scaleA, b, mb.scale, mb.shift, false);
        for (size_t i = 0; i < a.size(); ++i) {
            const double expected = std::clamp((a[i] * sA + b[i] * sB) / sOut, -128.0, 127.0);
            // Half a step for the rounding, plus the multipliers' error: 128 * 2^-16 each.
            QVERIFY2(std::abs(out[i] - expected) <= 0.5 + 2 * 128 * std::ldexp(1.0, -16) + 1e-9,
                     std::to_string(i).c_str());
        }
    }

    void badArgumentsThrow()
    {
        fp::ConvPoolReluParams p;
        p.width = p.height = 2;
        const Bytes in = {1, 2, 3, 4};
        const auto one = scales({128}, {7});
        QVERIFY(throwsInvalid([&] { sq8::convPoolAct(p, Bytes(3), {1}, {0}, one); }));       // input size
        QVERIFY(throwsInvalid([&] { sq8::convPoolAct(p, in, {1, 1}, {0}, one); }));          // filter size
        QVERIFY(throwsInvalid([&] { sq8::convPoolAct(p, in, {1}, {0, 0}, one); }));          // bias size
        QVERIFY(throwsInvalid([&] { sq8::convPoolAct(p, in, {1}, {0}, scales({1, 1}, {0, 0})); })); // scales
        QVERIFY(throwsInvalid([&] { sq8::convPoolAct(p, in, {1}, {0}, scales({1}, {63})); }));      // shift
        fp::ConvPoolReluParams big = p;
        big.filterWidth = 3; // the output would be empty
        QVERIFY(throwsInvalid([&] { sq8::convPoolAct(big, in, Bytes(3), {0}, one); }));
        fp::ConvPoolReluParams capped = p;
        capped.reluCap = -1;
        QVERIFY(throwsInvalid([&] { sq8::convPoolAct(capped, in, {1}, {0}, one); }));

        fp::PoolReluParams pool;
        pool.width = pool.height = 2;
        pool.poolWidth = pool.poolHeight = 3;
        QVERIFY(throwsInvalid([&] { sq8::poolAct(pool, in); })); // window larger than the plane
        pool.poolWidth = pool.poolHeight = 2;
        QVERIFY(throwsInvalid([&] { sq8::poolAct(pool, Bytes(5)); }));
        pool.pool = Pool::None;
        QVERIFY(throwsInvalid([&] { sq8::poolAct(pool, in); }));

        QVERIFY(throwsInvalid([] { sq8::globalAveragePool(1, 256, 257, Bytes(256 * 257)); })); // > 65535 values
        QVERIFY(throwsInvalid([] { sq8::globalAveragePool(2, 2, 2, Bytes(7)); }));
        const sq8::LayerInfos plain;
        using Act = sq8::Activation;
        QVERIFY(throwsInvalid([&] { sq8::linearAct(2, 1, Act::None, plain, {1, 2}, {1, 2, 3}, {0}, scales({1}, {0})); }));
        QVERIFY(throwsInvalid([&] { sq8::linearAct(2, 1, Act::None, plain, {1, 2}, {1, 2}, {0}, scales({1, 2}, {0, 0})); }));
        QVERIFY(throwsInvalid([&] { sq8::linearAct(1, 1, Act::None, plain, {1}, {1}, {0}, scales({1}, {32})); }));
        sq8::LayerInfos wide;
        wide.actScaleN = 32;
        QVERIFY(throwsInvalid([&] { sq8::linearAct(1, 1, Act::ReLU, wide, {1}, {1}, {0}, scales({1}, {0})); }));
        QVERIFY(throwsInvalid([] { sq8::matAdd({1}, 32768, {1}, 1, 0, false); }));
        QVERIFY(throwsInvalid([] { sq8::matAdd({1}, 1, {1}, -32768, 0, false); }));
        QVERIFY(throwsInvalid([] { sq8::matAdd({1}, 1, {1}, 1, 63, false); }));
        QVERIFY(throwsInvalid([] { sq8::matAdd({1, 2}, 1, {1}, 1, 0, false); }));
        QVERIFY(throwsInvalid([] { sq8::softmaxQ15({}, 1, 0, 12); }));
        QVERIFY(throwsInvalid([] { sq8::softmaxQ15({1}, 1, 0, 31); }));
        QVERIFY(throwsInvalid([] { sq8::softmaxQ15({1}, 32768, 0, 12); }));
        QVERIFY(throwsInvalid([] { sq8::softmaxQ15({1}, 1, 63, 12); }));
    }

    void accumulatorOverflowThrows()
    {
        // 2^31 - 1 plus one product of 1: the int32 accumulator overflows.
        // The linear layer computes as GAP does (the SDK's contract): its 32-bit values wrap.
        const int32_t top = std::numeric_limits<int32_t>::max();
        const sq8::LayerInfos plain;
        using Act = sq8::Activation;
        // 2^31 - 1 + 1 wraps to -2^31: (-2^31 + 2^30) >> 31 = -1.
        QCOMPARE(sq8::linearAct(1, 1, Act::None, plain, {1}, {1}, {top}, scales({1}, {31})), (Bytes{-1}));
        // 2^31 - 2 does not, but its rounding half does: (2^31 - 2 + 2^30) wraps negative, >> 31 = -1.
        QCOMPARE(sq8::linearAct(1, 1, Act::None, plain, {-1}, {1}, {top}, scales({1}, {31})), (Bytes{-1}));
        QCOMPARE(sq8::linearAct(1, 1, Act::None, plain, {-1}, {1}, {top}, scales({1}, {1})), (Bytes{127}));  // half 1: no wrap
        // 2^24 x 128 = 2^31 wraps to -2^31: >> 24 = -128; 2^24 x 127 does not wrap: >> 24 = 127.
        QCOMPARE(sq8::linearAct(1, 1, Act::None, plain, {0}, {0}, {1 << 24}, scales({128}, {24})), (Bytes{-128}));
        QCOMPARE(sq8::linearAct(1, 1, Act::None, plain, {0}, {0}, {1 << 24}, scales({127}, {24})), (Bytes{127}));
        fp::ConvPoolReluParams p;
        QVERIFY(throwsOverflow([&] { sq8::convPoolAct(p, {-128}, {127}, {std::numeric_limits<int32_t>::min()},
                                                      scales({1}, {0})); }));
        QCOMPARE(sq8::convPoolAct(p, {-128}, {-1}, {std::numeric_limits<int32_t>::min()}, scales({1}, {31})),
                 (Bytes{-1})); // (-2^31 + 128 + 2^30) >> 31 = -1
    }
};

QTEST_GUILESS_MAIN(TestFixedPointSq8)
#include "tst_fixed_point_sq8.moc"
