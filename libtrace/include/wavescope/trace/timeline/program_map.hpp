#pragma once
// The PC map SQTT instruction packets are walked over (spec §10.1): a kernel's .text decoded
// linearly from its start to its end with the ISA layer, addressed by ELF virtual address
// (GPU PC = program base + address).

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "wavescope/base/byte_source.hpp"

namespace wavescope::compiler::isa {
class CodeObject;
}

namespace wavescope::trace::timeline {

// One instruction as the trace mapper needs it.
struct ProgramInstruction {
  std::uint64_t address = 0;  // ELF virtual address
  std::uint32_t size = 0;
  std::string text;               // LLVM's assembly text
  std::string mnemonic;           // e.g. "s_cbranch_scc1"
  bool is_branch = false;         // s_branch / s_cbranch_*: consumes an INST JUMP or JUMP_NO
  std::int16_t simm16 = 0;        // the branch offset in dwords (SOPP)
  bool issues_no_packet = false;  // s_delay_alu, s_wait_alu, s_barrier_wait: skipped by the walk
  bool is_wmma = false;           // v_wmma_*: VIZ names its VALUINST WMMA_VALU_<n>
  bool is_wmma_iu4 = false;
  bool is_endpgm = false;
  bool is_barrier_wait = false;  // RDNA4 s_barrier_wait (the wait half of a split barrier)
};

class ProgramMap {
public:
  ProgramMap() = default;
  // Decodes `code`'s whole .text.
  static ProgramMap from_code_object(const compiler::isa::CodeObject &code);
  // Loads a code object (tinygrad packer ELFs need `processor`, e.g. "gfx1100"); `origin` names
  // it in errors (default: the source's description).
  static ProgramMap load(const ByteSource &elf, const std::string &processor,
                         const std::string &origin = {});

  bool empty() const { return instructions_.empty(); }
  // The walk's starting PC: the first instruction of .text.
  std::uint64_t entry() const { return instructions_.empty() ? 0 : instructions_.front().address; }
  std::uint64_t text_begin() const { return text_begin_; }
  std::uint64_t text_end() const { return text_begin_ + 4 * by_dword_.size(); }
  // The instruction starting at `address`, nullptr if none does.
  const ProgramInstruction *at(std::uint64_t address) const {
    if (address < text_begin_ || (address - text_begin_) % 4) return nullptr;
    const std::uint64_t dword = (address - text_begin_) / 4;
    if (dword >= by_dword_.size() || by_dword_[dword] < 0) return nullptr;
    return &instructions_[static_cast<std::size_t>(by_dword_[dword])];
  }
  // Index of an instruction in instructions() (for per-PC tables).
  std::size_t index_of(const ProgramInstruction *inst) const {
    return static_cast<std::size_t>(inst - instructions_.data());
  }
  const std::vector<ProgramInstruction> &instructions() const { return instructions_; }

private:
  std::vector<ProgramInstruction> instructions_;
  std::vector<std::int32_t> by_dword_;  // instruction index per dword of .text, -1 inside one
  std::uint64_t text_begin_ = 0;
};

}  // namespace wavescope::trace::timeline
