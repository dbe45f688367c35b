#!/usr/bin/env bash
# Installs every Debian 12 package wavescope needs to build, test and run. Idempotent: packages already
# present are left alone, so the README and .ci/run can both call it unconditionally.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git python3
  llvm-22-dev lld-22 liblld-22-dev llvm-22-tools clang-22 libclang-rt-22-dev libzstd-dev zlib1g-dev
  qt6-base-dev qt6-base-dev-tools libqt6opengl6-dev qt6-charts-dev qt6-svg-dev libgl-dev
  libusb-1.0-0-dev libgraphviz-dev graphviz libssl-dev
  catch2 libbenchmark-dev nlohmann-json3-dev libsimdjson-dev libcli11-dev libfmt-dev
  xvfb xauth fonts-dejavu-core
  # 153 MB, for the register database's generator check and header cross-checks (about 45 s of
  # tests); without it those tests skip.
  linux-source-6.12
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if ((${#missing[@]} == 0)); then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
echo "install-deps: installing ${missing[*]}"
"${sudo_cmd[@]}" apt-get update -q
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
