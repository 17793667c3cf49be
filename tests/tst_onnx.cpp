// ONNX import and export: round trips, Constant nodes, folding, and clear refusals of bad input.
#include "interp/constant_folding.h"
#include "onnx/onnx_export.h"
#include "onnx/onnx_import.h"
#include "onnx/tensor_proto.h"
#include "op_test_support.h"
#include "test_support.h"
#include "session/model_loader.h"

#include <QTemporaryDir>
#include <QtTest>

#include <onnx/onnx_pb.h>

#include <sys/resource.h>

using namespace tessera;
using namespace tessera::test;

namespace {

void setType(onnx::ValueInfoProto& info, const std::string& name, int elemType, const std::vector<int64_t>& dims)
{
    info.set_name(name);
    auto* type = info.mutable_type()->mutable_tensor_type();
    type->set_elem_type(elemType);
    for (int64_t d : dims)
        type->mutable_shape()->add_dim()->set_dim_value(d);
}

// y = Relu(x), x float32 [2, 3], with the default opset `opset`.
onnx::ModelProto reluModel(int64_t opset = 13)
{
    onnx::ModelProto model;
    model.set_ir_version(8);
    model.add_opset_import()->set_version(opset);
    auto* graph = model.mutable_graph();
    graph->set_name("relu_model");
    setType(*graph->add_input(), "x", onnx::TensorProto::FLOAT, {2, 3});
    setType(*graph->add_output(), "y", onnx::TensorProto::FLOAT, {2, 3});
    auto* node = graph->add_node();
    node->set_op_type("Relu");
    node->set_name("relu");
    node->add_input("x");
    node->add_output("y");
    return model;
}

std::string bytesOf(const onnx::ModelProto& model)
{
    std::string bytes;
    model.SerializeToString(&bytes);
    return bytes;
}

// A graph exercising attributes, constants of several types, optional inputs and quantization.
Graph richGraph()
{
    GraphBuilder builder("rich", 13);
    const TensorId x = builder.input("x", DType::Float32, {2, 3});
    const TensorId bias = builder.constant("bias", TensorData::fromFloats({3}, {0.5f, -1.0f, 2.0f}));
    const TensorId low = builder.constant("low", TensorData::fromFloats({}, {-1.0f}));
    const TensorId half = builder.constant("half_scale", TensorData::fromDoubles(DType::Float16, {1}, {0.5}));
    const TensorId a = builder.op("Add", {x, bias}, {}, "add");
    const TensorId clipped = builder.op("Clip", {a, low, kNoTensor}, {}, "clip");
    const TensorId h = builder.op("Cast", {clipped}, {{"to", Attribute::ofInt(10)}}, "to_half");
    const TensorId scaled = builder.op("Mul", {h, half}, {}, "scale");
    const TensorId leaky = builder.op("LeakyRelu", {scaled}, {{"alpha", Attribute::ofFloat(0.25f)}}, "leaky");
    builder.output(leaky);
    Graph graph = builder.finish();
    Quantization perChannel;
    perChannel.scale = {0.1f, 0.2f, 0.3f};
    perChannel.zeroPoint = {0, 1, -1};
    perChannel.axis = 0;
    graph.tensor(*graph.findTensor("bias")).quantization = perChannel;
    graph.tensor(*graph.findTensor("add")).quantization = Quantization::qFormat(7);
    return graph;
}

} // namespace

class TestOnnx : public QObject {
    Q_OBJECT

private slots:
    // A tensor that declares a billion values and holds none is refused before anything is
    // allocated for it (it used to zero 8 GB first).
    void declaredSizeIsCheckedBeforeAllocating()
    {
        onnx::TensorProto proto;
        proto.set_name("huge");
        proto.set_data_type(onnx::TensorProto::INT64);
        proto.add_dims(1000000000);
        struct rusage before {};
        ::getrusage(RUSAGE_SELF, &before);
        try {
            tensorFromProto(proto, "initializer 'huge'");
            QFAIL("a tensor without its values was read");
        } catch (const ModelError& error) {
            QVERIFY2(QString(error.what()).contains("initializer 'huge' holds 0 values, its shape [1000000000] needs "
                                                    "1000000000"),
                     error.what());
        }
        struct rusage after {};
        ::getrusage(RUSAGE_SELF, &after);
        QVERIFY2(after.ru_maxrss - before.ru_maxrss < 256 * 1024,  // KiB
                 qPrintable(QString("peak memory grew by %1 KiB").arg(after.ru_maxrss - before.ru_maxrss)));
    }

    void exportThenImportGivesTheSameGraph()
    {
        const Graph original = richGraph();
        Graph reread = importOnnxBytes(exportOnnxBytes(original), "rich.onnx");
        prepareGraph(reread, {false});
        QCOMPARE(reread.name, original.name);
        QCOMPARE(reread.opset, original.opset);
        QCOMPARE(reread.nodeCount(), original.nodeCount());
        for (size_t n = 0; n < original.nodeCount(); ++n) {
            const Node& a = original.nodes()[n];
            const Node& b = reread.nodes()[n];
            QCOMPARE(b.name, a.name);
            QCOMPARE(b.opType, a.opType);
            QVERIFY(b.attributes == a.attributes);
            QCOMPARE(b.inputs.size(), a.inputs.size());
            for (size_t k = 0; k < a.inputs.size(); ++k) {
                if (a.inputs[k] == kNoTensor) {
                    QCOMPARE(b.inputs[k], kNoTensor);
                    continue;
                }
                const Tensor& ta = original.tensor(a.inputs[k]);
                const Tensor& tb = reread.tensor(b.inputs[k]);
                QCOMPARE(tb.name, ta.name);
                QVERIFY(tb.dtype == ta.dtype);
                QVERIFY(tb.shape == ta.shape);
                QVERIFY(tb.quantization == ta.quantization);
                QCOMPARE(tb.isConstant(), ta.isConstant());
                if (ta.isConstant())
                    QVERIFY(*tb.constant == *ta.constant);
            }
        }
        const TensorData input = randomFloats({2, 3}, 7, -3.0f, 3.0f);
        compare(Interpreter(reread).run({input})[0], Interpreter(original).run({input})[0]);
    }

    void constantNodesBecomeConstants()
    {
        onnx::ModelProto model = reluModel();
        auto* graph = model.mutable_graph();
        graph->mutable_node(0)->set_input(0, "sum");
        auto* constant = graph->add_node();
        constant->set_op_type("Constant");
        constant->add_output("k");
        auto* value = constant->add_attribute();
        value->set_name("value_floats");
        value->set_type(onnx::AttributeProto::FLOATS);
        for (float v : {1.0f, -2.0f, 3.0f})
            value->add_floats(v);
        auto* add = graph->add_node();
        add->set_op_type("Add");
        add->add_input("x");
        add->add_input("k");
        add->add_output("sum");
        Graph imported = importOnnxBytes(bytesOf(model), "m.onnx");
        QCOMPARE(imported.nodeCount(), size_t(2)); // the Constant node is gone
        QVERIFY(imported.tensor(*imported.findTensor("k")).isConstant());
        prepareGraph(imported);
        const auto out = Interpreter(imported).run({TensorData::fromFloats({2, 3}, {0, 0, 0, 1, 1, -5})});
        compare(out[0], TensorData::fromFloats({2, 3}, {1, 0, 3, 2, 0, 0}));
    }

    void foldingReplacesShapeArithmetic()
    {
        GraphBuilder builder("fold", 13);
        const TensorId x = builder.input("x", DType::Float32, {4, 6});
        const TensorId shape = builder.op("Shape", {x}, {}, "shape");
        const TensorId two = builder.constant("two", TensorData::fromInts(DType::Int64, {1}, {2}));
        const TensorId doubled = builder.op("Mul", {shape, two}, {}, "double");
        const TensorId y = builder.op("Relu", {x}, {}, "relu");
        builder.output(y);
        builder.output(doubled);
        Graph graph = builder.finish();
        const FoldingReport report = inferAndFoldConstants(graph);
        QCOMPARE(report.foldedNodes, size_t(2));
        QCOMPARE(graph.nodeCount(), size_t(1));
        const Tensor& folded = graph.tensor(graph.outputs[1]);
        QVERIFY(folded.isConstant());
        QVERIFY(folded.constant->toInts() == (std::vector<int64_t>{8, 12}));
        const auto out = Interpreter(graph).run({randomFloats({4, 6}, 1)});
        QVERIFY(out[1].toInts() == (std::vector<int64_t>{8, 12}));
    }

    void symbolicDimensionsBecomeOneWithANote()
    {
        onnx::ModelProto model = reluModel();
        auto* dim = model.mutable_graph()->mutable_input(0)->mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim(0);
        dim->set_dim_param("batch");
        Graph graph = importOnnxBytes(bytesOf(model), "m.onnx");
        QVERIFY(graph.tensor(graph.inputs[0]).shape == (Shape{1, 3}));
        QCOMPARE(graph.notes.size(), size_t(1));
        QVERIFY(graph.notes[0].find("'batch'") != std::string::npos);
    }

    void badModelsAreRefusedClearly_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("message");
        QTest::newRow("empty") << QByteArray() << "empty file";
        QTest::newRow("garbage") << QByteArray("\xff\xff\xff\xff garbage", 13) << "not an ONNX model";
        QTest::newRow("markdown") << QByteArray("# Notes\n\nSome *text* about the model.\n") << "a text file, not an ONNX model";
        const std::string good = bytesOf(reluModel());
        QTest::newRow("truncated") << QByteArray(good.data(), int(good.size() / 2)) << "m.onnx";

        onnx::ModelProto unknownOp = reluModel();
        unknownOp.mutable_graph()->mutable_node(0)->set_op_type("FancyOp");
        QTest::newRow("unknown op") << QByteArray::fromStdString(bytesOf(unknownOp))
                                    << "unsupported operator FancyOp (opset 13) at node 'relu'";

        onnx::ModelProto otherDomain = reluModel();
        otherDomain.mutable_graph()->mutable_node(0)->set_domain("com.microsoft");
        QTest::newRow("other domain") << QByteArray::fromStdString(bytesOf(otherDomain))
                                      << "unsupported operator com.microsoft.Relu";

        QTest::newRow("old opset") << QByteArray::fromStdString(bytesOf(reluModel(5))) << "operator set version 5";
        QTest::newRow("new opset") << QByteArray::fromStdString(bytesOf(reluModel(99))) << "operator set version 99";

        onnx::ModelProto dangling = reluModel();
        dangling.mutable_graph()->mutable_node(0)->set_input(0, "nowhere");
        QTest::newRow("dangling input") << QByteArray::fromStdString(bytesOf(dangling)) << "reads 'nowhere'";

        onnx::ModelProto external = reluModel();
        auto* weight = external.mutable_graph()->add_initializer();
        weight->set_name("w");
        weight->set_data_type(onnx::TensorProto::FLOAT);
        weight->add_dims(3);
        weight->set_data_location(onnx::TensorProto::EXTERNAL);
        auto* location = weight->add_external_data();
        location->set_key("location");
        location->set_value("weights.bin");
        QTest::newRow("external data") << QByteArray::fromStdString(bytesOf(external)) << "external file";

        onnx::ModelProto doubles = reluModel();
        auto* d = doubles.mutable_graph()->add_initializer();
        d->set_name("d");
        d->set_data_type(onnx::TensorProto::DOUBLE);
        d->add_dims(1);
        d->add_double_data(1.0);
        QTest::newRow("float64") << QByteArray::fromStdString(bytesOf(doubles)) << "float64";

        onnx::ModelProto shortData = reluModel();
        auto* s = shortData.mutable_graph()->add_initializer();
        s->set_name("s");
        s->set_data_type(onnx::TensorProto::FLOAT);
        s->add_dims(4);
        s->add_float_data(1.0f);
        QTest::newRow("short data") << QByteArray::fromStdString(bytesOf(shortData)) << "holds 1 values";

        // Subgraphs nested 40 deep (120 message levels, beyond protobuf's default limit of 100):
        // the file is read, and the graph attribute is what is refused.
        onnx::ModelProto nested = reluModel();
        onnx::NodeProto* node = nested.mutable_graph()->mutable_node(0);
        for (int depth = 0; depth < 40; ++depth) {
            onnx::AttributeProto* branch = node->add_attribute();
            branch->set_name("then_branch");
            branch->set_type(onnx::AttributeProto::GRAPH);
            node = branch->mutable_g()->add_node();
            node->set_op_type("Identity");
        }
        QTest::newRow("nested 40 deep") << QByteArray::fromStdString(bytesOf(nested))
                                        << "is a graph, sparse tensor or type attribute, which is not supported";
    }
    void badModelsAreRefusedClearly()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, message);
        expectError<Error>([&] { importOnnxBytes(bytes.toStdString(), "m.onnx"); }, message);
    }

    void shapeErrorsNameTheFileAndNode()
    {
        onnx::ModelProto model = reluModel();
        auto* graph = model.mutable_graph();
        setType(*graph->add_input(), "z", onnx::TensorProto::FLOAT, {5});
        auto* add = graph->add_node();
        add->set_op_type("Add");
        add->set_name("bad_add");
        add->add_input("x");
        add->add_input("z");
        add->add_output("w");
        setType(*graph->add_output(), "w", onnx::TensorProto::FLOAT, {2, 3});
        QTemporaryDir dir;
        const std::string path = dir.filePath("bad.onnx").toStdString();
        QVERIFY(QFile(QString::fromStdString(path)).open(QIODevice::WriteOnly));
        {
            QFile file(QString::fromStdString(path));
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(QByteArray::fromStdString(bytesOf(model)));
        }
        expectError<ShapeError>([&] { loadModel(path); }, "bad.onnx: node 'bad_add' (Add)");
        expectError<ModelError>([&] { loadModel(dir.filePath("missing.onnx").toStdString()); }, "no such file");
        expectError<ModelError>([&] { loadModel(dir.path().toStdString()); }, "is a directory");
    }

    void tensorFilesRoundTrip()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("t.pb").toStdString();
        const TensorData values = TensorData::fromInts(DType::Int16, {2, 2}, {-7, 300, 0, 32767});
        writeTensorFile(path, values, "t");
        QVERIFY(readTensorFile(path) == values);

        // bfloat16 stored as uint16 bit patterns, as ONNX's test data does.
        onnx::TensorProto proto;
        proto.set_data_type(onnx::TensorProto::UINT16);
        proto.add_dims(2);
        proto.add_int32_data(0x3F80); // 1.0
        proto.add_int32_data(0xC040); // -3.0
        std::string bytes;
        proto.SerializeToString(&bytes);
        QFile file(dir.filePath("bf16.pb"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(bytes.data(), qint64(bytes.size()));
        file.close();
        const TensorData bf16 = readTensorFileAs(dir.filePath("bf16.pb").toStdString(), DType::BFloat16);
        QVERIFY(bf16.dtype() == DType::BFloat16);
        QVERIFY(bf16.toFloats() == (std::vector<float>{1.0f, -3.0f}));
        expectError<UnsupportedError>([&] { readTensorFile(dir.filePath("bf16.pb").toStdString()); }, "uint16");
    }
};

QTEST_GUILESS_MAIN(TestOnnx)
#include "tst_onnx.moc"
