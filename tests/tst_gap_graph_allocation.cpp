// Graph tensor allocation on the guide's MNIST graph: constants promoted to L2 largest first with
// the offsets the guide's constructor shows (124692 bytes), the buffers between nodes sharing a
// dynamic block placed by the memory planner (11264 bytes: OutputStep4 reuses OutputStep2's bytes),
// checked by the independent plan validator; tensors moved to L3 as the L2 budget shrinks, and the
// budget error; the preferred L3 Ram and flash among several.
#include "CNN_Generators.h"
#include "gap/model_api/model_registry.h"
#include "memory/plan_validator.h"
#include "tiler/graph_allocation.h"
#include "tiler/l3_devices.h"
#include "tiler/model_check.h"
#include "tiler/privileged_flash.h"

#include <QtTest>

using namespace tessera;
using namespace tessera::tiler;

namespace {

GraphArgument argument(const std::string& name, GraphArgScope scope, GraphArgDirection direction)
{
    GraphArgument arg;
    arg.carg = {"short int *__restrict__", name};
    arg.scope = scope;
    arg.direction = direction;
    return arg;
}

GraphNode node(const std::string& kernel, std::vector<std::string> symbols)
{
    GraphNode result;
    result.kernel = kernel;
    for (std::size_t i = 0; i < symbols.size(); ++i) {
        GraphNodeBinding binding;
        binding.direction = i + 1 == symbols.size() ? GraphNodeBinding::Direction::Out : GraphNodeBinding::Direction::In;
        binding.symbol = symbols[i];
        result.bindings.push_back(binding);
    }
    return result;
}

// The guide's MNIST layers through the generators, and its graph.
const KernelModel& mnistModel()
{
    gap::resetModel();
    SetL1MemorySize(48000);
    LoadCNNLibrary();
    CNN_ConvolutionPoolReLU("Conv5x5ReLUMaxPool2x2_0", 0, 2, 2, 2, 2, 12, 14, 14, 12, 1, 1, 1, 1, 1, 32, 28, 28,
                            KOP_CONV_DP, 5, 5, 1, 1, 1, 1, 0, KOP_MAXPOOL, 2, 2, 1, 1, 2, 2, 0, KOP_RELU);
    CNN_ConvolutionPoolReLU("Conv5x5ReLUMaxPool2x2_1", 0, 2, 2, 2, 2, 12, 14, 14, 12, 1, 1, 1, 1, 32, 64, 12, 12,
                            KOP_CONV_DP, 5, 5, 1, 1, 1, 1, 0, KOP_MAXPOOL, 2, 2, 1, 1, 2, 2, 0, KOP_RELU);
    CNN_LinearReLU("LinearLayerReLU_0", 0, 2, 2, 2, 2, 12, 12, 8, 11, 2, 2, 2, 2, 1024, 10, KOP_LINEAR, KOP_NONE);
    CNN_SoftMax("SoftMax_0", 0, 2, 2, 15, 15, 1, 1, 10, KOP_SOFTMAX);
    KernelModel& model = gap::currentModel();
    GraphModel graph;
    graph.name = "MnistCNN";
    graph.arguments = {argument("Input0", GraphArgScope::Argument, GraphArgDirection::In)};
    for (const char* name : {"Step1Weights", "Step1Biases", "Step2Weights", "Step2Biases", "Step3Weights", "Step3Biases"})
        graph.arguments.push_back(argument(name, GraphArgScope::Global, GraphArgDirection::ConstIn));
    graph.arguments.push_back(argument("Output0", GraphArgScope::Argument, GraphArgDirection::Out));
    for (const char* name : {"OutputStep2", "OutputStep3", "OutputStep4"})
        graph.locals.push_back(argument(name, GraphArgScope::Local, GraphArgDirection::InOut));
    graph.nodes = {node("Conv5x5ReLUMaxPool2x2_0", {"Input0", "Step1Weights", "Step1Biases", "OutputStep2"}),
                   node("Conv5x5ReLUMaxPool2x2_1", {"OutputStep2", "Step2Weights", "Step2Biases", "OutputStep3"}),
                   node("LinearLayerReLU_0", {"OutputStep3", "Step3Weights", "Step3Biases", "OutputStep4"}),
                   node("SoftMax_0", {"OutputStep4", "Output0"})};
    graph.closed = true;
    model.graphs = {graph};
    return model;
}

} // namespace

class TestGapGraphAllocation : public QObject {
    Q_OBJECT

private slots:
    void mnistMatchesTheGuidesConstructor()
    {
        const KernelModel& model = mnistModel();
        const GraphAllocation allocation = allocateGraph(model, model.graphs.front(), 300 * 1024);
        QVERIFY2(allocation.ok, allocation.error.c_str());
        QCOMPARE(allocation.l2Static, std::uint64_t(124692));
        QCOMPARE(allocation.l2Dynamic, std::uint64_t(11264));
        QCOMPARE(allocation.l2DynamicLowerBound, std::uint64_t(11264));
        // Offsets of the guide's "Moving StepN..." lines; flash offsets equal L2 offsets.
        const std::pair<const char*, std::uint64_t> constants[] = {
            {"Step2Weights", 0},       {"Step3Weights", 102400}, {"Step1Weights", 122880},
            {"Step2Biases", 124480},   {"Step1Biases", 124608},  {"Step3Biases", 124672}};
        for (const auto& [name, offset] : constants) {
            const GraphTensor* tensor = allocation.find(name);
            QVERIFY2(tensor, name);
            QCOMPARE(tensor->placement, GraphTensor::Placement::L2Static);
            QCOMPARE(tensor->offset, offset);
            QCOMPARE(tensor->flashOffset, offset);
            QVERIFY(!tensor->reason.empty());
        }
        QCOMPARE(allocation.find("Step2Weights")->bytes, std::uint64_t(64 * 32 * 25 * 2));
        QCOMPARE(allocation.find("OutputStep2")->bytes, std::uint64_t(32 * 12 * 12 * 2));
        QCOMPARE(allocation.find("OutputStep4")->bytes, std::uint64_t(20));
        QCOMPARE(allocation.find("Input0")->placement, GraphTensor::Placement::Caller);
        QCOMPARE(allocation.find("Output0")->placement, GraphTensor::Placement::Caller);

        // The dynamic block, checked independently of the planner.
        std::vector<Buffer> buffers;
        std::vector<int64_t> offsets;
        for (const char* name : {"OutputStep2", "OutputStep3", "OutputStep4"}) {
            const GraphTensor* tensor = allocation.find(name);
            QCOMPARE(tensor->placement, GraphTensor::Placement::L2Dynamic);
            buffers.push_back({name, tensor->firstNode, tensor->lastNode + 1, int64_t(tensor->bytes), 4, {}});
            offsets.push_back(int64_t(tensor->offset));
        }
        const std::vector<std::string> problems = validatePlan(buffers, offsets, int64_t(allocation.l2Dynamic));
        QVERIFY2(problems.empty(), problems.empty() ? "" : problems.front().c_str());
    }

    // Budgets from the guide's down to the smallest that works: every placement fits its budget,
    // its dynamic L2 block (buffers between nodes and staging buffers) passes the validator, the
    // bytes homed in L3 grow as L2 shrinks, and below the smallest the message names it.
    void spillsToL3AsTheBudgetShrinks()
    {
        const KernelModel& model = mnistModel();
        const GraphModel& graph = model.graphs.front();
        std::uint64_t previousInL3 = 0;
        std::uint64_t budget = 300 * 1024;
        int placements = 0, withL3 = 0;
        GraphAllocation allocation;
        for (;; budget = budget * 7 / 8) {
            allocation = allocateGraph(model, graph, budget);
            if (!allocation.ok)
                break;
            ++placements;
            QVERIFY2(allocation.l2Total() <= budget, qPrintable(QString::number(budget)));
            // The bytes homed in L3 never fall as the budget shrinks (the moves are greedy, so two
            // close budgets may end on placements a few bytes apart: by at most 1%). Traffic itself
            // is not monotonic: each budget tiles its nodes for its own staging room, and with more
            // room a node may pick smaller tiles whose extra L3 reads hide behind compute.
            std::uint64_t homedInL3 = 0;
            for (const GraphTensor& tensor : allocation.tensors)
                if (tensor.placement == GraphTensor::Placement::L3Static ||
                    tensor.placement == GraphTensor::Placement::L3Dynamic)
                    homedInL3 += tensor.bytes;
            QVERIFY2(homedInL3 * 100 >= previousInL3 * 99,
                     qPrintable(QStringLiteral("budget %1: %2 bytes in L3 after %3").arg(budget).arg(homedInL3).arg(previousInL3)));
            previousInL3 = std::max(previousInL3, homedInL3);
            std::vector<Buffer> buffers;
            std::vector<int64_t> offsets;
            std::uint64_t inL3 = 0;
            for (const GraphTensor& tensor : allocation.tensors) {
                if (tensor.placement == GraphTensor::Placement::L2Dynamic) {
                    buffers.push_back({tensor.name, tensor.firstNode, tensor.lastNode + 1, int64_t(tensor.bytes), 4, {}});
                    offsets.push_back(int64_t(tensor.offset));
                }
                if (tensor.placement == GraphTensor::Placement::L3Static ||
                    tensor.placement == GraphTensor::Placement::L3Dynamic) {
                    ++inL3;
                    QVERIFY2(QString::fromStdString(tensor.reason).contains("L3"), tensor.reason.c_str());
                }
            }
            std::uint64_t traffic = 0;
            for (std::size_t n = 0; n < allocation.nodes.size(); ++n) {
                const NodeExecution& node = allocation.nodes[n];
                traffic += node.l3Read + node.l3Write;
                QCOMPARE(node.stagingBytes > 0, !node.l3Arguments.empty());
                if (node.stagingBytes > 0) {
                    buffers.push_back({node.kernel, int64_t(n), int64_t(n) + 1, int64_t(node.stagingBytes), 4, {}});
                    offsets.push_back(int64_t(node.stagingOffset));
                }
            }
            for (const GraphTensor& tensor : allocation.tensors)
                if (tensor.prefetchNode >= 0)
                    traffic += tensor.bytes;  // constants prefetched whole into L2
            QCOMPARE(traffic, allocation.l3Traffic);
            QCOMPARE(inL3 > 0, allocation.l3Traffic > 0);
            withL3 += inL3 > 0;
            const std::vector<std::string> problems = validatePlan(buffers, offsets, int64_t(allocation.l2Dynamic));
            QVERIFY2(problems.empty(), problems.empty() ? "" : problems.front().c_str());
        }
        QVERIFY2(placements >= 4 && withL3 >= 3, qPrintable(QStringLiteral("%1 placements, %2 with L3").arg(placements).arg(withL3)));
        const QString message = QString::fromStdString(allocation.error);
        QVERIFY(allocation.smallestL2 > budget);
        QVERIFY2(message.contains("MnistCNN") && message.contains("L2 budget of " + QString::number(budget)) &&
                     message.contains("at least " + QString::number(allocation.smallestL2)),
                 qPrintable(message));
        const GraphAllocation smallest = allocateGraph(model, graph, allocation.smallestL2);
        QVERIFY2(smallest.ok, smallest.error.c_str());
        QVERIFY(smallest.l2Total() <= allocation.smallestL2);
    }

    // AT_GRAPH_DISABLE_CONST_L2_PROMOTION keeps every constant in L3; AT_GRAPH_L2_STATIC_MEMORY_BUDGET
    // moves constants to L3 until the promoted ones fit it; an L3 static budget too small is named.
    void constantPromotionControls()
    {
        KernelModel model = mnistModel();
        model.options.promoteConstantsToL2 = false;
        GraphAllocation allocation = allocateGraph(model, model.graphs.front(), 300 * 1024);
        QVERIFY2(allocation.ok, allocation.error.c_str());
        QCOMPARE(allocation.l2Static, std::uint64_t(0));
        QCOMPARE(allocation.l3Static, std::uint64_t(124692 + 0));
        for (const char* name : {"Step1Weights", "Step2Weights", "Step3Biases"})
            QCOMPARE(allocation.find(name)->placement, GraphTensor::Placement::L3Static);
        QVERIFY(allocation.l3Traffic >= 124692);

        model.options.promoteConstantsToL2 = true;
        model.options.l2StaticBudget = 30000;
        allocation = allocateGraph(model, model.graphs.front(), 300 * 1024);
        QVERIFY2(allocation.ok, allocation.error.c_str());
        QVERIFY(allocation.l2Static <= 30000 && allocation.l2Static > 0);
        QCOMPARE(allocation.find("Step2Weights")->placement, GraphTensor::Placement::L3Static);
        QCOMPARE(allocation.find("Step3Weights")->placement, GraphTensor::Placement::L2Static);

        model.options.l3StaticBudget = 1000;
        allocation = allocateGraph(model, model.graphs.front(), 300 * 1024);
        QVERIFY(!allocation.ok);
        QVERIFY2(QString::fromStdString(allocation.error).contains("AT_GRAPH_L3_STATIC_MEMORY_BUDGET is 1000"),
                 allocation.error.c_str());
    }

    // AT_GRAPH_CONST_EXEC_FROM_FLASH: the constants that leave L2 are read from the image where
    // they are; L3 RAM holds none of them and the image keeps its size and L2 layout.
    void constantsExecutedFromFlash()
    {
        KernelModel model = mnistModel();
        const GraphAllocation inRam = allocateGraph(model, model.graphs.front(), 40000);
        QVERIFY2(inRam.ok, inRam.error.c_str());
        QVERIFY(inRam.l3Static > 0);
        model.options.constantsExecuteFromFlash = true;
        const GraphAllocation fromFlash = allocateGraph(model, model.graphs.front(), 40000);
        QVERIFY2(fromFlash.ok, fromFlash.error.c_str());
        QCOMPARE(fromFlash.l3Static, std::uint64_t(0));
        QCOMPARE(fromFlash.flashBytes, inRam.flashBytes);
        std::uint64_t streamed = 0;  // no prefetch: every flash byte is read by the node using it
        for (const NodeExecution& node : fromFlash.nodes)
            streamed += node.l3Read + node.l3Write;
        QCOMPARE(fromFlash.l3Traffic, streamed);
        QVERIFY(streamed > 0);
        int inFlash = 0;
        for (const GraphTensor& tensor : fromFlash.tensors) {
            QVERIFY(tensor.placement != GraphTensor::Placement::L3Static);
            if (tensor.placement == GraphTensor::Placement::Flash) {
                ++inFlash;
                QCOMPARE(tensor.flashOffset, inRam.find(tensor.name)->flashOffset);
                QVERIFY2(QString::fromStdString(tensor.reason).contains("flash image"), tensor.reason.c_str());
            }
        }
        QVERIFY(inFlash > 0);
        for (const NodeExecution& node : fromFlash.nodes)
            for (const std::string& argument : node.flashArguments)
                QVERIFY(std::find(node.l3Arguments.begin(), node.l3Arguments.end(), argument) != node.l3Arguments.end());
    }

    // A privileged flash takes, largest first, the constants that leave L2 and fit what is left of
    // it; the ordinary image keeps the others, packed without holes.
    void privilegedFlashTakesConstantsFirst()
    {
        KernelModel model = mnistModel();
        model.options.constantsExecuteFromFlash = true;
        const GraphAllocation ordinary = allocateGraph(model, model.graphs.front(), 40000);
        QVERIFY2(ordinary.ok, ordinary.error.c_str());
        MemoryDevice mram;
        mram.location = MemoryLocation::L3MramFlash;
        mram.size = 110000;  // the 100 KB filter of the linear layer, not the others as well
        mram.baseName = "0";
        mram.constFile = "Mram.dat";
        model.devices.push_back(mram);
        model.options.privilegedFlash = int(MemoryLocation::L3MramFlash);
        const GraphAllocation allocation = allocateGraph(model, model.graphs.front(), 40000);
        QVERIFY2(allocation.ok, allocation.error.c_str());
        std::uint64_t inPrivileged = 0, leftInFlash = 0;
        for (const GraphTensor& tensor : allocation.tensors) {
            if (tensor.privilegedFlash) {
                QVERIFY(tensor.flashOffset + tensor.bytes <= allocation.privilegedFlashBytes);
                inPrivileged += tensor.bytes;
            } else if (tensor.placement == GraphTensor::Placement::Flash) {
                QVERIFY(tensor.flashOffset >= ordinary.l2Static && tensor.flashOffset + tensor.bytes <= allocation.flashBytes);
                leftInFlash += tensor.bytes;
            }
        }
        QVERIFY(inPrivileged > 0 && inPrivileged <= mram.size);
        QCOMPARE(allocation.privilegedFlashBytes, inPrivileged);
        QVERIFY(allocation.flashBytes < ordinary.flashBytes);
        QCOMPARE(allocation.l3Traffic, ordinary.l3Traffic);
        // Nodes read each constant through the image that holds it.
        for (const NodeExecution& node : allocation.nodes)
            QCOMPARE(node.flashArguments.size() + node.privilegedFlashArguments.size(),
                     ordinary.nodes[std::size_t(&node - allocation.nodes.data())].flashArguments.size());

        // The choice alone: largest first, then whatever still fits.
        std::vector<GraphTensor> tensors(4);
        const std::uint64_t sizes[] = {60, 50, 30, 8};
        for (std::size_t i = 0; i < 4; ++i)
            tensors[i].bytes = sizes[i];
        QCOMPARE(choosePrivilegedConstants(tensors, {0, 1, 2, 3}, 100, 4), (std::set<std::size_t>{0, 2, 3}));
        QCOMPARE(choosePrivilegedConstants(tensors, {1, 2, 3}, 100, 4), (std::set<std::size_t>{1, 2, 3}));
        QCOMPARE(choosePrivilegedConstants(tensors, {0, 1}, 40, 4), (std::set<std::size_t>{}));

        // A privileged flash the devices do not declare, or that is the only flash, is named.
        const auto reported = [&](const char* words) {
            const std::vector<std::string> problems = checkGraphModel(model);
            return std::any_of(problems.begin(), problems.end(), [&](const std::string& problem) {
                return problem.find("AT_GRAPH_PRIVILEGED_L3_HOME") != std::string::npos &&
                       problem.find(words) != std::string::npos;
            });
        };
        QVERIFY(reported("the only flash device"));  // this model declares no other flash
        MemoryDevice flash = mram;
        flash.location = MemoryLocation::L3DefaultFlash;
        flash.constFile = "Flash.dat";
        model.devices.push_back(flash);
        QVERIFY(!reported("the only flash device"));
        model.options.privilegedFlash = int(MemoryLocation::L3Priority1);
        QVERIFY(reported("does not declare"));
    }

    // AT_GRAPH_PREF_L3_EXEC and AT_GRAPH_PREF_L3_HOME pick the L3 Ram (and its budget) and the flash
    // of the constants image among several; without them the guide's defaults (HyperRam, HyperFlash)
    // when declared, else the first declared.
    void preferredL3DevicesAreUsed()
    {
        mnistModel();
        AT_SetGraphCtrl(AT_GRAPH_PREF_L3_EXEC, AT_OPT_VAL(AT_MEM_L3_OSPIRAM));
        AT_SetGraphCtrl(AT_GRAPH_PREF_L3_HOME, AT_OPT_VAL(AT_MEM_L3_DEFAULTFLASH));
        KernelModel model = gap::currentModel();
        QCOMPARE(model.options.preferredL3Ram, int(MemoryLocation::L3OspiRam));
        QCOMPARE(model.options.preferredL3Flash, int(MemoryLocation::L3DefaultFlash));
        const auto device = [](MemoryLocation location, std::uint64_t size, const char* name, const char* file) {
            MemoryDevice result;
            result.location = location;
            result.size = size;
            result.baseName = name;
            result.constFile = file;
            return result;
        };
        model.devices = {device(MemoryLocation::L3DefaultRam, 1000, "Small_L3", ""),
                         device(MemoryLocation::L3OspiRam, 8 << 20, "Big_L3", ""),
                         device(MemoryLocation::L3HyperFlash, 16 << 20, "0", "Hyper.dat"),
                         device(MemoryLocation::L3DefaultFlash, 16 << 20, "0", "Default.dat")};
        QCOMPARE(executionL3Ram(model)->baseName, std::string("Big_L3"));
        QCOMPARE(executionL3RamBytes(model), std::uint64_t(8 << 20));
        QCOMPARE(homeFlash(model)->constFile, std::string("Default.dat"));
        const GraphAllocation big = allocateGraph(model, model.graphs.front(), 20000);
        QVERIFY2(big.ok, big.error.c_str());
        QVERIFY(big.l3Static + big.l3Dynamic > 1000);

        // The guide's defaults: HyperRam is not declared, so the first Ram; HyperFlash is.
        model.options.preferredL3Ram = int(MemoryLocation::L3HyperRam);
        model.options.preferredL3Flash = int(MemoryLocation::L3HyperFlash);
        QCOMPARE(executionL3Ram(model)->baseName, std::string("Small_L3"));
        QCOMPARE(homeFlash(model)->constFile, std::string("Hyper.dat"));
        const GraphAllocation small = allocateGraph(model, model.graphs.front(), 20000);
        QVERIFY(!small.ok);
        QVERIFY2(small.error.find("the L3 budget is 1000") != std::string::npos, small.error.c_str());

        // The privileged flash is never the home of the image.
        model.options.privilegedFlash = int(MemoryLocation::L3HyperFlash);
        QCOMPARE(homeFlash(model)->constFile, std::string("Default.dat"));
        model.devices.clear();
        QVERIFY(executionL3Ram(model) == nullptr && homeFlash(model) == nullptr);
        QCOMPARE(executionL3RamBytes(model), std::uint64_t(model.options.l3Size));
    }

    void inconsistentSizesAreNamed()
    {
        KernelModel model = mnistModel();
        // OutputStep3 (64x4x4) bound where the first layer writes 32x12x12.
        model.graphs.front().nodes[0].bindings[3].symbol = "OutputStep3";
        const GraphAllocation allocation = allocateGraph(model, model.graphs.front(), 300 * 1024);
        QVERIFY(!allocation.ok);
        QVERIFY2(QString::fromStdString(allocation.error).contains("OutputStep3"), allocation.error.c_str());
    }
};

QTEST_APPLESS_MAIN(TestGapGraphAllocation)
#include "tst_gap_graph_allocation.moc"
