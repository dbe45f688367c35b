#!/usr/bin/env python3
"""Generate wavescope's register database (am-driver.md §4, §21.1) from the Linux kernel's
amdgpu asic_reg headers (Debian package linux-source-6.12).

Every register of each listed <name>_offset.h that has a <prefix><NAME>_BASE_IDX define, and every
non-zero <REG>__<FIELD>_MASK of the matching <name>_sh_mask.h, is written — no name filters (UMR
offers them all). Fixes applied: the CDNA hub prefix (gc_9_4_3: VM_/MC_VM_ -> GCVM_/GCMC_VM_,
mmhub_1_8_0: -> MMVM_/MMMC_VM_, recorded as an alias beside the header's own spelling), masks with
the L, UL or no suffix, the register split from the field at the first "__".

Output: one gzip'd text table per header pair, libhw/resources/regdb/<name>.regdb.gz, whose
first lines record the package version and each input header's SHA-256. Format (one item a line):
    wavescope-regdb 1
    source linux-source-6.12 <debian version>
    header <dir>/<file> <sha256>          (offset, then sh_mask)
    table <name> <family> <major>.<minor>.<rev> <registers> <fields>
    r <header name> <dword offset hex> <segment> [<alias without prefix>]
    f <field name> <lo> <hi>              (fields of the preceding r line)

Usage:
    generate.py --tar /usr/src/linux-source-6.12.tar.xz --out libhw/resources/regdb
    generate.py --headers DIR/asic_reg --package-version V --out OUT   (already extracted)
    generate.py ... --check   (compare with the tables in --out instead of writing; exit 1 on a diff)
"""
import argparse
import difflib
import gzip
import hashlib
import io
import os
import re
import subprocess
import sys
import tarfile
import tempfile

# The 28 header pairs of am-driver.md §21.1: (kernel dir, file stem, family, version).
PAIRS = [
    ("gc", "gc_9_4_3"), ("gc", "gc_11_0_0"), ("gc", "gc_11_0_3"), ("gc", "gc_11_5_0"),
    ("gc", "gc_12_0_0"),
    ("mmhub", "mmhub_1_8_0"), ("mmhub", "mmhub_3_0_0"), ("mmhub", "mmhub_3_0_1"),
    ("mmhub", "mmhub_3_0_2"), ("mmhub", "mmhub_3_3_0"), ("mmhub", "mmhub_4_1_0"),
    ("nbio", "nbio_4_3_0"), ("nbio", "nbio_7_2_0"), ("nbio", "nbio_7_7_0"), ("nbio", "nbio_7_9_0"),
    ("nbio", "nbio_7_11_0"),
    ("nbif", "nbif_6_3_1"),
    ("mp", "mp_11_0"), ("mp", "mp_13_0_0"), ("mp", "mp_14_0_2"),
    ("hdp", "hdp_4_4_2"), ("hdp", "hdp_6_0_0"), ("hdp", "hdp_7_0_0"),
    ("oss", "osssys_4_4_2"), ("oss", "osssys_6_0_0"), ("oss", "osssys_6_1_0"),
    ("oss", "osssys_7_0_0"),
    ("sdma", "sdma_4_4_2"),
]
PACKAGE = "linux-source-6.12"
ASIC_REG = "drivers/gpu/drm/amd/include/asic_reg"
# CDNA headers name the VM registers without their hub: the prefix inserted after reg/mm.
CDNA_HUB = {"gc_9_4_3": "GC", "mmhub_1_8_0": "MM"}
CDNA_RENAMED = re.compile(r"^(VM_|MC_VM_)")

DEFINE = re.compile(r"^\s*#\s*define\s+(\w+)\s+(0[xX][0-9A-Fa-f]+|\d+)[uUlL]*\s*(?://.*|/\*.*)?$")
MASK = re.compile(r"^\s*#\s*define\s+(\w+)_MASK\s+(0[xX][0-9A-Fa-f]+|\d+)[uUlL]*\s*(?://.*|/\*.*)?$")


def family_and_version(stem):
    parts = stem.split("_")
    family = "osssys" if parts[0] == "osssys" else parts[0]
    nums = [int(p) for p in parts[1:]] + [0, 0, 0]
    return family, "%d.%d.%d" % tuple(nums[:3])


def parse_offsets(text):
    """(prefix, name, offset, segment) in file order for every define with a _BASE_IDX."""
    defines = {}
    order = []
    for line in text.splitlines():
        m = DEFINE.match(line)
        if m:
            if m.group(1) not in defines:
                order.append(m.group(1))
            defines[m.group(1)] = int(m.group(2), 0)
    out = []
    for name in order:
        base = defines.get(name + "_BASE_IDX")
        if base is None:
            continue
        if name.startswith("reg"):
            prefix = "reg"
        elif name.startswith("mm"):
            prefix = "mm"
        else:
            continue
        out.append((prefix, name[len(prefix):], defines[name], base))
    return out


def parse_masks(text):
    """{register name without prefix: [(field, lo, hi)]} in file order; zero masks dropped."""
    fields = {}
    for line in text.splitlines():
        m = MASK.match(line)
        if not m:
            continue
        full, mask = m.group(1), int(m.group(2), 0)
        if "__" not in full or mask == 0:
            continue
        reg, field = full.split("__", 1)
        lo = (mask & -mask).bit_length() - 1
        hi = mask.bit_length() - 1
        fields.setdefault(reg, []).append((field, lo, hi))
    return fields


def generate_table(stem, offset_text, mask_text, headers, package_version):
    family, version = family_and_version(stem)
    regs = parse_offsets(offset_text)
    masks = parse_masks(mask_text)
    hub = CDNA_HUB.get(stem)
    lines = []
    nregs = nfields = 0
    body = []
    for prefix, name, offset, segment in regs:
        alias = ""
        if hub and CDNA_RENAMED.match(name):
            alias = " " + hub + name
        body.append("r %s%s %x %d%s" % (prefix, name, offset, segment, alias))
        nregs += 1
        for field, lo, hi in masks.get(name, []):
            body.append("f %s %d %d" % (field, lo, hi))
            nfields += 1
    lines.append("wavescope-regdb 1")
    lines.append("source %s %s" % (PACKAGE, package_version))
    for rel, data in headers:
        lines.append("header %s %s" % (rel, hashlib.sha256(data).hexdigest()))
    lines.append("table %s %s %s %d %d" % (stem, family, version, nregs, nfields))
    return "\n".join(lines + body) + "\n", nregs, nfields


def read_from_tar(path):
    wanted = {}
    for d, stem in PAIRS:
        for kind in ("offset", "sh_mask"):
            wanted["%s/%s_%s.h" % (d, stem, kind)] = None
    with tempfile.TemporaryDirectory() as tmp:
        patterns = ["*/%s/%s" % (ASIC_REG, rel) for rel in wanted]
        subprocess.run(["tar", "-xJf", path, "-C", tmp, "--wildcards"] + patterns, check=True)
        for root, _, files in os.walk(tmp):
            for f in files:
                full = os.path.join(root, f)
                rel = os.path.relpath(full, tmp).split(ASIC_REG + "/", 1)[1]
                with open(full, "rb") as fh:
                    wanted[rel] = fh.read()
    return wanted


def read_from_dir(path):
    out = {}
    for d, stem in PAIRS:
        for kind in ("offset", "sh_mask"):
            rel = "%s/%s_%s.h" % (d, stem, kind)
            with open(os.path.join(path, rel), "rb") as fh:
                out[rel] = fh.read()
    return out


def dpkg_version():
    try:
        return subprocess.run(["dpkg-query", "-W", "-f=${Version}", PACKAGE], check=True,
                              capture_output=True, text=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--tar", help="linux-source-6.12.tar.xz")
    src.add_argument("--headers", help="an extracted asic_reg directory")
    ap.add_argument("--package-version", help="default: dpkg-query's version of " + PACKAGE)
    ap.add_argument("--out", required=True, help="the tables' directory")
    ap.add_argument("--check", action="store_true", help="diff with --out instead of writing")
    args = ap.parse_args()
    version = args.package_version or dpkg_version()
    if not version:
        sys.exit("generate.py: no --package-version and %s is not installed" % PACKAGE)
    files = read_from_tar(args.tar) if args.tar else read_from_dir(args.headers)
    missing = [rel for rel, data in files.items() if data is None]
    if missing:
        sys.exit("generate.py: missing headers: " + ", ".join(missing))
    os.makedirs(args.out, exist_ok=True)
    differ = []
    total_r = total_f = 0
    for d, stem in PAIRS:
        rels = ["%s/%s_offset.h" % (d, stem), "%s/%s_sh_mask.h" % (d, stem)]
        text, nr, nf = generate_table(
            stem, files[rels[0]].decode("latin-1"), files[rels[1]].decode("latin-1"),
            [(r, files[r]) for r in rels], version)
        total_r += nr
        total_f += nf
        path = os.path.join(args.out, stem + ".regdb.gz")
        if args.check:
            try:
                with gzip.open(path, "rt", encoding="latin-1") as fh:
                    old = fh.read()
            except OSError:
                old = None
            if old != text:
                # A newer package revision with the same headers is not a difference.
                def strip(t):
                    return "\n".join(l for l in (t or "").split("\n") if not l.startswith("source "))
                if old is not None and strip(old) == strip(text):
                    print("%s: same tables, other package version (%s)" % (stem, version))
                else:
                    differ.append(path)
                    diff = difflib.unified_diff((old or "").splitlines(), text.splitlines(),
                                                path + " (committed)", "generated", lineterm="")
                    print("\n".join(list(diff)[:20]))
            continue
        buf = io.BytesIO()
        with gzip.GzipFile(filename="", mode="wb", fileobj=buf, mtime=0, compresslevel=9) as gz:
            gz.write(text.encode("latin-1"))
        with open(path, "wb") as fh:
            fh.write(buf.getvalue())
        print("%-14s %6d registers %7d fields" % (stem, nr, nf))
    print("total: %d tables, %d registers, %d fields" % (len(PAIRS), total_r, total_f))
    if differ:
        print("differ from the generator's output: " + ", ".join(differ))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
