// The IR foundation: dtypes, shapes, tensor data, graphs, topological order, verifier, builder.
#include "ir/builder.h"
#include "base/error.h"
#include "ir/topology.h"
#include "ir/verifier.h"
#include "op_test_support.h"

#include <QtTest>

#include <cmath>
#include <limits>

using namespace tessera;
using namespace tessera::test;

namespace {

// x -> Relu -> Add(., c) -> y, built by hand (no shape inference) for graph-level tests.
Graph handBuiltGraph()
{
    Graph graph;
    graph.name = "g";
    Tensor x{"x", DType::Float32, {2, 3}, true, nullptr, {}};
    const TensorId in = graph.addTensor(x);
    Tensor c{"c", DType::Float32, {3}, true, std::make_shared<const TensorData>(TensorData::fromFloats({3}, {1, 2, 3})), {}};
    const TensorId constant = graph.addTensor(c);
    const TensorId relu = graph.addTensor(Tensor{"r", DType::Float32, {2, 3}, true, nullptr, {}});
    const TensorId out = graph.addTensor(Tensor{"y", DType::Float32, {2, 3}, true, nullptr, {}});
    // Listed consumer first so that topological order has to reorder them.
    graph.addNode(Node{"add", "Add", "", {relu, constant}, {out}, {}});
    graph.addNode(Node{"relu", "Relu", "", {in}, {relu}, {}});
    graph.inputs = {in};
    graph.outputs = {out};
    return graph;
}

bool anyContains(const std::vector<std::string>& problems, const std::string& fragment)
{
    for (const std::string& problem : problems)
        if (problem.find(fragment) != std::string::npos)
            return true;
    return false;
}

} // namespace

class TestIr : public QObject {
    Q_OBJECT

private slots:
    void dtypeSizesAndNames_data()
    {
        QTest::addColumn<int>("type");
        QTest::addColumn<int>("size");
        QTest::addColumn<QString>("name");
        QTest::newRow("float32") << int(DType::Float32) << 4 << "float32";
        QTest::newRow("float16") << int(DType::Float16) << 2 << "float16";
        QTest::newRow("bfloat16") << int(DType::BFloat16) << 2 << "bfloat16";
        QTest::newRow("int8") << int(DType::Int8) << 1 << "int8";
        QTest::newRow("uint8") << int(DType::UInt8) << 1 << "uint8";
        QTest::newRow("int16") << int(DType::Int16) << 2 << "int16";
        QTest::newRow("int32") << int(DType::Int32) << 4 << "int32";
        QTest::newRow("int64") << int(DType::Int64) << 8 << "int64";
        QTest::newRow("bool") << int(DType::Bool) << 1 << "bool";
    }
    void dtypeSizesAndNames()
    {
        QFETCH(int, type);
        QFETCH(int, size);
        QFETCH(QString, name);
        const auto dtype = static_cast<DType>(type);
        QCOMPARE(int(dtypeSize(dtype)), size);
        QCOMPARE(QString::fromStdString(std::string(dtypeName(dtype))), name);
        QVERIFY(dtypeFromName(name.toStdString()) == dtype);
    }

    void halfAndBfloat16Conversions()
    {
        QCOMPARE(floatToHalf(1.0f), uint16_t(0x3C00));
        QCOMPARE(floatToHalf(-2.0f), uint16_t(0xC000));
        QCOMPARE(halfToFloat(0x7BFF), 65504.0f);               // largest half
        QCOMPARE(halfToFloat(0x0001), std::ldexp(1.0f, -24));  // smallest subnormal
        QVERIFY(std::isinf(halfToFloat(floatToHalf(1e6f))));
        QVERIFY(std::isnan(halfToFloat(floatToHalf(std::numeric_limits<float>::quiet_NaN()))));
        QCOMPARE(floatToBfloat16(1.0f), uint16_t(0x3F80));
        QCOMPARE(bfloat16ToFloat(0x4049), 3.140625f);
        // Round to nearest even: 1 + 2^-8 lies halfway between two bfloat16 values.
        QCOMPARE(bfloat16ToFloat(floatToBfloat16(1.0f + std::ldexp(1.0f, -8))), 1.0f);
        QCOMPARE(bfloat16ToFloat(floatToBfloat16(1.0f + 3 * std::ldexp(1.0f, -8))), 1.0f + std::ldexp(1.0f, -6));
    }

    void shapesAndBroadcasting()
    {
        QCOMPARE(elementCount({2, 3, 4}), int64_t(24));
        QCOMPARE(elementCount({}), int64_t(1));
        QCOMPARE(elementCount({5, 0}), int64_t(0));
        QCOMPARE(QString::fromStdString(shapeToString({1, 3, 224, 224})), QString("[1, 3, 224, 224]"));
        QVERIFY(stridesOf({2, 3, 4}) == (std::vector<int64_t>{12, 4, 1}));
        QCOMPARE(normalizeAxis(-1, 4, "axis"), int64_t(3));
        QVERIFY(broadcastShapes({2, 1, 4}, {3, 1}, "b") == (Shape{2, 3, 4}));
        expectError<ShapeError>([] { broadcastShapes({2, 3}, {4}, "add"); }, "add");
        expectError<ShapeError>([] { normalizeAxis(4, 4, "axis of Softmax"); }, "axis of Softmax");
        expectError<ShapeError>([] { elementCount({-1, 3}, "weights"); }, "weights");
        // Absurd shapes are refused before anything is allocated.
        expectError<ShapeError>([] { elementCount({1 << 30, 1 << 30, 4}, "huge"); }, "huge");
    }

    void tensorDataAccessAndSaturation()
    {
        TensorData data = TensorData::fromInts(DType::Int8, {3}, {-5, 100, 7});
        QCOMPARE(data.byteSize(), size_t(3));
        QCOMPARE(data.getInt(1), int64_t(100));
        data.setInt(1, 1000); // integers wrap: 1000 mod 256 = 232 = -24 as int8
        QCOMPARE(data.getInt(1), int64_t(-24));
        data.setDouble(0, -300.0); // values saturate
        QCOMPARE(data.getInt(0), int64_t(-128));
        data.setDouble(2, 1e9);
        QCOMPARE(data.getInt(2), int64_t(127));
        const TensorData half = TensorData::fromDoubles(DType::Float16, {2}, {0.5, -1.25});
        QCOMPARE(half.getDouble(1), -1.25);
        TensorData reshaped = TensorData::fromFloats({2, 3}, {1, 2, 3, 4, 5, 6});
        reshaped.reshape({3, 2});
        QVERIFY(reshaped.shape() == (Shape{3, 2}));
        expectError<ShapeError>([&] { reshaped.reshape({4, 2}); }, "cannot reshape");
        QVERIFY(TensorData::fromFloats({2}, {1, 2}) == TensorData::fromFloats({2}, {1, 2}));
        QVERIFY(!(TensorData::fromFloats({2}, {1, 2}) == TensorData::fromFloats({2}, {1, 3})));
    }

    void graphNamesAreUnique()
    {
        Graph graph = handBuiltGraph();
        expectError<ModelError>([&] { graph.addTensor(Tensor{"x", DType::Float32, {1}, true, nullptr, {}}); },
                                "duplicate tensor name 'x'");
        const std::string fresh = graph.uniqueTensorName("x");
        QVERIFY(fresh != "x");
        QVERIFY(!graph.findTensor(fresh));
        QVERIFY(graph.findTensor("c").has_value());
    }

    void topologicalOrderAndUses()
    {
        const Graph graph = handBuiltGraph();
        const std::vector<NodeId> order = topologicalOrder(graph);
        QCOMPARE(order.size(), size_t(2));
        QCOMPARE(graph.node(order[0]).name, std::string("relu"));
        QCOMPARE(graph.node(order[1]).name, std::string("add"));
        const TensorUses uses = computeUses(graph);
        const TensorId relu = *graph.findTensor("r");
        QCOMPARE(uses.producer[relu], NodeId(1));
        QCOMPARE(uses.consumers[relu].size(), size_t(1));
        QCOMPARE(uses.producer[*graph.findTensor("x")], NodeId(-1));
    }

    void cyclesAreReportedWithNodeNames()
    {
        Graph graph = handBuiltGraph();
        // relu now reads add's output: relu -> add -> relu.
        graph.node(1).inputs = {*graph.findTensor("y")};
        expectError<ModelError>([&] { topologicalOrder(graph); }, "cycle");
        QVERIFY(anyContains(verifyGraph(graph), "cycle"));
    }

    void verifierFindsBrokenGraphs()
    {
        QVERIFY(verifyGraph(handBuiltGraph()).empty());

        Graph twoProducers = handBuiltGraph();
        twoProducers.node(1).outputs = {*twoProducers.findTensor("y")};
        QVERIFY(anyContains(verifyGraph(twoProducers), "produced by more than one node"));

        Graph writesConstant = handBuiltGraph();
        writesConstant.node(1).outputs = {*writesConstant.findTensor("c")};
        QVERIFY(anyContains(verifyGraph(writesConstant), "writes constant 'c'"));

        Graph duplicateNames = handBuiltGraph();
        duplicateNames.node(0).name = "relu";
        QVERIFY(anyContains(verifyGraph(duplicateNames), "duplicate node name 'relu'"));

        Graph wrongType = handBuiltGraph();
        wrongType.tensor(*wrongType.findTensor("y")).shape = {7};
        QVERIFY(anyContains(verifyGraph(wrongType), "'y'"));
        expectError<ModelError>([&] { requireValidGraph(wrongType); }, "'y'");
    }

    void removeNodesCompactsTensors()
    {
        Graph graph = handBuiltGraph();
        // Make the graph output the relu result and drop the Add node.
        graph.outputs = {*graph.findTensor("r")};
        graph.removeNodes({true, false});
        QCOMPARE(graph.nodeCount(), size_t(1));
        QVERIFY(!graph.findTensor("y"));
        QVERIFY(!graph.findTensor("c"));
        QVERIFY(verifyGraph(graph).empty());
    }

    void builderTypesNodesAsTheyAreAdded()
    {
        GraphBuilder builder("b");
        const TensorId x = builder.input("x", DType::Float32, {2, 3});
        const TensorId c = builder.constant("c", TensorData::fromFloats({3}, {1, 2, 3}));
        const TensorId y = builder.op("Add", {x, c}, {}, "add");
        QVERIFY(builder.tensor(y).typed);
        QVERIFY(builder.tensor(y).shape == (Shape{2, 3}));
        builder.output(y);
        const Graph graph = builder.finish();
        QCOMPARE(graph.nodeCount(), size_t(1));
        const std::vector<TensorData> out = Interpreter(graph).run({TensorData::fromFloats({2, 3}, {0, 0, 0, 1, 1, 1})});
        compare(out[0], TensorData::fromFloats({2, 3}, {1, 2, 3, 2, 3, 4}));
    }

    void builderRejectsMistakesAtTheLineThatMadeThem()
    {
        GraphBuilder builder("b");
        const TensorId x = builder.input("x", DType::Float32, {2, 3});
        const TensorId y = builder.input("y", DType::Float32, {4});
        expectError<ShapeError>([&] { builder.op("Add", {x, y}, {}, "bad_add"); }, "bad_add");
        expectError<UnsupportedError>([&] { builder.op("NoSuchOp", {x}, {}, "n"); },
                                      "unsupported operator NoSuchOp (opset 17) at node 'n'");
        expectError<ModelError>([&] { builder.input("x", DType::Float32, {1}); }, "'x'");
    }

    void interpreterChecksInputs()
    {
        GraphBuilder builder("b");
        const TensorId x = builder.input("x", DType::Float32, {2});
        builder.output(builder.op("Relu", {x}));
        const Graph graph = builder.finish();
        const Interpreter interpreter(graph);
        expectError<ShapeError>([&] { interpreter.run({}); }, "has 1 inputs, 0 were given");
        expectError<ShapeError>([&] { interpreter.run({TensorData::fromFloats({3}, {1, 2, 3})}); },
                                "input 'x' expects float32 [2]");
        compare(interpreter.run({TensorData::fromFloats({2}, {-1, 4})})[0], TensorData::fromFloats({2}, {0, 4}));
    }
};

QTEST_GUILESS_MAIN(TestIr)
#include "tst_ir.moc"
