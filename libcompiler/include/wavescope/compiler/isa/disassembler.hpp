#pragma once
// AMDGPU disassembly over LLVM MC for one target.

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "wavescope/compiler/isa/gpu_target.hpp"
#include "wavescope/compiler/isa/instruction.hpp"

namespace wavescope::compiler::isa {

class CodeObject;
struct Kernel;

class Disassembler {
public:
  // Throws Error(Usage) if LLVM does not know the target's processor.
  explicit Disassembler(const GpuTarget &target);
  ~Disassembler();
  Disassembler(Disassembler &&) noexcept;
  Disassembler &operator=(Disassembler &&) noexcept;

  const GpuTarget &target() const;

  // Decodes the one instruction at the start of `bytes`, placed at `address`. Bytes LLVM cannot
  // decode yield an invalid 4-byte instruction; throws Error(BadInput) if the bytes end in the
  // middle of an instruction.
  Instruction decode(std::span<const std::uint8_t> bytes, std::uint64_t address) const;

  // Decodes all of `bytes` (code placed at `address`), instruction by instruction.
  std::vector<Instruction> disassemble(std::span<const std::uint8_t> bytes,
                                       std::uint64_t address) const;

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The whole .text of a code object, or just one kernel's code.
std::vector<Instruction> disassemble_text(const CodeObject &code);
std::vector<Instruction> disassemble_kernel(const CodeObject &code, const Kernel &kernel);

}  // namespace wavescope::compiler::isa
