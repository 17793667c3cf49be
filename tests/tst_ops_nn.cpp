// Shape rules and reference kernels of the neural-network operators and the reductions. Every
// expectation is computed by hand from the operator's definition.
#include "interp/interpreter.h"
#include "ir/builder.h"
#include "base/error.h"
#include "ir/shape_inference.h"
#include "op_test_support.h"

#include <QElapsedTimer>
#include <QtTest>

#include <cmath>
#include <optional>

using namespace tessera;
using namespace tessera::test;

namespace {

const DType f32 = DType::Float32;

TensorData floats(const Dims& dims, const Values& values) { return tensor(f32, dims, values); }
TensorData ints(const Dims& dims, const Values& values) { return tensor(DType::Int64, dims, values); }

Attribute ints(std::vector<int64_t> values) { return Attribute::ofInts(std::move(values)); }
Attribute integer(int64_t value) { return Attribute::ofInt(value); }

// Runs one node whose inputs listed in `constants` are graph constants (shape rules need their
// values) and the others graph inputs.
std::vector<TensorData> runWithConstants(const std::string& opType, const std::vector<TensorData>& inputs,
                                         const std::vector<bool>& constants, AttributeMap attributes, int64_t opset,
                                         size_t outputCount = 1)
{
    GraphBuilder builder("g", opset);
    std::vector<TensorId> ids;
    std::vector<TensorData> values;
    for (size_t k = 0; k < inputs.size(); ++k) {
        if (k < constants.size() && constants[k]) {
            ids.push_back(builder.constant("c" + std::to_string(k), inputs[k]));
        } else {
            ids.push_back(builder.input("in" + std::to_string(k), inputs[k].dtype(), inputs[k].shape()));
            values.push_back(inputs[k]);
        }
    }
    for (TensorId id : builder.node(opType, ids, std::move(attributes), outputCount, "n"))
        builder.output(id);
    const Graph graph = builder.finish();
    return Interpreter(graph).run(values);
}

} // namespace

class TestOpsNn : public QObject {
    Q_OBJECT

private slots:
    void convPaddingAndStride()
    {
        const TensorData x = floats({1, 1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
        const TensorData w = floats({1, 1, 2, 2}, {1, 1, 1, 1});
        compare(runOne("Conv", {x, w}), floats({1, 1, 2, 2}, {12, 16, 24, 28}));
        compare(runOne("Conv", {x, w}, {{"pads", ints({1, 1, 1, 1})}, {"strides", ints({2, 2})}}),
                floats({1, 1, 2, 2}, {1, 5, 11, 28}));
    }

    // Zero output channels is a valid, empty result (and no null pointer reaches memcpy).
    void convWithNoOutputChannels()
    {
        const TensorData x = floats({1, 1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
        const TensorData w = floats({0, 1, 2, 2}, {});
        const TensorData out = runOne("Conv", {x, w});
        QCOMPARE(out.shape(), (Shape{1, 0, 2, 2}));
        QCOMPARE(out.elements(), int64_t(0));
        QVERIFY(out.toFloats().empty());
    }

    void convGroupsAndBias()
    {
        // Depthwise: two groups of one channel, each scaled and shifted on its own.
        const TensorData x = floats({1, 2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8});
        const TensorData w = floats({2, 1, 1, 1}, {2, -1});
        const TensorData b = floats({2}, {1, 0});
        compare(runOne("Conv", {x, w, b}, {{"group", integer(2)}}),
                floats({1, 2, 2, 2}, {3, 5, 7, 9, -5, -6, -7, -8}));
        // One group over both channels sums them.
        const TensorData w2 = floats({1, 2, 1, 1}, {1, 1});
        compare(runOne("Conv", {x, w2}), floats({1, 1, 2, 2}, {6, 8, 10, 12}));
    }

    void convDilationAndAutoPad()
    {
        const TensorData x = floats({1, 1, 5}, {1, 2, 3, 4, 5});
        compare(runOne("Conv", {x, floats({1, 1, 2}, {1, 1})}, {{"dilations", ints({2})}}),
                floats({1, 1, 3}, {4, 6, 8}));
        const TensorData x4 = floats({1, 1, 4}, {1, 2, 3, 4});
        const TensorData w3 = floats({1, 1, 3}, {1, 1, 1});
        compare(runOne("Conv", {x4, w3}, {{"auto_pad", Attribute::ofString("SAME_UPPER")}}),
                floats({1, 1, 4}, {3, 6, 9, 7}));
        // Odd total padding: SAME_UPPER puts the extra at the end, SAME_LOWER at the start.
        compare(runOne("Conv", {x4, w3}, {{"auto_pad", Attribute::ofString("SAME_UPPER")}, {"strides", ints({2})}}),
                floats({1, 1, 2}, {6, 7}));
        compare(runOne("Conv", {x4, w3}, {{"auto_pad", Attribute::ofString("SAME_LOWER")}, {"strides", ints({2})}}),
                floats({1, 1, 2}, {3, 9}));
    }

    void conv3d()
    {
        const TensorData x = floats({1, 1, 2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8});
        const TensorData w = floats({1, 1, 2, 1, 1}, {1, 10});
        compare(runOne("Conv", {x, w}), floats({1, 1, 1, 2, 2}, {51, 62, 73, 84}));
    }

    void convTranspose()
    {
        const TensorData x = floats({1, 1, 3}, {1, 2, 3});
        const TensorData w = floats({1, 1, 2}, {1, 1});
        compare(runOne("ConvTranspose", {x, w}), floats({1, 1, 4}, {1, 3, 5, 3}));
        compare(runOne("ConvTranspose", {x, w}, {{"strides", ints({2})}}), floats({1, 1, 6}, {1, 1, 2, 2, 3, 3}));
        compare(runOne("ConvTranspose", {x, w}, {{"strides", ints({2})}, {"pads", ints({1, 1})}}),
                floats({1, 1, 4}, {1, 2, 2, 3}));
        // output_padding adds a row that only the bias reaches.
        compare(runOne("ConvTranspose", {x, w, floats({1}, {0.5})}, {{"strides", ints({2})}, {"output_padding", ints({1})}}),
                floats({1, 1, 7}, {1.5, 1.5, 2.5, 2.5, 3.5, 3.5, 0.5}));
    }

    void maxPoolWithIndices()
    {
        const TensorData x = floats({1, 1, 2, 3}, {1, 5, 2, 4, 3, 6});
        const AttributeMap attrs{{"kernel_shape", ints({2, 2})}};
        const std::vector<TensorData> rowMajor = runNode("MaxPool", {x}, attrs, 17, 2);
        compare(rowMajor[0], floats({1, 1, 1, 2}, {5, 6}));
        compare(rowMajor[1], ints({1, 1, 1, 2}, {1, 5}));
        AttributeMap columnAttrs = attrs;
        columnAttrs["storage_order"] = integer(1);
        compare(runNode("MaxPool", {x}, columnAttrs, 17, 2)[1], ints({1, 1, 1, 2}, {2, 5}));
        // int8 from opset 12.
        compare(runOne("MaxPool", {tensor(DType::Int8, {1, 1, 4}, {-5, -3, 7, -128})}, {{"kernel_shape", ints({2})}}),
                tensor(DType::Int8, {1, 1, 3}, {-3, 7, 7}));
    }

    void averagePoolPadding()
    {
        const TensorData x = floats({1, 1, 3}, {1, 2, 3});
        const AttributeMap attrs{{"kernel_shape", ints({2})}, {"pads", ints({1, 1})}};
        compare(runOne("AveragePool", {x}, attrs), floats({1, 1, 4}, {1, 1.5, 2.5, 3}));
        AttributeMap include = attrs;
        include["count_include_pad"] = integer(1);
        compare(runOne("AveragePool", {x}, include), floats({1, 1, 4}, {0.5, 1.5, 2.5, 1.5}));
    }

    void poolCeilMode()
    {
        const TensorData x = floats({1, 1, 5}, {1, 2, 3, 4, 5});
        const AttributeMap floorAttrs{{"kernel_shape", ints({2})}, {"strides", ints({2})}};
        compare(runOne("AveragePool", {x}, floorAttrs), floats({1, 1, 2}, {1.5, 3.5}));
        AttributeMap ceilAttrs = floorAttrs;
        ceilAttrs["ceil_mode"] = integer(1);
        compare(runOne("AveragePool", {x}, ceilAttrs), floats({1, 1, 3}, {1.5, 3.5, 5}));
        compare(runOne("MaxPool", {x}, ceilAttrs), floats({1, 1, 3}, {2, 4, 5}));
    }

    void lpAndGlobalPools()
    {
        const TensorData x = floats({1, 2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8});
        compare(runOne("GlobalAveragePool", {x}), floats({1, 2, 1, 1}, {2.5, 6.5}));
        compare(runOne("GlobalMaxPool", {x}), floats({1, 2, 1, 1}, {4, 8}));
        compare(runOne("GlobalLpPool", {floats({1, 1, 2}, {3, -4})}), floats({1, 1, 1}, {5}));
        compare(runOne("LpPool", {floats({1, 1, 3}, {3, 4, 0})}, {{"kernel_shape", ints({2})}, {"p", integer(1)}}),
                floats({1, 1, 2}, {7, 4}));
    }

    void gemm()
    {
        const TensorData a = floats({2, 3}, {1, 2, 3, 4, 5, 6});
        const TensorData bt = floats({2, 3}, {1, 0, 1, 0, 1, 0});
        compare(runOne("Gemm", {a, bt}, {{"transB", integer(1)}}), floats({2, 2}, {4, 2, 10, 5}));
        compare(runOne("Gemm", {a, bt, floats({2}, {1, 2})},
                       {{"transB", integer(1)}, {"alpha", Attribute::ofFloat(2)}, {"beta", Attribute::ofFloat(1)}}),
                floats({2, 2}, {9, 6, 21, 12}));
        // transA: A is given as [K, M].
        compare(runOne("Gemm", {floats({2, 1}, {1, 2}), floats({2, 2}, {1, 2, 3, 4})}, {{"transA", integer(1)}}),
                floats({1, 2}, {7, 10}));
    }

    void matMulBroadcastsBatches()
    {
        const TensorData a = floats({2, 2, 2}, {1, 0, 0, 1, 1, 1, 0, 1});
        compare(runOne("MatMul", {a, floats({2}, {1, 2})}), floats({2, 2}, {1, 2, 3, 2}));
        compare(runOne("MatMul", {floats({2}, {1, 2}), a}), floats({2, 2}, {1, 2, 1, 3}));
        compare(runOne("MatMul", {a, floats({1, 2, 1}, {1, 1})}), floats({2, 2, 1}, {1, 1, 2, 1}));
        compare(runOne("MatMul", {tensor(DType::Int32, {1, 2}, {3, -4}), tensor(DType::Int32, {2, 1}, {100000, 1})}),
                tensor(DType::Int32, {1, 1}, {299996}));
    }

    void batchNormalization()
    {
        const TensorData x = floats({1, 2, 1, 2}, {1, 2, 3, 4});
        const std::vector<std::optional<TensorData>> inputs{x, floats({2}, {1, 2}), floats({2}, {0, 1}),
                                                            floats({2}, {1, 3}), floats({2}, {4, 1})};
        compare(runOne("BatchNormalization", inputs, {{"epsilon", Attribute::ofFloat(0)}}),
                floats({1, 2, 1, 2}, {0, 0.5, 1, 3}));
        // Training mode normalizes with the batch statistics and blends them into the running ones.
        const std::vector<TensorData> trained = runNode(
            "BatchNormalization", inputs,
            {{"epsilon", Attribute::ofFloat(0)}, {"training_mode", integer(1)}, {"momentum", Attribute::ofFloat(0.5)}},
            17, 3);
        compare(trained[0], floats({1, 2, 1, 2}, {-1, 1, -1, 3}));
        compare(trained[1], floats({2}, {1.25, 3.25}));
        compare(trained[2], floats({2}, {2.125, 0.625}));
    }

    void instanceAndLayerNormalization()
    {
        compare(runOne("InstanceNormalization", {floats({1, 1, 2}, {1, 3}), floats({1}, {2}), floats({1}, {1})},
                       {{"epsilon", Attribute::ofFloat(0)}}),
                floats({1, 1, 2}, {-1, 3}));
        const std::vector<TensorData> ln =
            runNode("LayerNormalization", {floats({2, 2}, {1, 3, 2, 2}), floats({2}, {1, 2}), floats({2}, {0, 1})}, {},
                    17, 3);
        const double inv = 1.0 / std::sqrt(1.0 + 1e-5);
        compare(ln[0], floats({2, 2}, {-inv, 2 * inv + 1, 0, 1}));
        compare(ln[1], floats({2, 1}, {2, 2}));
        compare(ln[2], floats({2, 1}, {inv, 1.0 / std::sqrt(1e-5)}));
    }

    void lrnAndLpNormalization()
    {
        compare(runOne("LRN", {floats({1, 3, 1, 1}, {1, 2, 3})},
                       {{"size", integer(3)}, {"alpha", Attribute::ofFloat(3)}, {"beta", Attribute::ofFloat(1)}}),
                floats({1, 3, 1, 1}, {1.0 / 6, 2.0 / 15, 3.0 / 14}));
        compare(runOne("LpNormalization", {floats({2, 2}, {3, 4, 1, -1})}, {{"p", integer(1)}}),
                floats({2, 2}, {3.0 / 7, 4.0 / 7, 0.5, -0.5}));
        compare(runOne("LpNormalization", {floats({2, 2}, {3, 4, 6, 8})}, {{"axis", integer(0)}}),
                floats({2, 2}, {3 / std::sqrt(45.0), 4 / std::sqrt(80.0), 6 / std::sqrt(45.0), 8 / std::sqrt(80.0)}));
    }

    void softmaxFamily()
    {
        const double e = std::exp(1.0);
        const TensorData x = floats({2, 2}, {1, 2, 5, 5});
        compare(runOne("Softmax", {x}), floats({2, 2}, {1 / (1 + e), e / (1 + e), 0.5, 0.5}));
        compare(runOne("LogSoftmax", {x}), floats({2, 2}, {-std::log(1 + e), 1 - std::log(1 + e), -std::log(2.0), -std::log(2.0)}));
        compare(runOne("Hardmax", {x}), floats({2, 2}, {0, 1, 1, 0}));
        compare(runOne("Softmax", {x}, {{"axis", integer(0)}}),
                floats({2, 2}, {1 / (1 + std::exp(4.0)), 1 / (1 + std::exp(3.0)), 1 / (1 + std::exp(-4.0)),
                                1 / (1 + std::exp(-3.0))}));
        // Before opset 13 the input is a matrix [dims before axis, dims from axis]: axis 0 spans all.
        const TensorData all = runOne("Softmax", {floats({2, 1}, {0, 0})}, {{"axis", integer(0)}}, 11);
        compare(all, floats({2, 1}, {0.5, 0.5}));
    }

    void reductions_data()
    {
        QTest::addColumn<QString>("op");
        QTest::addColumn<QList<qint64>>("axes");
        QTest::addColumn<int>("keepDims");
        QTest::addColumn<Dims>("outShape");
        QTest::addColumn<Values>("expected");
        // Input [[1, 2, 3], [4, 5, 6]].
        QTest::newRow("sum rows") << "ReduceSum" << QList<qint64>{1} << 1 << Dims{2, 1} << Values{6, 15};
        QTest::newRow("mean columns") << "ReduceMean" << QList<qint64>{0} << 0 << Dims{3} << Values{2.5, 3.5, 4.5};
        QTest::newRow("max all") << "ReduceMax" << QList<qint64>{} << 1 << Dims{1, 1} << Values{6};
        QTest::newRow("min negative axis") << "ReduceMin" << QList<qint64>{-1} << 0 << Dims{2} << Values{1, 4};
        QTest::newRow("prod") << "ReduceProd" << QList<qint64>{1} << 0 << Dims{2} << Values{6, 120};
        QTest::newRow("l1") << "ReduceL1" << QList<qint64>{0, 1} << 0 << Dims{} << Values{21};
        QTest::newRow("l2") << "ReduceL2" << QList<qint64>{1} << 0 << Dims{2} << Values{std::sqrt(14.0), std::sqrt(77.0)};
        QTest::newRow("sum square") << "ReduceSumSquare" << QList<qint64>{0} << 0 << Dims{3} << Values{17, 29, 45};
        QTest::newRow("log sum") << "ReduceLogSum" << QList<qint64>{1} << 0 << Dims{2} << Values{std::log(6.0), std::log(15.0)};
        QTest::newRow("log sum exp") << "ReduceLogSumExp" << QList<qint64>{0} << 0 << Dims{3}
                                     << Values{std::log(std::exp(1.0) + std::exp(4.0)), std::log(std::exp(2.0) + std::exp(5.0)),
                                               std::log(std::exp(3.0) + std::exp(6.0))};
    }

    void reductions()
    {
        QFETCH(QString, op);
        QFETCH(QList<qint64>, axes);
        QFETCH(int, keepDims);
        QFETCH(Dims, outShape);
        QFETCH(Values, expected);
        const TensorData x = floats({2, 3}, {1, 2, 3, 4, 5, 6});
        const std::vector<int64_t> axisList(axes.begin(), axes.end());
        const TensorData want = floats(outShape, expected);
        // Opset 11: axes as attribute. Opset 18: axes as a constant input.
        AttributeMap attrs{{"keepdims", integer(keepDims)}};
        if (!axisList.empty())
            attrs["axes"] = ints(axisList);
        compare(runOne(op.toStdString(), {x}, attrs, 11), want);
        std::vector<TensorData> inputs{x};
        if (!axisList.empty())
            inputs.push_back(TensorData::fromInts(DType::Int64, {static_cast<int64_t>(axisList.size())}, axisList));
        compare(runWithConstants(op.toStdString(), inputs, {false, true}, {{"keepdims", integer(keepDims)}}, 18)[0], want);
    }

    void reductionEdgeCases()
    {
        const TensorData x = floats({2, 2}, {1, 2, 3, 4});
        // noop_with_empty_axes keeps the input as it is.
        compare(runOne("ReduceSum", {x}, {{"noop_with_empty_axes", integer(1)}}, 13), x);
        // Reducing an empty dim gives the identity of the operation.
        const TensorData empty(f32, {2, 0});
        compare(runOne("ReduceSum", {empty}, {{"axes", ints({1})}}, 11), floats({2, 1}, {0, 0}));
        compare(runOne("ReduceProd", {empty}, {{"axes", ints({1})}}, 11), floats({2, 1}, {1, 1}));
        compare(runOne("ReduceMax", {empty}, {{"axes", ints({1})}}, 11),
                floats({2, 1}, {-std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()}));
        compare(runOne("ReduceSum", {tensor(DType::Int32, {3}, {1, 2, 3})}, {{"keepdims", integer(0)}}, 11),
                tensor(DType::Int32, {}, {6}));
    }

    void shapeErrors()
    {
        const TensorData x = floats({1, 3, 4, 4}, QList<double>(48, 1.0));
        expectError<ShapeError>([&] { runOne("Conv", {x, floats({2, 2, 1, 1}, {1, 1, 1, 1})}); },
                                "input has 3 channels");
        expectError<ShapeError>([&] { runOne("Conv", {x, floats({1, 3, 5, 5}, QList<double>(75, 1.0))}); },
                                "larger than the padded input");
        expectError<ShapeError>([&] { runOne("MaxPool", {x}); }, "kernel_shape is required");
        expectError<ShapeError>([&] { runOne("MaxPool", {x}, {{"kernel_shape", ints({2, 2})}, {"strides", ints({0, 1})}}); },
                                "strides has the value 0");
        // Absurd attributes are refused before any size arithmetic could overflow.
        expectError<ShapeError>([&] { runOne("MaxPool", {x}, {{"kernel_shape", ints({2, 2})},
                                                              {"strides", ints({INT64_MAX, 1})}, {"ceil_mode", integer(1)}}); },
                                "must be between 1 and");
        expectError<ShapeError>([&] { runOne("Conv", {x, floats({1, 1, 1, 1}, {1})}, {{"group", integer(INT64_MAX)}}); },
                                "attribute group");
        expectError<ShapeError>([&] { runOne("Gemm", {floats({2, 3}, QList<double>(6, 1.0)), floats({2, 3}, QList<double>(6, 1.0))}); },
                                "inner dim");
        expectError<ShapeError>([&] { runOne("MatMul", {floats({2, 3}, QList<double>(6, 1.0)), floats({2}, {1, 1})}); },
                                "inner dims disagree");
        expectError<ShapeError>([&] { runOne("ReduceSum", {floats({2}, {1, 2})}, {{"axes", ints({1})}}, 11); },
                                "out of range");
        expectError<ShapeError>([&] { runOne("ReduceMean", {floats({2, 2}, {1, 2, 3, 4})}, {{"axes", ints({0, -2})}}, 11); },
                                "listed twice");
        expectError<ShapeError>([&] { runOne("BatchNormalization", {x, floats({2}, {1, 1}), floats({3}, {0, 0, 0}),
                                                                    floats({3}, {0, 0, 0}), floats({3}, {1, 1, 1})}); },
                                "scale has shape [2]");
        // Axes fed at run time cannot give a static shape.
        expectError<ShapeError>([&] { runOne("ReduceSum", {x, ints({1}, {1})}, {}, 13); }, "must be a constant");
    }

    // Resize as PyTorch's exporter writes it (X, an empty roi, constant scales or sizes) and Upsample.
    void resizeNearest()
    {
        const TensorData x = floats({1, 1, 2, 2}, {1, 2, 3, 4});
        const TensorData roi(f32, {0});
        const TensorData twice = floats({4}, {1, 1, 2, 2});
        const TensorData expected = floats({1, 1, 4, 4}, {1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4});
        // nn.Upsample(scale_factor=2): asymmetric coordinates, floor.
        const AttributeMap pytorch = {{"mode", Attribute::ofString("nearest")},
                                      {"coordinate_transformation_mode", Attribute::ofString("asymmetric")},
                                      {"nearest_mode", Attribute::ofString("floor")}};
        compare(runWithConstants("Resize", {x, roi, twice}, {false, true, true}, pytorch, 13).front(), expected);
        // ONNX's defaults (half_pixel, round_prefer_floor) pick the same pixels at a factor of 2.
        compare(runWithConstants("Resize", {x, roi, twice}, {false, true, true}, {}, 13).front(), expected);
        // Upsample (opset 9, scales as an input) and Resize-10: floor of x / scale, per axis.
        compare(runWithConstants("Upsample", {floats({1, 1, 1, 2}, {5, 6}), floats({4}, {1, 1, 2, 3})}, {false, true},
                                 {}, 9)
                    .front(),
                floats({1, 1, 2, 6}, {5, 5, 5, 6, 6, 6, 5, 5, 5, 6, 6, 6}));
        compare(runWithConstants("Resize", {x, twice}, {false, true}, {}, 10).front(), expected);
        // Halving, half_pixel: positions 0.5 and 2.5 are ties, resolved down or up by nearest_mode.
        const TensorData row = floats({1, 4}, {1, 2, 3, 4});
        const TensorData half = floats({2}, {1, 0.5});
        compare(runWithConstants("Resize", {row, roi, half}, {false, true, true}, {}, 13).front(), floats({1, 2}, {1, 3}));
        compare(runWithConstants("Resize", {row, roi, half}, {false, true, true},
                                 {{"nearest_mode", Attribute::ofString("round_prefer_ceil")}}, 13)
                    .front(),
                floats({1, 2}, {2, 4}));
        // Integer tensors keep their type.
        compare(runWithConstants("Resize", {tensor(DType::Int32, {1, 2}, {7, -8}), roi, floats({2}, {1, 2})},
                                 {false, true, true}, pytorch, 13)
                    .front(),
                tensor(DType::Int32, {1, 4}, {7, 7, -8, -8}));
    }

    void resizeLinear()
    {
        const TensorData x = floats({1, 1, 1, 2}, {0, 4});
        const TensorData roi(f32, {0});
        const TensorData noScales(f32, {0});
        const AttributeMap linear = {{"mode", Attribute::ofString("linear")}};
        // half_pixel (bilinear, align_corners=False): -0.25, 0.25, 0.75, 1.25 clamped to [0, 1].
        compare(runWithConstants("Resize", {x, roi, floats({4}, {1, 1, 1, 2})}, {false, true, true}, linear, 13).front(),
                floats({1, 1, 1, 4}, {0, 1, 3, 4}));
        // align_corners to 3 positions by sizes: 0, 0.5, 1.
        AttributeMap corners = linear;
        corners["coordinate_transformation_mode"] = Attribute::ofString("align_corners");
        compare(runWithConstants("Resize", {x, roi, noScales, ints({4}, {1, 1, 1, 3})}, {false, true, true, true},
                                 corners, 13)
                    .front(),
                floats({1, 1, 1, 3}, {0, 2, 4}));
        // Both axes: the 2x2 square [[0, 4], [8, 12]] at its centre, asymmetric, scale 2: x / 2.
        AttributeMap asymmetric = linear;
        asymmetric["coordinate_transformation_mode"] = Attribute::ofString("asymmetric");
        const TensorData square = floats({1, 1, 2, 2}, {0, 4, 8, 12});
        compare(runWithConstants("Resize", {square, roi, floats({4}, {1, 1, 2, 2})}, {false, true, true}, asymmetric, 13)
                    .front(),
                floats({1, 1, 4, 4}, {0, 2, 4, 4, 4, 6, 8, 8, 8, 10, 12, 12, 8, 10, 12, 12}));
    }

    void resizeErrors()
    {
        const TensorData x = floats({1, 1, 2, 2}, {1, 2, 3, 4});
        const TensorData roi(f32, {0});
        const TensorData twice = floats({4}, {1, 1, 2, 2});
        expectError<ShapeError>(
            [&] {
                runWithConstants("Resize", {x, roi, twice}, {false, true, true},
                                 {{"coordinate_transformation_mode", Attribute::ofString("tf_crop_and_resize")}}, 13);
            },
            "tf_crop_and_resize needs a constant roi of 8 values");
        expectError<ShapeError>([&] { runWithConstants("Resize", {x, roi, floats({2}, {1, 2})}, {false, true, true}, {}, 13); },
                                "2 scales for an input of rank 4");
        // A crop box of NaN or far outside the input samples nothing: every position extrapolates.
        const double nan = std::numeric_limits<double>::quiet_NaN();
        const AttributeMap crop = {{"coordinate_transformation_mode", Attribute::ofString("tf_crop_and_resize")},
                                   {"extrapolation_value", Attribute::ofFloat(7.0f)}};
        for (const double corner : {nan, 1e300}) {
            const TensorData box = floats({8}, {0, 0, corner, corner, 1, 1, corner, corner});
            compare(runWithConstants("Resize", {x, box, twice}, {false, true, true}, crop, 13).front(),
                    floats({1, 1, 4, 4}, QList<double>(16, 7.0)));
        }
        expectError<ShapeError>(
            [&] { runWithConstants("Resize", {x, roi, twice, ints({4}, {1, 1, 3, 3})}, {false, true, true, true}, {}, 13); },
            "both scales and sizes");
        expectError<ShapeError>(
            [&] { runWithConstants("Resize", {x, roi, floats({4}, {1, 1, 0, 2})}, {false, true, true}, {}, 13); },
            "not a positive size factor");
        expectError<ShapeError>(
            [&] { runWithConstants("Resize", {x, roi, floats({4}, {1, 1, 1e300, 2})}, {false, true, true}, {}, 13); },
            "not a positive size factor");
        expectError<ShapeError>([&] { runWithConstants("Resize", {x, roi}, {false, true}, {}, 13); },
                                "neither scales nor sizes");
        // Scales computed at run time cannot give a static shape.
        expectError<ShapeError>([&] { runWithConstants("Resize", {x, roi, twice}, {false, true, false}, {}, 13); },
                                "must be a constant");
        expectError<ShapeError>(
            [&] {
                runWithConstants("Resize", {x, roi, twice}, {false, true, true}, {{"mode", Attribute::ofString("bicubic")}},
                                 13);
            },
            "mode 'bicubic' is not one of nearest, linear, cubic");
    }

    // A node whose output would pass what a tensor file holds is refused before anything is
    // allocated (a Tile to 4 GB here), naming the node, the shape and the limit.
    void oversizedValuesAreRefusedBeforeAllocating()
    {
        QElapsedTimer clock;
        clock.start();
        expectError<UnsupportedError>(
            [&] {
                runWithConstants("Tile", {floats({1, 1000}, QList<double>(1000, 1.0)), ints({2}, {1000, 1000})},
                                 {false, true}, {}, 13);
            },
            "node 'n' (Tile): output 0 would be float32 [1000, 1000000], 3814 MB, beyond the 2048 MB");
        QVERIFY(clock.elapsed() < 2000);  // refused, not computed (a 4 GB fill takes far longer)
    }

    void unsupportedRankFailsClearly()
    {
        const TensorData x(f32, {1, 1, 2, 2, 2, 2});
        const TensorData w = floats({1, 1, 1, 1, 1, 1}, {1});
        expectError<UnsupportedError>([&] { runOne("Conv", {x, w}); }, "4 spatial dims");
    }
};

QTEST_GUILESS_MAIN(TestOpsNn)
#include "tst_ops_nn.moc"
