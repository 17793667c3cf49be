// The reference interpreter against ONNX's backend test data (Debian's libonnx-testdata): every case
// whose operators and types Tessera supports must agree within 1e-4 (absolute + relative).
#include "base/error.h"
#include "session/conformance.h"
#include "test_support.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace tessera;

class TestConformance : public QObject {
    Q_OBJECT

private slots:
    void onnxBackendTests()
    {
        const std::string root = TESSERA_ONNX_TESTDATA;
        size_t passed = 0, failed = 0, skipped = 0;
        for (const char* suite : {"node", "pytorch-converted", "pytorch-operator", "simple"}) {
            const auto cases = findConformanceCases({root + "/" + suite});
            QVERIFY2(!cases.empty(), suite);
            const ConformanceSummary summary = runConformance(cases);
            for (const CaseResult& result : summary.cases)
                if (result.outcome == CaseOutcome::Failed)
                    qInfo("FAIL %s: %s", result.name.c_str(), result.message.c_str());
            qInfo("%-18s %zu passed, %zu failed, %zu skipped", suite, summary.passed, summary.failed, summary.skipped);
            passed += summary.passed;
            failed += summary.failed;
            skipped += summary.skipped;
        }
        const double rate = double(passed) / double(std::max<size_t>(passed + failed, 1));
        qInfo("total: %zu passed, %zu failed, %zu skipped (%.1f%% of supported cases pass)", passed, failed, skipped,
              100.0 * rate);
        QVERIFY2(passed >= 300, qPrintable(QString("only %1 cases pass").arg(passed)));
        QVERIFY2(rate >= 0.95, qPrintable(QString("pass rate %1%").arg(100.0 * rate)));
    }

    // Every Resize and Upsample case of ONNX's data (nearest in every mode, linear, cubic, the
    // coordinate modes including tf_crop_and_resize) passes, none skipped.
    void resizeCasesAllPass()
    {
        std::vector<std::string> cases;
        for (const std::string& path : findConformanceCases({std::string(TESSERA_ONNX_TESTDATA) + "/node"})) {
            const std::string name = path.substr(path.find_last_of('/') + 1);
            if (name.rfind("test_resize_", 0) == 0 || name.rfind("test_upsample_", 0) == 0)
                cases.push_back(path);
        }
        QVERIFY2(cases.size() >= 20, qPrintable(QString::number(cases.size())));
        const ConformanceSummary summary = runConformance(cases);
        for (const CaseResult& result : summary.cases)
            QVERIFY2(result.outcome == CaseOutcome::Passed, (result.name + ": " + result.message).c_str());
        QCOMPARE(summary.passed, cases.size());
    }

    void failuresAreReportedNotThrown()
    {
        // A case directory whose model is missing its data sets fails with a message.
        QTemporaryDir dir;
        QFile model(dir.filePath("model.onnx"));
        QVERIFY(model.open(QIODevice::WriteOnly));
        model.write("not a model");
        model.close();
        const CaseResult result = runConformanceCase(dir.path().toStdString());
        QVERIFY(result.outcome == CaseOutcome::Failed);
        QVERIFY2(QString::fromStdString(result.message).contains("not an ONNX model"), result.message.c_str());
        QVERIFY_THROWS_EXCEPTION(Error, findConformanceCases({dir.filePath("nowhere").toStdString()}));
    }
};

QTEST_GUILESS_MAIN(TestConformance)
#include "tst_conformance.moc"
