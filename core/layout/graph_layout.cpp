#include "layout/graph_layout.h"

#include "base/error.h"

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace tessera {

namespace {

std::mutex graphvizMutex;

// Graphviz takes attribute names and values as char*.
void setAttribute(void* object, const std::string& name, const std::string& value)
{
    agsafeset(object, const_cast<char*>(name.c_str()), const_cast<char*>(value.c_str()), const_cast<char*>(""));
}

std::string inches(double points) { return std::to_string(points / 72.0); }

// One Graphviz context for the whole process: its plugins keep caches (fonts) that must not
// outlive a freed context, so it is created once and kept.
GVC_t* graphvizContext()
{
    static GVC_t* context = gvContext();
    return context;
}

// Owns the graph of one layout.
struct GraphvizSession {
    GVC_t* context = graphvizContext();
    Agraph_t* graph = nullptr;
    bool laidOut = false;

    ~GraphvizSession()
    {
        if (graph && laidOut)
            gvFreeLayout(context, graph);
        if (graph)
            agclose(graph);
    }
};

} // namespace

std::optional<size_t> GraphLayout::boxOfNode(NodeId node) const
{
    for (size_t b = 0; b < boxes.size(); ++b)
        if (boxes[b].kind == BoxKind::Operator && boxes[b].id == node)
            return b;
    return std::nullopt;
}

GraphLayout layoutGraph(const Graph& graph, const BoxSizer& sizeOf, LayoutDirection direction)
{
    std::lock_guard<std::mutex> lock(graphvizMutex);
    GraphvizSession session;
    session.graph = agopen(const_cast<char*>("tessera"), Agdirected, nullptr);
    if (!session.graph)
        throw Error("graph layout: Graphviz could not create a graph");
    setAttribute(session.graph, "rankdir", direction == LayoutDirection::LeftToRight ? "LR" : "TB");
    setAttribute(session.graph, "nodesep", "0.3");
    setAttribute(session.graph, "ranksep", "0.35");
    // Boxes have fixed sizes and edges no labels: Graphviz needs no text measurement.
    agattr(session.graph, AGNODE, const_cast<char*>("label"), const_cast<char*>(""));
    agattr(session.graph, AGEDGE, const_cast<char*>("label"), const_cast<char*>(""));

    GraphLayout layout;
    std::vector<Agnode_t*> vertices;
    auto addBox = [&](BoxKind kind, int32_t id) {
        LayoutBox box{kind, id, 0, 0, 0, 0};
        const auto [width, height] = sizeOf(kind, id);
        box.width = width;
        box.height = height;
        const std::string name = "b" + std::to_string(layout.boxes.size());
        Agnode_t* vertex = agnode(session.graph, const_cast<char*>(name.c_str()), 1);
        setAttribute(vertex, "shape", "box");
        setAttribute(vertex, "fixedsize", "true");
        setAttribute(vertex, "width", inches(width));
        setAttribute(vertex, "height", inches(height));
        layout.boxes.push_back(box);
        vertices.push_back(vertex);
        return layout.boxes.size() - 1;
    };

    std::map<TensorId, size_t> producerBox;
    for (NodeId n = 0; n < NodeId(graph.nodeCount()); ++n) {
        const size_t box = addBox(BoxKind::Operator, n);
        for (TensorId out : graph.node(n).outputs)
            if (out != kNoTensor)
                producerBox[out] = box;
    }
    for (TensorId input : graph.inputs)
        producerBox[input] = addBox(BoxKind::GraphInput, input);

    auto addEdge = [&](TensorId tensor, size_t from, size_t to) {
        const std::string name = "e" + std::to_string(layout.edges.size());
        agedge(session.graph, vertices[from], vertices[to], const_cast<char*>(name.c_str()), 1);
        layout.edges.push_back({tensor, from, to, {}, std::nullopt});
    };
    for (NodeId n = 0; n < NodeId(graph.nodeCount()); ++n)
        for (TensorId in : graph.node(n).inputs) {
            const auto producer = producerBox.find(in);
            if (in != kNoTensor && producer != producerBox.end())
                addEdge(in, producer->second, size_t(n));
        }
    for (TensorId output : graph.outputs) {
        const size_t box = addBox(BoxKind::GraphOutput, output);
        const auto producer = producerBox.find(output);
        if (producer != producerBox.end())
            addEdge(output, producer->second, box);
    }

    if (gvLayout(session.context, session.graph, "dot") != 0)
        throw Error("graph layout: Graphviz dot failed on graph '" + graph.name + "'");
    session.laidOut = true;

    // Graphviz is y-up with the origin at the bottom left; scenes are y-down.
    const boxf bounds = GD_bb(session.graph);
    layout.width = bounds.UR.x - bounds.LL.x;
    layout.height = bounds.UR.y - bounds.LL.y;
    auto flip = [&](pointf p) { return LayoutPoint{p.x - bounds.LL.x, bounds.UR.y - p.y}; };
    for (size_t b = 0; b < layout.boxes.size(); ++b) {
        const LayoutPoint centre = flip(ND_coord(vertices[b]));
        layout.boxes[b].x = centre.x - layout.boxes[b].width / 2;
        layout.boxes[b].y = centre.y - layout.boxes[b].height / 2;
    }
    size_t e = 0;
    for (Agnode_t* vertex = agfstnode(session.graph); vertex; vertex = agnxtnode(session.graph, vertex))
        for (Agedge_t* edge = agfstout(session.graph, vertex); edge; edge = agnxtout(session.graph, edge)) {
            const std::string name = agnameof(edge);
            e = std::stoul(name.substr(1));
            LayoutEdge& target = layout.edges.at(e);
            const splines* spline = ED_spl(edge);
            if (!spline || spline->size == 0)
                continue;
            const bezier& curve = spline->list[0];
            for (int p = 0; p < curve.size; ++p)
                target.curve.push_back(flip(curve.list[p]));
            if (curve.eflag)
                target.arrowTip = flip(curve.ep);
        }
    return layout;
}

} // namespace tessera
