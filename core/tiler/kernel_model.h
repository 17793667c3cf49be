// The Autotiler kernel model: basic kernels, user kernels with their iteration space, arguments
// and basic-kernel calls, kernel groups, and the generation options. The C model API (core/gap)
// builds one KernelModel; the tile solver and the C emitter read it.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace tessera::tiler {

// A C formal argument: type and name, e.g. {"Word32 * __restrict__", "In1"}.
struct CArgument {
    std::string type;
    std::string name;
};

// Sequential: on the master core with its C arguments; SequentialStruct: on the master core through
// one struct (parallelArgType); Parallel: on all cores through one struct.
enum class CallType { Sequential, Parallel, SequentialStruct };

// A C function written as if its data fits in L1; parallel ones take one struct pointer.
struct BasicKernel {
    std::string name;
    CallType callType = CallType::Sequential;
    std::vector<CArgument> args;
    std::string parallelArgType;  // struct typedef name for parallel and struct-sequential kernels
    bool takesStruct() const { return callType != CallType::Sequential; }
};

// OuterTile: the outer loop of two-level tiling (the SDK's KER_ITER_TILE1), around all the others;
// the arguments it tiles (KernelArgument::outerTiled) change once per outer tile, those of Tile once
// per inner tile, as a matrix product walks bands of lines of one operand and of its result and, for
// each band, column bands of the other operand.
enum class IterationSpace { Tile = 0, InPlane = 1, OutPlane = 2, OuterTile = 3 };
enum class Orientation { Horizontal = 0, Vertical = 1 };

// Where a basic-kernel call sits in the generated loop nest (numeric values match the C API).
enum class CallLocation {
    Prolog = 0,
    InnerLoopProlog = 1,
    InPlaneProlog = 2,
    InnerLoop = 3,
    InPlaneEpilog = 4,
    InnerLoopEpilog = 5,
    Epilog = 6,
    Group = 7,
};

// What a K_Arg binding takes from a kernel argument (values match the C API).
enum class ArgSelect {
    Tile = 0,
    Plane = 1,
    TileWidth = 2,
    TileWidth0 = 3,
    TileHeight = 4,
    TileHeight0 = 5,
    TileCount = 6,
    TileIndex = 7,
    TileOffset = 8,
    Width = 9,   // the argument's plane width (KER_ARG_W)
    Height = 10, // the argument's plane height (KER_ARG_H)
    // Where the next tile goes (KER_ARG_TILE_NEXTDB): the other L1 buffer of a double-buffered
    // argument, the same buffer otherwise. With room before the buffers (KerArgPad) a kernel leaves
    // data there for the next tile, such as a FIR's delay line.
    NextTile = 11,
    // The part of the current tile the kernel reads (KER_ARG_TILE_USEDW / _USEDH): the tile's columns
    // (lines) below the argument's usedWidth (usedHeight), all of them when that is 0.
    TileUsedWidth = 12,
    TileUsedHeight = 13,
    // The current tile's padding as a v4s (left, right, top, bottom) (KER_ARG_TILE_PAD): zeros but for
    // an argument whose kernel pads it (KernelArgument::kernelPadsItself).
    TilePad = 14,
};

struct Binding {
    // Ignored (AT_IGNORE_ARG_BINDING): the basic kernel's argument is left unset (a parallel kernel's
    // field is not assigned; a sequential kernel gets 0).
    // Literal (BindKExpr of a user symbol): the C text in `name`, e.g. a float constant "0.97f".
    // TileItem (K_TileOper(Arg, Type, '@', Index)): item `value` of the argument's current tile, read
    // through a pointer of type `accessType`.
    // LoopIndex (Ker_IteratorIndex): the current index of the loop over `iterator`.
    // LoopPredicate (K_ArgPred): 1 in the first (value 0) or the last (value 1) iteration of the loop
    // over `iterator`, 0 in the others.
    // PlaneChunk (K_ArgPar): planes of the loop over `iterator` in the current chunk (value 0,
    // KER_ARG_PARTILE_SIZE), or those of them the argument `name` holds in L1 (value 1,
    // KER_ARG_LOADEDPARTILE_SIZE: all of them when it is promoted or holds every input plane).
    enum class Kind { KernelArg, CArg, CArgIndex, Immediate, Ignored, Literal, TileItem, LoopIndex, LoopPredicate,
                      PlaneChunk };
    Kind kind = Kind::Immediate;
    std::string name;                            // kernel argument or C argument name
    ArgSelect select = ArgSelect::Tile;          // for KernelArg
    IterationSpace iterator = IterationSpace::Tile;  // for CArgIndex, LoopIndex and LoopPredicate
    // Immediate value, CArgIndex multiplier, or CArg offset (C_ArgPlusImmOffset: the C argument plus
    // this many of its items, C pointer arithmetic).
    std::int64_t value = 0;
    std::string accessType;                      // for TileItem
};

struct KernelCall {
    std::string callee;  // a basic kernel (in user kernels) or a user kernel (in groups)
    CallLocation location = CallLocation::InnerLoop;
    std::vector<Binding> bindings;
};

// Kernel argument property flags (values match the C API's O_* macros).
namespace ArgFlag {
constexpr std::uint32_t In = 1u << 0;
constexpr std::uint32_t Out = 1u << 1;
constexpr std::uint32_t Buffer = 1u << 2;
constexpr std::uint32_t Tiled = 1u << 3;
constexpr std::uint32_t OneTile = 1u << 4;
constexpr std::uint32_t DynTile = 1u << 5;
constexpr std::uint32_t DoubleBuffer = 1u << 6;
constexpr std::uint32_t L2DoubleBuffer = 1u << 7;
constexpr std::uint32_t ThreeD = 1u << 8;
constexpr std::uint32_t FourD = 1u << 9;
// Tessera's own: an input homed in L3 (L2DoubleBuffer) that is read from the flash image rather
// than from L3 RAM (constants executed from flash).
constexpr std::uint32_t FlashHome = 1u << 24;
}  // namespace ArgFlag

// Tile constraints (values match the C API's OBJ_CONSTRAINTS_*).
namespace ArgConstraint {
constexpr std::uint32_t Even = 1u << 1;
constexpr std::uint32_t Odd = 1u << 2;
constexpr std::uint32_t OnePreferredTile = 1u << 3;
constexpr std::uint32_t TileHorizontal = 1u << 4;
constexpr std::uint32_t TileVertical = 1u << 5;
// The argument's tiles follow the reference argument's by a ratio that need not be a whole number
// (a resize's input and output): see ArgTiling::dynamic.
constexpr std::uint32_t Dynamic = 1u << 6;
// Lines beyond the ratio's whole steps: however many, they ride in the last tile (PadRemainder) or
// are never moved (DropRemainder). Without either, fewer than one step ride in the last tile.
constexpr std::uint32_t PadRemainder = 1u << 7;
constexpr std::uint32_t DropRemainder = 1u << 8;
}  // namespace ArgConstraint

struct KernelArgument {
    std::string name;
    std::uint32_t flags = 0;
    unsigned width = 0;
    unsigned height = 0;
    unsigned itemSize = 1;
    unsigned tileOverlap = 0;
    std::uint32_t constraints = 0;
    unsigned preferredTileSize = 0;  // tile size (lines or columns) a multiple of this when non-zero
    std::string cArgName;            // the user kernel C argument holding its home address, or empty
    unsigned nextPlaneUpdate = 0;    // planes to step per plane index (0: one)
    // A 3-D argument whose planes interleave line by line in its home memory: line l of plane p is
    // at (l * planeCount + p) * lineBytes. CNN convolution filters are homed [OutFeat][InFeat][Fy][Fx]
    // and read one input feature (plane) at a time, its OutFeat lines of Fy * Fx gathered by a 2-D
    // copy. Such an argument is streamed one plane per chunk, never promoted whole.
    bool interleavedPlanes = false;
    // A 3-D argument whose planes interleave item by item in its home memory (HWC: the features of
    // each pixel side by side, item i of plane p at (i * planeCount + p) * itemSize), as the SDK's HWC
    // layers lay out theirs. A chunk holds, item after item of its tile, the chunk's planes side by
    // side, the layout HWC kernels read; it is moved by one 2-D copy (from L3 into staging laid out
    // like it). Tiled by lines, not padded, never promoted whole nor held across the planes of a tile.
    bool hwcPlanes = false;
    // Zero lines before and after the argument in its tiled (horizontal) dimension that are not in
    // its home memory: the tiles see them (a padded convolution input), the DMA moves only real lines.
    unsigned padBefore = 0;
    unsigned padAfter = 0;
    // Padding the basic kernel applies itself (a KerArgP, as GreenWaves' kernels take it): the tile it
    // sees starts at the tile's first home line and holds its home lines only (KER_ARG_TILE, _H), and
    // KER_ARG_TILE_PAD gives kernelPad's left and right columns and the padding lines of that tile
    // above and below, at most kernelPad's top and bottom. padBefore / padAfter place the tiles as for
    // any padded input; they may exceed kernelPad's (lines a later pooling pads, which this kernel
    // neither reads nor pads). A one-tile L1 buffer may be padded this way too.
    bool kernelPadsItself = false;
    std::array<int, 4> kernelPad{};  // left, right, top, bottom
    // The first usedWidth columns and usedHeight lines of each plane are all the kernel reads (a
    // KerArgP whose strided window stops short of the last ones); 0 when it reads them all. Tiles and
    // DMA still cover whole planes: the unused lines ride in the last tile.
    unsigned usedWidth = 0;
    unsigned usedHeight = 0;
    // Items of L1 room before and after each of its L1 buffers (KerArgPad's BottomBuffer and
    // TopBuffer): the kernel keeps data there from one tile to the next, and no DMA touches it.
    unsigned roomBefore = 0;
    unsigned roomAfter = 0;
    // A 3-D output written one plane per input plane (depthwise layers): it follows the input-plane
    // loop instead of the output-plane loop.
    bool planePerInput = false;
    // A 3-D input read one plane per output plane (a convolution's biases as the SDK's CNN generators
    // declare them): it follows the output-plane loop instead of the input-plane loop.
    bool planePerOutput = false;
    // FlashHome arguments: C expression of the AT_FLASH_FS_T pointer of the image they are read from.
    std::string flashImage;
    // The argument's shape as the model declared it (AddKernelArgDim), outermost first, the item
    // size last; empty when not declared. Reported in the tiling report.
    std::vector<unsigned> declaredDims;
    bool floatItems = false;  // AddKernelFloatArgDim: the items are floating point
    // Tiled by the kernel's outer tile loop (KER_ITER_TILE1) instead of its inner one; the kernel
    // then has UserKernel::outerTiles.
    bool outerTiled = false;
    // SPACE_PROP_REVERT in the argument's KerArgSpace: iteration p of that plane loop (of N) is the
    // argument's plane N - 1 - p (the SDK's recurrent layers run a sequence backwards so). Such a
    // loop runs one plane at a time.
    bool reverseInPlanes = false;
    bool reverseOutPlanes = false;
    // KerArgAliased: the argument (of the same kernel, declared before) whose L1 buffer this one
    // uses instead of one of its own. GreenWaves' recurrent layers declare their state so: loaded
    // from Sin, rewritten by every step in place, stored to Sout. Both are whole (untiled) buffers of
    // one size, the named one an input and this one an output; empty for an argument of its own.
    std::string sharesBufferOf;

    bool has(std::uint32_t flag) const { return (flags & flag) == flag; }
    // Whether it runs through the planes of this plane loop backwards (SPACE_PROP_REVERT).
    bool reverses(IterationSpace loop) const
    {
        return (loop == IterationSpace::InPlane && reverseInPlanes) || (loop == IterationSpace::OutPlane && reverseOutPlanes);
    }
};

struct UserKernel {
    std::string name;
    unsigned inPlanes = 1;
    unsigned width = 0;
    unsigned height = 0;
    unsigned outPlanes = 1;
    int dimension = 2;                    // 2, 3 or 4
    std::vector<IterationSpace> order;    // outermost first, e.g. {OutPlane, Tile, InPlane}
    // Two-level tiling: an outer tile loop (IterationSpace::OuterTile) around the whole `order`.
    bool outerTiles = false;
    // A plane loop the solver may run in chunks of several planes (a parametric space, IterParSpace,
    // whose chunk size the basic kernels are told by K_ArgPar): InPlane or OutPlane, Tile for none.
    // Chunks are multiples of chunkDivider where the budget allows.
    IterationSpace chunkablePlanes = IterationSpace::Tile;
    unsigned chunkDivider = 1;
    // A plane loop that runs, at run time, as many of its planes as a C argument says (the SDK's
    // IterFixedSpaceDynBound: a recurrent layer over a sequence of variable length): the name of
    // that int argument, empty for all planes. The planes count is the most it may say; L1 is sized
    // for that, and the arguments along the loop are moved plane by plane.
    std::string inPlanesBound;
    std::string outPlanesBound;
    const std::string& runtimeBound(IterationSpace space) const
    {
        static const std::string none;
        return space == IterationSpace::InPlane ? inPlanesBound : space == IterationSpace::OutPlane ? outPlanesBound : none;
    }
    Orientation orientation = Orientation::Horizontal;
    std::vector<CArgument> cargs;
    std::vector<KernelCall> calls;
    std::vector<KernelArgument> args;
    std::string group;                    // the kernel group it was declared in, if any
    // C expression of the L2 address where its staging buffers start (arguments homed in L3);
    // empty: the model's L2 symbol. Graph nodes place them in the graph's dynamic L2 block.
    std::string l2StagingBase;
    // The most L2 its staging buffers may take (0: the L2 budget); a graph node under a tight budget
    // trades bigger tiles for smaller staging buffers.
    std::uint64_t l2StagingLimit = 0;
    // Multiply-accumulates (or comparable operations) of one call, when the model knows them: the
    // CNN generators set it; the report and AT_GRAPH_PRODUCE_OPERINFOS use it.
    std::uint64_t operations = 0;
};

// A kernel group's argument as KerGroupArg describes it: the bytes of its C argument one
// iteration uses; an iterated group moves it by as much per iteration unless it is the same for
// all (O_NTILED, e.g. a layer's Infos).
struct GroupArgument {
    std::string cArgName;
    std::uint64_t bytesPerIteration = 0;
    bool sameEachIteration = false;
};

struct KernelGroup {
    std::string name;
    std::vector<std::string> members;     // user kernels declared between Open/CloseKernelGroup
    std::vector<CArgument> cargs;
    std::vector<KernelCall> calls;        // UserKernelCall, location Group
    bool hasTemplate = false;             // UserKernelGroup was called
    // UserKernelGroupK: how many times the calls run (the SDK's grouped convolutions run once per
    // group; the calls' expressions read the iteration as kGroupIterationVariable).
    unsigned iterations = 1;
    std::vector<GroupArgument> arguments;  // KerGroupArg, when given
};

// The loop variable of an iterated kernel group, as the calls' C expressions name it.
inline constexpr const char* kGroupIterationVariable = "GroupIter";

// What the tile solver's cycle estimates assume about the chip; the defaults are rough GAP8 cluster
// figures (only their ratios steer the tiling choice) and a target can give its own.
struct TilerCostModel {
    double dmaBytesPerCycle = 8.0;     // L2 <-> L1 cluster DMA
    double dmaSetupCycles = 30.0;      // programming one transfer
    double dmaLineCycles = 2.0;        // extra per line of a 2-D (strided) transfer
    double l3BytesPerCycle = 1.5;      // L3 (HyperRAM) <-> L2 micro DMA
    double computeCyclesPerItem = 1.0; // per item of the largest tile, per core
    double macsPerCoreCycle = 1.0;     // kernels that declare their operations (16-bit MACs per core)
    // The same per basic kernel doing the MACs (the first inner-loop call found here), for targets
    // whose kernel families run at different rates.
    std::map<std::string, double> macsPerCoreCycleByKernel;
    unsigned cores = 8;
    double callCycles = 300.0;         // forking an inner-loop basic kernel on the cores and joining
    unsigned alignment = 4;            // L1 buffer alignment in bytes
};

struct GenerationOptions {
    std::string outputDir = ".";
    bool reentrant = false;
    unsigned l1Size = 64 * 1024;
    unsigned l2Size = 512 * 1024;
    unsigned l3Size = 8 * 1024 * 1024;
    bool l1SizeOverridden = false;  // --l1 given on the generator's command line wins over the model
    bool l2SizeOverridden = false;  // likewise --l2
    bool l3SizeOverridden = false;  // and --l3, over the model's L3 Ram device
    // Where the constants images (the flash files of graphs) are written: the generator's -c
    // directory, as NNTool's build rules pass it; empty: with the generated code (outputDir).
    std::string constantsDir;
    std::string stdTypesHeader = "KernelLibStdTypes.h";
    std::vector<std::string> libKernelHeaders;
    // Argument-initialisation files, written only when the model names them (the four-name
    // SetGeneratedFilesNames); they hold nothing the kernels need.
    std::string initSource;
    std::string initHeader;
    std::string kernelsSource = "GenKernels.c";
    std::string kernelsHeader = "GenKernels.h";
    std::string l1Symbol = "L1_Memory";
    std::string l2Symbol = "L2_Memory";
    std::string kernelDescrSymbol = "AllKernels";
    std::string kernelDescrArgSymbol = "AllKernelsArgs";
    bool dynamicSymbols = false;
    // AT_GRAPH_WARM_CONSTRUCT: 0 disabled, 1 L1, 2 L1 and dynamic L2, 3 every memory left to the caller.
    unsigned warmConstruct = 0;
    // What graphs report (AT_SetGraphCtrl): the generation report on the generator's output
    // (AT_GRAPH_TRACE_EXEC), and in the generated runner the cycles of each node
    // (AT_GRAPH_MONITOR_CYCLES), node names and operation counts, in C arrays of these names.
    bool traceGeneration = true;
    // Graph placement controls: AT_GRAPH_DISABLE_CONST_L2_PROMOTION, and the byte budgets of the
    // constants promoted to L2 and kept in L3 RAM (AT_GRAPH_L2/L3_STATIC_MEMORY_BUDGET; 0: none).
    bool promoteConstantsToL2 = true;
    // AT_GRAPH_CONST_EXEC_FROM_FLASH: constants that do not fit L2 are read from the flash image by
    // the nodes using them instead of being copied to L3 RAM.
    bool constantsExecuteFromFlash = false;
    // AT_GRAPH_PRIVILEGED_L3_HOME: the smaller, faster flash device (declared with its size and
    // image file) filled first with the constants that stay in flash, as an AT_MEM_* value; 0: none.
    int privilegedFlash = 0;
    TilerCostModel costModel;  // the chip the estimates are for
    unsigned l2StaticBudget = 0;
    unsigned l3StaticBudget = 0;
    bool monitorCycles = false;
    std::string cyclesVariable = "AT_GraphPerf";
    bool nodeNames = false;
    std::string nodeNamesVariable = "AT_GraphNodeNames";
    bool operationInfos = false;
    std::string operationInfosVariable = "AT_GraphOperInfosNames";
    // Tracing the tensors while the graph runs: AT_GRAPH_CHECKSUM prints the checksum of every
    // node's outputs; AT_GRAPH_DUMP_TENSOR prints the values of a node's outputs (mask 1) and
    // activation inputs (mask 2), of every node or only of AT_GRAPH_DUMP_ONE_NODE's;
    // AT_GRAPH_DUMP_GRAPH_OUTPUTS prints the graph's outputs after the last node.
    bool checksumTensors = false;
    unsigned dumpTensorMask = 0;
    std::string dumpOneNode;
    bool dumpGraphOutputs = false;
    bool dumpTensorsToFile = false;  // AT_GRAPH_DUMP_TENSOR_TO_FILE: the dumps go to <node>.<tensor>.bin files
    // The first Autotiler's form (a model built with `tessera gap model-cflags --first-autotiler`):
    // every generated user kernel and group takes a trailing `Kernel_T *Ker`, which applications
    // written for that Autotiler pass (as 0); the generated code does not use it.
    bool kernelDescriptorArgument = false;
    // AT_GRAPH_NOINLINE_NODE: user kernels and groups are defined noinline.
    bool noinlineKernels = false;
    // AT_GRAPH_SIZE_OPT: the graph functions are compiled for size (AT_SIZE_OPT).
    bool sizeOptimizedGraph = false;
    // AT_KERNEL_BUFFER_PROMOTE / AT_KERNEL_PARTIAL_BUFFER_PROMOTE: whether the tile solver may keep
    // a whole argument in L1, or one chunk across all input planes of a tile.
    bool promoteBuffers = true;
    bool promotePartialBuffers = true;
    // AT_KERNEL_NOSOLUTION_ERROR: off, a user kernel without a tiling in the L1 budget is dropped
    // when declared (UserKernel() returns NULL, a CNN generator 0) so the model can try another.
    bool noSolutionError = true;
    // AT_GRAPH_PREF_L3_EXEC / AT_GRAPH_PREF_L3_HOME: the L3 Ram and the flash a graph uses when the
    // model declares several (MemoryLocation values; the guide's defaults are HyperRam and HyperFlash).
    int preferredL3Ram = 3;
    int preferredL3Flash = 7;
};

// Memory devices of the graph API (values match the C API's AT_MEM_*).
enum class MemoryLocation {
    Undefined = 0,
    L1,
    L2,
    L3HyperRam,
    L3QspiRam,
    L3OspiRam,
    L3DefaultRam,
    L3HyperFlash,
    L3QspiFlash,
    L3OspiFlash,
    L3MramFlash,
    L3Priority1,
    L3Priority2,
    L3DefaultFlash,
};

// "AT_MEM_L3_HFLASH" for MemoryLocation::L3HyperFlash ...; "?" outside the enumeration.
const char* memoryLocationName(MemoryLocation location);
// The flash devices: they hold the constants image file.
bool isFlashMemory(MemoryLocation location);
// L3 Ram devices (HyperRam, QSPI, OSPI, default Ram).
bool isL3RamMemory(MemoryLocation location);

// One SetMemoryDeviceInfos entry.
struct MemoryDevice {
    MemoryLocation location = MemoryLocation::Undefined;
    std::uint64_t size = 0;
    std::string baseName;      // C name the device's memory symbols are built from
    std::string constFile;     // flash devices: the constants image file
    bool externallyManaged = false;
};

// ARG_SCOPE_*; AllocatedArgument (ARG_SCOPE_ARG_ALLOC): a graph input or output that the constructor
// allocates in L2 and the application reaches through a global pointer of its name.
enum class GraphArgScope { Argument = 0, Global = 1, Local = 2, AllocatedArgument = 3 };
enum class GraphArgDirection { In = 0, Out = 1, InOut = 2, ConstIn = 3 };  // ARG_DIR_*

const char* graphArgScopeName(GraphArgScope scope);              // "ARG_SCOPE_ARG" ...
// An input or output of the graph: passed to the runner, or allocated by the graph itself.
inline bool isGraphArgument(GraphArgScope scope)
{
    return scope == GraphArgScope::Argument || scope == GraphArgScope::AllocatedArgument;
}
const char* graphArgDirectionName(GraphArgDirection direction);  // "ARG_DIR_IN" ...

// ConstInfo: where a constant's values come from and the fixed-point format they are stored in.
struct ConstantSource {
    std::string file;
    // The values themselves, when the model is built inside Tessera: the file is then not read.
    std::shared_ptr<const std::vector<double>> values;
    bool floatValues = false;  // Format 0: the file holds float32 values to convert; 1: fixed point
    bool binary = true;        // a raw binary file (else text, one value per line)
    int bits = 16;             // stored item size in bits
    int fractionalBits = 0;    // Q format for converted float values
};

// A graph C argument with its TCArgInfo attributes.
struct GraphArgument {
    CArgument carg;
    GraphArgScope scope = GraphArgScope::Argument;
    GraphArgDirection direction = GraphArgDirection::In;
    MemoryLocation home = MemoryLocation::Undefined;
    MemoryLocation execution = MemoryLocation::Undefined;
    bool hasConstant = false;
    ConstantSource constant;
};

// One AddNode: a user kernel (or group) called with graph symbols bound to its C arguments in order.
struct GraphNodeBinding {
    enum class Direction { In = 0, Out = 1, InOut = 2 };  // GNA_IN, GNA_OUT, GNA_INOUT
    // Tensor (GNodeArg): the address of a graph symbol, which the graph sizes and places.
    // Value (GNodeCArg): a runner argument (ARG_SCOPE_ARG) passed on as it is, e.g. a `bool Reset`.
    // Immediate (Imm): the constant `immediate`.
    enum class Kind { Tensor, Value, Immediate };
    Kind kind = Kind::Tensor;
    Direction direction = Direction::In;
    std::string symbol;  // Tensor and Value
    int immediate = 0;   // Immediate
    // A member of stacked tensors (AddStackedTensors): the node names `stackMember`, which is the
    // part of `symbol` that starts `offset` bytes into it (set when the graph is closed).
    std::string stackMember;
    std::uint64_t offset = 0;
    // GNodeArg(GNA_INOUT, Name, AliasedArgName) with Name != AliasedArgName: the node reads
    // `aliasOf` and writes `symbol` in its place, so both name one buffer (set by GNodeArg; the
    // graph renames `symbol` to the buffer's first symbol when it is closed, see GraphAlias).
    std::string aliasOf;

    bool bindsTensor() const { return kind == Kind::Tensor; }
};

const char* nodeBindingDirectionName(GraphNodeBinding::Direction direction);  // "GNA_IN" ...

struct GraphNode {
    std::string kernel;
    std::vector<GraphNodeBinding> bindings;
};

// AddStackedTensors: `out` is its members one after the other, so that nodes writing (or reading)
// a member use `out` in place; a concatenation then costs no copy. Offsets and sizes are in bytes,
// known when the graph is closed from the kernel arguments the members are bound to.
struct StackedTensors {
    std::string out;
    std::vector<std::string> members;
    std::vector<std::uint64_t> offsets;
    std::vector<std::uint64_t> bytes;

    std::uint64_t totalBytes() const;
};

// A local that a GNA_INOUT binding writes in place of another symbol, as NNTool's recurrent layers
// keep their state (`S0_CellInternal01` in place of `S0_CellState`): it has no buffer of its own,
// every binding of it names `buffer`, the first symbol of its chain of aliases, instead.
struct GraphAlias {
    std::string local;   // dropped from GraphModel::locals
    std::string reads;   // the symbol the node reads (AliasedArgName)
    std::string buffer;  // the symbol whose memory it is
    std::size_t node = 0;
};

struct GraphModel {
    std::string name;
    std::vector<GraphArgument> arguments;  // CreateGraph's first list: arguments and globals
    std::vector<GraphArgument> locals;     // CreateGraph's second list: buffers between nodes
    std::vector<GraphNode> nodes;          // in execution order
    std::vector<StackedTensors> stacks;
    std::vector<GraphAlias> aliases;
    bool closed = false;

    // The argument, global or local named `symbol`, or nullptr.
    const GraphArgument* findSymbol(const std::string& symbol) const;
};

// AT_SetGraphCtrl options (values match the C API's AT_GraphCtrl_T) and their values.
struct GraphControl {
    int option = 0;
    std::intptr_t value = 0;
    std::string text;  // options whose value is a name (C variable names)
};

// One item of the generated file, in declaration order.
struct ModelItem {
    enum class Kind { UserKernel, Group };
    Kind kind;
    std::size_t index;
};

// Bytes of a kernel argument in its home memory: every plane the kernel's dimensions give it.
std::uint64_t argumentHomeBytes(const UserKernel& kernel, const KernelArgument& arg);

struct KernelModel {
    GenerationOptions options;
    std::vector<MemoryDevice> devices;     // SetMemoryDeviceInfos, in the order given
    std::vector<GraphControl> graphControls;
    std::vector<GraphModel> graphs;
    std::vector<BasicKernel> basicKernels;
    std::vector<UserKernel> userKernels;
    std::vector<KernelGroup> groups;
    std::vector<ModelItem> items;
    // User kernels dropped for want of a tiling (AT_KERNEL_NOSOLUTION_ERROR off): name, the solver's reason.
    std::vector<std::pair<std::string, std::string>> droppedKernels;

    const BasicKernel* findBasicKernel(const std::string& name) const;
    const UserKernel* findUserKernel(const std::string& name) const;
    UserKernel* findUserKernel(const std::string& name);
};

}  // namespace tessera::tiler
