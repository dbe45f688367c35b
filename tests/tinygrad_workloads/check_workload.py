#!/usr/bin/env python3
"""One tinygrad workload (workloads.py) through wavescope, checked against tinygrad itself.

    TINYGRAD=<checkout> python3 check_workload.py NAME WAVECTL WORK_DIR

tinygrad runs the workload and leaves rewrites.pkl and profile.pkl in WORK_DIR; then

  * `wavectl rewrite-trace contexts --json` must equal the contexts tinygrad's VIZ server lists
    (tinygrad.viz.serve.load_rewrites on the same file);
  * `wavectl profile events --json` must equal `python -m tinygrad.viz.cli --json` (device, name,
    start and duration of every event);
  * `wavectl run --check --json` on the c and cpu targets, with --heuristic and with --noopt, must
    run every kernel (one per kernel context) and agree with the interpreter;
  * `wavectl compile --emit elf` must give one code object per kernel for gfx1100, gfx1201, gfx950.

Prints one line per check and exits 1 when any fails. Without $TINYGRAD it prints
"tinygrad workloads skipped: ..." and exits 0 (ctest shows the test as skipped).
"""

import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def lines(text):
    return [json.loads(s) for s in text.splitlines() if s.strip()]


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def tinygrad_contexts(checkout, pkl):
    sys.path.insert(0, os.path.abspath(checkout))
    from tinygrad.viz.serve import VizData, load_pickle, load_rewrites
    data = VizData(load_pickle(pkl, None))
    load_rewrites(data)
    return [{'name': c['name'],
             'steps': [{'name': s['name'], 'depth': s['depth'], 'match_count': s.get('match_count'),
                        'loc': list(s['loc']) if s.get('loc') else None} for s in c['steps']]}
            for c in data.ctxs]


def close(a, b):
    return abs(a - b) <= 1e-6


def same_event(ours, theirs):
    return (ours.get('device') == theirs.get('device') and ours.get('name') == theirs.get('name')
            and close(ours['st_ms'], theirs['st_ms']) and ('dur_ms' in ours) == ('dur_ms' in theirs)
            and ('dur_ms' not in theirs or close(ours['dur_ms'], theirs['dur_ms'])))


def main():
    if len(sys.argv) != 4:
        print(__doc__.split('\n\n')[1], file=sys.stderr)
        return 2
    name, wavectl, work = sys.argv[1:]
    checkout = os.environ.get('TINYGRAD', '')
    if not checkout:
        print('tinygrad workloads skipped: TINYGRAD is not set; set it to a tinygrad checkout to '
              'run the workloads in tinygrad and check wavescope against it')
        return 0
    made = run([sys.executable, os.path.join(HERE, 'workloads.py'), name, work])
    if made.returncode:
        print(f'tinygrad could not run {name}:\n{made.stderr[-2000:]}')
        return 1
    pkl, profile = os.path.join(work, 'rewrites.pkl'), os.path.join(work, 'profile.pkl')
    failures = []

    def check(what, ok, detail=''):
        print(f"{'ok  ' if ok else 'FAIL'} {what}{': ' + detail if detail and not ok else ''}")
        if not ok:
            failures.append(what)

    expected = tinygrad_contexts(checkout, pkl)
    r = run([wavectl, 'rewrite-trace', 'contexts', pkl, '--json'])
    check(f'rewrite-trace contexts: {len(expected)} contexts as tinygrad VIZ lists them',
          r.returncode == 0 and lines(r.stdout) == expected, r.stderr[-500:])
    kernels = sum(1 for c in expected if any(s['name'] == 'View Base AST' for s in c['steps']))

    ref = run([sys.executable, '-m', 'tinygrad.viz.cli', '--json', '--profile-path', profile,
               '--rewrites-path', pkl], env={**os.environ, 'PYTHONPATH': os.path.abspath(checkout)})
    theirs = lines(ref.stdout) if ref.returncode == 0 else []
    r = run([wavectl, 'profile', 'events', profile, '--json'])
    ours = lines(r.stdout) if r.returncode == 0 else []
    check(f'profile events: {len(theirs)} events as tinygrad viz.cli prints them',
          ref.returncode == 0 and len(theirs) > 0 and len(ours) == len(theirs) and
          all(same_event(a, b) for a, b in zip(ours, theirs)), (ref.stderr + r.stderr)[-500:])

    for target in ('c', 'cpu'):
        for opt in ('--heuristic', '--noopt'):
            r = run([wavectl, 'run', pkl, '--target', target, opt, '--check', '--json', '-q'])
            results = lines(r.stdout) if r.stdout.strip().startswith('{') else []
            bad = [x['kernel'] for x in results if not x.get('ok')]
            check(f'run --target {target} {opt}: {kernels} kernels equal the interpreter',
                  r.returncode == 0 and len(results) == kernels and not bad,
                  f'exit {r.returncode}, {len(results)} results, differing {bad} {r.stderr[-500:]}')

    for target in ('gfx1100', 'gfx1201', 'gfx950'):
        out = os.path.join(work, target)
        r = run([wavectl, 'compile', pkl, '--target', target, '--emit', 'elf', '-o', out, '-q'])
        # one kernel: -o names the file; several: a folder of one file per kernel
        objects = len(os.listdir(out)) if os.path.isdir(out) else int(os.path.isfile(out))
        check(f'compile --target {target}: {kernels} code objects',
              r.returncode == 0 and objects == kernels, f'exit {r.returncode}: {r.stderr[-500:]}')

    print(f'{name}: {kernels} kernels, {len(failures)} checks failed')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
