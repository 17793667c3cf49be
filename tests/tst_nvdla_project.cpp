// The NVDLA project exporter (plugins/nvdla_project): the image nvdla_runtime reads, the tensor it
// makes of it, the simulator's expected output in the runtime's forms, run.sh and the README.
#include "ir/builder.h"
#include "nvdla/compile/nvdla_compiler.h"
#include "nvdla/simulator/descriptor_simulator.h"
#include "nvdla_project/nvdla_project_writer.h"
#include "nvdla_project/nvdla_sample.h"
#include "nvdla_project/runtime_image.h"
#include "onnx/tensor_proto.h"
#include "session/model_loader.h"
#include "nvdla_networks.h"
#include "op_test_support.h"
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
                QCOMPARE(input.getDouble(i), int8 ? std::floor(pixel * 127 / 255 + 0.5) : double(float(pixel) / 255.0f));
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
        // And from the image itself, as run.sh gives it to the runtime.
        QStringList fromImage{"nvdla", "run", out + "/model.nvdla", "--image", out + "/" + image, "-o",
                              dir.filePath("sim_image")};
        if (!int8)
            fromImage << "--normalize" << "255";
        QCOMPARE(runCli(fromImage).exitCode, 0);
        QCOMPARE(readTensorFile(dir.filePath("sim_image/output_0.pb").toStdString()).toDoubles(), expected.toDoubles());
        QVERIFY(readmeText.contains("--image " + image));
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

    // A user's input file: an image read as nvdla_runtime reads it, or a tensor of real or int8
    // values; every file the runtime would refuse or misread is refused with what to change.
    void userInputFiles()
    {
        NvdlaCompileOptions options;
        options.config = "nv_full";
        const NvdlaCompilation lenet = compileForNvdla(test::caffeLenet(), options);  // one input 1x28x28
        QTemporaryDir dir;
        const auto write = [&](const QString& name, const QByteArray& bytes) {
            QFile file(dir.filePath(name));
            file.open(QIODevice::WriteOnly);
            file.write(bytes);
            return dir.filePath(name).toStdString();
        };
        QByteArray pixels(28 * 28, '\0');
        for (int i = 0; i < pixels.size(); ++i)
            pixels[i] = char(i * 7 % 256);
        // A good PGM, with a comment line as image tools write it: pixel / 255 as FP16 sees it.
        const NvdlaSample fromPgm =
            nvdlaSampleFromFile(lenet, write("digit.pgm", "P5\n# made by hand\n28 28\n255\n" + pixels));
        QCOMPARE(fromPgm.inputs.size(), std::size_t(1));
        QCOMPARE(fromPgm.inputs[0].shape(), (Shape{1, 1, 28, 28}));
        QCOMPARE(fromPgm.inputs[0].getDouble(5), double(float(35) / 255.0f));
        QCOMPARE(fromPgm.imageName, std::string("digit.pgm"));
        // The same values as a tensor file give the same input.
        const std::string tensorPath = dir.filePath("digit.pb").toStdString();
        writeTensorFile(tensorPath, fromPgm.inputs[0], "data");
        QCOMPARE(nvdlaSampleFromFile(lenet, tensorPath).inputs[0].toDoubles(), fromPgm.inputs[0].toDoubles());

        using test::expectError;
        expectError<Error>([&] { nvdlaSampleFromFile(lenet, write("small.pgm", "P5\n27 28\n255\n" + pixels)); },
                           "does not resize");
        expectError<Error>([&] { nvdlaSampleFromFile(lenet, write("deep.pgm", "P5\n28 28\n65535\n" + pixels)); },
                           "only 8-bit PGMs");
        expectError<Error>([&] { nvdlaSampleFromFile(lenet, write("cut.pgm", "P5\n28 28\n255\n" + pixels.left(100))); },
                           "cut short");
        expectError<Error>([&] { nvdlaSampleFromFile(lenet, write("ascii.pgm", "P2\n28 28\n255\n0 0 0")); },
                           "not a binary PGM");
        expectError<Error>([&] { nvdlaSampleFromFile(lenet, write("broken.jpg", "\xFF\xD8\xFF\xE0garbage")); },
                           "cannot read the JPEG");
        expectError<Error>([&] { nvdlaSampleFromFile(lenet, write("digit.png", pixels)); }, ".pgm or .jpg");
        expectError<Error>([&] { nvdlaSampleFromFile(lenet, write("digit.JPG", pixels)); }, ".pgm or .jpg");
        const std::string wrongSize = dir.filePath("wrong.pb").toStdString();
        writeTensorFile(wrongSize, TensorData::fromDoubles(DType::Float32, {1, 1, 28, 27}, std::vector<double>(28 * 27)),
                        "data");
        expectError<Error>([&] { nvdlaSampleFromFile(lenet, wrongSize); }, "is 1x1x28x28");
        const std::string int8Values = dir.filePath("int8.pb").toStdString();
        writeTensorFile(int8Values, TensorData::fromDoubles(DType::Int8, {1, 1, 28, 28}, std::vector<double>(28 * 28)),
                        "data");
        expectError<Error>([&] { nvdlaSampleFromFile(lenet, int8Values); }, "is FP16");
        // A colour image into a one-channel input, and a grey one into a three-channel input.
        const NvdlaCompilation mobilenet = compileForNvdla(test::zooNetwork("mobilenet_v1"), options);
        const NvdlaSample colour = nvdlaSample(mobilenet);
        const RuntimeImage decoded = readRuntimeImage(colour.imageName, colour.imageBytes);
        QCOMPARE(decoded.channels, 3u);
        TensorDesc grey = loadableInputs(lenet.loadable).front();
        grey.w = grey.h = 128;
        expectError<Error>([&] { runtimeImageInput(decoded, grey, "colour.jpg"); }, "has 3 channels");
        RuntimeImage greyImage{128, 128, 1, std::vector<std::uint8_t>(128 * 128, 255)};
        const TensorData padded = runtimeImageInput(greyImage, loadableInputs(mobilenet.loadable).front(), "grey.jpg");
        QCOMPARE(padded.getDouble(0), 255.0);                      // channel 0 from the image (normalize 1)
        QCOMPARE(padded.getDouble(128 * 128), 0.0);                // channels beyond the image's stay 0
        // The command line refuses --image for a loadable of two inputs and a normalize out of a byte.
        const QString model = dir.filePath("lenet.nvdla");
        QFile loadable(model);
        QVERIFY(loadable.open(QIODevice::WriteOnly));
        loadable.write(reinterpret_cast<const char*>(lenet.bytes.data()), qint64(lenet.bytes.size()));
        loadable.close();
        const test::CliResult badNormalize =
            runCli({"nvdla", "run", model, "--image", QString::fromStdString(write("ok.pgm", "P5\n28 28\n255\n" + pixels)),
                    "--normalize", "0", "-o", dir.filePath("out")});
        QVERIFY(badNormalize.exitCode != 0);
        QVERIFY2(badNormalize.err.contains("--normalize"), qPrintable(badNormalize.err));
        const test::CliResult wrongImage = runCli({"nvdla", "run", model, "--image",
                                                   QString::fromStdString(write("s.pgm", "P5\n27 28\n255\n" + pixels)),
                                                   "-o", dir.filePath("out")});
        QVERIFY(wrongImage.exitCode != 0);
        QVERIFY2(wrongImage.err.contains("does not resize"), qPrintable(wrongImage.err));
    }
};

QTEST_GUILESS_MAIN(TestNvdlaProject)
#include "tst_nvdla_project.moc"
