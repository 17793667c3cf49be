// The studio window's NVDLA target: the capability report of the open model on the configuration
// of the bar (each node of the graph marked with its unit, the Capability dock with one row per
// operation, problems first), the compilation when every node maps and its DRAM surfaces in the
// timeline, Run > Simulate on NVDLA (the Simulation dock), and File > Export NVDLA project.
#include "studio_window.h"
#include "studio_support.h"

#include "project_folder_dialog.h"
#include "cbuf_banks_view.h"
#include "graph_view.h"
#include "memory_timeline.h"
#include "step_table_model.h"

#include <QComboBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace tessera::studio {

namespace {

const char* const kNvdlaScratch = "DRAM scratch";
const char* const kNvdlaBound = "bound I/O";

// The compilation's DRAM surfaces as the memory timeline draws a plan: the scratch memory the
// planner packed in the upper panel, the memories the application binds (inputs, outputs) below.
HierarchyPlan dramPlan(const nvdla::NvdlaCompilation& compilation)
{
    HierarchyPlan plan;
    plan.steps = std::int64_t(compilation.surfaces.operations.size());
    plan.l2.peak = std::int64_t(compilation.surfaces.scratchBytes);
    plan.l2.lowerBound = compilation.surfaces.scratchLowerBound;
    plan.l2.status = PlanStatus::Feasible;
    std::int64_t bound = 0;
    for (const nvdla::Surface& surface : compilation.surfaces.surfaces) {
        TensorPlacement placement;
        placement.tensor = surface.name;
        placement.size = std::int64_t(surface.layout.bytes);
        placement.lower = surface.firstStep;
        placement.upper = surface.lastStep + 1;
        if (surface.place == nvdla::Surface::Place::Scratch) {
            placement.level = kNvdlaScratch;
            placement.offset = std::int64_t(surface.offset);
            placement.reason = surface.layout.planar ? "planes of a RUBIK copy" : "scratch surface";
        } else {
            // Each bound memory is its own buffer; drawn one above the other, alive throughout.
            placement.level = kNvdlaBound;
            placement.offset = bound;
            placement.lower = 0;
            placement.upper = std::max<std::int64_t>(plan.steps, 1);
            placement.reason = surface.place == nvdla::Surface::Place::Input ? "bound input" : "bound output";
            bound += placement.size;
        }
        plan.placements.push_back(std::move(placement));
    }
    return plan;
}

} // namespace

void StudioWindow::startNvdla(quint64 generation, const NvdlaTarget& nvdla)
{
    statusLabel_->setText("Mapping " + QFileInfo(modelPath_).fileName() + " onto NVDLA " +
                          QString::fromStdString(nvdla.config) + " (legalization, units, compilation) ...");
    runInBackground<NvdlaOutcome>(this, [session = session_, nvdla] { return nvdlaJob(session, nvdla); },
                                  [this, generation](const NvdlaOutcome& outcome) { onNvdlaDone(generation, outcome); });
}

void StudioWindow::onNvdlaDone(quint64 generation, const NvdlaOutcome& outcome)
{
    if (generation != planGeneration_)
        return;  // superseded by another target or model
    nvdla_ = outcome;
    lastPlanMs_ = outcome.milliseconds;
    showNvdlaUnits();
    fillCapabilityTable();
    std::size_t problems = 0;
    if (outcome.mapping)
        for (const nvdla::NodeMapping& m : outcome.mapping->nodes)
            problems += !m.problem.empty();
    const QString where = QString("%1 on %2").arg(QString::fromStdString(graph_->name), targetBox_->currentText());
    if (outcome.compilation) {
        const nvdla::NvdlaCompilation& c = *outcome.compilation;
        std::size_t operations = 0;
        for (const nvdla::EmittedNode& node : c.emitted)
            operations += node.operations.size();
        planStatus_ = QString("%1: %2 operations in %3 tasks, loadable %4 bytes, DRAM scratch %5 (at least %6 live at "
                              "once); compiled in %7 ms%8")
                          .arg(where)
                          .arg(operations)
                          .arg(c.loadable.tasks.size())
                          .arg(qint64(c.bytes.size()))
                          .arg(kib(qint64(c.surfaces.scratchBytes)), kib(c.surfaces.scratchLowerBound))
                          .arg(outcome.milliseconds, 0, 'f', 0)
                          .arg(c.warnings.empty() ? QString() : "; " + QString::fromStdString(c.warnings.front()));
    } else {
        planStatus_ = problems > 0 ? QString("%1: %2 nodes no unit runs (the Capability dock says why)").arg(where).arg(problems)
                                   : QString("%1: %2").arg(where, outcome.error);
    }
    const NvdlaSteps steps = nvdlaSteps(outcome, *graph_);
    planSteps_ = {steps.stepOfNode, steps.nodesOfStep};
    stepModel_->setPlanSteps(planSteps_.stepOfNode);
    timeline_->setLevels({kNvdlaScratch, kNvdlaBound});
    if (outcome.compilation) {
        timeline_->showPlan(dramPlan(*outcome.compilation), 0);
    } else {
        timeline_->clear();
        timeline_->showProblem("no DRAM plan: nodes of the model do not run on this configuration", 0);
    }
    showPlanStatus();
    if (graphView_->selectedNode() >= 0)
        showNodeProperties(graphView_->selectedNode());
    emit planShown();
}

void StudioWindow::showNvdlaUnits()
{
    QStringList units;
    NvdlaNodeMarks marks;
    if (nvdla_) {
        for (const nvdla::ModelNodeMapping& node : nvdla_->modelNodes)
            units << QString::fromStdString(node.units);
        if (graph_)
            marks = nvdlaNodeMarks(*nvdla_, *graph_);
    }
    graphView_->setNodeUnits(units);
    graphView_->setNodeMarks(marks.marks, marks.explanations);
}

void StudioWindow::showCbufBanks(int node)
{
    views::CbufBanks banks;
    if (nvdla_ && nvdla_->compilation && graph_ && node >= 0 && node < int(graph_->nodeCount())) {
        const target::NvdlaConfig& config = target::nvdlaConfig(nvdla_->compilation->config);
        banks.node = QString::fromStdString(graph_->node(NodeId(node)).name);
        banks.config = QString::fromStdString(config.name);
        banks.banks = int(config.cbufBanks);
        banks.bankBytes = qint64(config.cbufBankBytes());
        for (const nvdla::EmittedNode* emitted : emittedFor(*nvdla_, *graph_, NodeId(node)))
            for (const nvdla::ConvolutionBufferUse& use : emitted->convolutionBuffer)
                banks.rows.push_back({QString::fromStdString(use.part), int(use.dataBanks), int(use.weightBanks),
                                      int(use.bands), int(use.bandRows)});
    }
    if (banks.rows.empty())
        cbufView_->clear();
    else
        cbufView_->showBanks(banks);
}

void StudioWindow::fillCapabilityTable()
{
    capabilityTable_->clearContents();
    capabilityTable_->setRowCount(0);
    if (!nvdla_ || !nvdla_->mapping) {
        if (nvdla_) {
            capabilityTable_->setRowCount(1);
            capabilityTable_->setItem(0, 3, new QTableWidgetItem(nvdla_->error));
        }
        return;
    }
    const nvdla::MappingReport& report = *nvdla_->mapping;
    const auto addRow = [&](const std::string& node, const std::string& op, const std::string& units,
                            const std::string& text, bool problem) {
        const int row = capabilityTable_->rowCount();
        capabilityTable_->insertRow(row);
        const QStringList cells{QString::fromStdString(node), QString::fromStdString(op), QString::fromStdString(units),
                                QString::fromStdString(text)};
        for (int column = 0; column < cells.size(); ++column) {
            auto* item = new QTableWidgetItem(cells[column]);
            if (problem)
                item->setForeground(QColor(0xb0, 0x20, 0x20));
            capabilityTable_->setItem(row, column, item);
        }
    };
    for (const nvdla::NodeMapping& m : report.nodes)  // problems first
        addRow(m.node, m.opType, m.problem.empty() ? m.units : "CANNOT RUN",
               m.problem.empty() ? m.detail : m.problem + (m.fallback.empty() ? "" : " (" + m.fallback + ")"),
               !m.problem.empty());
    for (const nvdla::PassRecord& record : report.removed)
        addRow(record.node, "(removed)", "", record.pass + ": " + record.what, false);
    capabilityTable_->resizeColumnsToContents();
}

QString StudioWindow::nvdlaHtml(int node) const
{
    if (!nvdla_ || node < 0 || std::size_t(node) >= nvdla_->modelNodes.size())
        return {};
    const nvdla::ModelNodeMapping& m = nvdla_->modelNodes[std::size_t(node)];
    QString html = QString("<p><b>NVDLA</b> (%1)<br>").arg(targetBox_->currentText().toHtmlEscaped());
    if (!m.problem.empty())
        html += "<span style='color:#b02020'>cannot run: " + QString::fromStdString(m.problem).toHtmlEscaped() + "</span><br>";
    else if (!m.units.empty())
        html += QString("unit %1%2<br>%3<br>")
                    .arg(QString::fromStdString(m.units).toHtmlEscaped(),
                         m.doneBy.empty() ? QString() : " (done by " + QString::fromStdString(m.doneBy).toHtmlEscaped() + ")",
                         QString::fromStdString(m.detail).toHtmlEscaped());
    for (const std::string& pass : m.passes)
        html += QString::fromStdString(pass).toHtmlEscaped() + "<br>";
    // Where it runs: the task, the operations, and for a convolution its CBUF banks.
    for (const nvdla::EmittedNode* emitted : emittedFor(*nvdla_, *graph_, NodeId(node))) {
        html += QString("task %1: %2")
                    .arg(emitted->task)
                    .arg(QString::fromStdString(fmt::format("{}", fmt::join(emitted->operations, ", "))).toHtmlEscaped());
        if (!emitted->note.empty())
            html += " (" + QString::fromStdString(emitted->note).toHtmlEscaped() + ")";
        html += "<br>";
    }
    if (nvdla_->compilation && nvdla_->compilation->int8) {
        const Node& n = graph_->node(NodeId(node));
        for (TensorId output : n.outputs) {
            const auto scale = nvdla_->compilation->int8->scales.find(graph_->tensor(output).name);
            if (scale != nvdla_->compilation->int8->scales.end())
                html += QString("INT8 scale of %1: %2<br>")
                            .arg(QString::fromStdString(scale->first).toHtmlEscaped())
                            .arg(scale->second, 0, 'g', 6);
        }
    }
    return html + "</p>";
}

void StudioWindow::exportNvdlaProjectDialog()
{
    const QString folder = views::ProjectFolderDialog::choose(this, "Folder for the NVDLA project (an existing folder, or a new name)");
    if (!folder.isEmpty())
        exportNvdlaProject(folder);
}

void StudioWindow::exportNvdlaProject(const QString& folder)
{
    if (!graph_) {
        showError("Export NVDLA project", "open a model first (File > Open model)");
        return;
    }
    if (!parseNvdlaTarget(target())) {
        showError("Export NVDLA project", "choose an NVDLA target in the bar first (NVDLA nv_full FP16, ...)");
        return;
    }
    if (!nvdla_ || !nvdla_->compilation) {
        showError("Export NVDLA project", nvdla_ ? nvdla_->error : "the model is still being mapped; try again");
        return;
    }
    statusLabel_->setText("Writing the NVDLA project (simulating the sample input) ...");
    runInBackground<NvdlaExportOutcome>(
        this, [compilation = nvdla_->compilation, folder] { return exportNvdlaProjectJob(compilation, folder); },
        [this](const NvdlaExportOutcome& outcome) {
            if (!outcome.error.isEmpty()) {
                showError("Export NVDLA project", outcome.error);
                return;
            }
            statusLabel_->setText(outcome.summary);
            emit projectExported(outcome.folder);
        });
}

void StudioWindow::simulateNvdlaOnFileDialog()
{
    const QString file = QFileDialog::getOpenFileName(
        this, "Input for the NVDLA simulation", QFileInfo(modelPath_).absolutePath(),
        "Inputs (*.pgm *.jpg *.pb);;Images as nvdla_runtime reads them (*.pgm *.jpg);;ONNX tensors (*.pb);;All files (*)");
    if (!file.isEmpty())
        simulateNvdla(file);
}

void StudioWindow::simulateNvdla(const QString& inputFile)
{
    if (!graph_ || !nvdla_ || !nvdla_->compilation) {
        showError("Simulate on NVDLA", nvdla_ ? nvdla_->error
                                              : "open a model and choose an NVDLA target in the bar first (NVDLA "
                                                "nv_full FP16, ...)");
        return;
    }
    statusLabel_->setText("Simulating the loadable on " +
                          (inputFile.isEmpty() ? QString("the sample input") : QFileInfo(inputFile).fileName()) + " ...");
    runInBackground<NvdlaRunOutcome>(
        this,
        [session = session_, compilation = nvdla_->compilation, inputFile] {
            return simulateNvdlaJob(session, compilation, inputFile);
        },
        [this](const NvdlaRunOutcome& outcome) {
            if (!outcome.error.isEmpty()) {
                showError("Simulate on NVDLA", outcome.error);
                return;
            }
            showSimulation(outcome);
        });
}

void StudioWindow::showSimulation(const NvdlaRunOutcome& outcome)
{
    simulationTable_->setRowCount(0);
    for (const NvdlaRunRow& row : outcome.rows) {
        const int r = simulationTable_->rowCount();
        simulationTable_->insertRow(r);
        const double relative = row.largestDifference / std::max(row.largestReference, 1e-6);
        const QStringList cells{row.node,
                                row.shape,
                                row.compared ? QString::number(row.largestDifference, 'g', 4) : QString(),
                                row.compared ? QString::number(row.largestReference, 'g', 4) : QString(),
                                row.compared ? QString::number(relative, 'g', 3) : QString(),
                                row.compared ? row.operations : row.note + " (" + row.operations + ")"};
        for (int column = 0; column < cells.size(); ++column) {
            auto* item = new QTableWidgetItem(cells[column]);
            if (row.compared && relative > 0.05)
                item->setForeground(QColor(0xb0, 0x20, 0x20));
            simulationTable_->setItem(r, column, item);
        }
    }
    simulationTable_->resizeColumnsToContents();
    auto* dock = findChild<QDockWidget*>("simulation");
    dock->show();
    dock->raise();
    statusLabel_->setText(outcome.summary);
    emit simulationShown();
}

QTableWidget* StudioWindow::buildSimulationTable()
{
    auto* table = new QTableWidget(0, 6, this);
    table->setObjectName("simulationTable");
    table->setHorizontalHeaderLabels({"node", "output", "largest difference", "largest value", "relative",
                                      "operations"});
    table->horizontalHeader()->setStretchLastSection(true);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    connect(table, &QTableWidget::cellClicked, this, [this, table](int row) { selectNodeNamed(table, row); });
    return table;
}

void StudioWindow::selectNodeNamed(QTableWidget* table, int row)
{
    if (table->item(row, 0))
        selectNodeNamed(table->item(row, 0)->text());
}

QTableWidget* StudioWindow::buildCapabilityTable()
{
    auto* table = new QTableWidget(0, 4, this);
    table->setObjectName("capabilityTable");
    table->setHorizontalHeaderLabels({"node", "op", "unit", "what it does, or why it cannot run"});
    table->horizontalHeader()->setStretchLastSection(true);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    connect(table, &QTableWidget::cellClicked, this, [this, table](int row) { selectNodeNamed(table, row); });
    return table;
}

} // namespace tessera::studio
