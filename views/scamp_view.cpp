#include "scamp_view.h"

#include "coefficient_heatmap_delegate.h"
#include "register_planes_widget.h"
#include "scamp_trace_model.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QThread>
#include <QVBoxLayout>

namespace tessera::views {

ScampView::ScampView(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    auto* bar = new QHBoxLayout;
    auto* openButton = new QPushButton("Open kernels...", this);
    openButton->setToolTip("A kernels file (JSON) as tessera scamp reads it");
    auto* programButton = new QPushButton("Open program...", this);
    programButton->setToolTip("Trace and verify a SCAMP-5 program text against the open kernels");
    auto* imageButton = new QPushButton("Image...", this);
    imageButton->setToolTip("The picture the planes are shown on (a built-in test picture by default)");
    saveButton_ = new QPushButton("Save program...", this);
    saveButton_->setEnabled(false);
    for (QPushButton* button : {openButton, programButton, imageButton, saveButton_})
        bar->addWidget(button);
    bar->addSpacing(12);
    bar->addWidget(new QLabel("Instructions", this));
    opsBox_ = new QComboBox(this);
    opsBox_->addItem("all", true);
    opsBox_->addItem("basic", false);
    opsBox_->setToolTip("all: with mov2x, 3-input add, addx, add2x, subx, sub2x; basic: without them");
    bar->addWidget(opsBox_);
    bar->addWidget(new QLabel("Time", this));
    secondsBox_ = new QDoubleSpinBox(this);
    secondsBox_->setRange(0.1, 3600);
    secondsBox_->setDecimals(1);
    secondsBox_->setSuffix(" s");
    secondsBox_->setValue(10);
    bar->addWidget(secondsBox_);
    bar->addWidget(new QLabel("Threads", this));
    threadsBox_ = new QSpinBox(this);
    threadsBox_->setRange(1, 64);
    threadsBox_->setValue(std::max(1, QThread::idealThreadCount()));
    bar->addWidget(threadsBox_);
    runButton_ = new QPushButton("Run", this);
    runButton_->setEnabled(false);
    bar->addWidget(runButton_);
    bar->addStretch(1);
    layout->addLayout(bar);

    auto* status = new QHBoxLayout;
    kernelsLabel_ = new QLabel("Open a kernels file to compile it for SCAMP-5", this);
    status->addWidget(kernelsLabel_, 1);
    progress_ = new QProgressBar(this);
    progress_->setRange(0, 100);
    progress_->setValue(0);
    progress_->setMaximumWidth(160);
    status->addWidget(progress_);
    progressLabel_ = new QLabel(this);
    status->addWidget(progressLabel_, 1);
    layout->addLayout(status);
    message_ = new QLabel(this);
    message_->setWordWrap(true);
    message_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    message_->setVisible(false);
    layout->addWidget(message_);

    auto* splitter = new QSplitter(Qt::Horizontal, this);
    model_ = new ScampTraceModel(this);
    table_ = new QTableView(splitter);
    table_->setModel(model_);
    table_->setItemDelegate(new CoefficientHeatmapDelegate(table_));
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    auto* right = new QWidget(splitter);
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    auto* steps = new QHBoxLayout;
    auto* previous = new QPushButton("\u25c0", right);
    previous->setToolTip("Previous step (Up in the trace)");
    auto* next = new QPushButton("\u25b6", right);
    next->setToolTip("Next step (Down in the trace)");
    stepLabel_ = new QLabel(right);
    steps->addWidget(previous);
    steps->addWidget(stepLabel_, 1);
    steps->addWidget(next);
    rightLayout->addLayout(steps);
    planes_ = new RegisterPlanesWidget(right);
    rightLayout->addWidget(planes_, 1);
    splitter->addWidget(table_);
    splitter->addWidget(right);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    layout->addWidget(splitter, 1);

    connect(openButton, &QPushButton::clicked, this, &ScampView::openKernelsRequested);
    connect(programButton, &QPushButton::clicked, this, &ScampView::openProgramRequested);
    connect(imageButton, &QPushButton::clicked, this, &ScampView::imageRequested);
    connect(saveButton_, &QPushButton::clicked, this, &ScampView::saveProgramRequested);
    connect(runButton_, &QPushButton::clicked, this, [this] { emit running_ ? stopRequested() : runRequested(); });
    connect(previous, &QPushButton::clicked, this, [this] { setCurrentStep(currentStep() - 1); });
    connect(next, &QPushButton::clicked, this, [this] { setCurrentStep(currentStep() + 1); });
    connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) { onStepSelected(current.isValid() ? current.row() : 0); });
    updateStepLabel();
}

ScampView::SearchSettings ScampView::settings() const
{
    return {opsBox_->currentData().toBool(), secondsBox_->value(), threadsBox_->value()};
}

void ScampView::setSettings(const SearchSettings& settings)
{
    opsBox_->setCurrentIndex(settings.allOps ? 0 : 1);
    secondsBox_->setValue(settings.seconds);
    threadsBox_->setValue(settings.threads);
}

void ScampView::setKernelsText(const QString& text)
{
    kernelsLabel_->setText(text);
    runButton_->setEnabled(true);
}

void ScampView::showTrace(std::shared_ptr<const scamp::ProgramTrace> trace)
{
    const int step = currentStep();
    model_->setTrace(trace);
    planes_->setTrace(trace);
    saveButton_->setEnabled(trace != nullptr);
    table_->resizeRowsToContents();
    setCurrentStep(trace ? std::min(step, int(trace->steps()) - 1) : 0);
}

void ScampView::clearTrace()
{
    showTrace(nullptr);
    progress_->setValue(0);
    progressLabel_->clear();
    message_->setVisible(false);
}

void ScampView::setRunning(bool running)
{
    running_ = running;
    runButton_->setText(running ? "Stop" : "Run");
    for (QWidget* box : std::initializer_list<QWidget*>{opsBox_, secondsBox_, threadsBox_})
        box->setEnabled(!running);
}

void ScampView::showProgress(double fraction, const QString& text)
{
    progress_->setValue(int(std::lround(std::clamp(fraction, 0.0, 1.0) * 100)));
    progressLabel_->setText(text);
}

void ScampView::showMessage(const QString& text, bool problem)
{
    messageIsProblem_ = problem;
    message_->setText(text);
    QPalette palette = message_->palette();
    palette.setColor(QPalette::WindowText, problem ? QColor(0xc0, 0x30, 0x30) : this->palette().text().color());
    message_->setPalette(palette);
    message_->setVisible(!text.isEmpty());
}

int ScampView::currentStep() const
{
    const QModelIndex current = table_->currentIndex();
    return current.isValid() ? current.row() : 0;
}

void ScampView::setCurrentStep(int step)
{
    const int rows = model_->rowCount();
    if (rows == 0) {
        onStepSelected(0);
        return;
    }
    step = std::clamp(step, 0, rows - 1);
    table_->setCurrentIndex(model_->index(step, ScampTraceModel::kInstructionColumn));
    onStepSelected(step); // also when the row was already current
}

void ScampView::onStepSelected(int step)
{
    planes_->setStep(step);
    updateStepLabel();
}

void ScampView::updateStepLabel()
{
    const scamp::ProgramTrace* trace = model_->trace();
    if (!trace) {
        stepLabel_->setText("no program");
        return;
    }
    const int step = std::min(currentStep(), int(trace->instructions.size()));
    stepLabel_->setText(step == 0 ? QString("start of %1 instructions").arg(trace->instructions.size())
                                  : QString("after %1 of %2: %3")
                                        .arg(step)
                                        .arg(trace->instructions.size())
                                        .arg(QString::fromStdString(trace->instructions[size_t(step - 1)].toString())));
}

QString ScampView::kernelsText() const { return kernelsLabel_->text(); }
QString ScampView::progressText() const { return progressLabel_->text(); }
int ScampView::progressPercent() const { return progress_->value(); }
QString ScampView::message() const { return message_->isVisible() ? message_->text() : QString(); }

} // namespace tessera::views
