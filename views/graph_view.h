#pragma once
// The graph view: operators as boxes with a coloured header (op type) and rows (name, output
// shape), tensors as curved edges labelled with their shapes, graph inputs and outputs as small
// boxes. It shows a GraphLayout computed elsewhere; zoom with the wheel or the zoom keys, drag to
// pan. A graph opens at a scale its text can be read at (never under kReadableTextPixels), Fit shows
// all of it however small.
#include "layout/graph_layout.h"

#include <QGraphicsView>

#include <memory>
#include <vector>

namespace tessera::views {

class GraphMinimap;
class NodeItem;

// What Find matched: an operator, or a tensor (activation, initializer, graph input or output)
// shown through the operator that produces it, or else the first that reads it.
struct GraphMatch {
    int node = -1;
    QString tensor;       // empty for an operator match
    QString description;  // "node conv0 (Conv)", "initializer conv0.weight (read by conv0)"
};

class GraphView : public QGraphicsView {
    Q_OBJECT

public:
    explicit GraphView(QWidget* parent = nullptr);
    ~GraphView() override;

    // Box sizes for `graph` in this view's font, to hand to layoutGraph (computed on the GUI
    // thread; the returned sizer only reads the captured table and is safe on a worker).
    BoxSizer boxSizer(const Graph& graph) const;

    // Shows `graph`; the view shares its ownership until clear() or the next call.
    void showGraph(std::shared_ptr<const Graph> graph, const GraphLayout& layout);
    void clear();

    int nodeItemCount() const { return int(nodeItems_.size()); }
    // Marks each operator (by NodeId) with the unit that runs it on a target ("CONV+SDP", "view",
    // "CANNOT RUN"): the header takes the unit's colour and names it. An empty list (or an empty
    // entry) restores the op type's colour.
    void setNodeUnits(const QStringList& units);
    QString nodeUnit(int node) const;
    // A short tag per node (by NodeId) drawn at its lower right corner, such as "fused" or
    // "split x3", with a longer explanation in its tooltip; empty strings clear.
    void setNodeMarks(const QStringList& marks, const QStringList& explanations = {});
    QString nodeMark(int node) const;
    // Selects operator `node` and centres on it; -1 clears the selection.
    void selectNode(int node);
    int selectedNode() const;
    // Highlights the producer and consumers of tensor `name` and selects its producer.
    void selectTensor(const QString& name);
    // Everything whose name contains `text` (case-insensitive): operators by name or op type, then
    // tensors, initializers and graph inputs/outputs by name, in graph order.
    std::vector<GraphMatch> findAll(const QString& text) const;
    // Selects the next match of `text` (the first when `text` changed) and scrolls it into view;
    // returns its 0-based index among `matchCount` matches, -1 when none.
    int findNext(const QString& text);
    int matchCount() const { return int(matches_.size()); }
    const GraphMatch* currentMatch() const;

    // Shows the whole graph, however small its text gets.
    void fitAll();
    // The opening view: the graph's width fitted (when its text stays readable, and never above
    // actual size), starting at the graph's inputs.
    void showReadable();
    void zoomBy(double factor);
    void actualSize();
    // Pixel height of node text at the current zoom.
    double textPixelHeight() const;
    // The whole graph as a picture: .png or .svg by the name; the problem, or an empty string.
    QString exportImage(const QString& path) const;
    // Whether every item of the scene lies inside the viewport; whether operator `node` does.
    bool wholeGraphVisible() const;
    bool nodeVisible(int node) const;
    static constexpr double kReadableTextPixels = 9.0;
    // The overview in the corner, shown while the graph does not fit the view.
    GraphMinimap* minimap() const { return minimap_; }

signals:
    void nodeSelected(int node);

protected:
    void wheelEvent(QWheelEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void scrollContentsBy(int dx, int dy) override;

private:
    void onSelectionChanged();

    std::shared_ptr<const Graph> graph_;
    std::vector<NodeItem*> nodeItems_; // indexed by NodeId
    QString findText_;
    std::vector<GraphMatch> matches_;
    int matchIndex_ = -1;
    GraphMinimap* minimap_ = nullptr;
};

} // namespace tessera::views
