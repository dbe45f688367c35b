// Shared LLVM helpers (llvm_module.hpp).

#include "llvm_module.hpp"

#include <fmt/format.h>
#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/raw_ostream.h>

#include "wavescope/base/error.hpp"

namespace wavescope::compiler::codegen::detail {

std::unique_ptr<llvm::Module> parse_module(const std::string &ir, llvm::LLVMContext &context,
                                           const std::string &origin) {
  llvm::SMDiagnostic diag;
  auto module = llvm::parseAssemblyString(ir, diag, context);
  if (!module)
    throw Error(ErrorKind::BadInput,
                fmt::format("{}: LLVM IR line {}:{}: {}", origin, diag.getLineNo(),
                            diag.getColumnNo(), diag.getMessage().str()));
  std::string text;
  llvm::raw_string_ostream os(text);
  if (llvm::verifyModule(*module, &os)) {
    os.flush();
    throw Error(ErrorKind::BadInput, fmt::format("{}: invalid LLVM IR: {}", origin, text));
  }
  return module;
}

void optimize_module(llvm::Module &module, llvm::TargetMachine *machine) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  // As clang at -O2: loop and SLP vectorization on (PassBuilder's defaults leave SLP off, and
  // the scalarized lanes of upcast/unrolled kernels are exactly what SLP packs into vectors).
  llvm::PipelineTuningOptions tuning;
  tuning.LoopVectorization = true;
  tuning.SLPVectorization = true;
  llvm::PassBuilder pb(machine, tuning);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager mpm = pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O2);
  mpm.run(module, mam);
}

std::string llvm_error_text(llvm::Error error) { return llvm::toString(std::move(error)); }

}  // namespace wavescope::compiler::codegen::detail
