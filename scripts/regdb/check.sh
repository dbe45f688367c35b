#!/usr/bin/env bash
# Re-runs the register database generator on the installed linux-source-6.12 and diffs its output
# with the committed tables (libhw/resources/regdb). Exits 77 (a skip) when the package is absent.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
tar=/usr/src/linux-source-6.12.tar.xz
if [ ! -f "$tar" ]; then
  echo "regdb check skipped: $tar not found (apt-get install linux-source-6.12)"
  exit 77
fi
exec python3 "$here/generate.py" --tar "$tar" --out "$here/../../libhw/resources/regdb" --check
