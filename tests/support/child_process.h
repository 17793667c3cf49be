#pragma once
// Runs code that ends the process (the model API exits on errors) in a forked child.
#include <functional>
#include <string>

namespace tessera::test {

struct ChildOutcome {
    int exitStatus = -1;
    std::string errorOutput;
};

// Runs `body` in a forked child and collects its exit status and stderr.
ChildOutcome runInChild(const std::function<void()>& body);

} // namespace tessera::test
