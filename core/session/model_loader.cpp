#include "session/model_loader.h"

#include "interp/constant_folding.h"
#include "base/error.h"
#include "ir/shape_inference.h"
#include "ir/verifier.h"
#include "onnx/onnx_import.h"

namespace tessera {

void prepareGraph(Graph& graph, const LoadOptions& options)
{
    if (options.foldConstants)
        inferAndFoldConstants(graph);
    else
        inferShapes(graph);
    requireValidGraph(graph);
}

Graph loadModel(const std::string& path, const LoadOptions& options)
{
    Graph graph = importOnnxFile(path);
    try {
        prepareGraph(graph, options);
    } catch (const ModelError& error) {
        throw ModelError(path + ": " + error.what());
    } catch (const ShapeError& error) {
        throw ShapeError(path + ": " + error.what());
    } catch (const UnsupportedError& error) {
        throw UnsupportedError(path + ": " + error.what());
    }
    return graph;
}

} // namespace tessera
