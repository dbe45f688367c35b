#!/usr/bin/env python3
"""tinygrad's SQTT packet decoder on the SQTT corpus: the peer baseline of bench_sqtt_decode.

Reads every blob the corpus captures list (<arch>/<example>/meta.json, `sqtt[].file`: the blobs
bench_sqtt_decode decodes), then decodes them all with `tinygrad.renderer.amd.sqtt.decode` from
the checkout $TINYGRAD names, pass after pass until at least --seconds of CPU time, counting
packets per type (the work of the benchmark's histogram sink). The figure is bytes over this
process's CPU time (the machine is shared: wall time would measure the neighbours); import and
file reads are not timed. Prints one JSON line:

    {"decoder": "tinygrad", "commit": ..., "bytes": ..., "seconds": ..., "MB/s": ...,
     "packets": ..., "passes": ..., "arch": {"gfx1100": {"bytes", "seconds", "MB/s"}, ...}}

    TINYGRAD=../tinygrad python3 tests/bench/tinygrad_sqtt_baseline.py ../shared/data/sqtt

bench_sqtt_decode runs this itself when TINYGRAD is set and reports x_tinygrad from it.
Exit codes: 0 measured; 3 TINYGRAD unset; 4 its decoder cannot be imported; 5 no blobs found.
"""

import argparse
import collections
import json
import os
import subprocess
import sys
import time

from sqtt_corpus import capture_folders

EXIT_NO_TINYGRAD = 3
EXIT_NO_DECODER = 4
EXIT_NO_CORPUS = 5


def corpus_blobs(corpus):
    """[(arch, bytes)] of every blob of every capture folder, in sorted folder order."""
    out = []
    for arch, _, folder, meta in capture_folders(corpus):
        for b in meta['sqtt']:
            with open(os.path.join(folder, b['file']), 'rb') as f:
                out.append((meta.get('arch', arch), f.read()))
    return out


def checkout_commit(checkout):
    try:
        return subprocess.run(['git', '-C', checkout, 'rev-parse', 'HEAD'], capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('corpus', help='the sqtt corpus folder (../shared/data/sqtt)')
    parser.add_argument('--seconds', type=float, default=2.0,
                        help='decode passes until at least this much CPU time')
    args = parser.parse_args()

    checkout = os.environ.get('TINYGRAD', '')
    if not checkout:
        print('tinygrad_sqtt_baseline: TINYGRAD is not set; set it to a tinygrad checkout '
              '(TINYGRAD=/path/to/tinygrad) to measure its decoder', file=sys.stderr)
        return EXIT_NO_TINYGRAD
    sys.path.insert(0, os.path.abspath(checkout))
    try:
        from tinygrad.renderer.amd import sqtt
        from tinygrad.renderer.amd.sqtt import decode
    except Exception as e:  # any failure of the peer's import is "no decoder here"
        print(f'tinygrad_sqtt_baseline: cannot import tinygrad.renderer.amd.sqtt from '
              f'TINYGRAD={checkout}: {e!r}', file=sys.stderr)
        return EXIT_NO_DECODER
    if not os.path.abspath(sqtt.__file__).startswith(os.path.abspath(checkout) + os.sep):
        print(f'tinygrad_sqtt_baseline: tinygrad was imported from {sqtt.__file__}, not from '
              f'TINYGRAD={checkout}', file=sys.stderr)
        return EXIT_NO_DECODER

    blobs = corpus_blobs(args.corpus) if os.path.isdir(args.corpus) else []
    if not blobs:
        print(f'tinygrad_sqtt_baseline: no SQTT blobs under {args.corpus}', file=sys.stderr)
        return EXIT_NO_CORPUS

    per_arch = collections.defaultdict(lambda: [0, 0.0])  # arch -> [bytes, seconds]
    histogram = collections.Counter()
    passes = 0
    total = 0.0
    while total < args.seconds:
        for arch, data in blobs:
            t0 = time.process_time()
            histogram.update(map(type, decode(data)))
            seconds = time.process_time() - t0
            per_arch[arch][0] += len(data)
            per_arch[arch][1] += seconds
            total += seconds
        passes += 1
    nbytes = sum(b for b, _ in per_arch.values())
    print(json.dumps({
        'decoder': 'tinygrad',
        'commit': checkout_commit(checkout),
        'bytes': nbytes,
        'seconds': round(total, 6),
        'MB/s': round(nbytes / 1e6 / total, 4),
        'packets': sum(histogram.values()),
        'passes': passes,
        'arch': {a: {'bytes': b, 'seconds': round(s, 6), 'MB/s': round(b / 1e6 / max(s, 1e-9), 4)}
                 for a, (b, s) in sorted(per_arch.items())},
    }))
    return 0


if __name__ == '__main__':
    sys.exit(main())
