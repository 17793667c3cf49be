// The checks shared by the GAP compile suites: compile a graph into a project, build the project's
// host emulation and compare its output with the fixed-point reference.
#include "gap_compile_check.h"

#include "gap/compile/gap_reference.h"
#include "gap_toolchain.h"
#include "interp/interpreter.h"
#include "onnx/tensor_proto.h"

#include <QRegularExpression>
#include <QStringList>
#include <QtTest>

#include <cmath>

namespace tessera::test {
namespace {

const QString kSourceDir = QStringLiteral(TESSERA_SOURCE_DIR);

}  // namespace

gap::GapProjectSources projectSources()
{
    return {(kSourceDir + "/core/gap/runtime").toStdString(), (kSourceDir + "/core/gap/cnn_kernels").toStdString(),
            (kSourceDir + "/plugins/gap_project/emul").toStdString()};
}

// tessera compile: the code generated into `project`, then the GAP project exporter around it.
gap::GapCompileResult compileProject(const Graph& graph, const gap::GapCompileOptions& options, const QString& project)
{
    gap::GapCompileResult result = gap::compileForGap(graph, options, project.toStdString());
    gap::writeGapProject(graph, result, projectSources(), project.toStdString());
    return result;
}

TensorData uniformTensor(const Shape& shape, std::mt19937& random, float low, float high)
{
    std::uniform_real_distribution<float> uniform(low, high);
    TensorData data(DType::Float32, shape);
    for (int64_t k = 0; k < data.elements(); ++k)
        data.data<float>()[k] = uniform(random);
    return data;
}

TensorId seededConv(GraphBuilder& builder, std::mt19937& random, TensorId x, int64_t in, int64_t out, int64_t k,
                    float scale, const std::string& name)
{
    const float limit = scale * std::sqrt(6.0f / float(in * k * k));
    const TensorId w = builder.constant(name + ".weight", uniformTensor({out, in, k, k}, random, -limit, limit));
    const TensorId b = builder.constant(name + ".bias", uniformTensor({out}, random, -0.1f, 0.1f));
    return builder.op("Conv", {x, w, b},
                      {{"kernel_shape", Attribute::ofInts({k, k})}, {"pads", Attribute::ofInts({k / 2, k / 2, k / 2, k / 2})}},
                      name);
}

// "name:kind" of every layer, in order.
QString layerKinds(const gap::GapNetwork& network)
{
    QStringList layers;
    for (const gap::GapLayer& layer : network.layers)
        layers << QString::fromStdString(layer.name + ":" + gap::gapLayerKindName(layer.kind));
    return layers.join(' ');
}

ProjectRun buildAndRun(const QString& project, const TensorData& input, const std::string& inputName, int cores)
{
    ProjectRun run;
    // The parallel basic kernels are forked on `cores` emulated cluster cores.
    const QStringList make{"-s", "-B", "-C", project, "emul", QStringLiteral("CFLAGS=-O2 -DAT_EMUL_CORES=%1").arg(cores)};
    const ProcessResult built = runProcess(QStringLiteral("make"), make);
    if (built.exitCode != 0) {
        run.error = describe(QStringLiteral("make emul"), {"make", "-C", project, "emul"}, built);
        return run;
    }
    const QString inputFile = project + "/check_input.pb";
    writeTensorFile(inputFile.toStdString(), input, inputName);
    const QStringList arguments{inputFile, project + "/check_result"};
    const ProcessResult ran = runProcess(project + "/emul_run", arguments);
    if (ran.exitCode != 0) {
        run.error = describe(QStringLiteral("emul_run"), arguments, ran);
        return run;
    }
    const QRegularExpressionMatch traffic = QRegularExpression(QStringLiteral("(\\d+) bytes of L3 traffic")).match(ran.out);
    if (traffic.hasMatch())
        run.l3Traffic = traffic.captured(1).toLongLong();
    run.output = readTensorFile((project + "/check_result/output_0.pb").toStdString()).toFloats();
    return run;
}

TensorData randomInput(const Graph& graph, unsigned seed)
{
    std::mt19937 random(seed);
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    const Tensor& input = graph.tensor(graph.inputs.at(0));
    std::vector<float> values(size_t(input.elements()));
    for (float& v : values)
        v = uniform(random);
    return TensorData::fromFloats(input.shape, values);
}

// The fixed-point reference's output for `input` (dequantized), and the float interpreter's.
std::vector<float> referenceOutput(const gap::GapNetwork& network, const TensorData& input)
{
    const std::vector<std::vector<int16_t>> values =
        gap::runFixedPoint(network, {gap::quantizeInput(network, network.inputs.at(0), input)});
    const int output = network.outputs.at(0);
    return gap::dequantizeTensor(network, output, values[size_t(output)]);
}

// The generated graph sources compiled for GAP (the PMSIS branch, against the PMSIS declarations
// of tests/gap/pmsis_stub) with every warning an error: empty, or what the compiler said.
QString gapBuildProblem(const QString& project, const gap::GapCompileResult& result)
{
    QStringList gapBuild{"-fsyntax-only", "-Wall", "-Wextra", "-Werror", "-Wno-pointer-to-int-cast",
                         "-Wno-int-to-pointer-cast", "-DAT_FORCE_PMSIS", "-I", kSourceDir + "/tests/gap/pmsis_stub",
                         "-I", project + "/runtime", "-I", project + "/kernels", "-I", project};
    for (const std::string& source : result.generation.sources)
        gapBuild << project + "/" + QString::fromStdString(source);
    const ProcessResult built = runProcess(QStringLiteral("cc"), gapBuild);
    return built.exitCode == 0 ? QString() : describe(QStringLiteral("GAP build"), gapBuild, built);
}

// Compiles `graph`, runs the project on a fresh input (not a calibration set) and checks it against
// the reference bit for bit and against the report's L3 traffic. Returns the compile result.
gap::GapCompileResult compileAndCheck(const Graph& graph, const gap::GapCompileOptions& options, const QString& project,
                                      double minimumSqnrDb, int cores)
{
    const gap::GapCompileResult result = compileProject(graph, options, project);
    const TensorData input = randomInput(graph, 777);
    const ProjectRun run = buildAndRun(project, input, graph.tensor(graph.inputs[0]).name, cores);
    if (!run.error.isEmpty())
        QTest::qFail(qPrintable(run.error), __FILE__, __LINE__);
    const std::vector<float> expected = referenceOutput(result.network, input);
    if (run.output != expected)
        QTest::qFail("the emulated project's output differs from the fixed-point reference", __FILE__, __LINE__);
    const qint64 predicted = result.generation.graph.value("l3_traffic", qint64(-1));
    if (run.l3Traffic != predicted)
        QTest::qFail(qPrintable(QStringLiteral("L3 traffic %1, the report predicts %2").arg(run.l3Traffic).arg(predicted)),
                     __FILE__, __LINE__);
    const std::vector<float> floatOutput = Interpreter(graph).run({input}).at(0).toFloats();
    const double sqnr = gap::sqnrDb(floatOutput, run.output);
    qInfo("%s: SQNR %.1f dB against float, L3 traffic %lld bytes", graph.name.c_str(), sqnr, run.l3Traffic);
    if (!(sqnr >= minimumSqnrDb))
        QTest::qFail(qPrintable(QStringLiteral("SQNR %1 dB is below %2 dB").arg(sqnr).arg(minimumSqnrDb)), __FILE__,
                     __LINE__);
    return result;
}

}  // namespace tessera::test
