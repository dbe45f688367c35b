#!/usr/bin/env python3
"""tinygrad's CPU backend on matmul 512^2, softmax and conv2d: the peer baseline of bench_compile's
BM_HostGflops.

Runs, with the checkout $TINYGRAD names, on tinygrad's CPU device (DEV=CPU: clang-compiled C,
ClangRenderer, tinygrad's default hand-coded optimizations) and NUM_CPU_THREADS=1 (wavescope's
host kernels run on one thread), on float32 inputs from Tensor.rand:

  * matmul:  (512, 512) @ (512, 512);                 flops 2*M*N*K
  * softmax: (256, 1024).softmax(-1), the last axis;  flops 5*M*N (max, subtract, exp, sum,
             divide: one each per element, the same nominal count on both sides)
  * conv2d:  (1, 32, 64, 64) input, (32, 32, 3, 3) weights, padding 1, no bias;
             flops 2*O*H*W*C*KH*KW

Each op is wrapped in a TinyJit function (so a call replays the compiled kernels without
scheduling) and warmed up (compiled) first; then called --reps times, each timed in wall-clock
seconds around the call and Device.synchronize(): kernel execution plus the JIT's replay
overhead (microseconds), no compilation, no copies to or from numpy. The figure is the median;
beside it the median process CPU time of the same calls (all of the process's threads), the
fairer figure on a machine shared with other work.
tinygrad's own op count (GlobalCounters.global_ops of one call) is reported beside ours.
Prints one JSON line:

    {"backend": "tinygrad-CPU", "commit": ..., "kernels": {"matmul": {"seconds", "flops",
     "GFLOP/s", "cpu_seconds", "cpu_GFLOP/s", "tinygrad_ops", "kernels"}, ...}}

    TINYGRAD=../tinygrad python3 tests/bench/tinygrad_cpu_baseline.py

Exit codes: 0 measured; 3 TINYGRAD unset; 4 tinygrad cannot be imported.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

EXIT_NO_TINYGRAD = 3
EXIT_NO_IMPORT = 4

SHAPES = {
    'matmul': {'M': 512, 'N': 512, 'K': 512},
    'softmax': {'M': 256, 'N': 1024},
    'conv2d': {'C': 32, 'H': 64, 'W': 64, 'O': 32, 'KH': 3, 'KW': 3},
}


def flops(name):
    s = SHAPES[name]
    if name == 'matmul':
        return 2 * s['M'] * s['N'] * s['K']
    if name == 'softmax':
        return 5 * s['M'] * s['N']
    return 2 * s['O'] * s['H'] * s['W'] * s['C'] * s['KH'] * s['KW']


def checkout_commit(checkout):
    try:
        return subprocess.run(['git', '-C', checkout, 'rev-parse', 'HEAD'], capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--reps', type=int, default=10, help='timed calls per op')
    args = parser.parse_args()

    checkout = os.environ.get('TINYGRAD', '')
    if not checkout:
        print('TINYGRAD is not set (a tinygrad checkout)', file=sys.stderr)
        return EXIT_NO_TINYGRAD
    os.environ['DEV'] = 'CPU'
    os.environ.setdefault('NUM_CPU_THREADS', '1')
    sys.path.insert(0, os.path.abspath(checkout))
    try:
        from tinygrad import Device, Tensor, TinyJit
        from tinygrad.helpers import GlobalCounters
    except Exception as e:  # noqa: BLE001 - any import failure means no baseline
        print(f'cannot import tinygrad from {checkout}: {e}', file=sys.stderr)
        return EXIT_NO_IMPORT

    m, sm, cv = SHAPES['matmul'], SHAPES['softmax'], SHAPES['conv2d']
    inputs = {
        'matmul': (Tensor.rand(m['M'], m['K']), Tensor.rand(m['K'], m['N'])),
        'softmax': (Tensor.rand(sm['M'], sm['N']),),
        'conv2d': (Tensor.rand(1, cv['C'], cv['H'], cv['W']),
                   Tensor.rand(cv['O'], cv['C'], cv['KH'], cv['KW'])),
    }
    ops = {
        'matmul': lambda a, b: (a @ b).realize(),
        'softmax': lambda x: x.softmax(-1).realize(),
        'conv2d': lambda x, w: x.conv2d(w, padding=1).realize(),
    }
    dev = Device['CPU']
    out = {}
    for name, fn in ops.items():
        ins = [t.realize() for t in inputs[name]]
        jit = TinyJit(fn)
        for _ in range(3):  # TinyJit captures on the second call
            jit(*ins)
        dev.synchronize()
        GlobalCounters.reset()
        jit(*ins)
        dev.synchronize()
        tg_ops, kernels = GlobalCounters.global_ops, GlobalCounters.kernel_count
        times, cpu_times = [], []
        for _ in range(args.reps):
            t0, c0 = time.perf_counter(), time.process_time()
            jit(*ins)
            dev.synchronize()
            times.append(time.perf_counter() - t0)
            cpu_times.append(time.process_time() - c0)
        sec, cpu_sec = statistics.median(times), statistics.median(cpu_times)
        out[name] = {'seconds': sec, 'flops': flops(name), 'GFLOP/s': flops(name) / sec / 1e9,
                     'cpu_seconds': cpu_sec, 'cpu_GFLOP/s': flops(name) / cpu_sec / 1e9,
                     'tinygrad_ops': int(tg_ops), 'kernels': int(kernels), 'shape': SHAPES[name]}
    print(json.dumps({'backend': 'tinygrad-CPU', 'commit': checkout_commit(checkout),
                      'threads': int(os.environ['NUM_CPU_THREADS']), 'reps': args.reps,
                      'kernels': out}))
    return 0


if __name__ == '__main__':
    sys.exit(main())
