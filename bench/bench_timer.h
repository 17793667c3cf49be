#pragma once
// Timing helper for the benchmark programs: the median of several runs of a callable, in ms.
#include <algorithm>
#include <chrono>
#include <vector>

namespace tessera::bench {

template <class F> double medianMilliseconds(int runs, F&& work)
{
    std::vector<double> times;
    for (int k = 0; k < runs; ++k) {
        const auto start = std::chrono::steady_clock::now();
        work();
        const auto stop = std::chrono::steady_clock::now();
        times.push_back(std::chrono::duration<double, std::milli>(stop - start).count());
    }
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

} // namespace tessera::bench
