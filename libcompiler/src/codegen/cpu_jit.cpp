// The host-CPU target through ORC LLJIT (cpu_jit.hpp).

#include "wavescope/compiler/codegen/cpu_jit.hpp"

#include <mutex>

#include <fmt/format.h>
#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/ThreadSafeModule.h>
#include <llvm/Support/TargetSelect.h>

#include "../render/host_buffers.hpp"
#include "llvm_module.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/compiler/render/llvm_ir.hpp"
#include "wavescope/compiler/render/lowering.hpp"

namespace wavescope::compiler::codegen {

namespace {
void initialize_native() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
}

template <class T> T take(llvm::Expected<T> value, const char *what) {
  if (!value)
    throw Error(ErrorKind::Internal,
                fmt::format("LLVM JIT: {}: {}", what, detail::llvm_error_text(value.takeError())));
  return std::move(*value);
}
}  // namespace

struct CpuKernel::Impl {
  std::unique_ptr<llvm::orc::LLJIT> jit;
  void (*entry)(void **) = nullptr;
  std::vector<kernel::KernelParam> params;
  std::vector<lower::ScalarParam> scalars;
};

CpuKernel::CpuKernel() = default;
CpuKernel::CpuKernel(CpuKernel &&) noexcept = default;
CpuKernel &CpuKernel::operator=(CpuKernel &&) noexcept = default;
CpuKernel::~CpuKernel() = default;

CpuKernel CpuKernel::compile(const std::string &llvm_ir,
                             const std::vector<kernel::KernelParam> &params,
                             const std::vector<lower::ScalarParam> &scalars) {
  initialize_native();
  auto context = std::make_unique<llvm::LLVMContext>();
  auto module = detail::parse_module(llvm_ir, *context, "cpu kernel");
  auto builder = take(llvm::orc::JITTargetMachineBuilder::detectHost(), "host target");
  builder.setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
  auto machine = take(builder.createTargetMachine(), "target machine");
  module->setDataLayout(machine->createDataLayout());
  module->setTargetTriple(machine->getTargetTriple());
  detail::optimize_module(*module, machine.get());
  auto impl = std::make_unique<Impl>();
  impl->params = params;
  impl->scalars = scalars;
  impl->jit = take(
      llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(std::move(builder)).create(), "create");
  auto &dylib = impl->jit->getMainJITDylib();
  dylib.addGenerator(take(llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
                              impl->jit->getDataLayout().getGlobalPrefix()),
                          "process symbols"));
  if (auto err = impl->jit->addIRModule(
          llvm::orc::ThreadSafeModule(std::move(module), std::move(context))))
    throw Error(ErrorKind::Internal,
                fmt::format("LLVM JIT: add module: {}", detail::llvm_error_text(std::move(err))));
  auto addr = take(impl->jit->lookup("wavescope_entry"), "wavescope_entry");
  impl->entry = addr.toPtr<void (*)(void **)>();
  CpuKernel k;
  k.impl_ = std::move(impl);
  return k;
}

CpuKernel CpuKernel::compile(const UOp &sink) {
  const auto lowered = lower::lower(sink, lower::render_target("cpu"));
  return compile(render::render_llvm_ir(lowered), lowered.buffers, lowered.scalars);
}

void CpuKernel::run_raw(void **args) const { impl_->entry(args); }

void CpuKernel::run(std::vector<kernel::HostBuffer> &buffers,
                    const std::vector<std::int64_t> &scalar_values) const {
  auto packed = render::pack_buffers(impl_->params, buffers);
  std::vector<long long> values(scalar_values.begin(), scalar_values.end());
  auto args = render::entry_args(impl_->params, packed, impl_->scalars, values);
  impl_->entry(args.data());
  render::unpack_written(impl_->params, packed, buffers);
}

}  // namespace wavescope::compiler::codegen
