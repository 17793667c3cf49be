// The C Autotiler model API (AutoTilerLib.h): the guide's example models build the expected
// KernelModel, the flow-control calls set the generation options, checkModel() names every kind
// of model error, and the builders stop at once (exit status 1) on errors they can see alone.
// GenerateTilingCode() is not called: it needs the tiling engine.
#include "AutoTilerLib.h"
#include "CNN_Copy_Generators.h"
#include "CNN_Generators.h"
#include "gap/model_api/model_registry.h"
#include "tiler/kernel_emitter.h"
#include "tiler/l3_devices.h"
#include "tiler/model_check.h"
#include "tiler/tile_solver.h"

#include <QDir>
#include <QTemporaryDir>
#include "child_process.h"

#include <QtTest>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <stdexcept>
#include <unistd.h>

using namespace tessera;
using tiler::ArgFlag::Buffer;
using tiler::ArgFlag::DoubleBuffer;
using tiler::ArgFlag::In;
using tiler::ArgFlag::Out;
using tiler::ArgFlag::Tiled;

namespace {

void declareMatSumPar()
{
    LibKernel("MatSumPar", CALL_PARALLEL,
              CArgs(5, TCArg("Word32 * __restrict__", "In1"), TCArg("Word32 * __restrict__", "In2"),
                    TCArg("Word32 * __restrict__", "Out"), TCArg("unsigned int", "W"), TCArg("unsigned int", "H")),
              "MatrixAdd_Arg_T");
}

// The guide's illustrative example 1 (after declareMatSumPar()).
Kernel_T* buildMatAdd(const char* name, unsigned w, unsigned h)
{
    return UserKernel(name, KernelDimensions(1, w, h, 1), KernelIterationOrder(KER_DIM2, KER_TILE), TILE_HOR,
                      CArgs(3, TCArg("Word32 * __restrict__", "In1"), TCArg("Word32 * __restrict__", "In2"),
                            TCArg("Word32 * __restrict__", "Out")),
                      Calls(1, Call("MatSumPar", LOC_INNER_LOOP,
                                    Bindings(5, K_Arg("In1", KER_ARG_TILE), K_Arg("In2", KER_ARG_TILE),
                                             K_Arg("Out", KER_ARG_TILE), K_Arg("In1", KER_ARG_TILE_W),
                                             K_Arg("In1", KER_ARG_TILE_H)))),
                      KerArgs(3, KerArg("In1", OBJ_IN_DB, w, h, 4, 0, OBJ_CONSTRAINTS_NONE, 0, "In1", 0),
                              KerArg("In2", OBJ_IN_DB, w, h, 4, 0, OBJ_CONSTRAINTS_NONE, 0, "In2", 0),
                              KerArg("Out", OBJ_OUT_DB, w, h, 4, 0, OBJ_CONSTRAINTS_NONE, 0, "Out", 0)));
}

// The guide's illustrative example 2, basic kernels included.
void buildMatrixMax(const char* name, unsigned w, unsigned h)
{
    LibKernel("KerMatrixMax", CALL_PARALLEL,
              CArgs(6, TCArg("Word32 * __restrict__", "In"), TCArg("Word32 * __restrict__", "Out"),
                    TCArg("unsigned int", "W"), TCArg("unsigned int", "H"), TCArg("unsigned int", "TileIndex"),
                    TCArg("unsigned int", "CompareWithOut")),
              "MatrixMax_Arg_T");
    LibKernel("KerMatrixMaxReduction", CALL_SEQUENTIAL,
              CArgs(3, TCArg("Word32 * __restrict__", "In"), TCArg("Word32 * __restrict__", "Out"),
                    TCArg("unsigned int", "Ntile")),
              "MatrixMaxReduction_Arg_T");
    UserKernel(name, KernelDimensions(1, w, h, 1), KernelIterationOrder(KER_DIM2, KER_TILE), TILE_HOR,
               CArgs(2, TCArg("int * __restrict__", "In"), TCArg("int * __restrict__", "Out")),
               Calls(2,
                     Call("KerMatrixMax", LOC_INNER_LOOP,
                          Bindings(6, K_Arg("In", KER_ARG_TILE), K_Arg("TiledOut", KER_ARG_TILE),
                                   K_Arg("In", KER_ARG_TILE_W), K_Arg("In", KER_ARG_TILE_H),
                                   K_Arg("In", KER_ARG_TILEINDEX), Imm(0))),
                     Call("KerMatrixMaxReduction", LOC_INNER_LOOP_EPILOG,
                          Bindings(3, K_Arg("TiledOut", KER_ARG), C_Arg("Out"), K_Arg("TiledOut", KER_ARG_NTILES)))),
               KerArgs(2, KerArg("In", OBJ_IN_DB, w, h, sizeof(int), 0, OBJ_CONSTRAINTS_NONE, 0, "In", 0),
                       KerArg("TiledOut", OBJ_BUFFER_DYN, 1, h, sizeof(int), 0, OBJ_CONSTRAINTS_NONE, 0, nullptr, 0)));
}

// The guide's 2D FFT kernel group (radix 4), basic kernels included.
void buildFft2D(const char* name, unsigned dim)
{
    for (const char* kernel : {"Image2Complex", "Radix4FFT_DIF_2D_Horizontal", "SwapSamples_2D_Horizontal_Par",
                               "Radix4FFT_DIF_2D_Vertical", "SwapSamples_2D_Vertical_Par"})
        LibKernel(kernel, CALL_PARALLEL,
                  CArgs(4, TCArg("void *", "Data"), TCArg("void *", "Table"), TCArg("unsigned int", "W"),
                        TCArg("unsigned int", "H")),
                  "Fft_Arg_T");
    OpenKernelGroup(name);
    UserKernel(AppendNames(name, "Horizontal"), KernelDimensions(1, dim, dim, 1),
               KernelIterationOrder(KER_DIM2, KER_TILE), TILE_HOR,
               CArgs(4, TCArg("Wordu8 * __restrict__", "In"), TCArg("v2s * __restrict__", "Out"),
                     TCArg("Word16 * __restrict__", "Twiddles"), TCArg("Word16 * __restrict__", "SwapTable")),
               Calls(3,
                     Call("Image2Complex", LOC_INNER_LOOP,
                          Bindings(4, K_Arg("In", KER_ARG_TILE), K_Arg("Out", KER_ARG_TILE),
                                   K_Arg("In", KER_ARG_TILE_W), K_Arg("In", KER_ARG_TILE_H))),
                     Call("Radix4FFT_DIF_2D_Horizontal", LOC_INNER_LOOP,
                          Bindings(4, K_Arg("Out", KER_ARG_TILE), C_Arg("Twiddles"), K_Arg("Out", KER_ARG_TILE_W),
                                   K_Arg("Out", KER_ARG_TILE_H))),
                     Call("SwapSamples_2D_Horizontal_Par", LOC_INNER_LOOP,
                          Bindings(4, K_Arg("Out", KER_ARG_TILE), C_Arg("SwapTable"), K_Arg("Out", KER_ARG_TILE_W),
                                   K_Arg("Out", KER_ARG_TILE_H)))),
               KerArgs(2, KerArg("In", OBJ_IN_DB, dim, dim, 1, 0, OBJ_CONSTRAINTS_NONE, 0, "In", 0),
                       KerArg("Out", OBJ_OUT_DB, dim, dim, 4, 0, OBJ_CONSTRAINTS_NONE, 8, "Out", 0)));
    UserKernel(AppendNames(name, "Vertical"), KernelDimensions(1, dim, dim, 1),
               KernelIterationOrder(KER_DIM2, KER_TILE), TILE_VER,
               CArgs(3, TCArg("Word16 * __restrict__", "InOut"), TCArg("Word16 * __restrict__", "Twiddles"),
                     TCArg("Word16 * __restrict__", "SwapTable")),
               Calls(2,
                     Call("Radix4FFT_DIF_2D_Vertical", LOC_INNER_LOOP,
                          Bindings(4, K_Arg("InOut", KER_ARG_TILE), C_Arg("Twiddles"),
                                   K_Arg("InOut", KER_ARG_TILE_H), K_Arg("InOut", KER_ARG_TILE_W))),
                     Call("SwapSamples_2D_Vertical_Par", LOC_INNER_LOOP,
                          Bindings(4, K_Arg("InOut", KER_ARG_TILE), C_Arg("SwapTable"),
                                   K_Arg("InOut", KER_ARG_TILE_H), K_Arg("InOut", KER_ARG_TILE_W)))),
               KerArgs(1, KerArg("InOut", OBJ_IN_OUT_DB, dim, dim, 4, 0, OBJ_CONSTRAINTS_NONE, 8, "InOut", 0)));
    CloseKernelGroup();
    UserKernelGroup(name,
                    CArgs(4, TCArg("Wordu8 * __restrict__", "In"), TCArg("Word32 * __restrict__", "Out"),
                          TCArg("Word16 * __restrict__", "Twiddles"), TCArg("Word16 * __restrict__", "SwapTable")),
                    Calls(2,
                          UserKernelCall(AppendNames(name, "Horizontal"), LOC_GROUP,
                                         Bindings(4, C_Arg("In"), C_Arg("Out"), C_Arg("Twiddles"), C_Arg("SwapTable"))),
                          UserKernelCall(AppendNames(name, "Vertical"), LOC_GROUP,
                                         Bindings(3, C_Arg("Out"), C_Arg("Twiddles"), C_Arg("SwapTable")))));
}

// A clean model with a plain user kernel and a group, which the checkModel rows then break.
// A kernel of the current SDK's form whose argument In1 is 8 x 8 items of 4 bytes.
void declareShapedKernel()
{
    UserKernel("K", KernelIterSpace(1, IterTiledSpace(KER_ITER_TILE0)), TILE_HOR, CArgs(1, TCArg("int *", "In1")), Calls(0),
               KerArgs(1, KerArg("In1", KerArgSpace(1, KER_ITER_TILE0), O_IN | O_DB, 8, 8, 4, 0, OBJ_CONSTRAINTS_NONE, 0,
                                 "In1")));
}

void buildCheckBaseModel()
{
    declareMatSumPar();
    buildMatAdd("MatAdd", 200, 300);
    buildFft2D("Fft", 256);
}

tiler::UserKernel& userKernel(tiler::KernelModel& model, const std::string& name)
{
    for (tiler::UserKernel& kernel : model.userKernels)
        if (kernel.name == name)
            return kernel;
    throw std::runtime_error("no user kernel " + name);
}

// MatAdd given 4 output planes, their loop to run in chunks.
tiler::UserKernel& matAddWithChunkedOutPlanes(tiler::KernelModel& model)
{
    tiler::UserKernel& kernel = userKernel(model, "MatAdd");
    kernel.dimension = 3;
    kernel.order = {tiler::IterationSpace::OutPlane, tiler::IterationSpace::Tile};
    kernel.outPlanes = 4;
    kernel.chunkablePlanes = tiler::IterationSpace::OutPlane;
    return kernel;
}

tiler::Binding binding(tiler::Binding::Kind kind, const std::string& name)
{
    tiler::Binding b;
    b.kind = kind;
    b.name = name;
    return b;
}

std::string joinedProblems(const std::vector<std::string>& problems)
{
    std::string text;
    for (const std::string& problem : problems)
        text += problem + "\n";
    return text;
}

#define VERIFY_NO_PROBLEMS(model)                                                                          \
    do {                                                                                                   \
        const std::vector<std::string> problems_ = tiler::checkModel(model);                               \
        QVERIFY2(problems_.empty(), joinedProblems(problems_).c_str());                                    \
    } while (false)

struct CheckRow {
    const char* name;
    std::function<void(tiler::KernelModel&)> breakModel;
    std::vector<std::string> expected;  // substrings of one reported problem
};

const std::vector<CheckRow>& checkRows()
{
    using Kind = tiler::Binding::Kind;
    static const std::vector<CheckRow> rows = {
        {"unknown basic kernel", [](auto& m) { userKernel(m, "MatAdd").calls[0].callee = "Nope"; },
         {"user kernel MatAdd: call 1 (Nope): no basic kernel named Nope", "LibKernel()"}},
        {"user kernel called as basic kernel", [](auto& m) { userKernel(m, "MatAdd").calls[0].callee = "FftVertical"; },
         {"user kernel MatAdd: call 1 (FftVertical): FftVertical is a user kernel", "UserKernelCall()"}},
        {"binding count", [](auto& m) { userKernel(m, "MatAdd").calls[0].bindings.pop_back(); },
         {"user kernel MatAdd: call 1 (MatSumPar): binding count 4 but the basic kernel has 5 C arguments",
          "In1, In2, Out, W, H"}},
        {"unknown K_Arg", [](auto& m) { userKernel(m, "MatAdd").calls[0].bindings[1].name = "Missing"; },
         {"user kernel MatAdd: call 1 (MatSumPar): binding 2 (In2): K_Arg(\"Missing\") names no kernel argument of "
          "MatAdd; its kernel arguments are In1, In2, Out"}},
        {"unknown C_Arg", [](auto& m) { userKernel(m, "MatAdd").calls[0].bindings[3] = binding(Kind::CArg, "Width"); },
         {"binding 4 (W): C_Arg(\"Width\") names no C argument of MatAdd; its C arguments are In1, In2, Out"}},
        {"unknown C_ArgIndex",
         [](auto& m) { userKernel(m, "MatAdd").calls[0].bindings[0] = binding(Kind::CArgIndex, "Bias"); },
         {"binding 1 (In1): C_ArgIndex(\"Bias\") names no C argument of MatAdd"}},
        {"C_ArgIndex on a scalar",
         [](auto& m) {
             auto& k = userKernel(m, "MatAdd");
             k.cargs.push_back({"int", "Bias"});
             k.calls[0].bindings[0] = binding(Kind::CArgIndex, "Bias");
         },
         {"user kernel MatAdd: call 1 (MatSumPar): binding 1 (In1): C_ArgIndex(\"Bias\")", "not a pointer"}},
        {"unknown C argument of a KerArg", [](auto& m) { userKernel(m, "MatAdd").args[0].cArgName = "Input"; },
         {"user kernel MatAdd: argument In1: it names C argument Input, which MatAdd does not have"}},
        {"zero width", [](auto& m) { userKernel(m, "MatAdd").args[2].width = 0; },
         {"user kernel MatAdd: argument Out: width 0, height 300 and item size 4 must all be positive"}},
        {"zero item size", [](auto& m) { userKernel(m, "MatAdd").args[1].itemSize = 0; },
         {"user kernel MatAdd: argument In2:", "item size 0"}},
        {"size overflow",
         [](auto& m) {
             auto& k = userKernel(m, "MatAdd");
             k.args[0].width = 65536;
             k.args[0].height = 8192;
         },
         {"user kernel MatAdd: argument In1: 65536 x 8192 x 4 bytes x 1 planes is 2 GiB or more"}},
        {"3-D size overflow counts the planes",
         [](auto& m) {
             auto& k = userKernel(m, "MatAdd");
             k.inPlanes = 1024;
             k.args[0].flags |= tiler::ArgFlag::ThreeD;
             k.args[0].width = k.args[0].height = 1024;
         },
         {"argument In1: 1024 x 1024 x 4 bytes x 1024 planes is 2 GiB or more"}},
        {"dimension without its iterators", [](auto& m) { userKernel(m, "MatAdd").dimension = 3; },
         {"user kernel MatAdd: iteration order KER_DIM3 (KER_TILE) has 1 iterator(s) but KER_DIM3 needs 2"}},
        {"tile iterator twice",
         [](auto& m) {
             auto& k = userKernel(m, "MatAdd");
             k.dimension = 3;
             k.order = {tiler::IterationSpace::Tile, tiler::IterationSpace::Tile};
         },
         {"user kernel MatAdd: iteration order KER_DIM3 (KER_TILE, KER_TILE) must contain KER_TILE exactly once"}},
        {"no tile iterator",
         [](auto& m) { userKernel(m, "MatAdd").order = {tiler::IterationSpace::InPlane}; },
         {"iteration order KER_DIM2 (KER_IN_PLANE) must contain KER_TILE exactly once, not 0 times"}},
        {"unsupported order",
         [](auto& m) {
             auto& k = userKernel(m, "MatAdd");
             k.dimension = 3;
             k.order = {tiler::IterationSpace::Tile, tiler::IterationSpace::OutPlane};
         },
         {"user kernel MatAdd: iteration order KER_DIM3 (KER_TILE, KER_OUT_PLANE) is not supported"}},
        {"even and odd",
         [](auto& m) {
             userKernel(m, "MatAdd").args[0].constraints = tiler::ArgConstraint::Even | tiler::ArgConstraint::Odd;
         },
         {"user kernel MatAdd: argument In1: OBJ_CONSTRAINTS_EVEN and OBJ_CONSTRAINTS_ODD exclude each other"}},
        {"input without C argument", [](auto& m) { userKernel(m, "MatAdd").args[1].cArgName.clear(); },
         {"user kernel MatAdd: argument In2: it is an input but names no C argument", "In1, In2, Out"}},
        {"output without C argument", [](auto& m) { userKernel(m, "MatAdd").args[2].cArgName.clear(); },
         {"user kernel MatAdd: argument Out: it is an output but names no C argument"}},
        {"one-tile buffer with a direction",
         [](auto& m) { userKernel(m, "MatAdd").args[0].flags |= Buffer | tiler::ArgFlag::OneTile; },
         {"user kernel MatAdd: argument In1: O_BUFF with O_IN or O_OUT is the whole argument in L1", "cannot be O_ONETILE"}},
        {"one tile without buffer", [](auto& m) { userKernel(m, "MatAdd").args[0].flags |= tiler::ArgFlag::OneTile; },
         {"user kernel MatAdd: argument In1: O_ONETILE is a buffer property"}},
        {"dynamic tile without buffer",
         [](auto& m) { userKernel(m, "MatAdd").args[2].flags |= tiler::ArgFlag::DynTile; },
         {"user kernel MatAdd: argument Out: O_DYNTILE is a buffer property"}},
        {"no direction", [](auto& m) { userKernel(m, "MatAdd").args[0].flags = Tiled; },
         {"user kernel MatAdd: argument In1: it is neither an input, an output nor a buffer"}},
        {"duplicate kernel argument", [](auto& m) { userKernel(m, "MatAdd").args[1].name = "In1"; },
         {"user kernel MatAdd: kernel argument In1 appears more than once"}},
        {"LOC_GROUP in a user kernel",
         [](auto& m) { userKernel(m, "MatAdd").calls[0].location = tiler::CallLocation::Group; },
         {"user kernel MatAdd: call 1 (MatSumPar): LOC_GROUP is only for UserKernelCall() in a kernel group"}},
        {"group calls an unknown user kernel", [](auto& m) { m.groups[0].calls[1].callee = "Fft_Diagonal"; },
         {"kernel group Fft: call 2 (Fft_Diagonal): no user kernel named Fft_Diagonal"}},
        {"group calls a non-member", [](auto& m) { m.groups[0].calls[1].callee = "MatAdd"; },
         {"kernel group Fft: call 2 (MatAdd): user kernel MatAdd is not a member of Fft"}},
        {"group member never called", [](auto& m) { m.groups[0].calls.pop_back(); },
         {"kernel group Fft: its user kernel FftVertical is never called"}},
        {"group binding count", [](auto& m) { m.groups[0].calls[0].bindings.pop_back(); },
         {"kernel group Fft: call 1 (FftHorizontal): binding count 3 but the user kernel has 4 C arguments"}},
        {"K_Arg in a group", [](auto& m) { m.groups[0].calls[0].bindings[0] = binding(Kind::KernelArg, "In"); },
         {"kernel group Fft: call 1 (FftHorizontal): binding 1 (In): K_Arg cannot be used in a kernel group"}},
        {"C_Arg not of the group", [](auto& m) { m.groups[0].calls[1].bindings[0].name = "InOut"; },
         {"kernel group Fft: call 2 (FftVertical): binding 1 (InOut): C_Arg(\"InOut\") names no C argument of "
          "group Fft"}},
        {"group call location", [](auto& m) { m.groups[0].calls[0].location = tiler::CallLocation::InnerLoop; },
         {"kernel group Fft: call 1 (FftHorizontal): a call in a kernel group must use LOC_GROUP"}},
        {"UserKernelGroup never called",
         [](auto& m) {
             m.groups[0].hasTemplate = false;
             m.groups[0].calls.clear();
         },
         {"kernel group Fft: UserKernelGroup(\"Fft\", ...) is never called",
          "user kernels FftHorizontal, FftVertical are never called"}},
        {"L1 budget of zero", [](auto& m) { m.options.l1Size = 0; }, {"the L1 memory budget is 0 bytes"}},
        // A plane loop run in chunks (as a tiling report's model may say): the kernel's own, unread.
        {"chunks of a missing loop",
         [](auto& m) { userKernel(m, "MatAdd").chunkablePlanes = tiler::IterationSpace::OutPlane; },
         {"user kernel MatAdd: its KER_OUT_PLANE loop is to run in chunks, but the kernel has no such loop"}},
        {"chunked loop's index read",
         [](auto& m) {
             auto& k = matAddWithChunkedOutPlanes(m);
             k.calls[0].bindings[0] = binding(Kind::CArgIndex, "In1");
             k.calls[0].bindings[0].iterator = tiler::IterationSpace::OutPlane;
         },
         {"user kernel MatAdd: call 1 (MatSumPar) reads the KER_OUT_PLANE index, so that loop cannot run in chunks"}},
        {"chunked loop run backwards", [](auto& m) { matAddWithChunkedOutPlanes(m).args[2].reverseOutPlanes = true; },
         {"user kernel MatAdd: argument Out runs through the KER_OUT_PLANE planes backwards, so that loop cannot run "
          "in chunks"}},
        // A plane loop counted at run time (IterFixedSpaceDynBound), as a tiling report's model may say.
        {"run-time count of a chunked loop", [](auto& m) { matAddWithChunkedOutPlanes(m).outPlanesBound = "In1"; },
         {"user kernel MatAdd: its KER_OUT_PLANE loop is counted by In1 at run time, so it cannot also run in chunks"}},
        {"run-time count of a missing loop", [](auto& m) { userKernel(m, "MatAdd").inPlanesBound = "Planes"; },
         {"user kernel MatAdd: its KER_IN_PLANE loop is counted by Planes at run time, but the kernel has no such loop"}},
        {"run-time count not a C argument", [](auto& m) { matAddWithChunkedOutPlanes(m).outPlanesBound = "Planes"; },
         {"user kernel MatAdd: its KER_OUT_PLANE loop is counted by Planes, which is not one of its C arguments"}},
    };
    return rows;
}

using tessera::test::ChildOutcome;
using tessera::test::runInChild;

struct ImmediateErrorRow {
    const char* name;
    std::function<void()> body;
    std::string expected;
};

const std::vector<ImmediateErrorRow>& immediateErrorRows()
{
    static const std::vector<ImmediateErrorRow> rows = {
        {"duplicate user kernel",
         [] {
             declareMatSumPar();
             buildMatAdd("MatAdd", 8, 8);
             buildMatAdd("MatAdd", 16, 16);
         },
         "error: user kernel MatAdd: a user kernel named MatAdd already exists"},
        {"user kernel named like a group",
         [] {
             declareMatSumPar();
             OpenKernelGroup("G");
             CloseKernelGroup();
             buildMatAdd("G", 8, 8);
         },
         "error: user kernel G: a kernel group named G already exists"},
        {"duplicate basic kernel",
         [] {
             declareMatSumPar();
             declareMatSumPar();
         },
         "error: basic kernel MatSumPar is declared twice"},
        {"NULL user kernel name", [] { buildMatAdd(nullptr, 8, 8); }, "error: UserKernel: the user kernel name is NULL"},
        {"NULL C argument name", [] { TCArg("int", nullptr); }, "error: TCArg: the C argument name is NULL"},
        {"NULL item in a list",
         [] { LibKernel("K", CALL_SEQUENTIAL, CArgs(2, TCArg("int", "A"), nullptr), ""); },
         "error: basic kernel K: C argument 2 of 2 is NULL"},
        {"parallel kernel without typedef",
         [] { LibKernel("K", CALL_PARALLEL, CArgs(0), nullptr); },
         "error: basic kernel K: a CALL_PARALLEL or CALL_SEQUENTIAL_STRUCT kernel needs the name of its argument struct typedef"},
        {"user kernel call outside LOC_GROUP",
         [] { UserKernelCall("Step", LOC_INNER_LOOP, Bindings(0)); },
         "error: UserKernelCall(\"Step\"): call location 3 is not LOC_GROUP"},
        {"nested groups",
         [] {
             OpenKernelGroup("Outer");
             OpenKernelGroup("Inner");
         },
         "error: OpenKernelGroup(\"Inner\"): kernel group Outer is still open"},
        {"close without open", [] { CloseKernelGroup(); }, "error: CloseKernelGroup(): no kernel group is open"},
        {"template of an unknown group",
         [] { UserKernelGroup("Ghost", CArgs(0), Calls(0)); },
         "error: UserKernelGroup(\"Ghost\"): no kernel group Ghost was opened"},
        {"bad iteration dimension",
         [] { KernelIterationOrder(KernelIteratorDimT(5), KER_TILE); },
         "error: KernelIterationOrder(5, ...): 1 iterator(s) follow; give KER_DIM2 (or 1)"},
        {"GenTilingError", [] { GenTilingError("FFT2D: %s, Incorrect Dim: %d", "Fft", 12); },
         "error: FFT2D: Fft, Incorrect Dim: 12\n"},
        {"GenTilingError after dropped forms",
         [] {
             AT_SetKernelCtrl(AT_KERNEL_NOSOLUTION_ERROR, AT_OPT_OFF);
             UserKernel("Hwc", KernelIterSpace(2, IterParSpace(KER_ITER_D0, 8, 8), IterTiledSpace(KER_ITER_TILE0)),
                        TILE_VER, CArgs(1, TCArg("short int *", "In")),
                        Calls(1, Call("Window", LOC_LOOP, Bindings(1, K_Arg("In", KER_ARG_TILE)))),
                        KerArgs(1, KerArg("In", KerArgSpace(2, KER_ITER_TILE0, KER_ITER_D0), O_IN, 8, 8, 1, 0,
                                          OBJ_CONSTRAINTS_NONE, 0, "In")));
             AT_SetKernelCtrl(AT_KERNEL_NOSOLUTION_ERROR, AT_OPT_ON);
             GenTilingError("Failed to Generate code for Kernel: %s", "Hwc");
         },
         "error: Failed to Generate code for Kernel: Hwc\n  user kernel Hwc was dropped: its HWC argument In is "
         "tiled vertically"},
        {"inline mode out of range", [] { SetInlineMode(InlineModeT(7)); },
         "SetInlineMode: mode 7 is not NEVER_INLINE (0), ALWAYS_INLINE (1) or SINGLE_INLINE (2)"},
        {"kernel option both on and off",
         [] { SetKernelOpts(KER_OPT_BUFFER_PROMOTE, KER_OPT_BUFFER_PROMOTE); },
         "SetKernelOpts: options 0x1 are turned both on and off"},
        // The current SDK's iteration spaces: what Tessera's loop nests cannot express is named.
        {"third tiled space", [] { IterTiledSpace(KER_ITER_TILE2); },
         "error: IterTiledSpace: KER_ITER_TILE2 is a third tiled space, which Tessera does not support"},
        {"call in the outer tile loop", [] { Call("MatSumPar", LOC_LOOP1, Bindings(0)); },
         "calls around or in the body of the KER_ITER_TILE1 / TILE2 loops (LOC_LOOP1*, LOC_LOOP2*) are not supported"},
        {"outer tile loop inside",
         [] {
             UserKernel("K", KernelIterSpace(2, IterTiledSpace(KER_ITER_TILE0), IterTiledSpace(KER_ITER_TILE1)), TILE_HOR,
                        CArgs(1, TCArg("int *", "In1")), Calls(0),
                        KerArgs(1, KerArg("In1", KerArgSpace(1, KER_ITER_TILE0), OBJ_IN_DB, 8, 8, 4, 0, OBJ_CONSTRAINTS_NONE, 0, "In1")));
         },
         "error: user kernel K: KER_ITER_TILE1 (the outer tile loop of two-level tiling) must be the first"},
        {"argument in both tile loops",
         [] {
             UserKernel("K", KernelIterSpace(2, IterTiledSpace(KER_ITER_TILE1), IterTiledSpace(KER_ITER_TILE0)), TILE_HOR,
                        CArgs(1, TCArg("int *", "In1")), Calls(0),
                        KerArgs(1, KerArg("In1", KerArgSpace(2, KER_ITER_TILE1, KER_ITER_TILE0), OBJ_IN_DB, 8, 8, 4, 0, OBJ_CONSTRAINTS_NONE,
                                          0, "In1")));
         },
         "kernel argument In1: its KerArgSpace names both KER_ITER_TILE0 and KER_ITER_TILE1"},
        {"LOC_D* in a guide-style kernel",
         [] {
             declareMatSumPar();
             UserKernel("K", KernelDimensions(1, 8, 8, 1), KernelIterationOrder(KER_DIM2, KER_TILE), TILE_HOR,
                        CArgs(1, TCArg("int *", "In1")), Calls(1, Call("MatSumPar", LOC_D0_PROLOG, Bindings(0))),
                        KerArgs(1, KerArg("In1", OBJ_IN_DB, 8, 8, 4, 0, OBJ_CONSTRAINTS_NONE, 0, "In1", 0)));
         },
         "uses a LOC_D* location or a KER_ITER_D* iterator, which refer to a KernelIterSpace()"},
        {"guide-style argument in a space kernel",
         [] {
             UserKernel("K", KernelIterSpace(1, IterTiledSpace(KER_ITER_TILE0)), TILE_HOR, CArgs(1, TCArg("int *", "In1")),
                        Calls(0), KerArgs(1, KerArg("In1", OBJ_IN_DB, 8, 8, 4, 0, OBJ_CONSTRAINTS_NONE, 0, "In1", 0)));
         },
         "error: user kernel K: kernel argument In1 has no KerArgSpace()"},
        {"argument space not in the kernel",
         [] {
             UserKernel("K", KernelIterSpace(1, IterTiledSpace(KER_ITER_TILE0)), TILE_HOR, CArgs(1, TCArg("int *", "In1")),
                        Calls(0),
                        KerArgs(1, KerArg("In1", KerArgSpace(2, KER_ITER_D2, KER_ITER_TILE0), O_IN | O_DB, 8, 8, 4, 0,
                                          OBJ_CONSTRAINTS_NONE, 0, "In1")));
         },
         "kernel argument In1: its KerArgSpace names KER_ITER_D2, which is not in the kernel's KernelIterSpace"},
        {"graph option through AT_SetKernelCtrl", [] { AT_SetKernelCtrl(AT_GRAPH_TRACE_EXEC, AT_OPT_ON); },
         "AT_SetKernelCtrl: option 11 is not one of AT_KERNEL_BUFFER_PROMOTE"},
        {"information about an unknown kernel", [] { AddKernelInfos("Ghost", AT_KERINFO_OPER, 10, nullptr); },
         "AddKernelInfos(\"Ghost\"): no user kernel of that name was declared before"},
        {"absurd room around a buffer",
         [] { KerArgPad("In", KerArgSpace(1, KER_ITER_TILE0), OBJ_IN_DB, 1, 100, 1u << 30, 0, 2, 0, OBJ_CONSTRAINTS_NONE, 0, "In"); },
         "error: KerArgPad(\"In\"): room of 1073741824 items before and 0 after is absurd"},
        {"shape of an unknown argument",
         [] {
             declareShapedKernel();
             AddKernelArgDim("K", "Ghost", 3, 8, 8, 4);
         },
         "error: AddKernelArgDim(\"K\", \"Ghost\"): the user kernel has no argument of that name"},
        {"shape with another item size",
         [] {
             declareShapedKernel();
             AddKernelArgDim("K", "In1", 3, 8, 8, 3);
         },
         "the last size, the element's, is 3 bytes, which neither divides the argument's 4-byte items nor is a whole "
         "number of them"},
        {"shape that is no whole plane",
         [] {
             declareShapedKernel();
             AddKernelFloatArgDim("K", "In1", -1, 3, 7, 4, 0);
         },
         "the sizes make 84 bytes, not whole planes of 8x8 items of 4 bytes"},
        {"constant output",
         [] { KerArg("Out", KerArgSpace(1, KER_ITER_TILE0), OBJ_OUT_DB | O_CONST, 8, 8, 4, 0, OBJ_CONSTRAINTS_NONE, 0, "Out"); },
         "error: KerArg(\"Out\"): O_CONST marks an input the kernel does not change; it cannot be an output"},
        {"C type of a 3-byte item", [] { CNN_ArgDataType(3, 1, 1); },
         "error: CNN_ArgDataType(3, 1, 1): the data size is 3 bytes; give 1, 2 or 4"},
        {"standalone sigmoid on the SDK's contract", [] { CNN_Act_SQ8("Sig", nullptr, 4, 8, 8, KOP_SIGMOID); },
         "error: Sig: KOP_SIGMOID and KOP_TANH have no basic kernel of Tessera's on the SDK's contract yet; compile "
         "the SDK's CNN_Generators_SQ8.c"},
        {"standalone activation KOP_NONE", [] { CNN_Act_SQ8("Act", nullptr, 4, 8, 8, KOP_NONE); },
         "error: Act: ActOper must be KOP_ACT_NONE, KOP_RELU"},
        {"activation tiles beyond 16-bit counts",
         [] {
             SetL1MemorySize(300000);
             CNN_Act_SQ8("Act", nullptr, 64, 64, 64, KOP_RELU);
         },
         "error: Act: the L1 budget of 300000 bytes allows tiles of more than 65535 items, which the SDK's "
         "activation kernels cannot count; give an L1 budget of at most 262140 bytes"},
        {"convolution with a sigmoid on the SDK's contract",
         [] {
             LoadCNN_SQ8_Library();
             CNN_ConvolutionPoolAct_SQ8("Conv", nullptr, 4, 1, 4, 4, 8, 8, KOP_CONV, 3, 3, 1, 1, 1, 1, 1, KOP_NONE, 1, 1, 1,
                                        1, 1, 1, 0, KOP_SIGMOID);
         },
         "error: Conv: the activation KOP_SIGMOID has no kernel in Tessera's SQ8 library (the SDK's table-driven ones); "
         "give KOP_NONE, KOP_RELU"},
        {"convolution with 16-bit biases",
         [] {
             LoadCNN_SQ8_Library();
             CNN_ConvolutionPoolAct_SQ8("Conv", nullptr, 2, 1, 4, 4, 8, 8, KOP_CONV, 3, 3, 1, 1, 1, 1, 1, KOP_NONE, 1, 1, 1,
                                        1, 1, 1, 0, KOP_RELU);
         },
         "error: Conv: Bias_DataSize is 2; SQ8 biases are int32 (4)"},
        {"depthwise convolution changing the feature count",
         [] {
             LoadCNN_SQ8_Library();
             CNN_ConvolutionPoolAct_SQ8("Dw", nullptr, 4, 1, 4, 8, 8, 8, KOP_CONV_DW, 3, 3, 1, 1, 1, 1, 1, KOP_NONE, 1, 1, 1,
                                        1, 1, 1, 0, KOP_RELU);
         },
         "error: Dw: a depthwise convolution (KOP_CONV_DW) needs InFeat == OutFeat, got 4 and 8"},
        {"convolution before the library is loaded",
         [] {
             CNN_ConvolutionPoolAct_SQ8("Conv", nullptr, 4, 1, 4, 4, 8, 8, KOP_CONV, 3, 3, 1, 1, 1, 1, 1, KOP_NONE, 1, 1, 1,
                                        1, 1, 1, 0, KOP_RELU);
         },
         "error: Conv: no SQ8 convolution basic kernel matches; call LoadCNN_SQ8_Library() before the layers"},
        {"permutation of an HWC tensor named as CHW",
         [] {
             LoadCNN_Copy_Library();
             CNN_3DTensorPermute("Perm", nullptr, 1, 4, 8, 8, KOP_MATPERM_HWC2CHW);
         },
         "error: Perm: a CHW tensor permutes with KOP_MATPERM_CHW2CWH, KOP_MATPERM_CHW2HWC, KOP_MATPERM_CHW2WHC, "
         "KOP_MATPERM_CHW2WCH or KOP_MATPERM_CHW2HCW (an HWC one needs Ctrl->HWC)"},
        {"transposition of 4-byte items",
         [] {
             LoadCNN_Copy_Library();
             CNN_MatTranspose("T", nullptr, 4, 1, 8, 8, KOP_MATTRANSP);
         },
         "error: T: Size is 4; give 1 or 2 (bytes per item, negative for unsigned items)"},
        {"transposition before the library is loaded",
         [] { CNN_MatTranspose("T", nullptr, 1, 1, 8, 8, KOP_MATTRANSP); },
         "error: T: no basic kernel performs KOP_MATTRANSP on 1-byte items; call LoadCNN_Copy_Library() (or "
         "LoadCNN_SQ8_Library()) before the layers"},
        {"transposition of a zero-width matrix",
         [] {
             LoadCNN_Copy_Library();
             CNN_MatTranspose("T", nullptr, 1, 1, 0, 8, KOP_MATTRANSP);
         },
         "error: T: Width is 0, expected 1 to 65535"},
        {"image normalization with another operation",
         [] {
             LoadCNN_Copy_Library();
             CNN_Norm("Norm", 32, 32, 1, KOP_RELU);
         },
         "error: Norm: kop must be KOP_NORM_RGB565, KOP_NORM_RGB888, KOP_NORM_RGB16, KOP_NORM_BW or KOP_NORM_BW16"},
        {"last-axis concatenation, which has no generator of Tessera's",
         [] { CNN_ConcatLastAxis_Generator("Cat", nullptr, 1, 4, 8, 8, 0, 0, KOP_CONCAT); },
         "error: Cat: CNN_ConcatLastAxis_Generator has no generator of Tessera's yet; compile the SDK's "
         "CNN_Copy_Generators.c and CNN_Copy.c with the model for it"},
        {"conversion to floating point",
         [] {
             LoadCNN_Copy_Library();
             CNN_Convert("Cvt", 1, 2, 100, KOP_CONVERT_FP_FL);
         },
         "error: Cvt: conversions from or to floating point have no basic kernel of Tessera's"},
        {"conversion without a kernel",
         [] {
             LoadCNN_Copy_Library();
             CNN_Convert("Cvt", -1, 2, 100, KOP_CONVERT_FP_FP);
         },
         "error: Cvt: no basic kernel converts UFps items to Fp ones with KOP_CONVERT_FP_FP"},
        {"addition tiles beyond 16-bit counts",
         [] {
             SetL1MemorySize(400000);
             CNN_MatAddAct_SQ8("Add", nullptr, 64, 64, 64, KOP_MATADD, KOP_NONE);
         },
         "error: Add: the L1 budget of 400000 bytes allows tiles of more than 65535 items, which the SDK's "
         "addition kernels cannot count; give an L1 budget of at most 393210 bytes"},
        {"softmax of 4-byte outputs",
         [] {
             CNN_GenControl_T control;
             CNN_InitGenCtrl(&control);
             control.OutDataSize = 4;
             CNN_SoftMax_SQ8("Soft", &control, 10, KOP_SOFTMAX);
         },
         "error: Soft: OutDataSize is 4; the softmax writes Q15 in 2 bytes or Q7 in 1"},
        {"call type out of range",
         [] { LibKernel("K", KernelCallTypeT(CALL_PARALLEL | 16), CArgs(0), "K_T", nullptr); },
         "call type 17 is not CALL_SEQUENTIAL, CALL_PARALLEL or CALL_SEQUENTIAL_STRUCT"},
    };
    return rows;
}

}  // namespace

class TestGapModelApi : public QObject {
    Q_OBJECT

private slots:
    void init() { gap::resetModel(); }
    void cleanupTestCase() { gap::resetModel(); }

    void matAddBuildsTheGuideModel()
    {
        declareMatSumPar();
        QVERIFY(buildMatAdd("MatAdd", 200, 300) != nullptr);
        const tiler::KernelModel& model = gap::currentModel();

        QCOMPARE(model.basicKernels.size(), std::size_t(1));
        const tiler::BasicKernel* basic = model.findBasicKernel("MatSumPar");
        QVERIFY(basic != nullptr);
        QVERIFY(basic->callType == tiler::CallType::Parallel);
        QCOMPARE(basic->parallelArgType, std::string("MatrixAdd_Arg_T"));
        QCOMPARE(basic->args.size(), std::size_t(5));
        QCOMPARE(basic->args[0].type, std::string("Word32 * __restrict__"));
        QCOMPARE(basic->args[4].name, std::string("H"));

        const tiler::UserKernel* kernel = model.findUserKernel("MatAdd");
        QVERIFY(kernel != nullptr);
        QCOMPARE(kernel->width, 200u);
        QCOMPARE(kernel->height, 300u);
        QCOMPARE(kernel->inPlanes, 1u);
        QCOMPARE(kernel->outPlanes, 1u);
        QCOMPARE(kernel->dimension, 2);
        QVERIFY(kernel->order == std::vector<tiler::IterationSpace>{tiler::IterationSpace::Tile});
        QVERIFY(kernel->orientation == tiler::Orientation::Horizontal);
        QVERIFY(kernel->group.empty());
        QCOMPARE(kernel->cargs.size(), std::size_t(3));

        QCOMPARE(kernel->calls.size(), std::size_t(1));
        const tiler::KernelCall& call = kernel->calls[0];
        QCOMPARE(call.callee, std::string("MatSumPar"));
        QVERIFY(call.location == tiler::CallLocation::InnerLoop);
        QCOMPARE(call.bindings.size(), std::size_t(5));
        QVERIFY(call.bindings[2].kind == tiler::Binding::Kind::KernelArg);
        QCOMPARE(call.bindings[2].name, std::string("Out"));
        QVERIFY(call.bindings[2].select == tiler::ArgSelect::Tile);
        QVERIFY(call.bindings[3].select == tiler::ArgSelect::TileWidth);
        QVERIFY(call.bindings[4].select == tiler::ArgSelect::TileHeight);

        QCOMPARE(kernel->args.size(), std::size_t(3));
        const tiler::KernelArgument& in1 = kernel->args[0];
        QCOMPARE(in1.flags, In | DoubleBuffer | Tiled);
        QCOMPARE(kernel->args[2].flags, Out | DoubleBuffer | Tiled);
        QCOMPARE(in1.width, 200u);
        QCOMPARE(in1.height, 300u);
        QCOMPARE(in1.itemSize, 4u);
        QCOMPARE(in1.cArgName, std::string("In1"));

        QCOMPARE(model.items.size(), std::size_t(1));
        QVERIFY(model.items[0].kind == tiler::ModelItem::Kind::UserKernel);
        QCOMPARE(model.items[0].index, std::size_t(0));
        VERIFY_NO_PROBLEMS(model);
    }

    void matrixMaxBuildsTheGuideModel()
    {
        buildMatrixMax("MatMax", 200, 300);
        const tiler::KernelModel& model = gap::currentModel();
        QVERIFY(model.findBasicKernel("KerMatrixMaxReduction")->callType == tiler::CallType::Sequential);
        const tiler::UserKernel* kernel = model.findUserKernel("MatMax");
        QVERIFY(kernel != nullptr);
        QCOMPARE(kernel->calls.size(), std::size_t(2));
        const tiler::Binding& immediate = kernel->calls[0].bindings[5];
        QVERIFY(immediate.kind == tiler::Binding::Kind::Immediate);
        QCOMPARE(immediate.value, std::int64_t(0));
        QVERIFY(kernel->calls[0].bindings[4].select == tiler::ArgSelect::TileIndex);

        const tiler::KernelCall& reduction = kernel->calls[1];
        QVERIFY(reduction.location == tiler::CallLocation::InnerLoopEpilog);
        QVERIFY(reduction.bindings[0].select == tiler::ArgSelect::Plane);
        QVERIFY(reduction.bindings[1].kind == tiler::Binding::Kind::CArg);
        QCOMPARE(reduction.bindings[1].name, std::string("Out"));
        QVERIFY(reduction.bindings[2].select == tiler::ArgSelect::TileCount);

        const tiler::KernelArgument& tiledOut = kernel->args[1];
        QCOMPARE(tiledOut.flags, Buffer | Tiled | tiler::ArgFlag::DynTile);
        QCOMPARE(tiledOut.width, 1u);
        QVERIFY(tiledOut.cArgName.empty());
        VERIFY_NO_PROBLEMS(model);
    }

    void convolutionKeepsPlanesOverlapAndIndexedArguments()
    {
        LibKernel("KerSetInBias", CALL_PARALLEL,
                  CArgs(4, TCArg("short int *", "Out"), TCArg("int", "W"), TCArg("int", "H"), TCArg("short int *", "Bias")),
                  "KerSetInBias_Arg_T");
        LibKernel("KerDirectConv5x5_fp", CALL_PARALLEL,
                  CArgs(6, TCArg("short int *", "In"), TCArg("int", "W"), TCArg("int", "H"),
                        TCArg("short int *", "Filter"), TCArg("short int *", "Out"), TCArg("int", "Norm")),
                  "KerConv_Arg_T");
        UserKernel("Conv5x5", KernelDimensions(3, 32, 28, 2),
                   KernelIterationOrder(KER_DIM4, KER_OUT_PLANE, KER_TILE, KER_IN_PLANE), TILE_HOR,
                   CArgs(5, TCArg("short int * __restrict__", "In"), TCArg("short int * __restrict__", "Filter"),
                         TCArg("short int * __restrict__", "Out"), TCArg("unsigned int", "Norm"),
                         TCArg("short int * __restrict__", "Bias")),
                   Calls(2,
                         Call("KerSetInBias", LOC_IN_PLANE_PROLOG,
                              Bindings(4, K_Arg("Out", KER_ARG_TILE), K_Arg("Out", KER_ARG_TILE_W),
                                       K_Arg("Out", KER_ARG_TILE_H), C_ArgIndex("Bias", KER_OUT_PLANE, 1))),
                         Call("KerDirectConv5x5_fp", LOC_INNER_LOOP,
                              Bindings(6, K_Arg("In", KER_ARG_TILE), K_Arg("In", KER_ARG_TILE_W),
                                       K_Arg("In", KER_ARG_TILE_H), K_Arg("Filter", KER_ARG_TILE),
                                       K_Arg("Out", KER_ARG_TILE), C_Arg("Norm")))),
                   KerArgs(3, KerArg("In", OBJ_IN_DB_3D, 32, 28, 2, 4, OBJ_CONSTRAINTS_EVEN, 0, "In", 0),
                           KerArg("Filter", OBJ_IN_DB_NTILED_4D, 5, 5, 2, 0, OBJ_CONSTRAINTS_NONE, 0, "Filter", 0),
                           KerArg("Out", OBJ_OUT_DB_3D, 28, 24, 2, 0, OBJ_CONSTRAINTS_NONE, 8, "Out", 3)));
        const tiler::KernelModel& model = gap::currentModel();
        const tiler::UserKernel& kernel = model.userKernels.at(0);
        QCOMPARE(kernel.inPlanes, 3u);
        QCOMPARE(kernel.outPlanes, 2u);
        QCOMPARE(kernel.dimension, 4);
        using I = tiler::IterationSpace;
        QVERIFY(kernel.order == (std::vector<I>{I::OutPlane, I::Tile, I::InPlane}));
        QVERIFY(kernel.calls[0].location == tiler::CallLocation::InPlaneProlog);
        const tiler::Binding& bias = kernel.calls[0].bindings[3];
        QVERIFY(bias.kind == tiler::Binding::Kind::CArgIndex);
        QVERIFY(bias.iterator == I::OutPlane);
        QCOMPARE(bias.value, std::int64_t(1));
        QCOMPARE(kernel.args[0].tileOverlap, 4u);
        QCOMPARE(kernel.args[0].constraints, tiler::ArgConstraint::Even);
        QVERIFY(kernel.args[1].has(tiler::ArgFlag::FourD) && kernel.args[1].has(tiler::ArgFlag::ThreeD));
        QVERIFY(!kernel.args[1].has(Tiled));
        QCOMPARE(kernel.args[2].preferredTileSize, 8u);
        QCOMPARE(kernel.args[2].nextPlaneUpdate, 3u);
        VERIFY_NO_PROBLEMS(model);
    }

    void iterationOrderIsStoredOutermostFirst_data()
    {
        using I = tiler::IterationSpace;
        QTest::addColumn<int>("stated");  // KernelIterationOrder's first argument as the model writes it
        QTest::addColumn<int>("dimension");
        QTest::addColumn<QList<int>>("iterators");
        const auto row = [](const char* name, int dimension, QList<int> iterators) {
            QTest::newRow(name) << dimension << dimension << iterators;
        };
        row("2-D", KER_DIM2, {int(I::Tile)});
        // The SDK's first Autotiler's form: the number of iterators.
        QTest::newRow("2-D, iterator count") << 1 << int(KER_DIM2) << QList<int>{int(I::Tile)};
        QTest::newRow("4-D order 2, iterator count") << 3 << int(KER_DIM4)
                                                     << QList<int>{int(I::OutPlane), int(I::Tile), int(I::InPlane)};
        row("3-D order 2 in-planes", KER_DIM3, {int(I::Tile), int(I::InPlane)});
        row("3-D order 1 in-planes", KER_DIM3, {int(I::InPlane), int(I::Tile)});
        row("3-D out-planes", KER_DIM3, {int(I::OutPlane), int(I::Tile)});
        row("4-D order 2", KER_DIM4, {int(I::OutPlane), int(I::Tile), int(I::InPlane)});
        row("4-D order 1", KER_DIM4, {int(I::OutPlane), int(I::InPlane), int(I::Tile)});
    }

    void iterationOrderIsStoredOutermostFirst()
    {
        QFETCH(int, stated);
        QFETCH(int, dimension);
        QFETCH(QList<int>, iterators);
        const KernelIterationT* order = iterators.size() == 1
            ? KernelIterationOrder(KernelIteratorDimT(stated), KernelIteratorT(iterators[0]))
            : iterators.size() == 2
            ? KernelIterationOrder(KernelIteratorDimT(stated), KernelIteratorT(iterators[0]), KernelIteratorT(iterators[1]))
            : KernelIterationOrder(KernelIteratorDimT(stated), KernelIteratorT(iterators[0]),
                                   KernelIteratorT(iterators[1]), KernelIteratorT(iterators[2]));
        QCOMPARE(order->dimension, dimension);
        QCOMPARE(order->order.size(), std::size_t(iterators.size()));
        for (qsizetype i = 0; i < iterators.size(); ++i)
            QCOMPARE(int(order->order[std::size_t(i)]), iterators[i]);
    }

    // The current SDK's iteration spaces become the guide's loop nests: a space an input varies
    // along is the input-plane loop (an output varying along it too gets one plane per input plane),
    // a space only outputs vary along the output-plane loop (its prolog and epilog are the kernel's),
    // arguments varying along both are 4-D; KER_ARG_W / KER_ARG_H are stored as such.
    void iterationSpacesBecomeLoopNests()
    {
        LibKernel("K", CALL_SEQUENTIAL, CArgs(3, TCArg("int", "A"), TCArg("int", "B"), TCArg("int", "C")), "", nullptr);
        UserKernel("Depthwise", KernelIterSpace(2, IterParSpace(KER_ITER_D2, 6, 2), IterTiledSpace(KER_ITER_TILE0)), TILE_HOR,
                   CArgs(2, TCArg("short *", "In"), TCArg("short *", "Out")),
                   Calls(2, Call("K", LOC_D2_PROLOG, Bindings(3, Imm(0), Imm(0), Imm(0))),
                         Call("K", LOC_LOOP, Bindings(3, K_Arg("In", KER_ARG_W), K_Arg("In", KER_ARG_H), Imm(1)))),
                   KerArgs(2, KerArg("In", KerArgSpace(2, KER_ITER_D2, KER_ITER_TILE0), O_IN | O_DB, 20, 10, 2, 2,
                                     OBJ_CONSTRAINTS_NONE, 0, "In"),
                           KerArg("Out", KerArgSpace(2, KER_ITER_D2, KER_ITER_TILE0), O_OUT | O_DB, 18, 8, 2, 0,
                                  OBJ_CONSTRAINTS_NONE, 0, "Out")));
        UserKernel("Conv", KernelIterSpace(3, IterFixedSpace(KER_ITER_D0, 4), IterFixedSpace(KER_ITER_D1, 3),
                                           IterTiledSpace(KER_ITER_TILE0)),
                   TILE_VER, CArgs(3, TCArg("short *", "In"), TCArg("short *", "Filter"), TCArg("short *", "Out")),
                   Calls(2, Call("K", LOC_D0_PROLOG, Bindings(3, Imm(0), Imm(0), Imm(0))),
                         Call("K", LOC_D1_EPILOG, Bindings(3, C_ArgIndex("In", KER_ITER_D0, 2), C_ArgIndex("In", KER_ITER_D1, 1), Imm(0)))),
                   KerArgs(3, KerArg("In", KerArgSpace(2, KER_ITER_D1, KER_ITER_TILE0), O_IN | O_DB, 16, 16, 2, 2, OBJ_CONSTRAINTS_NONE, 0, "In"),
                           KerArg("Filter", KerArgSpace(2, KER_ITER_D0, KER_ITER_D1), O_IN | O_DB | O_BUFF, 3, 3, 2, 0, OBJ_CONSTRAINTS_NONE, 0, "Filter"),
                           KerArg("Out", KerArgSpace(2, KER_ITER_D0, KER_ITER_TILE0), O_OUT | O_DB, 14, 14, 2, 0, OBJ_CONSTRAINTS_NONE, 0, "Out")));
        AddKernelInfos("Conv", AT_KERINFO_OPER, 4 * 3 * 14 * 14 * 9, nullptr);
        AddKernelInfos("Conv", AT_KERINFO_BANDWIDTH, 1000, nullptr);
        AT_SetKernelCtrl(AT_KERNEL_NOSOLUTION_ERROR, AT_OPT_OFF);
        const tiler::KernelModel& model = gap::currentModel();
        using I = tiler::IterationSpace;

        const tiler::UserKernel* depthwise = model.findUserKernel("Depthwise");
        QVERIFY(depthwise != nullptr);
        QCOMPARE(depthwise->dimension, 3);
        QVERIFY(depthwise->order == (std::vector<I>{I::InPlane, I::Tile}));
        QCOMPARE(depthwise->inPlanes, 6u);
        QCOMPARE(depthwise->outPlanes, 1u);
        QCOMPARE(depthwise->width, 20u);
        QVERIFY(depthwise->args[0].has(In | DoubleBuffer | Tiled | tiler::ArgFlag::ThreeD));
        QVERIFY(!depthwise->args[0].planePerInput);
        QVERIFY(depthwise->args[1].has(Out | Tiled | tiler::ArgFlag::ThreeD) && depthwise->args[1].planePerInput);
        QCOMPARE(int(depthwise->calls[0].location), int(tiler::CallLocation::InPlaneProlog));
        QCOMPARE(int(depthwise->calls[1].bindings[0].select), int(tiler::ArgSelect::Width));
        QCOMPARE(int(depthwise->calls[1].bindings[1].select), int(tiler::ArgSelect::Height));

        const tiler::UserKernel* conv = model.findUserKernel("Conv");
        QVERIFY(conv != nullptr);
        QCOMPARE(conv->dimension, 4);
        QVERIFY(conv->order == (std::vector<I>{I::OutPlane, I::InPlane, I::Tile}));
        QCOMPARE(conv->outPlanes, 4u);
        QCOMPARE(conv->inPlanes, 3u);
        QVERIFY(conv->args[1].has(tiler::ArgFlag::FourD | tiler::ArgFlag::ThreeD) && !conv->args[1].has(Tiled));
        QVERIFY(conv->args[2].has(Out | tiler::ArgFlag::ThreeD) && !conv->args[2].planePerInput);
        QCOMPARE(int(conv->calls[0].location), int(tiler::CallLocation::Prolog));
        QCOMPARE(int(conv->calls[1].location), int(tiler::CallLocation::InPlaneEpilog));
        QCOMPARE(int(conv->calls[1].bindings[0].iterator), int(I::OutPlane));
        QCOMPARE(int(conv->calls[1].bindings[0].value), 2);
        QCOMPARE(int(conv->calls[1].bindings[1].iterator), int(I::InPlane));
        QCOMPARE(conv->operations, std::uint64_t(4 * 3 * 14 * 14 * 9));
        QVERIFY(!model.options.noSolutionError);
    }

    // KerArgPad in both forms keeps its room; O_NTILED keeps an argument untiled although its
    // KerArgSpace lists the tiled space; K_Arg takes KER_ARG_TILE_NEXTDB.
    void paddedArgumentsAndUntiledMarks()
    {
        LibKernel("K", CALL_SEQUENTIAL, CArgs(2, TCArg("short *", "A"), TCArg("short *", "B")), "", nullptr);
        UserKernel("Fir", KernelIterSpace(1, IterTiledSpace(KER_ITER_TILE0)), TILE_HOR,
                   CArgs(3, TCArg("short *", "In"), TCArg("short *", "Coeffs"), TCArg("short *", "Out")),
                   Calls(1, Call("K", LOC_LOOP, Bindings(2, K_Arg("KerIn", KER_ARG_TILE), K_Arg("KerIn", KER_ARG_TILE_NEXTDB)))),
                   KerArgs(3, KerArgPad("KerIn", KerArgSpace(1, KER_ITER_TILE0), OBJ_IN_DB, 1, 100, 9, 2, 2, 0, OBJ_CONSTRAINTS_NONE, 10, "In"),
                           KerArg("KerCoeffs", KerArgSpace(1, KER_ITER_TILE0), O_IN | O_NTILED | O_BUFF, 1, 10, 2, 0,
                                  OBJ_CONSTRAINTS_NONE, 0, "Coeffs"),
                           KerArg("KerOut", KerArgSpace(1, KER_ITER_TILE0), OBJ_OUT_DB, 1, 100, 2, 0, OBJ_CONSTRAINTS_NONE, 0, "Out")));
        UserKernel("FirPlain", KernelDimensions(1, 1, 100, 1), KernelIterationOrder(KER_DIM2, KER_TILE), TILE_HOR,
                   CArgs(2, TCArg("short *", "In"), TCArg("short *", "Out")),
                   Calls(1, Call("K", LOC_INNER_LOOP, Bindings(2, K_Arg("KerIn", KER_ARG_TILE), K_Arg("KerIn", KER_ARG_TILE_NEXTDB)))),
                   KerArgs(2, KerArgPad("KerIn", OBJ_IN_DB, 1, 100, 4, 0, 2, 0, OBJ_CONSTRAINTS_NONE, 0, "In", 0),
                           KerArg("KerOut", OBJ_OUT_DB, 1, 100, 2, 0, OBJ_CONSTRAINTS_NONE, 0, "Out", 0)));
        const tiler::KernelModel& model = gap::currentModel();
        const tiler::UserKernel* fir = model.findUserKernel("Fir");
        QVERIFY(fir != nullptr);
        QCOMPARE(fir->args[0].roomBefore, 9u);
        QCOMPARE(fir->args[0].roomAfter, 2u);
        QVERIFY(fir->args[0].has(In | DoubleBuffer | Tiled));
        QCOMPARE(fir->args[1].flags, In | Buffer);  // untiled, and the O_NTILED mark is not kept
        QCOMPARE(int(fir->calls[0].bindings[1].select), int(tiler::ArgSelect::NextTile));
        const tiler::UserKernel* plain = model.findUserKernel("FirPlain");
        QVERIFY(plain != nullptr);
        QCOMPARE(plain->args[0].roomBefore, 4u);
        QCOMPARE(plain->args[0].roomAfter, 0u);
    }

    void groupRecordsItsMembersAndTemplate()
    {
        buildFft2D("Fft", 256);
        const tiler::KernelModel& model = gap::currentModel();
        QCOMPARE(model.groups.size(), std::size_t(1));
        const tiler::KernelGroup& group = model.groups[0];
        QCOMPARE(group.name, std::string("Fft"));
        QCOMPARE(group.members, (std::vector<std::string>{"FftHorizontal", "FftVertical"}));
        QVERIFY(group.hasTemplate);
        QCOMPARE(group.cargs.size(), std::size_t(4));
        QCOMPARE(group.calls.size(), std::size_t(2));
        QCOMPARE(group.calls[1].callee, std::string("FftVertical"));
        QVERIFY(group.calls[1].location == tiler::CallLocation::Group);
        QCOMPARE(group.calls[1].bindings.size(), std::size_t(3));
        QVERIFY(group.calls[1].bindings[0].kind == tiler::Binding::Kind::CArg);
        QCOMPARE(group.calls[1].bindings[0].name, std::string("Out"));

        QCOMPARE(model.userKernels.size(), std::size_t(2));
        QCOMPARE(model.userKernels[0].group, std::string("Fft"));
        QVERIFY(model.userKernels[1].orientation == tiler::Orientation::Vertical);
        // The group is one item of the generated file; its members are not items of their own.
        QCOMPARE(model.items.size(), std::size_t(1));
        QVERIFY(model.items[0].kind == tiler::ModelItem::Kind::Group);
        VERIFY_NO_PROBLEMS(model);
        QVERIFY(gap::unfinishedBuildProblems().empty());

        // A kernel declared after the group is a top-level item again.
        declareMatSumPar();
        buildMatAdd("MatAdd", 8, 8);
        QCOMPARE(model.items.size(), std::size_t(2));
        QVERIFY(model.items[1].kind == tiler::ModelItem::Kind::UserKernel);
        QCOMPARE(model.items[1].index, std::size_t(2));
        QVERIFY(model.userKernels[2].group.empty());
    }

    // C_ArgPlusImmOffset: a group passes its members a C argument plus an offset in items.
    void groupCallsWithOffsetArguments()
    {
        declareMatSumPar();
        OpenKernelGroup("Halves");
        buildMatAdd("HalfAdd", 8, 4);
        CloseKernelGroup();
        UserKernelGroup("Halves",
                        CArgs(3, TCArg("Word32 * __restrict__", "A"), TCArg("Word32 * __restrict__", "B"),
                              TCArg("Word32 * __restrict__", "Sum")),
                        Calls(2,
                              UserKernelCall("HalfAdd", LOC_GROUP, Bindings(3, C_Arg("A"), C_Arg("B"), C_Arg("Sum"))),
                              UserKernelCall("HalfAdd", LOC_GROUP,
                                             Bindings(3, C_ArgPlusImmOffset("A", 32), C_ArgPlusImmOffset("B", 32),
                                                      C_ArgPlusImmOffset("Sum", 32)))));
        const tiler::KernelModel& model = gap::currentModel();
        VERIFY_NO_PROBLEMS(model);
        const tiler::Binding& offset = model.groups[0].calls[1].bindings[2];
        QVERIFY(offset.kind == tiler::Binding::Kind::CArg);
        QCOMPARE(offset.name, std::string("Sum"));
        QCOMPARE(offset.value, std::int64_t(32));
        const std::string code = tiler::emitKernelGroup(model, model.groups[0]);
        QVERIFY2(code.find("HalfAdd((Word32 * __restrict__) (A), ") != std::string::npos, code.c_str());
        QVERIFY2(code.find("HalfAdd((Word32 * __restrict__) ((A+32)), (Word32 * __restrict__) ((B+32)), "
                           "(Word32 * __restrict__) ((Sum+32)));") != std::string::npos,
                 code.c_str());
        // The first Autotiler's form: the group takes the trailing Kernel_T * and passes it on.
        AT_UseFirstAutotilerForm();
        const std::string firstForm = tiler::emitKernelGroup(model, model.groups[0]);
        QVERIFY2(firstForm.find("Word32 * __restrict__ Sum,\n    Kernel_T * Ker)") != std::string::npos, firstForm.c_str());
        QVERIFY2(firstForm.find("(Word32 * __restrict__) ((Sum+32)), Ker);") != std::string::npos, firstForm.c_str());
    }

    void groupLeftOpenIsReported()
    {
        declareMatSumPar();
        OpenKernelGroup("Pair");
        buildMatAdd("First", 8, 8);
        const std::vector<std::string> problems = gap::unfinishedBuildProblems();
        QCOMPARE(problems.size(), std::size_t(1));
        QVERIFY(problems[0].find("kernel group Pair was opened but never closed") != std::string::npos);
        QCOMPARE(gap::currentModel().userKernels[0].group, std::string("Pair"));
        CloseKernelGroup();
        QVERIFY(gap::unfinishedBuildProblems().empty());
    }

    void flowControlSetsTheOptions()
    {
        SetUsedFilesNames(nullptr, 2, "MatAddBasicKernels.h", "FftBasicKernels.h");
        SetGeneratedFilesNames("MyInit.c", nullptr, "MyKernels.c", "MyKernels.h");
        SetSymbolNames("L1_Mem", nullptr, nullptr, "Args");
        SetSymbolDynamics();
        SetMemorySizes(51200, 300000, 4000000);
        const tiler::GenerationOptions& options = gap::currentModel().options;
        QCOMPARE(options.stdTypesHeader, std::string("KernelLibStdTypes.h"));
        QCOMPARE(options.libKernelHeaders, (std::vector<std::string>{"MatAddBasicKernels.h", "FftBasicKernels.h"}));
        QCOMPARE(options.initSource, std::string("MyInit.c"));
        QVERIFY(options.initHeader.empty());  // NULL: none
        QCOMPARE(options.kernelsSource, std::string("MyKernels.c"));
        QCOMPARE(options.l1Symbol, std::string("L1_Mem"));
        QCOMPARE(options.l2Symbol, std::string("L2_Memory"));
        QCOMPARE(options.kernelDescrArgSymbol, std::string("Args"));
        QVERIFY(options.dynamicSymbols);
        QCOMPARE(options.l1Size, 51200u);
        QCOMPARE(options.l2Size, 300000u);
        QCOMPARE(options.l3Size, 4000000u);

        SetUsedFilesNames("MyTypes.h", 0);
        QCOMPARE(options.stdTypesHeader, std::string("MyTypes.h"));
        QVERIFY(options.libKernelHeaders.empty());
        QCOMPARE(std::string(AppendNames("Fft", "Vertical")), std::string("FftVertical"));

        SetSymbolNames("Net_L1_Memory", "Net_L2_Memory");  // the SDK's two-name form
        QCOMPARE(options.l1Symbol, std::string("Net_L1_Memory"));
        QCOMPARE(options.l2Symbol, std::string("Net_L2_Memory"));
        QCOMPARE(options.kernelDescrArgSymbol, std::string("Args"));

        // The guide-era calls GreenWaves' model programs open with.
        SetInlineMode(ALWAYS_INLINE);
        SetKernelOpts(KER_OPT_NONE, KER_OPT_BUFFER_PROMOTE);
        QVERIFY(!options.promoteBuffers && options.promotePartialBuffers);
        SetKernelOpts(KernelOptimizationT(KER_OPT_BUFFER_PROMOTE | KER_OPT_KEEP_GROUP), KER_OPT_PARTIAL_BUFFER_PROMOTE);
        QVERIFY(options.promoteBuffers && !options.promotePartialBuffers);
    }

    void commandLineOptions()
    {
        QTemporaryDir temporary;
        QVERIFY(temporary.isValid());
        const std::string output = QDir(temporary.path()).filePath("gen/out").toStdString();
        std::vector<std::string> words = {"model", "-o", output, "-R", "--l1", "32768"};
        std::vector<char*> argv;
        for (std::string& word : words)
            argv.push_back(word.data());
        QCOMPARE(TilerParseOptions(int(argv.size()), argv.data()), 0);
        const tiler::GenerationOptions& options = gap::currentModel().options;
        QCOMPARE(options.outputDir, output);
        QVERIFY(QDir(QString::fromStdString(output)).exists());
        QVERIFY(options.reentrant);
        QCOMPARE(options.l1Size, 32768u);
        QVERIFY(options.l1SizeOverridden);
        // The command line wins over the model's own budget.
        SetL1MemorySize(51200);
        SetMemorySizes(46000, 200000, 0);
        QCOMPARE(options.l1Size, 32768u);
        QCOMPARE(options.l2Size, 200000u);

        // As NNTool's build rules call a generator: -o and -c directories, --L1 / --L2 / --L3.
        const std::string constants = output + "/constants";
        std::vector<std::string> sdk = {"model", "-o", output, "-c", constants, "--L1", "40000", "--L2", "250000",
                                        "--L3=8000000"};
        std::vector<char*> sdkArgv;
        for (std::string& word : sdk)
            sdkArgv.push_back(word.data());
        QCOMPARE(TilerParseOptions(int(sdkArgv.size()), sdkArgv.data()), 0);
        QCOMPARE(options.constantsDir, constants);
        QVERIFY(QDir(QString::fromStdString(constants)).exists());
        QCOMPARE(options.l1Size, 40000u);
        QCOMPARE(options.l2Size, 250000u);
        QCOMPARE(options.l3Size, 8000000u);
        SetMemorySizes(46000, 200000, 4000000);
        QCOMPARE(options.l3Size, 8000000u);
        QCOMPARE(tiler::executionL3RamBytes(gap::currentModel()), std::uint64_t(8000000));

        for (std::vector<std::string> bad : {std::vector<std::string>{"model", "--frobnicate"},
                                             std::vector<std::string>{"model", "--l1", "lots"},
                                             std::vector<std::string>{"model", "-o"},
                                             std::vector<std::string>{"model", "-c"},
                                             std::vector<std::string>{"model", "--L3", "0"},
                                             std::vector<std::string>{"model", "--L4", "100"}}) {
            std::vector<char*> badArgv;
            for (std::string& word : bad)
                badArgv.push_back(word.data());
            const ChildOutcome outcome = runInChild([&] { _exit(TilerParseOptions(int(badArgv.size()), badArgv.data())); });
            QCOMPARE(outcome.exitStatus, 1);
            QVERIFY2(outcome.errorOutput.find("usage:") != std::string::npos, outcome.errorOutput.c_str());
        }
        std::vector<std::string> unknown = {"model", "--frobnicate"};
        std::vector<char*> unknownArgv = {unknown[0].data(), unknown[1].data()};
        const ChildOutcome outcome = runInChild([&] { _exit(TilerParseOptions(2, unknownArgv.data())); });
        QVERIFY(outcome.errorOutput.find("unknown option '--frobnicate'") != std::string::npos);

        std::vector<std::string> help = {"model", "-h"};
        std::vector<char*> helpArgv = {help[0].data(), help[1].data()};
        QCOMPARE(runInChild([&] { TilerParseOptions(2, helpArgv.data()); _exit(7); }).exitStatus, 0);
    }

    // The SDK's markers: AT_NO_C_ARG, AT_NO_CALL, AT_NO_ARG_BINDING and AT_NO_KER_ARG leave their
    // list entry out; AT_IGNORE_ARG_BINDING keeps its place and leaves the kernel's field unset.
    void absentAndIgnoredListEntries()
    {
        declareMatSumPar();
        UserKernel("Sum", KernelIterSpace(1, IterTiledSpace(KER_ITER_TILE0)), TILE_HOR,
                   CArgs(4, TCArg("Word32 * __restrict__", "In1"), AT_NO_C_ARG, TCArg("Word32 * __restrict__", "In2"),
                         TCArg("Word32 * __restrict__", "Out")),
                   Calls(2, AT_NO_CALL,
                         Call("MatSumPar", LOC_LOOP,
                              Bindings(6, K_Arg("In1", KER_ARG_TILE), K_Arg("In2", KER_ARG_TILE), AT_NO_ARG_BINDING,
                                       K_Arg("Out", KER_ARG_TILE), AT_IGNORE_ARG_BINDING, K_Arg("In1", KER_ARG_TILE_H)))),
                   KerArgs(4, KerArg("In1", KerArgSpace(1, KER_ITER_TILE0), OBJ_IN_DB, 8, 8, 4, 0, OBJ_CONSTRAINTS_NONE, 0, "In1"),
                           AT_NO_KER_ARG,
                           KerArg("In2", KerArgSpace(1, KER_ITER_TILE0), OBJ_IN_DB, 8, 8, 4, 0, OBJ_CONSTRAINTS_NONE, 0, "In2"),
                           KerArg("Out", KerArgSpace(1, KER_ITER_TILE0), OBJ_OUT_DB, 8, 8, 4, 0, OBJ_CONSTRAINTS_NONE, 0, "Out")));
        const tiler::KernelModel& model = gap::currentModel();
        const tiler::UserKernel* sum = model.findUserKernel("Sum");
        QVERIFY(sum != nullptr);
        QCOMPARE(sum->cargs.size(), std::size_t(3));
        QCOMPARE(sum->args.size(), std::size_t(3));
        QCOMPARE(sum->calls.size(), std::size_t(1));
        const std::vector<tiler::Binding>& bindings = sum->calls[0].bindings;
        QCOMPARE(bindings.size(), std::size_t(5));
        QCOMPARE(int(bindings[3].kind), int(tiler::Binding::Kind::Ignored));  // MatSumPar's W
        QCOMPARE(int(bindings[4].select), int(tiler::ArgSelect::TileHeight)); // its H
        VERIFY_NO_PROBLEMS(model);
        const tiler::TileSolverResult solved = tiler::solveTiling(*sum, 51200);
        QVERIFY2(solved.ok, solved.error.c_str());
        const std::string code = tiler::emitUserKernel(model, solved.tiling);
        QVERIFY2(code.find("KerArg0->H = ") != std::string::npos, code.c_str());
        QVERIFY2(code.find("KerArg0->Out = ") != std::string::npos, code.c_str());
        QVERIFY2(code.find("KerArg0->W") == std::string::npos, code.c_str());
    }

    // The SDK's softmax with OUTPUT_DATASIZE 1 writes Q7 bytes through KerParSoftMax8Bits_SQ8, its
    // Norm bound to the Infos' AT_INF_BIASL_SM byte; by default Q15 through KerParSoftMax_SQ8.
    void softmaxOutputDataSizePicksTheKernel()
    {
        LoadCNN_SQ8_Library();
        CNN_GenControl_T control;
        CNN_InitGenCtrl(&control);
        control.OutDataSize = 1;
        QVERIFY(CNN_SoftMax2D_SQ8("Soft8", &control, 3, 100, KOP_SOFTMAX));
        QVERIFY(CNN_SoftMax_SQ8("Soft16", nullptr, 100, KOP_SOFTMAX));
        const tiler::KernelModel& model = gap::currentModel();
        for (const auto& [name, kernel, outType] :
             {std::tuple<const char*, const char*, const char*>{"Soft8", "KerParSoftMax8Bits_SQ8", "signed char"},
              {"Soft16", "KerParSoftMax_SQ8", "short int"}}) {
            const tiler::UserKernel* declared = model.findUserKernel(name);
            QVERIFY(declared);
            const tiler::TileSolverResult solved = tiler::solveTiling(*declared, 51200);
            QVERIFY2(solved.ok, solved.error.c_str());
            const std::string code = tiler::emitUserKernel(model, solved.tiling);
            for (const std::string expected : {std::string("(void *) ") + kernel, std::string(outType) + " *",
                                               std::string("KerArg0->Norm = ")})
                QVERIFY2(code.find(expected) != std::string::npos, (expected + " in\n" + code).c_str());
        }
    }

    // The SDK's call forms and argument marks: CALL_SEQUENTIAL_STRUCT fills the struct and calls the
    // kernel on the master core (no fork); CALL_HWC_KER / CALL_FLOAT_KER change nothing in the call;
    // O_CONST and O_FLOAT describe an input; CNN_ArgDataType* spell the C types.
    void sdkCallFormsAndArgumentMarks()
    {
        LibKernel("Fill", CALL_SEQUENTIAL_STRUCT, CArgs(2, TCArg("Word32 * __restrict__", "Out"), TCArg("unsigned int", "N")),
                  "Fill_Arg_T", nullptr);
        LibKernel("Scale", KernelCallTypeT(CALL_PARALLEL | CALL_HWC_KER | CALL_FLOAT_KER),
                  CArgs(2, TCArg("Word32 * __restrict__", "In"), TCArg("Word32 * __restrict__", "Out")), "Scale_Arg_T",
                  nullptr);
        UserKernel("K", KernelIterSpace(1, IterTiledSpace(KER_ITER_TILE0)), TILE_HOR,
                   CArgs(2, TCArg("Word32 * __restrict__", "In"), TCArg("Word32 * __restrict__", "Out")),
                   Calls(2, Call("Fill", LOC_LOOP_PROLOG, Bindings(2, K_Arg("Out", KER_ARG_TILE), Imm(64))),
                         Call("Scale", LOC_LOOP, Bindings(2, K_Arg("In", KER_ARG_TILE), K_Arg("Out", KER_ARG_TILE)))),
                   KerArgs(2, KerArg("In", KerArgSpace(1, KER_ITER_TILE0), OBJ_IN_DB | O_CONST | O_FLOAT, 8, 8, 4, 0,
                                     OBJ_CONSTRAINTS_NONE, 0, "In"),
                           KerArg("Out", KerArgSpace(1, KER_ITER_TILE0), OBJ_OUT_DB, 8, 8, 4, 0, OBJ_CONSTRAINTS_NONE, 0, "Out")));
        const tiler::KernelModel& model = gap::currentModel();
        QCOMPARE(int(model.findBasicKernel("Fill")->callType), int(tiler::CallType::SequentialStruct));
        QCOMPARE(int(model.findBasicKernel("Scale")->callType), int(tiler::CallType::Parallel));
        const tiler::UserKernel* kernel = model.findUserKernel("K");
        QVERIFY(kernel->args[0].floatItems && !kernel->args[1].floatItems);
        QCOMPARE(kernel->args[0].flags, std::uint32_t(In | DoubleBuffer | Tiled));
        VERIFY_NO_PROBLEMS(model);
        const tiler::TileSolverResult solved = tiler::solveTiling(*kernel, 51200);
        QVERIFY2(solved.ok, solved.error.c_str());
        const std::string code = tiler::emitUserKernel(model, solved.tiling);
        for (const char* expected : {"Fill_Arg_T S_KerArg0, *KerArg0 = &S_KerArg0;", "KerArg0->N = (unsigned int) (64);",
                                     "Fill(KerArg0);", "AT_FORK(gap_ncore(), (void *) Scale, (void *) KerArg1);"})
            QVERIFY2(code.find(expected) != std::string::npos, (std::string(expected) + " in\n" + code).c_str());
        QVERIFY2(code.find("(void *) Fill") == std::string::npos, code.c_str());

        QCOMPARE(std::string(CNN_ArgDataType(1, 1, 1)), std::string("signed char * __restrict__"));
        QCOMPARE(std::string(CNN_ArgDataType(4, 0, 1)), std::string("int"));
        QCOMPARE(std::string(CNN_ArgDataTypeUns(2, 1, 0)), std::string("unsigned short int *"));
        QCOMPARE(std::string(CNN_ArgDataTypeF(2, 1, 1)), std::string("F16 * __restrict__"));
        QCOMPARE(std::string(CNN_ArgDataTypeF(4, 0, 0)), std::string("float"));
        QCOMPARE(CNN_ArgDataType(2, 1, 0), CNN_ArgDataType(2, 1, 0));  // one name per form, kept
        QCOMPARE(runInChild([] { CNN_ArgDataTypeF(1, 1, 1); }).exitStatus, 1);
    }

    // What GreenWaves' DSP generators declare once: an argument struct (LibKernelTemplate) whose fields
    // a parallel LibKernel with NULL C arguments takes, user symbols bound with BindKExpr (their values
    // as C constants), and K_TileOper's '@': one item of a tile, through the given pointer type.
    void kernelTemplatesAndUserSymbols()
    {
        LibKernelTemplate("Scale_T", CArgs(4, TCArg("short int * __restrict__", "In"), TCArg("short int * __restrict__", "Out"),
                                           TCArg("float", "Factor"), TCArg("short int", "Shift")));
        LibKernel("ScaleLines", CALL_PARALLEL, nullptr, "Scale_T", nullptr);
        QCOMPARE(KerTypeTemplate("Scale_T"), gap::registry().kernelTemplates.at("Scale_T"));
        UserSymbols(2, US_Float("Factor", 0.97f), US_Int("Frames", 49));
        UserKernel("K", KernelIterSpace(1, IterTiledSpace(KER_ITER_TILE0)), TILE_HOR,
                   CArgs(3, TCArg("short int *", "In"), TCArg("short int *", "Out"), TCArg("short int *", "Shift")),
                   Calls(1, Call("ScaleLines", LOC_LOOP,
                                 Bindings(4, K_Arg("In", KER_ARG_TILE), K_Arg("Out", KER_ARG_TILE), BindKExpr("Factor"),
                                          K_TileOper("Shift", "short int *", '@', 3)))),
                   KerArgs(3, KerArg("In", KerArgSpace(1, KER_ITER_TILE0), OBJ_IN_DB, 8, 8, 2, 0, OBJ_CONSTRAINTS_NONE, 0, "In"),
                           KerArg("Out", KerArgSpace(1, KER_ITER_TILE0), OBJ_OUT_DB, 8, 8, 2, 0, OBJ_CONSTRAINTS_NONE, 0, "Out"),
                           KerArg("Shift", KerArgSpace(1, KER_ITER_TILE0), O_IN | O_NTILED, 4, 1, 2, 0, OBJ_CONSTRAINTS_NONE,
                                  0, "Shift")));
        const tiler::KernelModel& model = gap::currentModel();
        const tiler::BasicKernel* scale = model.findBasicKernel("ScaleLines");
        QCOMPARE(scale->args.size(), std::size_t(4));
        QCOMPARE(scale->args[2].type, std::string("float"));
        VERIFY_NO_PROBLEMS(model);
        const tiler::TileSolverResult solved = tiler::solveTiling(*model.findUserKernel("K"), 51200);
        QVERIFY2(solved.ok, solved.error.c_str());
        const std::string code = tiler::emitUserKernel(model, solved.tiling);
        const tiler::ArgTiling* shift = solved.tiling.find("Shift");
        const std::string shiftItem = "KerArg0->Shift = (short int) (((short int *) (L1_Memory+" +
                                      std::to_string(shift->l1Offset) + "))[3]);";
        for (const std::string& expected : {std::string("KerArg0->Factor = (float) (0.970000029f);"), shiftItem})
            QVERIFY2(code.find(expected) != std::string::npos, (expected + " in\n" + code).c_str());
        // A symbol binds anywhere an immediate does, such as in a group's call.
        QCOMPARE(BindKExpr("Frames")->value.name, std::string("49"));

        const struct {
            const char* what;
            void (*call)();
            const char* message;
        } refusals[] = {
            {"no template", [] { LibKernel("Other", CALL_PARALLEL, nullptr, "Missing_T", nullptr); },
             "basic kernel Other: its C arguments are NULL and no LibKernelTemplate(\"Missing_T\", ...) declares them"},
            {"an expression", [] { BindKExpr("KArg(Bf, TileBase, D1)"); },
             "BindKExpr(\"KArg(Bf, TileBase, D1)\"): Tessera binds the value of a symbol declared with UserSymbols()"},
            {"another operator", [] { K_TileOper("Shift", "short int *", '+', 1); },
             "K_TileOper(\"Shift\"): operator '+' is not supported"},
            {"not a pointer", [] { K_TileOper("Shift", "short int", '@', 0); }, "is not a pointer type"},
            {"a run-time count without its C argument",
             [] {
                 UserKernel("Frames", KernelIterSpace(2, IterFixedSpaceDynBound(KER_ITER_D0, 100, "NFrames"), IterTiledSpace(KER_ITER_TILE0)),
                            TILE_HOR, CArgs(1, TCArg("short int * __restrict__", "In")),
                            Calls(1, Call("Fill", LOC_LOOP, Bindings(2, K_Arg("In", KER_ARG_TILE), Imm(8)))),
                            KerArgs(1, KerArg("In", KerArgSpace(2, KER_ITER_D0, KER_ITER_TILE0), Object_Type_T(O_IN | O_DB), 8, 4, 2, 0, OBJ_CONSTRAINTS_NONE, 0, "In")));
             },
             "user kernel Frames: IterFixedSpaceDynBound(KER_ITER_D0, 100, \"NFrames\"): the kernel has no C argument NFrames; "
             "add TCArg(\"int\", \"NFrames\") to its CArgs"},
            {"a run-time count in a pointer",
             [] {
                 UserKernel("Frames", KernelIterSpace(2, IterFixedSpaceDynBound(KER_ITER_D0, 100, "In"), IterTiledSpace(KER_ITER_TILE0)),
                            TILE_HOR, CArgs(1, TCArg("short int * __restrict__", "In")),
                            Calls(1, Call("Fill", LOC_LOOP, Bindings(2, K_Arg("In", KER_ARG_TILE), Imm(8)))),
                            KerArgs(1, KerArg("In", KerArgSpace(2, KER_ITER_D0, KER_ITER_TILE0), Object_Type_T(O_IN | O_DB), 8, 4, 2, 0, OBJ_CONSTRAINTS_NONE, 0, "In")));
             },
             "C argument In is a short int * __restrict__; the count must be an integer"},
        };
        for (const auto& refusal : refusals) {
            const ChildOutcome child = runInChild(refusal.call);
            QVERIFY2(child.exitStatus == 1 && child.errorOutput.find(refusal.message) != std::string::npos,
                     (std::string(refusal.what) + ": " + child.errorOutput).c_str());
        }
    }

    // AddKernelArgDim / AddKernelFloatArgDim record the shape (counted or 0-ended); GenTilingDebug
    // prints only with --debug.
    void argumentShapesAndDebugNotes()
    {
        declareShapedKernel();
        AddKernelArgDim("K", "In1", 4, 2, 4, 8, 4);
        const tiler::KernelArgument& in1 = gap::currentModel().findUserKernel("K")->args.front();
        QCOMPARE(in1.declaredDims, (std::vector<unsigned>{2, 4, 8, 4}));
        QVERIFY(!in1.floatItems);
        AddKernelFloatArgDim("K", "In1", -1, 64, 4, 0);
        QCOMPARE(in1.declaredDims, (std::vector<unsigned>{64, 4}));
        QVERIFY(in1.floatItems);
        // Items of several elements, as the SDK's CNN generators shape their filters.
        AddKernelArgDim("K", "In1", 5, 4, 8, 2, 2, 2);
        QCOMPARE(in1.declaredDims, (std::vector<unsigned>{4, 8, 2, 2, 2}));

        const auto notes = [](std::vector<std::string> words) {
            std::vector<char*> argv;
            for (std::string& word : words)
                argv.push_back(word.data());
            return runInChild([&] {
                       dup2(STDERR_FILENO, STDOUT_FILENO);
                       if (TilerParseOptions(int(argv.size()), argv.data()) != 0)
                           _exit(3);
                       GenTilingDebug("%s of %d lines", "Resize", 121);
                       std::fflush(stdout);
                       _exit(0);
                   })
                .errorOutput;
        };
        QCOMPARE(notes({"model", "--debug"}), std::string("debug: Resize of 121 lines\n"));
        QCOMPARE(notes({"model"}), std::string());
    }

    void checkModelNamesEachError_data()
    {
        QTest::addColumn<int>("row");
        for (std::size_t i = 0; i < checkRows().size(); ++i)
            QTest::newRow(checkRows()[i].name) << int(i);
    }

    void checkModelNamesEachError()
    {
        QFETCH(int, row);
        const CheckRow& check = checkRows()[std::size_t(row)];
        buildCheckBaseModel();
        tiler::KernelModel& model = gap::currentModel();
        VERIFY_NO_PROBLEMS(model);
        check.breakModel(model);
        const std::vector<std::string> problems = tiler::checkModel(model);
        const std::string all = joinedProblems(problems);
        const bool found = std::any_of(problems.begin(), problems.end(), [&](const std::string& problem) {
            return std::all_of(check.expected.begin(), check.expected.end(), [&](const std::string& part) {
                return problem.find(part) != std::string::npos;
            });
        });
        QVERIFY2(found, ("expected \"" + check.expected.front() + "\" among:\n" + all).c_str());
    }

    void buildersStopAtOnceOnErrors_data()
    {
        QTest::addColumn<int>("row");
        for (std::size_t i = 0; i < immediateErrorRows().size(); ++i)
            QTest::newRow(immediateErrorRows()[i].name) << int(i);
    }

    void buildersStopAtOnceOnErrors()
    {
        QFETCH(int, row);
        const ImmediateErrorRow& error = immediateErrorRows()[std::size_t(row)];
        const ChildOutcome outcome = runInChild(error.body);
        QCOMPARE(outcome.exitStatus, 1);
        QVERIFY2(outcome.errorOutput.find(error.expected) != std::string::npos, outcome.errorOutput.c_str());
    }

    void resetForgetsEverything()
    {
        buildFft2D("Fft", 64);
        OpenKernelGroup("Open");
        gap::resetModel();
        const tiler::KernelModel& model = gap::currentModel();
        QVERIFY(model.basicKernels.empty() && model.userKernels.empty() && model.groups.empty() && model.items.empty());
        QVERIFY(gap::unfinishedBuildProblems().empty());
        QCOMPARE(model.options.l1Size, tiler::GenerationOptions{}.l1Size);
        // An empty list is fine: a basic kernel without arguments.
        LibKernel("HWCE_Enable", CALL_SEQUENTIAL, CArgs(0), "");
        QVERIFY(model.findBasicKernel("HWCE_Enable")->args.empty());
    }
};

QTEST_APPLESS_MAIN(TestGapModelApi)
#include "tst_gap_model_api.moc"
