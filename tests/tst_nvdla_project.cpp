// The NVDLA project exporter (plugins/nvdla_project): the image nvdla_runtime reads, the tensor it
// makes of it, the simulator's expected output in the runtime's forms, run.sh and the README.
#include "ir/builder.h"
#include "nvdla/compile/nvdla_compiler.h"
#include "nvdla_project/nvdla_project_writer.h"
#include "onnx/tensor_proto.h"
#include "session/model_loader.h"
#include "nvdla_networks.h"
#include "test_support.h"

#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>

using namespace tessera;
using namespace tessera::nvdla;
using test::runCli;

class TestNvdlaProject : public QObject {
    Q_OBJECT

private slots:
    // The exported project: the image nvdla_runtime reads, the tensor it makes of it (input.pb), the
    // simulator's output for it, equal to `tessera nvdla run` on input.pb, in the runtime's
    // --rawdump form too, and run.sh whose comparison passes on that output and fails on another.
    void exportedProjectIsComplete_data()
    {
        QTest::addColumn<QString>("network");
        QTest::addColumn<QString>("config");
        QTest::addColumn<QString>("image");
        QTest::newRow("LeNet nv_full FP16") << "caffe_lenet" << "nv_full" << "input.pgm";
        QTest::newRow("LeNet nv_small INT8") << "caffe_lenet" << "nv_small" << "input.pgm";
        QTest::newRow("MobileNet 0.25/128 nv_full FP16") << "mobilenet_v1" << "nv_full" << "input.jpg";
        QTest::newRow("MobileNet 0.25/128 nv_small INT8") << "mobilenet_v1" << "nv_small" << "input.jpg";
        QTest::newRow("two inputs nv_full FP16") << "two_inputs" << "nv_full" << "";
    }

    void exportedProjectIsComplete()
    {
        QFETCH(QString, network);
        QFETCH(QString, config);
        QFETCH(QString, image);
        Graph graph;
        if (network == "caffe_lenet") {
            graph = test::caffeLenet();
        } else if (network == "two_inputs") {
            GraphBuilder builder("two_inputs", 13);
            const TensorId a = builder.input("a", DType::Float32, {1, 16, 4, 4});
            const TensorId b = builder.input("b", DType::Float32, {1, 16, 4, 4});
            builder.output(builder.op("Add", {a, b}, {}, "sum"));
            graph = builder.finish();
            prepareGraph(graph);
        } else {
            graph = test::zooNetwork(network.toStdString());
        }
        NvdlaCompileOptions options;
        options.config = config.toStdString();
        const NvdlaCompilation compiled = compileForNvdla(graph, options);
        const bool int8 = compiled.precision == target::NvdlaPrecision::Int8;
        QTemporaryDir dir;
        const QString out = dir.filePath("project");
        exportNvdlaProject(compiled, out.toStdString());
        for (const char* file : {"model.nvdla", "report.txt", "report.json", "input.pb", "expected_output.pb",
                                 "expected_output.txt", "run.sh", "README.md"})
            QVERIFY2(QFile::exists(out + "/" + file), file);
        QVERIFY(QFileInfo(out + "/run.sh").isExecutable());
        QFile readme(out + "/README.md");
        QVERIFY(readme.open(QIODevice::ReadOnly));
        const QString readmeText = readme.readAll();
        QVERIFY(readmeText.contains("Input contract:"));

        const TensorData input = readTensorFile((out + "/input.pb").toStdString());
        QCOMPARE(input.dtype(), int8 ? DType::Int8 : DType::Float32);
        if (image == "input.pgm") {
            // The runtime's reading: P5, the size, 255, then the pixels.
            QFile pgm(out + "/input.pgm");
            QVERIFY(pgm.open(QIODevice::ReadOnly));
            const QByteArray bytes = pgm.readAll();
            const QByteArray header = "P5\n28 28\n255\n";
            QVERIFY(bytes.startsWith(header));
            QCOMPARE(bytes.size(), header.size() + 28 * 28);
            for (int i = 0; i < 28 * 28; ++i) {
                const double pixel = std::uint8_t(bytes[header.size() + i]);
                QCOMPARE(input.getDouble(i), int8 ? std::floor(pixel * 127 / 255 + 0.5) : double(float(pixel / 255)));
            }
        } else if (image == "input.jpg") {
            QFile jpeg(out + "/input.jpg");
            QVERIFY(jpeg.open(QIODevice::ReadOnly));
            QVERIFY(jpeg.readAll().startsWith("\xFF\xD8\xFF"));
            QCOMPARE(input.shape(), (Shape{1, 3, 128, 128}));
            const std::vector<double> values = input.toDoubles();
            QVERIFY(*std::max_element(values.begin(), values.end()) > (int8 ? 100.0 : 0.8));
            QVERIFY(*std::min_element(values.begin(), values.end()) >= 0.0);
        } else {
            QVERIFY(QFile::exists(out + "/input_1.pb"));
            QVERIFY(readmeText.contains("nvdla_runtime fills its input from an image only"));
            return;
        }

        // `tessera nvdla run` on input.pb gives expected_output.pb exactly.
        QCOMPARE(runCli({"nvdla", "run", out + "/model.nvdla", "-i", out + "/input.pb", "-o", dir.filePath("sim")}).exitCode,
                 0);
        const TensorData simulated = readTensorFile(dir.filePath("sim/output_0.pb").toStdString());
        const TensorData expected = readTensorFile((out + "/expected_output.pb").toStdString());
        QCOMPARE(simulated.toDoubles(), expected.toDoubles());
        QFile dump(out + "/expected_output.txt");
        QVERIFY(dump.open(QIODevice::ReadOnly));
        const QStringList dumped = QString(dump.readAll()).split(' ', Qt::SkipEmptyParts);
        QCOMPARE(dumped.size(), int(expected.elements()));
        for (int i = 0; i < dumped.size(); ++i)
            QVERIFY(std::abs(dumped[i].toDouble() - expected.getDouble(i)) <= 1e-5 * (1 + std::abs(expected.getDouble(i))));

        // run.sh with a stand-in runtime that writes a given output.dimg: the comparison passes on
        // the expected values and fails on changed ones.
        QFile script(out + "/run.sh");
        QVERIFY(script.open(QIODevice::ReadOnly));
        const QString scriptText = script.readAll();
        QVERIFY(scriptText.contains("--image " + image));
        QCOMPARE(scriptText.contains("--normalize 255"), !int8);
        for (const bool changed : {false, true}) {
            QFile fake(dir.filePath("bin/nvdla_runtime"));
            QVERIFY(QDir().mkpath(dir.filePath("bin")));
            QVERIFY(fake.open(QIODevice::WriteOnly | QIODevice::Truncate));
            fake.write(changed ? "#!/bin/sh\nawk '{ for (i = 1; i <= NF; ++i) printf \"%g \", $i + 1 }' "
                                 "expected_output.txt > output.dimg\n"
                               : "#!/bin/sh\ncp expected_output.txt output.dimg\n");
            fake.close();
            fake.setPermissions(fake.permissions() | QFileDevice::ExeOwner);
            QProcess run;
            QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
            environment.insert("PATH", dir.filePath("bin") + ":" + environment.value("PATH"));
            run.setProcessEnvironment(environment);
            run.start("sh", {out + "/run.sh"});
            QVERIFY(run.waitForFinished(30000));
            QCOMPARE(run.exitCode(), changed ? 1 : 0);
            if (!changed)
                QVERIFY2(run.readAllStandardOutput().contains("largest difference 0"), "run.sh compared");
        }
    }
};

QTEST_GUILESS_MAIN(TestNvdlaProject)
#include "tst_nvdla_project.moc"
