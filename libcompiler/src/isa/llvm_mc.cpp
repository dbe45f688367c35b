#include "llvm_mc.hpp"

#include <mutex>

#include <fmt/format.h>
#include <llvm/Support/TargetSelect.h>

#include "wavescope/base/error.hpp"

extern "C" {
void LLVMInitializeAMDGPUTargetInfo();
void LLVMInitializeAMDGPUTargetMC();
void LLVMInitializeAMDGPUDisassembler();
void LLVMInitializeAMDGPUAsmParser();
}

namespace wavescope::compiler::isa::detail {

void initialize_llvm_amdgpu() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUDisassembler();
    LLVMInitializeAMDGPUAsmParser();
  });
}

LlvmMc::LlvmMc(const GpuTarget &gpu) : triple(std::string(kAmdgpuTriple)) {
  initialize_llvm_amdgpu();
  std::string error;
  target = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target) throw Error(ErrorKind::Internal, "LLVM has no AMDGPU target: " + error);
  registers.reset(target->createMCRegInfo(triple));
  asm_info.reset(target->createMCAsmInfo(*registers, triple, options));
  subtarget.reset(target->createMCSubtargetInfo(triple, gpu.processor, gpu.features));
  instr_info.reset(target->createMCInstrInfo());
  if (!registers || !asm_info || !subtarget || !instr_info)
    throw Error(ErrorKind::Internal, "LLVM could not create the MC layer for " + gpu.processor);
  // LLVM only warns about an unknown -mcpu and then encodes for a default chip: refuse instead.
  if (!subtarget->isCPUStringValid(gpu.processor))
    throw Error(ErrorKind::Usage,
                fmt::format("unknown AMDGPU target '{}' (LLVM {} does not know it)", gpu.processor,
                            llvm_version()));
  analysis.reset(target->createMCInstrAnalysis(instr_info.get()));
}

}  // namespace wavescope::compiler::isa::detail
