#pragma once
// One decoded AMDGPU instruction and the category SQTT instruction packets are matched against.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace wavescope::compiler::isa {

enum class InstCategory {
  Salu,     // scalar ALU
  Smem,     // scalar memory (s_load, s_buffer_load, s_store, ...)
  Valu,     // vector ALU, including WMMA/MFMA and v_dual
  Vmem,     // vector memory: buffer, global, flat, scratch, image
  Lds,      // ds_* (LDS and GDS)
  Branch,   // s_branch, s_cbranch_*, s_setpc, s_swappc, s_call, s_getpc is SALU
  Waitcnt,  // s_waitcnt*, s_wait_* dependency counters
  Barrier,  // s_barrier, s_barrier_signal, s_barrier_wait
  Message,  // s_sendmsg*
  Endpgm,   // s_endpgm and friends
  Other,    // s_nop, s_delay_alu, s_clause, s_code_end, export, invalid encodings
};

std::string_view to_string(InstCategory category);

enum class BranchKind {
  None,
  Unconditional,  // s_branch
  Conditional,    // s_cbranch_*
  Indirect,       // s_setpc_b64: target in registers, unknown statically
  Call,           // s_call_b64 (direct) or s_swappc_b64 (indirect)
  Return,         // s_endpgm and other program ends
};

std::string_view to_string(BranchKind kind);

struct Instruction {
  std::uint64_t address = 0;
  std::uint32_t size = 0;
  std::array<std::uint8_t, 16> raw{};  // the first `size` bytes are the encoding
  std::string text;      // LLVM's text, as llvm-objdump prints it (no address or comment)
  std::string mnemonic;  // the first token of text, e.g. "s_cbranch_execz"
  InstCategory category = InstCategory::Other;
  BranchKind branch = BranchKind::None;
  std::optional<std::uint64_t> branch_target;  // direct branches and calls
  bool valid = true;  // false for bytes LLVM cannot decode (text is then ".long 0x...")

  // The encoding as LLVM-objdump prints it: little-endian dwords, e.g. "F4080100 F8000000".
  std::string hex_words() const;
  // True if control can continue at the next instruction.
  bool falls_through() const;
};

}  // namespace wavescope::compiler::isa
