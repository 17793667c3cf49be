// SCAMP-5 foundations: goals, kernel files and their approximation, instruction text, and the
// symbolic and numeric simulators that verify programs.
#include "base/error.h"
#include "scamp/kernel_set.h"
#include "scamp/program.h"
#include "scamp/program_trace.h"
#include "scamp/simulator.h"
#include "test_support.h"

#include <QtTest>

using namespace tessera;
using namespace tessera::scamp;

namespace {

// The four direct neighbours averaged: [[0,1,0],[1,0,1],[0,1,0]] / 4.
const char* kNeighbours = R"({"name": "neighbours", "input_register": "A", "registers": ["A","B","C","D","E","F"],
  "max_approximation_depth": 4,
  "kernels": [{"output_register": "A", "scale": 0.25, "weights": [[0,1,0],[1,0,1],[0,1,0]]}]})";

// A correct program for kNeighbours (d = 2: the input A holds 4 units at the centre).
const char* kNeighboursProgram = R"(// neighbours
divq(B, A);
divq(C, B);
movx(D, C, north);
movx(E, C, south);
add(B, D, E);
movx(D, C, east);
movx(E, C, west);
add(F, D, E);
add(A, B, F);
)";

} // namespace

class TestScampSimulator : public QObject {
    Q_OBJECT

private slots:
    void goalAlgebra()
    {
        const Goal g({{{0, 1}, 2}, {{1, 0}, -4}, {{0, 1}, 1}});
        QCOMPARE(g.coefficientAt({0, 1}), int64_t(3));
        QCOMPARE(g.atomCount(), int64_t(7));
        QVERIFY((g - g).isZero());
        QCOMPARE(g.shifted({1, 1}).coefficientAt({2, 1}), int64_t(-4));
        QVERIFY(!g.isEven());
        QCOMPARE(g.doubled().halved(), g);
        QCOMPARE(QString::fromStdString(Goal({{{-1, 0}, 1}, {{1, 0}, 2}}).toString()), QString("[1 0 2]"));
    }

    void kernelsAreApproximatedAtTheSmallestDepth()
    {
        const KernelSet gauss = readKernelSet(test::sourcePath("resources/scamp/gauss3x3.json"));
        const ApproximatedKernels g = approximateKernels(gauss);
        QCOMPARE(g.depth, 4); // 1/16 is exact at d = 4
        QCOMPARE(g.goals[0].coefficientAt({0, 0}), int64_t(4));
        QCOMPARE(g.goals[0].coefficientAt({-1, 1}), int64_t(1)); // north-west corner = row 0, column 0
        QCOMPARE(g.errors[0], 0.0);
        const KernelSet net = readKernelSet(test::sourcePath("resources/scamp/analognet2.json"));
        const ApproximatedKernels n = approximateKernels(net);
        QCOMPARE(n.depth, 2);
        QCOMPARE(n.goals[0].coefficientAt({-1, 0}), int64_t(-3));
        // 1/3 is not a multiple of any 2^-d: the closest error is reported as too large.
        KernelSet third = parseKernelSet(R"({"kernels": [{"output_register": "A", "weights": [[0.3333]]}]})", "t.json");
        QVERIFY_THROWS_EXCEPTION(Error, approximateKernels(third));
        third.maxApproximationError = 0.01;
        QCOMPARE(approximateKernels(third).depth, 6); // 21/64 is within 0.01; 11/32 is not
    }

    void badKernelFilesAreRefused_data()
    {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("message");
        QTest::newRow("ragged") << R"({"kernels": [{"output_register": "A", "weights": [[1,2,1],[1,2]]}]})"
                                << "row 1 has 2 entries";
        QTest::newRow("even") << R"({"kernels": [{"output_register": "A", "weights": [[1,2],[1,2]]}]})" << "must be odd";
        QTest::newRow("empty kernels") << R"({"kernels": []})" << "non-empty array";
        QTest::newRow("empty weights") << R"({"kernels": [{"output_register": "A", "weights": []}]})" << "non-empty";
        QTest::newRow("not a number") << R"({"kernels": [{"output_register": "A", "weights": [["x"]]}]})"
                                      << "is not a number";
        QTest::newRow("too many") << R"({"registers": ["A","B"], "kernels": [
            {"output_register": "A", "weights": [[1]]}, {"output_register": "B", "weights": [[1]]},
            {"output_register": "C", "weights": [[1]]}]})" << "output register 'C'";
        QTest::newRow("shared output") << R"({"kernels": [{"output_register": "A", "weights": [[1]]},
            {"output_register": "A", "weights": [[2]]}]})" << "used by two kernels";
        QTest::newRow("json") << "{kernels" << "not valid JSON";
        QTest::newRow("wrong type") << R"({"registers": 5, "kernels": []})" << "type must be array";
        // (An ordinary string: moc's tokenizer loses track in a raw string holding a parenthesis.)
        QTest::newRow("register with a parenthesis")
            << "{\"registers\": [\"A\", \"B(\"], \"kernels\": [{\"output_register\": \"A\", \"weights\": [[1]]}]}"
            << "register name 'B(' is not a name";
        QTest::newRow("register comma") << R"({"registers": ["A", ","], "kernels": [
            {"output_register": "A", "weights": [[1]]}]})" << "register name ',' is not a name";
        QTest::newRow("17x17") << R"({"kernels": [{"output_register": "A", "weights": [[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]]}]})"
                               << "weights have 17 rows, more than the 15";
        QTest::newRow("1x16385") << QString(R"({"kernels": [{"output_register": "A", "weights": [[%1]]}]})")
                                        .arg(QString("1,").repeated(16384) + "1")
                                 << "weights are 1x16385, larger than the 15x15";
        QTest::newRow("register twice") << R"({"registers": ["A", "A"], "kernels": [
            {"output_register": "A", "weights": [[1]]}]})" << "register 'A' is listed twice";
    }
    void badKernelFilesAreRefused()
    {
        QFETCH(QString, json);
        QFETCH(QString, message);
        try {
            parseKernelSet(json.toStdString(), "k.json");
            QFAIL("no error");
        } catch (const Error& error) {
            QVERIFY2(QString(error.what()).contains(message), error.what());
            QVERIFY2(!QString(error.what()).contains("json.exception"), error.what());  // the library's tag is not for users
        }
    }

    void instructionTextRoundTrips_data()
    {
        QTest::addColumn<QString>("text");
        for (const char* line : {"res(A);", "mov(B, A);", "movx(B, A, north);", "mov2x(C, A, east, south);",
                                 "add(A, B, C);", "add(A, B, C, D);", "addx(D, B, C, west);",
                                 "add2x(D, F, D, north, north);", "sub(A, B, C);", "subx(B, F, east, A);",
                                 "sub2x(B, F, north, east, A);", "neg(B, A);", "divq(B, A);", "div(B, C, D, A);",
                                 "div(B, C, A);", "diva(A, B, C);", "res(A, B);"})
            QTest::newRow(line) << line;
    }
    void instructionTextRoundTrips()
    {
        QFETCH(QString, text);
        const Instruction instruction = parseInstruction(text.toStdString(), 1);
        QCOMPARE(QString::fromStdString(instruction.toString()), text);
    }

    void subxTakesTheDirectionBeforeTheSubtrahend()
    {
        const Instruction subx = parseInstruction("subx(B, F, east, A);", 1);
        const Goal f = Goal::identity(1);
        const Goal a({{{0, 1}, 1}});
        // B := F read one pixel east, minus A.
        QCOMPARE(subx.apply({f, a}), Goal({{{1, 0}, 1}, {{0, 1}, -1}}));
    }

    void correctProgramVerifies()
    {
        const KernelSet set = parseKernelSet(kNeighbours, "n.json");
        const ApproximatedKernels kernels = approximateKernels(set);
        const Program program = parseProgram(kNeighboursProgram, "n.txt");
        QCOMPARE(program.instructions.size(), size_t(9));
        const VerificationReport report = verifyProgram(program, set, kernels);
        QVERIFY2(report.exact, report.problems.empty() ? "" : report.problems.front().c_str());
        QCOMPARE(report.imagesChecked, 3);
        // The formatted program parses back to the same instructions.
        const Program again = parseProgram(formatProgram(program, {"neighbours", "A", {"A"}, kernels.depth}), "again");
        QCOMPARE(again.instructions.size(), program.instructions.size());
        QVERIFY(verifyProgram(again, set, kernels).exact);
        // The same program saved with CRLF line endings reads the same.
        std::string crlf;
        for (const char c : std::string(kNeighboursProgram))
            crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
        const Program fromCrlf = parseProgram(crlf, "crlf.txt");
        QCOMPARE(fromCrlf.instructions.size(), program.instructions.size());
        QVERIFY(verifyProgram(fromCrlf, set, kernels).exact);
    }

    void wrongProgramsAreCaught_data()
    {
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("to");
        QTest::addColumn<QString>("message");
        QTest::newRow("wrong direction") << "movx(E, C, west);" << "movx(E, C, north);" << "computes";
        QTest::newRow("unset register") << "add(A, B, F);" << "add(A, B, F, C);" << "computes";
        QTest::newRow("odd halving") << "divq(C, B);" << "divq(C, A);\ndivq(B, C);\ndivq(C, B);" << "odd coefficients";
        QTest::newRow("destination is source") << "divq(B, A);" << "divq(A, A);" << "destination may not be the source";
        QTest::newRow("scratch clobbered") << "divq(C, B);" << "div(C, D, E, B);\nadd(F, D, E);" << "holds no value";
        QTest::newRow("unknown register") << "add(A, B, F);" << "add(A, B, G);" << "unknown register 'G'";
    }
    void wrongProgramsAreCaught()
    {
        QFETCH(QString, from);
        QFETCH(QString, to);
        QFETCH(QString, message);
        const KernelSet set = parseKernelSet(kNeighbours, "n.json");
        const ApproximatedKernels kernels = approximateKernels(set);
        QString text = kNeighboursProgram;
        QVERIFY(text.contains(from));
        text.replace(from, to);
        const VerificationReport report = verifyProgram(parseProgram(text.toStdString(), "bad.txt"), set, kernels);
        QVERIFY(!report.exact);
        QVERIFY2(QString::fromStdString(report.problems.front()).contains(message), report.problems.front().c_str());
    }

    void numericModelReadsZeroBeyondTheEdge()
    {
        Plane input{4, std::vector<double>(16, 1.0)};
        const Program program = parseProgram("movx(B, A, east);", "p");
        const auto planes = runNumeric(program, {"A", "B"}, "A", input);
        QCOMPARE(planes.at("B").at(2, 1), 1.0);
        QCOMPARE(planes.at("B").at(3, 1), 0.0); // the east neighbour of the last column is outside
    }

    // The trace holds, after every instruction, what the simulator holds after running the program
    // up to that instruction - symbolically and on the image.
    void traceFollowsTheSimulatorStepByStep()
    {
        const KernelSet set = parseKernelSet(kNeighbours, "n.json");
        const ApproximatedKernels kernels = approximateKernels(set);
        const Program program = parseProgram(kNeighboursProgram, "n.txt");
        const Plane image = samplePlane(24);
        const ProgramTrace trace = traceProgram(program, set, kernels, &image);
        QVERIFY(trace.problem.empty());
        QCOMPARE(trace.steps(), program.instructions.size() + 1);
        QCOMPARE(trace.planes.size(), trace.steps());
        QCOMPARE(trace.inputRegister, std::string("A"));
        for (size_t step = 0; step < trace.steps(); ++step) {
            Program prefix;
            prefix.instructions.assign(program.instructions.begin(), program.instructions.begin() + std::ptrdiff_t(step));
            const auto goals = runSymbolic(prefix, set.registers, set.inputRegister, kernels.input());
            const auto planes = runNumeric(prefix, set.registers, set.inputRegister, image);
            for (size_t r = 0; r < set.registers.size(); ++r) {
                QCOMPARE(trace.goals[step][r], goals.at(set.registers[r]));
                QCOMPARE(trace.planes[step][r].values, planes.at(set.registers[r]).values);
            }
        }
        // Before the first instruction only the input has a value; at the end A holds the kernel.
        QCOMPARE(trace.goals.front()[0], std::optional<Goal>(kernels.input()));
        QVERIFY(!trace.goals.front()[1]);
        QCOMPARE(trace.goals.back()[0], std::optional<Goal>(kernels.goals[0]));
        QCOMPARE(trace.radius(), 1);
        QCOMPARE(trace.registerIndex("C"), 2);
        QCOMPARE(trace.registerIndex("Q"), -1);
    }

    void traceStopsWhereTheProgramBreaksARule()
    {
        const KernelSet set = parseKernelSet(kNeighbours, "n.json");
        const ApproximatedKernels kernels = approximateKernels(set);
        QString text = kNeighboursProgram;
        text.replace("add(B, D, E);", "add(B, D, Q);"); // instruction 5 reads an unknown register
        const Plane image = samplePlane(16);
        const ProgramTrace trace = traceProgram(parseProgram(text.toStdString(), "bad.txt"), set, kernels, &image);
        QCOMPARE(trace.steps(), size_t(5)); // the start and the four instructions before it
        QCOMPARE(trace.planes.size(), size_t(5));
        QVERIFY2(QString::fromStdString(trace.problem).contains("instruction 5"), trace.problem.c_str());
        QVERIFY(traceProgram(parseProgram(kNeighboursProgram, "n.txt"), set, kernels).planes.empty());
    }

    void samplePictureIsWholeNumbersInRange()
    {
        const Plane plane = samplePlane(32);
        QCOMPARE(plane.values.size(), size_t(32 * 32));
        double lowest = 255, highest = 0;
        for (double v : plane.values) {
            QCOMPARE(v, std::round(v));
            lowest = std::min(lowest, v);
            highest = std::max(highest, v);
        }
        QVERIFY(lowest >= 0 && highest <= 255 && highest - lowest > 100);
        QVERIFY_THROWS_EXCEPTION(Error, samplePlane(0));
    }

    void syntaxErrorsNameTheLine()
    {
        try {
            parseProgram("mov(B, A);\nfoo(B);\n", "p.txt");
            QFAIL("no error");
        } catch (const Error& error) {
            QVERIFY2(QString(error.what()).contains("p.txt line 2: unknown instruction 'foo'"), error.what());
        }
        QVERIFY_THROWS_EXCEPTION(Error, parseProgram("movx(B, A, up);", "p.txt"));
        QVERIFY_THROWS_EXCEPTION(Error, parseProgram("add(A, B);", "p.txt"));
        QVERIFY_THROWS_EXCEPTION(Error, parseProgram("add(A, B, C)", "p.txt"));
    }
};

QTEST_GUILESS_MAIN(TestScampSimulator)
#include "tst_scamp_simulator.moc"
