#include "tiling_panel.h"

#include "byte_size_spin_box.h"
#include "tile_layout_view.h"

#include "base/error.h"
#include "tiler/tiling_report_file.h"

#include <QElapsedTimer>
#include <QFile>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>


#include <algorithm>

namespace tessera::views {

namespace {

constexpr int kDebounceMs = 40;
constexpr int kMinBudget = 64;
constexpr int kMaxBudget = 16 * 1024 * 1024;
constexpr int kMinSliderMax = 128 * 1024;

} // namespace

ModelTilingSolution solveModelTiling(std::shared_ptr<const tiler::KernelModel> model, std::uint64_t l1Budget)
{
    QElapsedTimer timer;
    timer.start();
    ModelTilingSolution solution;
    solution.l1Budget = l1Budget;
    // Runs on the thread pool: what the solver throws comes back as the solution's error.
    try {
        for (const tiler::UserKernel& kernel : model->userKernels)
            solution.results.push_back(tiler::solveTiling(kernel, l1Budget, model->options.l2Size,
                                                          model->options.costModel, tiler::promotionPolicy(model->options)));
    } catch (const std::exception& error) {
        solution.results.clear();
        solution.error = error.what();
    } catch (...) {
        solution.results.clear();
        solution.error = "the tile solver failed unexpectedly";
    }
    solution.model = std::move(model);
    solution.milliseconds = double(timer.nsecsElapsed()) / 1e6;
    return solution;
}

TilingPanel::TilingPanel(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel("L1 budget", this));
    budgetBox_ = new ByteSizeSpinBox(1, kMinBudget, kMaxBudget, this);
    budgetBox_->setSingleStep(256);
    budgetBox_->setToolTip("Bytes of L1 the tiles and buffers of every kernel may use");
    bar->addWidget(budgetBox_);
    budgetSlider_ = new QSlider(Qt::Horizontal, this);
    budgetSlider_->setRange(kMinBudget, kMinSliderMax);
    budgetSlider_->setSingleStep(64);
    budgetSlider_->setPageStep(1024);
    budgetSlider_->setMinimumWidth(200);
    budgetSlider_->setToolTip("Drag to solve every kernel again at another L1 budget");
    bar->addWidget(budgetSlider_, 1);
    budgetNote_ = new QLabel(this);
    bar->addWidget(budgetNote_);
    layout->addLayout(bar);
    message_ = new QLabel(this);
    message_->setWordWrap(true);
    message_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    message_->setStyleSheet("QLabel { color: #d03a3a; }");
    message_->setVisible(false);
    layout->addWidget(message_);

    auto* split = new QSplitter(Qt::Horizontal, this);
    table_ = new QTableWidget(0, ColumnCount, split);
    table_->setHorizontalHeaderLabels({"Kernel", "Tiles", "L1 used", "DMA bytes"});
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->verticalHeader()->hide();
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    layout_ = new TileLayoutView(split);
    split->addWidget(table_);
    split->addWidget(layout_);
    split->setStretchFactor(1, 1);
    split->setSizes({320, 900});
    layout->addWidget(split, 1);

    solveTimer_ = new QTimer(this);
    solveTimer_->setSingleShot(true);
    solveTimer_->setInterval(kDebounceMs);
    connect(solveTimer_, &QTimer::timeout, this, &TilingPanel::startSolve);
    connect(budgetBox_, &QSpinBox::valueChanged, this, [this](int bytes) {
        budgetSlider_->blockSignals(true);
        budgetSlider_->setValue(bytes);
        budgetSlider_->blockSignals(false);
        onBudgetEdited();
        emit budgetEdited(bytes);
    });
    connect(budgetSlider_, &QSlider::valueChanged, this, [this](int bytes) {
        budgetBox_->blockSignals(true);
        budgetBox_->setValue(bytes);
        budgetBox_->blockSignals(false);
        onBudgetEdited();
        emit budgetEdited(bytes);
    });
    connect(table_, &QTableWidget::currentCellChanged, this, [this] { showSelected(); });
    setBudgetControls(64 * 1024);
}

TilingPanel::~TilingPanel() = default;

bool TilingPanel::openTilingFile(const QString& path)
{
    const auto fail = [this](const QString& message) {
        message_->setText(message);
        message_->setVisible(true);
        emit errorShown(message);
        return false;
    };
    QFile file(path);
    if (!file.exists())
        return fail("cannot open tiling report " + path + ": the file does not exist");
    if (!file.open(QIODevice::ReadOnly))
        return fail("cannot open tiling report " + path + ": " + file.errorString());
    const QByteArray bytes = file.readAll();
    auto model = std::make_shared<tiler::KernelModel>();
    std::uint64_t budget = 0;
    try {
        tiler::TilingReportFile report = tiler::parseTilingReport(bytes.toStdString(), path.toStdString());
        *model = std::move(report.model);
        budget = report.l1Budget;
    } catch (const Error& error) {
        return fail(QString::fromStdString(error.what()));
    }
    showKernelModel(std::move(model), budget, path);
    return true;
}

void TilingPanel::showKernelModel(std::shared_ptr<const tiler::KernelModel> model, std::uint64_t l1Budget,
                                  const QString& source)
{
    const qint64 budget = qint64(l1Budget);
    path_ = source;
    model_ = std::move(model);
    shown_.reset();
    table_->setRowCount(0);
    layout_->clear();
    message_->setVisible(false);
    setBudgetControls(qint64(budget));
    solveTimer_->stop();
    startSolve();
}

void TilingPanel::setBudgetControls(qint64 bytes)
{
    const int value = int(std::clamp<qint64>(bytes, kMinBudget, kMaxBudget));
    budgetBox_->blockSignals(true);
    budgetSlider_->blockSignals(true);
    // The slider reaches four times the budget the report was written for.
    budgetSlider_->setMaximum(std::clamp(value * 4, kMinSliderMax, kMaxBudget));
    budgetSlider_->setValue(value);
    budgetBox_->setValue(value);
    budgetBox_->blockSignals(false);
    budgetSlider_->blockSignals(false);
    budgetNote_->clear();
}

void TilingPanel::clear()
{
    ++generation_;  // a solve under way belongs to what is cleared
    solveTimer_->stop();
    model_.reset();
    shown_.reset();
    path_.clear();
    table_->setRowCount(0);
    layout_->clear();
    message_->clear();
    message_->setVisible(false);
    budgetNote_->clear();
}

void TilingPanel::setL1Budget(qint64 bytes)
{
    setBudgetControls(bytes);
    onBudgetEdited();
}

qint64 TilingPanel::l1Budget() const { return budgetBox_->value(); }

qint64 TilingPanel::shownBudget() const { return shown_ ? qint64(shown_->l1Budget) : 0; }

double TilingPanel::lastSolveMilliseconds() const { return shown_ ? shown_->milliseconds : 0; }

void TilingPanel::onBudgetEdited()
{
    budgetNote_->clear();
    if (model_)
        solveTimer_->start();
}

void TilingPanel::startSolve()
{
    if (!model_)
        return;
    const quint64 generation = ++generation_;
    auto* watcher = new QFutureWatcher<ModelTilingSolution>(this);
    connect(watcher, &QFutureWatcher<ModelTilingSolution>::finished, this, [this, watcher, generation] {
        onSolved(generation, watcher->result());
        watcher->deleteLater();
    });
    watcher->setFuture(QtConcurrent::run(solveModelTiling, model_, std::uint64_t(l1Budget())));
}

void TilingPanel::onSolved(quint64 generation, const ModelTilingSolution& solution)
{
    if (generation != generation_ || solution.model != model_)
        return; // a newer budget or another report superseded this one
    shown_ = std::make_unique<ModelTilingSolution>(solution);
    QStringList problems;
    std::uint64_t modelMinimum = 0;
    for (const tiler::TileSolverResult& result : shown_->results) {
        modelMinimum = std::max(modelMinimum, result.minimumL1);
        if (!result.ok)
            problems << QString::fromStdString(result.error);
    }
    if (!shown_->error.empty())
        problems << QString::fromStdString(shown_->error);
    if (!problems.isEmpty() && modelMinimum > shown_->l1Budget)
        problems << QString("the model needs at least %1 bytes of L1 for all its kernels").arg(modelMinimum);
    message_->setText(problems.join('\n'));
    message_->setVisible(!problems.isEmpty());
    budgetNote_->setText(QString("%1 kernel(s) solved in %2 ms")
                             .arg(shown_->results.size())
                             .arg(shown_->milliseconds, 0, 'f', 2));
    fillTable();
    showSelected();
    emit tilingShown();
}

void TilingPanel::fillTable()
{
    const QString selected = selectedKernel();
    const std::vector<tiler::UserKernel>& kernels = shown_->model->userKernels;
    table_->blockSignals(true);
    table_->setRowCount(int(kernels.size()));
    for (int row = 0; row < int(kernels.size()); ++row) {
        const tiler::TileSolverResult& result = shown_->results[std::size_t(row)];
        QStringList cells{QString::fromStdString(kernels[std::size_t(row)].name)};
        QString tip;
        if (result.ok) {
            const tiler::KernelTiling& tiling = result.tiling;
            // Two-level tiling: "outer × inner" tiles.
            const QString tiles = tiling.kernel->outerTiles
                                      ? QString("%1 × %2").arg(tiling.outerTileCount).arg(tiling.tileCount)
                                      : QString::number(tiling.tileCount);
            cells << tiles << exactBytes(tiling.l1Bytes) << exactBytes(tiling.dmaRead + tiling.dmaWrite);
            tip = QString("%1 tile(s), L1 %2 of %3 (smallest that fits: %4)\nDMA %5 in, %6 out; estimated %7 cycles")
                      .arg(tiles)
                      .arg(exactBytes(tiling.l1Bytes), exactBytes(shown_->l1Budget), exactBytes(result.minimumL1),
                           exactBytes(tiling.dmaRead), exactBytes(tiling.dmaWrite))
                      .arg(tiling.estimatedCycles, 0, 'f', 0);
            if (tiling.l2Bytes)
                tip += QString("\nL2 staging %1; L3 %2 in, %3 out")
                           .arg(exactBytes(tiling.l2Bytes), exactBytes(tiling.l3Read), exactBytes(tiling.l3Write));
        } else {
            cells << "-" << (result.minimumL1 ? "needs " + exactBytes(result.minimumL1) : QString("-")) << "-";
            tip = QString::fromStdString(result.error);
        }
        for (int column = 0; column < ColumnCount; ++column) {
            auto* item = new QTableWidgetItem(cells[column]);
            item->setToolTip(tip);
            if (column != Kernel)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (!result.ok)
                item->setForeground(QColor(0xd0, 0x3a, 0x3a));
            table_->setItem(row, column, item);
        }
    }
    // The same kernel stays selected across budgets; onSolved() draws it once.
    int current = 0;
    for (int row = 0; row < int(kernels.size()); ++row)
        if (cell(row, Kernel) == selected)
            current = row;
    if (!kernels.empty())
        table_->setCurrentCell(current, 0);
    table_->resizeColumnsToContents();
    table_->blockSignals(false);
}

void TilingPanel::showSelected()
{
    const int row = table_->currentRow();
    if (!shown_ || row < 0 || row >= int(shown_->results.size())) {
        layout_->clear();
        return;
    }
    const tiler::TileSolverResult& result = shown_->results[std::size_t(row)];
    if (result.ok)
        layout_->showTiling(result.tiling, shown_->l1Budget);
    else
        layout_->showProblem(QString::fromStdString(shown_->model->userKernels[std::size_t(row)].name),
                             QString::fromStdString(result.error));
}

int TilingPanel::kernelCount() const { return table_->rowCount(); }

QString TilingPanel::cell(int row, Column column) const
{
    const QTableWidgetItem* item = table_->item(row, column);
    return item ? item->text() : QString();
}

void TilingPanel::selectKernel(int row)
{
    if (row >= 0 && row < table_->rowCount())
        table_->setCurrentCell(row, 0);
}

bool TilingPanel::selectKernel(const QString& name)
{
    for (int row = 0; row < table_->rowCount(); ++row)
        if (cell(row, Kernel) == name) {
            if (table_->currentRow() == row)
                showSelected();
            else
                table_->setCurrentCell(row, 0);
            return true;
        }
    return false;
}

QString TilingPanel::selectedKernel() const
{
    const int row = table_->currentRow();
    return row >= 0 ? cell(row, Kernel) : QString();
}

QString TilingPanel::message() const { return message_->isHidden() ? QString() : message_->text(); }

} // namespace tessera::views
