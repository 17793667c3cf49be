// What GAP applications written for GreenWaves' SDK need on the host besides the generated kernels,
// as `tessera gap emul-cflags` provides it: the cores' DSP instructions (gap_* of Gap.h) against
// their definitions, and PMSIS (pmsis.h, the board's RAM, flash and filesystems, gaplib's image
// I/O) under an application written the way the SDK's examples are (tests/gap/SdkApplication: L3
// weights loaded from the read-only filesystem, layers run as a cluster task), whose output must
// equal the reference interpreter's fixed-point kernels bit for bit on 1 and 8 emulated cores.
#include "gap_cnn_data.h"
#include "gap_toolchain.h"

#include "interp/fixed_point/pow2_kernels.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <cstdint>
#include <random>
#include <vector>

using namespace tessera::test;
namespace fp = tessera::fixed_point;

namespace {

constexpr int kImageSide = 32;

// What the test gives the application and what it must produce.
struct ApplicationData {
    QByteArray pixels;                   // the 32x32 gray image
    std::vector<int16_t> expected;       // 12 planes of 5x5
};

ApplicationData writeApplicationData(const QString& work, const QString& weights, unsigned seed)
{
    std::mt19937 random(seed);
    ApplicationData data;
    std::uniform_int_distribution<int> pixel(0, 255);
    for (int i = 0; i < kImageSide * kImageSide; ++i)
        data.pixels.append(char(pixel(random)));
    QFile image(work + QStringLiteral("/input.pgm"));
    if (!image.open(QIODevice::WriteOnly) ||
        image.write(QByteArrayLiteral("P5\n# written by the test\n32 32\n255\n") + data.pixels) < 0)
        return {};
    image.close();
    // The application turns Q8 pixels into Q12 (value * 16), as the SDK's MNIST example does.
    std::vector<int16_t> input;
    for (const char p : data.pixels)
        input.push_back(int16_t(int(uint8_t(p)) * 16));
    const std::vector<int16_t> filter0 = randomValues(random, 8 * 25, 255), bias0 = randomValues(random, 8, 1023);
    const std::vector<int16_t> filter1 = randomValues(random, 12 * 8 * 25, 255), bias1 = randomValues(random, 12, 1023);
    if (!writeValues(weights + QStringLiteral("/Filter0.bin"), filter0) || !writeValues(weights + QStringLiteral("/Bias0.bin"), bias0) ||
        !writeValues(weights + QStringLiteral("/Filter1.bin"), filter1) || !writeValues(weights + QStringLiteral("/Bias1.bin"), bias1))
        return {};
    const std::vector<int16_t> layer0 = fp::convPoolRelu(mnistConv(1, 8, kImageSide), input, filter0, bias0);
    data.expected = fp::convPoolRelu(mnistConv(8, 12, 14), layer0, filter1, bias1);
    return data;
}

}  // namespace

class TestGapSdkRuntime : public QObject {
    Q_OBJECT

    GapToolchain m_toolchain;
    QTemporaryDir m_work;
    QString m_generated;

    // The application built for the host with `cores` emulated cores (and extra flags); its path.
    QString buildApplication(const QString& name, int cores, const QStringList& extraFlags = {})
    {
        const QString program = m_work.filePath(name);
        const QStringList command = sanitizerFlags(cores) + extraFlags + QStringList{QStringLiteral("-Wall"), QStringLiteral("-Wextra")} +
                                    m_toolchain.emulCflags +
                                    QStringList{QStringLiteral("-I"), m_generated, m_generated + QStringLiteral("/AppKernels.c")} +
                                    m_toolchain.cnnSources +
                                    QStringList{kGapTests + QStringLiteral("/SdkApplication/App.c"), QStringLiteral("-lm"),
                                                QStringLiteral("-o"), program};
        const ProcessResult built = runProcess(m_toolchain.cc, command);
        if (built.exitCode != 0 || built.err.contains(QStringLiteral("warning"))) {
            qWarning("%s", qPrintable(describe(QStringLiteral("building the application"), QStringList{m_toolchain.cc} + command, built)));
            return {};
        }
        return program;
    }

    // A one-file C program built in `dir` with the emulation flags, `cores` emulated cores, the
    // sanitizers and -Wall -Werror (plus `flags`); its path, or empty with *error set.
    QString buildProgram(const QTemporaryDir& dir, const QString& name, const QByteArray& code, int cores,
                         const QStringList& flags, QString* error)
    {
        QFile source(dir.filePath(name + QStringLiteral(".c")));
        if (!source.open(QIODevice::WriteOnly) || source.write(code) != code.size()) {
            *error = QStringLiteral("cannot write ") + source.fileName();
            return {};
        }
        source.close();
        const QString program = dir.filePath(name);
        const QStringList command = sanitizerFlags(cores) + QStringList{QStringLiteral("-Wall"), QStringLiteral("-Werror")} +
                                    flags + m_toolchain.emulCflags + QStringList{source.fileName(), QStringLiteral("-o"), program};
        const ProcessResult built = runProcess(m_toolchain.cc, command);
        if (built.exitCode != 0) {
            *error = describe(QStringLiteral("building ") + name, QStringList{m_toolchain.cc} + command, built);
            return {};
        }
        return program;
    }

    static QProcessEnvironment withReadfsPath(const QString& path)
    {
        QProcessEnvironment environment = sanitizerEnvironment();
        environment.insert(QStringLiteral("TESSERA_READFS_PATH"), path);
        return environment;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_work.isValid());
        QString error;
        if (!m_toolchain.init(&error) && m_toolchain.cc.isEmpty())
            QSKIP("no C compiler (cc or gcc) on PATH");
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QString generator = m_work.filePath(QStringLiteral("gen_app"));
        QStringList command;
        const ProcessResult compiled =
            m_toolchain.compileModel(kGapTests + QStringLiteral("/SdkApplication/Model.c"), generator, &command);
        QVERIFY2(compiled.exitCode == 0, qPrintable(describe(QStringLiteral("compiling the model"), QStringList{m_toolchain.cc} + command, compiled)));
        m_generated = m_work.filePath(QStringLiteral("generated"));
        const ProcessResult generated = runProcess(generator, {QStringLiteral("-o"), m_generated});
        QVERIFY2(generated.exitCode == 0, qPrintable(describe(QStringLiteral("generation"), {generator}, generated)));
    }

    // Every gap_* instruction on 200,000 operand triples (random and edge values), exactly.
    void builtinsMatchTheirDefinition()
    {
        const QString program = m_work.filePath(QStringLiteral("builtins_check"));
        const QStringList command = sanitizerFlags(1) + QStringList{QStringLiteral("-Wall"), QStringLiteral("-Wextra"), QStringLiteral("-Werror")} +
                                    m_toolchain.emulCflags +
                                    QStringList{kGapTests + QStringLiteral("/builtins_check.c"), QStringLiteral("-lm"), QStringLiteral("-o"), program};
        const ProcessResult built = runProcess(m_toolchain.cc, command);
        QVERIFY2(built.exitCode == 0, qPrintable(describe(QStringLiteral("build"), QStringList{m_toolchain.cc} + command, built)));
        const ProcessResult ran = runProcess(program, {}, sanitizerEnvironment());
        QVERIFY2(ran.exitCode == 0 && ran.out.contains(QStringLiteral("RESULT ok")), qPrintable(describe(QStringLiteral("the check"), {program}, ran)));
        const QRegularExpressionMatch checked = QRegularExpression(QStringLiteral("CHECKED (\\d+)")).match(ran.out);
        QVERIFY2(checked.hasMatch() && checked.captured(1).toLongLong() > 10'000'000, qPrintable(ran.out));
    }

    void applicationRunsBitExact_data()
    {
        QTest::addColumn<int>("cores");
        QTest::newRow("1 core") << 1;
        QTest::newRow("8 cores") << 8;
    }
    void applicationRunsBitExact()
    {
        QFETCH(int, cores);
        const QString program = buildApplication(QStringLiteral("app_%1").arg(cores), cores);
        QVERIFY(!program.isEmpty());
        QTemporaryDir run;
        const QString weights = run.filePath(QStringLiteral("weights"));
        QVERIFY(QDir().mkpath(weights));
        const ApplicationData data = writeApplicationData(run.path(), weights, 7u + unsigned(cores));
        QVERIFY(!data.expected.empty());

        // The weights are found through TESSERA_READFS_PATH, past a folder that does not exist.
        const ProcessResult ran = runProcess(program, {}, withReadfsPath(run.filePath(QStringLiteral("none")) + ':' + weights), run.path());
        QVERIFY2(ran.exitCode == 0 && ran.out.contains(QStringLiteral("RESULT ok")), qPrintable(describe(QStringLiteral("the application"), {program}, ran)));
        const std::vector<int16_t> got = readValues(run.filePath(QStringLiteral("output.bin")), data.expected.size());
        QCOMPARE(got.size(), data.expected.size());
        for (std::size_t i = 0; i < got.size(); ++i)
            if (got[i] != data.expected[i])
                QFAIL(qPrintable(QStringLiteral("output element %1 is %2, the reference gives %3").arg(i).arg(got[i]).arg(data.expected[i])));
        // gaplib wrote back the pixels it read.
        QFile echo(run.filePath(QStringLiteral("echo.pgm")));
        QVERIFY(echo.open(QIODevice::ReadOnly));
        QVERIFY(echo.readAll().endsWith(data.pixels));
    }

    // What applications and basic kernels of the first Autotiler's era use besides PMSIS: rt_alloc
    // by kind of memory (cluster data in L1), PI_L1 data, gap8_* instruction names, and gap_ncore()
    // as a constant (a static initializer), equal to the cluster's cores even in a smaller team.
    void firstRuntimeCalls()
    {
        QTemporaryDir work;
        QString error;
        const QString program = buildProgram(work, QStringLiteral("old"), "#include \"Gap8.h\"\n#include <stdio.h>\n"
                     "static int Cores = gap_ncore();\n"
                     "PI_L1 int Shared;\n"
                     "static int TeamSeen;\n"
                     "static void Entry(void *Arg) { (void) Arg; if (gap_coreid() == 0) TeamSeen = pi_cl_team_nb_cores() * 100 + gap_ncore(); }\n"
                     "int main(void)\n{\n"
                     "    char *L1 = rt_alloc(RT_ALLOC_CL_DATA, 1000), *L2 = rt_alloc(RT_ALLOC_FC_DATA, 1000);\n"
                     "    int InL1 = L1 >= PiEmulL1.Base && L1 + 1000 <= PiEmulL1.Base + PiEmulL1.Capacity;\n"
                     "    int InL2 = L2 >= PiEmulL2.Base && L2 + 1000 <= PiEmulL2.Base + PiEmulL2.Capacity;\n"
                     "    rt_free(RT_ALLOC_CL_DATA, L1, 1000);\n    rt_free(RT_ALLOC_FC_DATA, L2, 1000);\n"
                     "    pi_cl_team_fork(2, Entry, 0);\n"
                     "    printf(\"cores %d l1 %d l2 %d round %u team %d\\n\", Cores, InL1, InL2, gap8_muluRN(300, 5, 2), TeamSeen);\n"
                     "    return 0;\n}\n", 8, {}, &error);
        QVERIFY2(!program.isEmpty(), qPrintable(error));
        const ProcessResult ran = runProcess(program, {}, sanitizerEnvironment());
        // 300 * 5 / 4 = 375 rounded; a team of 2 sees 8 cluster cores, as on the chip.
        QVERIFY2(ran.exitCode == 0 && ran.out.contains(QStringLiteral("cores 8 l1 1 l2 1 round 375 team 208")),
                 qPrintable(describe(QStringLiteral("run"), {program}, ran)));
    }

    // The emulated team over many forks of changing size, as a tiled kernel forks once per tile: the
    // cores run phase by phase in the order 0..N-1, each barrier waits for the whole team, the team
    // size is the fork's (1 included), and the cores' threads are kept and reused (never more than
    // the largest team less the calling thread).
    void teamForksRunInTurnAndReuseCores()
    {
        QTemporaryDir work;
        QString error;
        const QString program = buildProgram(work, QStringLiteral("team"), "#include \"pmsis.h\"\n#include <stdio.h>\n#include <string.h>\n"
                     "static int Slot[8], Sum[8], Order[8], Arrived, Bad;\n"
                     "static void Entry(void *Arg)\n{\n"
                     "    const int Team = pi_cl_team_nb_cores(), Me = pi_core_id(), Base = *(int *) Arg;\n"
                     "    Order[Arrived++] = Me;\n"
                     "    Slot[Me] = Base + Me;\n"
                     "    pi_cl_team_barrier();\n"
                     "    if (Arrived != Team) Bad++;\n"
                     "    for (int i = 0; i < Team; i++) Sum[Me] += Slot[i];\n"
                     "    pi_cl_team_barrier();\n"
                     "    for (int i = 0; i < Team; i++) if (Sum[i] != Team * Base + Team * (Team - 1) / 2) Bad++;\n"
                     "}\n"
                     "static int Threads(void)\n{\n"
                     "    char Line[256]; int N = -1; FILE *F = fopen(\"/proc/self/status\", \"r\");\n"
                     "    while (F && fgets(Line, sizeof Line, F)) if (!strncmp(Line, \"Threads:\", 8)) N = atoi(Line + 8);\n"
                     "    if (F) fclose(F);\n    return N;\n}\n"
                     "int main(void)\n{\n"
                     "    int OutOfTurn = 0;\n"
                     "    for (int Round = 0; Round < 3000; Round++) {\n"
                     "        const int Team = 1 + (Round * 5) % 8;\n"
                     "        memset(Sum, 0, sizeof Sum); Arrived = 0;\n"
                     "        pi_cl_team_fork(Team, Entry, &Round);\n"
                     "        for (int i = 0; i < Team; i++) if (Order[i] != i) OutOfTurn++;\n"
                     "    }\n"
                     "    printf(\"bad %d out-of-turn %d threads %d\\n\", Bad, OutOfTurn, Threads());\n"
                     "    return 0;\n}\n", 8, {}, &error);
        QVERIFY2(!program.isEmpty(), qPrintable(error));
        const ProcessResult ran = runProcess(program, {}, sanitizerEnvironment());
        QVERIFY2(ran.exitCode == 0 && ran.out.contains(QStringLiteral("bad 0 out-of-turn 0 threads 8")),
                 qPrintable(describe(QStringLiteral("run"), {program}, ran)));
    }

    // The cluster DMA of PMSIS with 32-bit addresses, as applications pass them: a global in L2 and
    // an L1 allocation, 1-D and 2-D, counted like the kernels' copies; an address cut to 32 bits
    // from a stack buffer is refused with the reason.
    void clusterDmaCopies()
    {
        QTemporaryDir work;
        QString error;
        const QString program = buildProgram(work, QStringLiteral("dma"), "#include \"pmsis.h\"\n#include <stdio.h>\n"
                     "PI_L2 short Table[64];\n"
                     "int main(int argc, char **argv)\n{\n"
                     "    (void) argv;\n"
                     "    for (int i = 0; i < 64; i++) Table[i] = (short) (i * 3);\n"
                     "    short *L1 = pmsis_l1_malloc(64 * sizeof(short));\n"
                     "    pi_cl_dma_cmd_t Cmd;\n"
                     "    pi_cl_dma_cmd((int) Table, (int) L1, 64 * sizeof(short), PI_CL_DMA_DIR_EXT2LOC, &Cmd);\n"
                     "    pi_cl_dma_cmd_wait(&Cmd);\n"
                     "    int Same = 1;\n    for (int i = 0; i < 64; i++) Same &= L1[i] == i * 3;\n"
                     "    /* Column 0 of an 8x8 table: 8 lines of 2 bytes, 16 bytes apart. */\n"
                     "    pi_cl_dma_copy_2d_t Copy = {(uint32_t) (uintptr_t) Table, (uint32_t) (uintptr_t) L1, 0, 16, PI_CL_DMA_DIR_EXT2LOC, 0, 16, 2};\n"
                     "    pi_cl_dma_memcpy_2d(&Copy);\n    pi_cl_dma_wait(&Copy);\n"
                     "    int Column = 1;\n    for (int i = 0; i < 8; i++) Column &= L1[i] == i * 24;\n"
                     "    printf(\"same %d column %d read %u\\n\", Same, Column, __L2_Read);\n"
                     "    if (argc > 1) {\n"
                     "        short Local[4];\n"
                     "        pi_cl_dma_cmd((int) (intptr_t) Local, (int) L1, sizeof Local, PI_CL_DMA_DIR_EXT2LOC, &Cmd);\n"
                     "    }\n"
                     "    return 0;\n}\n", 1, {QStringLiteral("-Wno-pointer-to-int-cast")}, &error);
        QVERIFY2(!program.isEmpty(), qPrintable(error));
        const ProcessResult ran = runProcess(program, {}, sanitizerEnvironment());
        QVERIFY2(ran.exitCode == 0 && ran.out.contains(QStringLiteral("same 1 column 1 read 144")),
                 qPrintable(describe(QStringLiteral("run"), {program}, ran)));
        const ProcessResult refused = runProcess(program, {QStringLiteral("stack")}, sanitizerEnvironment());
        QVERIFY2(refused.exitCode == 1 && refused.err.contains(QStringLiteral("pi_cl_dma: the external address")) &&
                     refused.err.contains(QStringLiteral("-no-pie")),
                 qPrintable(describe(QStringLiteral("a stack buffer"), {program, QStringLiteral("stack")}, refused)));
    }

    // Idioms of the SDK's DSP test programs: their own `#define pmsis_exit(a) exit(a)` before the
    // headers (it wins over the emulation's), the cluster timer started, reset and read (and the
    // fabric controller's, the same clock), and GAP9's f16a / v2ah types (a v2h cast to a v2ah, as
    // GreenWaves' float16 libraries do). After a reset the timer counts from 0 (host nanoseconds): a run of 50 ms
    // reads between 50 ms and 4 s, and a second reset starts it over.
    void sdkProgramIdioms()
    {
        QTemporaryDir work;
        QString error;
        const QByteArray code = "#define pmsis_exit(a) exit(a)\n"
                     "#include \"Gap.h\"\n#include <stdio.h>\n#include <stdlib.h>\n#include <time.h>\n"
                     "int main(void)\n{\n"
                     "    gap_cl_starttimer();\n    gap_cl_resethwtimer();\n"
                     "    struct timespec Pause = {0, 50000000};\n    nanosleep(&Pause, 0);\n"
                     "    unsigned int Elapsed = gap_cl_readhwtimer();\n"
                     "    gap_cl_resethwtimer();\n    unsigned int Again = gap_cl_readhwtimer();\n"
                     "    unsigned int Fc = gap_fc_readhwtimer();\n"
                     "#ifdef __FLOAT_EMUL__\n"
                     "    f16a Half = (f16a) 1.5f;\n    v2ah Pair = {Half, 2.0f};\n"
                     "#else\n"
                     "    f16a One = 1;\n    v2ah Pair = {One, 3};\n"
                     "#endif\n"
                     "    v2h Halves = {1, 2};\n    v2ah Cast = (v2ah) Halves;\n"
                     "    double Product = Pair[0] * Pair[1], Sum = Cast[0] + Cast[1];\n"
                     "    printf(\"elapsed %d again %d fc %d pair %g f16 %d cast %g pairs %d\\n\", Elapsed >= 50000000u && Elapsed < 4000000000u,\n"
                     "           Again < Elapsed, Fc >= Again, Product, (int) sizeof(f16), Sum, (int) (sizeof(v2h) == sizeof(v2ah)));\n"
                     "    pmsis_exit(3);\n}\n";
        // f16 is a float under the SDK's __FLOAT_EMUL__, a 16-bit integer otherwise, as in its emulation.
        for (const auto& [flags, f16Size] : {std::pair<QStringList, int>{{}, 2}, {{QStringLiteral("-D__FLOAT_EMUL__")}, 4}}) {
            const QString program = buildProgram(work, QStringLiteral("idioms%1").arg(f16Size), code, 1, flags, &error);
            QVERIFY2(!program.isEmpty(), qPrintable(error));
            const ProcessResult ran = runProcess(program, {}, sanitizerEnvironment());
            QVERIFY2(ran.exitCode == 3 &&
                         ran.out.contains(QStringLiteral("elapsed 1 again 1 fc 1 pair 3 f16 %1 cast 3 pairs 1").arg(f16Size)),
                     qPrintable(describe(QStringLiteral("run"), {program}, ran)));
        }
    }

    // gaplib's file switch (fs_switch.h), as NNTool's example applications read their inputs: a file
    // written, written again at a position (__WRITEATCLUSTER), read back whole into the emulated L2,
    // and a missing file opened as 0 with the reason on stderr.
    void fileSwitchReadsAndWrites()
    {
        QTemporaryDir work;
        QString error;
        const QByteArray code = "#include \"gaplib/fs_switch.h\"\n"
                     "int main(int argc, char **argv)\n{\n"
                     "    (void) argc;\n"
                     "    switch_fs_t Fs;\n    __FS_INIT(Fs);\n"
                     "    switch_file_t Out = __OPEN_WRITE(Fs, argv[1]);\n"
                     "    if (Out == 0) return 2;\n"
                     "    __int_ssize_t Written = __WRITE(Out, \"abcdefgh\", 8);\n"
                     "    __WRITEATCLUSTER(Out, 2, \"XY\", 2);\n"
                     "    __CLOSE(Out);\n"
                     "    char *Buffer = (char *) __ALLOC_L2(9);\n"
                     "    switch_file_t In = __OPEN_READ(Fs, argv[1]);\n"
                     "    __int_ssize_t Read = __READ(In, Buffer, 8);\n"
                     "    Buffer[8] = 0;\n"
                     "    __SEEK(In, 6);\n"
                     "    char Tail[3] = {0};\n    __READ(In, Tail, 2);\n"
                     "    __CLOSE(In);\n"
                     "    switch_file_t Missing = __OPEN_READ(Fs, \"no/such/file\");\n"
                     "    printf(\"written %d read %d text %s tail %s missing %d\\n\", (int) Written, (int) Read, Buffer, Tail, Missing);\n"
                     "    __FREE_L2(Buffer, 9);\n    __FS_DEINIT(Fs);\n"
                     "    return 0;\n}\n";
        const QString program = buildProgram(work, QStringLiteral("files"), code, 1, {}, &error);
        QVERIFY2(!program.isEmpty(), qPrintable(error));
        const QString file = work.filePath(QStringLiteral("data.bin"));
        const ProcessResult ran = runProcess(program, {file}, sanitizerEnvironment());
        QVERIFY2(ran.exitCode == 0 && ran.out.contains(QStringLiteral("written 8 read 8 text abXYefgh tail gh missing 0")) &&
                     ran.err.contains(QStringLiteral("fs_switch: cannot open no/such/file for reading")),
                 qPrintable(describe(QStringLiteral("run"), {program, file}, ran)));
    }

    // The SDK's names of its L3 devices, as its CNN basic-kernel libraries page tensors in with them
    // (events passed as void pointers): every RAM family copies from the emulated L3 RAM and counts
    // the bytes; the team's critical section compiles and runs.
    void sdkDeviceNames()
    {
        QTemporaryDir work;
        QString error;
        const QByteArray code = "#include \"at_api.h\"\n#include <stdio.h>\n"
                                "int main(void)\n{\n"
                                "    char Ram[12] = \"L3 contents\", Local[12] = {0};\n"
                                "    AT_HYPERRAM_CL_EVENT Event;\n    void *L3_Event = &Event;\n"
                                "    gap_cl_critical_enter();\n"
                                "    AT_HYPERRAM_CL_COPY((AT_HYPERRAM_T *) 0, (AT_HYPERRAM_EXT_ADDR_TYPE) Ram, "
                                "(AT_HYPERRAM_INT_ADDR_TYPE) Local, 6, AT_HYPERRAM_EXT2LOC, L3_Event);\n"
                                "    AT_HYPERRAM_CL_WAIT((AT_HYPERRAM_T *) 0, L3_Event);\n"
                                "    AT_QSPIRAM_CL_COPY((AT_QSPIRAM_T *) 0, (AT_QSPIRAM_EXT_ADDR_TYPE) (Ram + 6), "
                                "(AT_QSPIRAM_INT_ADDR_TYPE) (Local + 6), 6, AT_QSPIRAM_EXT2LOC, L3_Event);\n"
                                "    AT_OSPIRAM_CL_WAIT((AT_OSPIRAM_T *) 0, L3_Event);\n"
                                "    gap_cl_critical_exit();\n"
                                "    AT_QSPIFLASH_FS_T Flash = 0;\n    (void) Flash;\n"
                                "    printf(\"%s %u\\n\", Local, (unsigned) __L3_Read);\n    return 0;\n}\n";
        const QString program = buildProgram(work, QStringLiteral("devices"), code, 1, {}, &error);
        QVERIFY2(!program.isEmpty(), qPrintable(error));
        const ProcessResult ran = runProcess(program, {}, sanitizerEnvironment());
        QVERIFY2(ran.exitCode == 0 && ran.out.contains("L3 contents 12"), qPrintable(describe(QStringLiteral("run"), {program}, ran)));
    }

    // An application's own CNN basic-kernel headers (GreenWaves' CNN_Libraries_SQ8, for code the
    // SDK's generators wrote) win over Tessera's of the same names, whether their -I comes after
    // emul-cflags or before; without them, Tessera's are found.
    void applicationKernelHeadersComeFirst()
    {
        QTemporaryDir work;
        QVERIFY(QDir(work.path()).mkpath(QStringLiteral("sdk")));
        for (const char* header : {"CNN_BasicKernels_SQ8", "CNN_BasicKernels"}) {
            QFile file(work.filePath(QStringLiteral("sdk/%1.h").arg(QLatin1String(header))));
            QVERIFY(file.open(QIODevice::WriteOnly));
            QVERIFY(file.write(QByteArray("#define APPLICATION_") + header + " 1\n") > 0);
        }
        const auto check = [&](const QByteArray& guards, const QStringList& before, const QStringList& after) {
            QFile source(work.filePath(QStringLiteral("headers.c")));
            if (!source.open(QIODevice::WriteOnly | QIODevice::Truncate))
                return QStringLiteral("cannot write ") + source.fileName();
            source.write("#include \"CNN_BasicKernels_SQ8.h\"\n#include \"CNN_BasicKernels.h\"\n" + guards +
                         "int main(void) { return 0; }\n");
            source.close();
            const QStringList command = before + m_toolchain.emulCflags + after +
                                        QStringList{QStringLiteral("-fsyntax-only"), source.fileName()};
            const ProcessResult built = runProcess(m_toolchain.cc, command);
            return built.exitCode == 0 ? QString() : describe(QStringLiteral("the headers check"), QStringList{m_toolchain.cc} + command, built);
        };
        const QByteArray application = "#if !defined(APPLICATION_CNN_BasicKernels_SQ8) || !defined(APPLICATION_CNN_BasicKernels)\n"
                                       "#error Tessera's header was found before the application's\n#endif\n";
        const QStringList sdk{QStringLiteral("-I"), work.filePath(QStringLiteral("sdk"))};
        QString failure = check(application, {}, sdk);
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
        failure = check(application, sdk, {});
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
        failure = check("#if !defined(TESSERA_CNN_BASIC_KERNELS_SQ8_H) || defined(APPLICATION_CNN_BasicKernels)\n"
                        "#error Tessera's headers were not found\n#endif\n", {}, {});
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
    }

    // A model program including GreenWaves' CNN_Generators_SQ8.h and then Tessera's CNN_Generators.h
    // (as NNTool writes models mixing 8- and 16-bit layers) gets the SDK's SQ8 generator declarations
    // (their names are `char *`, Tessera's `const char *`: both in one unit would conflict); alone,
    // CNN_Generators.h declares the same generators with the same arguments.
    void sdkGeneratorHeaderComesFirst()
    {
        QTemporaryDir work;
        QFile header(work.filePath(QStringLiteral("CNN_Generators_SQ8.h")));
        QVERIFY(header.open(QIODevice::WriteOnly));
        // The SDK's include guard and the SDK's declaration of one of its generators.
        QVERIFY(header.write("#ifndef __CNN_GENERATORS_SQ8_H__\n#define __CNN_GENERATORS_SQ8_H__\n#include \"AutoTilerLib.h\"\n"
                             "void LoadCNN_SQ8_Library();\n"
                             "int CNN_ConvolutionPoolAct_SQ8(char *Name, CNN_GenControl_T *Ctrl, int Bias_DataSize,\n"
                             "  int Scale_DataSize, int InFeat, int OutFeat, int Width, int Height, KernelOper_T ConvOper,\n"
                             "  int Fcx, int Fcy, int Dcx, int Dcy, int Scx, int Scy, int ConvPad, KernelOper_T PoolOper,\n"
                             "  int Fpx, int Fpy, int Dpx, int Dpy, int Spx, int Spy, int PoolPad, KernelOper_T ActOper);\n"
                             "#endif\n") > 0);
        header.close();
        const auto compiles = [&](const QByteArray& code) {
            QFile source(work.filePath(QStringLiteral("model.c")));
            if (!source.open(QIODevice::WriteOnly | QIODevice::Truncate) || source.write(code) < 0)
                return QStringLiteral("cannot write ") + source.fileName();
            source.close();
            const QStringList command = m_toolchain.modelCflags +
                                        QStringList{QStringLiteral("-I"), work.path(), QStringLiteral("-Werror"),
                                                    QStringLiteral("-fsyntax-only"), source.fileName()};
            const ProcessResult built = runProcess(m_toolchain.cc, command);
            return built.exitCode == 0 ? QString() : describe(QStringLiteral("the model"), QStringList{m_toolchain.cc} + command, built);
        };
        QString failure = compiles("#include \"CNN_Generators_SQ8.h\"\n#include \"CNN_Generators.h\"\n"
                                   "void Layers(void) { LoadCNN_SQ8_Library();\n"
                                   "  CNN_ConvolutionPoolAct_SQ8(\"Conv\", 0, 4, 1, 8, 8, 16, 16, KOP_CONV, 3, 3, 1, 1, 1, 1, 1,\n"
                                   "    KOP_NONE, 1, 1, 1, 1, 1, 1, 0, KOP_RELU); }\n");
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
        failure = compiles("#include \"CNN_Generators.h\"\n"
                           "void Layers(void) { LoadCNN_SQ8_Library();\n"
                           "  CNN_ConvolutionPoolAct_SQ8(\"Conv\", 0, 4, 1, 8, 8, 16, 16, KOP_CONV, 3, 3, 1, 1, 1, 1, 1,\n"
                           "    KOP_NONE, 1, 1, 1, 1, 1, 1, 0, KOP_RELU);\n"
                           "  CNN_SoftMax_SQ8(\"Soft\", 0, 10, KOP_SOFTMAX);\n"
                           "  CNN_Act_SQ8(\"Act\", 0, 8, 16, 16, KOP_HSWISH);\n"
                           "  CNN_PoolAct_SQ8(\"Pool\", 0, 8, 16, 16, KOP_MAXPOOL, 2, 2, 1, 1, 2, 2, 0, KOP_RELUN);\n"
                           "  CNN_LinearAct_SQ8(\"Fc\", 0, 4, 1, 16, 10, KOP_LINEAR, KOP_RELUN); }\n");
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
    }

    // What goes wrong says where and what to do: a weight file the read-only filesystem does not
    // have, and an L1 smaller than the kernels need.
    void emulationErrorsNameTheFix()
    {
        QTemporaryDir run;
        const QString weights = run.filePath(QStringLiteral("weights"));
        QVERIFY(QDir().mkpath(weights));
        QVERIFY(!writeApplicationData(run.path(), weights, 3u).expected.empty());

        const QString program = buildApplication(QStringLiteral("app_errors"), 1);
        QVERIFY(!program.isEmpty());
        const ProcessResult missing = runProcess(program, {}, withReadfsPath(run.filePath(QStringLiteral("elsewhere"))), run.path());
        QVERIFY2(missing.exitCode != 0 && missing.err.contains(QStringLiteral("no file 'Filter0.bin'")) &&
                     missing.err.contains(QStringLiteral("TESSERA_READFS_PATH")),
                 qPrintable(describe(QStringLiteral("without the weights"), {program}, missing)));

        const QString small = buildApplication(QStringLiteral("app_small_l1"), 1, {QStringLiteral("-DPI_EMUL_L1_SIZE=16384")});
        QVERIFY(!small.isEmpty());
        const ProcessResult tooSmall = runProcess(small, {}, withReadfsPath(weights), run.path());
        QVERIFY2(tooSmall.exitCode != 0 && tooSmall.out.contains(QStringLiteral("cannot allocate the kernels' L1")) &&
                     tooSmall.err.contains(QStringLiteral("of 16384 bytes in use")) && tooSmall.err.contains(QStringLiteral("-DPI_EMUL_L1_SIZE")),
                 qPrintable(describe(QStringLiteral("with 16 KiB of L1"), {small}, tooSmall)));
    }
};

QTEST_GUILESS_MAIN(TestGapSdkRuntime)
#include "tst_gap_sdk_runtime.moc"
