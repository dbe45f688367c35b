#include "wavescope/trace/timeline/program_map.hpp"

#include "wavescope/compiler/isa/code_object.hpp"
#include "wavescope/compiler/isa/disassembler.hpp"

namespace wavescope::trace::timeline {

ProgramMap ProgramMap::from_code_object(const compiler::isa::CodeObject &code) {
  using compiler::isa::BranchKind;
  ProgramMap map;
  map.text_begin_ = code.text().address;
  map.by_dword_.assign((code.text().size + 3) / 4, -1);
  for (const auto &inst : compiler::isa::disassemble_text(code)) {
    ProgramInstruction p;
    p.address = inst.address;
    p.size = inst.size;
    p.text = inst.text;
    p.mnemonic = inst.mnemonic;
    p.is_branch =
        inst.branch == BranchKind::Unconditional || inst.branch == BranchKind::Conditional;
    p.simm16 = static_cast<std::int16_t>(inst.raw[0] | (inst.raw[1] << 8));
    p.issues_no_packet =
        p.mnemonic == "s_delay_alu" || p.mnemonic == "s_wait_alu" || p.mnemonic == "s_barrier_wait";
    p.is_wmma = p.mnemonic.starts_with("v_wmma");
    p.is_wmma_iu4 = p.is_wmma && p.mnemonic.find("iu4") != std::string::npos;
    p.is_endpgm = p.mnemonic == "s_endpgm";
    p.is_barrier_wait = p.mnemonic == "s_barrier_wait";
    const std::uint64_t dword = (p.address - map.text_begin_) / 4;
    if (dword < map.by_dword_.size())
      map.by_dword_[dword] = static_cast<std::int32_t>(map.instructions_.size());
    map.instructions_.push_back(std::move(p));
  }
  return map;
}

ProgramMap ProgramMap::load(const ByteSource &elf, const std::string &processor,
                            const std::string &origin) {
  compiler::isa::CodeObjectOptions options;
  if (!processor.empty()) options.target = processor;
  return from_code_object(compiler::isa::CodeObject::from_bytes(
      elf.read_all(), options, origin.empty() ? elf.describe() : origin));
}

}  // namespace wavescope::trace::timeline
