// The graph part of the C Autotiler model API: the guide's MNIST graph model builds the expected
// devices, options and graph, checkModel() names each kind of graph error, the graph builders stop
// at once (exit status 1) on errors they can see alone, and the guide's MnistModel.c compiles as C
// against our headers. Code generation for graphs is not covered here, except where
// AT_KERNEL_NOSOLUTION_ERROR off drops a layer.
#include "AutoTilerLib.h"
#include "CNN_Generators.h"
#include "gap/model_api/model_registry.h"
#include "gap_toolchain.h"
#include "tiler/code_generator.h"
#include "tiler/graph_allocation.h"
#include "tiler/constant_image.h"
#include "tiler/model_check.h"

#include "child_process.h"

#include <QtTest>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <iterator>
#include <unistd.h>

using namespace tessera;
using Direction = tiler::GraphNodeBinding::Direction;
using Location = tiler::MemoryLocation;
using Scope = tiler::GraphArgScope;
using SymbolDirection = tiler::GraphArgDirection;

namespace {

// The guide's MnistModel() (gap-autotiler-guide, "Autotiler Models"), as C++ calls.
void buildMnistModel(unsigned int L1Memory, unsigned int L2Memory, unsigned int L3Memory, unsigned int L3Flash)
{
    KernelOper_T Cop = KOP_CONV_DP;

    SetSymbolDynamics();

    SetUsedFilesNames(0, 2, "CNN_BasicKernels.h", "MnistKernels.h");
    SetGeneratedFilesNames("MnistKernels.c", "MnistKernels.h");
    SetMemoryDeviceInfos(4,
        AT_MEM_L1, L1Memory, "Mnist_L1_Memory", 0, 0,
        AT_MEM_L2, L2Memory, "Mnist_L2_Memory", 0, 0,
        AT_MEM_L3_DEFAULTRAM, L3Memory, "Mnist_L3_Memory", 0, 0,
        AT_MEM_L3_DEFAULTFLASH, L3Flash, "0", "Mnist_L3_Flash_Const.dat", 0
    );

    AT_SetGraphCtrl(AT_GRAPH_TRACE_EXEC, AT_OPT_ON);

    LoadCNNLibrary();
    CNN_ConvolutionPoolReLU("Conv5x5ReLUMaxPool2x2_0", 0, 2,2,2,2, 12,14,14,12, 1,1,1,1, 1,32,28,28,
        Cop, 5, 5, 1, 1, 1, 1, 0,
        KOP_MAXPOOL, 2, 2, 1, 1, 2, 2, 0, KOP_RELU);
    CNN_ConvolutionPoolReLU("Conv5x5ReLUMaxPool2x2_1", 0, 2,2,2,2, 12,14,14,12, 1,1,1,1, 32,64,12,12,
        Cop, 5, 5, 1, 1, 1, 1, 0,
        KOP_MAXPOOL, 2, 2, 1, 1, 2, 2, 0, KOP_RELU);
    CNN_LinearReLU("LinearLayerReLU_0", 0, 2,2,2,2, 12,12,8,11, 2,2,2,2, 1024, 10,
        KOP_LINEAR, KOP_NONE);
    CNN_SoftMax("SoftMax_0", 0, 2,2, 15,15,1,1, 10, KOP_SOFTMAX);

    CreateGraph("MnistCNN",
        CArgs(8,
            TCArgInfo("short int *__restrict__", "Input0", ARG_SCOPE_ARG, ARG_DIR_IN, AT_MEM_L2, AT_MEM_UNDEF, 0),
            TCArgInfo("short int *__restrict__", "Step1Weights", ARG_SCOPE_GLOBAL, ARG_DIR_CONSTIN, AT_MEM_L3_HFLASH, AT_MEM_UNDEF, ConstInfo("model/Step1Weights.tensor", 1, 1, 16, 0)),
            TCArgInfo("short int *__restrict__", "Step1Biases",  ARG_SCOPE_GLOBAL, ARG_DIR_CONSTIN, AT_MEM_L3_HFLASH, AT_MEM_UNDEF, ConstInfo("model/Step1Biases.tensor"  , 1, 1, 16, 0)),
            TCArgInfo("short int *__restrict__", "Step2Weights", ARG_SCOPE_GLOBAL, ARG_DIR_CONSTIN, AT_MEM_L3_HFLASH, AT_MEM_UNDEF, ConstInfo("model/Step2Weights.tensor", 1, 1, 16, 0)),
            TCArgInfo("short int *__restrict__", "Step2Biases",  ARG_SCOPE_GLOBAL, ARG_DIR_CONSTIN, AT_MEM_L3_HFLASH, AT_MEM_UNDEF, ConstInfo("model/Step2Biases.tensor"  , 1, 1, 16, 0)),
            TCArgInfo("short int *__restrict__", "Step3Weights", ARG_SCOPE_GLOBAL, ARG_DIR_CONSTIN, AT_MEM_L3_HFLASH, AT_MEM_UNDEF, ConstInfo("model/Step3Weights.tensor", 1, 1, 16, 0)),
            TCArgInfo("short int *__restrict__", "Step3Biases",  ARG_SCOPE_GLOBAL, ARG_DIR_CONSTIN, AT_MEM_L3_HFLASH, AT_MEM_UNDEF, ConstInfo("model/Step3Biases.tensor"  , 1, 1, 16, 0)),
            TCArgInfo("short int *__restrict__", "Output0", ARG_SCOPE_ARG, ARG_DIR_OUT, AT_MEM_UNDEF, AT_MEM_L2, 0)
        ),
        CArgs(3,
            TCArgInfo("short int *__restrict__", "OutputStep2", ARG_SCOPE_LOCAL, ARG_DIR_INOUT, AT_MEM_UNDEF, AT_MEM_UNDEF, 0),
            TCArgInfo("short int *__restrict__", "OutputStep3", ARG_SCOPE_LOCAL, ARG_DIR_INOUT, AT_MEM_UNDEF, AT_MEM_UNDEF, 0),
            TCArgInfo("short int *__restrict__", "OutputStep4", ARG_SCOPE_LOCAL, ARG_DIR_INOUT, AT_MEM_UNDEF, AT_MEM_UNDEF, 0)
        )
    );
    AddNode("Conv5x5ReLUMaxPool2x2_0",
            Bindings(4,
                GNodeArg(GNA_IN, "Input0", 0),
                GNodeArg(GNA_IN, "Step1Weights", 0),
                GNodeArg(GNA_IN, "Step1Biases", 0),
                GNodeArg(GNA_OUT, "OutputStep2", 0)
                )
            );

    AddNode("Conv5x5ReLUMaxPool2x2_1", Bindings(4, GNodeArg(GNA_IN, "OutputStep2", 0), GNodeArg(GNA_IN, "Step2Weights", 0), GNodeArg(GNA_IN, "Step2Biases", 0), GNodeArg(GNA_OUT, "OutputStep3",0)));
    AddNode("LinearLayerReLU_0", Bindings(4, GNodeArg(GNA_IN, "OutputStep3", 0), GNodeArg(GNA_IN, "Step3Weights", 0), GNodeArg(GNA_IN, "Step3Biases", 0), GNodeArg(GNA_OUT, "OutputStep4",0)));
    AddNode("SoftMax_0", Bindings(2, GNodeArg(GNA_IN, "OutputStep4", 0), GNodeArg(GNA_OUT, "Output0", 0)));
    CloseGraph();
}

void buildGuideMnist()
{
    buildMnistModel(48000, 300 * 1024, 8 * 1024 * 1024, 20 * 1024 * 1024);
}

std::string joinedProblems(const std::vector<std::string>& problems)
{
    std::string text;
    for (const std::string& problem : problems)
        text += problem + "\n";
    return text;
}

tiler::GraphModel& mnistGraph(tiler::KernelModel& model)
{
    return model.graphs.at(0);
}

tiler::GraphArgument& argument(tiler::KernelModel& model, std::size_t index)
{
    return mnistGraph(model).arguments.at(index);
}

tiler::GraphNodeBinding& nodeBinding(tiler::KernelModel& model, std::size_t node, std::size_t binding)
{
    return mnistGraph(model).nodes.at(node).bindings.at(binding);
}

struct CheckRow {
    const char* name;
    std::function<void(tiler::KernelModel&)> breakModel;
    std::vector<std::string> expected;  // substrings of one reported problem
};

const std::vector<CheckRow>& checkRows()
{
    static const std::vector<CheckRow> rows = {
        {"node names no kernel", [](auto& m) { mnistGraph(m).nodes[2].kernel = "Linear"; },
         {"graph MnistCNN: node 3 (Linear): no user kernel or kernel group named Linear", "AddNode() name"}},
        {"node names a basic kernel", [](auto& m) { mnistGraph(m).nodes[3].kernel = m.basicKernels.at(0).name; },
         {"graph MnistCNN: node 4 (", "is a basic kernel; a graph node calls a user kernel or a kernel group"}},
        {"binding count", [](auto& m) { mnistGraph(m).nodes[1].bindings.pop_back(); },
         {"graph MnistCNN: node 2 (Conv5x5ReLUMaxPool2x2_1): binding count 3 but user kernel "
          "Conv5x5ReLUMaxPool2x2_1 has 4 C arguments (In, Filter, Bias, Out)",
          "one binding (GNodeArg(), GNodeCArg() or Imm()) per C argument"}},
        {"unknown symbol", [](auto& m) { nodeBinding(m, 0, 1).symbol = "Step1Weight"; },
         {"graph MnistCNN: node 1 (Conv5x5ReLUMaxPool2x2_0): binding 2 (Filter): GNodeArg(GNA_IN, \"Step1Weight\") "
          "names no symbol of graph MnistCNN; its symbols are Input0, Step1Weights",
          "OutputStep4", "CreateGraph()"}},
        {"output binding on an input", [](auto& m) { nodeBinding(m, 0, 0).direction = Direction::Out; },
         {"node 1 (Conv5x5ReLUMaxPool2x2_0): binding 1 (In): GNA_OUT writes symbol Input0, which is ARG_DIR_IN",
          "bind it GNA_IN"}},
        {"in-out binding on a constant", [](auto& m) { nodeBinding(m, 2, 2).direction = Direction::InOut; },
         {"node 3 (LinearLayerReLU_0): binding 3 (Bias): GNA_INOUT writes symbol Step3Biases, which is ARG_DIR_CONSTIN"}},
        {"constant without ConstInfo", [](auto& m) { argument(m, 4).hasConstant = false; },
         {"graph MnistCNN: symbol Step2Biases is ARG_DIR_CONSTIN but has no ConstInfo()", "TCArgInfo()"}},
        {"local read before it is written", [](auto& m) { nodeBinding(m, 1, 3).symbol = "OutputStep2"; },
         {"graph MnistCNN: node 3 (LinearLayerReLU_0): binding 1 (In): GNA_IN reads local OutputStep3 before any node "
          "writes it",
          "an earlier node must bind it GNA_OUT"}},
        {"nodes out of order",
         [](auto& m) { std::swap(mnistGraph(m).nodes[0], mnistGraph(m).nodes[1]); },
         {"graph MnistCNN: node 1 (Conv5x5ReLUMaxPool2x2_1): binding 1 (In): GNA_IN reads local OutputStep2"}},
        {"graph output never written", [](auto& m) { nodeBinding(m, 3, 1).symbol = "OutputStep4"; },
         {"graph MnistCNN: output Output0 (ARG_SCOPE_ARG, ARG_DIR_OUT) is never written",
          "bind it GNA_OUT in the node that produces it"}},
        {"graph output read before written",
         [](auto& m) { nodeBinding(m, 0, 0).symbol = "Output0"; },
         {"node 1 (Conv5x5ReLUMaxPool2x2_0): binding 1 (In): GNA_IN reads graph output Output0 before any node writes it"}},
        // GNodeCArg: a runner argument passed on by value, one way only.
        {"value of no argument",
         [](auto& m) {
             nodeBinding(m, 0, 0).kind = tiler::GraphNodeBinding::Kind::Value;
             nodeBinding(m, 0, 0).symbol = "Reset";
         },
         {"node 1 (Conv5x5ReLUMaxPool2x2_0): binding 1 (In): GNodeCArg(\"Reset\") names no argument of graph MnistCNN",
          "TCArgInfo(\"bool\", \"Reset\", ARG_SCOPE_ARG, ARG_DIR_IN"}},
        {"value of a local",
         [](auto& m) { nodeBinding(m, 1, 0).kind = tiler::GraphNodeBinding::Kind::Value; },
         {"node 2 (Conv5x5ReLUMaxPool2x2_1): binding 1 (In): GNodeCArg(\"OutputStep2\") passes ARG_SCOPE_LOCAL symbol "
          "OutputStep2 by value; only runner arguments (ARG_SCOPE_ARG)"}},
        {"value of an output",
         [](auto& m) { nodeBinding(m, 3, 1).kind = tiler::GraphNodeBinding::Kind::Value; },
         {"node 4 (SoftMax_0): binding 2 (Out): GNodeCArg(\"Output0\") passes Output0, which is ARG_DIR_OUT, by value",
          "declare it ARG_DIR_IN"}},
        {"value of a tensor",
         [](auto& m) {
             mnistGraph(m).nodes.push_back(mnistGraph(m).nodes[0]);
             mnistGraph(m).nodes.back().bindings[0].kind = tiler::GraphNodeBinding::Kind::Value;
         },
         {"node 5 (Conv5x5ReLUMaxPool2x2_0): binding 1 (In): GNodeCArg(\"Input0\") takes by value a symbol that a node "
          "binds as a tensor (GNodeArg)", "bind it one way"}},
        {"tensor of a value",
         [](auto& m) {
             nodeBinding(m, 0, 0).kind = tiler::GraphNodeBinding::Kind::Value;
             mnistGraph(m).nodes.push_back(mnistGraph(m).nodes[1]);
             mnistGraph(m).nodes.back().bindings[0].symbol = "Input0";
         },
         {"node 5 (Conv5x5ReLUMaxPool2x2_1): binding 1 (In): GNodeArg(GNA_IN, \"Input0\") binds as a tensor a symbol "
          "that another node takes by value (GNodeCArg)"}},
        {"graph without nodes", [](auto& m) { mnistGraph(m).nodes.clear(); },
         {"graph MnistCNN has no nodes", "AddNode()"}},
        {"graph named like a kernel", [](auto& m) { mnistGraph(m).name = "SoftMax_0"; },
         {"graph SoftMax_0: a user kernel or kernel group has the same name"}},
        {"local listed with the arguments",
         [](auto& m) { argument(m, 0).scope = Scope::Local; },
         {"graph MnistCNN: symbol Input0 is ARG_SCOPE_LOCAL but listed with the arguments and globals"}},
        {"device of 0 bytes", [](auto& m) { m.devices[1].size = 0; },
         {"memory device AT_MEM_L2 (Mnist_L2_Memory): its available memory is 0 bytes"}},
        {"device declared twice", [](auto& m) { m.devices.push_back(m.devices[2]); },
         {"memory device AT_MEM_L3_DEFAULTRAM is declared more than once in SetMemoryDeviceInfos()"}},
        {"flash device without constants file", [](auto& m) { m.devices[3].constFile.clear(); },
         {"memory device AT_MEM_L3_DEFAULTFLASH (0): a flash device needs the name of its constants file"}},
        {"no L1 device", [](auto& m) { m.devices.erase(m.devices.begin()); },
         {"graph MnistCNN: no AT_MEM_L1 memory device", "SetMemoryDeviceInfos()"}},
        {"constants without a flash device", [](auto& m) { m.devices.pop_back(); },
         {"graph MnistCNN: its constants (Step1Weights, Step1Biases, Step2Weights, Step2Biases, Step3Weights, "
          "Step3Biases) need a flash memory device"}},
    };
    return rows;
}

using tessera::test::ChildOutcome;
using tessera::test::runInChild;

CKernel_Arg_T* localSymbol(const char* name)
{
    return TCArgInfo("short int *", name, ARG_SCOPE_LOCAL, ARG_DIR_INOUT, AT_MEM_UNDEF, AT_MEM_UNDEF, nullptr);
}

struct ImmediateErrorRow {
    const char* name;
    std::function<void()> body;
    std::string expected;
};

const std::vector<ImmediateErrorRow>& immediateErrorRows()
{
    static const std::vector<ImmediateErrorRow> rows = {
        {"graph opened twice",
         [] {
             CreateGraph("First", nullptr, nullptr);
             CreateGraph("Second", nullptr, nullptr);
         },
         "error: CreateGraph(\"Second\"): graph First is still open; graphs do not nest, call CloseGraph() first"},
        {"graph name used twice",
         [] {
             CreateGraph("Net", nullptr, nullptr);
             CloseGraph();
             CreateGraph("Net", nullptr, nullptr);
         },
         "error: CreateGraph(\"Net\"): a graph named Net already exists"},
        {"node without a graph", [] { AddNode("Conv", Bindings(0)); },
         "error: AddNode(\"Conv\"): no graph is open; call CreateGraph("},
        {"close without a graph", [] { CloseGraph(); }, "error: CloseGraph(): no graph is open"},
        {"NULL graph name", [] { CreateGraph(nullptr, nullptr, nullptr); }, "error: CreateGraph: the graph name is NULL"},
        {"NULL node name",
         [] {
             CreateGraph("Net", nullptr, nullptr);
             AddNode(nullptr, Bindings(0));
         },
         "error: AddNode: the user kernel name is NULL"},
        {"NULL symbol name", [] { localSymbol(nullptr); }, "error: TCArgInfo: the symbol name is NULL"},
        {"NULL symbol type",
         [] { TCArgInfo(nullptr, "In", ARG_SCOPE_ARG, ARG_DIR_IN, AT_MEM_L2, AT_MEM_UNDEF, nullptr); },
         "error: TCArgInfo(\"In\"): the C type is NULL"},
        {"NULL GNodeArg name", [] { GNodeArg(GNA_IN, nullptr, 0); }, "error: GNodeArg: the symbol name is NULL"},
        {"NULL constants file", [] { ConstInfo(nullptr, 1, 1, 16, 0); }, "error: ConstInfo: the file name is NULL"},
        {"NULL device base name",
         [] { SetMemoryDeviceInfos(1, AT_MEM_L2, 1024u, nullptr, nullptr, 0); },
         "error: SetMemoryDeviceInfos: device 1 of 1 (AT_MEM_L2): the memory base name is NULL"},
        {"unknown device location",
         [] { SetMemoryDeviceInfos(2, AT_MEM_L1, 1024u, "L1", nullptr, 0, 42, 1024u, "X", nullptr, 0); },
         "error: SetMemoryDeviceInfos: device 2 of 2 has memory location 42, which is not an AT_MEM_* value"},
        {"undefined device location",
         [] { SetMemoryDeviceInfos(1, AT_MEM_UNDEF, 1024u, "X", nullptr, 0); },
         "error: SetMemoryDeviceInfos: device 1 of 1 has memory location 0, which is AT_MEM_UNDEF"},
        {"unknown home location",
         [] { TCArgInfo("short *", "In", ARG_SCOPE_ARG, ARG_DIR_IN, AT_MemLocation_T(99), AT_MEM_UNDEF, nullptr); },
         "error: TCArgInfo(\"In\"): home location 99 is not an AT_MEM_* value"},
        {"unknown execution location",
         [] { TCArgInfo("short *", "In", ARG_SCOPE_ARG, ARG_DIR_IN, AT_MEM_L2, AT_MemLocation_T(-1), nullptr); },
         "error: TCArgInfo(\"In\"): execution location -1 is not an AT_MEM_* value"},
        {"unknown scope",
         [] { TCArgInfo("short *", "In", ArgScope_T(7), ARG_DIR_IN, AT_MEM_L2, AT_MEM_UNDEF, nullptr); },
         "error: TCArgInfo(\"In\"): scope 7 is not ARG_SCOPE_ARG, ARG_SCOPE_ARG_ALLOC, ARG_SCOPE_GLOBAL or ARG_SCOPE_LOCAL"},
        {"unknown direction",
         [] { TCArgInfo("short *", "In", ARG_SCOPE_ARG, ArgDirection_T(7), AT_MEM_L2, AT_MEM_UNDEF, nullptr); },
         "error: TCArgInfo(\"In\"): direction 7 is not ARG_DIR_IN"},
        {"unknown node binding direction", [] { GNodeArg(5, "In", 0); },
         "error: GNodeArg(5, \"In\"): direction 5 is not GNA_IN, GNA_OUT or GNA_INOUT"},
        {"binding direction GNA_UNDEF", [] { GNodeArg(GNA_UNDEF, "In", 0); },
         "error: GNodeArg(0, \"In\"): direction 0 is not GNA_IN, GNA_OUT or GNA_INOUT"},
        {"symbol direction ARG_DIR_UNDEF",
         [] { TCArgInfo("short *", "In", ARG_SCOPE_ARG, ARG_DIR_UNDEF, AT_MEM_L2, AT_MEM_UNDEF, nullptr); },
         "error: TCArgInfo(\"In\"): direction 0 is not ARG_DIR_IN, ARG_DIR_CONSTIN, ARG_DIR_OUT or ARG_DIR_INOUT"},
        {"duplicate symbol names",
         [] { CreateGraph("Net", CArgs(1, TCArg("short *", "Buffer")), CArgs(1, localSymbol("Buffer"))); },
         "error: CreateGraph(\"Net\"): symbol Buffer is declared twice"},
        {"local in the first list", [] { CreateGraph("Net", CArgs(1, localSymbol("Tmp")), nullptr); },
         "error: CreateGraph(\"Net\"): symbol Tmp is ARG_SCOPE_LOCAL but is in the first list (arguments and globals)"},
        {"NULL symbol in a list", [] { CreateGraph("Net", nullptr, CArgs(2, localSymbol("A"), nullptr)); },
         "error: CreateGraph(\"Net\"): second list (locals): symbol 2 of 2 is NULL"},
        {"C_Arg bound by a node",
         [] {
             CreateGraph("Net", nullptr, nullptr);
             AddNode("Conv", Bindings(2, GNodeArg(GNA_IN, "In", 0), C_Arg("Out")));
         },
         "error: graph Net: AddNode(\"Conv\"): binding 2 is neither GNodeArg(), GNodeCArg() nor Imm()"},
        {"NULL GNodeCArg name", [] { GNodeCArg(nullptr); }, "error: GNodeCArg: the graph argument's name is NULL"},
        {"GNodeCArg in a basic kernel call", [] { Call("KerConv", LOC_INNER_LOOP, Bindings(1, GNodeCArg("Reset"))); },
         "error: Call(\"KerConv\"): binding 1 is GNodeCArg(\"Reset\"), which binds graph symbols in AddNode() only"},
        {"GNodeArg in a basic kernel call", [] { Call("KerConv", LOC_INNER_LOOP, Bindings(1, GNodeArg(GNA_IN, "In", 0))); },
         "error: Call(\"KerConv\"): binding 1 is GNodeArg(\"In\"), which binds graph symbols in AddNode() only"},
        {"constant item size", [] { ConstInfo("w.bin", 1, 1, 12, 0); },
         "error: ConstInfo(\"w.bin\"): item size 12 bits is not 8, 16 or 32"},
        {"constant fraction", [] { ConstInfo("w.bin", 1, 1, 16, 16); },
         "error: ConstInfo(\"w.bin\"): 16 fractional bits do not fit a 16-bit item"},
        {"unknown graph option", [] { AT_SetGraphCtrl(AT_GraphCtrl_T(1000), AT_OPT_ON); },
         "error: AT_SetGraphCtrl: option 1000 is not one of the AT_GRAPH_* or AT_KERNEL_* options"},
        {"warm mode out of range", [] { AT_SetGraphCtrl(AT_GRAPH_WARM_CONSTRUCT, AT_OPT_VAL(4)); },
         "error: AT_SetGraphCtrl(AT_GRAPH_WARM_CONSTRUCT): value 4 is not WARM_DISABLED"},
        {"L3 exec memory is a flash",
         [] { AT_SetGraphCtrl(AT_GRAPH_PREF_L3_EXEC, AT_OPT_VAL(AT_MEM_L3_HFLASH)); },
         "error: AT_SetGraphCtrl(AT_GRAPH_PREF_L3_EXEC): value 7 is AT_MEM_L3_HFLASH, not an L3 Ram"},
        {"C name given as a number", [] { AT_SetGraphCtrl(AT_GRAPH_MONITOR_CVAR_NAME, AT_OPT_VAL(1)); },
         "error: AT_SetGraphCtrl(AT_GRAPH_MONITOR_CVAR_NAME): value 1 is a number; this option takes a name"},
        // ConvPad and PoolPad are flags in GreenWaves' generators; an amount is refused, not misread.
        {"ConvPad given as an amount",
         [] {
             LoadCNNLibrary();
             CNN_ConvolutionPoolReLU("Conv", 0, 2, 2, 2, 2, 12, 14, 14, 12, 1, 1, 1, 1, 4, 4, 16, 16, KOP_CONV, 5, 5, 1,
                                     1, 1, 1, 2, KOP_NONE, 1, 1, 1, 1, 1, 1, 0, KOP_NONE);
         },
         "Conv: ConvPad is 2; it is a flag, as in GreenWaves' generators: 0 no padding, 1 \"same\" zero padding"},
        {"PoolPad given as an amount",
         [] {
             LoadCNNLibrary();
             CNN_PoolReLU("Pool", 0, 2, 2, 12, 12, 1, 1, 4, 16, 16, KOP_MAXPOOL, 5, 5, 1, 1, 1, 1, 2, KOP_NONE);
         },
         "Pool: PoolPad is 2; it is a flag"},
        // Generator controls (CNN_SetGenCtrl): names the SDK knows, values a layer can honour.
        {"unknown generator option",
         [] {
             CNN_GenControl_T control;
             CNN_InitGenCtrl(&control);
             CNN_SetGenCtrl(&control, "PADDING", AT_OPT_VAL(1));
         },
         "error: CNN_SetGenCtrl: no option \"PADDING\"; the options are TILEORIENTATION, PARALLELFEATURES"},
        {"padding type out of range",
         [] {
             CNN_GenControl_T control;
             CNN_InitGenCtrl(&control);
             CNN_SetGenCtrl(&control, "padtype", AT_OPT_VAL(7));
         },
         "error: CNN_SetGenCtrl(\"padtype\", 7): a padding type is PAD_LEFT (0), PAD_RIGHT (1)"},
        {"HWC order refused by a layer",
         [] {
             LoadCNNLibrary();
             CNN_GenControl_T control;
             CNN_InitGenCtrl(&control);
             CNN_SetGenCtrl(&control, "HWC", AT_OPT_ON);
             CNN_PoolReLU("Pool", &control, 2, 2, 12, 12, 0, 0, 4, 16, 16, KOP_MAXPOOL, 2, 2, 1, 1, 2, 2, 0, KOP_NONE);
         },
         "Pool: the generator control sets HWC (tensors in HWC order; they are CHW), which Tessera's generators do "
         "not compute"},
        {"another ReLU clip refused",
         [] {
             LoadCNNLibrary();
             CNN_GenControl_T control;
             CNN_InitGenCtrl(&control);
             CNN_SetGenCtrlList(&control, "ReluN", AT_OPT_VAL(8), "TileOrientation", AT_OPT_VAL(TILE_VER), nullptr);
             CNN_ConvolutionPoolReLU("Conv", &control, 2, 2, 2, 2, 12, 14, 14, 12, 0, 0, 0, 0, 4, 4, 16, 16, KOP_CONV,
                                     3, 3, 1, 1, 1, 1, 1, KOP_NONE, 1, 1, 1, 1, 1, 1, 0, KOP_RELUN);
         },
         "Conv: the generator control sets RELUN 8 (KOP_RELUN clips at 6)"},
        {"an SDK operation Tessera does not implement",
         [] {
             LoadCNNLibrary();
             CNN_ConvolutionPoolReLU("Conv", nullptr, 2, 2, 2, 2, 12, 14, 14, 12, 0, 0, 0, 0, 4, 4, 16, 16, KOP_CONV,
                                     3, 3, 1, 1, 1, 1, 1, KOP_NONE, 1, 1, 1, 1, 1, 1, 0, KOP_HSWISH);
         },
         "Conv: the activation must be KOP_NONE, KOP_RELU or KOP_RELUN (ReLU6)"},
        // Stacked tensors (AddStackedTensors): what the graph cannot resolve when it closes.
        {"stack of no symbol",
         [] {
             CreateGraph("Net", nullptr, nullptr);
             AddStackedTensors("Cat", 1, "Part");
             CloseGraph();
         },
         "error: graph Net: AddStackedTensors(\"Cat\"): Cat is no symbol of the graph; declare it as a local or an "
         "output argument"},
        {"stack member declared",
         [] {
             CreateGraph("Net", nullptr, CArgs(2, localSymbol("Cat"), localSymbol("Part")));
             AddStackedTensors("Cat", 1, "Part");
             CloseGraph();
         },
         "member Part is also declared as a graph symbol; a member is a part of Cat, leave it out of CreateGraph's lists"},
        {"stack member never bound",
         [] {
             CreateGraph("Net", nullptr, CArgs(1, localSymbol("Cat")));
             AddStackedTensors("Cat", 2, "Left", "Right");
             CloseGraph();
         },
         "error: graph Net: stacked member Left of Cat is bound by no node, so its size is unknown"},
        {"stack member twice",
         [] {
             CreateGraph("Net", nullptr, CArgs(1, localSymbol("Cat")));
             AddStackedTensors("Cat", 2, "Part", "Part");
             CloseGraph();
         },
         "error: graph Net: AddStackedTensors(\"Cat\"): Part is stacked twice"},
        // In-place bindings (GNodeArg(GNA_INOUT, Name, AliasedArgName)): resolved when the graph closes.
        {"in-place write of an argument",
         [] {
             CreateGraph("Net", CArgs(1, TCArg("short *", "Out")), CArgs(1, localSymbol("State")));
             AddNode("Step", Bindings(1, GNodeArg(GNA_INOUT, "Out", "State")));
             CloseGraph();
         },
         "error: graph Net: node Step: GNodeArg(GNA_INOUT, \"Out\", \"State\"): Out is ARG_SCOPE_ARG; a symbol "
         "written in place of another must be declared as a local (ARG_SCOPE_LOCAL)"},
        {"in-place write of an undeclared symbol",
         [] {
             CreateGraph("Net", nullptr, CArgs(1, localSymbol("State")));
             AddNode("Step", Bindings(1, GNodeArg(GNA_INOUT, "State01", "State")));
             CloseGraph();
         },
         "State01 is no symbol of the graph; a symbol written in place of another must be declared as a local"},
        {"in-place write over an unknown symbol",
         [] {
             CreateGraph("Net", nullptr, CArgs(1, localSymbol("State01")));
             AddNode("Step", Bindings(1, GNodeArg(GNA_INOUT, "State01", "State")));
             CloseGraph();
         },
         "error: graph Net: node Step: GNodeArg(GNA_INOUT, \"State01\", \"State\"): State is no symbol of the graph"},
        {"in-place write over a constant",
         [] {
             CreateGraph("Net",
                         CArgs(1, TCArgInfo("short *", "Weights", ARG_SCOPE_GLOBAL, ARG_DIR_CONSTIN, AT_MEM_L3_HFLASH,
                                            AT_MEM_UNDEF, ConstInfo("w.bin", 1, 1, 16, 0))),
                         CArgs(1, localSymbol("State01")));
             AddNode("Step", Bindings(1, GNodeArg(GNA_INOUT, "State01", "Weights")));
             CloseGraph();
         },
         "Weights is a constant, which no node writes; copy it into a local first"},
        {"local written in place of two symbols",
         [] {
             CreateGraph("Net", nullptr, CArgs(3, localSymbol("A"), localSymbol("B"), localSymbol("State01")));
             AddNode("First", Bindings(1, GNodeArg(GNA_INOUT, "State01", "A")));
             AddNode("Second", Bindings(1, GNodeArg(GNA_INOUT, "State01", "B")));
             CloseGraph();
         },
         "node Second: GNodeArg(GNA_INOUT, \"State01\", \"B\"): State01 is also written in place of A by node First; "
         "a local shares the buffer of one symbol only"},
        {"in-place writes in a cycle",
         [] {
             CreateGraph("Net", nullptr, CArgs(2, localSymbol("A"), localSymbol("B")));
             AddNode("First", Bindings(1, GNodeArg(GNA_INOUT, "A", "B")));
             AddNode("Second", Bindings(1, GNodeArg(GNA_INOUT, "B", "A")));
             CloseGraph();
         },
         "error: graph Net: the in-place bindings (GNA_INOUT) of A, B form a cycle, so none of them has a buffer"},
        {"stack into an in-place local",
         [] {
             CreateGraph("Net", nullptr, CArgs(2, localSymbol("State"), localSymbol("State01")));
             AddNode("Step", Bindings(1, GNodeArg(GNA_INOUT, "State01", "State")));
             AddStackedTensors("State01", 1, "Part");
             CloseGraph();
         },
         "AddStackedTensors(\"State01\"): State01 is written in place of State (GNA_INOUT), so it has no buffer to stack "
         "into; stack into State"},
        {"stack of no member", [] { AddStackedTensors("Cat", 0); },
         "error: AddStackedTensors(\"Cat\", 0): 0 members; stack 1 to 4096 tensors"},
    };
    return rows;
}

}  // namespace

class TestGapGraphApi : public QObject {
    Q_OBJECT

private slots:
    void init() { gap::resetModel(); }
    void cleanupTestCase() { gap::resetModel(); }

    void mnistModelBuildsDevicesAndOptions()
    {
        buildGuideMnist();
        const tiler::KernelModel& model = gap::currentModel();
        QCOMPARE(model.devices.size(), std::size_t(4));
        const struct {
            Location location;
            std::uint64_t size;
            const char* baseName;
            const char* constFile;
        } expected[] = {
            {Location::L1, 48000, "Mnist_L1_Memory", ""},
            {Location::L2, 300 * 1024, "Mnist_L2_Memory", ""},
            {Location::L3DefaultRam, 8 * 1024 * 1024, "Mnist_L3_Memory", ""},
            {Location::L3DefaultFlash, 20 * 1024 * 1024, "0", "Mnist_L3_Flash_Const.dat"},
        };
        for (std::size_t i = 0; i < std::size(expected); ++i) {
            const tiler::MemoryDevice& device = model.devices[i];
            QVERIFY(device.location == expected[i].location);
            QCOMPARE(device.size, expected[i].size);
            QCOMPARE(device.baseName, std::string(expected[i].baseName));
            QCOMPARE(device.constFile, std::string(expected[i].constFile));
            QVERIFY(!device.externallyManaged);
        }
        // The L1, L2 and L3 Ram devices are also the tiling budgets.
        QCOMPARE(model.options.l1Size, 48000u);
        QCOMPARE(model.options.l2Size, 300u * 1024);
        QCOMPARE(model.options.l3Size, 8u * 1024 * 1024);

        QCOMPARE(model.graphControls.size(), std::size_t(1));
        QCOMPARE(model.graphControls[0].option, int(AT_GRAPH_TRACE_EXEC));
        QCOMPARE(model.graphControls[0].value, std::intptr_t(1));

        QVERIFY(model.options.dynamicSymbols);
        QCOMPARE(model.options.libKernelHeaders, (std::vector<std::string>{"CNN_BasicKernels.h", "MnistKernels.h"}));
        QCOMPARE(model.options.kernelsSource, std::string("MnistKernels.c"));
        QCOMPARE(model.options.kernelsHeader, std::string("MnistKernels.h"));
        QVERIFY(model.options.initSource.empty() && model.options.initHeader.empty());
    }

    void mnistModelBuildsTheGraph()
    {
        buildGuideMnist();
        tiler::KernelModel& model = gap::currentModel();
        QCOMPARE(model.userKernels.size(), std::size_t(4));
        QCOMPARE(model.graphs.size(), std::size_t(1));
        const tiler::GraphModel& graph = model.graphs[0];
        QCOMPARE(graph.name, std::string("MnistCNN"));
        QVERIFY(graph.closed);

        QCOMPARE(graph.arguments.size(), std::size_t(8));
        const tiler::GraphArgument& input = graph.arguments[0];
        QCOMPARE(input.carg.type, std::string("short int *__restrict__"));
        QCOMPARE(input.carg.name, std::string("Input0"));
        QVERIFY(input.scope == Scope::Argument && input.direction == SymbolDirection::In);
        QVERIFY(input.home == Location::L2 && input.execution == Location::Undefined);
        QVERIFY(!input.hasConstant);
        const char* constants[] = {"Step1Weights", "Step1Biases", "Step2Weights", "Step2Biases", "Step3Weights",
                                   "Step3Biases"};
        for (std::size_t i = 0; i < std::size(constants); ++i) {
            const tiler::GraphArgument& constant = graph.arguments[i + 1];
            QCOMPARE(constant.carg.name, std::string(constants[i]));
            QVERIFY(constant.scope == Scope::Global && constant.direction == SymbolDirection::ConstIn);
            QVERIFY(constant.home == Location::L3HyperFlash && constant.execution == Location::Undefined);
            QVERIFY(constant.hasConstant);
            QCOMPARE(constant.constant.file, "model/" + std::string(constants[i]) + ".tensor");
            QVERIFY(!constant.constant.floatValues && constant.constant.binary);  // format 1: fixed point
            QCOMPARE(constant.constant.bits, 16);
            QCOMPARE(constant.constant.fractionalBits, 0);
        }
        const tiler::GraphArgument& output = graph.arguments[7];
        QCOMPARE(output.carg.name, std::string("Output0"));
        QVERIFY(output.scope == Scope::Argument && output.direction == SymbolDirection::Out);
        QVERIFY(output.home == Location::Undefined && output.execution == Location::L2);

        QCOMPARE(graph.locals.size(), std::size_t(3));
        for (std::size_t i = 0; i < graph.locals.size(); ++i) {
            const tiler::GraphArgument& local = graph.locals[i];
            QCOMPARE(local.carg.name, "OutputStep" + std::to_string(i + 2));
            QVERIFY(local.scope == Scope::Local && local.direction == SymbolDirection::InOut);
            QVERIFY(local.home == Location::Undefined && local.execution == Location::Undefined);
            QVERIFY(!local.hasConstant);
        }

        const std::vector<std::pair<std::string, std::vector<std::pair<Direction, std::string>>>> nodes = {
            {"Conv5x5ReLUMaxPool2x2_0",
             {{Direction::In, "Input0"}, {Direction::In, "Step1Weights"}, {Direction::In, "Step1Biases"},
              {Direction::Out, "OutputStep2"}}},
            {"Conv5x5ReLUMaxPool2x2_1",
             {{Direction::In, "OutputStep2"}, {Direction::In, "Step2Weights"}, {Direction::In, "Step2Biases"},
              {Direction::Out, "OutputStep3"}}},
            {"LinearLayerReLU_0",
             {{Direction::In, "OutputStep3"}, {Direction::In, "Step3Weights"}, {Direction::In, "Step3Biases"},
              {Direction::Out, "OutputStep4"}}},
            {"SoftMax_0", {{Direction::In, "OutputStep4"}, {Direction::Out, "Output0"}}},
        };
        QCOMPARE(graph.nodes.size(), nodes.size());
        for (std::size_t i = 0; i < nodes.size(); ++i) {
            QCOMPARE(graph.nodes[i].kernel, nodes[i].first);
            QCOMPARE(graph.nodes[i].bindings.size(), nodes[i].second.size());
            for (std::size_t j = 0; j < nodes[i].second.size(); ++j) {
                const tiler::GraphNodeBinding& binding = graph.nodes[i].bindings[j];
                QVERIFY(binding.direction == nodes[i].second[j].first);
                QCOMPARE(binding.symbol, nodes[i].second[j].second);
                QVERIFY(binding.stackMember.empty());
            }
        }
        // A graph is not an item of the kernel file: the four layers are.
        QCOMPARE(model.items.size(), std::size_t(4));

        const std::vector<std::string> problems = tiler::checkModel(model);
        QVERIFY2(problems.empty(), joinedProblems(problems).c_str());
        QVERIFY(gap::unfinishedBuildProblems().empty());
    }

    // ConstInfo's Format is the SDK's: 0 = floating-point values converted with Fract, 1 = values
    // already in the container's fixed-point format (NNTool writes these). Both files below hold
    // the same int16 constant, 0.5 and -0.25 in Q14.
    void constInfoFormatIsTheSdks()
    {
        QTemporaryDir work;
        const std::string floats = work.filePath(QStringLiteral("w_float.tensor")).toStdString();
        const std::string fixed = work.filePath(QStringLiteral("w_fixed.tensor")).toStdString();
        const float floatValues[] = {0.5f, -0.25f};
        const int16_t fixedValues[] = {8192, -4096};
        FILE* file = std::fopen(floats.c_str(), "wb");
        QVERIFY(file && std::fwrite(floatValues, sizeof floatValues, 1, file) == 1 && std::fclose(file) == 0);
        file = std::fopen(fixed.c_str(), "wb");
        QVERIFY(file && std::fwrite(fixedValues, sizeof fixedValues, 1, file) == 1 && std::fclose(file) == 0);

        const auto load = [](const ConstInit_T* info) {
            tiler::GraphArgument argument;
            argument.carg.name = "W";
            argument.hasConstant = true;
            argument.constant = info->value;
            tiler::GraphModel graph;
            graph.name = "G";
            tiler::GraphTensor tensor;
            tensor.name = "W";
            tensor.argument = &argument;
            tensor.bytes = 4;
            return tiler::loadConstant(graph, tensor);
        };
        const std::vector<uint8_t> expected = {0x00, 0x20, 0x00, 0xF0};
        QVERIFY(load(ConstInfo(floats.c_str(), 0, 1, 16, 14)) == expected);
        QVERIFY(load(ConstInfo(fixed.c_str(), 1, 1, 16, 14)) == expected);
        // Read the other way round, neither file holds two values: the flag is not ignored.
        QVERIFY_THROWS_EXCEPTION(ModelError, load(ConstInfo(fixed.c_str(), 0, 1, 16, 14)));   // 4 bytes: one float
        QVERIFY_THROWS_EXCEPTION(ModelError, load(ConstInfo(floats.c_str(), 1, 1, 16, 14)));  // 8 bytes: four int16
    }

    void graphControlsKeepTheirValues()
    {
        AT_SetGraphCtrl(AT_GRAPH_MONITOR_CYCLES, AT_OPT_ON);
        AT_SetGraphCtrl(AT_GRAPH_MONITOR_CVAR_NAME, AT_OPT_VAL("MnistPerf"));
        AT_SetGraphCtrl(AT_GRAPH_PREF_L3_EXEC, AT_OPT_VAL(AT_MEM_L3_HRAM));
        AT_SetGraphCtrl(AT_GRAPH_PRIVILEGED_L3_HOME, AT_OPT_VAL(0));
        AT_SetGraphCtrl(AT_GRAPH_WARM_CONSTRUCT, AT_OPT_VAL(WARM_ALL));
        AT_SetGraphCtrl(AT_GRAPH_L2_STATIC_MEMORY_BUDGET, AT_OPT_VAL(200000));
        AT_SetGraphCtrl(AT_GRAPH_MONITOR_CYCLES, AT_OPT_OFF);  // replaces the first setting, in its place
        const std::vector<tiler::GraphControl>& controls = gap::currentModel().graphControls;
        QCOMPARE(controls.size(), std::size_t(6));
        QCOMPARE(controls[0].option, int(AT_GRAPH_MONITOR_CYCLES));
        QCOMPARE(controls[0].value, std::intptr_t(0));
        QCOMPARE(controls[1].option, int(AT_GRAPH_MONITOR_CVAR_NAME));
        QCOMPARE(controls[1].text, std::string("MnistPerf"));
        QCOMPARE(controls[2].value, std::intptr_t(AT_MEM_L3_HRAM));
        QCOMPARE(controls[3].value, std::intptr_t(0));
        QCOMPARE(controls[4].value, std::intptr_t(WARM_ALL));
        QCOMPARE(controls[5].option, int(AT_GRAPH_L2_STATIC_MEMORY_BUDGET));
        QCOMPARE(controls[5].value, std::intptr_t(200000));
        // The options that steer generation reach the generation options.
        const tiler::GenerationOptions& options = gap::currentModel().options;
        QVERIFY(options.promoteBuffers && options.promotePartialBuffers && !options.checksumTensors);
        AT_SetGraphCtrl(AT_KERNEL_BUFFER_PROMOTE, AT_OPT_OFF);
        AT_SetGraphCtrl(AT_KERNEL_PARTIAL_BUFFER_PROMOTE, AT_OPT_OFF);
        AT_SetGraphCtrl(AT_GRAPH_CHECKSUM, AT_OPT_ON);
        AT_SetGraphCtrl(AT_GRAPH_DUMP_TENSOR, AT_OPT_VAL(3));
        AT_SetGraphCtrl(AT_GRAPH_DUMP_ONE_NODE, AT_OPT_VAL("Conv5x5ReLUMaxPool2x2_1"));
        AT_SetGraphCtrl(AT_GRAPH_NOINLINE_NODE, AT_OPT_ON);
        QVERIFY(!options.promoteBuffers && !options.promotePartialBuffers && options.checksumTensors);
        QCOMPARE(options.dumpTensorMask, 3u);
        QCOMPARE(options.dumpOneNode, std::string("Conv5x5ReLUMaxPool2x2_1"));
        QVERIFY(options.noinlineKernels);
        // The values of the C API match the guide's list, which starts at 1.
        QCOMPARE(int(AT_KERNEL_BUFFER_PROMOTE), 1);
        QCOMPARE(int(AT_GRAPH_L3_STATIC_MEMORY_BUDGET), 32);
    }

    void generatedFilesNamesTakeTwoOrFourNames()
    {
        const tiler::GenerationOptions& options = gap::currentModel().options;
        SetGeneratedFilesNames("out/Net.v2/Kernels", "NetKernels.hpp");
        QCOMPARE(options.kernelsSource, std::string("out/Net.v2/Kernels"));
        QCOMPARE(options.kernelsHeader, std::string("NetKernels.hpp"));
        QVERIFY(options.initSource.empty() && options.initHeader.empty());  // two names: no init files
        SetGeneratedFilesNames("A.c", nullptr);  // NULL keeps the header
        QCOMPARE(options.kernelsSource, std::string("A.c"));
        QCOMPARE(options.kernelsHeader, std::string("NetKernels.hpp"));
        SetGeneratedFilesNames("I.c", "I.h", "K.c", "K.h");
        QCOMPARE(options.initSource, std::string("I.c"));
        QCOMPARE(options.initHeader, std::string("I.h"));
        QCOMPARE(options.kernelsSource, std::string("K.c"));
        QCOMPARE(options.kernelsHeader, std::string("K.h"));
    }

    void tcArgAndTcArgInfoAreInterchangeable()
    {
        // TCArgInfo where TCArg is expected: its C type and name.
        LibKernel("Copy", CALL_SEQUENTIAL,
                  CArgs(2, TCArgInfo("short *", "In", ARG_SCOPE_ARG, ARG_DIR_IN, AT_MEM_L2, AT_MEM_UNDEF, nullptr),
                        TCArg("short *", "Out")),
                  "");
        const tiler::KernelModel& model = gap::currentModel();
        QCOMPARE(model.findBasicKernel("Copy")->args[0].name, std::string("In"));
        QCOMPARE(model.findBasicKernel("Copy")->args[0].type, std::string("short *"));
        // TCArg where TCArgInfo is expected: an in-out symbol of the list's scope.
        CreateGraph("Net", CArgs(1, TCArg("short *", "Io")), CArgs(1, TCArg("short *", "Tmp")));
        const tiler::GraphModel& graph = model.graphs.at(0);
        QVERIFY(graph.arguments[0].scope == Scope::Argument && graph.arguments[0].direction == SymbolDirection::InOut);
        QVERIFY(graph.locals[0].scope == Scope::Local && graph.locals[0].direction == SymbolDirection::InOut);
        QCOMPARE(graph.locals[0].carg.type, std::string("short *"));
        QVERIFY(!graph.closed);
        CloseGraph();
        QVERIFY(graph.closed);
    }

    void variadicZeroNamesAreNull()
    {
        // A literal 0 passed through '...' may arrive with garbage in the upper half of its slot.
        const auto zeroWithGarbage = reinterpret_cast<const char*>(std::uintptr_t(0xdeadbeef00000000ull));
        SetMemoryDeviceInfos(2, AT_MEM_L2, 4096u, "L2", zeroWithGarbage, 1, AT_MEM_L3_MRAMFLASH, 1024u, "Mram",
                             "Const.dat", 0);
        const tiler::KernelModel& model = gap::currentModel();
        QCOMPARE(model.devices.size(), std::size_t(2));
        QVERIFY(model.devices[0].constFile.empty());
        QVERIFY(model.devices[0].externallyManaged);
        QCOMPARE(model.devices[1].constFile, std::string("Const.dat"));
        QVERIFY(model.devices[1].location == Location::L3MramFlash);
    }

    void graphLeftOpenIsReported()
    {
        CreateGraph("Net", nullptr, CArgs(1, localSymbol("Tmp")));
        const std::vector<std::string> problems = gap::unfinishedBuildProblems();
        QCOMPARE(problems.size(), std::size_t(1));
        QVERIFY2(problems[0].find("graph Net was created but never closed: call CloseGraph()") != std::string::npos,
                 problems[0].c_str());
        gap::resetModel();
        QVERIFY(gap::unfinishedBuildProblems().empty());
        QVERIFY(gap::currentModel().graphs.empty() && gap::currentModel().devices.empty());
    }

    void checkModelNamesEachGraphError_data()
    {
        QTest::addColumn<int>("row");
        for (std::size_t i = 0; i < checkRows().size(); ++i)
            QTest::newRow(checkRows()[i].name) << int(i);
    }

    void checkModelNamesEachGraphError()
    {
        QFETCH(int, row);
        const CheckRow& check = checkRows()[std::size_t(row)];
        buildGuideMnist();
        tiler::KernelModel& model = gap::currentModel();
        QVERIFY(tiler::checkModel(model).empty());
        check.breakModel(model);
        const std::vector<std::string> problems = tiler::checkModel(model);
        const bool found = std::any_of(problems.begin(), problems.end(), [&](const std::string& problem) {
            return std::all_of(check.expected.begin(), check.expected.end(),
                               [&](const std::string& part) { return problem.find(part) != std::string::npos; });
        });
        QVERIFY2(found, ("expected \"" + check.expected.front() + "\" among:\n" + joinedProblems(problems)).c_str());
    }

    void graphBuildersStopAtOnce_data()
    {
        QTest::addColumn<int>("row");
        for (std::size_t i = 0; i < immediateErrorRows().size(); ++i)
            QTest::newRow(immediateErrorRows()[i].name) << int(i);
    }

    void graphBuildersStopAtOnce()
    {
        QFETCH(int, row);
        const ImmediateErrorRow& error = immediateErrorRows()[std::size_t(row)];
        const ChildOutcome outcome = runInChild(error.body);
        QCOMPARE(outcome.exitStatus, 1);
        QVERIFY2(outcome.errorOutput.find(error.expected) != std::string::npos, outcome.errorOutput.c_str());
    }

    // The options Tessera accepts without acting on them warn when set to anything else than what the
    // generated code does anyway; setting them to that value is silent.
    void unimplementedOptionsWarn()
    {
        const ChildOutcome changed = runInChild([] {
            AT_SetGraphCtrl(AT_GRAPH_L1_PROMOTION, AT_OPT_ON);
            AT_SetGraphCtrl(AT_GRAPH_REORDER_CONSTANT_IN, AT_OPT_OFF);
            AT_SetGraphCtrl(AT_GRAPH_SIZE_OPT, AT_OPT_ON);
            std::fflush(stderr);
            std::_Exit(0);  // no exit-time leak report in sanitized builds
        });
        QCOMPARE(changed.exitStatus, 0);
        QVERIFY2(changed.errorOutput.find("warning: AT_SetGraphCtrl(AT_GRAPH_L1_PROMOTION): Tessera does not implement "
                                          "this option; the generated code behaves as with the value 0")
                     != std::string::npos,
                 changed.errorOutput.c_str());
        QVERIFY(changed.errorOutput.find("AT_GRAPH_REORDER_CONSTANT_IN") != std::string::npos);
        QVERIFY(changed.errorOutput.find("AT_GRAPH_SIZE_OPT") == std::string::npos);
        const ChildOutcome unchanged = runInChild([] {
            AT_SetGraphCtrl(AT_GRAPH_L1_PROMOTION, AT_OPT_OFF);
            AT_SetGraphCtrl(AT_GRAPH_REORDER_CONSTANT_IN, AT_OPT_ON);
            std::fflush(stderr);
            std::_Exit(0);  // no exit-time leak report in sanitized builds
        });
        QCOMPARE(unchanged.exitStatus, 0);
        QVERIFY2(unchanged.errorOutput.empty(), unchanged.errorOutput.c_str());
        QVERIFY(!gap::currentModel().options.sizeOptimizedGraph);
        AT_SetGraphCtrl(AT_GRAPH_SIZE_OPT, AT_OPT_ON);
        QVERIFY(gap::currentModel().options.sizeOptimizedGraph);
    }

    // AT_KERNEL_NOSOLUTION_ERROR off: a layer without a tiling in L1 is dropped when declared, its
    // generator returns 0 (UserKernel() NULL), and the model can fall back to another; on (the
    // default) the layer stays and the failure waits for GenerateTilingCode().
    // AddStackedTensors: two convolutions write their outputs into the parts of one tensor that a
    // third reads whole (a concatenation along channels without a copy). Closing the graph gives
    // each member its size and offset from the kernel argument it is bound to; the placement has one
    // buffer for the three, and the generated calls pass each producer its part.
    void stackedTensorsShareOneBuffer()
    {
        const auto conv = [](const char* name, int in, int out) {
            CNN_ConvolutionPoolReLU(name, 0, 2, 2, 2, 2, 12, 14, 14, 12, 0, 0, 0, 0, in, out, 8, 8, KOP_CONV, 1, 1, 1, 1,
                                    1, 1, 0, KOP_NONE, 1, 1, 1, 1, 1, 1, 0, KOP_RELU);
        };
        QTemporaryDir out;
        QVERIFY(out.isValid());
        SetGeneratedFilesNames("StackKernels.c", "StackKernels.h");
        SetMemoryDeviceInfos(2, AT_MEM_L1, 48000, "Stack_L1", 0, 0, AT_MEM_L2, 200 * 1024, "Stack_L2", 0, 0);
        LoadCNNLibrary();
        conv("BranchA", 4, 6);
        conv("BranchB", 4, 10);
        conv("Join", 16, 2);
        const auto argument = [](const char* name, ArgDirection_T direction) {
            return TCArgInfo("short int *__restrict__", name, ARG_SCOPE_ARG, direction, AT_MEM_L2, AT_MEM_UNDEF, 0);
        };
        CreateGraph("Stack",
                    CArgs(8, argument("In", ARG_DIR_IN), argument("WA", ARG_DIR_IN), argument("BA", ARG_DIR_IN),
                          argument("WB", ARG_DIR_IN), argument("BB", ARG_DIR_IN), argument("WJ", ARG_DIR_IN),
                          argument("BJ", ARG_DIR_IN), argument("Out", ARG_DIR_OUT)),
                    CArgs(1, localSymbol("Cat")));
        AddNode("BranchA", Bindings(4, GNodeArg(GNA_IN, "In", 0), GNodeArg(GNA_IN, "WA", 0), GNodeArg(GNA_IN, "BA", 0),
                                    GNodeArg(GNA_OUT, "CatA", 0)));
        AddNode("BranchB", Bindings(4, GNodeArg(GNA_IN, "In", 0), GNodeArg(GNA_IN, "WB", 0), GNodeArg(GNA_IN, "BB", 0),
                                    GNodeArg(GNA_OUT, "CatB", 0)));
        AddNode("Join", Bindings(4, GNodeArg(GNA_IN, "Cat", 0), GNodeArg(GNA_IN, "WJ", 0), GNodeArg(GNA_IN, "BJ", 0),
                                 GNodeArg(GNA_OUT, "Out", 0)));
        AddStackedTensors("Cat", 2, "CatA", "CatB");
        CloseGraph();
        // NNTool's in-out form names the symbol twice.
        QVERIFY(GNodeArg(GNA_INOUT, "Cat", "Cat") != nullptr);

        tiler::KernelModel& model = gap::currentModel();
        const tiler::GraphModel& graph = model.graphs.at(0);
        QCOMPARE(graph.stacks.size(), std::size_t(1));
        QCOMPARE(graph.stacks[0].bytes, (std::vector<std::uint64_t>{6 * 64 * 2, 10 * 64 * 2}));
        QCOMPARE(graph.stacks[0].offsets, (std::vector<std::uint64_t>{0, 6 * 64 * 2}));
        const tiler::GraphNodeBinding& second = graph.nodes[1].bindings[3];
        QCOMPARE(second.symbol, std::string("Cat"));
        QCOMPARE(second.stackMember, std::string("CatB"));
        QCOMPARE(second.offset, std::uint64_t(768));
        QCOMPARE(graph.nodes[2].bindings[0].offset, std::uint64_t(0));
        QVERIFY(graph.nodes[2].bindings[0].stackMember.empty());
        const std::vector<std::string> problems = tiler::checkModel(model);
        QVERIFY2(problems.empty(), joinedProblems(problems).c_str());

        model.options.outputDir = out.path().toStdString();
        const tiler::GenerationResult generated = tiler::generateTilingCode(model);
        QVERIFY2(generated.ok, generated.error.c_str());
        QFile source(out.filePath(QStringLiteral("StackKernels.c")));
        QVERIFY(source.open(QIODevice::ReadOnly));
        const QString code = QString::fromUtf8(source.readAll());
        // One dynamic buffer of 2048 bytes holds the stack: BranchA writes its start, BranchB 768
        // bytes in, Join reads it whole.
        // The graph runner's calls come after the kernels' definitions.
        const qsizetype branchB = code.lastIndexOf(QStringLiteral("BranchB(\n"));
        QVERIFY2(branchB > 0, qPrintable(code));
        const qsizetype join = code.indexOf(QStringLiteral("Join(\n"), branchB);
        QVERIFY(join > branchB);
        const QString branchBCall = code.mid(branchB, join - branchB);
        QVERIFY2(branchBCall.contains(QStringLiteral(") + 768)")), qPrintable(branchBCall));
        QVERIFY2(!branchBCall.contains(QStringLiteral("CatB")), qPrintable(branchBCall));
        QVERIFY2(code.contains(QStringLiteral("2048")), qPrintable(code));
        const tiler::GraphAllocation allocation = tiler::allocateGraph(model, graph, 200 * 1024);
        QVERIFY2(allocation.ok, allocation.error.c_str());
        const tiler::GraphTensor* cat = allocation.find("Cat");
        QVERIFY(cat != nullptr);
        QCOMPARE(cat->bytes, std::uint64_t(2048));
        QCOMPARE(cat->firstNode, 0);
        QCOMPARE(cat->lastNode, 2);
        QVERIFY2(cat->reason.find("stacked tensors, used in place: CatA at 0, CatB at 768") != std::string::npos,
                 cat->reason.c_str());
        QVERIFY(allocation.find("CatA") == nullptr);
    }

    // A generator control as NNTool sets one: the padding split and the L3 homes reach the layer.
    void generatorControlsReachTheLayer_data()
    {
        QTest::addColumn<int>("padType");
        QTest::addColumn<unsigned>("above");
        QTest::addColumn<unsigned>("below");
        // A 4x4 window, stride 1: 3 lines of "same" padding.
        QTest::newRow("default") << -1 << 2u << 1u;
        QTest::newRow("PAD_LEFT") << int(PAD_LEFT) << 3u << 0u;
        QTest::newRow("PAD_RIGHT") << int(PAD_RIGHT) << 0u << 3u;
        QTest::newRow("PAD_BALANCED_LEFT") << int(PAD_BALANCED_LEFT) << 2u << 1u;
        QTest::newRow("PAD_BALANCED_RIGHT") << int(PAD_BALANCED_RIGHT) << 1u << 2u;
    }
    void generatorControlsReachTheLayer()
    {
        QFETCH(int, padType);
        QFETCH(unsigned, above);
        QFETCH(unsigned, below);
        LoadCNNLibrary();
        LoadCNN_SQ8_Library();
        CNN_GenControl_T control;
        CNN_InitGenCtrl(&control);
        if (padType >= 0)
            CNN_SetGenCtrl(&control, "PADTYPE", AT_OPT_VAL(padType));
        CNN_SetGenCtrl(&control, "in_l3", AT_OPT_ON);
        CNN_SetGenCtrl(&control, "ENABLEIM2COL", AT_OPT_ON);  // a hint: accepted, changes nothing computed
        for (const char* name : {"Conv16", "ConvSQ8"}) {
            const int made =
                std::string(name) == "Conv16"
                    ? CNN_ConvolutionPoolReLU(name, &control, 2, 2, 2, 2, 12, 14, 14, 12, 0, 0, 0, 0, 2, 4, 12, 12,
                                              KOP_CONV, 4, 4, 1, 1, 1, 1, 1, KOP_NONE, 1, 1, 1, 1, 1, 1, 0, KOP_NONE)
                    : CNN_ConvolutionPoolAct_SQ8(name, &control, 4, 1, 2, 4, 12, 12, KOP_CONV, 4, 4, 1, 1, 1, 1, 1,
                                                 KOP_NONE, 1, 1, 1, 1, 1, 1, 0, KOP_NONE);
            QCOMPARE(made, 1);
            const tiler::UserKernel* kernel = gap::currentModel().findUserKernel(name);
            QVERIFY(kernel);
            for (const tiler::KernelArgument& arg : kernel->args) {
                if (arg.name == "In") {
                    QCOMPARE(arg.padBefore, above);
                    QCOMPARE(arg.padAfter, below);
                }
                // In_L3 homes In in L3 (streamed through L2 staging); the others stay in L2.
                QCOMPARE(bool(arg.flags & tiler::ArgFlag::L2DoubleBuffer), arg.name == "In");
            }
        }
    }

    void noSolutionErrorOffDropsLayersWithoutTiling()
    {
        const auto conv = [](const char* name) {
            return CNN_ConvolutionPoolReLU(name, 0, 2, 2, 2, 2, 12, 14, 14, 12, 1, 1, 1, 1, 32, 64, 12, 12, KOP_CONV_DP,
                                           5, 5, 1, 1, 1, 1, 0, KOP_MAXPOOL, 2, 2, 1, 1, 2, 2, 0, KOP_RELU);
        };
        const auto declareEarlier = [] {
            LoadCNNLibrary();
            CNN_SoftMax("Earlier", 0, 2, 2, 15, 15, 1, 1, 10, KOP_SOFTMAX);
        };
        SetL1MemorySize(2000);
        declareEarlier();
        QCOMPARE(conv("Conv"), 1);  // the default: kept, reported at generation
        QVERIFY(gap::currentModel().findUserKernel("Conv") != nullptr);
        QVERIFY(gap::currentModel().droppedKernels.empty());

        gap::resetModel();
        QTemporaryDir out;
        QVERIFY(out.isValid());
        SetGeneratedFilesNames("Fallback.c", "Fallback.h");
        SetL1MemorySize(2000);
        AT_SetGraphCtrl(AT_KERNEL_NOSOLUTION_ERROR, AT_OPT_OFF);
        declareEarlier();
        QCOMPARE(conv("Conv"), 0);
        tiler::KernelModel& model = gap::currentModel();
        QVERIFY(model.findUserKernel("Conv") == nullptr);
        QCOMPARE(model.userKernels.size(), std::size_t(1));
        QCOMPARE(model.items.size(), std::size_t(1));
        QCOMPARE(model.droppedKernels.size(), std::size_t(1));
        const std::string reason = model.droppedKernels[0].second;
        QVERIFY2(reason.find("raise the L1 budget to at least ") != std::string::npos, reason.c_str());
        const unsigned minimum = unsigned(std::stoul(reason.substr(reason.rfind(' ') + 1)));
        QVERIFY(minimum > 2000);

        // A direct UserKernel() call gets NULL the same way.
        QVERIFY(UserKernel("Direct", KernelDimensions(1, 64, 64, 1), KernelIterationOrder(KER_DIM2, KER_TILE), TILE_HOR,
                           CArgs(1, TCArg("short int *", "In")), Calls(0),
                           KerArgs(1, KerArg("In", OBJ_IN_NTILED, 64, 64, 2, 0, OBJ_CONSTRAINTS_NONE, 0, "In", 0)))
                == nullptr);
        QCOMPARE(model.droppedKernels.size(), std::size_t(2));

        // The fallback: the same layer under the same name once the budget is the one named.
        SetL1MemorySize(minimum - 1);
        QCOMPARE(conv("Conv"), 0);
        SetL1MemorySize(minimum);
        QCOMPARE(conv("Conv"), 1);
        QCOMPARE(model.userKernels.size(), std::size_t(2));
        QCOMPARE(model.items.size(), std::size_t(2));
        QCOMPARE(model.items[1].index, std::size_t(1));
        QVERIFY(tiler::checkModel(model).empty());
        model.options.outputDir = out.path().toStdString();
        const tiler::GenerationResult generated = tiler::generateTilingCode(model);
        QVERIFY2(generated.ok, generated.error.c_str());
        QVERIFY(generated.log.find("user kernel Conv: dropped when declared") != std::string::npos);
        QVERIFY(generated.log.find("user kernel Direct: dropped when declared") != std::string::npos);
        QVERIFY(QFile::exists(out.filePath(QStringLiteral("Fallback.c"))));

        // A graph node calling a dropped layer says so.
        gap::resetModel();
        SetMemoryDeviceInfos(2, AT_MEM_L1, 2000, "L1", 0, 0, AT_MEM_L2, 300 * 1024, "L2", 0, 0);
        AT_SetGraphCtrl(AT_KERNEL_NOSOLUTION_ERROR, AT_OPT_OFF);
        LoadCNNLibrary();
        QCOMPARE(conv("Conv"), 0);
        CreateGraph("G",
                    CArgs(4, TCArgInfo("short int *", "In", ARG_SCOPE_ARG, ARG_DIR_IN, AT_MEM_L2, AT_MEM_UNDEF, 0),
                          TCArgInfo("short int *", "W", ARG_SCOPE_ARG, ARG_DIR_IN, AT_MEM_L2, AT_MEM_UNDEF, 0),
                          TCArgInfo("short int *", "B", ARG_SCOPE_ARG, ARG_DIR_IN, AT_MEM_L2, AT_MEM_UNDEF, 0),
                          TCArgInfo("short int *", "Out", ARG_SCOPE_ARG, ARG_DIR_OUT, AT_MEM_L2, AT_MEM_UNDEF, 0)),
                    0);
        AddNode("Conv", Bindings(4, GNodeArg(GNA_IN, "In", 0), GNodeArg(GNA_IN, "W", 0), GNodeArg(GNA_IN, "B", 0),
                                 GNodeArg(GNA_OUT, "Out", 0)));
        CloseGraph();
        const std::vector<std::string> problems = tiler::checkModel(gap::currentModel());
        QVERIFY(std::any_of(problems.begin(), problems.end(), [](const std::string& problem) {
            return problem.find("user kernel Conv was dropped (AT_KERNEL_NOSOLUTION_ERROR is off)") != std::string::npos;
        }));
    }

    void guideModelCompilesAsC()
    {
        const QString include = QStringLiteral(TESSERA_SOURCE_DIR "/core/gap/include");
        const QString model = QStringLiteral(TESSERA_SOURCE_DIR "/tests/gap/MnistGraph/MnistModel.c");
        const QStringList command = {QStringLiteral("-fsyntax-only"), QStringLiteral("-I"), include, model};
        const test::ProcessResult result = test::runProcess(QStringLiteral("cc"), command);
        QVERIFY2(result.exitCode == 0, qPrintable(test::describe(QStringLiteral("cc"), command, result)));
        if (!result.err.isEmpty())
            qWarning("cc warnings on the guide's MnistModel.c:\n%s", qPrintable(result.err));

        // Any other number of names than 2 or 4 does not compile.
        QTemporaryDir temporary;
        QVERIFY(temporary.isValid());
        QFile wrongCount(temporary.filePath(QStringLiteral("WrongCount.c")));
        QVERIFY(wrongCount.open(QIODevice::WriteOnly));
        wrongCount.write("#include \"AutoTilerLib.h\"\nvoid Model(void) { SetGeneratedFilesNames(\"A.c\", \"A.h\", "
                         "\"B.c\"); }\n");
        wrongCount.close();
        const QStringList badCommand = {QStringLiteral("-fsyntax-only"), QStringLiteral("-I"), include,
                                        wrongCount.fileName()};
        const test::ProcessResult bad = test::runProcess(QStringLiteral("cc"), badCommand);
        QVERIFY2(bad.exitCode != 0 && bad.err.contains(QStringLiteral("SetGeneratedFilesNames_takes_2_or_4_file_names")),
                 qPrintable(test::describe(QStringLiteral("cc"), badCommand, bad)));
    }
};

QTEST_APPLESS_MAIN(TestGapGraphApi)
#include "tst_gap_graph_api.moc"
