#!/usr/bin/env python3
"""Runs the AMDGPU code objects of `wavectl run --save` bundles in tinygrad's shader emulator and
compares what they write with the CPU's outputs saved beside them.

        TINYGRAD=/path/to/tinygrad tests/gpu_emu/run_bundle.py BUNDLE... [--target gfx1100] [--json]

BUNDLE is a folder with a manifest.json (codegen/run_bundle.hpp, format wavescope-run/1) or a
folder of such folders (what `wavectl run SOURCE --save DIR` writes). Only the bundle is read: the
manifest says how to launch each code object (kernel descriptor symbol, kernarg layout, workgroup
counts and size) and how close a result must be; this script plays the part of the GPU's runtime
and command processor (loads the ELF's segments, fills the kernarg segment, sets the user SGPRs the
descriptor asks for) and hands the wave launch to `test/mockgpu/amd/emu.py:run_asm`, which
executes the instructions one by one against host memory.

A written argument matches when every element is within the manifest's tolerance
(|got - want| <= atol + rtol * |want|, NaN equals NaN) for floating-point dtypes and equal for
integer and bool dtypes; arguments the kernel does not write must come back unchanged, and the
guard bytes around every buffer must be intact (no write out of bounds).

Exit status: 0 all matched, 1 a mismatch or a kernel the emulator could not run, 2 bad usage or a
bundle that cannot be read, 77 (CTest's skip code) when TINYGRAD is not set.
"""

from __future__ import annotations

import argparse
import array
import ctypes
import json
import math
import mmap
import os
import struct
import sys
import time
from pathlib import Path

SKIP = 77

# The emulator's name for each processor's ISA (emu.py: "rdna3", "rdna4", "cdna").
ARCH = {"gfx1100": "rdna3", "gfx1201": "rdna4", "gfx950": "cdna"}

# array typecodes of the manifest's dtypes (libcompiler's to_string(DType)).
# half and bfloat16 are decoded by decode() (bfloat16: its 16 bits are the upper half of a float32).
TYPECODE = {"float": "f", "double": "d", "half": "e", "bfloat16": "H", "int8": "b", "uint8": "B",
            "int16": "h", "uint16": "H", "int32": "i", "uint32": "I", "int64": "q", "uint64": "Q",
            "bool": "B"}
FLOATS = {"float", "double", "half", "bfloat16"}

GUARD = 4096          # bytes of pattern before and after every buffer
GUARD_BYTE = 0xA5

# kernel_code_properties bits (AMDHSA kernel descriptor) that enable user SGPRs, in the order the
# user SGPRs are laid out, with how many SGPRs each takes.
USER_SGPRS = [(0x01, "private segment buffer", 4), (0x02, "dispatch ptr", 2),
              (0x04, "queue ptr", 2), (0x08, "kernarg segment ptr", 2), (0x10, "dispatch id", 2),
              (0x20, "flat scratch init", 2), (0x40, "private segment size", 1)]


class BundleError(Exception):
    """A bundle that cannot be read or launched as its manifest says."""


class EmulatorError(Exception):
    """The emulator could not run the code object (an instruction it does not know, a runaway
    loop): a result of the run, reported per kernel."""


class Memory:
    """Host memory the emulated kernel addresses directly (emu.py's vmem is the host's address
    space): page-aligned, kept alive until the run is over."""

    def __init__(self, size: int):
        self.map = mmap.mmap(-1, max(size, 1))
        self.address = ctypes.addressof(ctypes.c_char.from_buffer(self.map))

    def write(self, offset: int, data: bytes):
        self.map[offset:offset + len(data)] = data

    def read(self, offset: int, size: int) -> bytes:
        return bytes(self.map[offset:offset + size])

    def close(self):
        self.map.close()


# --- the code object ------------------------------------------------------------------------

class CodeObject:
    """An AMDGPU ELF64 code object loaded as the runtime loads it: every PT_LOAD segment at its
    virtual address in one image, dynamic relocations applied, symbols by name."""

    def __init__(self, data: bytes, origin: str):
        self.origin = origin
        if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
            raise BundleError(f"{origin}: not a little-endian ELF64 file")
        (e_phoff, e_shoff) = struct.unpack_from("<QQ", data, 0x20)
        (e_phentsize, e_phnum, e_shentsize, e_shnum) = struct.unpack_from("<HHHH", data, 0x36)
        self.segments = []
        dynamic = None
        for i in range(e_phnum):
            p_type, _, p_offset, p_vaddr, _, p_filesz, p_memsz, _ = struct.unpack_from(
                    "<IIQQQQQQ", data, e_phoff + i * e_phentsize)
            if p_type == 1:  # PT_LOAD
                self.segments.append((p_offset, p_vaddr, p_filesz, p_memsz))
            elif p_type == 2:  # PT_DYNAMIC
                dynamic = (p_offset, p_filesz)
        if not self.segments:
            raise BundleError(f"{origin}: no loadable segment")
        self.image_size = max(v + m for _, v, _, m in self.segments)
        self.data = data
        self.symbols = {}
        for i in range(e_shnum):
            (_, sh_type, _, _, sh_offset, sh_size, sh_link, _, _,
             sh_entsize) = struct.unpack_from("<IIQQQQIIQQ", data, e_shoff + i * e_shentsize)
            if sh_type not in (2, 11) or not sh_entsize:  # SHT_SYMTAB, SHT_DYNSYM
                continue
            strtab_off = struct.unpack_from("<Q", data, e_shoff + sh_link * e_shentsize + 0x18)[0]
            for k in range(sh_size // sh_entsize):
                st_name, _, _, st_shndx, st_value, st_size = struct.unpack_from(
                        "<IBBHQQ", data, sh_offset + k * sh_entsize)
                end = data.index(b"\0", strtab_off + st_name)
                name = data[strtab_off + st_name:end].decode()
                if name and st_shndx:
                    self.symbols[name] = (st_value, st_size)
        self.relocations = []
        if dynamic:
            tags = {}
            off, size = dynamic
            for k in range(size // 16):
                tag, val = struct.unpack_from("<qQ", data, off + 16 * k)
                if tag == 0:
                    break
                tags[tag] = val
            if 7 in tags:  # DT_RELA, DT_RELASZ
                rela = self.file_offset(tags[7])
                for k in range(tags.get(8, 0) // 24):
                    r_offset, r_info, r_addend = struct.unpack_from("<QQq", data, rela + 24 * k)
                    self.relocations.append((r_offset, r_info & 0xFFFFFFFF, r_addend))
            if 17 in tags and tags.get(18, 0):  # DT_REL, DT_RELSZ
                raise BundleError(f"{origin}: REL relocations (only RELA is expected)")

    def file_offset(self, vaddr: int) -> int:
        for off, v, filesz, _ in self.segments:
            if v <= vaddr < v + filesz:
                return off + vaddr - v
        raise BundleError(f"{self.origin}: address {vaddr:#x} is in no loaded segment")

    def load(self, memory: Memory, base_offset: int):
        for off, v, filesz, _ in self.segments:
            memory.write(base_offset + v, self.data[off:off + filesz])
        base = memory.address + base_offset
        for r_offset, r_type, r_addend in self.relocations:
            if r_type != 13:  # R_AMDGPU_RELATIVE64
                raise BundleError(f"{self.origin}: relocation type {r_type} at {r_offset:#x} "
                                                    "(only R_AMDGPU_RELATIVE64 is loaded)")
            memory.write(base_offset + r_offset, struct.pack("<Q", base + r_addend))


class Descriptor:
    """The 64-byte kernel descriptor (`<kernel>.kd`)."""

    def __init__(self, raw: bytes):
        (self.group_segment_size, self.private_segment_size, self.kernarg_size, _,
          self.entry_offset) = struct.unpack_from("<IIIIq", raw, 0)
        self.rsrc3, self.rsrc1, self.rsrc2 = struct.unpack_from("<III", raw, 44)
        self.properties = struct.unpack_from("<H", raw, 56)[0]
        self.wave32 = bool(self.properties & 0x400)
        self.user_sgpr_count = (self.rsrc2 >> 1) & 0x1F


# --- one launch -------------------------------------------------------------------------------

def dispatch_packet(workgroups, size, desc: Descriptor, kernarg_address: int) -> bytes:
    """An hsa_kernel_dispatch_packet_t as the runtime writes it (for kernels that ask for the
    dispatch pointer)."""
    grid = [w * s for w, s in zip(workgroups, size)]
    return struct.pack("<6H5I4Q", 0, 3, *size, 0, *grid, desc.private_segment_size,
                                          desc.group_segment_size, 0, kernarg_address, 0, 0)


def fill_hidden_args(kernarg: bytearray, hidden: list, workgroups, size, origin: str):
    """Fills the hidden arguments LLVM appended (the manifest's "hidden_args") as the HSA
    runtime does: the grid's shape; the pointers a runtime would give (printf buffer, queue,
    ...) are left null, which our kernels never follow."""
    grid = [w * s for w, s in zip(workgroups, size)]
    values = {"hidden_grid_dims": sum(1 for g in grid if g > 1) or 1}
    for d, axis in enumerate("xyz"):
        values[f"hidden_block_count_{axis}"] = workgroups[d]
        values[f"hidden_group_size_{axis}"] = size[d]
        values[f"hidden_remainder_{axis}"] = 0  # every workgroup is whole
        values[f"hidden_global_offset_{axis}"] = 0
    for h in hidden:
        off, sz = h["offset"], h["size"]
        if off + sz > len(kernarg):
            raise BundleError(f"{origin}: hidden argument {h['value_kind']} at {off} is past the "
                              f"{len(kernarg)}-byte kernarg segment")
        value = values.get(h["value_kind"], 0)
        kernarg[off:off + sz] = value.to_bytes(sz, "little")


def run_target(bundle: Path, manifest: dict, target: str, emu) -> dict:
    t = manifest["targets"][target]
    origin = f"{bundle.name}/{t['code_object']}"
    code = CodeObject((bundle / t["code_object"]).read_bytes(), origin)
    kd_name = t.get("descriptor", t["symbol"] + ".kd")
    if kd_name not in code.symbols:
        raise BundleError(f"{origin}: no symbol {kd_name}")
    kd_vaddr = code.symbols[kd_name][0]
    desc = Descriptor(code.data[code.file_offset(kd_vaddr):code.file_offset(kd_vaddr) + 64])
    if desc.kernarg_size != t["kernarg_bytes"]:
        raise BundleError(f"{origin}: the descriptor's kernarg size is {desc.kernarg_size}, the "
                                            f"manifest says {t['kernarg_bytes']}")
    wave = 32 if desc.wave32 else 64
    if ARCH[target] == "cdna" and wave != 64 or ARCH[target] != "cdna" and wave != 32:
        raise BundleError(f"{origin}: wave{wave} code (the emulator runs {ARCH[target]} in "
                                            f"wave{64 if ARCH[target] == 'cdna' else 32})")

    args = manifest["args"]
    scalars = manifest.get("scalars", [])
    # One block of host memory: the code object's image, the kernarg segment, the dispatch packet,
    # then every buffer between guard bytes.
    layout, offset = {}, 0

    def reserve(key, size, align=256):
        nonlocal offset
        offset = (offset + align - 1) // align * align
        layout[key] = offset
        offset += size

    reserve("image", code.image_size + 64, 4096)
    reserve("kernarg", max(desc.kernarg_size, 1))
    reserve("packet", 64)
    for a in args:
        reserve(("guard", a["index"]), GUARD)
        reserve(("buf", a["index"]), a["bytes"])
    reserve("end", GUARD)
    memory = Memory(offset)
    try:
        code.load(memory, layout["image"])
        base = memory.address
        inputs = {}
        for a in args:
            data = (bundle / a["input"]).read_bytes()
            if len(data) != a["bytes"]:
                raise BundleError(f"{bundle.name}/{a['input']}: {len(data)} bytes, the manifest "
                                  f"says {a['bytes']}")
            inputs[a["index"]] = data
            memory.write(layout[("guard", a["index"])], bytes([GUARD_BYTE]) * GUARD)
            memory.write(layout[("buf", a["index"])], data)
        memory.write(layout["end"], bytes([GUARD_BYTE]) * GUARD)

        kernarg = bytearray(desc.kernarg_size)
        offsets = t.get("kernarg_offsets") or [a["kernarg_offset"] for a in args]
        for a, off in zip(args, offsets):
            if off + 8 > len(kernarg):
                raise BundleError(f"{origin}: argument {a['name']} at kernarg offset {off} is past "
                                  f"the {len(kernarg)}-byte segment")
            struct.pack_into("<Q", kernarg, off, base + layout[("buf", a["index"])])
        for s in scalars:
            off = t["scalar_offsets"][s["name"]] if "scalar_offsets" in t else s["kernarg_offset"]
            fmt = "<" + TYPECODE[s["dtype"]]
            struct.pack_into(fmt, kernarg, off, s["value"])
        fill_hidden_args(kernarg, t.get("hidden_args", []), t["workgroups"], t["workgroup_size"],
                         origin)
        memory.write(layout["kernarg"], bytes(kernarg))
        kernarg_address = base + layout["kernarg"]

        workgroups, size = t["workgroups"], t["workgroup_size"]
        memory.write(layout["packet"], dispatch_packet(workgroups, size, desc, kernarg_address))
        user = []
        for bit, name, count in USER_SGPRS:
            if not desc.properties & bit:
                continue
            if bit == 0x02:
                packet = base + layout["packet"]
                user += [packet & 0xFFFFFFFF, packet >> 32]
            elif bit == 0x08:
                user += [kernarg_address & 0xFFFFFFFF, kernarg_address >> 32]
            elif bit in (0x01, 0x20) and desc.private_segment_size:
                raise BundleError(f"{origin}: the kernel uses scratch "
                                  f"({desc.private_segment_size} bytes per work-item through the "
                                  f"{name}), which this runner does not set up")
            else:
                user += [0] * count
        if len(user) > desc.user_sgpr_count:
            raise BundleError(f"{origin}: the descriptor enables {len(user)} user SGPRs but rsrc2 "
                              f"counts {desc.user_sgpr_count}")
        user += [0] * (desc.user_sgpr_count - len(user))
        # The command processor puts the LDS allocation into rsrc2 from the packet's group segment
        # size (granules of 512 bytes on gfx11/gfx12; tinygrad's runtime does the same for gfx950).
        rsrc2 = desc.rsrc2 | (((desc.group_segment_size + 511) // 512) << 15)
        entry = base + layout["image"] + kd_vaddr + desc.entry_offset
        code_size = code.image_size - (kd_vaddr + desc.entry_offset)

        start = time.perf_counter()
        try:
            err = emu.run_asm(entry, code_size, *workgroups, *size, kernarg_address, rsrc2,
                              desc.private_segment_size, ARCH[target], user)
        except Exception as e:  # noqa: BLE001 (the emulator's own failures, e.g. an instruction
            # it does not know, are a result of this run, not a crash of the script)
            raise EmulatorError(f"{origin}: the emulator failed: {type(e).__name__}: {e}") from e
        elapsed = time.perf_counter() - start
        if err:
            raise EmulatorError(f"{origin}: the emulator returned {err}")
        return compare(bundle, manifest, target, memory, layout, inputs) | {"seconds": elapsed}
    finally:
        memory.close()


def decode(dtype: str, data: bytes):
    if dtype == "half":  # array has no half typecode; struct does
        return array.array("f", struct.unpack(f"<{len(data) // 2}e", data))
    values = array.array(TYPECODE[dtype], data)
    if dtype == "bfloat16":
        return array.array("f", array.array("I", (v << 16 for v in values)).tobytes())
    return values if dtype != "bool" else array.array("B", (v != 0 for v in values))


def compare(bundle, manifest, target, memory, layout, inputs) -> dict:
    atol, rtol = manifest["tolerance"]["atol"], manifest["tolerance"]["rtol"]
    result = {"ok": True, "checked": 0, "mismatches": 0, "max_abs_err": 0.0, "max_rel_err": 0.0,
                        "problems": []}
    for a in args_of(manifest):
        i = a["index"]
        for where in (("guard", i),):
            if memory.read(layout[where], GUARD) != bytes([GUARD_BYTE]) * GUARD:
                result["problems"].append(f"{a['name']}: bytes before the buffer were overwritten")
        got_bytes = memory.read(layout[("buf", i)], a["bytes"])
        if not a["written"]:
            if got_bytes != inputs[i]:
                result["problems"].append(f"{a['name']}: not an output, but the kernel changed it")
            continue
        want = decode(a["dtype"], (bundle / a["output"]).read_bytes())
        got = decode(a["dtype"], got_bytes)
        is_float = a["dtype"] in FLOATS
        first = None
        for k, (g, w) in enumerate(zip(got, want)):
            result["checked"] += 1
            if is_float:
                if math.isnan(g) and math.isnan(w) or g == w:
                    continue
                err = abs(g - w)
                if math.isnan(err):
                    result["max_abs_err"] = result["max_rel_err"] = math.inf
                else:
                    result["max_abs_err"] = max(result["max_abs_err"], err)
                    result["max_rel_err"] = max(result["max_rel_err"], err / max(abs(w), 1e-30))
                bad = not err <= atol + rtol * abs(w)
            else:
                bad = g != w
                if bad:
                    result["max_abs_err"] = max(result["max_abs_err"], float(abs(int(g) - int(w))))
            if bad:
                result["mismatches"] += 1
                if first is None:
                    first = f"{a['name']}[{k}]: got {g!r}, want {w!r}"
        if first:
            result["problems"].append(first)
    last = args_of(manifest)[-1]["index"] if args_of(manifest) else None
    if last is not None and memory.read(layout["end"], GUARD) != bytes([GUARD_BYTE]) * GUARD:
        result["problems"].append("bytes after the last buffer were overwritten")
    result["ok"] = not result["problems"] and result["mismatches"] == 0
    return result


def args_of(manifest):
    return manifest["args"]


# --- the emulator ------------------------------------------------------------------------------

def correct_emulator(emu) -> list[str]:
    """Works around what the emulator itself gets wrong (found by this script; each says how it
    was found). Returns one sentence per correction applied."""
    applied = []
    # emu.py keeps the HW_ID value that s_getreg_b32 reads in SGPR slot SGPR_COUNT - 16 + 4 = 248
    # of the wave's register file, the very slot that holds the inline constant 248 (1/(2*pi),
    # 0x3e22f983) every instruction reads its operand 248 from: `v_mul_f32 v1, 0.15915494, v1`
    # (LLVM's sin(x) = v_sin_f32(x * 1/(2*pi))) then multiplies by 0 in the emulator. Restore the
    # constant after the wave is set up (our kernels do not read HW_ID).
    inv_2pi = getattr(emu, "F32_INLINE", {}).get(248)
    if inv_2pi is not None and getattr(emu, "SGPR_COUNT", 0) - 16 + 4 == 248:
        init_wave = emu._init_wave

        def init_wave_keeping_inv_2pi(*args, **kwargs):
            state = init_wave(*args, **kwargs)
            state._write_sgpr(248, inv_2pi)
            return state

        emu._init_wave = init_wave_keeping_inv_2pi
        applied.append("inline constant 248 (1/(2*pi)) restored after HW_ID overwrote it")
    return applied


# --- driver -------------------------------------------------------------------------------------

def bundles_in(path: Path) -> list[Path]:
    if (path / "manifest.json").is_file():
        return [path]
    found = sorted(p.parent for p in path.glob("*/manifest.json"))
    if not found:
        raise BundleError(f"{path}: no manifest.json in it or in its subfolders")
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("bundles", nargs="+", type=Path, help="a bundle folder or a folder of them")
    parser.add_argument("--target", action="append", choices=sorted(ARCH),
                        help="the code object(s) to run (default gfx1100; repeatable)")
    parser.add_argument("--json", action="store_true", help="one JSON object per kernel and target")
    parser.add_argument("--expect", type=int, help="fail unless exactly this many kernels ran")
    opts = parser.parse_args()
    targets = opts.target or ["gfx1100"]

    tinygrad = os.environ.get("TINYGRAD")
    if not tinygrad:
        print("skipped: TINYGRAD is not set (a tinygrad checkout with test/mockgpu/amd/emu.py)")
        return SKIP
    sys.path.insert(0, tinygrad)
    try:
        from test.mockgpu.amd import emu  # noqa: E402 (tinygrad's RDNA3/RDNA4/CDNA emulator)
    except Exception as e:  # noqa: BLE001 (any import problem of the checkout)
        print(f"error: cannot import test.mockgpu.amd.emu from {tinygrad}: {e}", file=sys.stderr)
        return 2

    for note in correct_emulator(emu):
        print(f"note: emulator correction: {note}", file=sys.stderr)
    try:
        bundles = [b for p in opts.bundles for b in bundles_in(p)]
    except BundleError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    runs = failed = 0
    for b in bundles:
        manifest = json.loads((b / "manifest.json").read_text())
        if manifest.get("format") != "wavescope-run/1":
            print(f"error: {b}/manifest.json: format {manifest.get('format')!r}, not "
                  "wavescope-run/1", file=sys.stderr)
            return 2
        for target in targets:
            line = {"bundle": b.name, "kernel": manifest["kernel"], "target": target,
                    "symbol": manifest["targets"][target]["symbol"]}
            try:
                line |= run_target(b, manifest, target, emu)
            except (BundleError, EmulatorError) as e:
                line |= {"ok": False, "problems": [str(e)]}
            runs += 1
            failed += not line["ok"]
            if opts.json:
                print(json.dumps(line), flush=True)
            else:
                status = "ok" if line["ok"] else "MISMATCH"
                detail = "; ".join(line.get("problems", []))
                print(f"{b.name:32} {target:8} {line['symbol']:24} {status:8} "
                      f"checked {line.get('checked', 0):6} "
                      f"mismatches {line.get('mismatches', 0):5} "
                      f"max abs {line.get('max_abs_err', 0):.2g} {line.get('seconds', 0):6.1f} s"
                      + (f"  {detail}" if detail else ""), flush=True)
    print(f"{runs - failed} of {runs} code objects matched the CPU's outputs", file=sys.stderr)
    if opts.expect is not None and runs != opts.expect:
        print(f"error: expected {opts.expect} runs, ran {runs}", file=sys.stderr)
        return 1
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
