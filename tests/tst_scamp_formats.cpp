// SCAMP-5 programs in the forms users bring and take away: Cain's program text (read, verified
// exactly, written, read again), the SDK's other macro forms Cain uses (diva, div(u, t, a),
// res(u, v)), and the C++ for the SCAMP-5 SDK, compiled with the system compiler against a model of
// the SDK's macros (tests/support/scamp5_sdk_model) and run to the same result as the simulator.
#include "base/error.h"
#include "gap_toolchain.h"
#include "scamp/kernel_set.h"
#include "scamp/program.h"
#include "scamp/reverse_search.h"
#include "scamp/scamp5_sdk_code.h"
#include "scamp/simulator.h"
#include "scamp_samples.h"
#include "test_support.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <random>

using namespace tessera;
using namespace tessera::scamp;

namespace {

// The 3x3 Gaussian (d = 4) written by hand in Cain's form: its header, diva, the clobbering
// three-operand div, res of two registers, two macros on one line.
const char* kCainGauss3x3 = R"(//Kernel Code!
//Inputs in: [A]
res(E, F);
diva(A, E, F);
diva(A, E, F);
movx(B, A, east);
movx(C, A, west);
add(B, B, C); add(B, B, A);
add(B, B, A);
div(C, E, B);
diva(C, E, F);
movx(D, C, north);
movx(E, C, south);
add(A, D, E);
add(A, A, C);
add(A, A, C);
)";

QStringList bundledFilters()
{
    return QDir(QString::fromStdString(test::sourcePath("resources/scamp"))).entryList({"*.json"}, QDir::Files, QDir::Name);
}

bool writeText(const QString& path, const std::string& text)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(text.data(), qint64(text.size())) == qint64(text.size());
}

} // namespace

class TestScampFormats : public QObject {
    Q_OBJECT

private slots:
    void cainProgramRoundTrips()
    {
        const KernelSet set = test::bundledKernels("gauss3x3");
        const ApproximatedKernels kernels = approximateKernels(set);
        QCOMPARE(kernels.depth, 4);
        const Program program = parseProgram(kCainGauss3x3, "cain.txt");
        QCOMPARE(program.instructions.size(), size_t(15));
        const VerificationReport report = verifyProgram(program, set, kernels);
        QVERIFY2(report.exact, report.problems.empty() ? "" : report.problems.front().c_str());

        const std::string written = formatCainProgram(program, {set.name, "A", {"A"}, kernels.depth});
        QVERIFY(written.rfind("//Kernel Code!\n//Inputs in: [A]\n", 0) == 0);
        QVERIFY(written.find("diva(C, E, F);\n") != std::string::npos);
        QVERIFY(written.find("div(C, E, B);\n") != std::string::npos);
        QVERIFY(written.find("res(E, F);\n") != std::string::npos);
        const Program again = parseProgram(written, "written.txt");
        QCOMPARE(formatCainProgram(again, {set.name, "A", {"A"}, kernels.depth}), written);
        QVERIFY(verifyProgram(again, set, kernels).exact);
    }

    // What the SDK's macros do to the registers they name besides the destination.
    void cainFormsKeepTheirMeaning()
    {
        const std::vector<std::string> registers{"A", "B", "C", "D", "E", "F"};
        const Goal input = Goal::identity(8);
        // diva halves in place and leaves its two scratch registers without a value.
        auto state = runSymbolic(parseProgram("mov(E, A); diva(A, E, F);", "p"), registers, "A", input);
        QCOMPARE(*state.at("A"), Goal::identity(4));
        QVERIFY(!state.at("E") && !state.at("F"));
        // div(u, t, a) leaves its source as "a + error": reading it afterwards is refused.
        state = runSymbolic(parseProgram("div(B, C, A);", "p"), registers, "A", input);
        QCOMPARE(*state.at("B"), Goal::identity(4));
        QVERIFY(!state.at("A") && !state.at("C"));
        try {
            runSymbolic(parseProgram("div(B, C, A);\nmov(D, A);", "p"), registers, "A", input);
            QFAIL("read a clobbered register");
        } catch (const Error& error) {
            QVERIFY2(QString(error.what()).contains("reads A, which holds no value"), error.what());
        }
        // res(u, v) clears both.
        state = runSymbolic(parseProgram("mov(B, A); res(A, B);", "p"), registers, "A", input);
        QVERIFY(state.at("A")->isZero() && state.at("B")->isZero());
        // Their operand rules.
        QVERIFY(!parseInstruction("res(A, A);", 1).check().empty());
        QVERIFY(!parseInstruction("div(A, B, A);", 1).check().empty());
        QVERIFY(!parseInstruction("diva(A, A, B);", 1).check().empty());
        QVERIFY(parseInstruction("diva(A, B, C);", 1).check().empty());
    }

    void programTextIsReadAsTheSdkWritesIt_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("instructions");
        QTest::addColumn<QString>("error");
        QTest::newRow("kernel brackets") << "scamp5_kernel_begin();\nmov(B, A);\nscamp5_kernel_end();\n" << 1 << "";
        QTest::newRow("block comment") << "/* ops: 2,\n selects: 0 */ mov(B, A);\nneg(C, B); /* done */\n" << 2 << "";
        QTest::newRow("trailing space") << "add(A, B, C); \nsub(D, A, B);  " << 2 << "";
        QTest::newRow("unterminated") << "mov(B, A);\nmov(C, B)\n" << 0 << "p line 2: the instruction must end with ';'";
        QTest::newRow("unclosed comment") << "mov(B, A); /* oops\n" << 0 << "a /* comment is never closed";
        QTest::newRow("diva operands") << "diva(A, B);\n" << 0 << "p line 1: wrong number of operands for 'diva'";
    }
    void programTextIsReadAsTheSdkWritesIt()
    {
        QFETCH(QString, text);
        QFETCH(int, instructions);
        QFETCH(QString, error);
        try {
            const Program program = parseProgram(text.toStdString(), "p");
            QVERIFY2(error.isEmpty(), "no error");
            QCOMPARE(int(program.instructions.size()), instructions);
        } catch (const Error& e) {
            QVERIFY2(!error.isEmpty() && QString(e.what()).contains(error), e.what());
        }
    }

    // The command line verifies Cain's program and writes the found program in Cain's form, which
    // it then verifies again.
    void commandLineSpeaksCain()
    {
        QTemporaryDir dir;
        const QString kernels = QString::fromStdString(test::sourcePath("resources/scamp/gauss3x3.json"));
        const QString cain = dir.filePath("cain.txt");
        QVERIFY(writeText(cain, kCainGauss3x3));
        auto run = [](const QStringList& arguments) { return test::runProcess(TESSERA_CLI_PATH, arguments); };
        test::ProcessResult verified = run({"scamp", kernels, "--verify", cain});
        QVERIFY2(verified.exitCode == 0 && verified.out.contains("verification: exact"), qPrintable(verified.out + verified.err));

        const QString written = dir.filePath("found.txt");
        const test::ProcessResult found = run({"scamp", kernels, "--nodes", "2000", "--format", "cain", "-o", written});
        QVERIFY2(found.exitCode == 0, qPrintable(found.err));
        QFile file(written);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(file.readAll().startsWith("//Kernel Code!\n//Inputs in: [A]\n"));
        verified = run({"scamp", kernels, "--verify", written});
        QVERIFY2(verified.exitCode == 0, qPrintable(verified.out + verified.err));

        const test::ProcessResult bad = run({"scamp", kernels, "--format", "verilog"});
        QVERIFY(bad.exitCode != 0);
        QVERIFY2(bad.err.contains("--format"), qPrintable(bad.err));
    }

    // Every bundled filter's program as SCAMP-5 SDK code: compiled with the system C++ compiler
    // against the SDK model, run on a random image, and compared with the simulator's registers.
    void sdkCodeRunsLikeTheSimulator()
    {
        QTemporaryDir dir;
        const QString model = QString::fromStdString(test::sourcePath("tests/support/scamp5_sdk_model"));
        struct Case {
            KernelSet set;
            ApproximatedKernels kernels;
            Program program;
        };
        std::vector<Case> cases;
        std::string driver = "#include \"scamp5.hpp\"\n";
        std::string dispatch;
        for (const QString& file : bundledFilters()) {
            Case c;
            c.set = readKernelSet(test::sourcePath("resources/scamp/" + file.toStdString()));
            if (!std::all_of(c.set.registers.begin(), c.set.registers.end(), isScamp5Register))
                continue;  // more registers than the chip has: refused below
            c.kernels = approximateKernels(c.set);
            // Any verified program does: this checks the SDK code, not the search. A few seconds
            // at most per filter (the sanitized build is many times slower).
            SearchOptions options = test::nodeBudget(test::kSanitizedBuild ? 300 : 1500);
            options.seconds = 3;
            const CompileResult result = compileKernels(c.set, c.kernels, options);
            if (!result.best) {
                qInfo("%s: no program within %llu nodes or 3 s", qPrintable(file), (unsigned long long)options.nodeLimit);
                continue;
            }
            c.program = *result.best;
            std::vector<std::string> outputs;
            for (const KernelSpec& k : c.set.kernels)
                outputs.push_back(k.outputRegister);
            const std::string code = formatScamp5Code(c.program, {c.set.name, c.set.inputRegister, outputs, c.kernels.depth});
            QVERIFY(code.find("scamp5_kernel_begin();") != std::string::npos);
            const QString header = QString::fromStdString(c.set.name) + ".hpp";
            QVERIFY(writeText(dir.filePath(header), code));
            driver += "#include \"" + header.toStdString() + "\"\n";
            dispatch += "    case " + std::to_string(cases.size()) + ": " + sdkFunctionName(c.set.name) + "(); break;\n";
            cases.push_back(std::move(c));
        }
        QVERIFY2(cases.size() >= (test::kSanitizedBuild ? 5u : 8u), "most bundled filters compile within the node budget");
        driver += R"(#include <cstdio>
#include <cstdlib>
// driver CASE INPUT_REGISTER IMAGE OUT: the image (size, then values) into the register, the
// case's kernel function, then registers A..F to OUT.
int main(int argc, char** argv)
{
    if (argc != 5) return 2;
    FILE* in = std::fopen(argv[3], "r");
    int size = 0;
    if (!in || std::fscanf(in, "%d", &size) != 1) return 3;
    scamp5_model::array().resize(size);
    std::vector<double>& input = scamp5_model::array().planes[size_t(argv[2][0] - 'A')];
    for (double& v : input)
        if (std::fscanf(in, "%lf", &v) != 1) return 4;
    std::fclose(in);
    switch (std::atoi(argv[1])) {
)" + dispatch + R"(    default: return 5;
    }
    FILE* out = std::fopen(argv[4], "w");
    for (int r = 0; r < 6; ++r)
        for (double v : scamp5_model::array().planes[size_t(r)])
            std::fprintf(out, "%.17g\n", v);
    return std::fclose(out) == 0 ? 0 : 6;
}
)";
        QVERIFY(writeText(dir.filePath("driver.cpp"), driver));
        const QStringList compile{"-std=c++17", "-O1", "-Wall", "-Werror", "-I" + model, "-I" + dir.path(),
                                  dir.filePath("driver.cpp"), "-o", dir.filePath("driver")};
        const test::ProcessResult built = test::runProcess("c++", compile);
        QVERIFY2(built.exitCode == 0, qPrintable(test::describe("c++", compile, built)));

        std::mt19937 random(7);
        std::uniform_int_distribution<int> pixel(-128, 127);
        for (size_t k = 0; k < cases.size(); ++k) {
            const Case& c = cases[k];
            // Values beyond the edge reach at most as far in as the program's shifts add up to.
            int radius = 1;
            for (const Instruction& instruction : c.program.instructions)
                radius += std::abs(instruction.shift().x) + std::abs(instruction.shift().y);
            const int size = 2 * radius + 12;
            Plane image{size, std::vector<double>(size_t(size * size))};
            std::string text = std::to_string(size) + "\n";
            for (double& v : image.values) {
                v = pixel(random);
                text += std::to_string(int(v)) + "\n";
            }
            QVERIFY(writeText(dir.filePath("image.txt"), text));
            const QStringList arguments{QString::number(k), QString::fromStdString(c.set.inputRegister),
                                        dir.filePath("image.txt"), dir.filePath("out.txt")};
            const test::ProcessResult ran = test::runProcess(dir.filePath("driver"), arguments);
            QVERIFY2(ran.exitCode == 0, qPrintable(test::describe("driver", arguments, ran)));
            QFile out(dir.filePath("out.txt"));
            QVERIFY(out.open(QIODevice::ReadOnly));
            const QList<QByteArray> values = out.readAll().split('\n');
            QVERIFY(values.size() >= 6 * size * size);

            const NumericState simulated = runNumeric(c.program, c.set.registers, c.set.inputRegister, image);
            int compared = 0;
            for (const KernelSpec& kernel : c.set.kernels) {
                const int r = kernel.outputRegister[0] - 'A';
                const Plane& expected = simulated.at(kernel.outputRegister);
                for (int y = radius; y < size - radius; ++y)
                    for (int x = radius; x < size - radius; ++x) {
                        const double got = values[r * size * size + y * size + x].toDouble();
                        if (got != expected.at(x, y))
                            QFAIL(qPrintable(QString("%1: register %2 at (%3, %4): the SDK code gives %5, the simulator %6")
                                                 .arg(QString::fromStdString(c.set.name), QString::fromStdString(kernel.outputRegister))
                                                 .arg(x).arg(y).arg(got).arg(expected.at(x, y))));
                        ++compared;
                    }
            }
            QVERIFY(compared > 0);
            qInfo("%s: %zu instructions, %d output pixels agree", c.set.name.c_str(), c.program.instructions.size(), compared);
        }
    }

    void sdkCodeNeedsTheChipsRegisters()
    {
        const Program program = parseProgram("mov(G, A);", "p");
        try {
            formatScamp5Code(program, {"wide", "A", {"G"}, 0});
            QFAIL("register G accepted");
        } catch (const Error& error) {
            QVERIFY2(QString(error.what()).contains("uses register G") && QString(error.what()).contains("A to F"), error.what());
        }
        QCOMPARE(QString::fromStdString(sdkFunctionName("5x5 + 3x3")), QString("kernels_5x5___3x3"));
    }
};

QTEST_GUILESS_MAIN(TestScampFormats)
#include "tst_scamp_formats.moc"
