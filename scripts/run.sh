#!/usr/bin/env bash
# Sets up the machine, builds Tessera and runs the main job on the bundled sample model:
# the studio when a display is available, otherwise the command-line flow (inspect the model, run
# it with the reference interpreter on the bundled input, plan its memory on GAP8, compile it into a
# GAP project and run the project's host emulation build on the same input).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/scripts/setup.sh"
build="$root/build/release"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release > "$root/build-configure.log" 2>&1 \
    || { cat "$root/build-configure.log"; exit 1; }
rm -f "$root/build-configure.log"
cmake --build "$build" -j "$(nproc)"

sample="$root/resources/samples/mnist.onnx"
studio="$build/app/studio/tessera-studio"
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && [ -x "$studio" ]; then
    exec "$studio" "$sample"
fi

tessera="$build/app/cli/tessera"
out="$root/build/sample-run"
echo "== tessera inspect $sample"
"$tessera" inspect "$sample"
echo "== tessera run $sample"
"$tessera" run "$sample" -i "$root/resources/samples/mnist_input_0.pb" -o "$out"
echo "== scores written to $out/output_0.pb"
echo "== tessera plan --model $sample --target gap8 --l2 65536"
"$tessera" plan --model "$sample" --target gap8 --l2 65536
echo "== tessera compile $sample --target gap8 -o $root/build/sample-gap"
"$tessera" compile "$sample" --target gap8 -o "$root/build/sample-gap"
make -s -C "$root/build/sample-gap" emul
echo "== the generated GAP code, emulated on the host"
"$root/build/sample-gap/emul_run" "$root/resources/samples/mnist_input_0.pb" "$root/build/sample-gap/result"
echo "== scores written to $root/build/sample-gap/result/output_0.pb"
