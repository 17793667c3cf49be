#include "child_process.h"

#include <cstdio>
#include <sys/wait.h>
#include <unistd.h>

namespace tessera::test {

ChildOutcome runInChild(const std::function<void()>& body)
{
    int pipeEnds[2];
    if (pipe(pipeEnds) != 0)
        return {};
    std::fflush(stdout);
    std::fflush(stderr);
    const pid_t child = fork();
    if (child == 0) {
        close(pipeEnds[0]);
        dup2(pipeEnds[1], STDERR_FILENO);
        body();
        std::fflush(stderr);
        _exit(0);
    }
    close(pipeEnds[1]);
    ChildOutcome outcome;
    char chunk[512];
    ssize_t got = 0;
    while ((got = read(pipeEnds[0], chunk, sizeof chunk)) > 0)
        outcome.errorOutput.append(chunk, std::size_t(got));
    close(pipeEnds[0]);
    int status = 0;
    waitpid(child, &status, 0);
    outcome.exitStatus = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return outcome;
}

} // namespace tessera::test
