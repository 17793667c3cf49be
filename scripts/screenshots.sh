#!/usr/bin/env bash
# Takes the README's screenshots of the studio from the real program, offscreen, after a release
# build (bash scripts/run.sh or scripts/test.sh builds one).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$root/build/release"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# Each picture with settings of its own: no recent files or window layout from the machine or
# from the pictures before it.
studio() {
    XDG_CONFIG_HOME="$(mktemp -d -p "$work")" QT_QPA_PLATFORM=offscreen "$build/app/studio/tessera-studio" "$@"
}
"$build/app/cli/tessera" zoo radioml -o "$work/radioml.onnx" > /dev/null
"$build/app/cli/tessera" zoo mobilenet_v1 -o "$work/mobilenet.onnx" > /dev/null
studio --select block3_pw --screenshot "$root/docs/studio-mobilenet.png" \
    "$work/mobilenet.onnx"
studio --compare 160K --screenshot "$root/docs/studio-compare.png" \
    "$work/mobilenet.onnx"
studio --sweep --screenshot "$root/docs/studio-sweep.png" \
    "$work/mobilenet.onnx"
studio --screenshot "$root/docs/studio-radioml.png" "$work/radioml.onnx"
studio --screenshot "$root/docs/studio-mnist.png" \
    "$root/resources/samples/mnist.onnx"
studio --screenshot "$root/docs/studio-scamp.png" \
    "$root/resources/scamp/gauss5x5_3x3.json"
"$build/app/cli/tessera" compile "$root/resources/samples/mnist.onnx" --target nvdla -o "$work/nvdla" > /dev/null 2>&1
studio --screenshot "$root/docs/studio-nvdla.png" \
    "$work/nvdla/model.nvdla"
"$build/app/cli/tessera" zoo lenet5 -o "$work/lenet5.onnx" > /dev/null
printf '{"tessera_project": 1, "model": "%s", "target": "nvdla:nv_full:fp16", "l2_budget": 0}\n' "$work/lenet5.onnx" \
    > "$work/lenet5-nvdla.json"
studio --select c3 --screenshot "$root/docs/studio-nvdla-target.png" \
    "$work/lenet5-nvdla.json"
