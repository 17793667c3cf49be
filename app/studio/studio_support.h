#pragma once
// What the studio window's files share: running work off the GUI thread, and byte counts as text.
#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <utility>

namespace tessera::studio {

// Runs `job` on the thread pool and calls `done` with its result on the GUI thread.
template <class Result, class Job, class Done> void runInBackground(QObject* owner, Job job, Done done)
{
    auto* watcher = new QFutureWatcher<Result>(owner);
    QObject::connect(watcher, &QFutureWatcher<Result>::finished, owner, [watcher, done]() {
        done(watcher->result());
        watcher->deleteLater();
    });
    watcher->setFuture(QtConcurrent::run(std::move(job)));
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
