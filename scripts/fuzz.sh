#!/usr/bin/env bash
# Builds the `fuzz` preset and runs every libFuzzer target (or those named) for SECONDS each, as
# many at once as there are cores. Corpora live outside the tree (WAVESCOPE_FUZZ_DIR, default
# ~/.cache/wavescope-fuzz) and grow from run to run; each target is seeded from the real files in
# WAVESCOPE_TESTDATA that it reads and from its regression inputs. Prints per target the
# executions, executions per second and findings; a crash input is minimised into
# tests/fuzz/regressions/<target>/, which the ordinary CTest run replays.
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]        e.g. scripts/fuzz.sh 600, scripts/fuzz.sh 60 fuzz_ifwi
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
seconds=${1:-60}
shift || true
data=${WAVESCOPE_TESTDATA:-$root/../shared/data}
work=${WAVESCOPE_FUZZ_DIR:-$HOME/.cache/wavescope-fuzz}
jobs=${FUZZ_JOBS:-$(nproc)}

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for source in tests/fuzz/fuzz_*.cpp; do targets+=("$(basename "$source" .cpp)"); done
fi

cmake --preset fuzz >/dev/null
cmake --build --preset fuzz --target "${targets[@]}"

# The real files a target reads, as seeds.
seed_pattern() {
  case $1 in
    fuzz_code_object) echo '*.elf' ;;
    fuzz_sqtt_decoder) echo 'se*.bin' ;;
    fuzz_pmc_decoder) echo 'pmc_*.bin' ;;
    fuzz_pickle | fuzz_tinygrad_viz) echo '*.pkl' ;;
    fuzz_chrome_trace) echo '*.json' ;;
    fuzz_rgp) echo '*.rgp' ;;
    fuzz_symbolic) echo '*.txt' ;;
    fuzz_rewrite_trace) echo '*rewrites.json' ;;
    fuzz_capture_meta) echo 'meta.json' ;;
    *) echo '' ;;
  esac
}

run_one() {
  local target=$1 corpus=$work/corpus/$1 seeds=$work/seeds/$1 log=$work/logs/$1.log
  mkdir -p "$corpus" "$seeds" "$work/logs" "$work/artifacts"
  local pattern
  pattern=$(seed_pattern "$target")
  # Named after their path, so that the many program.elf and meta.json files are all seeds. The
  # demo data adds formats the corpus has no file of (a rewrite trace JSON).
  if [ -n "$pattern" ]; then
    local root file
    for root in "$data" resources/demo; do
      [ -d "$root" ] || continue
      find "$root" -type f -name "$pattern" | while read -r file; do
        cp -n "$file" "$seeds/$(echo "${file#"$root"/}" | tr / _)"
      done
    done
  fi
  [ -d "tests/fuzz/regressions/$target" ] && cp -n "tests/fuzz/regressions/$target"/* "$seeds/" 2>/dev/null
  "build/fuzz/bin/$target" -max_total_time="$seconds" -print_final_stats=1 -rss_limit_mb=4096 \
    -timeout=20 -artifact_prefix="$work/artifacts/$target-" "$corpus" "$seeds" >"$log" 2>&1 || true
}
# Every target throws wavescope::Error on bad input; with stack-use-after-return detection on,
# ASan scans its fake stack on each throw, which took 60% of fuzz_ifwi's time.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_stack_use_after_return=0}
export -f run_one seed_pattern
export seconds data work

printf '%s\n' "${targets[@]}" | xargs -P "$jobs" -I{} bash -c 'run_one {}'

status=0
printf '%-20s %14s %10s  %s\n' target executions "per s" findings
for target in "${targets[@]}"; do
  log=$work/logs/$target.log
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  elapsed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  findings=()
  for artifact in "$work/artifacts/$target-"*; do
    [ -e "$artifact" ] || continue
    name=$(basename "$artifact")
    mkdir -p "tests/fuzz/regressions/$target"
    # Keep the smallest input that still fails.
    "build/fuzz/bin/$target" -minimize_crash=1 -max_total_time=60 \
      -exact_artifact_path="tests/fuzz/regressions/$target/${name#"$target"-}" "$artifact" \
      >>"$log" 2>&1 || cp "$artifact" "tests/fuzz/regressions/$target/${name#"$target"-}"
    findings+=("tests/fuzz/regressions/$target/${name#"$target"-}")
    rm -f "$artifact"
    status=1
  done
  printf '%-20s %14s %10s  %s\n' "$target" "${runs:-?}" "${elapsed:-?}" "${findings[*]:-none}"
done
echo "logs and corpora: $work"
exit $status
