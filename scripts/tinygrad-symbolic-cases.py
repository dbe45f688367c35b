#!/usr/bin/env python3
"""Turns tinygrad's own symbolic tests into corpus-style cases (../shared/data/symbolic schema), to
measure wavescope's simplifier beyond dev.jsonl. A measurement aid, not part of the test suite.

usage: tinygrad-symbolic-cases.py TINYGRAD_CHECKOUT OUT.jsonl [--exclude dev.jsonl]

It runs test/null/test_uop_symbolic.py, test_symbolic_failures.py and test_simplify_valid_idx.py
of the checkout (z3 and numpy are stubbed: only the expressions are wanted), records every
expression a test simplifies (helper_test_variable and UOp.simplify calls), and writes each as a
case whose reference is tinygrad's full matcher (sym + pm_cast_weak) run on it, as the corpus
README describes. Test functions named in --exclude's ids are left out. Then:

  wavectl simplify --cases OUT.jsonl --json -q > cand.jsonl
  python3 ../shared/tools/symbolic_eval.py cand.jsonl OUT.jsonl --quiet
"""
import sys, os, types, json, unittest, importlib.util, argparse, collections

ap = argparse.ArgumentParser()
ap.add_argument("tinygrad"); ap.add_argument("out"); ap.add_argument("--exclude")
args = ap.parse_args()
sys.path[:0] = [args.tinygrad, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../shared/tools")]

class _Anything:  # stands in for z3 and numpy objects the tests touch at import time
  def __getattr__(self, name): return _Anything()
  def __call__(self, *a, **k): return _Anything()
for name in ("z3", "numpy"):
  stub = types.ModuleType(name); stub.__getattr__ = lambda n: _Anything(); sys.modules[name] = stub
sys.modules["z3"].get_version = lambda: (99, 0, 0, 0)

from tinygrad.uop.ops import UOp, Ops, graph_rewrite
from tinygrad.dtype import dtypes, Invalid
from tinygrad.uop.symbolic import sym
from tinygrad.uop.weak import pm_cast_weak
import symbolic_eval

SIZED = {dtypes.int8: "int8", dtypes.int16: "int16", dtypes.int32: "int32", dtypes.int64: "int64",
         dtypes.uint8: "uint8", dtypes.uint16: "uint16", dtypes.uint32: "uint32", dtypes.uint64: "uint64"}
BINARY = {Ops.ADD: "+", Ops.MUL: "*", Ops.FLOORDIV: "//", Ops.FLOORMOD: "%", Ops.CMPLT: "<",
          Ops.CMPNE: "!=", Ops.CMPEQ: "==", Ops.AND: "&", Ops.OR: "|", Ops.XOR: "^", Ops.SHL: "<<",
          Ops.SHR: ">>"}
CALLS = {Ops.MAX: "max", Ops.WHERE: "where", Ops.CDIV: "cdiv", Ops.CMOD: "cmod", Ops.TRUNC: "trunc"}

class Unsupported(Exception): pass

def dtype_name(d): return SIZED.get(d, "bool" if d == dtypes.bool else "index")

def render(u, case):
  """The expression in the corpus syntax (fully parenthesised); declares its variables in case."""
  if u.op is Ops.CONST:
    if u.arg is Invalid: return "invalid"
    if isinstance(u.arg, bool): return "true" if u.arg else "false"
    if isinstance(u.arg, float): raise Unsupported("float")
    return str(u.arg)
  if u.op in (Ops.PARAM, Ops.SPECIAL, Ops.RANGE, Ops.BUFFER):
    name = u.render()
    if not name.isidentifier(): raise Unsupported("unnamed leaf")
    case["vars"][name] = [int(u.vmin), int(u.vmax)]
    if u.dtype in SIZED: case["var_dtypes"][name] = SIZED[u.dtype]
    if u.op is Ops.RANGE and u.src[0].op is not Ops.CONST:
      case["constraints"].append(f"{name}<{render(u.src[0], case)}")
    return name
  if u.op in BINARY: return f"({render(u.src[0], case)}{BINARY[u.op]}{render(u.src[1], case)})"
  if u.op is Ops.NEG: return f"(-{render(u.src[0], case)})"
  if u.op in CALLS: return f"{CALLS[u.op]}({', '.join(render(s, case) for s in u.src)})"
  if u.op is Ops.CAST: return f"{dtype_name(u.dtype)}({render(u.src[0], case)})"
  raise Unsupported(u.op.name)

cases, skipped, per_test, seen = [], collections.Counter(), collections.Counter(), set()
current = [None]

def record(v):
  if current[0] is None or v.key in seen: return
  seen.add(v.key)
  test, current[0] = current[0], None  # simplify() calls inside the reference run are not tests'
  try: reference = graph_rewrite(v, sym + pm_cast_weak, name="reference")
  finally: current[0] = test
  case = {"vars": {}, "var_dtypes": {}, "constraints": []}
  try:
    expr, simplified = render(v, case), render(reference, {"vars": {}, "var_dtypes": {}, "constraints": []})
  except Unsupported as e:
    skipped[str(e)] += 1; return
  if not case["vars"] and "invalid" not in expr: skipped["constant"] += 1; return
  per_test[current[0]] += 1
  bounded = "invalid" not in simplified
  lo, hi = reference.vmin, reference.vmax
  cases.append({"id": f"{current[0]}/{per_test[current[0]]}", **case, "expr": expr,
                "tinygrad_simplified": simplified,
                "tinygrad_ops": symbolic_eval.count_ops(symbolic_eval.parse(simplified)),
                "expected_min": int(lo) if bounded and isinstance(lo, int) else None,
                "expected_max": int(hi) if bounded and isinstance(hi, int) else None,
                "result_dtype": dtype_name(reference.dtype), "family": "tinygrad-tests"})

plain_simplify = UOp.simplify
def simplify(self, *a, **k):
  record(self)
  return plain_simplify(self, *a, **k)
UOp.simplify = simplify

sys.path.insert(0, args.tinygrad)  # the tests import test.helpers and test.null.*
for module in ("test_uop_symbolic", "test_symbolic_failures", "test_simplify_valid_idx"):
  spec = importlib.util.spec_from_file_location(module, os.path.join(args.tinygrad, "test/null", module + ".py"))
  m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
  if hasattr(m, "TestSymbolic"):  # its helper simplifies with graph_rewrite, not UOp.simplify
    m.TestSymbolic.helper_test_variable = lambda self, v, *rest, **k: record(v)
  for cls in (c for c in vars(m).values() if isinstance(c, type) and issubclass(c, unittest.TestCase)):
    for test in unittest.defaultTestLoader.loadTestsFromTestCase(cls):
      current[0] = f"{module}/{test.id().split('.', 1)[1]}"
      test.run(unittest.TestResult())
      current[0] = None

excluded = set()
if args.exclude:
  excluded = {json.loads(l)["id"].rsplit("/", 1)[0] for l in open(args.exclude) if l.strip()}
kept = [c for c in cases if c["id"].rsplit("/", 1)[0] not in excluded]
with open(args.out, "w") as f:
  for c in kept: f.write(json.dumps(c) + "\n")
print(f"{len(cases)} cases recorded, {len(kept)} written; skipped: {dict(skipped)}", file=sys.stderr)
