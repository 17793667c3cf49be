// ONNX to NVDLA loadables: compiled networks pass the validator, their descriptors carry the values
// NVIDIA's own compiler writes for the same layers (read from its LeNet loadable), and the
// descriptor simulator, running the loadable alone, agrees with the reference interpreter within
// FP16 precision.
#include "base/error.h"
#include "interp/interpreter.h"
#include "ir/builder.h"
#include "nvdla/compile/nvdla_compiler.h"
#include "nvdla/loadable_contents.h"
#include "nvdla/loadable_validator.h"
#include "nvdla/simulator/descriptor_simulator.h"
#include "nvdla/weight_layout.h"
#include "onnx/tensor_proto.h"
#include "session/model_loader.h"
#include "target/nvdla_configs.h"
#include "nvdla_networks.h"
#include "nvdla_samples.h"
#include "test_support.h"
#include "zoo/zoo.h"

#include <QDir>
#include <QTemporaryDir>
#include <QtTest>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstring>
#include <functional>
#include <map>
#include <set>
#include <tuple>

using namespace tessera;
using namespace tessera::nvdla;

namespace {

// Largest |a - b| over the elements, relative to the largest |b| (at least 1e-3).
double relativeError(const TensorData& actual, const TensorData& expected)
{
    const std::vector<float> a = actual.toFloats(), b = expected.toFloats();
    if (a.size() != b.size())
        return 1e9;
    double worst = 0, scale = 1e-3;
    for (std::size_t i = 0; i < a.size(); ++i) {
        worst = std::max(worst, double(std::abs(a[i] - b[i])));
        scale = std::max(scale, double(std::abs(b[i])));
    }
    return worst / scale;
}

double simulateAndCompare(const Graph& graph, const NvdlaCompilation& compiled, std::uint32_t seed)
{
    const Tensor& input = graph.tensor(graph.inputs[0]);
    const TensorData data = test::randomFloats(input.shape, seed, 0.0f, 1.0f);
    const std::vector<TensorData> expected = Interpreter(graph).run({data});
    const SimulationResult simulated =
        simulateLoadable(readLoadable(compiled.bytes, "compiled"), {data}, target::nvdlaConfig(compiled.config));
    if (simulated.outputs.size() != expected.size())
        return 1e9;
    double worst = 0;
    for (std::size_t k = 0; k < expected.size(); ++k)
        worst = std::max(worst, relativeError(simulated.outputs[k], expected[k]));
    return worst;
}

using test::caffeLenet;
using test::residualBlock;
using test::CliResult;
using test::runCli;

}  // namespace

class TestNvdlaCompile : public QObject {
    Q_OBJECT

private slots:
    // The direct-convolution weight order: within a block of atomic-C channels, row, column, kernel,
    // channel; every weight has its own two bytes and the whole is padded to the CBUF entry.
    void weightLayoutIsABijection_data()
    {
        QTest::addColumn<int>("kernels");
        QTest::addColumn<int>("channels");
        QTest::addColumn<int>("size");
        QTest::addColumn<int>("padded");
        QTest::newRow("conv1 20x1x5x5") << 20 << 1 << 5 << 1024;
        QTest::newRow("conv2 50x20x5x5") << 50 << 20 << 5 << 50048;
        QTest::newRow("ip2 10x500x1x1") << 10 << 500 << 1 << 10112;
        QTest::newRow("33x130x3x3") << 33 << 130 << 3 << 77312;
    }

    void weightLayoutIsABijection()
    {
        QFETCH(int, kernels);
        QFETCH(int, channels);
        QFETCH(int, size);
        QFETCH(int, padded);
        const target::NvdlaConfig& full = target::nvdlaConfig("nv_full");
        const WeightLayout layout = directWeightLayout(unsigned(kernels), unsigned(channels), unsigned(size), unsigned(size),
                                                       2, full.atomicK, full.atomicC, full.cbufEntryBytes);
        QCOMPARE(layout.kernelsPerGroup, 16u);
        QCOMPARE(layout.channelsPerBlock, 64u);
        QCOMPARE(layout.bytes, std::uint64_t(padded));
        QCOMPARE(layout.bytesPerKernel, std::uint64_t(channels) * size * size * 2);
        std::set<std::uint64_t> seen;
        for (int k = 0; k < kernels; ++k)
            for (int c = 0; c < channels; ++c)
                for (int r = 0; r < size; ++r)
                    for (int s = 0; s < size; ++s) {
                        const std::uint64_t at = layout.offsetOf(unsigned(k), unsigned(c), unsigned(r), unsigned(s));
                        QVERIFY(at % 2 == 0);
                        QVERIFY(at + 2 <= layout.bytes);
                        seen.insert(at);
                    }
        QCOMPARE(seen.size(), std::size_t(kernels) * channels * size * size);
        QCOMPARE(*seen.rbegin(), std::uint64_t(kernels) * channels * size * size * 2 - 2);  // dense
        if (channels > 1)
            QCOMPARE(layout.offsetOf(0, 1, 0, 0), std::uint64_t(2));  // channels vary fastest
        QCOMPARE(layout.offsetOf(1, 0, 0, 0), std::uint64_t(std::min(channels, 64)) * 2);  // then kernels
    }

    // NVIDIA's LeNet: one DLA task of 10 operations (4 CONV, 4 SDP with the ReLU fused, 2 PDP) and an
    // EMU Softmax task; descriptors with the values NVIDIA's compiler wrote into its MNIST loadable.
    void lenetHasTheStructureOfNvidiasLoadable()
    {
        const Graph graph = caffeLenet();
        const NvdlaCompilation compiled = compileForNvdla(graph, {});
        const Loadable loadable = readLoadable(compiled.bytes, "lenet");
        QVERIFY2(isValid(validateLoadable(loadable)), formatFindings(validateLoadable(loadable)).c_str());
        QCOMPARE(loadable.tasks.size(), std::size_t(2));
        QCOMPARE(loadable.tasks[0].interface, kInterfaceDla1);
        QCOMPARE(loadable.tasks[1].interface, kInterfaceEmu1);
        const DlaTaskView dla = decodeDlaTask(loadable, loadable.tasks[0]);
        std::map<DlaOp, int> units;
        for (const DlaOperationView& op : dla.operations)
            ++units[op.type];
        QCOMPARE(dla.operations.size(), std::size_t(10));
        QCOMPARE(units[DlaOp::Conv], 4);
        QCOMPARE(units[DlaOp::Sdp], 4);
        QCOMPARE(units[DlaOp::Pdp], 2);
        const EmuTaskView emu = decodeEmuTask(loadable, loadable.tasks[1]);
        QCOMPARE(int(emu.operations.at(0).opType), int(kEmuOpSoftmax));

        // NVIDIA's loadable: conv1 eps 7, weights 1024 B, 50 bytes per kernel, banks 1/1; conv2 eps 6,
        // weights 50048 B, banks 1/2; ip1 (4x4x50 kernel, 500 outputs) eps 4, weights 800000 B,
        // 2 weight banks (ping-pong); ip2 eps 8, weights 10112 B; the input 28x28x1 with line stride
        // 896 and surface stride 25088.
        struct Expected {
            std::size_t op;
            int eps, weightBytes, bytesPerKernel, dataBanks, weightBanks;
        };
        for (const Expected& e : {Expected{0, 7, 1024, 50, 1, 1}, Expected{3, 6, 50048, 1000, 1, 2},
                                  Expected{6, 4, 800000, 1600, 1, 2}, Expected{8, 8, 10112, 1000, 1, 1}}) {
            QCOMPARE(dla.operations[e.op].type, DlaOp::Conv);
            const ConstRecord op = dla.op(e.op), surface = dla.surface(e.op);
            QCOMPARE(op.get("entry_per_slice"), std::int64_t(e.eps));
            QCOMPARE(surface.get("weight_data.size"), std::int64_t(e.weightBytes));
            QCOMPARE(op.get("bytes_per_kernel"), std::int64_t(e.bytesPerKernel));
            QCOMPARE(op.get("data_bank"), std::int64_t(e.dataBanks));
            QCOMPARE(op.get("weight_bank"), std::int64_t(e.weightBanks));
            QCOMPARE(op.get("data_format"), std::int64_t(36));
            QCOMPARE(op.get("out_cvt.scale"), std::int64_t(1));  // the firmware asserts it
        }
        // What the emitter records of each convolution's banks (the studio draws it) is what the
        // descriptors program.
        int recorded = 0;
        for (const EmittedNode& emitted : compiled.emitted)
            for (const ConvolutionBufferUse& use : emitted.convolutionBuffer) {
                const auto conv = std::find_if(emitted.operations.begin(), emitted.operations.end(),
                                               [](const std::string& op) { return op.rfind("CONV ", 0) == 0; });
                QVERIFY(conv != emitted.operations.end());
                const std::size_t index = std::stoul(conv->substr(5));
                QCOMPARE(dla.op(index).get("data_bank"), std::int64_t(use.dataBanks));
                QCOMPARE(dla.op(index).get("weight_bank"), std::int64_t(use.weightBanks));
                QCOMPARE(use.bands, 1u);
                ++recorded;
            }
        QCOMPARE(recorded, 4);
        QCOMPARE(dla.surface(0).get("src_data.line_stride"), std::int64_t(896));
        QCOMPARE(dla.surface(0).get("src_data.surf_stride"), std::int64_t(25088));
        QCOMPARE(dla.op(2).get("pool_width"), std::int64_t(1));  // 2x2 as size - 1
        QCOMPARE(dla.op(2).get("stride_x"), std::int64_t(2));    // the stride itself
        QCOMPARE(dla.op(7).get("x1_op.act"), std::int64_t(1));   // ip1's ReLU in its bias SDP
        QCOMPARE(dla.op(7).get("x1_op.mode"), std::int64_t(1));  // per kernel
        QCOMPARE(loadable.tensorDescs.at(0).strides[1], 896u);
        QCOMPARE(loadable.tensorDescs.at(0).dataFormat, kDataFormatNcxhwx);
        // Relocations: the input's strides in CONV 0's source cube, the output's in the softmax's
        // destination buffer; each names the bound address and the byte offset of the stride in
        // the memory holding the descriptors.
        QCOMPARE(loadable.relocs.size(), std::size_t(4));
        for (const RelocEntry& reloc : loadable.relocs) {
            const MemoryEntry& bound = loadable.memories.at(loadable.addresses.at(reloc.addressId).memId);
            QVERIFY(bound.flags & (kMemoryInput | kMemoryOutput));
            const MemoryEntry& descriptors = loadable.memories.at(reloc.writeId);
            const LoadableBlob* blob = loadable.blob(descriptors.contents.at(0));
            QVERIFY(blob && reloc.offset + 4 <= blob->data.size());
            std::uint32_t value = 0;
            std::memcpy(&value, blob->data.data() + reloc.offset, 4);
            const TensorDesc& tensor = loadable.tensorDescs.at(bound.tensorDescId);
            QCOMPARE(value, tensor.strides[reloc.relocType]);
            QCOMPARE(reloc.interface, bound.flags & kMemoryInput ? kInterfaceDla1 : kInterfaceEmu1);
        }

        QVERIFY(simulateAndCompare(graph, compiled, 11) < 2e-2);
    }

    void networksMatchTheReference_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<double>("width");
        QTest::addColumn<int>("resolution");
        QTest::newRow("mnist") << "mnist" << 1.0 << 224;
        QTest::newRow("lenet5") << "lenet5" << 1.0 << 224;
        // Depthwise convolutions in blocks of 16 channels; the first convolution in bands of rows.
        QTest::newRow("mobilenet_v1 0.25/128") << "mobilenet_v1" << 0.25 << 128;
    }

    void networksMatchTheReference()
    {
        QFETCH(QString, name);
        QFETCH(double, width);
        QFETCH(int, resolution);
        ZooOptions options;
        options.width = width;
        options.resolution = resolution;
        Graph graph = buildZooModel(name.toStdString(), options);
        prepareGraph(graph);
        const NvdlaCompilation compiled = compileForNvdla(graph, {});
        QVERIFY(isValid(validateLoadable(readLoadable(compiled.bytes, "zoo"))));
        const double error = simulateAndCompare(graph, compiled, 5);
        qInfo("%s: largest difference %.5f of the largest output", qPrintable(name), error);
        QVERIFY(error < 2e-2);
        QVERIFY(compiled.reportText().find("scratch memory") != std::string::npos);
    }

    void residualBlockMatchesTheReference()
    {
        const Graph graph = residualBlock();
        const NvdlaCompilation compiled = compileForNvdla(graph, {});
        const Loadable loadable = readLoadable(compiled.bytes, "residual");
        QVERIFY(isValid(validateLoadable(loadable)));
        const DlaTaskView dla = decodeDlaTask(loadable, loadable.tasks.at(0));
        // conv1+SDP (ReLU6 as ReLU and a minimum), conv2+SDP, then one SDP each for the addition
        // (ReLU fused), the scale, the subtraction and the maximum (the clip fused: x2 maximum -1,
        // y minimum 1); PDP.
        QCOMPARE(loadable.tasks.size(), std::size_t(1));
        QCOMPARE(dla.operations.size(), std::size_t(9));
        QCOMPARE(dla.op(7).get("x1_op.alu_type"), std::int64_t(0));
        QCOMPARE(dla.op(7).get("x2_op.alu_operand"), std::int64_t(floatToHalf(-1.0f)));
        QCOMPARE(dla.op(7).get("y_op.alu_type"), std::int64_t(1));
        QCOMPARE(dla.op(1).get("x1_op.act"), std::int64_t(1));
        QCOMPARE(dla.op(1).get("x2_op.alu_type"), std::int64_t(1));  // minimum
        QCOMPARE(dla.op(1).get("x2_op.alu_operand"), std::int64_t(floatToHalf(6.0f)));
        QCOMPARE(dla.op(4).get("x1_op.mode"), std::int64_t(2));  // the skip connection, per point
        QCOMPARE(dla.op(4).get("x1_op.act"), std::int64_t(1));
        QCOMPARE(dla.op(5).get("x1_op.type"), std::int64_t(1));  // multiply, per kernel
        QCOMPARE(dla.op(5).get("x1_op.mode"), std::int64_t(1));
        QCOMPARE(dla.op(6).get("x1_op.mode"), std::int64_t(0));  // subtract a scalar: add -0.25
        QCOMPARE(dla.op(6).get("x1_op.alu_operand"), std::int64_t(floatToHalf(-0.25f)));
        const double error = simulateAndCompare(graph, compiled, 9);
        qInfo("residual block: largest difference %.5f of the largest output", error);
        QVERIFY(error < 2e-2);
    }

    // Sigmoid and Tanh through the SDP's LUT, tables as NVIDIA's compiler writes them for FP16.
    void lookupTablesMatchTheReference()
    {
        const Graph graph = test::lookupNetwork();
        const NvdlaCompilation compiled = compileForNvdla(graph, {});
        const Loadable loadable = readLoadable(compiled.bytes, "lookup");
        QVERIFY(isValid(validateLoadable(loadable)));
        const DlaTaskView dla = decodeDlaTask(loadable, loadable.tasks.at(0));
        QCOMPARE(dla.luts.size(), std::size_t(2));
        QCOMPARE(dla.op(2).get("lut_index"), std::int64_t(0));
        QCOMPARE(dla.op(2).get("y_op.act"), std::int64_t(2));
        const double error = simulateAndCompare(graph, compiled, 19);
        qInfo("sigmoid and tanh: largest difference %.5f of the largest output", error);
        QVERIFY(error < 2e-2);
    }

    // PRelu and LeakyRelu: x1's multiplier in PReLU mode, slopes per channel and per layer.
    void preluMatchesTheReference()
    {
        const Graph graph = test::preluNetwork();
        const NvdlaCompilation compiled = compileForNvdla(graph, {});
        const Loadable loadable = readLoadable(compiled.bytes, "prelu");
        QVERIFY(isValid(validateLoadable(loadable)));
        const DlaTaskView dla = decodeDlaTask(loadable, loadable.tasks.at(0));
        QCOMPARE(dla.op(2).get("x1_op.act"), std::int64_t(3));
        QCOMPARE(dla.op(2).get("x1_op.mode"), std::int64_t(1));  // a slope per channel
        QCOMPARE(dla.op(5).get("x1_op.mode"), std::int64_t(0));  // LeakyRelu: one slope
        QCOMPARE(dla.op(5).get("x1_op.mul_operand"), std::int64_t(std::int16_t(floatToHalf(0.1f))));
        const double error = simulateAndCompare(graph, compiled, 29);
        qInfo("PRelu and LeakyRelu: largest difference %.5f of the largest output", error);
        QVERIFY(error < 2e-2);
    }

    // Average pooling that leaves the padding out of its count: PDP over the whole window, then SDP
    // multiplies the border by window / count.
    void poolingWithoutThePaddingCountMatchesTheReference()
    {
        const Graph graph = test::borderPoolNetwork();
        const NvdlaCompilation compiled = compileForNvdla(graph, {});
        QVERIFY(isValid(validateLoadable(readLoadable(compiled.bytes, "border"))));
        QVERIFY(compiled.reportText().find("exclude-pad-count: pools over the whole 3x3 window") != std::string::npos);
        const double error = simulateAndCompare(graph, compiled, 31);
        qInfo("pooling without the padding in the count: largest difference %.5f of the largest output", error);
        QVERIFY(error < 2e-2);
    }

    // Outputs wider than PDP's line buffer: the unit walks splits of the width itself.
    void widePoolingSplitsTheWidth()
    {
        const Graph graph = test::widePoolNetwork();
        const NvdlaCompilation compiled = compileForNvdla(graph, {});
        const Loadable loadable = readLoadable(compiled.bytes, "wide");
        QVERIFY(isValid(validateLoadable(loadable)));
        const DlaTaskView dla = decodeDlaTask(loadable, loadable.tasks.at(0));
        // Max 2x2/2: 150 outputs, 128 at once: 128 + 22 from 256 + 44 columns.
        QCOMPARE(dla.op(0).get("split_num"), std::int64_t(2));
        QCOMPARE(dla.op(0).get("partial_width_first"), std::int64_t(128));
        QCOMPARE(dla.op(0).get("partial_width_last"), std::int64_t(22));
        QCOMPARE(dla.op(0).get("partial_in_width_first"), std::int64_t(256));
        QCOMPARE(dla.op(0).get("partial_in_width_last"), std::int64_t(44));
        // Average 3x3/1 padded: 32 at once: five splits, three of them middle ones.
        QCOMPARE(dla.op(1).get("split_num"), std::int64_t(5));
        QCOMPARE(dla.op(1).get("partial_width_mid"), std::int64_t(32));
        const double error = simulateAndCompare(graph, compiled, 37);
        qInfo("split poolings: largest difference %.5f of the largest output", error);
        QVERIFY(error < 2e-2);
    }

    // LRN on CDP: the factor from its LUT (LE per power of two of the square sum, LO in steps of 1/64).
    void localResponseNormalizationMatchesTheReference()
    {
        const Graph graph = test::lrnNetwork();
        const NvdlaCompilation compiled = compileForNvdla(graph, {});
        const Loadable loadable = readLoadable(compiled.bytes, "lrn");
        QVERIFY(isValid(validateLoadable(loadable)));
        const DlaTaskView dla = decodeDlaTask(loadable, loadable.tasks.at(0));
        QCOMPARE(dla.operations.at(2).type, DlaOp::Cdp);
        QCOMPARE(dla.op(2).get("local_size"), std::int64_t(5));
        const double error = simulateAndCompare(graph, compiled, 23);
        qInfo("LRN: largest difference %.5f of the largest output", error);
        QVERIFY(error < 2e-2);
    }

    // Rearranging channels on nv_full: DepthToSpace (CRD, its convolution's channels reordered to
    // DCR) as RUBIK's contract; channel shuffles as RUBIK split, BDMA copies of the planes, RUBIK merge.
    void rearrangingChannelsMatchesTheReference()
    {
        const Graph graph = test::rearrangeNetwork();
        const NvdlaCompilation compiled = compileForNvdla(graph, {});
        const Loadable loadable = readLoadable(compiled.bytes, "rearrange");
        const auto findings = validateLoadable(loadable);
        QVERIFY2(isValid(findings), formatFindings(findings).c_str());
        const DlaTaskView dla = decodeDlaTask(loadable, loadable.tasks.at(0));
        std::map<DlaOp, int> units;
        std::vector<std::int64_t> modes;
        for (std::size_t i = 0; i < dla.operations.size(); ++i) {
            ++units[dla.operations[i].type];
            if (dla.operations[i].type == DlaOp::Rubik)
                modes.push_back(dla.op(i).get("mode"));
        }
        QCOMPARE(units[DlaOp::Rubik], 5);
        QCOMPARE(units[DlaOp::Bdma], 2);
        QCOMPARE(modes, (std::vector<std::int64_t>{kRubikContract, kRubikSplit, kRubikMerge, kRubikSplit, kRubikMerge}));
        const std::string report = compiled.reportText();
        QVERIFY(report.find("depth-to-space-order: CRD order made DCR") != std::string::npos);
        QVERIFY(report.find("a shuffle of 3 groups of 16 channels") != std::string::npos);
        const double error = simulateAndCompare(graph, compiled, 41);
        qInfo("DepthToSpace and channel shuffles: largest difference %.5f of the largest output", error);
        QVERIFY(error < 2e-2);
        // Without RUBIK the node and the unit it needs are named.
        NvdlaCompileOptions large;
        large.config = "nv_large";
        try {
            compileForNvdla(graph, large);
            QFAIL("DepthToSpace was compiled for nv_large");
        } catch (const UnsupportedError& error) {
            const std::string what = error.what();
            QVERIFY2(what.find("'pixel_shuffle' (DepthToSpace): DepthToSpace needs RUBIK's contract mode, absent on "
                               "nv_large") != std::string::npos,
                     what.c_str());
            QVERIFY2(what.find("needs RUBIK and BDMA, absent on nv_large") != std::string::npos, what.c_str());
        }
    }

    // ShuffleNet v2's 58-channel branches: a Split at a memory atom shares its input's surface; a
    // Concat and a Split at channel 22 or 58 are copies through planes (RUBIK split and merge).
    void unalignedConcatAndSplitAreCopiedThroughPlanes()
    {
        const Graph graph = test::shuffleUnitNetwork();
        const NvdlaCompilation compiled = compileForNvdla(graph, {});
        const auto findings = validateLoadable(readLoadable(compiled.bytes, "shuffle"));
        QVERIFY2(isValid(findings), formatFindings(findings).c_str());
        std::map<std::string, std::string> units;
        for (const NodeMapping& m : compiled.mapping.nodes)
            units[m.node] = m.units;
        QCOMPARE(units["stem_split"], std::string("view"));
        QCOMPARE(units["join"], std::string("RUBIK"));
        QCOMPARE(units["halves"], std::string("RUBIK"));
        QCOMPARE(units["unit_join"], std::string("RUBIK"));
        const double error = simulateAndCompare(graph, compiled, 47);
        qInfo("ShuffleNet v2 unit: largest difference %.5f of the largest output", error);
        QVERIFY(error < 2e-2);
        NvdlaCompileOptions large;
        large.config = "nv_large";
        try {
            compileForNvdla(graph, large);
            QFAIL("an unaligned Concat was compiled for nv_large");
        } catch (const UnsupportedError& error) {
            QVERIFY2(std::string(error.what()).find("node 'join' (Concat): input 'wide_relu' starts at channel 22, not at a "
                                                    "memory atom of 16 channels; a copy needs RUBIK, absent on "
                                                    "nv_large") != std::string::npos,
                     error.what());
        }
    }

    // A kernel group that does not fit the CBUF beside a kernel height of input lines: convolutions
    // over slices of whole atoms of input channels (views of the input's surface), results added.
    void wideConvolutionsSplitOverInputChannels()
    {
        const Graph graph = test::wideChannelsNetwork();
        const NvdlaCompilation compiled = compileForNvdla(graph, {});
        const auto findings = validateLoadable(readLoadable(compiled.bytes, "wide"));
        QVERIFY2(isValid(findings), formatFindings(findings).c_str());
        const std::string report = compiled.reportText();
        QVERIFY2(report.find("split into 2 convolutions over at most 1568 input channels") != std::string::npos,
                 report.c_str());
        QVERIFY2(report.find("split into 3 convolutions over at most 960 input channels") != std::string::npos,
                 report.c_str());
        const double error = simulateAndCompare(graph, compiled, 43);
        qInfo("convolutions split over input channels: largest difference %.5f of the largest output", error);
        QVERIFY(error < 2e-2);
    }

    // What the firmware asserts of BDMA and RUBIK, broken one field at a time: the validator names
    // the field, and the simulator refuses the operation rather than move the wrong bytes.
    void brokenDataMovementIsNamed()
    {
        const NvdlaCompilation compiled = compileForNvdla(test::rearrangeNetwork(), {});
        const Loadable good = readLoadable(compiled.bytes, "rearrange");
        const DlaTaskView view = decodeDlaTask(good, good.tasks.at(0));
        int bdma = -1, merge = -1;
        for (std::size_t i = 0; i < view.operations.size(); ++i) {
            if (view.operations[i].type == DlaOp::Bdma && bdma < 0)
                bdma = int(i);
            if (view.operations[i].type == DlaOp::Rubik && view.op(i).get("mode") == kRubikMerge && merge < 0)
                merge = int(i);
        }
        QVERIFY(bdma >= 0 && merge >= 0);
        using Breaker = std::function<void(Loadable&)>;
        const std::vector<std::tuple<Breaker, std::string, std::string>> cases = {
            {[&](Loadable& l) { testing::surface(l, bdma, DlaOp::Bdma).set("transfers[0].line_size", 48); },
             "transfers[0].line_size", "not a positive multiple of 32"},
            {[&](Loadable& l) { testing::surface(l, bdma, DlaOp::Bdma).set("transfers[1].line_repeat", 0); },
             "transfers[1].line_repeat", "1..8192"},
            {[&](Loadable& l) { testing::surface(l, bdma, DlaOp::Bdma).set("transfers[0].destination_line", 16); },
             "transfers[0].destination_line", "less than line_size"},
            {[&](Loadable& l) { testing::surface(l, merge, DlaOp::Rubik).set("src_data.plane_stride", 0); },
             "src_data.plane_stride", "asserts a merge's plane stride"},
            {[&](Loadable& l) { testing::surface(l, merge, DlaOp::Rubik).set("dst_data.line_stride", 40); },
             "dst_data.line_stride", "not a multiple of 32"},
            {[&](Loadable& l) { testing::operation(l, merge, DlaOp::Rubik).set("mode", 3); },
             "mode", "not contract (0), split (1) or merge (2)"},
        };
        const std::vector<TensorData> input = {test::randomFloats({1, 8, 6, 6}, 3, 0.0f, 1.0f)};
        for (const auto& [breaker, where, message] : cases) {
            Loadable broken = good;
            breaker(broken);
            const auto findings = validateLoadable(broken);
            QVERIFY2(testing::hasFinding(findings, where, message), formatFindings(findings).c_str());
            try {
                simulateLoadable(broken, input, target::nvdlaConfig("nv_full"));
                QFAIL(("the simulator ran a loadable with a broken " + where).c_str());
            } catch (const ModelError&) {
            }
        }
    }

    // Groups of whole atoms split one CONV per group; a depthwise convolution of 40 channels splits in
    // blocks of 16, 16 and 8 channels.
    void groupedConvolutionsMatchTheReference()
    {
        GraphBuilder builder("grouped", 13);
        TensorId x = builder.input("x", DType::Float32, {1, 32, 6, 6});
        x = builder.op("Conv", {x, builder.constant("gw", test::randomFloats({64, 16, 3, 3}, 31, -0.2f, 0.2f)),
                                builder.constant("gb", test::randomFloats({64}, 32, -0.1f, 0.1f))},
                       {{"group", Attribute::ofInt(2)}, {"pads", Attribute::ofInts({1, 1, 1, 1})}}, "grouped");
        x = builder.op("Conv", {x, builder.constant("pw", test::randomFloats({40, 64, 1, 1}, 33, -0.2f, 0.2f))}, {}, "pointwise");
        x = builder.op("Conv", {x, builder.constant("dw", test::randomFloats({40, 1, 3, 3}, 34, -0.5f, 0.5f)),
                                builder.constant("db", test::randomFloats({40}, 35, -0.1f, 0.1f))},
                       {{"group", Attribute::ofInt(40)}, {"strides", Attribute::ofInts({2, 2})},
                        {"pads", Attribute::ofInts({1, 1, 1, 1})}},
                       "depthwise");
        builder.output(x);
        Graph graph = builder.finish();
        prepareGraph(graph);
        const NvdlaCompilation compiled = compileForNvdla(graph, {});
        const Loadable loadable = readLoadable(compiled.bytes, "grouped");
        QVERIFY(isValid(validateLoadable(loadable)));
        // 2 groups + 1 pointwise + 3 depthwise blocks, each a CONV and its SDP.
        QCOMPARE(decodeDlaTask(loadable, loadable.tasks.at(0)).operations.size(), std::size_t(12));
        const double error = simulateAndCompare(graph, compiled, 13);
        qInfo("grouped and depthwise: largest difference %.5f of the largest output", error);
        QVERIFY(error < 2e-2);

        GraphBuilder odd("odd_groups", 13);
        const TensorId y = odd.input("y", DType::Float32, {1, 12, 4, 4});
        odd.output(odd.op("Conv", {y, odd.constant("w", test::randomFloats({12, 4, 1, 1}, 1))},
                          {{"group", Attribute::ofInt(3)}}, "odd"));
        Graph oddGraph = odd.finish();
        prepareGraph(oddGraph);
        try {
            compileForNvdla(oddGraph, {});
            QFAIL("groups of 4 channels were compiled");
        } catch (const UnsupportedError& error) {
            QVERIFY2(std::string(error.what()).find("the groups do not start at a memory atom of 16 channels") !=
                         std::string::npos,
                     error.what());
        }
    }

    // SqueezeNet's fire modules: the expand convolutions (and a pooling branch) write into one
    // surface at their channel offsets; the Concat itself costs nothing.
    void concatWritesIntoOneSurface()
    {
        GraphBuilder builder("fire", 13);
        const auto conv = [&](TensorId in, std::int64_t k, std::int64_t c, std::int64_t size, const std::string& name,
                              std::uint32_t seed) { return test::convRelu(builder, in, k, c, size, name, seed); };
        TensorId x = builder.input("x", DType::Float32, {1, 16, 12, 12});
        TensorId squeeze = conv(x, 16, 16, 1, "fire1_squeeze", 41);
        x = builder.op("Concat", {conv(squeeze, 32, 16, 1, "fire1_e1", 43), conv(squeeze, 32, 16, 3, "fire1_e3", 45)},
                       {{"axis", Attribute::ofInt(1)}}, "fire1_concat");
        x = builder.op("MaxPool", {x}, {{"kernel_shape", Attribute::ofInts({2, 2})}, {"strides", Attribute::ofInts({2, 2})}},
                       "pool1");
        squeeze = conv(x, 16, 64, 1, "fire2_squeeze", 47);
        const TensorId pooled = builder.op(
            "AveragePool", {squeeze},
            {{"kernel_shape", Attribute::ofInts({3, 3})}, {"pads", Attribute::ofInts({1, 1, 1, 1})},
             {"count_include_pad", Attribute::ofInt(1)}},
            "fire2_pool");
        x = builder.op("Concat", {conv(squeeze, 16, 16, 1, "fire2_e1", 49), pooled}, {{"axis", Attribute::ofInt(1)}},
                       "fire2_concat");
        x = builder.op("GlobalAveragePool", {x}, {}, "gap");
        x = builder.op("Flatten", {x}, {}, "flatten");
        x = builder.op("Gemm", {x, builder.constant("fc_w", test::randomFloats({10, 32}, 51, -0.3f, 0.3f))},
                       {{"transB", Attribute::ofInt(1)}}, "fc");
        builder.output(builder.op("Softmax", {x}, {{"axis", Attribute::ofInt(1)}}, "prob"));
        Graph graph = builder.finish();
        prepareGraph(graph);
        const NvdlaCompilation compiled = compileForNvdla(graph, {});
        QVERIFY(compiled.reportText().find("the producers write into one surface") != std::string::npos);
        const Loadable loadable = readLoadable(compiled.bytes, "fire");
        QVERIFY(isValid(validateLoadable(loadable)));
        const DlaTaskView dla = decodeDlaTask(loadable, loadable.tasks.at(0));
        // fire1_e3 writes channels 32..63: the second surface of 16-channel groups, 2 further on.
        bool sliced = false;
        for (std::size_t i = 0; i < dla.operations.size(); ++i)
            if (dla.operations[i].type == DlaOp::Sdp && dla.surface(i).get("dst_data.offset") != 0)
                sliced = sliced || dla.surface(i).get("dst_data.offset") == 2 * dla.surface(i).get("dst_data.surf_stride");
        QVERIFY(sliced);
        const double error = simulateAndCompare(graph, compiled, 17);
        qInfo("fire modules: largest difference %.5f of the largest output", error);
        QVERIFY(error < 2e-2);

        GraphBuilder odd("odd_concat", 13);
        const TensorId y = odd.input("y", DType::Float32, {1, 8, 4, 4});
        const TensorId a = odd.op("Relu", {y}, {}, "a");
        const TensorId b = odd.op("Relu", {odd.op("Relu", {y}, {}, "b0")}, {}, "b");
        odd.output(odd.op("Concat", {a, b}, {{"axis", Attribute::ofInt(1)}}, "joined"));
        Graph oddGraph = odd.finish();
        prepareGraph(oddGraph);
        // On nv_full RUBIK copies such a Concat through planes; without RUBIK it is refused.
        const NvdlaCompilation copied = compileForNvdla(oddGraph, {});
        QVERIFY(copied.mapping.text().find("copied: RUBIK splits each input into planes") != std::string::npos);
        QVERIFY(simulateAndCompare(oddGraph, copied, 19) < 2e-2);
        NvdlaCompileOptions large;
        large.config = "nv_large";
        try {
            compileForNvdla(oddGraph, large);
            QFAIL("a Concat at channel 8 was compiled for nv_large");
        } catch (const UnsupportedError& error) {
            QVERIFY2(std::string(error.what()).find("starts at channel 8, not at a memory atom of 16 channels; a copy "
                                                    "needs RUBIK, absent on nv_large") != std::string::npos,
                     error.what());
        }
    }

    // ONNX's own backend node tests of the operators the mapping claims: each either compiles to a
    // loadable whose simulation gives the test's expected outputs (FP16 precision), or is refused
    // with a reason; none compiles to a wrong result.
    void onnxNodeTestsMatchOrAreRefused()
    {
        const QStringList prefixes = {"test_conv", "test_gemm", "test_relu", "test_clip", "test_add", "test_mul",
                                      "test_sub", "test_max", "test_min", "test_maxpool", "test_averagepool",
                                      "test_globalaveragepool", "test_globalmaxpool", "test_batchnorm", "test_softmax",
                                      "test_concat", "test_flatten", "test_reshape", "test_matmul", "test_lrn",
                                      "test_sigmoid", "test_tanh", "test_prelu", "test_leakyrelu"};
        QDir root(TESSERA_ONNX_TESTDATA "/node");
        int compiled = 0, refused = 0, wrong = 0;
        QStringList matched;
        for (const QString& name : root.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
            if (std::none_of(prefixes.begin(), prefixes.end(), [&](const QString& p) { return name.startsWith(p); }))
                continue;
            const std::string dir = root.filePath(name).toStdString();
            Graph graph;
            std::vector<TensorData> inputs, expected;
            try {
                graph = loadModel(dir + "/model.onnx");
                for (std::size_t k = 0; k < graph.inputs.size(); ++k)
                    inputs.push_back(readTensorFileAs(fmt::format("{}/test_data_set_0/input_{}.pb", dir, k), DType::Float32));
                for (std::size_t k = 0; k < graph.outputs.size(); ++k)
                    expected.push_back(readTensorFileAs(fmt::format("{}/test_data_set_0/output_{}.pb", dir, k), DType::Float32));
            } catch (const Error&) {
                continue;  // not a float model the importer takes
            }
            NvdlaCompilation result;
            try {
                result = compileForNvdla(graph, {});
            } catch (const Error&) {
                ++refused;
                continue;
            }
            ++compiled;
            const SimulationResult simulated =
                simulateLoadable(readLoadable(result.bytes, name.toStdString()), inputs, target::nvdlaConfig("nv_full"));
            double error = simulated.outputs.size() == expected.size() ? 0.0 : 1e9;
            for (std::size_t k = 0; k < expected.size() && k < simulated.outputs.size(); ++k)
                error = std::max(error, relativeError(simulated.outputs[k], expected[k]));
            if (error > 1e-2) {
                ++wrong;
                qWarning("%s: largest difference %.4f of the largest output", qPrintable(name), error);
            } else {
                matched << name;
            }
        }
        qInfo("ONNX node tests: %d compiled and match the test data, %d refused, %d wrong", compiled - wrong, refused, wrong);
        qInfo("%s", qPrintable(matched.join(" ")));
        QCOMPARE(wrong, 0);
        QVERIFY(compiled - wrong >= 24);  // 24 of the 149 today (most others have batch 2 or more)
    }

    void unsupportedInputsAreRefusedWithTheNode()
    {
        const Graph graph = caffeLenet();
        NvdlaCompileOptions small;
        small.config = "nv_small";
        small.precision = target::NvdlaPrecision::Fp16;
        try {
            compileForNvdla(graph, small);
            QFAIL("FP16 on nv_small was compiled");
        } catch (const UnsupportedError& error) {
            QVERIFY(std::string(error.what()).find("nv_small does not run fp16") != std::string::npos);
        }
        GraphBuilder builder("gated", 13);
        const TensorId x = builder.input("x", DType::Float32, {1, 4, 8, 8});
        builder.output(builder.op("Transpose", {builder.op("Relu", {x}, {}, "relu")},
                                  {{"perm", Attribute::ofInts({0, 2, 3, 1})}}, "shuffle"));
        Graph transposed = builder.finish();
        prepareGraph(transposed);
        try {
            compileForNvdla(transposed, {});
            QFAIL("a Transpose was compiled");
        } catch (const UnsupportedError& error) {
            QVERIFY2(std::string(error.what()).find("node 'shuffle' (Transpose): no NVDLA unit") != std::string::npos,
                     error.what());
        }
    }

    void commandLine()
    {
        QTemporaryDir dir;
        const QString model = QString(TESSERA_SOURCE_DIR) + "/resources/samples/mnist.onnx";
        const QString input = QString(TESSERA_SOURCE_DIR) + "/resources/samples/mnist_input_0.pb";
        const QString out = dir.filePath("nvdla");
        const CliResult compiled = runCli({"compile", model, "--target", "nvdla", "--config", "nv_full", "-o", out});
        QCOMPARE(compiled.exitCode, 0);
        QVERIFY2(compiled.out.contains("NVDLA nv_full fp16: 2 tasks, 8 DLA operations, 1 EMU operations"),
                 qPrintable(compiled.out));
        QVERIFY(QFile::exists(out + "/model.nvdla"));
        QVERIFY(QFile::exists(out + "/report.txt"));
        QFile json(out + "/report.json");
        QVERIFY(json.open(QIODevice::ReadOnly));
        QCOMPARE(nlohmann::json::parse(json.readAll().toStdString())["tasks"].get<int>(), 2);
        QCOMPARE(runCli({"nvdla", "inspect", out + "/model.nvdla"}).exitCode, 0);

        const CliResult ran = runCli({"nvdla", "run", out + "/model.nvdla", "-i", input, "-o", dir.filePath("sim"), "--trace"});
        QCOMPARE(ran.exitCode, 0);
        QVERIFY2(ran.out.contains("task 0 op 0 (CONV): 28x28x1 -> 24x24x32"), qPrintable(ran.out));
        QVERIFY(ran.out.contains("task 1 EMU op 0 (SOFTMAX): 10 values"));
        const CliResult reference = runCli({"run", model, "-i", input, "-o", dir.filePath("ref")});
        QCOMPARE(reference.exitCode, 0);
        const TensorData simulated = readTensorFileAs(dir.filePath("sim/output_0.pb").toStdString(), DType::Float32);
        const TensorData expected = readTensorFileAs(dir.filePath("ref/output_0.pb").toStdString(), DType::Float32);
        QVERIFY(relativeError(simulated, expected) < 2e-2);

        const CliResult dumped = runCli({"compile", model, "--target", "nvdla", "--dump-after", "fold-batchnorm", "-o", out});
        QCOMPARE(dumped.exitCode, 0);
        QVERIFY2(dumped.out.contains("= Gemm 'linear'"), qPrintable(dumped.out));  // before gemm-to-conv

        const CliResult small = runCli({"compile", model, "--target", "nvdla", "--config", "nv_small", "--precision", "fp16",
                                        "-o", dir.filePath("small")});
        QCOMPARE(small.exitCode, 1);
        QVERIFY(small.err.contains("nv_small does not run fp16"));
        QVERIFY(!QFile::exists(dir.filePath("small")));
        const CliResult wrongInputs = runCli({"nvdla", "run", out + "/model.nvdla", "-o", dir.filePath("none")});
        QCOMPARE(wrongInputs.exitCode, 2);  // bad input
        QVERIFY(wrongInputs.err.contains("binds 1 inputs ('input' 1x28x28)"));
    }
};

QTEST_GUILESS_MAIN(TestNvdlaCompile)
#include "tst_nvdla_compile.moc"
