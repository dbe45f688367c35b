#!/usr/bin/env python3
"""tinygrad's Python lowering of its own kernel ASTs: the peer baseline of bench_compile.

For every rewrites.pkl given, takes each kernel context's input graph of its first "View Base
AST" step (the AST tinygrad's codegen received: what wavescope's kernel::tinygrad_kernels reads
from the same file), rebuilt as tinygrad UOps from the pickle's node table, and times with the
checkout $TINYGRAD names:

  * "c":    AST -> C source: full_rewrite_to_sink (every codegen pass, with tinygrad's default
            hand-coded optimizations), ProgramInfo, linearize and render with ClangRenderer
            (CPU:CLANG, the renderer tinygrad's CPU device uses for these kernels). The C
            compiler is not run (wavescope's "c" figure stops at the C source too).
  * "llvm": AST -> AMDGPU LLVM IR: the same with AMDLLVMRenderer for AMD:LLVM:gfx1100.
  * "elf":  "llvm" plus AMDLLVMCompiler.compile (LLVM's AMDGPU back end through libLLVM, in
            process) on that IR: AST -> gfx1100 code object. tinygrad loads the libLLVM that
            $LLVM_PATH names, else the first libLLVM it finds (on Debian that can be LLVM 14,
            which rejects tinygrad's IR): point LLVM_PATH at a recent one (bench_compile sets it
            to LLVM 22's when unset). Absent when compiling fails ("elf_error" says why).

Each kernel is lowered --passes times (after one untimed warm-up pass that also fills Python's
per-node caches; "first_*" is that cold pass); the figure is the median, in this process's CPU
time (the machine is shared). Prints one JSON line:

    {"lowering": "tinygrad", "commit": ..., "passes": N, "kernels": [{"file": ..., "index": i,
     "name": ..., "c_s": ..., "llvm_s": ..., "elf_s": ..., "first_c_s": ...}, ...]}

    TINYGRAD=../tinygrad python3 tests/bench/tinygrad_compile_baseline.py \
        ../shared/data/tinygrad-viz/*/rewrites.pkl

bench_compile runs this itself when TINYGRAD is set and reports x_tinygrad from it.
Exit codes: 0 measured; 3 TINYGRAD unset; 4 tinygrad cannot be imported; 5 no kernels found.
"""

import argparse
import json
import os
import pickle
import re
import statistics
import subprocess
import sys
import time

EXIT_NO_TINYGRAD = 3
EXIT_NO_IMPORT = 4
EXIT_NO_KERNELS = 5

ANSI = re.compile(r'\x1b\[[0-9;]*m')


def checkout_commit(checkout):
    try:
        return subprocess.run(['git', '-C', checkout, 'rev-parse', 'HEAD'], capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None


def kernel_asts(path, UOp):
    """[(name, ast)] of a rewrites.pkl: each context's first "View Base AST" input graph."""
    with open(path, 'rb') as f:
        trace = pickle.load(f)
    fields, memo = trace.uop_fields, {}

    def rebuild(num):
        # iterative: deep graphs would overflow Python's recursion limit
        stack = [num]
        while stack:
            n = stack[-1]
            if n in memo:
                stack.pop()
                continue
            op, dtype, src, arg, *rest = fields[n]
            todo = [s for s in src if s not in memo]
            if todo:
                stack.extend(todo)
                continue
            memo[n] = UOp(op, dtype, tuple(memo[s] for s in src), arg, *rest)
            stack.pop()
        return memo[num]

    out = []
    for key, rewrites in zip(trace.keys, trace.rewrites):
        for r in rewrites:
            if r.name == 'View Base AST':
                name = getattr(key, 'display_name', None) or str(key)
                out.append((ANSI.sub('', name), rebuild(r.sink)))
                break
    return out


def cpu_now():
    return time.process_time()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('pickles', nargs='+', help="tinygrad rewrites.pkl files")
    parser.add_argument('--passes', type=int, default=5, help='timed lowerings per kernel')
    args = parser.parse_args()

    checkout = os.environ.get('TINYGRAD', '')
    if not checkout:
        print('TINYGRAD is not set (a tinygrad checkout)', file=sys.stderr)
        return EXIT_NO_TINYGRAD
    sys.path.insert(0, os.path.abspath(checkout))
    try:
        from tinygrad.codegen import full_rewrite_to_sink, pm_to_program
        from tinygrad.helpers import Target
        from tinygrad.renderer.cstyle import ClangRenderer
        from tinygrad.renderer.llvmir import AMDLLVMRenderer
        from tinygrad.uop.ops import UOp, Ops, PatternMatcher, ProgramInfo, graph_rewrite
    except Exception as e:  # noqa: BLE001 - any import failure means no baseline
        print(f'cannot import tinygrad from {checkout}: {e}', file=sys.stderr)
        return EXIT_NO_IMPORT

    # pm_to_program without its last rule (do_compile): linearize, estimates, render.
    pm_to_source = PatternMatcher(pm_to_program.patterns[:4])

    def to_source(ast, ren):
        sink = full_rewrite_to_sink(ast, ren, optimize=ast.tag is None)
        prg = UOp(Ops.PROGRAM, src=(sink,), arg=ProgramInfo.from_sink(sink, ren.target))
        prg = graph_rewrite(prg, pm_to_source, ctx=ren, name="linearize/render")
        return prg.src[-1].arg

    clang = ClangRenderer(Target("CPU", "CLANG", "x86_64,native"))
    amd = AMDLLVMRenderer(Target("AMD", "LLVM", "gfx1100"))
    elf_error = None
    try:
        compiler = amd.compiler
    except Exception as e:  # noqa: BLE001
        compiler, elf_error = None, str(e)

    def timed(fn):
        t0 = cpu_now()
        out = fn()
        return cpu_now() - t0, out

    kernels = []
    for path in args.pickles:
        for index, (name, ast) in enumerate(kernel_asts(path, UOp)):
            rec = {'file': path, 'index': index, 'name': name}
            rec['first_c_s'], src = timed(lambda: to_source(ast, clang))
            rec['c_bytes'] = len(src)
            rec['first_llvm_s'], ir = timed(lambda: to_source(ast, amd))
            c_t, llvm_t, elf_t = [], [], []
            for _ in range(args.passes):
                c_t.append(timed(lambda: to_source(ast, clang))[0])
                llvm_t.append(timed(lambda: to_source(ast, amd))[0])
            rec['c_s'], rec['llvm_s'] = statistics.median(c_t), statistics.median(llvm_t)
            if compiler is not None:
                try:
                    timed(lambda: compiler.compile(ir))  # warm-up
                    for _ in range(args.passes):
                        t, ir2 = timed(lambda: to_source(ast, amd))
                        t2, lib = timed(lambda: compiler.compile(ir2))
                        elf_t.append(t + t2)
                    rec['elf_s'], rec['elf_bytes'] = statistics.median(elf_t), len(lib)
                except Exception as e:  # noqa: BLE001
                    rec['elf_error'] = str(e).splitlines()[0] if str(e) else type(e).__name__
            kernels.append(rec)
    if not kernels:
        print('no kernels found in ' + ', '.join(args.pickles), file=sys.stderr)
        return EXIT_NO_KERNELS
    out = {'lowering': 'tinygrad', 'commit': checkout_commit(checkout), 'passes': args.passes,
           'kernels': kernels}
    if elf_error:
        out['elf_error'] = elf_error
    print(json.dumps(out))
    return 0


if __name__ == '__main__':
    sys.exit(main())
