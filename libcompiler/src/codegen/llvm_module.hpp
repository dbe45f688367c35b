#pragma once
// LLVM helpers the code generators share: parsing our textual IR into a module (errors naming the
// line), and the -O2 optimization pipeline.

#include <memory>
#include <string>

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Target/TargetMachine.h>

namespace wavescope::compiler::codegen::detail {

// Parses and verifies; throws Error(BadInput) with LLVM's diagnostic ("line 12:5: ...").
std::unique_ptr<llvm::Module> parse_module(const std::string &ir, llvm::LLVMContext &context,
                                           const std::string &origin);
// Runs LLVM's default -O2 module pipeline, tuned for `machine`, with loop and SLP vectorization
// (as clang -O2).
void optimize_module(llvm::Module &module, llvm::TargetMachine *machine);

std::string llvm_error_text(llvm::Error error);

}  // namespace wavescope::compiler::codegen::detail
