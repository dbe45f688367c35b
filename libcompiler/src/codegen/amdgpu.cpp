// AMDGPU code objects through LLVM's AMDGPU backend and lld (amdgpu.hpp, linker.hpp).

#include "wavescope/compiler/codegen/amdgpu.hpp"

#include <algorithm>
#include <cstdint>
#include <mutex>
#include <span>

#include <fmt/format.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Target/TargetOptions.h>
#include <llvm/TargetParser/Triple.h>

#include "llvm_module.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/compiler/codegen/linker.hpp"
#include "wavescope/compiler/kernel/kernel_ast.hpp"
#include "wavescope/compiler/lower/lowering.hpp"
#include "wavescope/compiler/render/c_backend.hpp"
#include "wavescope/compiler/render/llvm_ir.hpp"

extern "C" {
void LLVMInitializeAMDGPUTargetInfo();
void LLVMInitializeAMDGPUTarget();
void LLVMInitializeAMDGPUTargetMC();
void LLVMInitializeAMDGPUAsmPrinter();
}

namespace wavescope::compiler::codegen {
namespace {

constexpr const char *kTriple = "amdgcn-amd-amdhsa";
// CU mode (as tinygrad compiles for AMD): a workgroup's waves share one CU and its L0 cache, so
// the workgroup-scope fences around a BARRIER (which orders LOCAL memory) need no cache
// invalidation. In WGP mode, LLVM's default on gfx10+, every barrier's acquire invalidates the
// vector L0 (gfx11 buffer_gl0_inv, gfx12 global_inv) because two CUs share a workgroup. gfx950
// has no WGP and ignores the feature.
constexpr const char *kFeatures = "+cumode";

void initialize_amdgpu() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTarget();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUAsmPrinter();
  });
}

std::unique_ptr<llvm::TargetMachine> make_machine(const std::string &processor) {
  initialize_amdgpu();
  const llvm::Triple triple(kTriple);
  std::string error;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target) throw Error(ErrorKind::Internal, "LLVM has no AMDGPU target: " + error);
  llvm::TargetOptions options;
  std::unique_ptr<llvm::TargetMachine> machine(
      target->createTargetMachine(triple, processor, kFeatures, options, llvm::Reloc::PIC_,
                                  std::nullopt, llvm::CodeGenOptLevel::Aggressive));
  if (!machine)
    throw Error(ErrorKind::Internal, "LLVM could not create a target machine for " + processor);
  return machine;
}

std::string emit(const std::string &ir, const std::string &processor, llvm::CodeGenFileType type,
                 const std::string &origin) {
  llvm::LLVMContext context;
  auto module = detail::parse_module(ir, context, origin);
  auto machine = make_machine(processor);
  module->setDataLayout(machine->createDataLayout());
  module->setTargetTriple(machine->getTargetTriple());
  detail::optimize_module(*module, machine.get());
  llvm::SmallString<0> out;
  llvm::raw_svector_ostream os(out);
  llvm::legacy::PassManager pm;
  if (machine->addPassesToEmitFile(pm, os, nullptr, type))
    throw Error(ErrorKind::Internal, "the AMDGPU target cannot emit this file type");
  pm.run(*module);
  return std::string(out.str());
}

}  // namespace

const std::vector<std::string> &amdgpu_targets() {
  static const std::vector<std::string> t{"gfx1100", "gfx1201", "gfx950"};
  return t;
}

bool is_amdgpu_target(const std::string &name) {
  const auto &t = amdgpu_targets();
  return std::find(t.begin(), t.end(), name) != t.end();
}

namespace {

void check_target(const std::string &processor) {
  if (!is_amdgpu_target(processor))
    throw Error(ErrorKind::Usage,
                fmt::format("unknown AMDGPU target '{}' (gfx1100, gfx1201 or gfx950)", processor));
}

AmdgpuKernel render_lowered(const lower::LoweredKernel &lowered, const std::string &processor) {
  AmdgpuKernel k;
  k.processor = processor;
  k.name = lowered.name;
  k.symbol = render::c_identifier(lowered.name);
  k.launch = lowered.launch;
  k.local_bytes = lowered.local_bytes;
  k.scalars = lowered.scalars;
  render::LlvmTarget target;
  target.amdgpu = true;
  k.llvm_ir = render::render_llvm_ir(lowered, target);
  return k;
}

void build(AmdgpuKernel &k, bool assembly) {
  const std::string origin = fmt::format("{} for {}", k.name, k.processor);
  if (assembly)
    k.assembly = emit(k.llvm_ir, k.processor, llvm::CodeGenFileType::AssemblyFile, origin);
  const std::string object =
      emit(k.llvm_ir, k.processor, llvm::CodeGenFileType::ObjectFile, origin);
  k.code_object = link_code_object(
      std::span(reinterpret_cast<const std::uint8_t *>(object.data()), object.size()), origin);
}

}  // namespace

AmdgpuKernel render_amdgpu(const UOp &sink, const std::string &processor) {
  check_target(processor);
  return render_lowered(lower::lower(sink, lower::render_target(processor)), processor);
}

AmdgpuKernel compile_amdgpu(const UOp &sink, const std::string &processor, bool assembly) {
  AmdgpuKernel k = render_amdgpu(sink, processor);
  build(k, assembly);
  return k;
}

AmdgpuKernel compile_lowered(const lower::LoweredKernel &kernel, const std::string &processor,
                             bool assembly) {
  check_target(processor);
  AmdgpuKernel k = render_lowered(kernel, processor);
  build(k, assembly);
  return k;
}

}  // namespace wavescope::compiler::codegen
