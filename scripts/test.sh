#!/usr/bin/env bash
# Sets up the machine, then builds and runs the whole test suite twice: a release build and an
# AddressSanitizer + UndefinedBehaviorSanitizer build. Exits non-zero when anything fails.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/scripts/setup.sh"
jobs="$(nproc)"

build_and_test() {
    local dir="$1"; shift
    echo "== $dir: configure"
    cmake -S "$root" -B "$root/build/$dir" -G Ninja "$@" > "$root/build/$dir.configure.log" 2>&1 \
        || { cat "$root/build/$dir.configure.log"; exit 1; }
    echo "== $dir: build"
    cmake --build "$root/build/$dir" -j "$jobs"
    echo "== $dir: test"
    (cd "$root/build/$dir" && ctest --output-on-failure -j "$jobs")
}

mkdir -p "$root/build"
build_and_test release -DCMAKE_BUILD_TYPE=Release
echo "== benchmarks (release)"
"$root/build/release/bench/bench_import"
"$root/build/release/bench/bench_inspect"
"$root/build/release/bench/bench_planner" 5
"$root/build/release/bench/bench_scamp" 5
"$root/build/release/bench/bench_aie"
"$root/build/release/bench/bench_tiler"
"$root/build/release/bench/bench_gap_generate"
"$root/build/release/bench/bench_gap_compile"
"$root/build/release/bench/bench_nvdla"
"$root/build/release/bench/bench_session"
"$root/build/release/bench/bench_scale" 10000 100000
"$root/build/release/bench/bench_fuzz" 2000
"$root/build/release/bench/bench_studio"
# Line tables (-g1) are all a sanitizer report needs for file and line, and compile and link
# much faster than full debug information.
build_and_test asan -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-g1 -DCMAKE_C_FLAGS_DEBUG=-g1 \
    -DTESSERA_SANITIZE=ON -DTESSERA_BUILD_BENCHMARKS=OFF
echo "== all tests passed (release and asan)"
