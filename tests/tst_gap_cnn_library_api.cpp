// What GreenWaves' CNN generator libraries call (AutoTilerLib.h): choosing basic kernels by what they
// compute (a small library of our own, declared with CNN_Match() as such a library declares its
// kernels, and the kernels CNN_FindMatchingKernel(Attr) picks for layers; the operations' names
// against AutoTilerLibTypes.h; composite operations), then the argument forms those libraries build
// their user kernels with (AllocateCArgs / AllocateKerArgs, KerArgP, K_ArgPar, the used-size and
// padding selectors, Ker_IteratorIndex, biases per output plane, tiled OBJ_BUFFER_IN), what the SQ8
// and recurrent generators add (a layer declared two ways and the cheaper kept by its tiling's cost,
// first / last tile predicates, L3 homes by name, one-tile spaces, type symbols) and the refusals.
// tests/gap/CnnLibrary runs such layers end to end.
#include "AutoTilerLib.h"
#include "gap/model_api/model_registry.h"
#include "tiler/graph_allocation.h"
#include "tiler/kernel_emitter.h"
#include "tiler/model_check.h"
#include "tiler/tile_solver.h"

#include "child_process.h"

#include <QFile>
#include <QRegularExpression>
#include <QtTest>

#include <array>
#include <string>

using namespace tessera;
using test::ChildOutcome;
using test::runInChild;

namespace {

CKernel_Arg_T** convolutionFields()
{
    return CArgs(4, TCArg("short int * __restrict__", "In"), TCArg("short int * __restrict__", "Filter"),
                 TCArg("short int * __restrict__", "Out"), TCArg("unsigned short int", "Fx"));
}

// Kernels of every kind of description: fixed filters, any filter (square or not), two operations,
// attributes, unsigned sizes, features split or not.
void declareLibrary()
{
    LibKernelTemplate("Conv_T", convolutionFields());
    LibKernel("Conv5x5S1", CALL_PARALLEL, nullptr, "Conv_T",
              CNN_Match(CNN_OperList(1, KOP_CONV), 0, 1, CNN_Type(2, 2, 2, 0, 2), 5, 5, 1, 1, 1, 1));
    LibKernel("ConvSquare", CALL_PARALLEL, nullptr, "Conv_T",
              CNN_Match(CNN_OperList(1, KOP_CONV), 0, 1, CNN_Type(2, 2, 2, 0, 2), -1, -2, 1, 1, -1, -2));
    LibKernel("ConvAny", CALL_PARALLEL, nullptr, "Conv_T",
              CNN_Match(CNN_OperList(1, KOP_CONV), 0, 1, CNN_Type(2, 2, 2, 0, 2), -1, -1, -1, -1, -1, -1));
    LibKernel("ConvSquareByte", CALL_PARALLEL, nullptr, "Conv_T",
              CNN_Match(CNN_OperList(1, KOP_CONV), 0, 1, CNN_Type(1, 1, 4, 0, 4), -1, -2, 1, 1, -1, -2));
    LibKernel("ConvSquareSeq", CALL_PARALLEL, nullptr, "Conv_T",
              CNN_Match(CNN_OperList(1, KOP_CONV), 0, 0, CNN_Type(2, 2, 2, 0, 2), -1, -2, 1, 1, -1, -2));
    LibKernel("PoolAct", CALL_PARALLEL, CArgs(2, TCArg("short int *", "In"), TCArg("short int *", "Out")), "Pool_T",
              CNN_Match(CNN_OperList(2, KOP_MAXPOOL, KOP_AVGPOOL), CNN_OperList(2, KOP_RELU, KOP_NONE), 1,
                        CNN_Type(2, 0, 0, 0, 2), -1, -2, -1, -2, -1, -2));
    LibKernel("ReLUHwc", KernelCallTypeT(CALL_PARALLEL | CALL_HWC_KER), CArgs(1, TCArg("short int *", "InOut")), "ReLU_T",
              CNN_Match(CNN_OperList(1, KOP_RELU), 0, 1, CNN_Type(2, 0, 0, 0, 2), 0, 0, 0, 0, 0, 0));
    LibKernel("ReLUChw", CALL_PARALLEL, CArgs(1, TCArg("short int *", "InOut")), "ReLU_T",
              CNN_Match(CNN_OperList(1, KOP_RELU), 0, 1, CNN_Type(2, 0, 0, 0, 2), 0, 0, 0, 0, 0, 0));
    LibKernel("ToUnsigned", CALL_PARALLEL, CArgs(2, TCArg("signed char *", "In"), TCArg("unsigned char *", "Out")),
              "Convert_T", CNN_Match(CNN_OperList(1, KOP_CONVERT_FP_FP), 0, 1, CNN_Type(1, 0, 0, 0, -1), 0, 0, 0, 0, 0, 0));
    LibKernel("SoftMaxEither", CALL_PARALLEL, CArgs(2, TCArg("short int *", "In"), TCArg("short int *", "Out")),
              "SoftMax_T", CNN_Match(CNN_OperList(1, KOP_SOFTMAX), 0, -1, CNN_Type(2, 0, 0, 0, 2), 0, 0, 0, 0, 0, 0));
    // Declared without a match: never chosen.
    LibKernel("Unmatched", CALL_PARALLEL, CArgs(1, TCArg("short int *", "In")), "Unmatched_T");
}

struct Choice {
    std::string kernel;  // empty: none
    std::array<int, 6> needs{};
    int argCount = -1;
};

// Kernel group `group` with one member, <group>Body(In), a tiled pass over its input: the group a
// refusal row then declares with UserKernelGroupK.
void openGroupWithBody(const char* group)
{
    OpenKernelGroup(group);
    UserKernel(AppendNames(group, "Body"), KernelIterSpace(1, IterTiledSpace(KER_ITER_TILE0)), TILE_HOR,
               CArgs(1, TCArg("short int *", "In")),
               Calls(1, Call("Window", LOC_LOOP, Bindings(1, K_Arg("In", KER_ARG_TILE)))),
               KerArgs(1, KerArg("In", KerArgSpace(1, KER_ITER_TILE0), O_IN, 8, 8, 2, 0, OBJ_CONSTRAINTS_NONE, 0, "In")));
    CloseKernelGroup();
}

// User kernel Cell: its state read from Sin (sinFlags, sinWidth items of 2 bytes) and written to
// Sout, 8 items declared with KerArgAliased(alias); then generated, so the model's checks run.
void aliasedState(unsigned alias, unsigned sinFlags, unsigned sinWidth)
{
    LibKernel("Step", CALL_PARALLEL, CArgs(2, TCArg("short int *", "S"), TCArg("short int *", "Out")), "Step_Arg_T",
              nullptr);
    UserKernel("Cell", KernelIterSpace(1, IterTiledSpace(KER_ITER_TILE0)), TILE_HOR,
               CArgs(2, TCArg("short int *", "Sin"), TCArg("short int *", "Sout")),
               Calls(1, Call("Step", LOC_LOOP, Bindings(2, K_Arg("Sin", KER_ARG_TILE), K_Arg("Sout", KER_ARG_TILE)))),
               KerArgs(2,
                       KerArg("Sin", KerArgSpace(1, KER_ITER_TILE0), Object_Type_T(sinFlags), sinWidth, 1, 2, 0,
                              OBJ_CONSTRAINTS_NONE, 0, "Sin"),
                       KerArgAliased("Sout", KerArgSpace(1, KER_ITER_TILE0), alias, O_OUT | O_BUFF | O_NTILED, 8, 1, 2,
                                     0, OBJ_CONSTRAINTS_NONE, 0, "Sout")));
    GenerateTilingCode();
}

Choice choose(KernelOper_T first, KernelOper_T second, int parallel, std::array<int, 5> sizes,
              std::array<int, 6> filter, unsigned attributes = 0)
{
    Choice choice;
    auto& n = choice.needs;
    const char* name =
        CNN_FindMatchingKernelAttr(first, second, parallel, attributes, sizes[0], sizes[1], sizes[2], sizes[3], sizes[4],
                                   filter[0], filter[1], filter[2], filter[3], filter[4], filter[5], &n[0], &n[1],
                                   &n[2], &n[3], &n[4], &n[5], &choice.argCount);
    choice.kernel = name != nullptr ? name : "";
    return choice;
}

// A layer reading its input with 4 lines (or columns) of overlap between tiles, as a 5x5
// convolution does, tiled along `orientation`: W x H in, (W or W - 4) x (H - 4 or H) out.
Kernel_T* declareOverlappedLayer(const char* name, Tile_Orientation_T orientation, unsigned w, unsigned h)
{
    const bool horizontal = orientation == TILE_HOR;
    return UserKernel(name, KernelIterSpace(1, IterTiledSpace(KER_ITER_TILE0)), orientation,
                      CArgs(2, TCArg("short int *", "In"), TCArg("short int *", "Out")),
                      Calls(1, Call("Window", LOC_LOOP,
                                    Bindings(2, K_Arg("In", KER_ARG_TILE), K_Arg("Out", KER_ARG_TILE)))),
                      KerArgs(2,
                              KerArg("In", KerArgSpace(1, KER_ITER_TILE0), O_IN | O_DB, w, h, 2, 4, OBJ_CONSTRAINTS_NONE,
                                     0, "In"),
                              KerArg("Out", KerArgSpace(1, KER_ITER_TILE0), O_OUT | O_DB, horizontal ? w : w - 4,
                                     horizontal ? h - 4 : h, 2, 0, OBJ_CONSTRAINTS_NONE, 0, "Out")));
}

// What the model's solver makes of the kernel now: bytes moved over the bytes of In and Out.
double overheadOf(const tessera::tiler::UserKernel& kernel)
{
    const tessera::tiler::KernelModel& model = gap::currentModel();
    const tessera::tiler::TileSolverResult solved = tessera::tiler::solveTiling(
        kernel, model.options.l1Size, model.options.l2Size, model.options.costModel,
        tessera::tiler::promotionPolicy(model.options));
    if (!solved.ok)
        return -1;
    double data = 0;
    for (const tessera::tiler::KernelArgument& arg : kernel.args)
        data += double(arg.width) * arg.height * arg.itemSize;
    return double(solved.tiling.dmaRead + solved.tiling.dmaWrite) / data;
}

}  // namespace

class GapCnnLibraryApi : public QObject {
    Q_OBJECT

private slots:
    void init() { gap::resetModel(); }
    void cleanupTestCase() { gap::resetModel(); }

    void layersGetTheMostSpecificKernel_data()
    {
        QTest::addColumn<int>("first");
        QTest::addColumn<int>("second");
        QTest::addColumn<int>("parallel");
        QTest::addColumn<QList<int>>("sizes");
        QTest::addColumn<QList<int>>("filter");
        QTest::addColumn<unsigned>("attributes");
        QTest::addColumn<QString>("kernel");
        QTest::addColumn<QList<int>>("needs");
        QTest::addColumn<int>("argCount");
        const QList<int> halfWords{2, 2, 2, 0, 2}, none{0, 0, 0, 0, 0, 0};
        // The kernel written for the filter wins over those taking it as arguments.
        QTest::newRow("5x5 stride 1") << int(KOP_CONV) << int(KOP_NONE) << 1 << halfWords << QList<int>{5, 5, 1, 1, 1, 1}
                                      << 0u << "Conv5x5S1" << none << 4;
        QTest::newRow("7x7 stride 2") << int(KOP_CONV) << int(KOP_NONE) << 1 << halfWords << QList<int>{7, 7, 1, 1, 2, 2}
                                      << 0u << "ConvSquare" << QList<int>{1, 1, 0, 0, 1, 1} << 4;
        // Not square: -2 does not match, the kernel taking every value does.
        QTest::newRow("3x1") << int(KOP_CONV) << int(KOP_NONE) << 1 << halfWords << QList<int>{3, 1, 1, 1, 1, 1} << 0u
                             << "ConvAny" << QList<int>{1, 1, 1, 1, 1, 1} << 4;
        QTest::newRow("dilated") << int(KOP_CONV) << int(KOP_NONE) << 1 << halfWords << QList<int>{3, 3, 2, 2, 1, 1}
                                 << 0u << "ConvAny" << QList<int>{1, 1, 1, 1, 1, 1} << 4;
        QTest::newRow("bytes") << int(KOP_CONV) << int(KOP_NONE) << 1 << QList<int>{1, 1, 4, 0, 4}
                               << QList<int>{3, 3, 1, 1, 1, 1} << 0u << "ConvSquareByte" << QList<int>{1, 1, 0, 0, 1, 1}
                               << 4;
        QTest::newRow("features not split") << int(KOP_CONV) << int(KOP_NONE) << 0 << halfWords
                                            << QList<int>{5, 5, 1, 1, 1, 1} << 0u << "ConvSquareSeq"
                                            << QList<int>{1, 1, 0, 0, 1, 1} << 4;
        QTest::newRow("sizes any") << int(KOP_CONV) << int(KOP_NONE) << 1 << QList<int>{0, 0, 0, 0, 0}
                                   << QList<int>{5, 5, 1, 1, 1, 1} << 0u << "Conv5x5S1" << none << 4;
        QTest::newRow("no 4-byte input") << int(KOP_CONV) << int(KOP_NONE) << 1 << QList<int>{4, 2, 2, 0, 2}
                                         << QList<int>{5, 5, 1, 1, 1, 1} << 0u << "" << none << 0;
        QTest::newRow("no second operation") << int(KOP_CONV) << int(KOP_RELU) << 1 << halfWords
                                             << QList<int>{5, 5, 1, 1, 1, 1} << 0u << "" << none << 0;
        // Two operations, and a second one that may be absent.
        QTest::newRow("max pool + relu") << int(KOP_MAXPOOL) << int(KOP_RELU) << 1 << QList<int>{2, 0, 0, 0, 2}
                                         << QList<int>{2, 2, 1, 1, 2, 2} << 0u << "PoolAct"
                                         << QList<int>{1, 1, 1, 1, 1, 1} << 2;
        QTest::newRow("average pool") << int(KOP_AVGPOOL) << int(KOP_NONE) << 1 << QList<int>{2, 0, 0, 0, 2}
                                      << QList<int>{3, 3, 1, 1, 1, 1} << 0u << "PoolAct" << QList<int>{1, 1, 1, 1, 1, 1}
                                      << 2;
        QTest::newRow("pool + relu6") << int(KOP_MAXPOOL) << int(KOP_RELUN) << 1 << QList<int>{2, 0, 0, 0, 2}
                                      << QList<int>{2, 2, 1, 1, 2, 2} << 0u << "" << none << 0;
        // Attributes: the plain search sees only kernels without them.
        QTest::newRow("relu") << int(KOP_RELU) << int(KOP_NONE) << 1 << QList<int>{2, 0, 0, 0, 2} << none << 0u
                              << "ReLUChw" << none << 1;
        QTest::newRow("relu hwc") << int(KOP_RELU) << int(KOP_NONE) << 1 << QList<int>{2, 0, 0, 0, 2} << none
                                  << unsigned(CALL_HWC_KER) << "ReLUHwc" << none << 1;
        QTest::newRow("relu float") << int(KOP_RELU) << int(KOP_NONE) << 1 << QList<int>{2, 0, 0, 0, 2} << none
                                    << unsigned(CALL_FLOAT_KER) << "" << none << 0;
        // Unsigned sizes are sizes of their own.
        QTest::newRow("to unsigned") << int(KOP_CONVERT_FP_FP) << int(KOP_NONE) << 1 << QList<int>{1, 0, 0, 0, -1}
                                     << none << 0u << "ToUnsigned" << none << 2;
        QTest::newRow("to signed") << int(KOP_CONVERT_FP_FP) << int(KOP_NONE) << 1 << QList<int>{1, 0, 0, 0, 1}
                                   << none << 0u << "" << none << 0;
        // ParFeat -1 serves both.
        QTest::newRow("softmax split") << int(KOP_SOFTMAX) << int(KOP_NONE) << 1 << QList<int>{2, 0, 0, 0, 2} << none
                                       << 0u << "SoftMaxEither" << none << 2;
        QTest::newRow("softmax whole") << int(KOP_SOFTMAX) << int(KOP_NONE) << 0 << QList<int>{2, 0, 0, 0, 2} << none
                                       << 0u << "SoftMaxEither" << none << 2;
    }

    void layersGetTheMostSpecificKernel()
    {
        QFETCH(int, first);
        QFETCH(int, second);
        QFETCH(int, parallel);
        QFETCH(QList<int>, sizes);
        QFETCH(QList<int>, filter);
        QFETCH(unsigned, attributes);
        QFETCH(QString, kernel);
        QFETCH(QList<int>, needs);
        QFETCH(int, argCount);
        declareLibrary();
        const Choice choice = choose(KernelOper_T(first), KernelOper_T(second), parallel,
                                     {sizes[0], sizes[1], sizes[2], sizes[3], sizes[4]},
                                     {filter[0], filter[1], filter[2], filter[3], filter[4], filter[5]}, attributes);
        QCOMPARE(QString::fromStdString(choice.kernel), kernel);
        QCOMPARE(QList<int>(choice.needs.begin(), choice.needs.end()), needs);
        QCOMPARE(choice.argCount, argCount);
    }

    // Of equally specific kernels the first declared is chosen; the out-pointers may be NULL.
    void tiesKeepTheFirstAndPointersMayBeNull()
    {
        LibKernel("First", CALL_PARALLEL, convolutionFields(), "Conv_T",
                  CNN_Match(CNN_OperList(1, KOP_CONV), 0, 1, CNN_Type(2, 2, 2, 0, 2), -1, -2, 1, 1, -1, -2));
        LibKernel("Second", CALL_PARALLEL, convolutionFields(), "Conv_T",
                  CNN_Match(CNN_OperList(1, KOP_CONV), 0, 1, CNN_Type(2, 2, 2, 0, 2), -1, -2, 1, 1, -1, -2));
        QCOMPARE(QString(CNN_FindMatchingKernel(KOP_CONV, KOP_NONE, 1, 2, 2, 2, 0, 2, 3, 3, 1, 1, 1, 1, nullptr, nullptr,
                                                nullptr, nullptr, nullptr, nullptr, nullptr)),
                 QString("First"));
        QVERIFY(CNN_FindMatchingKernel(KOP_LINEAR, KOP_NONE, 1, 2, 2, 2, 0, 2, 0, 0, 0, 0, 0, 0, nullptr, nullptr,
                                       nullptr, nullptr, nullptr, nullptr, nullptr) == nullptr);
        // resetModel() forgets the library.
        gap::resetModel();
        QVERIFY(CNN_FindMatchingKernel(KOP_CONV, KOP_NONE, 1, 2, 2, 2, 0, 2, 3, 3, 1, 1, 1, 1, nullptr, nullptr,
                                       nullptr, nullptr, nullptr, nullptr, nullptr) == nullptr);
    }

    // Every KernelOper_T value's name is the one AutoTilerLibTypes.h declares in that place.
    void operationNamesFollowTheHeader()
    {
        QFile header(QStringLiteral(TESSERA_SOURCE_DIR "/core/gap/include/AutoTilerLibTypes.h"));
        QVERIFY(header.open(QIODevice::ReadOnly));
        QString text = QString::fromUtf8(header.readAll());
        const int start = text.indexOf("KOP_NONE = 0");
        const int end = text.indexOf("} KernelOper_T;");
        QVERIFY(start > 0 && end > start);
        text = text.mid(start, end - start);
        text.remove(QRegularExpression(QStringLiteral("/\\*.*?\\*/"), QRegularExpression::DotMatchesEverythingOption));
        QStringList names;
        for (const QRegularExpressionMatch& match : QRegularExpression(QStringLiteral("\\bKOP_[A-Z0-9_]+")).globalMatch(text))
            names << match.captured();
        QCOMPARE(names.last(), QString("KOP_LAST"));
        QCOMPARE(names.size(), int(KOP_LAST) + 1);
        for (int op = 0; op < int(KOP_LAST); ++op)
            QCOMPARE(QString(CNN_KernelOperImage(KernelOper_T(op))), names[op]);
        QCOMPARE(QString(CNN_KernelOperImage(KOP_LAST)), QString("KOP_?"));
        QCOMPARE(QString(CNN_KernelOperImage(KernelOper_T(-1))), QString("KOP_?"));
    }

    void compositeOperationsByName()
    {
        QCOMPARE(CNN_CompositeKernel(KOP_CONV, KOP_MAXPOOL, KOP_RELU), KOP_CONV_MAXPOOL_RELU);
        QCOMPARE(CNN_CompositeKernel(KOP_CONV_DW, KOP_NONE, KOP_RELUN), KOP_CONV_DW_RELUN);
        QCOMPARE(CNN_CompositeKernel(KOP_LINEAR, KOP_RELU, KOP_NONE), KOP_LINEAR_RELU);
        QCOMPARE(CNN_CompositeKernel(KOP_SOFTMAX, KOP_NONE, KOP_NONE), KOP_SOFTMAX);
        // No KOP_LINEAR_HSWISH: the first operation stands for the layer.
        QCOMPARE(CNN_CompositeKernel(KOP_LINEAR, KOP_HSWISH, KOP_NONE), KOP_LINEAR);
    }

    void descriptionsOutOfRangeAreRefused()
    {
        const struct {
            const char* what;
            void (*call)();
            const char* message;
        } refusals[] = {
            {"size 3", [] { CNN_Type(2, 3, 0, 0, 2); }, "CNN_Type(2, 3, 0, 0, 2): an operand size is 1, 2 or 4 bytes"},
            {"no operation", [] { CNN_OperList(0); }, "CNN_OperList(0, ...): give 1 to 64 operations"},
            {"bad operation", [] { CNN_OperList(2, KOP_CONV, 100000); },
             "CNN_OperList(2, ...): operation 2 has value 100000, which is no KOP_* operation"},
            {"no first list", [] { CNN_Match(nullptr, nullptr, 1, nullptr, 0, 0, 0, 0, 0, 0); },
             "CNN_Match(NULL, ...): a basic kernel performs at least one operation"},
            {"-2 for x", [] { CNN_Match(CNN_OperList(1, KOP_CONV), nullptr, 1, nullptr, -2, -2, 1, 1, 1, 1); },
             "CNN_Match(KOP_CONV, ...): Fx is -2; give a size, 0 (none), -1 (any)"},
            {"attributes", [] {
                 CNN_FindMatchingKernelAttr(KOP_CONV, KOP_NONE, 1, 0x100, 2, 2, 2, 0, 2, 0, 0, 0, 0, 0, 0, nullptr,
                                            nullptr, nullptr, nullptr, nullptr, nullptr, nullptr);
             },
             "CNN_FindMatchingKernelAttr(KOP_CONV, ...): attributes 0x100 are not CALL_FLOAT_KER and/or CALL_HWC_KER"},
        };
        for (const auto& refusal : refusals) {
            const ChildOutcome child = runInChild(refusal.call);
            QVERIFY2(child.exitStatus == 1 && child.errorOutput.find(refusal.message) != std::string::npos,
                     (std::string(refusal.what) + ": " + child.errorOutput).c_str());
        }
    }

    // The argument forms of a CNN library's convolution: a KerArgP that pads nothing is a KerArg, the
    // used sizes are the tile's, there is no padding, a parametric space's tiles hold one item, a
    // bias varies along the output planes only, and Ker_IteratorIndex reads a loop's index.
    void libraryArgumentForms()
    {
        LibKernel("Conv", CALL_PARALLEL,
                  CArgs(8, TCArg("short *", "In"), TCArg("unsigned short", "UsedW"), TCArg("unsigned short", "UsedH"),
                        TCArg("v4s", "Pad"), TCArg("unsigned short", "Features"), TCArg("unsigned short", "Loaded"),
                        TCArg("short *", "Bias"), TCArg("unsigned short", "Index")),
                  "Conv_T", nullptr);
        CKernel_Arg_T** cargs = AllocateCArgs(2);
        QCOMPARE(gap::registry().arena.listLength(cargs).value_or(0), std::size_t(2));
        cargs[0] = TCArg("short *", "In");
        cargs[1] = TCArg("short *", "Bias");
        Object_T** kargs = AllocateKerArgs(2);
        const v4s none = {0, 0, 0, 0};
        kargs[0] = KerArgP("In", KerArgSpace(2, KER_ITER_D0, KER_ITER_TILE0), O_IN | O_DB, 12, 10, 11, 9, none, none, 2, 2,
                           OBJ_CONSTRAINTS_NONE, 0, "In");
        kargs[1] = KerArg("Bias", KerArgSpace(1, KER_ITER_D1), O_IN | O_DB | O_CONST, 1, 1, 2, 0, OBJ_CONSTRAINTS_NONE, 0,
                          "Bias");
        UserKernel("K",
                   KernelIterSpace(3, IterParSpace(KER_ITER_D1, 4, 8), IterTiledSpace(KER_ITER_TILE0),
                                   IterParSpace(KER_ITER_D0, 3, 1)),
                   TILE_HOR, cargs,
                   Calls(1, Call("Conv", LOC_D0,
                                 Bindings(8, K_Arg("In", KER_ARG_TILE), K_Arg("In", KER_ARG_TILE_USEDW),
                                          K_Arg("In", KER_ARG_TILE_USEDH), K_Arg("In", KER_ARG_TILE_PAD),
                                          K_ArgPar("In", KER_ARG_PARTILE_SIZE, KER_ITER_D0),
                                          K_ArgPar("In", KER_ARG_LOADEDPARTILE_SIZE, KER_ITER_D0), K_Arg("Bias", KER_ARG_TILE),
                                          Ker_IteratorIndex(KER_ITER_D1)))),
                   kargs);
        const tessera::tiler::UserKernel* kernel = gap::currentModel().findUserKernel("K");
        QVERIFY(kernel != nullptr);
        using tessera::tiler::ArgFlag::ThreeD;
        using tessera::tiler::Binding;
        QCOMPARE(kernel->args[0].tileOverlap, 2u);
        QVERIFY(kernel->args[0].has(ThreeD) && !kernel->args[0].planePerOutput);
        QVERIFY(kernel->args[1].has(ThreeD) && kernel->args[1].planePerOutput);  // read once per output plane
        const std::vector<Binding>& b = kernel->calls.at(0).bindings;
        // The kernel reads 11 x 9 of the 12 x 10 planes, and is told the used part of each tile.
        QCOMPARE(kernel->args[0].usedWidth, 11u);
        QCOMPARE(kernel->args[0].usedHeight, 9u);
        QCOMPARE(kernel->args[1].usedWidth, 0u);
        QCOMPARE(int(b[1].select), int(tessera::tiler::ArgSelect::TileUsedWidth));
        QCOMPARE(int(b[2].select), int(tessera::tiler::ArgSelect::TileUsedHeight));
        QVERIFY(b[3].kind == Binding::Kind::KernelArg && b[3].select == tessera::tiler::ArgSelect::TilePad);
        // The parametric spaces' chunk sizes are bound to the loops they became.
        QVERIFY(b[4].kind == Binding::Kind::PlaneChunk && b[4].value == 0);
        QVERIFY(b[5].kind == Binding::Kind::PlaneChunk && b[5].value == 1 && b[5].name == "In");
        QCOMPARE(int(b[4].iterator), int(tessera::tiler::IterationSpace::InPlane));
        QVERIFY(b[7].kind == Binding::Kind::LoopIndex);
        QCOMPARE(int(b[7].iterator), int(tessera::tiler::IterationSpace::OutPlane));
        // The input planes may run in chunks (their size is bound); the output planes may not, as a call
        // reads their index.
        QCOMPARE(int(kernel->chunkablePlanes), int(tessera::tiler::IterationSpace::InPlane));
        QCOMPARE(kernel->chunkDivider, 1u);
        QVERIFY(Ker_IteratorIndex(KER_ITER_TILE0)->value.kind == Binding::Kind::LoopIndex);
    }

    // CopyAndPopUserKernel / PushBackUserKernel / ReleaseUserKerne and Cost->TileOverhead, as the SQ8
    // generators use them; at 64 KB of L1 either way moves everything once.
    void cheaperOfTwoWaysIsKept_data()
    {
        QTest::addColumn<unsigned>("l1");
        QTest::addColumn<unsigned>("width");
        QTest::addColumn<unsigned>("height");
        QTest::addColumn<bool>("oneTile");
        QTest::newRow("wide, 3000 B") << 3000u << 200u << 24u << false;
        QTest::newRow("tall, 3000 B") << 3000u << 24u << 200u << false;
        QTest::newRow("wide, 64 KB") << 65536u << 200u << 24u << true;
    }
    void cheaperOfTwoWaysIsKept()
    {
        QFETCH(unsigned, l1);
        QFETCH(unsigned, width);
        QFETCH(unsigned, height);
        QFETCH(bool, oneTile);
        SetL1MemorySize(l1);
        LibKernel("Window", CALL_PARALLEL, CArgs(2, TCArg("short int *", "In"), TCArg("short int *", "Out")), "Window_T");
        AT_SetKernelCtrl(AT_KERNEL_NOSOLUTION_ERROR, AT_OPT_OFF);
        Kernel_T* horizontal = CopyAndPopUserKernel(declareOverlappedLayer("Layer", TILE_HOR, width, height));
        QVERIFY(gap::currentModel().findUserKernel("Layer") == nullptr);  // out of the model: it may be declared again
        QVERIFY(gap::currentModel().items.empty());
        Kernel_T* vertical = CopyAndPopUserKernel(declareOverlappedLayer("Layer", TILE_VER, width, height));
        AT_SetKernelCtrl(AT_KERNEL_NOSOLUTION_ERROR, AT_OPT_ON);
        QVERIFY(horizontal->Cost != nullptr && vertical->Cost != nullptr);
        QCOMPARE(QString(horizontal->Name), QString("Layer"));
        const float h = horizontal->Cost->TileOverhead, v = vertical->Cost->TileOverhead;
        if (oneTile) {
            QCOMPARE(h, 1.0f);
            QCOMPARE(v, 1.0f);
        } else {
            QVERIFY2(h > 1.0f && v > 1.0f, qPrintable(QString("%1 %2").arg(h).arg(v)));  // overlapping tiles read again
            // Tiles across the long side re-read the overlap fewer times.
            QVERIFY2(width > height ? v < h : h < v, qPrintable(QString("%1 %2").arg(h).arg(v)));
        }
        QVERIFY(horizontal->Cost->L1Mem > 0 && horizontal->Cost->L1Mem <= l1);
        QVERIFY(horizontal->Cost->MoveL2 >= 2 * (width * height + width * (height - 4)));
        QCOMPARE(horizontal->Cost->MoveL3, 0u);

        const bool takeHorizontal = 0.9f * h < v;
        PushBackUserKernel(takeHorizontal ? horizontal : vertical);
        ReleaseUserKerne(takeHorizontal ? vertical : horizontal);
        const tessera::tiler::UserKernel* kept = gap::currentModel().findUserKernel("Layer");
        QVERIFY(kept != nullptr);
        QCOMPARE(gap::currentModel().userKernels.size(), std::size_t(1));
        QCOMPARE(gap::currentModel().items.size(), std::size_t(1));
        QCOMPARE(int(kept->orientation), takeHorizontal ? int(TILE_HOR) : int(TILE_VER));
        QVERIFY(qAbs(overheadOf(*kept) - double(takeHorizontal ? h : v)) < 1e-5);
    }

    void variantWithoutTilingAndMisuse()
    {
        SetL1MemorySize(400);  // not even one line of a 400-wide input, double-buffered, fits
        LibKernel("Window", CALL_PARALLEL, CArgs(2, TCArg("short int *", "In"), TCArg("short int *", "Out")), "Window_T");
        AT_SetKernelCtrl(AT_KERNEL_NOSOLUTION_ERROR, AT_OPT_OFF);
        Kernel_T* vertical = CopyAndPopUserKernel(declareOverlappedLayer("Layer", TILE_VER, 400, 8));
        QVERIFY(declareOverlappedLayer("Layer", TILE_HOR, 400, 8) == nullptr);  // dropped, with its reason
        QCOMPARE(gap::currentModel().droppedKernels.size(), std::size_t(1));
        PushBackUserKernel(vertical);  // this one stands: the dropped note goes
        ReleaseUserKerne(nullptr);
        AT_SetKernelCtrl(AT_KERNEL_NOSOLUTION_ERROR, AT_OPT_ON);
        QVERIFY(gap::currentModel().droppedKernels.empty());
        QVERIFY(gap::currentModel().findUserKernel("Layer") != nullptr);

        // In an open kernel group (the body of a grouped layer, as the SDK's grouped convolutions
        // choose it): the copy taken out comes back as a member of the group.
        SetL1MemorySize(51200);
        OpenKernelGroup("Grouped");
        Kernel_T* body = CopyAndPopUserKernel(declareOverlappedLayer("Body", TILE_HOR, 32, 8));
        QVERIFY(gap::currentModel().groups.back().members.empty());
        ReleaseUserKerne(CopyAndPopUserKernel(declareOverlappedLayer("Body", TILE_VER, 32, 8)));
        PushBackUserKernel(body);
        CloseKernelGroup();
        QCOMPARE(gap::currentModel().groups.back().members, std::vector<std::string>{"Body"});
        QCOMPARE(gap::currentModel().findUserKernel("Body")->group, std::string("Grouped"));

        const struct {
            const char* what;
            void (*call)();
            const char* message;
        } misuses[] = {
            {"pop NULL", [] { CopyAndPopUserKernel(nullptr); }, "CopyAndPopUserKernel(NULL): pass the user kernel"},
            {"pop not the last", [] {
                 Kernel_T* first = declareOverlappedLayer("First", TILE_HOR, 32, 8);
                 declareOverlappedLayer("Second", TILE_HOR, 32, 8);
                 CopyAndPopUserKernel(first);
             },
             "CopyAndPopUserKernel(First): only the user kernel declared last can be taken out, which is Second"},
            {"push back twice", [] {
                 Kernel_T* copy = CopyAndPopUserKernel(declareOverlappedLayer("Once", TILE_HOR, 32, 8));
                 PushBackUserKernel(copy);
                 PushBackUserKernel(copy);
             },
             "PushBackUserKernel(Once): pass a copy CopyAndPopUserKernel() returned and not yet pushed back"},
            {"push back over a new one", [] {
                 Kernel_T* copy = CopyAndPopUserKernel(declareOverlappedLayer("Twice", TILE_HOR, 32, 8));
                 declareOverlappedLayer("Twice", TILE_VER, 32, 8);
                 PushBackUserKernel(copy);
             },
             "PushBackUserKernel(Twice): a user kernel named Twice is in the model again"},
            {"pop from a closed group", [] {
                 OpenKernelGroup("Closed");
                 Kernel_T* member = declareOverlappedLayer("Member", TILE_HOR, 32, 8);
                 CloseKernelGroup();
                 CopyAndPopUserKernel(member);
             },
             "CopyAndPopUserKernel(Member): it belongs to kernel group Closed, which is closed"},
            {"push back after the group closed", [] {
                 OpenKernelGroup("Left");
                 Kernel_T* copy = CopyAndPopUserKernel(declareOverlappedLayer("Leaver", TILE_HOR, 32, 8));
                 CloseKernelGroup();
                 PushBackUserKernel(copy);
             },
             "PushBackUserKernel(Leaver): it was taken out of kernel group Left, which is closed"},
        };
        for (const auto& misuse : misuses) {
            const ChildOutcome child = runInChild(misuse.call);
            QVERIFY2(child.exitStatus == 1 && child.errorOutput.find(misuse.message) != std::string::npos,
                     (std::string(misuse.what) + ": " + child.errorOutput).c_str());
        }
    }

    // A padded KerArgP (a "same" convolution's input as GreenWaves' generators declare it): the tiles
    // are placed over the padding, and the kernel sees each tile's home lines and its padding.
    void paddedInputsAreToldTheirPadding()
    {
        const v4s pad = {2, 1, 2, 2};
        Object_T* in = KerArgP("In", KerArgSpace(1, KER_ITER_TILE0), O_IN | O_DB, 20, 12, 20, 12, pad, pad, 2, 4,
                               OBJ_CONSTRAINTS_NONE, 0, "In");
        QVERIFY(in->value.kernelPadsItself);
        QCOMPARE(in->value.padBefore, 2u);
        QCOMPARE(in->value.padAfter, 2u);
        QCOMPARE(in->value.kernelPad[0], 2);
        QCOMPARE(in->value.kernelPad[1], 1);
        QCOMPARE(int(K_Arg("In", KER_ARG_TILE_PAD)->value.select), int(tessera::tiler::ArgSelect::TilePad));
        // A pooling's padding on the convolution's input: the tiles are placed over 3 lines above, the
        // kernel pads 1 of them; the pooling's input buffer is padded as its kernel pads it.
        Object_T* pooled = KerArgP("In", KerArgSpace(1, KER_ITER_TILE0), O_IN | O_DB, 20, 12, 20, 12, (v4s){2, 1, 3, 1},
                                   (v4s){1, 1, 1, 1}, 2, 4, OBJ_CONSTRAINTS_NONE, 0, "In");
        QCOMPARE(pooled->value.padBefore, 3u);
        QCOMPARE(pooled->value.padAfter, 1u);
        QCOMPARE(pooled->value.kernelPad[2], 1);
        Object_T* poolInput = KerArgP("ConvOut", KerArgSpace(1, KER_ITER_TILE0), O_BUFF | O_ONETILE, 20, 12, 20, 12,
                                      (v4s){1, 0, 1, 0}, (v4s){1, 0, 1, 0}, 4, 1, OBJ_CONSTRAINTS_NONE, 0, "");
        QVERIFY(poolInput->value.kernelPadsItself);
        QCOMPARE(poolInput->value.padBefore, 1u);
        // Tiled vertically there is no tiling: with AT_KERNEL_NOSOLUTION_ERROR off the generator gets NULL.
        AT_SetKernelCtrl(AT_KERNEL_NOSOLUTION_ERROR, AT_OPT_OFF);
        LibKernel("Window", CALL_PARALLEL, CArgs(2, TCArg("short int *", "In"), TCArg("v4s", "Pad")), "Window_T");
        Kernel_T* vertical = UserKernel("Vertical", KernelIterSpace(1, IterTiledSpace(KER_ITER_TILE0)), TILE_VER,
                                        CArgs(1, TCArg("short int *", "In")),
                                        Calls(1, Call("Window", LOC_LOOP, Bindings(2, K_Arg("In", KER_ARG_TILE),
                                                                                   K_Arg("In", KER_ARG_TILE_PAD)))),
                                        KerArgs(1, in));
        AT_SetKernelCtrl(AT_KERNEL_NOSOLUTION_ERROR, AT_OPT_ON);
        QVERIFY(vertical == nullptr);
        QVERIFY(gap::currentModel().droppedKernels.at(0).second.find("tiled vertically") != std::string::npos);
    }

    void sq8GeneratorForms()
    {
        using tessera::tiler::Binding;
        const ArgBindingDescr_T* first = K_ArgPred("In", KER_ARG_TILEFIRST, KER_ITER_TILE0);
        const ArgBindingDescr_T* last = K_ArgPred("In", KER_ARG_TILELAST, KER_ITER_D1);
        QVERIFY(first->value.kind == Binding::Kind::LoopPredicate && first->value.value == 0);
        QVERIFY(last->value.kind == Binding::Kind::LoopPredicate && last->value.value == 1);
        QCOMPARE(last->spaceIterator, int(KER_ITER_D1));  // resolved by its kernel's KernelIterSpace

        CKernelCall_T** calls = AllocateCalls(3);
        QCOMPARE(gap::registry().arena.listLength(calls).value_or(0), std::size_t(3));
        QCOMPARE(ALIGN(25, 3), 32);
        QCOMPARE(ALIGN(32, 3), 32);
        QCOMPARE(SPACE_PROP(KER_ITER_D0 | SPACE_PROP_ABS, SPACE_PROP_ONE_TILE), int(KER_ITER_D0) | SPACE_PROP_ONE_TILE);

        // SetKerArgInL3: the argument is homed in L3, staged through L2, as O_L2DB.
        LibKernel("Window", CALL_PARALLEL, CArgs(2, TCArg("short int *", "In"), TCArg("short int *", "Out")), "Window_T");
        declareOverlappedLayer("Layer", TILE_HOR, 32, 8);
        SetKerArgInL3("Layer", "Out");
        const tessera::tiler::UserKernel* layer = gap::currentModel().findUserKernel("Layer");
        QVERIFY(layer->args[1].has(tessera::tiler::ArgFlag::L2DoubleBuffer));
        QVERIFY(!layer->args[0].has(tessera::tiler::ArgFlag::L2DoubleBuffer));

        // HWC (the features of each pixel side by side: a feature space after the tiles) and a one-tile
        // space: run whole, folded into the arguments' planes; the calls are told the declared sizes.
        LibKernel("HwcConv", KernelCallTypeT(CALL_PARALLEL | CALL_HWC_KER),
                  CArgs(6, TCArg("short int *", "In"), TCArg("unsigned short int", "W"), TCArg("unsigned short int", "UsedW"),
                        TCArg("unsigned short int", "InFeat"), TCArg("unsigned short int", "OutFeat"),
                        TCArg("unsigned char", "Last")),
                  "HwcConv_T");
        Kernel_T* hwc = UserKernel("Hwc",
                                   KernelIterSpace(3, IterParSpace(KER_ITER_D1, 12, 8), IterTiledSpace(KER_ITER_TILE0),
                                                   IterParSpace(KernelIteratorT(KER_ITER_D0 | SPACE_PROP_ONE_TILE), 5, 5)),
                                   TILE_HOR, CArgs(3, TCArg("short int *", "In"), TCArg("short int *", "Filter"),
                                                   TCArg("short int *", "Out")),
                                   Calls(1, Call("HwcConv", LOC_D0_EPILOG,
                                                 Bindings(6, K_Arg("In", KER_ARG_TILE), K_Arg("In", KER_ARG_TILE_W),
                                                          K_Arg("In", KER_ARG_TILE_USEDW),
                                                          K_ArgPar("Filter", KER_ARG_PARTILE_SIZE, KER_ITER_D0),
                                                          K_ArgPar("Out", KER_ARG_PARTILE_SIZE, KER_ITER_D1),
                                                          K_ArgPred("Out", KER_ARG_TILELAST, KER_ITER_D0)))),
                                   KerArgs(3,
                                           KerArg("In", KerArgSpace(2, KER_ITER_TILE0, KER_ITER_D0), O_IN | O_DB, 20, 10,
                                                  2, 2, OBJ_CONSTRAINTS_NONE, 0, "In"),
                                           KerArg("Filter", KerArgSpace(2, KER_ITER_D1, KER_ITER_D0), O_IN | O_DB | O_CONST,
                                                  3, 3, 2, 0, OBJ_CONSTRAINTS_NONE, 0, "Filter"),
                                           KerArg("Out", KerArgSpace(2, KER_ITER_TILE0, KER_ITER_D1), O_OUT | O_DB, 18, 8,
                                                  2, 0, OBJ_CONSTRAINTS_NONE, 0, "Out")));
        QVERIFY(hwc != nullptr);
        const tessera::tiler::UserKernel* folded = gap::currentModel().findUserKernel("Hwc");
        // The one-tile input features are whole; the output features a loop (the planes loop inputs
        // follow, its filters), their chunks gathered pixel by pixel.
        QCOMPARE(folded->inPlanes * folded->outPlanes, 12u);
        QCOMPARE(folded->order.size(), std::size_t(2));
        QVERIFY(folded->chunkablePlanes == tessera::tiler::IterationSpace::InPlane);
        QCOMPARE(folded->args[0].width, 100u);           // 20 pixels of 5 features
        QVERIFY(!folded->args[0].has(tessera::tiler::ArgFlag::ThreeD) && !folded->args[0].hwcPlanes);
        QCOMPARE(folded->args[1].height, 3u * 5);        // one output feature's filter
        QVERIFY(folded->args[1].has(tessera::tiler::ArgFlag::ThreeD) && !folded->args[1].hwcPlanes);
        QCOMPARE(folded->args[2].width, 18u);
        QVERIFY(folded->args[2].has(tessera::tiler::ArgFlag::ThreeD) && folded->args[2].hwcPlanes);
        const std::vector<Binding>& told = folded->calls[0].bindings;
        QVERIFY(folded->calls[0].location == tessera::tiler::CallLocation::InnerLoop);  // after a loop of one pass
        QCOMPARE(told[0].kind, Binding::Kind::KernelArg);
        QCOMPARE(told[4].kind, Binding::Kind::PlaneChunk);
        for (const auto& [index, value] : std::vector<std::pair<int, int>>{{1, 20}, {2, 20}, {3, 5}, {5, 1}}) {
            QCOMPARE(told[std::size_t(index)].kind, Binding::Kind::Immediate);
            QCOMPARE(int(told[std::size_t(index)].value), value);
        }
        // A padded HWC input (its kernel pads the lines of each tile) has its features whole.
        const v4s pad = {1, 1, 1, 1};
        Kernel_T* padded = UserKernel("HwcPadded",
                                      KernelIterSpace(2, IterParSpace(KER_ITER_D0, 6, 2), IterTiledSpace(KER_ITER_TILE0)),
                                      TILE_HOR, CArgs(2, TCArg("short int *", "In"), TCArg("short int *", "Out")),
                                      Calls(1, Call("HwcConv", LOC_LOOP,
                                                    Bindings(2, K_Arg("In", KER_ARG_TILE),
                                                             K_ArgPar("In", KER_ARG_PARTILE_SIZE, KER_ITER_D0)))),
                                      KerArgs(2,
                                              KerArgP("In", KerArgSpace(2, KER_ITER_TILE0, KER_ITER_D0), O_IN | O_DB,
                                                      16, 12, 16, 12, pad, pad, 2, 2, OBJ_CONSTRAINTS_NONE, 0, "In"),
                                              KerArg("Out", KerArgSpace(2, KER_ITER_TILE0, KER_ITER_D0), O_OUT | O_DB,
                                                     16, 12, 2, 0, OBJ_CONSTRAINTS_NONE, 0, "Out")));
        QVERIFY(padded != nullptr);
        const tessera::tiler::UserKernel* whole = gap::currentModel().findUserKernel("HwcPadded");
        QCOMPARE(whole->inPlanes, 1u);
        QCOMPARE(whole->args[0].width, 16u * 6);
        QCOMPARE(whole->args[1].width, 16u * 6);
        QCOMPARE(whole->calls[0].bindings[1].kind, Binding::Kind::Immediate);
        QCOMPARE(int(whole->calls[0].bindings[1].value), 6);

        // A one-tile space listed before the tiles (CHW): not held whole here, so with
        // AT_KERNEL_NOSOLUTION_ERROR off the generator gets NULL and falls back to another form.
        AT_SetKernelCtrl(AT_KERNEL_NOSOLUTION_ERROR, AT_OPT_OFF);
        Kernel_T* matrix = UserKernel("Im2Col",
                                      KernelIterSpace(2, IterTiledSpace(KER_ITER_TILE0),
                                                      IterParSpace(KernelIteratorT(KER_ITER_D0 | SPACE_PROP_ONE_TILE), 8, 8)),
                                      TILE_HOR, CArgs(1, TCArg("short int *", "In")),
                                      Calls(1, Call("Window", LOC_LOOP, Bindings(2, K_Arg("In", KER_ARG_TILE), Imm(0)))),
                                      KerArgs(1, KerArg("In", KerArgSpace(2, KER_ITER_D0, KER_ITER_TILE0), O_IN, 8, 8, 1, 0,
                                                        OBJ_CONSTRAINTS_NONE, 0, "In")));
        AT_SetKernelCtrl(AT_KERNEL_NOSOLUTION_ERROR, AT_OPT_ON);
        QVERIFY(matrix == nullptr);
        QCOMPARE(gap::currentModel().droppedKernels.size(), std::size_t(1));
        QVERIFY(gap::currentModel().droppedKernels[0].second.find("SPACE_PROP_ONE_TILE") != std::string::npos);
        QVERIFY(gap::currentModel().findUserKernel("Im2Col") == nullptr);

        // A type symbol binds as its text; CloseKernelGroupNoMerge closes the group.
        UserSymbols(1, US_Type("AccType", "signed char"));
        QCOMPARE(QString::fromStdString(BindKExpr("AccType")->value.name), QString("signed char"));
        OpenKernelGroup("Group");
        CloseKernelGroupNoMerge();
        QVERIFY(!gap::registry().openGroup);
    }

    // A kernel group run once, as GreenWaves' CNN_MatAddPaddedAct_SQ8 and image normalizations declare
    // it (UserKernelGroupK with a count of 1, KerGroupArg, KG_ArgOper): the group's calls bind its
    // arguments moved by the offsets, and a graph node calling the group gets its symbols' sizes from
    // what the calls bind (here two halves of 32 bytes, the second 32 further: 64 bytes).
    void kernelGroupRunOnce()
    {
        LibKernel("Copy", CALL_SEQUENTIAL, CArgs(2, TCArg("signed char *", "In"), TCArg("signed char *", "Out")), "",
                  nullptr);
        OpenKernelGroup("Pair");
        UserKernel("Half", KernelIterSpace(1, IterTiledSpace(KER_ITER_TILE0)), TILE_HOR,
                   CArgs(2, TCArg("signed char *", "In"), TCArg("signed char *", "Out")),
                   Calls(1, Call("Copy", LOC_LOOP, Bindings(2, K_Arg("In", KER_ARG_TILE), K_Arg("Out", KER_ARG_TILE)))),
                   KerArgs(2, KerArg("In", KerArgSpace(1, KER_ITER_TILE0), O_IN | O_DB, 8, 4, 1, 0, OBJ_CONSTRAINTS_NONE, 0, "In"),
                           KerArg("Out", KerArgSpace(1, KER_ITER_TILE0), O_OUT | O_DB, 8, 4, 1, 0, OBJ_CONSTRAINTS_NONE, 0, "Out")));
        CloseKernelGroup();
        KernelGroup_T* group = UserKernelGroupK(
            "Pair", 1, CArgs(2, TCArg("signed char *", "In"), TCArg("signed char *", "Out")), nullptr,
            Calls(2, UserKernelCall("Half", LOC_GROUP, Bindings(2, C_Arg("In"), C_Arg("Out"))),
                  UserKernelCall("Half", LOC_GROUP, Bindings(2, KG_ArgOper("In", '+', 32), KG_ArgOper("Out", '-', -32)))),
            KerArgs(2, KerGroupArg("In", O_IN, 64, 1, "In"), KerGroupArg("Out", O_OUT, 64, 1, "Out")));
        QVERIFY(group != nullptr);
        const tiler::KernelGroup& declared = gap::currentModel().groups.back();
        QVERIFY(declared.hasTemplate);
        QCOMPARE(declared.calls.size(), std::size_t(2));
        for (const tiler::Binding& binding : declared.calls[1].bindings) {
            QVERIFY(binding.kind == tiler::Binding::Kind::CArg);
            QCOMPARE(binding.value, std::int64_t(32));
        }
        SetMemoryDeviceInfos(2, AT_MEM_L1, 10000, "Net_L1_Memory", 0, 0, AT_MEM_L2, 100000, "Net_L2_Memory", 0, 0);
        CreateGraph("Net",
                    CArgs(2, TCArgInfo("signed char *", "Image", ARG_SCOPE_ARG_ALLOC, ARG_DIR_IN, AT_MEM_L2, AT_MEM_L2, 0),
                          TCArgInfo("signed char *", "Copied", ARG_SCOPE_ARG, ARG_DIR_OUT, AT_MEM_UNDEF, AT_MEM_L2, 0)),
                    nullptr);
        AddNode("Pair", Bindings(2, GNodeArg(GNA_IN, "Image", 0), GNodeArg(GNA_OUT, "Copied", 0)));
        CloseGraph();
        const tiler::KernelModel& model = gap::currentModel();
        const std::vector<std::string> problems = tiler::checkModel(model);
        QVERIFY2(problems.empty(), problems.empty() ? "" : problems.front().c_str());
        const tiler::GraphAllocation allocation = tiler::allocateGraph(model, model.graphs.front(), 100000);
        QVERIFY2(allocation.ok, allocation.error.c_str());
        QVERIFY(allocation.find("Image") != nullptr && allocation.find("Copied") != nullptr);
        QCOMPARE(allocation.find("Image")->bytes, std::uint64_t(64));
        QCOMPARE(allocation.find("Copied")->bytes, std::uint64_t(64));
        QCOMPARE(allocation.l2Arguments, std::uint64_t(64));

        // Run 3 times, its calls moved by an expression over KerDynamicSymbols: the group's C argument
        // In, 32 items per iteration, and the Infos-like Table the same each time.
        OpenKernelGroup("Thirds");
        UserKernel("Third", KernelIterSpace(1, IterTiledSpace(KER_ITER_TILE0)), TILE_HOR,
                   CArgs(2, TCArg("signed char *", "In"), TCArg("signed char *", "Out")),
                   Calls(1, Call("Copy", LOC_LOOP, Bindings(2, K_Arg("In", KER_ARG_TILE), K_Arg("Out", KER_ARG_TILE)))),
                   KerArgs(2, KerArg("In", KerArgSpace(1, KER_ITER_TILE0), O_IN | O_DB, 8, 4, 1, 0, OBJ_CONSTRAINTS_NONE, 0, "In"),
                           KerArg("Out", KerArgSpace(1, KER_ITER_TILE0), O_OUT | O_DB, 8, 4, 1, 0, OBJ_CONSTRAINTS_NONE, 0, "Out")));
        CloseKernelGroup();
        UserSymbols(1, US_Type("ItemType", "signed char *"));
        KerDynamicSymbols(2, US_Int("W", 8), US_Int("H", 4));
        UserKernelGroupK("Thirds", 3, CArgs(3, TCArg("signed char *", "Src"), TCArg("signed char *", "Dst"), TCArg("signed char *", "Table")),
                         nullptr,
                         Calls(1, UserKernelCall("Third", LOC_GROUP,
                                                 Bindings(2, BindKGExpr("KArg(In, Name) + W*H * KArg(In, TileIndex)"),
                                                          BindKGExpr("(ItemType) CArg(Dst) + W*H*KArg(Out, TileIndex)")))),
                         KerArgs(3, KerGroupArg("In", O_IN, 32, 1, "Src"), KerGroupArg("Out", O_OUT, 32, 1, "Dst"),
                                 KerGroupArg("Table", O_IN | O_NTILED, 13, 1, "Table")));
        const tiler::KernelGroup& thirds = gap::currentModel().groups.back();
        QCOMPARE(thirds.iterations, 3u);
        QCOMPARE(QString::fromStdString(thirds.calls[0].bindings[0].name), QString("(Src + (8)*(4) * GroupIter)"));
        QCOMPARE(QString::fromStdString(thirds.calls[0].bindings[1].name), QString("((signed char *) Dst + (8)*(4)*GroupIter)"));
        QVERIFY(gap::registry().groupSymbols.empty());  // the symbols were the group's
        QCOMPARE(thirds.arguments.size(), std::size_t(3));
        QCOMPARE(thirds.arguments[0].bytesPerIteration, std::uint64_t(32));
        QVERIFY(thirds.arguments[2].sameEachIteration);
        const std::string code = tiler::emitKernelGroup(gap::currentModel(), thirds);
        QVERIFY2(code.find("for (int GroupIter = 0; GroupIter < 3; GroupIter++) {") != std::string::npos, code.c_str());
    }

    // NNTool's element-wise expression kernels: a parametric space around a tiled space that no
    // argument is tiled by, the call in the body of the parametric space (LOC_D0). The tile loop runs
    // once, so the call is in the innermost loop; the solver runs the 960 items in chunks.
    void planeLoopBodyAroundOneTile()
    {
        LibKernel("Expr", CALL_PARALLEL,
                  CArgs(3, TCArg("unsigned short int", "N"), TCArg("signed char *", "In"), TCArg("signed char *", "Out")),
                  "Expr_T");
        Kernel_T* kernel = UserKernel(
            "Elementwise", KernelIterSpace(2, IterParSpace(KER_ITER_D0, 960, 8), IterTiledSpace(KER_ITER_TILE0)), TILE_VER,
            CArgs(2, TCArg("signed char *", "In"), TCArg("signed char *", "Out")),
            Calls(1, Call("Expr", LOC_D0,
                          Bindings(3, K_ArgPar("Out", KER_ARG_PARTILE_SIZE, KER_ITER_D0), K_Arg("In", KER_ARG_TILE),
                                   K_Arg("Out", KER_ARG_TILE)))),
            KerArgs(2, KerArg("In", KerArgSpace(1, KER_ITER_D0), O_IN | O_DB, 1, 1, 1, 0, OBJ_CONSTRAINTS_NONE, 0, "In"),
                    KerArg("Out", KerArgSpace(1, KER_ITER_D0), O_OUT | O_DB, 1, 1, 1, 0, OBJ_CONSTRAINTS_NONE, 0, "Out")));
        QVERIFY(kernel != nullptr);
        const tiler::UserKernel* declared = gap::currentModel().findUserKernel("Elementwise");
        QVERIFY(declared != nullptr && declared->calls.size() == 1);
        QVERIFY(declared->calls[0].location == tiler::CallLocation::InnerLoop);
        const tiler::TileSolverResult solved = tiler::solveTiling(*declared, 51200);
        QVERIFY2(solved.ok, solved.error.c_str());
        QCOMPARE(solved.tiling.tileCount, 1u);
    }

    void unsupportedFormsAreRefused()
    {
        const struct {
            const char* what;
            void (*call)();
            const char* message;
        } refusals[] = {
            {"padded buffer loaded whole", [] {
                 KerArgP("Lut", KerArgSpace(1, KER_ITER_TILE0), O_IN | O_BUFF, 8, 8, 8, 8, (v4s){0, 0, 1, 1},
                         (v4s){0, 0, 1, 1}, 4, 0, OBJ_CONSTRAINTS_NONE, 0, "Lut");
             },
             "KerArgP(\"Lut\"): padding (PadTile 0, 0, 1, 1, PadExec 0, 0, 1, 1) of a buffer loaded whole"},
            {"L1 buffer padded more than its kernels pad", [] {
                 KerArgP("ConvOut", KerArgSpace(1, KER_ITER_TILE0), O_BUFF | O_ONETILE, 8, 8, 8, 8, (v4s){0, 0, 2, 1},
                         (v4s){0, 0, 1, 1}, 4, 0, OBJ_CONSTRAINTS_NONE, 0, "");
             },
             "KerArgP(\"ConvOut\"): padding PadTile 0, 0, 2, 1 with PadExec 0, 0, 1, 1 of an L1 buffer"},
            {"kernel padding beyond the tiles'", [] {
                 KerArgP("In", KerArgSpace(1, KER_ITER_TILE0), O_IN, 8, 8, 8, 8, (v4s){1, 1, 1, 1}, (v4s){1, 1, 3, 1}, 2, 2,
                         OBJ_CONSTRAINTS_NONE, 0, "In");
             },
             "KerArgP(\"In\"): padding PadTile 1, 1, 1, 1 with PadExec 1, 1, 3, 1 is not supported"},
            {"padded, tiled vertically", [] {
                 UserKernel("Vertical", KernelIterSpace(1, IterTiledSpace(KER_ITER_TILE0)), TILE_VER,
                            CArgs(1, TCArg("short int *", "In")),
                            Calls(1, Call("Window", LOC_LOOP, Bindings(1, K_Arg("In", KER_ARG_TILE)))),
                            KerArgs(1, KerArgP("In", KerArgSpace(1, KER_ITER_TILE0), O_IN, 8, 8, 8, 8, (v4s){1, 1, 1, 1},
                                               (v4s){1, 1, 1, 1}, 2, 2, OBJ_CONSTRAINTS_NONE, 0, "In")));
             },
             "user kernel Vertical: its padded KerArgP In is tiled vertically"},
            {"used part larger than the planes", [] {
                 KerArgP("In", KerArgSpace(1, KER_ITER_TILE0), O_IN, 28, 28, 29, 28, (v4s){0, 0, 0, 0},
                         (v4s){0, 0, 0, 0}, 2, 0, OBJ_CONSTRAINTS_NONE, 0, "In");
             },
             "KerArgP(\"In\"): the kernel uses 29 x 28 of its 28 x 28 planes; the used part must be at least 1 x 1"},
            {"padding below unused lines", [] {
                 KerArgP("In", KerArgSpace(1, KER_ITER_TILE0), O_IN, 28, 28, 28, 27, (v4s){1, 1, 1, 1},
                         (v4s){1, 1, 1, 1}, 2, 0, OBJ_CONSTRAINTS_NONE, 0, "In");
             },
             "KerArgP(\"In\"): the kernel uses 27 of its 28 lines and pads 1 more below them"},
            {"tiled space", [] { K_ArgPar("In", KER_ARG_PARTILE_SIZE, KER_ITER_TILE0); },
             "K_ArgPar(\"In\"): space 0 is not a parametric one"},
            {"number of tiles", [] { K_ArgPar("In", KER_ARG_PARTILE_DIM, KER_ITER_D0); },
             "K_ArgPar(\"In\"): selector 15 is not supported"},
            {"parametric selector in K_Arg", [] { K_Arg("In", KER_ARG_PARTILE_SIZE); },
             "bind it with K_ArgPar(\"In\", selector, KER_ITER_D*)"},
            {"loop index of no loop", [] { Ker_IteratorIndex(KernelIteratorT(5)); },
             "Ker_IteratorIndex(5): give KER_ITER_TILE0, KER_ITER_TILE1 or KER_ITER_D0..KER_ITER_D3"},
            {"plane loop body around real tiles", [] {
                 UserKernel("Tiled", KernelIterSpace(2, IterParSpace(KER_ITER_D0, 16, 1), IterTiledSpace(KER_ITER_TILE0)),
                            TILE_HOR, CArgs(1, TCArg("short int *", "In")),
                            Calls(1, Call("Window", LOC_D0, Bindings(1, K_Arg("In", KER_ARG_TILE)))),
                            KerArgs(1, KerArg("In", KerArgSpace(2, KER_ITER_D0, KER_ITER_TILE0), O_IN, 8, 8, 2, 0,
                                              OBJ_CONSTRAINTS_NONE, 0, "In")));
             },
             "a call in the body of KER_ITER_D0 needs it to be the innermost loop"},
            {"kernel group run no times", [] { UserKernelGroupK("Grouped", 0, nullptr, nullptr, nullptr, nullptr); },
             "UserKernelGroupK(\"Grouped\", 0, ...): a group runs 1 to 1048576 times"},
            {"group expression of an unknown symbol", [] {
                 openGroupWithBody("Unknown");
                 UserKernelGroupK("Unknown", 2, CArgs(1, TCArg("short int *", "In")), nullptr,
                                  Calls(1, UserKernelCall("UnknownBody", LOC_GROUP,
                                                          Bindings(1, BindKGExpr("KArg(In, Name) + Size * KArg(In, TileIndex)")))),
                                  nullptr);
             },
             "kernel group Unknown, call of UnknownBody: BindKGExpr(\"KArg(In, Name) + Size * KArg(In, TileIndex)\"): "
             "Size is neither a C argument of the group nor a symbol"},
            {"group expression of another selector", [] {
                 openGroupWithBody("Selector");
                 UserKernelGroupK("Selector", 2, CArgs(1, TCArg("short int *", "In")), nullptr,
                                  Calls(1, UserKernelCall("SelectorBody", LOC_GROUP, Bindings(1, BindKGExpr("KArg(In, Size)")))),
                                  nullptr);
             },
             "BindKGExpr(\"KArg(In, Size)\"): KArg(In, Size) is not supported"},
            {"group argument of a user kernel", [] {
                 UserKernel("Plain", KernelIterSpace(1, IterTiledSpace(KER_ITER_TILE0)), TILE_HOR,
                            CArgs(1, TCArg("short int *", "In")),
                            Calls(1, Call("Window", LOC_LOOP, Bindings(1, K_Arg("In", KER_ARG_TILE)))),
                            KerArgs(1, KerGroupArg("In", O_IN, 10, 2, "In")));
             },
             "user kernel Plain: kernel argument In is a KerGroupArg(), which describes an argument of a kernel group"},
            {"group expression in a user kernel", [] {
                 UserKernel("Plain", KernelIterSpace(1, IterTiledSpace(KER_ITER_TILE0)), TILE_HOR,
                            CArgs(1, TCArg("short int *", "In")),
                            Calls(1, Call("Window", LOC_LOOP, Bindings(1, BindKGExpr("CArg(In)")))),
                            KerArgs(1, KerArg("In", KerArgSpace(1, KER_ITER_TILE0), O_IN, 8, 8, 2, 0,
                                              OBJ_CONSTRAINTS_NONE, 0, "In")));
             },
             "user kernel Plain: its call of Window binds BindKGExpr(\"CArg(In)\"), which only the calls of a kernel "
             "group (UserKernelGroup) take"},
            {"group argument of no items", [] { KerGroupArg("In", O_IN, 0, 2, "In"); },
             "KerGroupArg(\"In\"): 0 items of 2 bytes"},
            {"group binding multiplied", [] { KG_ArgOper("In", '*', 2); },
             "KG_ArgOper(\"In\", '*', 2): Tessera binds a group's argument plus or minus an offset only"},
            {"stacked tensors of a group", [] {
                 UserKernelGroupK("Stacked", 1, nullptr, reinterpret_cast<StackedTensors_T*>(&gap::registry()), nullptr,
                                  nullptr);
             },
             "UserKernelGroupK(\"Stacked\", 1, ...): stacked tensors are not supported"},
            {"indirect C argument", [] { C_ArgIndirect("Infos", 3); },
             "C_ArgIndirect(\"Infos\", 3): a value read through a C argument's pointer is not supported"},
            {"predicate selector", [] { K_ArgPred("In", KER_ARG_TILE, KER_ITER_TILE0); },
             "K_ArgPred(\"In\"): selector 0 is not a predicate; give KER_ARG_TILEFIRST or KER_ARG_TILELAST"},
            {"L3 home of no kernel", [] { SetKerArgInL3("Nothing", "In"); },
             "SetKerArgInL3(\"Nothing\", \"In\"): no user kernel named Nothing is declared"},
            {"look-up table", [] { LUTInfo(4, 1, 0); }, "LUTInfo(4, 1, 0): compressed arguments"},
            {"compressed argument", [] {
                 KerArgC("Filter", KerArgSpace(1, KER_ITER_TILE0), O_IN, 8, 8, 1, nullptr, 0, OBJ_CONSTRAINTS_NONE, 0,
                         "Filter");
             },
             "KerArgC(\"Filter\"): compressed arguments are not supported"},
            // KerArgAliased: an output using an input's L1 buffer (tests/gap/Recurrence runs one).
            {"aliased argument beyond the list", [] { aliasedState(5, O_IN | O_BUFF | O_NTILED, 8); },
             "user kernel Cell: KerArgAliased(\"Sout\", ..., 5, ...): Alias is the position (from 0) of another "
             "argument in KerArgs(), whose L1 buffer it uses; the list has 2 arguments"},
            {"argument aliased to itself", [] { aliasedState(1, O_IN | O_BUFF | O_NTILED, 8); },
             "the list has 2 arguments and that one is the argument itself"},
            {"aliased to a tiled input", [] { aliasedState(0, O_IN | O_DB, 8); },
             "user kernel Cell: argument Sout: it shares the L1 buffer of Sin; both must be whole buffers in L1 (O_BUFF, "
             "O_NTILED, one plane, no room or padding)"},
            {"aliased to a buffer of another size", [] { aliasedState(0, O_IN | O_BUFF | O_NTILED, 6); },
             "user kernel Cell: argument Sout: it is 8 x 1 items of 2 bytes but shares the L1 buffer of Sin, 6 x 1 items "
             "of 2 bytes; a shared buffer has one size"},
            {"aliased to an output", [] { aliasedState(0, O_OUT | O_BUFF | O_NTILED, 8); },
             "it shares the L1 buffer of Sin; the shared buffer is read from an input (O_IN) and written to an output "
             "(O_OUT), so Sin must be O_IN and Sout O_OUT"},
            // The transfer hints of the SDK's split recurrent sequences (tests/gap/Recurrence runs them).
            {"tile not loaded", [] { KerArg("State", O_IN | O_DB | O_NO_LOAD, 8, 1, 1, 0, OBJ_CONSTRAINTS_NONE, 0, "", 0); },
             "KerArg(\"State\"): O_NO_LOAD is a mark of an input buffer (O_IN | O_BUFF), as the SDK defines it; "
             "declare the argument O_IN | O_BUFF or drop O_NO_LOAD"},
            {"output always loaded", [] { KerArg("State", O_OUT | O_BUFF | O_ALWAYS_LOAD, 8, 1, 1, 0, OBJ_CONSTRAINTS_NONE, 0, "", 0); },
             "KerArg(\"State\"): O_ALWAYS_LOAD is a mark of an input buffer (O_IN | O_BUFF)"},
            {"input not stored", [] { KerArg("State", O_IN | O_BUFF | O_NO_STORE, 8, 1, 1, 0, OBJ_CONSTRAINTS_NONE, 0, "", 0); },
             "KerArg(\"State\"): O_NO_STORE is a mark of an output buffer (O_OUT | O_BUFF), as the SDK defines it; "
             "declare the argument O_OUT | O_BUFF or drop O_NO_STORE"},
            {"loaded and not loaded", [] {
                 KerArg("State", O_IN | O_BUFF | O_NO_LOAD | O_ALWAYS_LOAD, 8, 1, 1, 0, OBJ_CONSTRAINTS_NONE, 0, "", 0); },
             "KerArg(\"State\"): O_NO_LOAD skips the load that O_ALWAYS_LOAD asks for; keep one of them"},
            {"argument space property", [] { KerArgSpace(2, SPACE_PROP(KER_ITER_D0, SPACE_PROP_ABS), KER_ITER_TILE0); },
             "KerArgSpace: KER_ITER_D0 | 0x10000: of the SDK's space properties an argument's space takes "
             "SPACE_PROP_REVERT only"},
            {"reversed tiles", [] { KerArgSpace(1, SPACE_PROP(KER_ITER_TILE0, SPACE_PROP_REVERT)); },
             "KerArgSpace: SPACE_PROP_REVERT reverses the planes of a non-tiled space (KER_ITER_D0..KER_ITER_D3), "
             "not KER_ITER_TILE0; drop the property"},
            {"space property", [] { IterParSpace(KernelIteratorT(KER_ITER_D0 | SPACE_PROP_REVERT), 4, 1); },
             "IterFixedSpace(KER_ITER_D0 | 0x20000, 4): of the SDK's space properties Tessera knows SPACE_PROP_ONE_TILE only"},
            {"one tile, no solution error", [] {
                 UserKernel("Im2Col",
                            KernelIterSpace(2, IterTiledSpace(KER_ITER_TILE0),
                                            IterParSpace(KernelIteratorT(KER_ITER_D0 | SPACE_PROP_ONE_TILE), 8, 8)),
                            TILE_HOR, CArgs(1, TCArg("short int *", "In")),
                            Calls(1, Call("Window", LOC_LOOP, Bindings(1, K_Arg("In", KER_ARG_TILE)))),
                            KerArgs(1, KerArg("In", KerArgSpace(2, KER_ITER_D0, KER_ITER_TILE0), O_IN, 8, 8, 1, 0,
                                              OBJ_CONSTRAINTS_NONE, 0, "In")));
             },
             "user kernel Im2Col: its argument In lists KER_ITER_D0, which the kernel runs whole "
             "(SPACE_PROP_ONE_TILE), before its tiled space (planes one after the other, CHW)"},
            {"HWC tiled vertically", [] {
                 UserKernel("HwcVertical", KernelIterSpace(2, IterParSpace(KER_ITER_D0, 8, 8), IterTiledSpace(KER_ITER_TILE0)),
                            TILE_VER, CArgs(1, TCArg("short int *", "In")),
                            Calls(1, Call("Window", LOC_LOOP, Bindings(1, K_Arg("In", KER_ARG_TILE)))),
                            KerArgs(1, KerArg("In", KerArgSpace(2, KER_ITER_TILE0, KER_ITER_D0), O_IN, 8, 8, 1, 0,
                                              OBJ_CONSTRAINTS_NONE, 0, "In")));
             },
             "user kernel HwcVertical: its HWC argument In is tiled vertically; Tessera tiles the pixels of HWC "
             "arguments by lines only"},
            {"padded HWC along a fixed space", [] {
                 const v4s pad = {1, 1, 1, 1};
                 UserKernel("HwcFixed", KernelIterSpace(2, IterFixedSpace(KER_ITER_D0, 8), IterTiledSpace(KER_ITER_TILE0)),
                            TILE_HOR, CArgs(1, TCArg("short int *", "In")),
                            Calls(1, Call("Window", LOC_LOOP, Bindings(1, K_Arg("In", KER_ARG_TILE)))),
                            KerArgs(1, KerArgP("In", KerArgSpace(2, KER_ITER_TILE0, KER_ITER_D0), O_IN, 8, 8, 8, 8, pad,
                                               pad, 1, 2, OBJ_CONSTRAINTS_NONE, 0, "In")));
             },
             "user kernel HwcFixed: its argument In lists KER_ITER_D0 after its tiled space (features side by "
             "side in each pixel, HWC) and that space is an IterFixedSpace"},
        };
        for (const auto& refusal : refusals) {
            const ChildOutcome child = runInChild(refusal.call);
            QVERIFY2(child.exitStatus == 1 && child.errorOutput.find(refusal.message) != std::string::npos,
                     (std::string(refusal.what) + ": " + child.errorOutput).c_str());
        }
    }
};

QTEST_APPLESS_MAIN(GapCnnLibraryApi)
#include "tst_gap_cnn_library_api.moc"
