#include "graph_view.h"

#include "graph_minimap.h"
#include "image_export.h"
#include "operator_style.h"

#include "ir/topology.h"

#include <QGraphicsPathItem>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QPainter>
#include <QStyleOptionGraphicsItem>
#include <QWheelEvent>

#include <cmath>
#include <memory>

namespace tessera::views {

namespace {

constexpr double kHeader = 18.0;
constexpr double kRow = 15.0;
constexpr double kPadding = 8.0;

QString shapeText(const Shape& shape) { return QString::fromStdString(shapeToString(shape)); }

// The text rows of an operator box: its name and the shape of its first output.
QStringList operatorRows(const Graph& graph, NodeId id)
{
    const Node& node = graph.node(id);
    QStringList rows{QString::fromStdString(node.name)};
    if (!node.outputs.empty() && node.outputs.front() != kNoTensor && graph.tensor(node.outputs.front()).typed)
        rows << shapeText(graph.tensor(node.outputs.front()).shape);
    return rows;
}

} // namespace

class NodeItem : public QGraphicsItem {
public:
    NodeItem(const LayoutBox& box, QString title, QStringList rows, QColor color)
        : box_(box), title_(std::move(title)), rows_(std::move(rows)), color_(color)
    {
        setPos(box.x, box.y);
        setFlag(ItemIsSelectable, box.kind == BoxKind::Operator);
        setToolTip(title_ + "\n" + rows_.join("\n"));
    }

    QRectF boundingRect() const override { return QRectF(-2, -2, box_.width + 4, box_.height + 14); }

    void paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) override
    {
        const QRectF rect(0, 0, box_.width, box_.height);
        const QPalette palette;
        painter->setRenderHint(QPainter::Antialiasing);
        QPen outline(isSelected() || highlighted_ ? palette.highlight().color() : palette.mid().color(),
                     isSelected() ? 2.5 : (highlighted_ ? 2.0 : 1.0));
        painter->setPen(outline);
        painter->setBrush(palette.base());
        painter->drawRoundedRect(rect, 4, 4);
        if (box_.kind != BoxKind::Operator) {
            painter->setPen(palette.text().color());
            painter->drawText(rect, Qt::AlignCenter, title_);
            return;
        }
        QPainterPath header;
        header.addRoundedRect(QRectF(0, 0, box_.width, kHeader), 4, 4);
        painter->fillPath(header, unit_.isEmpty() ? color_ : unitColor_);
        painter->setPen(Qt::white);
        const QRectF title(kPadding, 0, box_.width - 2 * kPadding, kHeader);
        painter->drawText(title, Qt::AlignVCenter | Qt::AlignLeft, title_);
        // The unit at the right of the header, in a smaller font, where it fits beside the op type.
        if (!unit_.isEmpty()) {
            QFont small = painter->font();
            small.setPointSizeF(small.pointSizeF() * 0.8);
            const QFontMetricsF metrics(small);
            if (QFontMetricsF(painter->font()).horizontalAdvance(title_) + metrics.horizontalAdvance(unit_) + 6 <
                title.width()) {
                painter->save();
                painter->setFont(small);
                painter->drawText(title, Qt::AlignVCenter | Qt::AlignRight, unit_);
                painter->restore();
            }
        }
        painter->setPen(palette.text().color());
        for (int r = 0; r < rows_.size(); ++r)
            painter->drawText(QRectF(kPadding, kHeader + r * kRow, box_.width - 2 * kPadding, kRow),
                              Qt::AlignVCenter | Qt::AlignLeft, rows_[r]);
        // A mark ("fused", "split x3") as a tag straddling the box's lower right corner.
        if (!mark_.isEmpty()) {
            QFont small = painter->font();
            small.setPointSizeF(small.pointSizeF() * 0.75);
            const QFontMetricsF metrics(small);
            const double width = metrics.horizontalAdvance(mark_) + 8, height = metrics.height() + 2;
            const QRectF tag(box_.width - width - 2, box_.height - height / 2, width, height);
            painter->save();
            painter->setFont(small);
            painter->setPen(Qt::NoPen);
            painter->setBrush(QColor(0x55, 0x55, 0x55));
            painter->drawRoundedRect(tag, 3, 3);
            painter->setPen(Qt::white);
            painter->drawText(tag, Qt::AlignCenter, mark_);
            painter->restore();
        }
    }

    const LayoutBox& box() const { return box_; }
    // The unit that runs this operator on a target (empty: the op type's colour again).
    void setUnit(const QString& unit, QColor color)
    {
        unit_ = unit;
        unitColor_ = color;
        setToolTip(title_ + (unit.isEmpty() ? QString() : " (" + unit + ")") + "\n" + rows_.join("\n"));
        update();
    }
    QString unit() const { return unit_; }
    void setMark(const QString& mark, const QString& explanation)
    {
        prepareGeometryChange();
        mark_ = mark;
        setToolTip(title_ + (unit_.isEmpty() ? QString() : " (" + unit_ + ")") +
                   (explanation.isEmpty() ? QString() : "\n" + explanation) + "\n" + rows_.join("\n"));
        update();
    }
    QString mark() const { return mark_; }
    void setHighlighted(bool on)
    {
        highlighted_ = on;
        update();
    }

private:
    LayoutBox box_;
    QString title_;
    QStringList rows_;
    QColor color_;
    QString unit_;
    QColor unitColor_;
    QString mark_;
    bool highlighted_ = false;
};

GraphView::GraphView(QWidget* parent) : QGraphicsView(parent)
{
    setScene(new QGraphicsScene(this));
    setRenderHint(QPainter::Antialiasing);
    setDragMode(QGraphicsView::ScrollHandDrag);
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    connect(scene(), &QGraphicsScene::selectionChanged, this, &GraphView::onSelectionChanged);
    minimap_ = new GraphMinimap(this);
}

GraphView::~GraphView()
{
    // The scene deletes its items after this view's members are gone; it must not call back.
    disconnect(scene(), nullptr, this, nullptr);
    nodeItems_.clear();
}

BoxSizer GraphView::boxSizer(const Graph& graph) const
{
    const QFontMetricsF metrics(font());
    auto widthOf = [&](const QStringList& lines) {
        double width = 0;
        for (const QString& line : lines)
            width = std::max(width, metrics.horizontalAdvance(line));
        return std::ceil(width + 2 * kPadding);
    };
    auto sizes = std::make_shared<std::vector<std::pair<double, double>>>();
    for (NodeId n = 0; n < NodeId(graph.nodeCount()); ++n) {
        const QStringList rows = operatorRows(graph, n);
        QStringList all = rows;
        all << QString::fromStdString(graph.node(n).opType);
        sizes->push_back({std::max(90.0, widthOf(all)), kHeader + rows.size() * kRow + 4});
    }
    auto tensorSizes = std::make_shared<std::map<int32_t, std::pair<double, double>>>();
    for (TensorId id : graph.inputs)
        (*tensorSizes)[id] = {std::max(70.0, widthOf({QString::fromStdString(graph.tensor(id).name)})), 24.0};
    for (TensorId id : graph.outputs)
        (*tensorSizes)[id] = {std::max(70.0, widthOf({QString::fromStdString(graph.tensor(id).name)})), 24.0};
    return [sizes, tensorSizes](BoxKind kind, int32_t id) -> std::pair<double, double> {
        if (kind == BoxKind::Operator)
            return sizes->at(size_t(id));
        return tensorSizes->at(id);
    };
}

void GraphView::clear()
{
    matches_.clear();
    matchIndex_ = -1;
    findText_.clear();
    nodeItems_.clear();
    scene()->clear();
    graph_ = nullptr;
    minimap_->invalidate();
}

void GraphView::showGraph(std::shared_ptr<const Graph> graph, const GraphLayout& layout)
{
    clear();
    graph_ = std::move(graph);
    nodeItems_.assign(graph_->nodeCount(), nullptr);
    const QPalette palette;
    for (const LayoutEdge& edge : layout.edges) {
        if (edge.curve.empty())
            continue;
        QPainterPath path(QPointF(edge.curve[0].x, edge.curve[0].y));
        for (size_t p = 1; p + 2 < edge.curve.size(); p += 3)
            path.cubicTo(QPointF(edge.curve[p].x, edge.curve[p].y), QPointF(edge.curve[p + 1].x, edge.curve[p + 1].y),
                         QPointF(edge.curve[p + 2].x, edge.curve[p + 2].y));
        const QPointF end = path.currentPosition();
        if (edge.arrowTip) {
            // Arrowhead from the curve's end to the tip Graphviz reserved for it.
            const QPointF tip(edge.arrowTip->x, edge.arrowTip->y);
            const QPointF direction = tip - end;
            const QPointF normal(-direction.y() * 0.5, direction.x() * 0.5);
            path.moveTo(tip);
            path.lineTo(end + normal);
            path.lineTo(end - normal);
            path.lineTo(tip);
        }
        auto* item = scene()->addPath(path, QPen(palette.mid().color(), 1.2));
        item->setZValue(-1);
        const Tensor& tensor = graph_->tensor(edge.tensor);
        if (tensor.typed) {
            auto* label = scene()->addSimpleText(shapeText(tensor.shape));
            label->setBrush(palette.placeholderText());
            QFont small = label->font();
            small.setPointSizeF(small.pointSizeF() * 0.8);
            label->setFont(small);
            const QPointF middle = path.pointAtPercent(0.5);
            label->setPos(middle + QPointF(4, -6));
        }
    }
    for (const LayoutBox& box : layout.boxes) {
        NodeItem* item = nullptr;
        if (box.kind == BoxKind::Operator) {
            const QString opType = QString::fromStdString(graph_->node(box.id).opType);
            item = new NodeItem(box, opType, operatorRows(*graph_, box.id), categoryColor(operatorCategory(opType)));
            nodeItems_[size_t(box.id)] = item;
        } else {
            item = new NodeItem(box, QString::fromStdString(graph_->tensor(box.id).name), {}, QColor());
        }
        scene()->addItem(item);
    }
    scene()->setSceneRect(QRectF(-20, -20, layout.width + 40, layout.height + 40));
    showReadable();
    minimap_->invalidate();
}

void GraphView::setNodeUnits(const QStringList& units)
{
    for (size_t n = 0; n < nodeItems_.size(); ++n) {
        if (!nodeItems_[n])
            continue;
        const QString unit = int(n) < units.size() ? units[int(n)] : QString();
        nodeItems_[n]->setUnit(unit, unitColor(unit));
    }
    minimap_->invalidate();
}

void GraphView::setNodeMarks(const QStringList& marks, const QStringList& explanations)
{
    for (size_t n = 0; n < nodeItems_.size(); ++n)
        if (nodeItems_[n])
            nodeItems_[n]->setMark(int(n) < marks.size() ? marks[int(n)] : QString(),
                                   int(n) < explanations.size() ? explanations[int(n)] : QString());
    minimap_->invalidate();
}

QString GraphView::nodeMark(int node) const
{
    if (node < 0 || node >= int(nodeItems_.size()) || !nodeItems_[size_t(node)])
        return {};
    return nodeItems_[size_t(node)]->mark();
}

QString GraphView::nodeUnit(int node) const
{
    if (node < 0 || node >= int(nodeItems_.size()) || !nodeItems_[size_t(node)])
        return {};
    return nodeItems_[size_t(node)]->unit();
}

void GraphView::selectNode(int node)
{
    scene()->clearSelection();
    if (node < 0 || node >= int(nodeItems_.size()) || !nodeItems_[size_t(node)])
        return;
    nodeItems_[size_t(node)]->setSelected(true);
    centerOn(nodeItems_[size_t(node)]);
}

int GraphView::selectedNode() const
{
    for (size_t n = 0; n < nodeItems_.size(); ++n)
        if (nodeItems_[n] && nodeItems_[n]->isSelected())
            return int(n);
    return -1;
}

void GraphView::selectTensor(const QString& name)
{
    for (NodeItem* item : nodeItems_)
        if (item)
            item->setHighlighted(false);
    if (!graph_)
        return;
    const auto id = graph_->findTensor(name.toStdString());
    if (!id)
        return;
    const TensorUses uses = computeUses(*graph_);
    const NodeId producer = uses.producer[size_t(*id)];
    const std::vector<NodeId>& readers = uses.consumers[size_t(*id)];
    for (NodeId n : readers)
        if (nodeItems_[size_t(n)])
            nodeItems_[size_t(n)]->setHighlighted(true);
    if (producer >= 0 && nodeItems_[size_t(producer)])
        nodeItems_[size_t(producer)]->setHighlighted(true);
    // An initializer or graph input has no producer: its first reader stands for it.
    selectNode(producer >= 0 ? producer : (readers.empty() ? -1 : readers.front()));
}

std::vector<GraphMatch> GraphView::findAll(const QString& text) const
{
    std::vector<GraphMatch> found;
    if (!graph_ || text.isEmpty())
        return found;
    const auto contains = [&](const std::string& name) {
        return QString::fromStdString(name).contains(text, Qt::CaseInsensitive);
    };
    for (NodeId n = 0; n < NodeId(graph_->nodeCount()); ++n) {
        const Node& node = graph_->node(n);
        if (contains(node.name) || contains(node.opType))
            found.push_back({int(n), {},
                             QString("node %1 (%2)").arg(QString::fromStdString(node.name), QString::fromStdString(node.opType))});
    }
    // Tensors by name: what each is, and the node that stands for it (its maker, else its first reader).
    const TensorUses uses = computeUses(*graph_);
    const auto isIn = [](const std::vector<TensorId>& list, TensorId id) {
        return std::find(list.begin(), list.end(), id) != list.end();
    };
    for (TensorId t = 0; t < TensorId(graph_->tensorCount()); ++t) {
        const Tensor& tensor = graph_->tensor(t);
        const NodeId producer = uses.producer[size_t(t)];
        const std::vector<NodeId>& readers = uses.consumers[size_t(t)];
        if (!contains(tensor.name) || (producer < 0 && readers.empty()))
            continue;
        const QString name = QString::fromStdString(tensor.name);
        QString kind = "tensor";
        if (isIn(graph_->inputs, t))
            kind = "graph input";
        else if (isIn(graph_->outputs, t))
            kind = "graph output";
        else if (tensor.isConstant())
            kind = "initializer";
        const NodeId shownBy = producer >= 0 ? producer : readers.front();
        const QString how = producer >= 0 ? "made by" : "read by";
        found.push_back({int(shownBy), name,
                         QString("%1 %2 (%3 %4)").arg(kind, name, how, QString::fromStdString(graph_->node(shownBy).name))});
    }
    return found;
}

int GraphView::findNext(const QString& text)
{
    if (text != findText_ || matches_.empty()) {
        findText_ = text;
        matches_ = findAll(text);
        matchIndex_ = -1;
    }
    if (matches_.empty())
        return -1;
    matchIndex_ = (matchIndex_ + 1) % int(matches_.size());
    const GraphMatch& match = matches_[size_t(matchIndex_)];
    if (match.tensor.isEmpty())
        selectNode(match.node);
    else
        selectTensor(match.tensor);
    return matchIndex_;
}

const GraphMatch* GraphView::currentMatch() const
{
    return matchIndex_ >= 0 && matchIndex_ < int(matches_.size()) ? &matches_[size_t(matchIndex_)] : nullptr;
}

void GraphView::fitAll()
{
    if (!scene()->items().isEmpty())
        fitInView(scene()->sceneRect(), Qt::KeepAspectRatio);
    minimap_->follow();
}

void GraphView::showReadable()
{
    if (scene()->items().isEmpty())
        return;
    const QRectF all = scene()->sceneRect();
    const QRect viewport = this->viewport()->rect();
    // Fit the whole graph when that keeps its text readable, else the width (or height, for a
    // graph drawn left to right) within [readable, actual size], starting at the inputs.
    const double whole = std::min(viewport.width() / all.width(), viewport.height() / all.height());
    const double readable = kReadableTextPixels / std::max(1.0, QFontMetricsF(font()).height()) * 1.25;
    const bool wide = all.width() > all.height();
    const double across = wide ? viewport.height() / all.height() : viewport.width() / all.width();
    const double scale = whole >= readable ? std::min(whole, 1.0) : std::clamp(across, readable, 1.0);
    resetTransform();
    this->scale(scale, scale);
    if (whole >= readable)
        centerOn(all.center());
    else if (wide)
        centerOn(all.left() + viewport.width() / scale / 2, all.center().y());
    else
        centerOn(all.center().x(), all.top() + viewport.height() / scale / 2);
    minimap_->follow();
}

void GraphView::zoomBy(double factor)
{
    scale(factor, factor);
    minimap_->follow();
}

void GraphView::actualSize()
{
    const QPointF centre = mapToScene(viewport()->rect().center());
    resetTransform();
    centerOn(centre);
    minimap_->follow();
}

double GraphView::textPixelHeight() const
{
    return QFontMetricsF(font()).height() * transform().m11();
}

bool GraphView::wholeGraphVisible() const
{
    if (scene()->items().isEmpty())
        return true;
    const QRectF shown = mapToScene(viewport()->rect()).boundingRect().adjusted(-1, -1, 1, 1);
    return shown.contains(scene()->itemsBoundingRect());
}

QString GraphView::exportImage(const QString& path) const
{
    const QRectF all = scene()->sceneRect();
    const QString title = graph_ ? QString::fromStdString(graph_->name) : QString("graph");
    return writeImage(path, scene()->items().isEmpty() ? QSize() : all.size().toSize(), title,
                      [&](QPainter& painter) { scene()->render(&painter, QRectF(QPointF(0, 0), all.size()), all); });
}

bool GraphView::nodeVisible(int node) const
{
    if (node < 0 || node >= int(nodeItems_.size()) || !nodeItems_[size_t(node)])
        return false;
    const QRectF shown = mapToScene(viewport()->rect()).boundingRect();
    return shown.contains(nodeItems_[size_t(node)]->sceneBoundingRect());
}

void GraphView::resizeEvent(QResizeEvent* event)
{
    QGraphicsView::resizeEvent(event);
    minimap_->follow();
}

void GraphView::scrollContentsBy(int dx, int dy)
{
    QGraphicsView::scrollContentsBy(dx, dy);
    minimap_->follow();
}

void GraphView::wheelEvent(QWheelEvent* event)
{
    const double factor = std::pow(1.0015, event->angleDelta().y());
    scale(factor, factor);
    minimap_->follow();
    event->accept();
}

void GraphView::onSelectionChanged()
{
    emit nodeSelected(selectedNode());
}

} // namespace tessera::views
