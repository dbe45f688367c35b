#pragma once
// Private: the LLVM MC objects one AMDGPU target needs, created once per target and validated.

#include <memory>
#include <string>

#include <llvm/MC/MCAsmInfo.h>
#include <llvm/MC/MCInstrAnalysis.h>
#include <llvm/MC/MCInstrInfo.h>
#include <llvm/MC/MCRegisterInfo.h>
#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/MC/MCTargetOptions.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/TargetParser/Triple.h>

#include "wavescope/compiler/isa/gpu_target.hpp"

namespace wavescope::compiler::isa::detail {

// Registers LLVM's AMDGPU target (info, MC, disassembler, asm parser) once per process.
void initialize_llvm_amdgpu();

struct LlvmMc {
  llvm::Triple triple;
  const llvm::Target *target = nullptr;
  llvm::MCTargetOptions options;
  std::unique_ptr<llvm::MCRegisterInfo> registers;
  std::unique_ptr<llvm::MCAsmInfo> asm_info;
  std::unique_ptr<llvm::MCSubtargetInfo> subtarget;
  std::unique_ptr<llvm::MCInstrInfo> instr_info;
  std::unique_ptr<llvm::MCInstrAnalysis> analysis;

  // Throws Error(Usage) if the processor is not one LLVM knows for AMDGPU.
  explicit LlvmMc(const GpuTarget &gpu);
};

}  // namespace wavescope::compiler::isa::detail
