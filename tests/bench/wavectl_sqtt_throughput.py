#!/usr/bin/env python3
"""Whole-process throughput of `wavectl sqtt stats|waves` on the SQTT corpus, against a baseline
measured in the same run.

Every corpus capture is turned into a capture folder (in a temp dir) that holds a copy of each of
its files, as a user's capture folder holds real files (not links into another tree), and whose
meta.json lists its blobs over and over (each entry as the corpus' meta.json has it) until the
blobs listed add up to >= --mb MB (default 50, issue 11's size), so process start does not
dominate; each listing is read from its file again. Each verb then runs once per folder, one
process per folder; the figure is the blob bytes over the child's CPU time (user + sys: the
machine is shared, wall time would measure the neighbours), parsing meta.json and printing the
JSON to /dev/null included. The baseline is `cat` of the same blob list to /dev/null (the bytes
read, nothing decoded; one cat per 2,000 files), also in CPU time.

    python3 tests/bench/wavectl_sqtt_throughput.py build/default/bin/wavectl ../shared/data/sqtt \
        [--baseline OTHER_WAVECTL]

Prints MB/s per verb, x_cat (over the cat baseline), x_goal (over issue 11's 200 MB/s: >= 1
meets it) and the share of process start; and `wavectl --version`'s CPU time against its 20 ms
goal; with --baseline, the same for the other binary and x_baseline (ours over its figure).
Figures: docs/sqtt.md "Performance".
"""

import argparse
import json
import math
import os
import resource
import shutil
import subprocess
import sys
import tempfile

from sqtt_corpus import capture_folders

# Issue 11's goals: both verbs at >= 200 MB/s on the corpus repeated to >= 50 MB; process start
# (`wavectl --version`) under 20 ms of CPU.
GOAL_MB_S = 200.0
GOAL_MB = 50.0
GOAL_START_MS = 20.0


def make_folders(corpus, root, target_mb):
    """One repeated capture folder per corpus capture: [(folder, bytes, [blob paths])]."""
    out = []
    for arch, example, src, meta in capture_folders(corpus):
        dst = os.path.join(root, f'{arch}_{example}')
        os.makedirs(dst)
        for name in os.listdir(src):
            if name != 'meta.json':
                shutil.copyfile(os.path.join(src, name), os.path.join(dst, name))
        size = sum(b['size'] for b in meta['sqtt'])
        repeats = max(1, math.ceil(target_mb * 1e6 / size))
        blobs = []
        for _ in range(repeats):
            for b in meta['sqtt']:
                blobs.append(dict(b, order=len(blobs)))
        meta['sqtt'] = blobs
        with open(os.path.join(dst, 'meta.json'), 'w') as f:
            json.dump(meta, f)
        out.append((dst, size * repeats, [os.path.join(dst, b['file']) for b in blobs]))
    return out


def cpu_seconds(argv):
    """CPU seconds (user + sys) of one child run of `argv`, output discarded."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, stdout=subprocess.DEVNULL, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('wavectl')
    parser.add_argument('corpus', help='the sqtt corpus folder (../shared/data/sqtt)')
    parser.add_argument('--mb', type=float, default=GOAL_MB, help='MB per repeated capture folder')
    parser.add_argument('--runs', type=int, default=3, help='best of this many runs per figure')
    parser.add_argument('--baseline', metavar='WAVECTL',
                        help='another wavectl (e.g. main\'s) measured on the same folders in the '
                             'same run, runs interleaved: x_baseline is ours over its figure')
    args = parser.parse_args()
    binaries = [('', args.wavectl)] + ([('baseline ', args.baseline)] if args.baseline else [])
    with tempfile.TemporaryDirectory(prefix='wavectl-sqtt-bench-') as root:
        folders = make_folders(args.corpus, root, args.mb)
        total = sum(b for _, b, _ in folders)
        seconds = {}
        for folder, _, blobs in folders:
            # One cat per 2,000 files (a 50 MB list is longer than a command line).
            seconds['cat'] = seconds.get('cat', 0.0) + sum(
                min(cpu_seconds(['cat'] + blobs[i:i + 2000]) for _ in range(args.runs))
                for i in range(0, len(blobs), 2000))
            for verb in ('stats', 'waves'):
                best = {}
                for _ in range(args.runs):
                    for label, binary in binaries:
                        t = cpu_seconds([binary, 'sqtt', verb, folder, '--json'])
                        best[label] = min(best.get(label, t), t)
                for label, t in best.items():
                    seconds[label + verb] = seconds.get(label + verb, 0.0) + t
        figures = {k: total / 1e6 / max(v, 1e-9) for k, v in seconds.items()}
        version = {label: min(cpu_seconds([binary, '--version']) for _ in range(10))
                   for label, binary in binaries}
    print(f'{len(folders)} capture folders, {total / 1e6:.1f} MB of blobs in all'
          + f', >= {args.mb:.0f} MB per folder and process'
          + ('' if args.mb >= GOAL_MB else f' (under the goal\'s {GOAL_MB:.0f} MB)'))
    print(f'baseline cat:        {figures["cat"]:9.1f} MB/s (CPU)')
    for label, _ in binaries:
        for verb in ('stats', 'waves'):
            # x_goal: the figure over issue 11's goal (>= 1 meets it); start: the share of the CPU
            # time that is process start (one --version per folder).
            rate = figures[label + verb]
            start = len(folders) * version[label] / (total / 1e6 / rate)
            line = (f'{label}wavectl sqtt {verb:6s}: {rate:9.1f} MB/s (CPU), '
                    f'x_cat {rate / figures["cat"]:.3f}, x_goal {rate / GOAL_MB_S:.3f}, '
                    f'start {start:.0%}')
            if label == '' and args.baseline:
                line += f', x_baseline {rate / figures["baseline " + verb]:.3f}'
            print(line)
    for label, _ in binaries:
        print(f'{label}wavectl --version:   {version[label] * 1e3:9.1f} ms CPU (best of 10), '
              f'x_goal {version[label] * 1e3 / GOAL_START_MS:.3f} (<= 1 meets it)')
    return 0


if __name__ == '__main__':
    sys.exit(main())
