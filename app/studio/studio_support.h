#pragma once
// What the studio window's files share: running work off the GUI thread, and byte counts as text.
#include <QFutureWatcher>
#include <QObject>
#include <QtGlobal>
#include <QString>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <exception>
#include <new>
#include <utility>

namespace tessera::studio {

// What went wrong in a job that threw: the exception's text, named when it carries none.
inline QString describeCurrentException()
{
    try {
        throw;
    } catch (const std::bad_alloc&) {
        return "out of memory: the work needs more memory than this machine could give it";
    } catch (const std::exception& error) {
        return QString::fromStdString(error.what());
    } catch (...) {
        return "an unexpected failure (an exception of unknown type)";
    }
}

// Runs `job` on the thread pool and calls `done` with its result on the GUI thread. `Result` has a
// QString `error`: a job that throws (jobs catch what they expect; this is for what they do not)
// gives a default Result with the exception's text there, instead of ending the studio when the
// exception crosses back into the event loop.
template <class Result, class Job, class Done> void runInBackground(QObject* owner, Job job, Done done)
{
    auto* watcher = new QFutureWatcher<Result>(owner);
    QObject::connect(watcher, &QFutureWatcher<Result>::finished, owner, [watcher, done]() {
        watcher->deleteLater();
        try {
            done(watcher->result());
        } catch (...) {
            qCritical("tessera-studio: showing a result failed: %s", qPrintable(describeCurrentException()));
        }
    });
    watcher->setFuture(QtConcurrent::run([job = std::move(job)]() mutable -> Result {
        try {
            return job();
        } catch (...) {
            Result failed{};
            failed.error = describeCurrentException();
            return failed;
        }
    }));
}

// Drops `owned` (and what only it keeps alive) on the thread pool: freeing a large model's session
// (its quantized constants, kept plans and memo) takes tens of milliseconds the GUI thread does
// not have.
template <class... Owned> void releaseInBackground(Owned&&... owned)
{
    QThreadPool::globalInstance()->start([... held = std::move(owned)]() mutable { ((void)held, ...); });
}

inline QString kib(qint64 bytes) { return QString::number(double(bytes) / 1024.0, 'f', 1) + " KiB"; }

} // namespace tessera::studio
