#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine, builds wavescope and launches the app on its embedded demo
# data. Extra arguments go to the app (e.g. a capture folder, or --screenshot out.png --view cfg).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
cmake --preset default
cmake --build --preset default --target wavescope
exec ./build/default/bin/wavescope "$@"
