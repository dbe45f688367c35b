#pragma once
// AMDGPU assembly text to machine code for a target, over LLVM MC's assembly parser.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "wavescope/base/error.hpp"
#include "wavescope/compiler/isa/gpu_target.hpp"

namespace wavescope::compiler::isa {

struct AsmDiagnostic {
  int line = 0;    // 1-based line in the source text
  int column = 0;  // 1-based column
  std::string message;
  bool is_error = true;
};

// Thrown by assemble(): an Error(BadInput) that also carries every diagnostic.
class AssemblyError : public Error {
public:
  AssemblyError(const std::string &message, std::vector<AsmDiagnostic> diagnostics)
      : Error(ErrorKind::BadInput, message), diagnostics_(std::move(diagnostics)) {}
  const std::vector<AsmDiagnostic> &diagnostics() const { return diagnostics_; }

private:
  std::vector<AsmDiagnostic> diagnostics_;
};

// Assembles instructions (one per line, labels and comments allowed) into the bytes of a code
// section. Throws AssemblyError on any error diagnostic, Error(Usage) for an unknown target.
std::vector<std::uint8_t> assemble(std::string_view source, const GpuTarget &target);

}  // namespace wavescope::compiler::isa
