#pragma once
// The graph view: operators as boxes with a coloured header (op type) and rows (name, output
// shape), tensors as curved edges labelled with their shapes, graph inputs and outputs as small
// boxes. It shows a GraphLayout computed elsewhere; zoom with the wheel, drag to pan.
#include "layout/graph_layout.h"

#include <QGraphicsView>

#include <memory>
#include <vector>

namespace tessera::views {

class NodeItem;

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
    // Selects the next operator (after the current one) whose name or op type contains `text`.
    bool findNext(const QString& text);
    void fitAll();

signals:
    void nodeSelected(int node);

protected:
    void wheelEvent(QWheelEvent* event) override;

private:
    void onSelectionChanged();

    std::shared_ptr<const Graph> graph_;
    std::vector<NodeItem*> nodeItems_; // indexed by NodeId
};

} // namespace tessera::views
