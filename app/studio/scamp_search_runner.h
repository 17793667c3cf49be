#pragma once
// Runs the SCAMP-5 reverse search off the GUI thread. Improvements arrive on the GUI thread as
// they are found (the search is anytime), then finished(); stop() ends the search early and keeps
// the best program so far (or failed() with the reason). Destroying the runner stops the search and waits for it.
#include "scamp/kernel_set.h"
#include "scamp/reverse_search.h"

#include <QFuture>
#include <QObject>

#include <atomic>
#include <memory>

namespace tessera::studio {

class ScampSearchRunner : public QObject {
    Q_OBJECT

public:
    explicit ScampSearchRunner(QObject* parent = nullptr);
    ~ScampSearchRunner() override;

    // Starts a search; a search still running is stopped first and its results are dropped.
    void start(const scamp::KernelSet& set, const scamp::ApproximatedKernels& kernels, scamp::SearchOptions options);
    void stop();
    // Stops the search and drops whatever it would still report (the kernels changed).
    void abandon();
    bool isRunning() const { return running_; }

signals:
    void improved(const scamp::SearchProgress& progress, const scamp::Program& program);
    void finished(const scamp::CompileResult& result);
    void failed(const QString& message); // the search threw (e.g. out of memory); no result follows

private:
    void waitForWorker();

    QFuture<void> worker_;
    std::shared_ptr<std::atomic<bool>> cancel_;
    quint64 generation_ = 0; // results of a superseded search are dropped
    bool running_ = false;
};

} // namespace tessera::studio
