// The tile solver on its own: the guide's tilings, constraints, overlap ratios, promotion, buffer
// fallback, L3 staging and the budget errors. Every solution is checked by an independent check of
// the L1 layout (inside the budget, aligned, no two buffers overlapping) and of the tile geometry.
#include "tiler/tile_solver.h"

#include <QtTest>

using namespace tessera::tiler;

namespace {

constexpr std::uint32_t kInDb = ArgFlag::In | ArgFlag::DoubleBuffer | ArgFlag::Tiled;
constexpr std::uint32_t kOutDb = ArgFlag::Out | ArgFlag::DoubleBuffer | ArgFlag::Tiled;

UserKernel matAdd(unsigned w, unsigned h)
{
    UserKernel kernel;
    kernel.name = "MatAdd";
    kernel.width = w;
    kernel.height = h;
    kernel.order = {IterationSpace::Tile};
    kernel.args = {{"In1", kInDb, w, h, 4, 0, 0, 0, "In1", 0},
                   {"In2", kInDb, w, h, 4, 0, 0, 0, "In2", 0},
                   {"Out", kOutDb, w, h, 4, 0, 0, 0, "Out", 0}};
    return kernel;
}

// The guide's 5x5 convolution: 3-D input with an overlap of 4, untiled 4-D filter, 3-D output.
UserKernel conv5x5(unsigned inPlanes, unsigned outPlanes, unsigned w, unsigned h)
{
    UserKernel kernel;
    kernel.name = "Conv5x5";
    kernel.dimension = 4;
    kernel.inPlanes = inPlanes;
    kernel.outPlanes = outPlanes;
    kernel.width = w;
    kernel.height = h;
    kernel.order = {IterationSpace::OutPlane, IterationSpace::Tile, IterationSpace::InPlane};
    kernel.args = {{"In", kInDb | ArgFlag::ThreeD, w, h, 2, 4, 0, 0, "In", 0},
                   {"Filter", ArgFlag::In | ArgFlag::DoubleBuffer | ArgFlag::FourD, 5, 5, 2, 0, 0, 0, "Filter", 0},
                   {"Out", kOutDb | ArgFlag::ThreeD, w - 4, h - 4, 2, 0, 0, 0, "Out", 0}};
    return kernel;
}

// Independent of the solver: buffers inside the budget, aligned and disjoint; tiles cover each
// tiled dimension exactly; predicted traffic equals the bytes of every chunk moved.
// The tiling's arguments may point into a kernel that is gone (solveTiling(matAdd(...))): only the
// failure messages read them. remainderPadded: OBJ_CONSTRAINTS_PAD_REM lets last tiles carry more.
QString checkTiling(const KernelTiling& tiling, std::uint64_t budget, bool remainderPadded = false)
{
    std::vector<std::pair<std::uint64_t, std::uint64_t>> spans;
    for (const ArgTiling& arg : tiling.args) {
        if (arg.l1Offset % 4 != 0)
            return QString("%1 at L1 offset %2 is not aligned").arg(arg.arg->name.c_str()).arg(arg.l1Offset);
        if (arg.l1Offset + arg.l1Bytes > budget)
            return QString("%1 ends at %2, past the budget %3").arg(arg.arg->name.c_str()).arg(arg.l1Offset + arg.l1Bytes).arg(budget);
        for (const auto& [start, end] : spans)
            if (arg.l1Offset < end && start < arg.l1Offset + arg.l1Bytes)
                return QString("%1 overlaps another buffer").arg(arg.arg->name.c_str());
        spans.push_back({arg.l1Offset, arg.l1Offset + arg.l1Bytes});
        if (arg.tiled && arg.residence != ArgResidence::Scratch && arg.dynamic) {
            // Dynamic tiles: checked line by line in dynamicTilesFollowTheRatio; here they must end at the extent.
            const unsigned count = tiling.tileCountOf(arg);
            if (arg.tileStartAt(count - 1, count) + arg.lastTileSize != arg.extent)
                return QString("%1: dynamic tiles end before %2").arg(arg.arg->name.c_str()).arg(arg.extent);
        } else if (arg.tiled && arg.residence != ArgResidence::Scratch) {
            const std::uint64_t covered = std::uint64_t(tiling.tileCountOf(arg) - 1) * arg.step + arg.lastTileSize;
            if (covered != arg.extent)
                return QString("%1: tiles cover %2 of %3").arg(arg.arg->name.c_str()).arg(covered).arg(arg.extent);
            // The last tile may carry a few lines beyond a whole step (fewer than one step, unless
            // OBJ_CONSTRAINTS_PAD_REM lets it carry more).
            if (arg.lastTileSize == 0 || (!remainderPadded && arg.lastTileSize >= arg.tileSize + arg.step))
                return QString("%1: last tile %2, tile %3").arg(arg.arg->name.c_str()).arg(arg.lastTileSize).arg(arg.tileSize);
        }
    }
    if (tiling.l1Bytes > budget)
        return QString("L1 %1 over budget %2").arg(tiling.l1Bytes).arg(budget);
    return {};
}

} // namespace

class TestTileSolver : public QObject {
    Q_OBJECT

private slots:
    // The bytes a tile loop moves in all, summed in constant time for the interior tiles, equal the
    // tile-by-tile sum: any tile size, step (overlap), padding on either side and last tile.
    void movedBytesOverTilesIsTheSumOfItsTiles()
    {
        KernelArgument model;
        model.itemSize = 2;
        int checked = 0;
        for (unsigned extent : {7u, 30u, 226u})
            for (unsigned tileSize : {1u, 3u, 8u})
                for (unsigned overlap : {0u, 2u})
                    for (unsigned padBefore : {0u, 1u, 3u})
                        for (unsigned padAfter : {0u, 2u}) {
                            if (overlap >= tileSize || tileSize > extent)
                                continue;
                            ArgTiling arg;
                            arg.arg = &model;
                            arg.tiled = true;
                            arg.extent = extent;
                            arg.crossExtent = 5;
                            arg.planesPerChunk = 3;
                            arg.tileSize = tileSize;
                            arg.step = tileSize - overlap;
                            arg.padBefore = padBefore;
                            arg.padAfter = padAfter;
                            const unsigned tileCount = 1 + (extent - tileSize + arg.step - 1) / arg.step;
                            arg.lastTileSize = extent - (tileCount - 1) * arg.step;
                            std::uint64_t sum = 0;
                            for (unsigned t = 0; t < tileCount; ++t)
                                sum += arg.movedBytesAt(t, tileCount);
                            QCOMPARE(arg.movedBytesOverTiles(tileCount), sum);
                            ++checked;
                        }
        QCOMPARE(checked, 78);
    }

    void guideMatrixAddition()
    {
        const TileSolverResult result = solveTiling(matAdd(200, 300), 51200);
        QVERIFY2(result.ok, result.error.c_str());
        QCOMPARE(checkTiling(result.tiling, 51200), QString());
        QCOMPARE(result.tiling.tileCount, 30u);
        QCOMPARE(result.tiling.args[0].tileSize, 10u);
        QCOMPARE(result.tiling.args[0].bufferCount, 2u);
        // The guide's generated code: In1 at 0, In2 at 16000, Out at 32000.
        QCOMPARE(result.tiling.args[1].l1Offset, std::uint64_t(16000));
        QCOMPARE(result.tiling.args[2].l1Offset, std::uint64_t(32000));
        QCOMPARE(result.tiling.dmaRead, std::uint64_t(2 * 200 * 300 * 4));
        QCOMPARE(result.tiling.dmaWrite, std::uint64_t(200 * 300 * 4));
        QCOMPARE(result.minimumL1, std::uint64_t(3 * 800));
    }

    void guideMatrixMaximum()
    {
        UserKernel kernel;
        kernel.name = "MatMax";
        kernel.width = 200;
        kernel.height = 300;
        kernel.order = {IterationSpace::Tile};
        kernel.args = {{"In", kInDb, 200, 300, 4, 0, 0, 0, "In", 0},
                       {"TiledOut", ArgFlag::Buffer | ArgFlag::Tiled | ArgFlag::DynTile, 1, 300, 4, 0, 0, 0, "", 0}};
        const TileSolverResult result = solveTiling(kernel, 51200);
        QVERIFY2(result.ok, result.error.c_str());
        QCOMPARE(checkTiling(result.tiling, 51200), QString());
        QCOMPARE(result.tiling.tileCount, 10u);
        QCOMPARE(result.tiling.args[0].tileSize, 31u);
        QCOMPARE(result.tiling.args[0].lastTileSize, 21u);
        QCOMPARE(result.tiling.args[1].l1Offset, std::uint64_t(49600));
        QCOMPARE(result.tiling.args[1].l1Bytes, std::uint64_t(10 * 4));  // one entry per tile
    }

    void budgetTooSmallNamesTheMinimum()
    {
        const TileSolverResult result = solveTiling(matAdd(200, 300), 2000);
        QVERIFY(!result.ok);
        QCOMPARE(result.minimumL1, std::uint64_t(2400));
        const QString message = QString::fromStdString(result.error);
        QVERIFY2(message.contains("user kernel MatAdd") && message.contains("needs at least 2400 bytes of L1") &&
                     message.contains("budget is 2000") && message.contains("In1 800"),
                 qPrintable(message));
        // Exactly at the minimum it solves, with single buffers and one-line tiles.
        const TileSolverResult atMinimum = solveTiling(matAdd(200, 300), 2400);
        QVERIFY2(atMinimum.ok, atMinimum.error.c_str());
        QCOMPARE(atMinimum.tiling.args[0].bufferCount, 1u);
        QCOMPARE(atMinimum.tiling.tileCount, 300u);
        QCOMPARE(checkTiling(atMinimum.tiling, 2400), QString());
    }

    void doubleBuffersFallBackOnlyWhenNeeded_data()
    {
        QTest::addColumn<int>("budget");
        QTest::addColumn<unsigned>("buffers");
        QTest::newRow("room for two") << 4800 << 2u;
        QTest::newRow("room for one") << 4799 << 1u;
        QTest::newRow("generous") << 200000 << 2u;
    }
    void doubleBuffersFallBackOnlyWhenNeeded()
    {
        QFETCH(int, budget);
        QFETCH(unsigned, buffers);
        const TileSolverResult result = solveTiling(matAdd(200, 300), std::uint64_t(budget));
        QVERIFY2(result.ok, result.error.c_str());
        QCOMPARE(checkTiling(result.tiling, std::uint64_t(budget)), QString());
        for (const ArgTiling& arg : result.tiling.args)
            QCOMPARE(arg.bufferCount, buffers);
    }

    void constraints_data()
    {
        QTest::addColumn<std::uint32_t>("constraint");
        QTest::addColumn<unsigned>("preferred");
        QTest::addColumn<int>("budget");
        QTest::newRow("even") << ArgConstraint::Even << 0u << 51200;
        QTest::newRow("odd") << ArgConstraint::Odd << 0u << 51200;
        QTest::newRow("multiple of 8") << 0u << 8u << 51200;
        QTest::newRow("multiple of 8, too big: dropped") << 0u << 8u << 20000;
        QTest::newRow("one tile") << ArgConstraint::OnePreferredTile << 0u << 800000;
        // With a preferred size, OBJ_CONSTRAINTS_ONEPREFTILE fixes the tile size to it, even with
        // L1 for much bigger tiles (GreenWaves' HoG processes one cell line per tile that way).
        QTest::newRow("one preferred size") << ArgConstraint::OnePreferredTile << 7u << 800000;
    }
    void constraints()
    {
        QFETCH(std::uint32_t, constraint);
        QFETCH(unsigned, preferred);
        QFETCH(int, budget);
        UserKernel kernel = matAdd(200, 300);
        kernel.args[0].constraints = constraint;
        kernel.args[0].preferredTileSize = preferred;
        const TileSolverResult result = solveTiling(kernel, std::uint64_t(budget));
        QVERIFY2(result.ok, result.error.c_str());
        QCOMPARE(checkTiling(result.tiling, std::uint64_t(budget)), QString());
        const unsigned tile = result.tiling.args[0].tileSize;
        if (constraint & ArgConstraint::Even)
            QCOMPARE(tile % 2, 0u);
        if (constraint & ArgConstraint::Odd)
            QCOMPARE(tile % 2, 1u);
        if ((constraint & ArgConstraint::OnePreferredTile) && preferred == 0)
            QCOMPARE(result.tiling.tileCount, 1u);
        if ((constraint & ArgConstraint::OnePreferredTile) && preferred > 0) {
            QCOMPARE(tile, preferred);
            QCOMPARE(result.tiling.tileCount, (300u + preferred - 1) / preferred);
        }
        // 20000 bytes fit at most 4 double-buffered lines per argument: a multiple of 8 is impossible,
        // so the preference gives way rather than failing.
        if (preferred && budget >= 51200)
            QCOMPARE(tile % preferred, 0u);
    }

    // A preferred size on an input overlapping its neighbours (a strided convolution's, as GreenWaves'
    // generators prefer it in multiples of the stride) applies to the lines each tile advances by: a
    // 3x3 stride-2 input has tiles of 2k + 1 lines, never a multiple of 2 themselves (and with 4
    // preferred, tiles of 4k + 1 lines, not 4k).
    void preferredSizeOfOverlappingTiles()
    {
        UserKernel kernel = conv5x5(1, 1, 64, 61);
        kernel.args[0].tileOverlap = 1;  // 3x3 at stride 2: 61 lines in, 30 out
        kernel.args[2].height = 30;
        kernel.args[2].width = 31;
        kernel.args[0].preferredTileSize = 4;
        // Without the preference this budget's tiles advance by 10 lines.
        const TileSolverResult result = solveTiling(kernel, 3500);
        QVERIFY2(result.ok, result.error.c_str());
        QCOMPARE(checkTiling(result.tiling, 3500), QString());
        const ArgTiling& in = result.tiling.args[0];
        QVERIFY(result.tiling.tileCount > 1);
        QCOMPARE(in.step % 4, 0u);
        QCOMPARE(in.tileSize, in.step + 1);
    }

    // An input read again for every output plane is promoted whole where L1 allows, but not when it is
    // tiled vertically in several tiles: its home layout's lines are whole plane lines, so a tile of it
    // in L1 would not be laid out as the kernel's tile (with its width as the line length).
    void verticalTilesAreNotPromoted()
    {
        UserKernel kernel = conv5x5(2, 20, 40, 30);  // 4,800 B of input
        kernel.orientation = Orientation::Vertical;
        for (const std::uint64_t budget : {6000u, 8000u}) {
            const TileSolverResult result = solveTiling(kernel, budget);
            QVERIFY2(result.ok, result.error.c_str());
            QCOMPARE(checkTiling(result.tiling, budget), QString());
            const ArgTiling& in = result.tiling.args[0];
            QVERIFY(result.tiling.tileCount > 1);
            QVERIFY2(in.residence != ArgResidence::Promoted, qPrintable(QString("at %1 B").arg(budget)));
        }
        // Horizontal tiles of it are plane lines: promoted whole at the same budget.
        kernel.orientation = Orientation::Horizontal;
        const TileSolverResult horizontal = solveTiling(kernel, 8000);
        QVERIFY2(horizontal.ok, horizontal.error.c_str());
        QVERIFY(horizontal.tiling.tileCount > 1);
        QCOMPARE(horizontal.tiling.args[0].residence, ArgResidence::Promoted);
    }

    void oneTileThatCannotFitFails()
    {
        UserKernel kernel = matAdd(200, 300);
        kernel.args[0].constraints = ArgConstraint::OnePreferredTile;
        const TileSolverResult result = solveTiling(kernel, 51200);
        QVERIFY(!result.ok);
        QVERIFY2(QString::fromStdString(result.error).contains("needs at least 720000 bytes"), result.error.c_str());
    }

    void overlapAndRatios()
    {
        const TileSolverResult result = solveTiling(conv5x5(3, 2, 64, 100), 16000);
        QVERIFY2(result.ok, result.error.c_str());
        QCOMPARE(checkTiling(result.tiling, 16000), QString());
        const ArgTiling& in = result.tiling.args[0];
        const ArgTiling& out = result.tiling.args[2];
        QVERIFY(result.tiling.tileCount > 1);
        QCOMPARE(in.step, out.step);                      // one output line per input line
        QCOMPARE(in.tileSize, out.tileSize + 4);          // plus the 5x5 window's overlap
        QCOMPARE(in.lastTileSize, out.lastTileSize + 4);
        // The input is read once per output plane, every tile of every input plane.
        QCOMPARE(in.dmaRead, std::uint64_t(2) * 3 *
                                 ((result.tiling.tileCount - 1) * std::uint64_t(in.tileSize) + in.lastTileSize) * 64 * 2);
        QCOMPARE(out.dmaWrite, std::uint64_t(2) * 60 * 96 * 2);
    }

    void ratioMismatchIsExplained()
    {
        UserKernel kernel = matAdd(200, 300);
        kernel.args[2].height = 200;  // 300 input lines do not map to 200 output lines in whole steps
        const TileSolverResult result = solveTiling(kernel, 51200);
        QVERIFY(!result.ok);
        const QString message = QString::fromStdString(result.error);
        QVERIFY2(message.contains("In1") && message.contains("Out") && message.contains("multiple"), qPrintable(message));
    }

    // OBJ_CONSTRAINTS_DYNAMIC: halving 242 lines to 121 (a resize with one line of overlap) is no
    // whole-number ratio. Each input tile must hold the two input lines around every output line of
    // its output tile, y * 241 / 121 and the next, and the tiles must cover the input.
    void dynamicTilesFollowTheRatio()
    {
        UserKernel kernel = matAdd(322, 242);
        kernel.args.pop_back();
        kernel.args[0].itemSize = kernel.args[1].itemSize = 1;
        kernel.args[0].tileOverlap = 1;
        kernel.args[0].constraints = ArgConstraint::Dynamic;
        kernel.args[1] = {"Out", kOutDb, 161, 121, 1, 0, 0, 0, "Out", 0};
        for (const std::uint64_t budget : {40000ull, 4000ull, 51200ull * 8}) {
            const TileSolverResult result = solveTiling(kernel, budget);
            QVERIFY2(result.ok, result.error.c_str());
            QCOMPARE(checkTiling(result.tiling, budget), QString());
            const KernelTiling& tiling = result.tiling;
            const ArgTiling& in = tiling.args[0];
            const ArgTiling& out = tiling.args[1];
            QVERIFY(in.dynamic && !out.dynamic);
            QCOMPARE(tiling.referenceArg(), &out);
            std::uint64_t movedIn = 0;
            unsigned covered = 0;
            for (unsigned t = 0; t < tiling.tileCount; ++t) {
                const unsigned start = in.tileStartAt(t, tiling.tileCount), size = in.tileSizeAt(t, tiling.tileCount);
                QVERIFY(start <= covered);  // no input line skipped
                covered = std::max(covered, start + size);
                QVERIFY(size <= in.tileSize || t + 1 == tiling.tileCount);
                QVERIFY(std::uint64_t(size) * 322 <= in.chunkBytes);
                const unsigned first = out.tileStartAt(t, tiling.tileCount);
                for (unsigned y = first; y < first + out.tileSizeAt(t, tiling.tileCount); ++y) {
                    const unsigned line = y * 241 / 121;
                    QVERIFY2(line >= start && line + 1 < start + size,
                             qPrintable(QString("output line %1 needs input lines %2-%3, tile %4 holds %5-%6")
                                            .arg(y).arg(line).arg(line + 1).arg(t).arg(start).arg(start + size - 1)));
                }
                movedIn += std::uint64_t(size) * 322;
            }
            QCOMPARE(covered, 242u);
            QCOMPARE(in.dmaRead, movedIn);
            QCOMPARE(out.dmaWrite, std::uint64_t(161 * 121));
            if (budget == 40000) {
                // The budget GreenWaves' resize example sets: 24-line output tiles, input tiles of up to 49 lines.
                QCOMPARE(tiling.tileCount, 6u);
                QCOMPARE(out.tileSize, 24u);
                QCOMPARE(in.tileStartAt(1, 6), 47u);
                QCOMPARE(in.tileSize, 49u);
                QCOMPARE(in.lastTileSize, 3u);
            }
        }
        // Without the constraint the ratio is refused, and the message names the way out.
        kernel.args[0].constraints = 0;
        TileSolverResult refused = solveTiling(kernel, 40000);
        QVERIFY(!refused.ok && refused.badKernel);
        QVERIFY2(QString::fromStdString(refused.error).contains("OBJ_CONSTRAINTS_DYNAMIC"), refused.error.c_str());
        // Dynamic tiles vary by a line, so a fixed size cannot be asked of them.
        kernel.args[0].constraints = ArgConstraint::Dynamic | ArgConstraint::Even;
        refused = solveTiling(kernel, 40000);
        QVERIFY(!refused.ok && refused.badKernel);
        QVERIFY2(QString::fromStdString(refused.error).contains("OBJ_CONSTRAINTS_DYNAMIC"), refused.error.c_str());
    }

    // 206 input lines for 200 output lines: 6 lines beyond the whole steps, more than one step, which
    // is refused unless OBJ_CONSTRAINTS_PAD_REM carries them in the last tile or
    // OBJ_CONSTRAINTS_DROP_REM never moves them.
    void remainderLinesPaddedOrDropped()
    {
        UserKernel kernel = matAdd(200, 206);
        kernel.args[2].height = 200;
        QVERIFY(!solveTiling(kernel, 51200).ok);
        kernel.args[0].constraints = kernel.args[1].constraints = ArgConstraint::PadRemainder;
        for (const std::uint64_t budget : {51200ull, 12000ull}) {
            const TileSolverResult padded = solveTiling(kernel, budget);
            QVERIFY2(padded.ok, padded.error.c_str());
            QCOMPARE(checkTiling(padded.tiling, budget, true), QString());
            const ArgTiling& in = padded.tiling.args[0];
            const ArgTiling& out = padded.tiling.args[2];
            QVERIFY(padded.tiling.tileCount > 1);
            QCOMPARE(in.step, out.step);
            QCOMPARE(in.lastTileSize, out.lastTileSize + 6);
            QCOMPARE(in.dmaRead, std::uint64_t(206 * 200 * 4));
            QVERIFY(in.chunkBytes >= std::uint64_t(in.lastTileSize) * 200 * 4);
        }
        kernel.args[0].constraints = kernel.args[1].constraints = ArgConstraint::DropRemainder;
        const TileSolverResult dropped = solveTiling(kernel, 12000);
        QVERIFY2(dropped.ok, dropped.error.c_str());
        QCOMPARE(checkTiling(dropped.tiling, 12000), QString());
        QCOMPARE(dropped.tiling.args[0].extent, 200u);
        QCOMPARE(dropped.tiling.args[0].lastTileSize, dropped.tiling.args[2].lastTileSize);
        QCOMPARE(dropped.tiling.args[0].dmaRead, std::uint64_t(200 * 200 * 4));
    }

    // Two-level tiling (KER_ITER_TILE1 around KER_ITER_TILE0), a matrix product: the first matrix and
    // the result in bands of lines by the outer loop, the second matrix in bands of columns by the
    // inner loop, read again for every outer band unless it is kept whole in L1.
    void twoLevelTiles()
    {
        UserKernel kernel;
        kernel.name = "MatMult";
        kernel.order = {IterationSpace::Tile};
        kernel.outerTiles = true;
        const std::uint32_t padRem = ArgConstraint::PadRemainder;
        kernel.args = {{"M1", kInDb, 48, 200, 4, 0, padRem, 0, "M1", 0},
                       {"M2", kInDb, 150, 48, 4, 0, padRem | ArgConstraint::TileVertical, 0, "M2", 0},
                       {"Out", kOutDb, 150, 200, 4, 0, padRem, 0, "Out", 0}};
        kernel.args[0].outerTiled = kernel.args[2].outerTiled = true;
        const std::uint64_t m1Bytes = 48 * 200 * 4, m2Bytes = 150 * 48 * 4, outBytes = 150 * 200 * 4;
        for (const std::uint64_t budget : {2000ull, 9000ull, 40000ull, 51200ull}) {
            const TileSolverResult result = solveTiling(kernel, budget);
            QVERIFY2(result.ok, result.error.c_str());
            QCOMPARE(checkTiling(result.tiling, budget, true), QString());
            const KernelTiling& tiling = result.tiling;
            QCOMPARE(tiling.loops.front().space, IterationSpace::OuterTile);
            QCOMPARE(tiling.loopCount(IterationSpace::OuterTile), tiling.outerTileCount);
            QCOMPARE(tiling.loopCount(IterationSpace::Tile), tiling.tileCount);
            const ArgTiling &m1 = tiling.args[0], &m2 = tiling.args[1], &out = tiling.args[2];
            QVERIFY(m1.outer && !m2.outer && out.outer);
            QCOMPARE(m2.orientation, Orientation::Vertical);
            // Outer bands of M1 and Out line up; M2's column bands cover its 150 columns.
            QCOMPARE(m1.tileSize, out.tileSize);
            QCOMPARE(std::uint64_t(tiling.outerTileCount - 1) * m1.step + m1.lastTileSize, std::uint64_t(200));
            QCOMPARE(std::uint64_t(tiling.tileCount - 1) * m2.step + m2.lastTileSize, std::uint64_t(150));
            // M1 and Out move once; M2 once per outer band, or once when promoted whole or in one chunk.
            QCOMPARE(m1.dmaRead, m1Bytes);
            QCOMPARE(out.dmaWrite, outBytes);
            const bool m2Once = m2.residence == ArgResidence::Promoted || m2.level < 0;
            QCOMPARE(m2.level < 0, m2.residence != ArgResidence::Streamed || tiling.tileCount == 1);
            const std::uint64_t m2Reads = m2Once ? 1 : tiling.outerTileCount;
            QCOMPARE(m2.dmaRead, m2Reads * m2Bytes);
            if (m2.residence == ArgResidence::Streamed && tiling.tileCount > 1)
                QCOMPARE(m2.level, tiling.loopIndex(IterationSpace::Tile));
            if (tiling.outerTileCount > 1)
                QCOMPARE(m1.level, tiling.loopIndex(IterationSpace::OuterTile));
            qDebug("L1 %llu: %u outer x %u inner tiles, M2 %s, L1 used %llu", (unsigned long long) budget,
                   tiling.outerTileCount, tiling.tileCount,
                   m2.residence == ArgResidence::Promoted ? "promoted" : m2.level < 0 ? "one chunk" : "streamed",
                   (unsigned long long) tiling.l1Bytes);
        }
        // At the smallest budget: one line of M1 and Out, one column of M2, single buffers.
        const TileSolverResult tight = solveTiling(kernel, 2000);
        QCOMPARE(tight.minimumL1, std::uint64_t(48 * 4 + 48 * 4 + 150 * 4));
        const TileSolverResult smallest = solveTiling(kernel, tight.minimumL1);
        QVERIFY2(smallest.ok, smallest.error.c_str());
        QCOMPARE(smallest.tiling.outerTileCount, 200u);
        QCOMPARE(smallest.tiling.tileCount, 150u);
        // A one-tile buffer of the outer loop (a band of partial results) follows the outer tiles.
        UserKernel withBuffer = kernel;
        withBuffer.args.push_back({"Acc", ArgFlag::Buffer | ArgFlag::Tiled | ArgFlag::OneTile, 150, 200, 4, 0, 0, 0, "", 0});
        withBuffer.args.back().outerTiled = true;
        const TileSolverResult buffered = solveTiling(withBuffer, 51200);
        QVERIFY2(buffered.ok, buffered.error.c_str());
        QCOMPARE(checkTiling(buffered.tiling, 51200, true), QString());
        const ArgTiling& acc = buffered.tiling.args[3];
        QVERIFY(acc.outer && acc.tiled);
        QCOMPARE(acc.tileSize, buffered.tiling.args[2].tileSize);
        QCOMPARE(acc.chunkBytes, std::uint64_t(std::max(acc.tileSize, acc.lastTileSize)) * 150 * 4);
        // An argument that says it follows the outer loop in a kernel without one is refused.
        UserKernel flat = kernel;
        flat.outerTiles = false;
        const TileSolverResult refused = solveTiling(flat, 51200);
        QVERIFY(!refused.ok && refused.badKernel);
        QVERIFY2(QString::fromStdString(refused.error).contains("follows the outer tile loop, but the kernel has none"),
                 refused.error.c_str());
    }

    void promotionOfRereadArguments()
    {
        // The 6 filter planes (300 bytes) are needed for every tile: promoted whole when there is room.
        const TileSolverResult roomy = solveTiling(conv5x5(3, 2, 64, 100), 16000);
        QVERIFY2(roomy.ok, roomy.error.c_str());
        const ArgTiling& filter = roomy.tiling.args[1];
        QCOMPARE(filter.residence, ArgResidence::Promoted);
        QCOMPARE(filter.dmaRead, std::uint64_t(6 * 50));
        // At the minimum budget everything streams in single buffers, and the filter is read per tile.
        const TileSolverResult tight = solveTiling(conv5x5(3, 2, 64, 100), roomy.minimumL1);
        QVERIFY2(tight.ok, tight.error.c_str());
        QCOMPARE(checkTiling(tight.tiling, roomy.minimumL1), QString());
        QCOMPARE(tight.tiling.args[1].residence, ArgResidence::Streamed);
        QCOMPARE(tight.tiling.args[1].dmaRead, std::uint64_t(6) * 50 * tight.tiling.tileCount);
    }

    // AT_KERNEL_BUFFER_PROMOTE and AT_KERNEL_PARTIAL_BUFFER_PROMOTE off: the solver keeps the
    // filter streaming, and no chunk spans the input planes, even with room to spare.
    void promotionsCanBeTurnedOff()
    {
        const UserKernel kernel = conv5x5(3, 2, 64, 100);
        const TileSolverResult free = solveTiling(kernel, 16000);
        QVERIFY2(free.ok, free.error.c_str());
        bool acrossAnywhere = false;
        for (const ArgTiling& arg : free.tiling.args)
            acrossAnywhere |= arg.acrossInPlanes;
        QVERIFY(acrossAnywhere || free.tiling.args[1].residence == ArgResidence::Promoted);
        const TileSolverResult streamed = solveTiling(kernel, 16000, UINT64_MAX, {}, {false, false});
        QVERIFY2(streamed.ok, streamed.error.c_str());
        QCOMPARE(checkTiling(streamed.tiling, 16000), QString());
        for (const ArgTiling& arg : streamed.tiling.args) {
            QVERIFY(arg.residence != ArgResidence::Promoted);
            QVERIFY(!arg.acrossInPlanes);
        }
        // The filter is now read again for every tile: more DMA than with promotion.
        QVERIFY(streamed.tiling.args[1].dmaRead > free.tiling.args[1].dmaRead);
        // The options come from the model's generation options.
        GenerationOptions options;
        options.promoteBuffers = false;
        QVERIFY(!promotionPolicy(options).whole && promotionPolicy(options).acrossInputPlanes);
    }

    void verticalTiles()
    {
        UserKernel kernel = matAdd(300, 200);
        kernel.orientation = Orientation::Vertical;
        const TileSolverResult result = solveTiling(kernel, 51200);
        QVERIFY2(result.ok, result.error.c_str());
        QCOMPARE(checkTiling(result.tiling, 51200), QString());
        QCOMPARE(result.tiling.args[0].extent, 300u);      // columns are tiled
        QCOMPARE(result.tiling.args[0].crossExtent, 200u);
        QCOMPARE(result.tiling.tileCount, 30u);
        // A per-argument override turns one argument horizontal.
        kernel.args[2].constraints = ArgConstraint::TileHorizontal;
        kernel.args[2].width = 200;
        kernel.args[2].height = 300;
        const TileSolverResult mixed = solveTiling(kernel, 51200);
        QVERIFY2(mixed.ok, mixed.error.c_str());
        QCOMPARE(mixed.tiling.args[2].orientation, Orientation::Horizontal);
        QCOMPARE(mixed.tiling.args[2].crossExtent, 200u);
    }

    void l3HomedArgumentsStageInL2()
    {
        UserKernel kernel = matAdd(200, 300);
        kernel.args[0].flags |= ArgFlag::L2DoubleBuffer;
        kernel.args[2].flags |= ArgFlag::L2DoubleBuffer;
        const TileSolverResult result = solveTiling(kernel, 51200, 200 * 1024);
        QVERIFY2(result.ok, result.error.c_str());
        QCOMPARE(checkTiling(result.tiling, 51200), QString());
        QVERIFY(result.tiling.args[0].stagedInL2 && !result.tiling.args[1].stagedInL2);
        QCOMPARE(result.tiling.l3Read, std::uint64_t(200 * 300 * 4));
        QCOMPARE(result.tiling.l3Write, std::uint64_t(200 * 300 * 4));
        QCOMPARE(result.tiling.args[0].l2Bytes, 2 * result.tiling.args[0].chunkBytes);
        QCOMPARE(result.tiling.l2Bytes, result.tiling.args[0].l2Bytes + result.tiling.args[2].l2Bytes);
        // With too little L2 for any staging buffers, the error says so.
        const TileSolverResult noL2 = solveTiling(kernel, 51200, 1000);
        QVERIFY(!noL2.ok);
        QVERIFY2(QString::fromStdString(noL2.error).contains("L2 staging"), noL2.error.c_str());
        // An L3-homed argument that is both input and output is refused with the fix.
        kernel.args[1].flags |= ArgFlag::Out | ArgFlag::L2DoubleBuffer;
        const TileSolverResult inOut = solveTiling(kernel, 51200);
        QVERIFY(!inOut.ok);
        QVERIFY2(QString::fromStdString(inOut.error).contains("two arguments"), inOut.error.c_str());
    }

    void carriedOutputPlanes()
    {
        // No output-plane loop: the 3-D output and the 3-D one-tile scratch carry all 4 planes.
        UserKernel kernel;
        kernel.name = "AllPlanes";
        kernel.dimension = 3;
        kernel.inPlanes = 2;
        kernel.outPlanes = 4;
        kernel.width = 16;
        kernel.height = 40;
        kernel.order = {IterationSpace::Tile, IterationSpace::InPlane};
        kernel.args = {{"In", kInDb | ArgFlag::ThreeD, 16, 40, 2, 0, 0, 0, "In", 0},
                       {"Acc", ArgFlag::Buffer | ArgFlag::Tiled | ArgFlag::OneTile | ArgFlag::ThreeD, 16, 40, 4, 0, 0, 0, "", 0},
                       {"Out", kOutDb | ArgFlag::ThreeD, 16, 40, 2, 0, 0, 0, "Out", 0}};
        const TileSolverResult result = solveTiling(kernel, 4000);
        QVERIFY2(result.ok, result.error.c_str());
        QCOMPARE(checkTiling(result.tiling, 4000), QString());
        const ArgTiling& acc = result.tiling.args[1];
        const ArgTiling& out = result.tiling.args[2];
        QVERIFY(out.carriesOutPlanes && acc.carriesOutPlanes);
        QCOMPARE(out.planesPerChunk, 4u);
        QCOMPARE(acc.l1Bytes, std::uint64_t(std::max(acc.tileSize, acc.lastTileSize)) * 16 * 4 * 4);
        QCOMPARE(out.dmaWrite, std::uint64_t(4 * 16 * 40 * 2));  // every plane written once
        // Homed in L3 as well: the chunk of all planes stages in L2 (two buffers) and goes to L3
        // once per plane and tile; a staging limit trades tile size for staging room.
        kernel.args[2].flags |= ArgFlag::L2DoubleBuffer;
        const TileSolverResult staged = solveTiling(kernel, 4000);
        QVERIFY2(staged.ok, staged.error.c_str());
        const ArgTiling& stagedOut = staged.tiling.args[2];
        QVERIFY(stagedOut.stagedInL2 && stagedOut.carriesOutPlanes);
        QCOMPARE(stagedOut.l2Bytes, 2 * stagedOut.chunkBytes);
        QCOMPARE(stagedOut.l3Write, std::uint64_t(4 * 16 * 40 * 2));
        kernel.l2StagingLimit = stagedOut.l2Bytes / 2;
        const TileSolverResult limited = solveTiling(kernel, 4000);
        QVERIFY2(limited.ok, limited.error.c_str());
        QVERIFY(limited.tiling.l2Bytes <= kernel.l2StagingLimit);
        QVERIFY(limited.tiling.tileCount > staged.tiling.tileCount);
    }

    // KerArgPad: each L1 buffer of a double-buffered input has its room before and after, counted
    // in the L1 used and never promoted away, even where promotion would pay.
    void roomAroundBuffers()
    {
        UserKernel kernel = matAdd(1, 3000);
        kernel.args[0].itemSize = kernel.args[1].itemSize = kernel.args[2].itemSize = 2;
        kernel.args[0].roomBefore = 19;  // items
        kernel.args[0].roomAfter = 3;
        const TileSolverResult result = solveTiling(kernel, 4000);
        QVERIFY2(result.ok, result.error.c_str());
        QCOMPARE(checkTiling(result.tiling, 4000), QString());
        const ArgTiling& in = result.tiling.args[0];
        QCOMPARE(in.residence, ArgResidence::Streamed);
        QCOMPARE(in.bufferCount, 2u);
        QCOMPARE(in.roomBefore, std::uint64_t(38));
        QCOMPARE(in.roomAfter, std::uint64_t(6));
        QCOMPARE(in.bufferStride(), in.chunkBytes + 44);
        QCOMPARE(in.l1Bytes, 2 * in.bufferStride());
        // The room moves no bytes: the input is read once, sample for sample.
        QCOMPARE(in.dmaRead, std::uint64_t(6000));
        // The smallest budget counts the room too: one buffer of one line plus 44 bytes.
        const TileSolverResult tight = solveTiling(kernel, 40);
        QVERIFY(!tight.ok);
        QCOMPARE(tight.minimumL1, std::uint64_t((2 + 44 + 2) + (2 + 2) + (2 + 2)));  // each aligned to 4
        // A whole-argument promotion would break the room: with plenty of L1 the input still streams.
        UserKernel reread = conv5x5(3, 2, 64, 100);
        reread.args[1].roomBefore = 4;
        const TileSolverResult roomy = solveTiling(reread, 16000);
        QVERIFY2(roomy.ok, roomy.error.c_str());
        QCOMPARE(roomy.tiling.args[1].residence, ArgResidence::Streamed);
        QCOMPARE(checkTiling(roomy.tiling, 16000), QString());
    }

    // O_BUFF with O_IN / O_OUT (OBJ_BUFFER_IN_NTILED ...): the whole argument sits in L1 for the
    // kernel's run, read once before the loops and written once after them, even where streaming
    // it would take less L1.
    void loadedBuffersAreWholeInL1()
    {
        UserKernel kernel = conv5x5(3, 2, 64, 100);
        kernel.args[1].flags = ArgFlag::In | ArgFlag::Buffer | ArgFlag::FourD;
        const TileSolverResult tight = solveTiling(kernel, 64);
        QVERIFY(!tight.ok);
        const TileSolverResult result = solveTiling(kernel, tight.minimumL1);
        QVERIFY2(result.ok, result.error.c_str());
        QCOMPARE(checkTiling(result.tiling, tight.minimumL1), QString());
        const ArgTiling& filter = result.tiling.args[1];
        QCOMPARE(filter.residence, ArgResidence::Promoted);
        QCOMPARE(filter.l1Bytes, std::uint64_t(6 * 50));
        QCOMPARE(filter.dmaRead, std::uint64_t(6 * 50));
    }

    // A tiled O_BUFF input (OBJ_BUFFER_IN, as GreenWaves' linear layers keep their input) is in L1
    // whole, read once, while the other arguments are tiled along it; a 3-D input that varies along
    // the output planes only (their biases) is read once per output plane.
    void tiledLoadedBuffersAndInputsPerOutputPlane()
    {
        UserKernel kernel = matAdd(1, 300);
        kernel.args[0].flags = ArgFlag::In | ArgFlag::Buffer | ArgFlag::Tiled;
        kernel.args[2].flags = ArgFlag::Out | ArgFlag::Buffer | ArgFlag::Tiled;
        const TileSolverResult small = solveTiling(kernel, 3000);
        QVERIFY2(small.ok, small.error.c_str());
        QCOMPARE(checkTiling(small.tiling, 3000), QString());
        const ArgTiling& whole = small.tiling.args[0];
        QCOMPARE(whole.residence, ArgResidence::Promoted);
        QVERIFY(whole.tiled);
        QCOMPARE(whole.l1Bytes, std::uint64_t(300 * 4));
        QCOMPARE(whole.dmaRead, std::uint64_t(300 * 4));
        QVERIFY(small.tiling.tileCount > 1);  // In2 does not fit whole beside them
        QCOMPARE(small.tiling.args[1].dmaRead, std::uint64_t(300 * 4));
        const ArgTiling& written = small.tiling.args[2];
        QCOMPARE(written.residence, ArgResidence::Promoted);
        QVERIFY(written.tiled);
        QCOMPARE(written.dmaWrite, std::uint64_t(300 * 4));

        UserKernel conv = conv5x5(3, 4, 24, 20);
        KernelArgument bias{"Bias", ArgFlag::In | ArgFlag::DoubleBuffer | ArgFlag::ThreeD, 1, 1, 2, 0, 0, 0, "Bias", 0};
        bias.planePerOutput = true;
        conv.args.push_back(bias);
        for (const std::uint64_t budget : {std::uint64_t(900), std::uint64_t(51200)}) {
            const TileSolverResult solved = solveTiling(conv, budget);
            QVERIFY2(solved.ok, solved.error.c_str());
            QCOMPARE(checkTiling(solved.tiling, budget), QString());
            const ArgTiling& b = solved.tiling.args[3];
            QVERIFY(b.usesOutPlane && !b.usesInPlane);
            QCOMPARE(b.planeCount, 4u);
            QCOMPARE(b.dmaRead, std::uint64_t(4 * 2));  // one item per output plane, once
        }
    }

    // A parametric output-plane space (IterParSpace, its chunk size told to the kernels): the solver runs
    // it in chunks of several planes, which read the input once per chunk instead of once per plane,
    // and counts the last, smaller chunk's bytes exactly.
    void outputPlaneChunks_data()
    {
        QTest::addColumn<unsigned>("budget");
        QTest::addColumn<unsigned>("chunk");
        QTest::addColumn<unsigned>("lastChunk");
        QTest::newRow("roomy: one chunk") << 64000u << 20u << 20u;
        QTest::newRow("8 + 8 + 4") << 9400u << 8u << 4u;
        // Double buffers fit here only one plane at a time; single buffers of 2 planes are estimated
        // cheaper (two cores busy), so they win although the arguments are declared double-buffered.
        QTest::newRow("tight: 2 at a time") << 1100u << 2u << 2u;
    }
    void outputPlaneChunks()
    {
        QFETCH(unsigned, budget);
        QFETCH(unsigned, chunk);
        QFETCH(unsigned, lastChunk);
        UserKernel kernel = conv5x5(3, 20, 40, 30);
        kernel.chunkablePlanes = IterationSpace::OutPlane;
        kernel.chunkDivider = 8;
        const TileSolverResult result = solveTiling(kernel, budget);
        QVERIFY2(result.ok, result.error.c_str());
        const KernelTiling& tiling = result.tiling;
        QCOMPARE(checkTiling(tiling, budget), QString());
        const LoopLevel& planes = tiling.loops[std::size_t(tiling.loopIndex(IterationSpace::OutPlane))];
        QCOMPARE(planes.planes, 20u);
        QCOMPARE(planes.chunk, chunk);
        QCOMPARE(planes.lastChunk(), lastChunk);
        QCOMPARE(planes.count, (20 + chunk - 1) / chunk);
        // Every output plane written once, the last chunk with its own planes only.
        const ArgTiling& out = tiling.args[2];
        QCOMPARE(out.chunkPlanes, chunk);
        QCOMPARE(out.dmaWrite, std::uint64_t(20) * 36 * 26 * 2);
        // The input (3 planes, 4 lines of overlap per tile) read once per chunk of output planes.
        const ArgTiling& in = tiling.args[0];
        QCOMPARE(in.chunkPlanes, 1u);
        std::uint64_t inputLines = 0;
        for (unsigned t = 0; t < tiling.tileCount; ++t)
            inputLines += in.tileSizeAt(t, tiling.tileCount);
        if (in.residence == ArgResidence::Streamed)
            QCOMPARE(in.dmaRead, inputLines * 40 * 2 * 3 * planes.count);
        // The filters: the chunk's output planes of one input plane, a row of input planes apart.
        const ArgTiling& filter = tiling.args[1];
        if (filter.residence == ArgResidence::Streamed && !filter.acrossInPlanes)
            QCOMPARE(filter.chunkPlaneStride, std::uint64_t(3) * 50);
    }

    // Chunks of several planes are not tried when an argument following the loop has padding lines the
    // copy zeroes (its home lines are copied one plane at a time), but are when its kernel pads it
    // itself (the chunk holds home lines only); nor without a chunkable space.
    void planeChunksNeedPlainArguments()
    {
        UserKernel kernel = conv5x5(6, 2, 40, 30);
        kernel.order = {IterationSpace::InPlane, IterationSpace::Tile};
        kernel.args.resize(1);
        kernel.args[0].tileOverlap = 0;
        kernel.chunkablePlanes = IterationSpace::InPlane;
        kernel.chunkDivider = 8;
        const TileSolverResult plain = solveTiling(kernel, 64000);
        QVERIFY2(plain.ok, plain.error.c_str());
        QCOMPARE(plain.tiling.loops[std::size_t(plain.tiling.loopIndex(IterationSpace::InPlane))].chunk, 6u);
        kernel.args[0].padBefore = 1;
        const TileSolverResult padded = solveTiling(kernel, 64000);
        QVERIFY2(padded.ok, padded.error.c_str());
        QCOMPARE(padded.tiling.loops[std::size_t(padded.tiling.loopIndex(IterationSpace::InPlane))].chunk, 1u);
        QCOMPARE(padded.tiling.loops[std::size_t(padded.tiling.loopIndex(IterationSpace::InPlane))].count, 6u);
        kernel.args[0].kernelPadsItself = true;
        kernel.args[0].kernelPad = {0, 0, 1, 0};
        const TileSolverResult padsItself = solveTiling(kernel, 64000);
        QVERIFY2(padsItself.ok, padsItself.error.c_str());
        QCOMPARE(padsItself.tiling.loops[std::size_t(padsItself.tiling.loopIndex(IterationSpace::InPlane))].chunk, 6u);
        // Its home lines only are moved: 30 lines of each of the 6 planes.
        QCOMPARE(padsItself.tiling.args[0].dmaRead, std::uint64_t(6) * 30 * 40 * 2);
        kernel.args[0].kernelPadsItself = false;
        kernel.args[0].padBefore = 0;
        kernel.chunkablePlanes = IterationSpace::Tile;
        const TileSolverResult fixed = solveTiling(kernel, 64000);
        QVERIFY2(fixed.ok, fixed.error.c_str());
        QVERIFY(fixed.tiling.chunkedLoop() == nullptr);
    }

    void overlapLargerThanThePlaneIsRefused()
    {
        UserKernel kernel = matAdd(8, 4);
        kernel.args[0].tileOverlap = 4;
        const TileSolverResult result = solveTiling(kernel, 51200);
        QVERIFY(!result.ok);
        QVERIFY2(QString::fromStdString(result.error).contains("overlap"), result.error.c_str());
    }
};

QTEST_APPLESS_MAIN(TestTileSolver)
#include "tst_tile_solver.moc"
