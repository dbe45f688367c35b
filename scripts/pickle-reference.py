#!/usr/bin/env python3
"""Writes the reference digests the pickle reader's tests compare against.

For each pickle given, Python's own unpickler (with every class replaced by a recorder, so nothing
of the pickled program runs or is needed) rebuilds the object tree, and the tree is written in
the canonical text form that tests/base/pickle_dump.cpp also writes. The JSON printed holds, per
file, the dump's length and its FNV-1a 64-bit hash.

    python3 scripts/pickle-reference.py ../shared/data/tinygrad-viz/*/*.pkl \
        > tests/base/data/pickle_reference.json
"""
import codecs, json, os, pickle, struct, sys


class Recorded:
    """An object the stream constructed: callable, args, kwargs, state, appended items."""
    def __init__(self, callable_, args, kwargs, how):
        self.callable, self.args, self.kwargs, self.how = callable_, args, kwargs, how
        self.state, self.list_items, self.dict_items = None, [], []


class Global:
    def __init__(self, module, name): self.module, self.name = module, name


def make_class(module, name):
    g = Global(module, name)

    class Meta(type):
        def __call__(cls, *args, **kwargs):  # REDUCE (and OBJ/INST) call the class
            return Obj._make(g, args, kwargs, "reduce")

    class Obj(metaclass=Meta):
        @staticmethod
        def _make(g, args, kwargs, how):
            o = object.__new__(Obj)
            o.__dict__["_rec"] = Recorded(g, tuple(args), dict(kwargs) if kwargs else None, how)
            return o
        def __new__(cls, *args, **kwargs):  # NEWOBJ / NEWOBJ_EX
            return Obj._make(g, args, kwargs, "newobj")
        def __setstate__(self, state): self.__dict__["_rec"].state = state
        def append(self, x): self.__dict__["_rec"].list_items.append(x)
        def extend(self, xs): self.__dict__["_rec"].list_items.extend(xs)
        def __setitem__(self, k, v): self.__dict__["_rec"].dict_items += [k, v]
    Obj._global = g
    return Obj


def reconstructor(cls, base, state):
    o = cls.__new__(cls)
    rec = o.__dict__["_rec"]
    if state is not None: rec.args = (state,)
    return o


class Reader(pickle.Unpickler):
    def find_class(self, module, name):
        if (module, name) == ("_codecs", "encode"): return codecs.encode
        if module in ("builtins", "__builtin__") and name in ("bytearray", "set", "frozenset"):
            return {"bytearray": bytearray, "set": set, "frozenset": frozenset}[name]
        if module in ("copyreg", "copy_reg") and name == "_reconstructor": return reconstructor
        return make_class(module, name)


def dump(root):
    out, ids = [], {}
    def w(s): out.append(s)
    def visit(v, register=True):
        shareable = register and isinstance(v, (list, dict, set, frozenset, tuple)) or hasattr(v, "_rec") \
            or (isinstance(v, type) and hasattr(v, "_global"))
        if isinstance(v, (tuple, frozenset)) and len(v) == 0: shareable = False
        if shareable:
            if id(v) in ids: return w(f"@{ids[id(v)]}")
            ids[id(v)] = len(ids)
        if v is None: w("N")
        elif v is True: w("T")
        elif v is False: w("F")
        elif isinstance(v, int): w(f"i{v}")
        elif isinstance(v, float): w("f%016x" % struct.unpack("<Q", struct.pack("<d", v))[0])
        elif isinstance(v, str):
            b = v.encode("utf-8", "surrogatepass"); w(f"s{len(b)}:"); out.append(b)
        elif isinstance(v, (bytes, bytearray)): w(f"b{len(v)}:{fnv(bytes(v)):016x}")
        elif isinstance(v, tuple): w("("); [visit(x) for x in v]; w(")")
        elif isinstance(v, list): w("["); [visit(x) for x in v]; w("]")
        elif isinstance(v, dict):
            w("{")
            for k, x in v.items(): visit(k); w(":"); visit(x)
            w("}")
        elif isinstance(v, (set, frozenset)):
            w("<" if isinstance(v, set) else "<<")
            # Set order is Python's hash order, not the stream's: each element is dumped on its
            # own (fresh back-references) and the dumps are sorted.
            for p in sorted(dump(x) for x in v): out.append(p)
            w(">")
        elif isinstance(v, type) and hasattr(v, "_global"):
            w(f"g{v._global.module}.{v._global.name};")
        elif hasattr(v, "_rec"):
            r = v.__dict__["_rec"]
            w("o" + ("r" if r.how == "reduce" else "n"))
            w(f"g{r.callable.module}.{r.callable.name};")
            # Python packs a fresh args tuple and kwargs dict for every call: never shared.
            visit(r.args, register=False)
            if r.kwargs: w("k"); visit(r.kwargs, register=False)
            if r.state is not None: w("s"); visit(r.state)
            if r.list_items: w("l["); [visit(x) for x in r.list_items]; w("]")
            if r.dict_items:
                w("d{")
                for i in range(0, len(r.dict_items), 2):
                    visit(r.dict_items[i]); w(":"); visit(r.dict_items[i + 1])
                w("}")
            w(";")
        else: raise TypeError(type(v))
    visit(root)
    return b"".join(x.encode() if isinstance(x, str) else x for x in out)


def fnv(b):
    h = 0xcbf29ce484222325
    for c in b: h = ((h ^ c) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


def main():
    ref = {}
    for path in sys.argv[1:]:
        with open(path, "rb") as f: root = Reader(f).load()
        d = dump(root)
        key = "/".join(os.path.normpath(path).split(os.sep)[-2:])
        ref[key] = {"dump_bytes": len(d), "fnv1a64": f"{fnv(d):016x}"}
    json.dump(ref, sys.stdout, indent=1, sort_keys=True)
    print()


if __name__ == "__main__": main()
