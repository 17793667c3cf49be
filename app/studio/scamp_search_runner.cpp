#include "scamp_search_runner.h"

#include "studio_support.h"

#include <QMetaObject>
#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>

namespace tessera::studio {

ScampSearchRunner::ScampSearchRunner(QObject* parent) : QObject(parent) {}

ScampSearchRunner::~ScampSearchRunner()
{
    stop();
    waitForWorker();
}

void ScampSearchRunner::waitForWorker()
{
    if (worker_.isValid())
        worker_.waitForFinished();
}

void ScampSearchRunner::stop()
{
    if (cancel_)
        cancel_->store(true);
}

void ScampSearchRunner::abandon()
{
    stop();
    ++generation_;
    running_ = false;
}

void ScampSearchRunner::start(const scamp::KernelSet& set, const scamp::ApproximatedKernels& kernels,
                              scamp::SearchOptions options)
{
    stop();
    waitForWorker();
    const quint64 generation = ++generation_;
    cancel_ = std::make_shared<std::atomic<bool>>(false);
    running_ = true;
    QPointer<ScampSearchRunner> self(this);
    // Hands `deliver` to the GUI thread, where it runs only if this search is still the current one.
    auto post = [self, generation](auto deliver) {
        QMetaObject::invokeMethod(
            self.data(),
            [self, generation, deliver]() {
                if (self && self->generation_ == generation)
                    deliver(*self);
            },
            Qt::QueuedConnection);
    };
    worker_ = QtConcurrent::run([set, kernels, options, cancel = cancel_, post]() mutable {
        options.cancel = cancel.get();
        try {
            scamp::CompileResult result = scamp::compileKernels(
                set, kernels, options, [&post](const scamp::SearchProgress& progress, const scamp::Program& program) {
                    post([progress, program](ScampSearchRunner& runner) { emit runner.improved(progress, program); });
                });
            post([result = std::move(result)](ScampSearchRunner& runner) {
                runner.running_ = false;
                emit runner.finished(result);
            });
        } catch (...) {
            post([message = describeCurrentException()](ScampSearchRunner& runner) {
                runner.running_ = false;
                emit runner.failed(message);
            });
        }
    });
}

} // namespace tessera::studio
