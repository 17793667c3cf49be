#include "memory/large_stack.h"

#include <cerrno>
#include <exception>
#include <pthread.h>
#include <system_error>

namespace tessera {

namespace {

struct Job {
    const std::function<void()>* work;
    std::exception_ptr failure;
};

void* runJob(void* argument)
{
    Job& job = *static_cast<Job*>(argument);
    try {
        (*job.work)();
    } catch (...) {
        job.failure = std::current_exception();
    }
    return nullptr;
}

}  // namespace

void runWithStack(std::size_t bytes, const std::function<void()>& work)
{
    pthread_attr_t attributes;
    if (const int error = pthread_attr_init(&attributes); error != 0)
        throw std::system_error(error, std::generic_category(), "pthread_attr_init");
    // The pages are reserved, not committed: only the depth actually reached costs memory.
    int error = pthread_attr_setstacksize(&attributes, bytes);
    Job job{&work, nullptr};
    pthread_t thread;
    if (error == 0)
        error = pthread_create(&thread, &attributes, runJob, &job);
    pthread_attr_destroy(&attributes);
    if (error != 0)
        throw std::system_error(error, std::generic_category(), "cannot start the planner's search thread");
    pthread_join(thread, nullptr);
    if (job.failure)
        std::rethrow_exception(job.failure);
}

}  // namespace tessera
