#include "budget_sweep_view.h"

#include "byte_size_spin_box.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <cmath>

namespace tessera::views {

namespace {

constexpr double kKiB = 1024.0;
constexpr qint64 kLargestL2 = qint64(1) << 30;

QString budgetName(SweptBudget swept) { return swept == SweptBudget::L1 ? "L1" : "L2"; }

} // namespace

BudgetSweepView::BudgetSweepView(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    auto* bar = new QHBoxLayout;
    sweptBox_ = new QComboBox(this);
    sweptBox_->addItem("L2 budget", int(SweptBudget::L2));
    sweptBox_->addItem("L1 budget", int(SweptBudget::L1));
    sweptBox_->setToolTip("The budget the sweep varies (the others stay as in the bar); an L1 sweep tiles every "
                          "layer again at each point and takes longer");
    bar->addWidget(sweptBox_);
    bar->addWidget(new QLabel("from", this));
    lowestBox_ = new ByteSizeSpinBox(1, 1024, kLargestL2, this);
    bar->addWidget(lowestBox_);
    bar->addWidget(new QLabel("to", this));
    highestBox_ = new ByteSizeSpinBox(1, 1024, kLargestL2, this);
    bar->addWidget(highestBox_);
    countBox_ = new QSpinBox(this);
    countBox_->setRange(2, 256);
    countBox_->setValue(32);
    countBox_->setSuffix(" points");
    bar->addWidget(countBox_);
    runButton_ = new QPushButton("Sweep", this);
    runButton_->setToolTip("Plan the model at each budget (off the GUI thread); click a point to adopt its budget");
    bar->addWidget(runButton_);
    cancelButton_ = new QPushButton("Cancel", this);
    cancelButton_->setEnabled(false);
    bar->addWidget(cancelButton_);
    progress_ = new QProgressBar(this);
    progress_->setVisible(false);
    bar->addWidget(progress_, 1);
    bar->addStretch();
    layout->addLayout(bar);
    message_ = new QLabel(this);
    message_->setWordWrap(true);
    layout->addWidget(message_);
    // Three rows sharing the budget axis: L2 used, L3 traffic, estimated cycles, each its own scale.
    plot_ = new QCustomPlot(this);
    plot_->setMinimumHeight(120);
    plot_->plotLayout()->clear();
    const QColor colours[] = {QColor(0x4a, 0x86, 0xc8), QColor(0xd0, 0x30, 0x30), QColor(0x40, 0x80, 0x40)};
    const char* names[] = {"L2 used\n(KiB)", "L3 traffic\n(MiB/inference)", "estimated\n(M cycles)"};
    auto* margins = new QCPMarginGroup(plot_);
    for (int row = 0; row < 3; ++row) {
        auto* rect = new QCPAxisRect(plot_);
        plot_->plotLayout()->addElement(row, 0, rect);
        rect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
        QCPAxis* x = rect->axis(QCPAxis::atBottom);
        QCPAxis* y = rect->axis(QCPAxis::atLeft);
        y->setLabel(names[row]);
        x->setLabel(row == 2 ? "L2 budget (KiB)" : QString());
        x->setTickLabels(row == 2);
        QCPGraph* graph = plot_->addGraph(x, y);
        graph->setPen(QPen(colours[row], 2));
        graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 5));
        axisRects_.push_back(rect);
    }
    layout->addWidget(plot_, 1);
    connect(runButton_, &QPushButton::clicked, this,
            [this] { emit runRequested(lowest(), highest(), pointCount()); });
    connect(cancelButton_, &QPushButton::clicked, this, &BudgetSweepView::cancelRequested);
    connect(sweptBox_, qOverload<int>(&QComboBox::activated), this, [this] { emit sweptChanged(swept()); });
    connect(plot_, &QCustomPlot::mousePress, this, &BudgetSweepView::onPress);
    clear();
}

BudgetSweepView::~BudgetSweepView() = default;

SweptBudget BudgetSweepView::swept() const { return SweptBudget(sweptBox_->currentData().toInt()); }

void BudgetSweepView::setSwept(SweptBudget swept) { sweptBox_->setCurrentIndex(sweptBox_->findData(int(swept))); }

void BudgetSweepView::setRange(qint64 lowest, qint64 highest)
{
    lowestBox_->setBytes(lowest);
    highestBox_->setBytes(highest);
}

qint64 BudgetSweepView::lowest() const { return std::min(lowestBox_->bytes(), highestBox_->bytes()); }
qint64 BudgetSweepView::highest() const { return std::max(lowestBox_->bytes(), highestBox_->bytes()); }
int BudgetSweepView::pointCount() const { return countBox_->value(); }

void BudgetSweepView::showRunning(int total)
{
    runButton_->setEnabled(false);
    cancelButton_->setEnabled(true);
    progress_->setRange(0, total);
    progress_->setValue(0);
    progress_->setVisible(true);
    message_->setText(QString("planning at %1 budgets ...").arg(total));
}

void BudgetSweepView::showProgress(int done, int total)
{
    progress_->setRange(0, total);
    progress_->setValue(done);
}

void BudgetSweepView::showPoints(const std::vector<BudgetSweepPoint>& points, bool cancelled, SweptBudget swept)
{
    points_ = points;
    pointsSwept_ = swept;
    runButton_->setEnabled(true);
    cancelButton_->setEnabled(false);
    progress_->setVisible(false);
    int refused = 0;
    QString firstReason;
    for (const BudgetSweepPoint& point : points_)
        if (!point.ok && refused++ == 0)
            firstReason = QString::fromStdString(point.error);
    QString text = QString("%1 %2 budgets planned%3; click a point to adopt its budget.")
                       .arg(points_.size())
                       .arg(budgetName(swept))
                       .arg(cancelled ? " (cancelled)" : "");
    if (refused > 0)
        text += QString(" %1 budget(s) have no plan (crosses in the L2 row; the reason in this line's tooltip).").arg(refused);
    message_->setText(text);
    message_->setToolTip(firstReason);
    draw();
}

void BudgetSweepView::clear()
{
    points_.clear();
    message_->setText("Plan the model at a series of L2 (or L1) budgets to see what each costs.");
    draw();
}

void BudgetSweepView::setCurrentBudgets(qint64 l1, qint64 l2)
{
    currentL1_ = l1;
    currentL2_ = l2;
    draw();
}

QString BudgetSweepView::message() const { return message_->text(); }

QWidget* BudgetSweepView::plot() const { return plot_; }

QPoint BudgetSweepView::pointPixel(std::size_t index) const
{
    const BudgetSweepPoint& point = points_.at(index);
    const QCPGraph* traffic = plot_->graph(1);
    return QPoint(int(std::lround(traffic->keyAxis()->coordToPixel(double(point.budget) / kKiB))),
                  int(std::lround(traffic->valueAxis()->coordToPixel(double(point.l3Traffic) / kKiB / kKiB))));
}

void BudgetSweepView::draw()
{
    QVector<double> budget, used, traffic, cycles;
    plot_->clearItems();
    for (const BudgetSweepPoint& point : points_) {
        if (!point.ok) {  // in the L2 row, at the bottom
            auto* cross = new QCPItemText(plot_);
            cross->setClipAxisRect(axisRects_.front());
            cross->position->setAxisRect(axisRects_.front());
            cross->position->setAxes(plot_->graph(0)->keyAxis(), plot_->graph(0)->valueAxis());
            cross->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
            cross->position->setCoords(double(point.budget) / kKiB, 0.9);
            cross->setText("x");
            cross->setColor(QColor(0xb0, 0x00, 0x20));
            continue;
        }
        budget << double(point.budget) / kKiB;
        used << double(point.l2Peak) / kKiB;
        traffic << double(point.l3Traffic) / kKiB / kKiB;
        cycles << point.estimatedCycles / 1e6;
    }
    const QVector<double>* series[] = {&used, &traffic, &cycles};
    axisRects_.back()->axis(QCPAxis::atBottom)->setLabel(budgetName(pointsSwept_) + " budget (KiB)");
    const double low = points_.empty() ? 0 : double(points_.front().budget) / kKiB;
    const double high = points_.empty() ? 1 : double(points_.back().budget) / kKiB;
    const double margin = std::max(1.0, (high - low) * 0.03);
    for (int row = 0; row < 3; ++row) {
        QCPGraph* graph = plot_->graph(row);
        graph->setData(budget, *series[row], true);
        graph->keyAxis()->setRange(low - margin, high + margin);
        double top = 0;
        for (double value : *series[row])
            top = std::max(top, value);
        graph->valueAxis()->setRange(0, std::max(1e-3, top * 1.15));
        const qint64 current = pointsSwept_ == SweptBudget::L1 ? currentL1_ : currentL2_;
        if (current > 0) {  // the budget shown now
            auto* line = new QCPItemStraightLine(plot_);
            line->setClipAxisRect(axisRects_[std::size_t(row)]);
            for (QCPItemPosition* end : {line->point1, line->point2})
                end->setAxes(graph->keyAxis(), graph->valueAxis());
            line->point1->setCoords(double(current) / kKiB, 0);
            line->point2->setCoords(double(current) / kKiB, 1);
            line->setPen(QPen(QColor(0xd0, 0x30, 0x30), 1, Qt::DashLine));
        }
    }
    plot_->replot();
}

void BudgetSweepView::onPress(QMouseEvent* event)
{
    if (points_.empty())
        return;
    // The nearest planned budget along x.
    const double x = plot_->graph(0)->keyAxis()->pixelToCoord(event->position().x()) * kKiB;
    const BudgetSweepPoint* nearest = nullptr;
    for (const BudgetSweepPoint& point : points_)
        if (point.ok && (!nearest || std::abs(double(point.budget) - x) < std::abs(double(nearest->budget) - x)))
            nearest = &point;
    if (nearest)
        emit budgetPicked(pointsSwept_, qint64(nearest->budget));
}

} // namespace tessera::views
