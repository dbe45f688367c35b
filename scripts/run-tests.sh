#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine, builds everything and runs the whole test suite.
# The real corpus is read from $WAVESCOPE_TESTDATA (default ../shared/data); with CI=true a missing
# corpus fails the tests instead of skipping them.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
cmake --preset default
cmake --build --preset default
ctest --preset default
