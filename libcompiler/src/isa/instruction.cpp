#include "wavescope/compiler/isa/instruction.hpp"

#include <cstring>

#include <fmt/format.h>

namespace wavescope::compiler::isa {

std::string_view to_string(InstCategory category) {
  switch (category) {
  case InstCategory::Salu: return "SALU";
  case InstCategory::Smem: return "SMEM";
  case InstCategory::Valu: return "VALU";
  case InstCategory::Vmem: return "VMEM";
  case InstCategory::Lds: return "LDS";
  case InstCategory::Branch: return "branch";
  case InstCategory::Waitcnt: return "waitcnt";
  case InstCategory::Barrier: return "barrier";
  case InstCategory::Message: return "message";
  case InstCategory::Endpgm: return "endpgm";
  case InstCategory::Other: return "other";
  }
  return "other";
}

std::string_view to_string(BranchKind kind) {
  switch (kind) {
  case BranchKind::None: return "none";
  case BranchKind::Unconditional: return "unconditional";
  case BranchKind::Conditional: return "conditional";
  case BranchKind::Indirect: return "indirect";
  case BranchKind::Call: return "call";
  case BranchKind::Return: return "return";
  }
  return "none";
}

std::string Instruction::hex_words() const {
  std::string out;
  for (std::uint32_t i = 0; i + 4 <= size; i += 4) {
    std::uint32_t word;
    std::memcpy(&word, raw.data() + i, 4);
    out += fmt::format("{}{:08X}", out.empty() ? "" : " ", word);
  }
  return out;
}

bool Instruction::falls_through() const {
  return branch != BranchKind::Unconditional && branch != BranchKind::Indirect &&
         branch != BranchKind::Return;
}

}  // namespace wavescope::compiler::isa
