// The process-wide state behind the C model API (AutoTilerLib.h): the KernelModel being built,
// the kernel group or graph currently open, and an arena owning every object handed to the model
// program as an opaque pointer. The arena lives until resetModel() or process exit, so a model
// never frees anything and still runs clean under LeakSanitizer.
#pragma once

#include "AutoTilerLibTypes.h"
#include "tiler/kernel_model.h"

#include <cstdarg>
#include <cstddef>
#include <array>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

// The opaque objects of AutoTilerLibTypes.h (global namespace, as the C header declares them).
// A C argument (TCArg) or a graph symbol (TCArgInfo): each may be used where the other is expected.
struct CKernel_Arg_S {
    tessera::tiler::CArgument value;
    std::optional<tessera::tiler::GraphArgument> graphSymbol = std::nullopt;  // TCArgInfo; carg == value
};
// A binding of a basic-kernel or group call, or of a graph node (GNodeArg).
struct ArgBindingDescr_S {
    tessera::tiler::Binding value;
    std::optional<tessera::tiler::GraphNodeBinding> nodeBinding = std::nullopt;  // GNodeArg only
    int spaceIterator = -1;  // C_ArgIndex with a KER_ITER_D* iterator, resolved by its user kernel
};
struct ConstInit_S {
    tessera::tiler::ConstantSource value;
};
struct CKernelCall_S {
    tessera::tiler::KernelCall value;
    // The current API's parts its user kernel's KernelIterSpace resolves (iteration_spaces.cpp): a
    // LOC_D* location, and the bindings (index, KER_ITER_D* iterator) of C_ArgIndex.
    int spaceLocation = -1;
    std::vector<std::pair<std::size_t, int>> spaceIterators;
};
struct Object_S {
    tessera::tiler::KernelArgument value;
    std::optional<std::vector<int>> space = std::nullopt;  // KerArg with a KerArgSpace: its iterators
    bool notTiled = false;  // O_NTILED: untiled even if the space lists KER_ITER_TILE0
    bool groupArgument = false;  // KerGroupArg: describes a kernel group's argument, not a user kernel's
    // KerArgAliased: the position in its KerArgs list of the argument whose L1 buffer it uses.
    std::optional<unsigned> sharesBufferOfIndex = std::nullopt;
    std::vector<int> reversedSpaces;  // the spaces of its KerArgSpace or'ed with SPACE_PROP_REVERT
};
// A kernel argument of the guide's API: no KerArgSpace, no alias.
inline Object_S plainObject(tessera::tiler::KernelArgument value)
{
    Object_S object;
    object.value = std::move(value);
    return object;
}
// UserKernelGroupK(): the group it declared.
struct KernelGroup_S {
    std::string name;
};
// KernelIterSpace(): its dimensions, outermost first.
struct KernelIteratorDescr_S {
    int iterator = 0;
    bool tiled = false;
    unsigned size = 1;  // non-tiled spaces
    bool oneTile = false;  // SPACE_PROP_ONE_TILE: the whole space in one iteration (whole_spaces.h)
    // IterParSpace: the space may run in chunks of several items, multiples of the divider preferred.
    bool parametric = false;
    unsigned preferredDivider = 1;
    // IterFixedSpaceDynBound: the C argument that gives, at run time, how many of the `size` items run.
    std::string runtimeBound;
};
struct KernelIterationSpace_S {
    std::vector<KernelIteratorDescr_S> spaces;
};
struct KernelArgDimDescr_S {
    std::vector<int> iterators;  // without the SPACE_PROP_* bits
    std::vector<int> reversed;   // those or'ed with SPACE_PROP_REVERT
};
struct KernelDimension_S {
    unsigned inPlanes = 1;
    unsigned width = 0;
    unsigned height = 0;
    unsigned outPlanes = 1;
};
struct KernelIteration_S {
    int dimension = 2;
    std::vector<tessera::tiler::IterationSpace> order;  // outermost first
    bool outerTiles = false;  // KER_ITER_TILE1 around the whole order (two-level tiling)
    // The plane loop that may run in chunks (see tiler::UserKernel), Tile for none.
    tessera::tiler::IterationSpace chunkablePlanes = tessera::tiler::IterationSpace::Tile;
    unsigned chunkDivider = 1;
    std::string inPlanesBound, outPlanesBound;  // run-time plane counts (see tiler::UserKernel)
};
struct UserSymbol_S {
    std::string name;
    std::string text;  // the value as a C constant
};
// CNN_Match(): the CNN operations a basic kernel performs, its operands' sizes and filter shape.
struct CNN_LayerOp_S {
    std::vector<KernelOper_T> primary;
    std::vector<KernelOper_T> secondary;  // empty: no second operation (it matches KOP_NONE only)
    int parallelFeatures = 0;  // 1 splits features over the cores, 0 does not, -1 either
    std::array<int, 5> operandSizes{};  // In1..In4, Out in bytes (negative: unsigned); 0 any
    std::array<int, 6> geometry{};      // Fx, Fy, Dx, Dy, Sx, Sy: 0 any, -1 all (passed), -2 (y) equal to x
};

namespace tessera::gap {

// Owns the objects and lists returned to the model program.
class ObjectArena {
public:
    template <class T>
    T* make(T value)
    {
        auto box = std::make_unique<Box<T>>(std::move(value));
        T* pointer = &box->value;
        owned_.push_back(std::move(box));
        return pointer;
    }

    // A NULL-terminated array of the items; its length is also remembered, so a NULL item the
    // model passed explicitly is reported instead of silently ending the list.
    template <class T>
    T** makeList(std::vector<T*> items)
    {
        const std::size_t count = items.size();
        items.push_back(nullptr);
        T** array = make(std::move(items))->data();
        listLengths_[array] = count;
        return array;
    }

    // The length of a list made by makeList, or nothing for a pointer the arena did not hand out.
    std::optional<std::size_t> listLength(const void* list) const;

    char* makeString(const std::string& text);
    void clear();

private:
    struct Owned {
        virtual ~Owned() = default;
    };
    template <class T>
    struct Box : Owned {
        explicit Box(T v) : value(std::move(v)) {}
        T value;
    };

    std::vector<std::unique_ptr<Owned>> owned_;
    std::unordered_map<const void*, std::size_t> listLengths_;
};

// What a model error raises while a model is built inside Tessera (EmbeddedModelBuild) rather
// than by a model program of its own.
class ModelBuildError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct ModelRegistry {
    tiler::KernelModel model;
    bool throwErrors = false;  // set by EmbeddedModelBuild
    ObjectArena arena;
    std::optional<std::size_t> openGroup;  // index into model.groups while a group is open
    std::optional<std::size_t> openGraph;  // index into model.graphs between CreateGraph and CloseGraph
    int layersInProgress = 0;  // CNN generator calls under way (they check their kernel when complete)
    // LibKernelTemplate: argument struct name -> its fields; UserSymbols: name -> C constant.
    std::map<std::string, CKernel_Arg_T**> kernelTemplates;
    std::map<std::string, std::string> userSymbols;
    // KerDynamicSymbols: name -> C constant, for the kernel group declared next (its BindKGExpr).
    std::map<std::string, std::string> groupSymbols;
    // UserKernelGroupK's KerGroupArg list while it declares its group: argument name -> C argument.
    std::map<std::string, std::string> groupArguments;
    // Basic kernels declared with a CNN_Match(), in declaration order, for CNN_FindMatchingKernel.
    struct MatchableKernel {
        std::string name;
        int attributes = 0;  // CALL_FLOAT_KER | CALL_HWC_KER bits of its call type
        const CNN_LayerOp_S* match = nullptr;
    };
    std::vector<MatchableKernel> matchableKernels;
    // User kernels taken out of the model by CopyAndPopUserKernel, until PushBackUserKernel puts one
    // back or ReleaseUserKerne forgets it.
    std::map<const Kernel_T*, tiler::UserKernel> poppedKernels;
};

// The handle UserKernel() returns for a kernel just added to the model.
Kernel_T* userKernelHandle(const std::string& name);

ModelRegistry& registry();

// The model the C calls have built so far (for GenerateTilingCode and tests).
tiler::KernelModel& currentModel();
// Forgets the model, its options, the open group or graph and every object handed out (tests only: a
// model program builds one model per process).
void resetModel();

// With AT_KERNEL_NOSOLUTION_ERROR off: true when the user kernel `name`, just declared, has a
// tiling in the current L1 budget; otherwise it is withdrawn from the model (and its group), the
// reason noted in model.droppedKernels, and false returned. With the option on (the default)
// always true: a kernel without a tiling is reported when the code is generated.
bool keepKernelIfItTiles(const std::string& name);

// Takes the user kernel declared last out of the model (and of its group) and returns it.
tiler::UserKernel withdrawLastUserKernel(tiler::KernelModel& model);

// A kernel about to be declared that Tessera has no tiling for whatever the budget (reason says
// why): with AT_KERNEL_NOSOLUTION_ERROR off it is noted as dropped, and its UserKernel returns NULL
// (the SDK's generators then fall back to another form of the layer); on, generation stops.
void noteKernelWithoutTiling(const std::string& name, const std::string& reason);

// Problems of the build sequence itself that the model cannot show: a group or graph left open.
std::vector<std::string> unfinishedBuildProblems();

// A model built by Tessera itself through the C API (tessera compile): the registry state is
// process-wide, so one build at a time holds it. Starts from an empty model; while it lives, model
// errors throw ModelBuildError instead of ending the process; it forgets the model at the end.
class EmbeddedModelBuild {
public:
    EmbeddedModelBuild();
    ~EmbeddedModelBuild();
    EmbeddedModelBuild(const EmbeddedModelBuild&) = delete;
    EmbeddedModelBuild& operator=(const EmbeddedModelBuild&) = delete;

private:
    std::unique_lock<std::mutex> lock_;
};

// Prints "error: <message>" to stderr and exits with status 1, like GenTilingError; inside an
// EmbeddedModelBuild, throws ModelBuildError instead.
[[noreturn]] void failModel(const std::string& message);

// A string read from '...'. Models pass a literal 0 for names they do not use (the guide does for
// ConstFileName); through '...' that 0 is an int, and some compilers store only its 4 bytes in the
// 8-byte argument slot, leaving the upper half undefined. A pointer whose low 32 bits are all zero
// is therefore taken as that 0: no string the model could pass lives at such an address.
const char* variadicString(const void* pointer);

// AddStackedTensors with the members in a vector (a count known at run time).
void stackTensors(const std::string& out, const std::vector<std::string>& members);

// When a graph closes: each local a GNA_INOUT binding writes in place of another symbol is dropped
// and its bindings name the buffer it shares (graph.aliases records them; graph_aliases.cpp).
void resolveInPlaceAliases(tiler::GraphModel& graph);

// printf-style formatting into a std::string.
std::string format(const char* pattern, ...) __attribute__((format(printf, 1, 2)));
std::string formatList(const char* pattern, va_list args);

// The items of a list made by CArgs/Calls/Bindings/KerArgs; NULL is the empty list. `context`
// names the caller and `what` the kind of item ("C argument", "call", ...) in error messages.
template <class T>
std::vector<T*> listItems(T** list, const std::string& context, const char* what)
{
    if (list == nullptr)
        return {};
    const std::optional<std::size_t> length = registry().arena.listLength(list);
    if (!length)
        failModel(context + ": the " + what + " list was not made by this library");
    std::vector<T*> items(list, list + *length);
    for (std::size_t i = 0; i < items.size(); ++i)
        if (items[i] == nullptr)
            failModel(format("%s: %s %zu of %zu is NULL", context.c_str(), what, i + 1, items.size()));
    return items;
}

}  // namespace tessera::gap
