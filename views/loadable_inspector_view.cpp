#include "loadable_inspector_view.h"

#include "graph_view.h"

#include "base/error.h"
#include "layout/graph_layout.h"
#include "nvdla/loadable.h"
#include "nvdla/loadable_inspector.h"
#include "nvdla/loadable_validator.h"
#include "nvdla/operation_graph.h"

#include <QFile>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <nlohmann/json.hpp>

namespace tessera::views {

namespace {

QString valueText(const nlohmann::json& value)
{
    if (value.is_string())
        return QString::fromStdString(value.get<std::string>());
    return QString::fromStdString(value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

// `value` under `parent`: objects and arrays as branches (arrays of plain values on one line).
void addJson(QTreeWidgetItem* parent, const QString& key, const nlohmann::json& value)
{
    auto* item = new QTreeWidgetItem(parent, {key});
    const bool plainArray = value.is_array() && std::all_of(value.begin(), value.end(), [](const nlohmann::json& v) {
                                return v.is_primitive();
                            });
    if (value.is_object()) {
        for (auto it = value.begin(); it != value.end(); ++it)
            addJson(item, QString::fromStdString(it.key()), it.value());
        item->setText(1, QString("%1 fields").arg(value.size()));
    } else if (value.is_array() && !plainArray) {
        for (std::size_t i = 0; i < value.size(); ++i)
            addJson(item, QString("[%1]").arg(i), value[i]);
        item->setText(1, QString("%1 entries").arg(value.size()));
    } else {
        item->setText(1, valueText(value));
    }
}

} // namespace

LoadableInspectorView::LoadableInspectorView(QWidget* parent) : QWidget(parent)
{
    summary_ = new QLabel("Open an NVDLA loadable (.nvdla) with File > Open.");
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    tree_ = new QTreeWidget;
    tree_->setObjectName("loadableTree");
    tree_->setHeaderLabels({"field", "value"});
    tree_->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    operations_ = new GraphView;
    operations_->setObjectName("loadableOperations");
    findings_ = new QListWidget;
    findings_->setObjectName("loadableFindings");
    auto* right = new QSplitter(Qt::Vertical);
    right->addWidget(operations_);
    right->addWidget(findings_);
    right->setStretchFactor(0, 4);
    right->setStretchFactor(1, 1);
    right->setSizes({400, 100});
    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(tree_);
    split->addWidget(right);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(summary_);
    layout->addWidget(split, 1);
}

QString LoadableInspectorView::summary() const { return summary_->text(); }

bool LoadableInspectorView::openFile(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        message_ = path + ": " + file.errorString();
        return false;
    }
    const QByteArray bytes = file.readAll();
    nvdla::Loadable loadable;
    nlohmann::json json;
    std::string explanation;
    std::shared_ptr<const Graph> graph;
    try {
        loadable = nvdla::readLoadable(
            std::span(reinterpret_cast<const std::uint8_t*>(bytes.constData()), std::size_t(bytes.size())),
            path.toStdString());
        json = nvdla::loadableToJson(loadable);
        explanation = nvdla::explainLoadable(loadable);
    } catch (const std::exception& error) {
        message_ = QString::fromStdString(error.what());
        return false;
    }
    std::vector<nvdla::Finding> findings = nvdla::validateLoadable(loadable);
    std::stable_partition(findings.begin(), findings.end(), [](const nvdla::Finding& finding) {
        return finding.severity == nvdla::Finding::Severity::Error;
    });
    QString graphProblem;
    try {
        graph = std::make_shared<const Graph>(nvdla::operationGraph(loadable));
    } catch (const std::exception& error) {
        graphProblem = QString::fromStdString(error.what());  // the findings name it too
    }

    fileName_ = QFileInfo(path).fileName();
    message_.clear();
    tree_->clear();
    auto* root = new QTreeWidgetItem(tree_, {fileName_});
    for (auto it = json.begin(); it != json.end(); ++it)
        addJson(root, QString::fromStdString(it.key()), it.value());
    root->setExpanded(true);
    findings_->clear();
    std::size_t errors = 0;
    for (const nvdla::Finding& finding : findings) {
        const bool error = finding.severity == nvdla::Finding::Severity::Error;
        errors += error;
        auto* item = new QListWidgetItem(QString("%1 %2: %3")
                                             .arg(error ? "error" : "warning",
                                                  QString::fromStdString(finding.where),
                                                  QString::fromStdString(finding.message)),
                                         findings_);
        item->setForeground(error ? QColor(0xb0, 0x20, 0x20) : QColor(0x9a, 0x6a, 0x00));
    }
    if (findings.empty())
        new QListWidgetItem("no findings: the loadable meets what NVIDIA's runtime and firmware require", findings_);
    if (graph) {
        operations_->showGraph(graph, layoutGraph(*graph, operations_->boxSizer(*graph)));
        // At the scale the text was laid out for, from the first operation: a task has tens to
        // hundreds of operations, which a fit would shrink past reading.
        operations_->resetTransform();
        operations_->centerOn(operations_->sceneRect().center().x(), operations_->sceneRect().top());
    } else {
        operations_->clear();
        new QListWidgetItem("the operations cannot be drawn: " + graphProblem, findings_);
    }
    const QString firstLine = QString::fromStdString(explanation.substr(0, explanation.find('\n')));
    summary_->setText(QString("<b>%1</b>: %2<br>%3")
                          .arg(fileName_.toHtmlEscaped(), firstLine.toHtmlEscaped(),
                               errors == 0 ? QString("valid: %1 warnings").arg(findings.size())
                                           : QString("<span style='color:#b02020'>%1 errors</span>").arg(errors)));
    return true;
}

} // namespace tessera::views
