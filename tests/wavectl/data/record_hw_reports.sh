#!/usr/bin/env bash
# Re-records hw_reports.transcript with a wavectl binary, after an intended change to what the hw
# commands print: every "$ ARGS" line of the transcript is run again in a fresh scratch folder
# (@DIR@, simulator root @DIR@/sim) and its stdout (and "[exit N]" when it failed) recorded.
#   tests/wavectl/data/record_hw_reports.sh build/default/bin/wavectl
set -euo pipefail
wavectl=$(realpath "$1")
transcript=$(dirname "$0")/hw_reports.transcript
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
grep '^\$ ' "$transcript" | cut -c3- > "$dir.commands"
while IFS= read -r line; do
  args=${line//@DIR@/$dir}
  echo "\$ $line"
  # shellcheck disable=SC2086  # the arguments are words without spaces
  out=$(WAVESCOPE_SIM_ROOT="$dir/sim" "$wavectl" -q $args 2>/dev/null; echo "[exit $?]")
  printf '%s\n' "${out//$dir/@DIR@}" | sed '${/^\[exit 0\]$/d}'
done < "$dir.commands" > "$transcript.new"
rm -f "$dir.commands"
mv "$transcript.new" "$transcript"
