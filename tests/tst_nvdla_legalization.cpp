// NVDLA legalization and unit mapping: each pass keeps what the graph computes (checked with the
// reference interpreter), records what it did, and the mapping names a unit for every node or the
// reason none runs it on the configuration.
#include "base/error.h"
#include "interp/interpreter.h"
#include "ir/builder.h"
#include "nvdla/compile/legalization.h"
#include "nvdla/compile/unit_mapping.h"
#include "session/model_loader.h"
#include "target/nvdla_configs.h"
#include "test_support.h"

#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

using namespace tessera;
using namespace tessera::nvdla;

namespace {

TensorData randomTensor(Shape shape, std::uint32_t seed, float low = -1.0f, float high = 1.0f)
{
    return test::randomFloats(shape, seed, low, high);
}

// Conv 3->8 3x3 pad 1, BatchNormalization, Relu, GlobalAveragePool over 14x14, Flatten, Gemm 8->5
// (transB), Dropout, Softmax.
Graph classifier()
{
    GraphBuilder builder("classifier", 13);
    TensorId x = builder.input("image", DType::Float32, {1, 3, 14, 14});
    const TensorId w = builder.constant("w", randomTensor({8, 3, 3, 3}, 1));
    const TensorId b = builder.constant("b", randomTensor({8}, 2));
    x = builder.op("Conv", {x, w, b}, {{"pads", Attribute::ofInts({1, 1, 1, 1})}}, "conv");
    x = builder.op("BatchNormalization",
                   {x, builder.constant("scale", randomTensor({8}, 3, 0.5f, 1.5f)),
                    builder.constant("shift", randomTensor({8}, 4)), builder.constant("mean", randomTensor({8}, 5)),
                    builder.constant("var", randomTensor({8}, 6, 0.5f, 2.0f))},
                   {{"epsilon", Attribute::ofFloat(1e-3f)}}, "bn");
    x = builder.op("Relu", {x}, {}, "relu");
    x = builder.op("GlobalAveragePool", {x}, {}, "gap");
    x = builder.op("Flatten", {x}, {}, "flatten");
    x = builder.op("Gemm", {x, builder.constant("fc_w", randomTensor({5, 8}, 7)), builder.constant("fc_b", randomTensor({5}, 8))},
                   {{"transB", Attribute::ofInt(1)}, {"alpha", Attribute::ofFloat(0.5f)}}, "fc");
    x = builder.op("Dropout", {x}, {}, "dropout");
    x = builder.op("Softmax", {x}, {{"axis", Attribute::ofInt(1)}}, "softmax");
    builder.output(x);
    Graph graph = builder.finish();
    prepareGraph(graph);
    return graph;
}

std::vector<TensorData> run(const Graph& graph, const TensorData& input)
{
    return Interpreter(graph).run({input});
}

const NodeMapping* mappingOf(const MappingReport& report, const std::string& node)
{
    for (const NodeMapping& m : report.nodes)
        if (m.node == node)
            return &m;
    return nullptr;
}

using test::CliResult;
using test::runCli;

}  // namespace

class TestNvdlaLegalization : public QObject {
    Q_OBJECT

private slots:
    // Every pass before fuse-activation leaves a plain ONNX graph: the interpreter runs it and gets
    // what the original computes.
    void passesKeepWhatTheGraphComputes()
    {
        const Graph original = classifier();
        const TensorData input = randomTensor({1, 3, 14, 14}, 99);
        const std::vector<TensorData> expected = run(original, input);
        for (const char* stop : {"fold-batchnorm", "gemm-to-conv", "global-pool", "views"}) {
            Graph graph = original;
            LegalizationLog log;
            legalize(graph, target::nvdlaConfig("nv_full"), log, stop);
            const std::vector<TensorData> actual = run(graph, input);
            QVERIFY2(test::maxRelativeError(actual[0], expected[0]) < 1e-4, stop);
        }
    }

    void passesRecordWhatTheyDid()
    {
        Graph graph = classifier();
        LegalizationLog log;
        legalize(graph, target::nvdlaConfig("nv_full"), log);
        std::map<std::string, std::string> byNode;
        for (const PassRecord& record : log.records)
            byNode[record.node] += record.pass + ": " + record.what + "\n";
        QVERIFY(byNode["conv"].find("fold-batchnorm: folded BatchNormalization 'bn'") != std::string::npos);
        QVERIFY(byNode["conv"].find("fuse-activation: Relu 'relu'") != std::string::npos);
        QVERIFY2(byNode["gap"].find("as average pooling 7x7 then 2x2") != std::string::npos, byNode["gap"].c_str());
        QVERIFY(byNode["fc"].find("Gemm as a 8x1x1 convolution with 5 kernels over the cube its input flattens") !=
                std::string::npos);
        QVERIFY(byNode["dropout"].find("views: Dropout removed") != std::string::npos);
        const std::string dump = dumpGraph(graph);
        QVERIFY2(dump.find("= Conv 'conv' (image[1x3x14x14], const conv_folded_weight[8x3x3x3]") != std::string::npos,
                 dump.c_str());
        QVERIFY(dump.find("tessera_activation=\"Relu\"") != std::string::npos);
        QVERIFY(dump.find("AveragePool 'gap_step0'") != std::string::npos);
        QVERIFY(dump.find("BatchNormalization") == std::string::npos);
        QVERIFY(dump.find("Dropout") == std::string::npos);
        QVERIFY(dump.find("Gemm") == std::string::npos);
        try {
            Graph again = classifier();
            legalize(again, target::nvdlaConfig("nv_full"), log, "fold-everything");
            QFAIL("an unknown pass was accepted");
        } catch (const Error& error) {
            QVERIFY(std::string(error.what()).find("explicit-padding, fold-pad, exclude-pad-count, fold-batchnorm, gemm-to-conv, global-pool, depth-to-space-order, split-input-channels, channel-shuffle, views, fuse-activation") !=
                    std::string::npos);
        }
    }

    // A zero Pad over H and W becomes the convolution's padding; the result is the same.
    void padFoldsIntoTheConvolution()
    {
        GraphBuilder builder("padded", 13);
        const TensorId x = builder.input("x", DType::Float32, {1, 3, 8, 8});
        const TensorId padded = builder.op("Pad", {x, builder.constant("pads", TensorData::fromInts(DType::Int64, {8}, {0, 0, 1, 2, 0, 0, 1, 2}))},
                                           {}, "pad");
        builder.output(builder.op("Conv", {padded, builder.constant("w", randomTensor({4, 3, 3, 3}, 61))}, {}, "conv"));
        Graph original = builder.finish();
        prepareGraph(original);
        Graph graph = original;
        LegalizationLog log;
        legalize(graph, target::nvdlaConfig("nv_full"), log, "fold-pad");
        const std::string dump = dumpGraph(graph);
        QVERIFY2(dump.find("Pad '") == std::string::npos, dump.c_str());
        QVERIFY(dump.find("pads=[1,2,1,2]") != std::string::npos);
        const TensorData input = randomTensor({1, 3, 8, 8}, 62);
        QVERIFY(test::maxRelativeError(run(graph, input)[0], run(original, input)[0]) < 1e-5);
    }

    void everyNodeGetsAUnit()
    {
        Graph graph = classifier();
        LegalizationLog log;
        legalize(graph, target::nvdlaConfig("nv_full"), log);
        const MappingReport report = mapToUnits(graph, target::nvdlaConfig("nv_full"), target::NvdlaPrecision::Fp16, log);
        QVERIFY2(report.ok(), report.problems().c_str());
        QCOMPARE(mappingOf(report, "conv")->units, std::string("CONV+SDP"));
        QVERIFY(mappingOf(report, "conv")->detail.find("bias, Relu") != std::string::npos);
        QCOMPARE(mappingOf(report, "gap_step0")->units, std::string("PDP"));
        QCOMPARE(mappingOf(report, "gap_step1")->detail, std::string("average 2x2 stride 2x2"));
        QCOMPARE(mappingOf(report, "fc")->units, std::string("CONV+SDP"));
        QCOMPARE(mappingOf(report, "softmax")->units, std::string("EMU"));
        QVERIFY(!mappingOf(report, "bn"));  // folded away, listed as removed
        bool removedBn = false;
        for (const PassRecord& record : report.removed)
            removedBn = removedBn || (record.node == "bn" && record.pass == "fold-batchnorm");
        QVERIFY(removedBn);
        const nlohmann::json json = report.json();
        QCOMPARE(json["ok"].get<bool>(), true);
        QCOMPARE(json["config"].get<std::string>(), std::string("nv_full"));
    }

    void unsupportedNodesAreNamedWithTheReason()
    {
        GraphBuilder builder("hard", 13);
        TensorId x = builder.input("x", DType::Float32, {1, 4, 11, 11});
        const TensorId y = builder.input("y", DType::Float32, {1, 4, 11, 11});
        const TensorId s = builder.op("Sigmoid", {x}, {}, "gate");
        const TensorId sum = builder.op("Add", {s, y}, {}, "residual");
        const TensorId wide = builder.op("AveragePool", {sum}, {{"kernel_shape", Attribute::ofInts({9, 9})}}, "wide_pool");
        const TensorId pooled = builder.op("GlobalAveragePool", {sum}, {}, "prime_pool");
        const TensorId t = builder.op("Transpose", {pooled}, {{"perm", Attribute::ofInts({0, 2, 3, 1})}}, "odd");
        builder.output(wide);
        builder.output(t);
        Graph graph = builder.finish();
        prepareGraph(graph);
        LegalizationLog log;
        legalize(graph, target::nvdlaConfig("nv_small"), log);
        const MappingReport report = mapToUnits(graph, target::nvdlaConfig("nv_small"), target::NvdlaPrecision::Int8, log);
        QVERIFY(!report.ok());
        QCOMPARE(report.nodes.front().problem.empty(), false);  // problems first
        QVERIFY(mappingOf(report, "gate")->problem.find("Sigmoid needs the SDP LUT, absent on nv_small") != std::string::npos);
        // A second tensor goes through x1 (BS), which nv_small has.
        QVERIFY(mappingOf(report, "residual")->problem.empty());
        QCOMPARE(mappingOf(report, "residual")->units, std::string("SDP"));
        QVERIFY(mappingOf(report, "wide_pool")->problem.find("AveragePool 9x9 exceeds PDP's 8") != std::string::npos);
        QVERIFY(mappingOf(report, "prime_pool")->problem.find("11x11 plane") != std::string::npos);
        QVERIFY(mappingOf(report, "odd")->problem.find("no NVDLA unit and no CPU operation") != std::string::npos);
        const std::string problems = report.problems();
        QVERIFY(problems.find("node 'odd' (Transpose)") != std::string::npos);

        try {
            requirePrecision(target::nvdlaConfig("nv_small"), target::NvdlaPrecision::Fp16);
            QFAIL("FP16 on nv_small was accepted");
        } catch (const UnsupportedError& error) {
            QCOMPARE(std::string(error.what()), std::string("nv_small does not run fp16: it runs int8 only (use --precision int8)"));
        }
    }

    void commandLine()
    {
        QTemporaryDir dir;
        const QString mnist = dir.filePath("mnist.onnx");
        QCOMPARE(runCli({"zoo", "mnist", "-o", mnist}).exitCode, 0);
        const CliResult checked = runCli({"nvdla", "check", mnist, "--config", "nv_full"});
        QCOMPARE(checked.exitCode, 0);
        QVERIFY2(checked.out.contains("NVDLA nv_full fp16: 7 operations, 0 that no unit runs"), qPrintable(checked.out));
        QVERIFY(checked.out.contains(QRegularExpression("softmax +Softmax +EMU")));
        const CliResult dumped = runCli({"nvdla", "check", mnist, "--dump-after", "gemm-to-conv"});
        QCOMPARE(dumped.exitCode, 0);
        QVERIFY2(dumped.out.contains("= Conv 'linear' (maxpool2x2_1[1x64x4x4]"), qPrintable(dumped.out));
        const CliResult small = runCli({"nvdla", "check", mnist, "--config", "nv_small", "--precision", "fp16"});
        QCOMPARE(small.exitCode, 1);
        QVERIFY(small.err.contains("nv_small does not run fp16"));
        const CliResult json = runCli({"nvdla", "check", mnist, "--config", "nv_small", "--json"});
        QCOMPARE(json.exitCode, 0);
        QCOMPARE(nlohmann::json::parse(json.out.toStdString())["precision"].get<std::string>(), std::string("int8"));
    }
};

QTEST_GUILESS_MAIN(TestNvdlaLegalization)
#include "tst_nvdla_legalization.moc"
