// The properties pane of the studio window: the selected node, its tensors where the plan puts
// them, and the GAP layer the last export put it in.
#include "studio_window.h"
#include "studio_support.h"

#include "graph_view.h"
#include "memory_timeline.h"
#include "step_table_model.h"
#include "tiling_panel.h"

#include <QFileInfo>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTextBrowser>

namespace tessera::studio {

// The GAP layer the node went into at the last export, and how it was tiled.
QString StudioWindow::gapTilingHtml(const QString& node)
{
    if (!gapTiling_)
        return "<p><b>GAP tiling</b><br>File &gt; Export GAP project tiles the model for the target and budgets shown.</p>";
    const auto layer = gapTiling_->layerOfNode.constFind(node);
    QString html = QString("<p><b>GAP tiling</b> (export to %1 at L1 %2, L2 %3)<br>")
                       .arg(gapTiling_->folder.toHtmlEscaped(), kib(gapTilingBudgets_.l1), kib(gapTilingBudgets_.l2));
    if (layer == gapTiling_->layerOfNode.constEnd())
        return html + "no GAP layer of its own: a view (reshape, flatten) or folded into a neighbour's constants</p>";
    const QStringList fused = gapTiling_->nodesOfLayer.value(*layer);
    html += QString("layer %1").arg(layer->toHtmlEscaped());
    if (fused.size() > 1)
        html += QString(" (fuses %1)").arg(fused.join(", ").toHtmlEscaped());
    html += "<br>" + gapTiling_->layerFigures.value(*layer, "no figures in the generation report").toHtmlEscaped() +
            "</p>";
    return html;
}

// The model as a whole, shown while no node is selected.
QString StudioWindow::modelHtml() const
{
    const ModelStats& stats = stepModel_->stats();
    QString html = QString("<h3>%1</h3><p>%2<br>ONNX operator set %3<br>produced by %4</p>")
                       .arg(QString::fromStdString(graph_->name).toHtmlEscaped(), QFileInfo(modelPath_).fileName().toHtmlEscaped())
                       .arg(graph_->opset)
                       .arg(graph_->producer.empty() ? QString("(not recorded)")
                                                     : QString::fromStdString(graph_->producer).toHtmlEscaped());
    html += QString("<p>%1 nodes, %2 parameters (%3), %4 MACs</p>")
                .arg(graph_->nodeCount())
                .arg(stats.parameters)
                .arg(kib(stats.parameterBytes))
                .arg(stats.macs);
    auto tensors = [&](const std::vector<TensorId>& ids, const char* title) {
        html += QString("<p><b>%1</b><br>").arg(title);
        for (TensorId id : ids) {
            const Tensor& t = graph_->tensor(id);
            html += QString("%1: %2 %3<br>")
                        .arg(QString::fromStdString(t.name).toHtmlEscaped(), QString::fromStdString(std::string(dtypeName(t.dtype))),
                             QString::fromStdString(shapeToString(t.shape)));
        }
        html += "</p>";
    };
    tensors(graph_->inputs, "graph inputs");
    tensors(graph_->outputs, "graph outputs");
    for (const std::string& note : graph_->notes)
        html += "<p><i>" + QString::fromStdString(note).toHtmlEscaped() + "</i></p>";
    return html;
}

// What is live at the step: every placement of the shown plan in every memory, and why it is there.
QString StudioWindow::liveAtStepHtml(int step) const
{
    const std::vector<TensorPlacement> live = timeline_->liveAt(step);
    // One entry per tensor: its figures on a line, the reason (often long) under them in a softer
    // colour. Columns would not fit a narrow dock: a reason column wraps every row into a tall
    // strip, and the figures alone overflow it sideways.
    QString html = QString("<p><b>live at step %1</b> (%2): tensor, kind, bytes, memory, why</p>")
                       .arg(step)
                       .arg(nodesOfStep(step).join(", ").toHtmlEscaped());
    // The reason in a colour between the text's and the background's: read second, still legible.
    const QColor text = palette().color(QPalette::Text), base = palette().color(QPalette::Base);
    const QString reasonColor = QColor((text.red() * 3 + base.red() * 2) / 5, (text.green() * 3 + base.green() * 2) / 5,
                                       (text.blue() * 3 + base.blue() * 2) / 5)
                                    .name();
    for (const TensorPlacement& p : live)
        html += QString("<p style='margin-top:2px; margin-bottom:2px'><b>%1</b> %2, %3 bytes, %4<br>"
                        "<font color=%6>%5</font></p>")
                    .arg(QString::fromStdString(p.tensor).toHtmlEscaped(), QString::fromStdString(placementKindName(p.kind)))
                    .arg(p.size)
                    .arg(QString::fromStdString(p.level), QString::fromStdString(p.reason).toHtmlEscaped(), reasonColor);
    if (plan_ && step >= 0 && std::size_t(step) < plan_->stepTraffic.size())
        html += QString("<p>L3 traffic at this step: %1 bytes</p>").arg(plan_->stepTraffic[std::size_t(step)]);
    return html;
}

QString StudioWindow::propertiesText() const { return properties_->toPlainText(); }

QString StudioWindow::planStatus() const { return planStatus_; }

bool StudioWindow::selectNodeNamed(const QString& name)
{
    if (!graph_)
        return false;
    for (NodeId node = 0; node < NodeId(graph_->nodeCount()); ++node)
        if (graph_->node(node).name == name.toStdString()) {
            graphView_->selectNode(int(node));
            return true;
        }
    return false;
}

void StudioWindow::showNodeProperties(int node)
{
    showCbufBanks(node);
    if (!graph_ || node < 0 || node >= int(graph_->nodeCount())) {
        timeline_->setCursorStep(-1);
        properties_->setHtml(graph_ ? modelHtml() : QString());
        return;
    }
    const Node& n = graph_->node(node);
    const int step = stepOfNode(QString::fromStdString(n.name));
    timeline_->setCursorStep(step);
    QString html = QString("<h3>%1</h3><p><b>%2</b></p>").arg(QString::fromStdString(n.name).toHtmlEscaped(),
                                                              QString::fromStdString(n.opType));
    const NodeStats& stats = stepModel_->stats().nodes.at(size_t(node));
    html += QString("<p>MACs %1<br>parameters %2 (%3 bytes)<br>live activations %4</p>")
                .arg(stats.macs)
                .arg(stats.parameters)
                .arg(stats.parameterBytes)
                .arg(kib(stats.liveActivationBytes));
    if (!n.attributes.empty()) {
        html += "<p><b>attributes</b><br>";
        for (const auto& [key, value] : n.attributes)
            html += QString::fromStdString(key + " = " + value.toString()).toHtmlEscaped() + "<br>";
        html += "</p>";
    }
    auto tensorRows = [&](const std::vector<TensorId>& ids, const char* title) {
        html += QString("<p><b>%1</b><br>").arg(title);
        for (TensorId id : ids) {
            if (id == kNoTensor)
                continue;
            const Tensor& t = graph_->tensor(id);
            html += QString("%1: %2 %3, %4 bytes%5<br>")
                        .arg(QString::fromStdString(t.name).toHtmlEscaped(),
                             QString::fromStdString(std::string(dtypeName(t.dtype))),
                             QString::fromStdString(shapeToString(t.shape)))
                        .arg(t.bytes())
                        .arg(t.isConstant() ? " (constant)" : "");
            const QStringList symbols = planSymbols_.symbolsOf.values(QString::fromStdString(t.name));
            if (plan_ && symbols.isEmpty() && !t.isConstant())
                html += "&nbsp;&nbsp;&rarr; not stored: computed and used inside one layer (fused), or a view<br>";
            if (plan_)
                for (const TensorPlacement& p : plan_->placements)
                    if (symbols.contains(QString::fromStdString(p.tensor)))
                        html += QString("&nbsp;&nbsp;&rarr; %1 at %2 (%3): %4<br>")
                                    .arg(QString::fromStdString(p.level))
                                    .arg(p.offset)
                                    .arg(QString::fromStdString(placementKindName(p.kind)),
                                         QString::fromStdString(p.reason).toHtmlEscaped());
        }
        html += "</p>";
    };
    tensorRows(n.inputs, "inputs");
    tensorRows(n.outputs, "outputs");
    if (step >= 0)
        html += liveAtStepHtml(step);
    if (nvdla_)
        html += nvdlaHtml(node);
    else
        html += gapTilingHtml(QString::fromStdString(n.name));
    properties_->setHtml(html);
    if (gapTiling_) // the Tiling dock follows to the node's GAP kernel
        if (const QString layer = gapTiling_->layerOfNode.value(QString::fromStdString(n.name)); !layer.isEmpty())
            tilingPanel_->selectKernel(layer);
    const QModelIndex row = stepProxy_->mapFromSource(stepModel_->index(node, 0));
    if (stepTable_->currentIndex().row() != row.row())
        stepTable_->setCurrentIndex(row);
}

} // namespace tessera::studio
