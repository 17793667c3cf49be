// Shape rules and reference kernels of the element-wise operators.
#include "interp/interpreter.h"
#include "ir/builder.h"
#include "base/error.h"
#include "test_support.h"
#include "op_test_support.h"

#include <QtTest>

#include <cmath>
#include <limits>
#include <optional>

using namespace tessera;
using namespace tessera::test;

namespace {

const double kNan = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

AttributeMap floatAttr(const char* name, float value) { return {{name, Attribute::ofFloat(value)}}; }

} // namespace

Q_DECLARE_METATYPE(tessera::DType)

class TestOpsElementwise : public QObject {
    Q_OBJECT

private slots:
    void binary_data();
    void binary();
    void integerDivisionByZeroFails();
    void pow_data();
    void pow();
    void variadic_data();
    void variadic();
    void unary_data();
    void unary();
    void clipAttributesBeforeOpset11();
    void clipInputs();
    void preluBroadcastsSlope();
    void cast_data();
    void cast();
    void dropoutPassesThrough();
    void whereSelects();
    void modBitShiftAndPredicates();
    void shapeErrors();
};

void TestOpsElementwise::binary_data()
{
    QTest::addColumn<QString>("op");
    QTest::addColumn<DType>("type");
    QTest::addColumn<Dims>("shapeA");
    QTest::addColumn<Values>("a");
    QTest::addColumn<Dims>("shapeB");
    QTest::addColumn<Values>("b");
    QTest::addColumn<DType>("outType");
    QTest::addColumn<Dims>("outShape");
    QTest::addColumn<Values>("expected");

    const DType f = DType::Float32;
    const DType b = DType::Bool;
    QTest::newRow("add broadcast row") << "Add" << f << Dims{2, 3} << Values{1, 2, 3, 4, 5, 6} << Dims{3}
                                       << Values{10, 20, 30} << f << Dims{2, 3} << Values{11, 22, 33, 14, 25, 36};
    QTest::newRow("sub column broadcast") << "Sub" << f << Dims{2, 1} << Values{1, 2} << Dims{1, 3}
                                          << Values{1, 2, 3} << f << Dims{2, 3} << Values{0, -1, -2, 1, 0, -1};
    QTest::newRow("mul scalar") << "Mul" << f << Dims{3} << Values{1, -2, 3.5} << Dims{} << Values{2} << f
                                << Dims{3} << Values{2, -4, 7};
    QTest::newRow("div float") << "Div" << f << Dims{3} << Values{1, -3, 1} << Dims{3} << Values{4, 2, 0} << f
                               << Dims{3} << Values{0.25, -1.5, kInf};
    QTest::newRow("div int truncates") << "Div" << DType::Int32 << Dims{4} << Values{-7, 7, -7, 7} << Dims{4}
                                       << Values{2, -2, -2, 2} << DType::Int32 << Dims{4} << Values{-3, -3, 3, 3};
    QTest::newRow("add int8 wraps") << "Add" << DType::Int8 << Dims{2} << Values{100, -100} << Dims{2}
                                    << Values{100, -100} << DType::Int8 << Dims{2} << Values{-56, 56};
    QTest::newRow("sub uint8 wraps") << "Sub" << DType::UInt8 << Dims{2} << Values{3, 200} << Dims{2}
                                     << Values{5, 100} << DType::UInt8 << Dims{2} << Values{254, 100};
    QTest::newRow("mul int64") << "Mul" << DType::Int64 << Dims{2} << Values{3000000, -4} << Dims{2}
                               << Values{3000000, 5} << DType::Int64 << Dims{2} << Values{9e12, -20};
    QTest::newRow("add float16") << "Add" << DType::Float16 << Dims{2} << Values{1, 0.5} << Dims{2}
                                 << Values{0.25, 1024} << DType::Float16 << Dims{2} << Values{1.25, 1024.5};
    QTest::newRow("equal") << "Equal" << f << Dims{3} << Values{1, 2, kNan} << Dims{3} << Values{1, 3, kNan} << b
                           << Dims{3} << Values{1, 0, 0};
    QTest::newRow("equal int64") << "Equal" << DType::Int64 << Dims{2} << Values{5, 6} << Dims{} << Values{6}
                                 << b << Dims{2} << Values{0, 1};
    QTest::newRow("less") << "Less" << f << Dims{3} << Values{1, 2, 3} << Dims{} << Values{2} << b << Dims{3}
                          << Values{1, 0, 0};
    QTest::newRow("greater") << "Greater" << DType::Int8 << Dims{3} << Values{-1, 2, 3} << Dims{1} << Values{2}
                             << b << Dims{3} << Values{0, 0, 1};
    QTest::newRow("less or equal") << "LessOrEqual" << f << Dims{3} << Values{1, 2, 3} << Dims{} << Values{2} << b
                                   << Dims{3} << Values{1, 1, 0};
    QTest::newRow("greater or equal") << "GreaterOrEqual" << f << Dims{3} << Values{1, 2, 3} << Dims{}
                                      << Values{2} << b << Dims{3} << Values{0, 1, 1};
    QTest::newRow("and broadcast") << "And" << b << Dims{2, 2} << Values{1, 0, 1, 1} << Dims{2} << Values{1, 0}
                                   << b << Dims{2, 2} << Values{1, 0, 1, 0};
    QTest::newRow("or") << "Or" << b << Dims{4} << Values{0, 0, 1, 1} << Dims{4} << Values{0, 1, 0, 1} << b
                        << Dims{4} << Values{0, 1, 1, 1};
    QTest::newRow("xor") << "Xor" << b << Dims{4} << Values{0, 0, 1, 1} << Dims{4} << Values{0, 1, 0, 1} << b
                         << Dims{4} << Values{0, 1, 1, 0};
}

void TestOpsElementwise::binary()
{
    QFETCH(QString, op);
    QFETCH(DType, type);
    QFETCH(Dims, shapeA);
    QFETCH(Values, a);
    QFETCH(Dims, shapeB);
    QFETCH(Values, b);
    QFETCH(DType, outType);
    QFETCH(Dims, outShape);
    QFETCH(Values, expected);
    compare(runOne(op.toStdString(), {tensor(type, shapeA, a), tensor(type, shapeB, b)}),
            tensor(outType, outShape, expected));
}

void TestOpsElementwise::integerDivisionByZeroFails()
{
    expectError<ShapeError>([] { runOne("Div", {tensor(DType::Int32, {2}, {1, 2}), tensor(DType::Int32, {2}, {1, 0})}); },
                            "integer division by zero");
    // INT64_MIN / -1 wraps instead of trapping.
    const double lowest = static_cast<double>(std::numeric_limits<int64_t>::lowest());
    const TensorData q = runOne("Div", {tensor(DType::Int64, {1}, {lowest}), tensor(DType::Int64, {1}, {-1})});
    QCOMPARE(q.getInt(0), std::numeric_limits<int64_t>::lowest());
}

void TestOpsElementwise::pow_data()
{
    QTest::addColumn<DType>("baseType");
    QTest::addColumn<Values>("base");
    QTest::addColumn<DType>("exponentType");
    QTest::addColumn<Values>("exponent");
    QTest::addColumn<Values>("expected");
    QTest::newRow("float") << DType::Float32 << Values{2, 4, -2} << DType::Float32 << Values{3, 0.5, 2}
                           << Values{8, 2, 4};
    QTest::newRow("float ^ int32") << DType::Float32 << Values{1.5, 2, 3} << DType::Int32 << Values{2, -1, 3}
                                   << Values{2.25, 0.5, 27};
    QTest::newRow("int64 ^ int64") << DType::Int64 << Values{3, -2, 5} << DType::Int64 << Values{20, 3, 0}
                                   << Values{3486784401.0, -8, 1};
    QTest::newRow("int32 ^ float truncates") << DType::Int32 << Values{2, 9, 10} << DType::Float32
                                             << Values{0.5, 0.5, -1} << Values{1, 3, 0};
}

void TestOpsElementwise::pow()
{
    QFETCH(DType, baseType);
    QFETCH(Values, base);
    QFETCH(DType, exponentType);
    QFETCH(Values, exponent);
    QFETCH(Values, expected);
    const Dims dims{static_cast<qint64>(base.size())};
    compare(runOne("Pow", {tensor(baseType, dims, base), tensor(exponentType, dims, exponent)}),
            tensor(baseType, dims, expected));
}

void TestOpsElementwise::variadic_data()
{
    QTest::addColumn<QString>("op");
    QTest::addColumn<DType>("type");
    QTest::addColumn<Values>("expected");
    // Inputs: [3] {1, 5, nan-or-2}, [2, 1] {2, -4}, scalar {3}; the result is [2, 3].
    QTest::newRow("sum") << "Sum" << DType::Float32 << Values{6, 10, 7, 0, 4, 1};
    QTest::newRow("mean") << "Mean" << DType::Float32 << Values{2, 10.0 / 3, 7.0 / 3, 0, 4.0 / 3, 1.0 / 3};
    QTest::newRow("max") << "Max" << DType::Float32 << Values{3, 5, 3, 3, 5, 3};
    QTest::newRow("min int32") << "Min" << DType::Int32 << Values{1, 2, 2, -4, -4, -4};
    QTest::newRow("max int8") << "Max" << DType::Int8 << Values{3, 5, 3, 3, 5, 3};
}

void TestOpsElementwise::variadic()
{
    QFETCH(QString, op);
    QFETCH(DType, type);
    QFETCH(Values, expected);
    const TensorData out = runOne(op.toStdString(), {tensor(type, {3}, {1, 5, 2}), tensor(type, {2, 1}, {2, -4}),
                                                     tensor(type, {}, {3})});
    compare(out, tensor(type, {2, 3}, expected));
    // A single input passes through; NaN propagates through Max and Min.
    compare(runOne(op.toStdString(), {tensor(type, {2}, {4, -1})}), tensor(type, {2}, {4, -1}));
    if (isFloat(type) && (op == "Max" || op == "Min")) {
        const TensorData withNan = runOne(op.toStdString(), {tensor(type, {2}, {kNan, 1}), tensor(type, {2}, {0, kNan})});
        QVERIFY(std::isnan(withNan.getDouble(0)) && std::isnan(withNan.getDouble(1)));
    }
}

void TestOpsElementwise::unary_data()
{
    QTest::addColumn<QString>("op");
    QTest::addColumn<DType>("type");
    QTest::addColumn<Values>("input");
    QTest::addColumn<Values>("expected");
    QTest::addColumn<QString>("attrName"); // one float attribute, or empty
    QTest::addColumn<double>("attrValue");

    const DType f = DType::Float32;
    const Values x{-2, -0.5, 0, 1, 3};
    QTest::newRow("sqrt") << "Sqrt" << f << Values{0, 4, 2, -1} << Values{0, 2, std::sqrt(2.0), kNan} << "" << 0.0;
    QTest::newRow("exp") << "Exp" << f << Values{0, 1, -1} << Values{1, std::exp(1.0), std::exp(-1.0)} << "" << 0.0;
    QTest::newRow("log") << "Log" << f << Values{1, std::exp(2.0), 0} << Values{0, 2, -kInf} << "" << 0.0;
    QTest::newRow("reciprocal") << "Reciprocal" << f << Values{2, -0.25} << Values{0.5, -4} << "" << 0.0;
    QTest::newRow("floor") << "Floor" << f << Values{-1.5, 1.5, 2} << Values{-2, 1, 2} << "" << 0.0;
    QTest::newRow("ceil") << "Ceil" << f << Values{-1.5, 1.5, 2} << Values{-1, 2, 2} << "" << 0.0;
    QTest::newRow("round half even") << "Round" << f << Values{0.5, 1.5, 2.5, -0.5, -1.5, 2.4, -2.6}
                                     << Values{0, 2, 2, 0, -2, 2, -3} << "" << 0.0;
    QTest::newRow("sign") << "Sign" << f << Values{-3, 0, 0.1} << Values{-1, 0, 1} << "" << 0.0;
    QTest::newRow("sign int") << "Sign" << DType::Int16 << Values{-300, 0, 7} << Values{-1, 0, 1} << "" << 0.0;
    QTest::newRow("abs int8") << "Abs" << DType::Int8 << Values{-128, -5, 5} << Values{-128, 5, 5} << "" << 0.0;
    QTest::newRow("neg") << "Neg" << f << Values{-2, 0, 3} << Values{2, 0, -3} << "" << 0.0;
    QTest::newRow("erf") << "Erf" << f << Values{0, 1, -2} << Values{0, std::erf(1.0), std::erf(-2.0)} << "" << 0.0;
    QTest::newRow("sin") << "Sin" << f << Values{0, M_PI / 2} << Values{0, 1} << "" << 0.0;
    QTest::newRow("cos") << "Cos" << f << Values{0, M_PI} << Values{1, -1} << "" << 0.0;
    QTest::newRow("relu") << "Relu" << f << x << Values{0, 0, 0, 1, 3} << "" << 0.0;
    QTest::newRow("relu int32") << "Relu" << DType::Int32 << Values{-7, 7} << Values{0, 7} << "" << 0.0;
    QTest::newRow("leaky relu default") << "LeakyRelu" << f << x << Values{-0.02, -0.005, 0, 1, 3} << "" << 0.0;
    QTest::newRow("leaky relu alpha") << "LeakyRelu" << f << x << Values{-0.2, -0.05, 0, 1, 3} << "alpha" << 0.1;
    QTest::newRow("sigmoid") << "Sigmoid" << f << Values{0, 2, -100}
                             << Values{0.5, 1 / (1 + std::exp(-2.0)), 1 / (1 + std::exp(100.0))} << "" << 0.0;
    QTest::newRow("tanh") << "Tanh" << f << Values{0, 1} << Values{0, std::tanh(1.0)} << "" << 0.0;
    QTest::newRow("hard sigmoid") << "HardSigmoid" << f << x << Values{0.1, 0.4, 0.5, 0.7, 1} << "" << 0.0;
    QTest::newRow("hard swish") << "HardSwish" << f << Values{-4, -1, 0, 1, 4}
                                << Values{0, -1.0 / 3, 0, 2.0 / 3, 4} << "" << 0.0;
    QTest::newRow("elu") << "Elu" << f << x << Values{std::expm1(-2.0), std::expm1(-0.5), 0, 1, 3} << "" << 0.0;
    QTest::newRow("elu alpha") << "Elu" << f << Values{-1, 2} << Values{2 * std::expm1(-1.0), 2} << "alpha" << 2.0;
    const double selA = 1.67326319217681884765625, selG = 1.05070102214813232421875;
    QTest::newRow("selu") << "Selu" << f << Values{-1, 2} << Values{selG * selA * std::expm1(-1.0), selG * 2}
                          << "" << 0.0;
    QTest::newRow("celu") << "Celu" << f << Values{-1, 2} << Values{2 * std::expm1(-0.5), 2} << "alpha" << 2.0;
    QTest::newRow("softplus") << "Softplus" << f << Values{0, 100, -100}
                              << Values{std::log(2.0), 100, std::exp(-100.0)} << "" << 0.0;
    QTest::newRow("softsign") << "Softsign" << f << Values{-3, 1} << Values{-0.75, 0.5} << "" << 0.0;
    QTest::newRow("thresholded relu") << "ThresholdedRelu" << f << x << Values{0, 0, 0, 0, 3} << "" << 0.0;
    QTest::newRow("identity int64") << "Identity" << DType::Int64 << Values{-5, 9} << Values{-5, 9} << "" << 0.0;
    QTest::newRow("not") << "Not" << DType::Bool << Values{0, 1} << Values{1, 0} << "" << 0.0;
    QTest::newRow("relu bfloat16") << "Relu" << DType::BFloat16 << Values{-1, 2} << Values{0, 2} << "" << 0.0;
}

void TestOpsElementwise::unary()
{
    QFETCH(QString, op);
    QFETCH(DType, type);
    QFETCH(Values, input);
    QFETCH(Values, expected);
    QFETCH(QString, attrName);
    QFETCH(double, attrValue);
    AttributeMap attributes;
    if (!attrName.isEmpty())
        attributes = floatAttr(attrName.toStdString().c_str(), static_cast<float>(attrValue));
    const Dims dims{static_cast<qint64>(input.size())};
    compare(runOne(op.toStdString(), {tensor(type, dims, input)}, attributes), tensor(type, dims, expected));
}

void TestOpsElementwise::clipAttributesBeforeOpset11()
{
    const TensorData x = tensor(DType::Float32, {4}, {-3, -1, 1, 3});
    AttributeMap bounds = floatAttr("min", -2.0f);
    bounds["max"] = Attribute::ofFloat(2.0f);
    compare(runOne("Clip", {x}, bounds, 10), tensor(DType::Float32, {4}, {-2, -1, 1, 2}));
    compare(runOne("Clip", {x}, floatAttr("max", 0.0f), 7), tensor(DType::Float32, {4}, {-3, -1, 0, 0}));
    expectError<ShapeError>([&] { runOne("Clip", {x, tensor(DType::Float32, {}, {0})}, {}, 10); }, "before opset 11");
}

void TestOpsElementwise::clipInputs()
{
    const TensorData x = tensor(DType::Float32, {4}, {-3, -1, 1, 3});
    const TensorData lo = tensor(DType::Float32, {}, {-2});
    const TensorData hi = tensor(DType::Float32, {}, {2});
    compare(runOne("Clip", {x, lo, hi}), tensor(DType::Float32, {4}, {-2, -1, 1, 2}));
    compare(runOne("Clip", {x, std::nullopt, hi}), tensor(DType::Float32, {4}, {-3, -1, 1, 2}));
    compare(runOne("Clip", {x}), x);
    // min > max makes every value max.
    compare(runOne("Clip", {x, hi, lo}), tensor(DType::Float32, {4}, {-2, -2, -2, -2}));
    const TensorData ints = tensor(DType::Int8, {3}, {-128, 0, 127});
    compare(runOne("Clip", {ints, tensor(DType::Int8, {}, {-5})}), tensor(DType::Int8, {3}, {-5, 0, 127}));
    expectError<ShapeError>([&] { runOne("Clip", {x, tensor(DType::Float32, {2}, {0, 1})}); }, "must be a scalar");
    expectError<ShapeError>([&] { runOne("Clip", {x, tensor(DType::Int8, {}, {0})}); }, "same data type");
}

void TestOpsElementwise::preluBroadcastsSlope()
{
    const TensorData x = tensor(DType::Float32, {2, 3}, {-1, -2, 3, -4, 5, -6});
    compare(runOne("PRelu", {x, tensor(DType::Float32, {3}, {0.5, 1, 2})}),
            tensor(DType::Float32, {2, 3}, {-0.5, -2, 3, -2, 5, -12}));
    compare(runOne("PRelu", {x, tensor(DType::Float32, {2, 1}, {0.1, 0})}),
            tensor(DType::Float32, {2, 3}, {-0.1, -0.2, 3, 0, 5, 0}));
    expectError<ShapeError>([&] { runOne("PRelu", {x, tensor(DType::Float32, {2}, {1, 1})}); }, "cannot be broadcast");
    expectError<ShapeError>([&] { runOne("PRelu", {x, tensor(DType::Float32, {4, 2, 3}, Values(24, 0.0))}); },
                            "must broadcast to the input shape");
}

void TestOpsElementwise::cast_data()
{
    QTest::addColumn<DType>("from");
    QTest::addColumn<Values>("input");
    QTest::addColumn<int>("to"); // ONNX element type code
    QTest::addColumn<DType>("outType");
    QTest::addColumn<Values>("expected");
    QTest::newRow("float to int32 truncates") << DType::Float32 << Values{-1.7, 2.9, -0.2} << 6 << DType::Int32
                                              << Values{-1, 2, 0};
    QTest::newRow("float to uint8 saturates") << DType::Float32 << Values{-3, 300, 7.9} << 2 << DType::UInt8
                                              << Values{0, 255, 7};
    QTest::newRow("float to bool") << DType::Float32 << Values{0, -0.5, kNan} << 9 << DType::Bool
                                   << Values{0, 1, 1};
    QTest::newRow("float to float16 rounds") << DType::Float32 << Values{1.0 / 3, 65504, 1e6} << 10
                                             << DType::Float16 << Values{0.333251953125, 65504, kInf};
    // As in the ONNX backend data: the low 16 bits are dropped (round to nearest would give 1.015625).
    QTest::newRow("float to bfloat16 truncates") << DType::Float32 << Values{1.013671875, -1.013671875, kNan}
                                                 << 16 << DType::BFloat16 << Values{1.0078125, -1.0078125, kNan};
    QTest::newRow("int32 to int8 wraps") << DType::Int32 << Values{300, -129, 5} << 3 << DType::Int8
                                         << Values{44, 127, 5};
    QTest::newRow("int64 to float") << DType::Int64 << Values{-7, 16777217} << 1 << DType::Float32
                                    << Values{-7, 16777216};
    QTest::newRow("bool to float") << DType::Bool << Values{1, 0} << 1 << DType::Float32 << Values{1, 0};
    QTest::newRow("float16 to float") << DType::Float16 << Values{0.5, -2} << 1 << DType::Float32
                                      << Values{0.5, -2};
    QTest::newRow("bfloat16 to int64") << DType::BFloat16 << Values{-3.5, 256} << 7 << DType::Int64
                                       << Values{-3, 256};
}

void TestOpsElementwise::cast()
{
    QFETCH(DType, from);
    QFETCH(Values, input);
    QFETCH(int, to);
    QFETCH(DType, outType);
    QFETCH(Values, expected);
    const Dims dims{static_cast<qint64>(input.size())};
    const TensorData out = runOne("Cast", {tensor(from, dims, input)}, {{"to", Attribute::ofInt(to)}});
    if (QByteArray(QTest::currentDataTag()) == "int32 to int8 wraps") {
        // -129 wraps to 127 (numpy astype), 300 to 44.
        QCOMPARE(out.getInt(1), int64_t{127});
    }
    compare(out, tensor(outType, dims, expected));
    // CastLike takes the type from its second input.
    compare(runOne("CastLike", {tensor(from, dims, input), TensorData(outType, {})}), out);
}

void TestOpsElementwise::dropoutPassesThrough()
{
    const TensorData x = tensor(DType::Float32, {2, 2}, {1, -2, 3, -4});
    std::vector<TensorData> out = runNode("Dropout", {x, tensor(DType::Float32, {}, {0.3})}, {}, 17, 2);
    compare(out[0], x);
    compare(out[1], tensor(DType::Bool, {2, 2}, {1, 1, 1, 1}));
    // Opset 7 to 9: ratio attribute, mask of the data type.
    out = runNode("Dropout", {x}, floatAttr("ratio", 0.2f), 7, 2);
    compare(out[0], x);
    compare(out[1], tensor(DType::Float32, {2, 2}, {1, 1, 1, 1}));
    const TensorData training = tensor(DType::Bool, {}, {1});
    expectError<UnsupportedError>([&] { runOne("Dropout", {x, std::nullopt, training}); }, "training mode");
    // Training mode with ratio 0 is still the identity.
    compare(runOne("Dropout", {x, tensor(DType::Float32, {}, {0}), training}), x);
}

void TestOpsElementwise::whereSelects()
{
    const TensorData condition = tensor(DType::Bool, {2, 1}, {1, 0});
    const TensorData x = tensor(DType::Int64, {3}, {1, 2, 3});
    const TensorData y = tensor(DType::Int64, {}, {-9});
    compare(runOne("Where", {condition, x, y}), tensor(DType::Int64, {2, 3}, {1, 2, 3, -9, -9, -9}));
    expectError<ShapeError>([&] { runOne("Where", {x, x, x}); }, "needs bool");
}

void TestOpsElementwise::modBitShiftAndPredicates()
{
    const TensorData a = tensor(DType::Int32, {4}, {7, -7, 7, -7});
    const TensorData b = tensor(DType::Int32, {4}, {3, 3, -3, -3});
    // fmod=0 takes the divisor's sign (Python %), fmod=1 the dividend's (C fmod).
    compare(runOne("Mod", {a, b}), tensor(DType::Int32, {4}, {1, 2, -2, -1}));
    compare(runOne("Mod", {a, b}, {{"fmod", Attribute::ofInt(1)}}), tensor(DType::Int32, {4}, {1, -1, 1, -1}));
    compare(runOne("Mod", {tensor(DType::Float32, {2}, {5.5, -5.5}), tensor(DType::Float32, {}, {2})},
                   {{"fmod", Attribute::ofInt(1)}}),
            tensor(DType::Float32, {2}, {1.5, -1.5}));
    expectError<ShapeError>([&] { runOne("Mod", {tensor(DType::Float32, {1}, {1}), tensor(DType::Float32, {1}, {1})}); },
                            "float inputs need fmod=1");
    expectError<ShapeError>([&] { runOne("Mod", {a, tensor(DType::Int32, {4}, {1, 0, 1, 1})}); },
                            "integer modulo by zero");

    const TensorData bits = tensor(DType::UInt8, {3}, {1, 16, 255});
    const TensorData shifts = tensor(DType::UInt8, {3}, {3, 4, 9});
    compare(runOne("BitShift", {bits, shifts}, {{"direction", Attribute::ofString("LEFT")}}),
            tensor(DType::UInt8, {3}, {8, 0, 0}));
    compare(runOne("BitShift", {bits, shifts}, {{"direction", Attribute::ofString("RIGHT")}}),
            tensor(DType::UInt8, {3}, {0, 1, 0}));
    expectError<ShapeError>([&] { runOne("BitShift", {bits, shifts}); }, "direction must be");

    const TensorData special = tensor(DType::Float32, {4}, {kNan, kInf, -kInf, 1});
    compare(runOne("IsNaN", {special}), tensor(DType::Bool, {4}, {1, 0, 0, 0}));
    compare(runOne("IsInf", {special}), tensor(DType::Bool, {4}, {0, 1, 1, 0}));
    compare(runOne("IsInf", {special}, {{"detect_positive", Attribute::ofInt(0)}}),
            tensor(DType::Bool, {4}, {0, 0, 1, 0}));

    AttributeMap shrink = floatAttr("lambd", 1.0f);
    shrink["bias"] = Attribute::ofFloat(0.5f);
    compare(runOne("Shrink", {tensor(DType::Float32, {5}, {-2, -1, 0, 1, 3})}, shrink),
            tensor(DType::Float32, {5}, {-1.5, 0, 0, 0, 2.5}));
}

void TestOpsElementwise::shapeErrors()
{
    const TensorData f = tensor(DType::Float32, {2}, {1, 2});
    const TensorData i = tensor(DType::Int64, {2}, {1, 2});
    expectError<ShapeError>([&] { runOne("Add", {f, i}); },
                            "node 'n' (Add): inputs 0 and 1 must have the same data type, got float32 and int64");
    expectError<ShapeError>([&] { runOne("Mul", {f, tensor(DType::Float32, {3}, {1, 2, 3})}); },
                            "cannot be broadcast together");
    expectError<ShapeError>([&] { runOne("Sqrt", {i}); }, "Sqrt needs a float type");
    expectError<ShapeError>([&] { runOne("Sum", {i, i}); }, "Sum needs a float type");
    expectError<ShapeError>([&] { runOne("And", {f, f}); }, "And needs bool");
    expectError<ShapeError>([&] { runOne("HardSwish", {f}, {}, 13); }, "exists from opset 14");
    expectError<ShapeError>([&] { runOne("Pow", {f, i}, {}, 11); }, "same data type");
    expectError<UnsupportedError>([&] { runOne("Cast", {f}, {{"to", Attribute::ofInt(11)}}); }, "cast to 11");
    expectError<ShapeError>([&] { runOne("Cast", {f}); }, "attribute 'to' is required");
    expectError<ShapeError>([&] { runOne("Celu", {f}, floatAttr("alpha", 0.0f)); }, "alpha must not be 0");
}

QTEST_APPLESS_MAIN(TestOpsElementwise)
#include "tst_ops_elementwise.moc"
