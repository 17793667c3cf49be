#include "scamp_workbench.h"

#include "scamp_search_runner.h"
#include "scamp_view.h"

#include "io/file_io.h"
#include "scamp/simulator.h"

#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QImage>
#include <QImageReader>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QTimer>

namespace tessera::studio {

namespace {

constexpr int kTickMs = 100;

QString registerRange(const std::vector<std::string>& registers)
{
    if (registers.empty())
        return "no registers";
    return QString("%1 registers %2\u2013%3")
        .arg(registers.size())
        .arg(QString::fromStdString(registers.front()), QString::fromStdString(registers.back()));
}

} // namespace

ScampWorkbench::ScampWorkbench(views::ScampView* view, QObject* parent)
    : QObject(parent), view_(view), runner_(new ScampSearchRunner(this)), ticker_(new QTimer(this)),
      image_(scamp::samplePlane(kSampleImage))
{
    ticker_->setInterval(kTickMs);
    connect(ticker_, &QTimer::timeout, this, &ScampWorkbench::tick);
    connect(runner_, &ScampSearchRunner::improved, this, &ScampWorkbench::onImproved);
    connect(runner_, &ScampSearchRunner::finished, this, &ScampWorkbench::onFinished);
    connect(runner_, &ScampSearchRunner::failed, this, [this](const QString& message) {
        ticker_->stop();
        view_->setRunning(false);
        showProblem("The search stopped: " + message);
        emit searchFinished();
    });
    connect(view_, &views::ScampView::runRequested, this, &ScampWorkbench::run);
    connect(view_, &views::ScampView::stopRequested, this, &ScampWorkbench::stop);
    connect(view_, &views::ScampView::openKernelsRequested, this, [this] {
        const QString path = QFileDialog::getOpenFileName(view_, "Open SCAMP-5 kernels", {}, "Kernels (*.json)");
        if (!path.isEmpty() && openKernels(path))
            run();
    });
    connect(view_, &views::ScampView::openProgramRequested, this, [this] {
        const QString path = QFileDialog::getOpenFileName(view_, "Open SCAMP-5 program", {}, "Programs (*.txt);;All files (*)");
        if (!path.isEmpty())
            openProgram(path);
    });
    connect(view_, &views::ScampView::imageRequested, this, [this] {
        QStringList patterns;
        for (const QByteArray& format : QImageReader::supportedImageFormats())
            patterns << "*." + QString::fromLatin1(format);
        const QString path =
            QFileDialog::getOpenFileName(view_, "Image to step the program on", {}, "Images (" + patterns.join(' ') + ")");
        if (!path.isEmpty())
            openImage(path);
    });
    connect(view_, &views::ScampView::saveProgramRequested, this, [this] {
        const QString text = "Tessera program (*.txt)", cain = "Cain program (*.cain.txt)",
                      sdk = "SCAMP-5 SDK code (*.hpp)";
        QString chosen;
        const QString path =
            QFileDialog::getSaveFileName(view_, "Save SCAMP-5 program", {}, text + ";;" + cain + ";;" + sdk, &chosen);
        if (path.isEmpty())
            return;
        // The chosen filter decides; a file name typed with another known ending overrides it.
        scamp::ProgramForm form = chosen == cain ? scamp::ProgramForm::Cain
                                  : chosen == sdk ? scamp::ProgramForm::Scamp5Sdk
                                                  : scamp::ProgramForm::Text;
        if (scamp::programFormForPath(path.toStdString()) != scamp::ProgramForm::Text)
            form = scamp::programFormForPath(path.toStdString());
        saveProgram(path, form);
    });
}

ScampWorkbench::~ScampWorkbench() = default; // the runner (a child) stops and waits for its search

bool ScampWorkbench::isKernelsFile(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return false;
    const QJsonDocument document = QJsonDocument::fromJson(file.readAll());
    return document.isObject() && document.object().value("kernels").isArray();
}

void ScampWorkbench::showProblem(const QString& message) { view_->showMessage(message, true); }

// Stops a search whose results no longer apply (other kernels, or a program the user opened).
void ScampWorkbench::abandonSearch()
{
    runner_->abandon();
    ticker_->stop();
    view_->setRunning(false);
}

bool ScampWorkbench::openKernels(const QString& path)
{
    scamp::KernelSet set;
    scamp::ApproximatedKernels kernels;
    try {
        set = scamp::readKernelSet(path.toStdString());
        kernels = scamp::approximateKernels(set);
    } catch (const std::exception& error) {
        showProblem(QString::fromStdString(error.what()));
        return false;
    }
    abandonSearch();
    set_ = std::move(set);
    kernels_ = std::move(kernels);
    kernelsPath_ = path;
    program_.reset();
    trace_.reset();
    best_.reset();
    lastResult_.reset();
    improvements_ = 0;
    view_->clearTrace();
    double worstError = 0;
    for (double error : kernels_->errors)
        worstError = std::max(worstError, error);
    view_->setKernelsText(QString("%1: %2 kernel(s), d = %3 (largest approximation error %4), input %5, %6")
                              .arg(QString::fromStdString(set_->name))
                              .arg(set_->kernels.size())
                              .arg(kernels_->depth)
                              .arg(worstError, 0, 'g', 3)
                              .arg(QString::fromStdString(set_->inputRegister), registerRange(set_->registers)));
    emit kernelsOpened(path);
    return true;
}

void ScampWorkbench::showProgram(const scamp::Program& program)
{
    program_ = program;
    trace_ = std::make_shared<const scamp::ProgramTrace>(scamp::traceProgram(program, *set_, *kernels_, &image_));
    view_->showTrace(trace_);
    if (!trace_->problem.empty())
        showProblem(QString::fromStdString(trace_->problem));
    emit traceShown();
}

void ScampWorkbench::verifyShown(const QString& what)
{
    const scamp::VerificationReport report = scamp::verifyProgram(*program_, *set_, *kernels_);
    if (report.exact)
        view_->showMessage(QString("%1 Verified exact: symbolically and on %2 random images.").arg(what).arg(report.imagesChecked),
                           false);
    else
        showProblem(QString("%1 Not exact: %2").arg(what, QString::fromStdString(report.problems.front())));
}

bool ScampWorkbench::openProgram(const QString& path)
{
    if (!set_) {
        showProblem("Open a kernels file first: a program is traced and verified against its kernels.");
        return false;
    }
    scamp::Program program;
    try {
        program = scamp::parseProgram(readFileBytes(path.toStdString()), path.toStdString());
    } catch (const std::exception& error) {
        showProblem(QString::fromStdString(error.what()));
        return false;
    }
    if (runner_->isRunning())
        abandonSearch();
    showProgram(program);
    if (trace_->problem.empty())
        verifyShown(QString("%1: %2 instructions.").arg(QFileInfo(path).fileName()).arg(program.instructions.size()));
    return true;
}

bool ScampWorkbench::openImage(const QString& path)
{
    QImage picture(path);
    if (picture.isNull()) {
        showProblem(path + ": not a picture this studio can read (PNG, JPEG, BMP, PGM and the other Qt image formats)");
        return false;
    }
    const int side = std::min(picture.width(), picture.height());
    picture = picture.copy((picture.width() - side) / 2, (picture.height() - side) / 2, side, side)
                  .convertToFormat(QImage::Format_Grayscale8);
    if (side > kLargestImage)
        picture = picture.scaled(kLargestImage, kLargestImage, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
    scamp::Plane plane{picture.width(), std::vector<double>(size_t(picture.width()) * size_t(picture.width()))};
    for (int y = 0; y < plane.size; ++y) {
        const uchar* line = picture.constScanLine(plane.size - 1 - y); // plane rows go north from the bottom
        for (int x = 0; x < plane.size; ++x)
            plane.values[size_t(y * plane.size + x)] = line[x];
    }
    image_ = std::move(plane);
    if (program_)
        showProgram(*program_);
    return true;
}

bool ScampWorkbench::saveProgram(const QString& path, scamp::ProgramForm form)
{
    if (!program_ || !set_) {
        showProblem("No program to save: run the search or open a program first.");
        return false;
    }
    std::vector<std::string> outputs;
    for (const scamp::KernelSpec& kernel : set_->kernels)
        outputs.push_back(kernel.outputRegister);
    std::string text;
    try {
        text = scamp::formatProgramAs(form, *program_, {set_->name, set_->inputRegister, outputs, kernels_->depth});
    } catch (const std::exception& error) {
        showProblem(path + ": " + QString::fromStdString(error.what()));
        return false;
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(QByteArray::fromStdString(text)) < 0 || !file.commit()) {
        showProblem(path + ": cannot write (" + file.errorString() + ")");
        return false;
    }
    return true;
}

void ScampWorkbench::run()
{
    if (!set_) {
        showProblem("Open a kernels file first (the SCAMP-5 view's Open kernels, or File > Open SCAMP-5 kernels).");
        return;
    }
    const views::ScampView::SearchSettings settings = view_->settings();
    scamp::SearchOptions options;
    options.allOps = settings.allOps;
    options.seconds = settings.seconds;
    options.threads = settings.threads;
    searchSeconds_ = settings.seconds;
    improvements_ = 0;
    best_.reset();
    lastResult_.reset();
    view_->showMessage({}, false);
    view_->showProgress(0, "searching...");
    view_->setRunning(true);
    clock_.start();
    ticker_->start();
    runner_->start(*set_, *kernels_, options);
}

void ScampWorkbench::stop() { runner_->stop(); }

QString ScampWorkbench::bestText(size_t count, double seconds, quint64 nodes) const
{
    return QString("best %1 instructions at %2 s (%3 nodes)").arg(count).arg(seconds, 0, 'f', 2).arg(nodes);
}

void ScampWorkbench::tick()
{
    const double elapsed = double(clock_.elapsed()) / 1000.0;
    view_->showProgress(elapsed / std::max(searchSeconds_, 1e-3),
                        best_ ? bestText(best_->bestCount, best_->seconds, best_->nodes)
                              : QString("searching... %1 s").arg(elapsed, 0, 'f', 1));
}

void ScampWorkbench::onImproved(const scamp::SearchProgress& progress, const scamp::Program& program)
{
    ++improvements_;
    best_ = progress;
    showProgram(program);
    tick();
}

void ScampWorkbench::onFinished(const scamp::CompileResult& result)
{
    ticker_->stop();
    view_->setRunning(false);
    lastResult_ = result;
    const QString searched = QString("searched %1 nodes in %2 s (%3 nodes/s)")
                                 .arg(result.nodes)
                                 .arg(result.seconds, 0, 'f', 1)
                                 .arg(result.seconds > 0 ? double(result.nodes) / result.seconds : 0.0, 0, 'f', 0);
    if (!result.best) {
        view_->showProgress(1, "no program");
        showProblem(QString("No program found: %1. Allow more time, or more registers in the kernels file.").arg(searched));
        emit searchFinished();
        return;
    }
    view_->showProgress(1, bestText(result.atBest.bestCount, result.atBest.seconds, result.atBest.nodes));
    showProgram(*result.best);
    if (view_->currentStep() == 0) // nobody stepped yet: show what the program computes
        view_->setCurrentStep(int(result.best->instructions.size()));
    verifyShown(QString("Best: %1 instructions, found at %2 s; %3.")
                    .arg(result.best->instructions.size())
                    .arg(result.atBest.seconds, 0, 'f', 2)
                    .arg(searched));
    emit searchFinished();
}

} // namespace tessera::studio
