#pragma once
// Layered drawing of a graph, computed by Graphviz `dot`: a box per operator and per graph
// input/output, and each tensor edge as a bezier curve. Coordinates are in points with y growing
// downwards, ready for a scene. The caller gives each box its size (it knows its fonts).
#include "ir/graph.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace tessera {

struct LayoutPoint {
    double x = 0;
    double y = 0;
};

enum class BoxKind { Operator, GraphInput, GraphOutput };

struct LayoutBox {
    BoxKind kind = BoxKind::Operator;
    int32_t id = 0;        // NodeId for operators, TensorId for graph inputs and outputs
    double x = 0, y = 0;   // top-left corner
    double width = 0, height = 0;
};

struct LayoutEdge {
    TensorId tensor = kNoTensor;
    size_t from = 0;       // indices into GraphLayout::boxes
    size_t to = 0;
    // Cubic bezier: the start point, then (control, control, end) triples.
    std::vector<LayoutPoint> curve;
    std::optional<LayoutPoint> arrowTip;
};

struct GraphLayout {
    double width = 0;
    double height = 0;
    std::vector<LayoutBox> boxes;  // operators in node order, then inputs, then outputs
    std::vector<LayoutEdge> edges;

    // Index of the box of operator `node`, or of graph input/output `tensor`.
    std::optional<size_t> boxOfNode(NodeId node) const;
};

// Box size in points for a box about to be laid out.
using BoxSizer = std::function<std::pair<double, double>(BoxKind kind, int32_t id)>;

// Which way data flows in the drawing: down the page (Netron's default) or to the right (long
// chains on wide screens).
enum class LayoutDirection { TopToBottom, LeftToRight };

// Lays `graph` out in `direction`. Throws Error when Graphviz fails. Safe to call from a worker
// thread (calls are serialized: Graphviz keeps global state).
GraphLayout layoutGraph(const Graph& graph, const BoxSizer& sizeOf,
                        LayoutDirection direction = LayoutDirection::TopToBottom);

} // namespace tessera
