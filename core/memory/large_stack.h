#pragma once
// Running a recursion whose depth follows the input on a stack sized for it. The exact planner
// recurses once per buffer placed; the stack of whichever thread calls it (8 MiB for a program's
// main thread, often less for pool threads) is not the planner's to choose, so the search runs on
// a thread of its own with a stack that fits its depth.
#include <cstddef>
#include <functional>

namespace tessera {

// Runs `work` on a new thread whose stack holds at least `bytes`, and waits for it to end. An
// exception `work` throws is thrown again in the caller. Throws std::system_error when no such
// thread can be made (the address space is exhausted).
void runWithStack(std::size_t bytes, const std::function<void()>& work);

}  // namespace tessera
