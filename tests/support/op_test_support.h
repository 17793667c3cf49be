#pragma once
// Helpers for the operator tests: run one node through the interpreter and compare values.
#include "interp/interpreter.h"
#include "ir/builder.h"
#include "base/error.h"

#include <QtTest>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

namespace tessera::test {

// Literal tensor contents and dimensions in test tables.
using Values = QList<double>;
using Dims = QList<qint64>;

inline Shape toShape(const Dims& dims) { return Shape(dims.begin(), dims.end()); }

// A tensor of `type` from values given as doubles.
inline TensorData tensor(DType type, const Dims& dims, const Values& values)
{
    return TensorData::fromDoubles(type, toShape(dims), std::vector<double>(values.begin(), values.end()));
}

// Runs one node of `opType` on `inputs` (std::nullopt for an absent optional input) and returns
// its outputs.
inline std::vector<TensorData> runNode(const std::string& opType, const std::vector<std::optional<TensorData>>& inputs,
                                AttributeMap attributes = {}, int64_t opset = 17, size_t outputCount = 1)
{
    GraphBuilder builder("g", opset);
    std::vector<TensorId> ids;
    std::vector<TensorData> values;
    for (size_t k = 0; k < inputs.size(); ++k) {
        if (!inputs[k]) {
            ids.push_back(kNoTensor);
            continue;
        }
        ids.push_back(builder.input("in" + std::to_string(k), inputs[k]->dtype(), inputs[k]->shape()));
        values.push_back(*inputs[k]);
    }
    for (TensorId id : builder.node(opType, ids, std::move(attributes), outputCount, "n"))
        builder.output(id);
    const Graph graph = builder.finish();
    return Interpreter(graph).run(values);
}

inline TensorData runOne(const std::string& opType, const std::vector<std::optional<TensorData>>& inputs,
                  AttributeMap attributes = {}, int64_t opset = 17)
{
    return runNode(opType, inputs, std::move(attributes), opset).front();
}

// Same dtype and shape, values equal within a relative 1e-6 (NaN matches NaN).
inline void compare(const TensorData& actual, const TensorData& expected)
{
    QCOMPARE(dtypeName(actual.dtype()), dtypeName(expected.dtype()));
    QCOMPARE(shapeToString(actual.shape()), shapeToString(expected.shape()));
    for (int64_t i = 0; i < actual.elements(); ++i) {
        const double a = actual.getDouble(i);
        const double b = expected.getDouble(i);
        if (std::isnan(b)) {
            QVERIFY2(std::isnan(a), qPrintable(QString("element %1 is %2, expected NaN").arg(i).arg(a)));
            continue;
        }
        if (std::isinf(b)) {
            QCOMPARE(a, b);
            continue;
        }
        QVERIFY2(std::abs(a - b) <= 1e-6 * (1.0 + std::abs(b)),
                 qPrintable(QString("element %1 is %2, expected %3").arg(i).arg(a, 0, 'g', 10).arg(b, 0, 'g', 10)));
    }
}

// Expects `call` to throw E whose message contains `fragment`.
template <class E, class F> void expectError(F call, const QString& fragment)
{
    try {
        call();
    } catch (const E& error) {
        QVERIFY2(QString(error.what()).contains(fragment), error.what());
        return;
    }
    QFAIL(qPrintable("no error containing '" + fragment + "'"));
}

} // namespace tessera::test
