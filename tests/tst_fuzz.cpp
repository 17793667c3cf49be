// Seeded mutation fuzzing of everything that reads user files (tests/fuzz/fuzz_targets.h): ONNX
// models (import, shape inference, constant folding, the interpreter), tensor files, NVDLA loadables
// (reader, validator, inspector, simulator), buffer CSVs (and their plans), SCAMP-5 kernel sets (and
// a short search) and programs, studio projects and tiling reports (and the solver). Every mutated
// input must either work or fail with a tessera::Error in Tessera's own words; any other exception
// fails the test, and a crash or memory error fails it under the sanitizer build. bench_fuzz runs
// the same campaigns at 10^6 executions per parser.
#include "fuzz_targets.h"
#include "nvdla/compile/nvdla_compiler.h"
#include "nvdla_networks.h"
#include "test_support.h"

#include <QtTest>

#include <onnx/onnx_pb.h>

#include <random>

using namespace tessera;

namespace {

int64_t absurdValue(std::mt19937& random)
{
    const int64_t values[] = {-2, -1, 0, 1, 2, 3, 7, 1 << 20, int64_t{1} << 40, INT64_MAX, INT64_MIN};
    return values[random() % std::size(values)];
}

// Changes one field that parses fine but may break an operator's rules.
void mutateStructure(onnx::ModelProto& model, std::mt19937& random)
{
    onnx::GraphProto& graph = *model.mutable_graph();
    switch (random() % 5) {
    case 0:
        if (graph.input_size() > 0) {
            auto* shape = graph.mutable_input(int(random() % graph.input_size()))->mutable_type()->mutable_tensor_type()->mutable_shape();
            if (shape->dim_size() > 0)
                shape->mutable_dim(int(random() % shape->dim_size()))->set_dim_value(absurdValue(random));
            else
                shape->add_dim()->set_dim_value(absurdValue(random));
        }
        break;
    case 1:
        if (graph.node_size() > 0) {
            auto* node = graph.mutable_node(int(random() % graph.node_size()));
            if (node->attribute_size() > 0) {
                auto* attribute = node->mutable_attribute(int(random() % node->attribute_size()));
                if (attribute->ints_size() > 0)
                    attribute->set_ints(int(random() % attribute->ints_size()), absurdValue(random));
                else
                    attribute->set_i(absurdValue(random));
            }
        }
        break;
    case 2:
        if (graph.input_size() > 0)
            graph.mutable_input(int(random() % graph.input_size()))->mutable_type()->mutable_tensor_type()->set_elem_type(int(random() % 17));
        break;
    case 3:
        if (graph.node_size() > 0) {
            auto* node = graph.mutable_node(int(random() % graph.node_size()));
            if (node->input_size() > 0 && random() % 2)
                node->mutable_input()->RemoveLast();
            else
                node->add_input(graph.input_size() > 0 ? graph.input(0).name() : "x");
        }
        break;
    default:
        if (graph.initializer_size() > 0) {
            auto* tensor = graph.mutable_initializer(int(random() % graph.initializer_size()));
            if (tensor->dims_size() > 0)
                tensor->set_dims(int(random() % tensor->dims_size()), absurdValue(random));
        }
        break;
    }
}

const std::vector<fuzz::FuzzTarget>& targets()
{
    static const std::vector<fuzz::FuzzTarget> all = [] {
        std::vector<fuzz::FuzzTarget> made = fuzz::fuzzTargets(TESSERA_FUZZ_CORPUS, TESSERA_FUZZ_ONNX_TESTDATA);
        // Loadables with lookup tables and with RUBIK and BDMA, beside the library's seeds.
        for (fuzz::FuzzTarget& target : made)
            if (target.name == "loadable")
                for (const Graph& network : {test::lookupNetwork(), test::rearrangeNetwork()}) {
                    const std::vector<std::uint8_t> bytes = nvdla::compileForNvdla(network, {}).bytes;
                    target.seeds.emplace_back(bytes.begin(), bytes.end());
                }
        return made;
    }();
    return all;
}

const fuzz::FuzzTarget& fuzzTargetNamed(const QString& name)
{
    for (const fuzz::FuzzTarget& candidate : targets())
        if (candidate.name == name.toStdString())
            return candidate;
    qFatal("no fuzz target %s", qPrintable(name));
}

void reportFailures(const fuzz::CampaignResult& result)
{
    for (const std::string& failure : result.failures)
        qWarning("%s", failure.c_str());
}

} // namespace

class TestFuzz : public QObject {
    Q_OBJECT

private slots:
    // A seeded slice of each parser's campaign (bench_fuzz runs 10^6 executions of each).
    void mutatedInputs_data()
    {
        QTest::addColumn<QString>("parser");
        QTest::addColumn<int>("executions");
        // The sanitized build runs fewer: it is there to catch memory errors, which show at once.
        const int scale = test::kSanitizedBuild ? 1 : 2;
        QTest::newRow("onnx") << "onnx" << 1500 * scale;
        QTest::newRow("tensor") << "tensor" << 3000 * scale;
        QTest::newRow("loadable") << "loadable" << 1500 * scale;
        QTest::newRow("buffer-csv") << "buffer-csv" << 3000 * scale;
        // Each runs a short search (and the tiling target the solver): the slowest under the sanitizer.
        QTest::newRow("scamp-kernels") << "scamp-kernels" << (test::kSanitizedBuild ? 400 : 2000);
        QTest::newRow("scamp-program") << "scamp-program" << 3000 * scale;
        QTest::newRow("project") << "project" << 3000 * scale;
        QTest::newRow("tiling") << "tiling" << (test::kSanitizedBuild ? 800 : 3000);
    }

    void mutatedInputs()
    {
        QFETCH(QString, parser);
        QFETCH(int, executions);
        const fuzz::FuzzTarget& fuzzTarget = fuzzTargetNamed(parser);
        QVERIFY2(fuzzTarget.seeds.size() >= 2, "every parser has seeds in tests/fuzz/corpus or built here");
        const fuzz::CampaignResult result = fuzz::runCampaign(fuzzTarget, std::uint64_t(executions), 20261129);
        reportFailures(result);
        qInfo("%s: %llu mutated inputs, %llu read, %llu refused, %.1f s", qPrintable(parser),
              (unsigned long long)result.executions, (unsigned long long)result.accepted,
              (unsigned long long)result.refused, result.seconds);
        QCOMPARE(result.failed, std::uint64_t{0});
        // Both outcomes occur, so the mutations reach past the first check of each parser.
        QVERIFY(result.accepted > 0);
        QVERIFY(result.refused > 0);
    }

    // Every seed and kept regression input, unmutated: the well-formed ones are read, none fails.
    void corpusInputs_data() { mutatedInputs_data(); }
    void corpusInputs()
    {
        QFETCH(QString, parser);
        const fuzz::CampaignResult result = fuzz::runSeeds(fuzzTargetNamed(parser));
        reportFailures(result);
        QCOMPARE(result.failed, std::uint64_t{0});
        QVERIFY(result.accepted > 0);
    }

    // The messages a refusal may not carry: a library's own text.
    void libraryTextIsRecognised()
    {
        QVERIFY(fuzz::leaksLibraryText("[json.exception.type_error.302] type must be number"));
        QVERIFY(fuzz::leaksLibraryText("vector::_M_range_check: __n (which is 3)"));
        QVERIFY(!fuzz::leaksLibraryText("fuzz.csv line 2: size 'x' is not a whole number"));
        QVERIFY(fuzz::leaksLibraryText("stoll"));
        QVERIFY(!fuzz::leaksLibraryText("fuzz.txt line 11: 'westode!' is not a direction"));
        QVERIFY(!fuzz::leaksLibraryText("fuzz.txt line 1: expected an instruction like add(A, B, C); got 'stod'"));
        QVERIFY(fuzz::leaksLibraryText("kernels.json: weight: stod"));
    }

    void mutatedModelStructure()
    {
        const fuzz::FuzzTarget& onnxTarget = fuzzTargetNamed("onnx");
        std::vector<std::string> seeds;
        for (const std::string& seed : onnxTarget.seeds) {
            onnx::ModelProto model;
            if (model.ParseFromString(seed))
                seeds.push_back(seed);
        }
        QVERIFY(seeds.size() > 50);
        std::mt19937 random(42);
        int failures = 0;
        for (int iteration = 0; iteration < 3000; ++iteration) {
            onnx::ModelProto model;
            QVERIFY(model.ParseFromString(seeds[random() % seeds.size()]));
            for (int k = 0; k < 1 + int(random() % 3); ++k)
                mutateStructure(model, random);
            std::string bytes;
            model.SerializeToString(&bytes);
            const fuzz::Verdict verdict = onnxTarget.run(bytes);
            if (verdict.outcome == fuzz::Outcome::Failed) {
                qWarning("iteration %d (%s): %s", iteration, model.graph().node_size() ? model.graph().node(0).op_type().c_str() : "",
                         verdict.detail.c_str());
                ++failures;
            }
        }
        QCOMPARE(failures, 0);
    }
};

QTEST_GUILESS_MAIN(TestFuzz)
#include "tst_fuzz.moc"
