#pragma once
// What the studio's SCAMP-5 view works on: the open kernels file, the search (run off the GUI
// thread, its progress ticking while it runs), the best program with its trace on an image, and
// the program files the user opens or saves. Requests from the view come here; results go back to
// it. Problems (bad kernels or program files, unreadable images) are shown in the view and leave
// what was open before untouched.
#include "scamp/kernel_set.h"
#include "scamp/program.h"
#include "scamp/program_forms.h"
#include "scamp/program_trace.h"
#include "scamp/reverse_search.h"

#include <QElapsedTimer>
#include <QObject>

#include <memory>
#include <optional>

class QTimer;

namespace tessera::views {
class ScampView;
}

namespace tessera::studio {

class ScampSearchRunner;

class ScampWorkbench : public QObject {
    Q_OBJECT

public:
    // Pictures larger than this are scaled down: every step keeps a plane per register.
    static constexpr int kLargestImage = 128;
    static constexpr int kSampleImage = 64;

    ScampWorkbench(views::ScampView* view, QObject* parent = nullptr);
    ~ScampWorkbench() override;

    // Whether `path` is a JSON object with a "kernels" array (the studio's project files have none).
    static bool isKernelsFile(const QString& path);

    // Each returns false, with the problem shown in the view, when the file cannot be used.
    bool openKernels(const QString& path);
    bool openProgram(const QString& path);
    bool openImage(const QString& path);
    bool saveProgram(const QString& path, scamp::ProgramForm form = scamp::ProgramForm::Text);
    void run();
    void stop();

    const scamp::KernelSet* kernelSet() const { return set_ ? &*set_ : nullptr; }
    const scamp::ApproximatedKernels* kernels() const { return kernels_ ? &*kernels_ : nullptr; }
    const std::optional<scamp::Program>& program() const { return program_; }
    std::shared_ptr<const scamp::ProgramTrace> trace() const { return trace_; }
    const scamp::Plane& image() const { return image_; }
    // Improvements reported by the current or last search.
    int improvements() const { return improvements_; }
    const std::optional<scamp::CompileResult>& lastResult() const { return lastResult_; }
    QString kernelsPath() const { return kernelsPath_; }

signals:
    void kernelsOpened(const QString& path);
    void traceShown();
    void searchFinished();

private:
    void showProblem(const QString& message);
    void abandonSearch();
    void showProgram(const scamp::Program& program);
    void verifyShown(const QString& what);
    void onImproved(const scamp::SearchProgress& progress, const scamp::Program& program);
    void onFinished(const scamp::CompileResult& result);
    void tick();
    QString bestText(size_t count, double seconds, quint64 nodes) const;

    views::ScampView* view_;
    ScampSearchRunner* runner_;
    QTimer* ticker_;
    QElapsedTimer clock_;
    double searchSeconds_ = 0;
    std::optional<scamp::KernelSet> set_;
    std::optional<scamp::ApproximatedKernels> kernels_;
    QString kernelsPath_;
    std::optional<scamp::Program> program_;
    std::shared_ptr<const scamp::ProgramTrace> trace_;
    scamp::Plane image_;
    int improvements_ = 0;
    std::optional<scamp::SearchProgress> best_;
    std::optional<scamp::CompileResult> lastResult_;
};

} // namespace tessera::studio
