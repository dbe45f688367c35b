#include "wavescope/compiler/codegen/emit.hpp"

#include <nlohmann/json.hpp>

#include "wavescope/base/json_line.hpp"
#include "wavescope/compiler/codegen/amdgpu.hpp"
#include "wavescope/compiler/kernel/kernel_ast.hpp"
#include "wavescope/compiler/lower/lowering.hpp"
#include "wavescope/compiler/lower/program.hpp"
#include "wavescope/compiler/render/c_backend.hpp"
#include "wavescope/compiler/render/llvm_ir.hpp"

namespace wavescope::compiler::codegen {

std::string default_emit(std::string_view target) {
  return target == "c" ? "c" : target == "cpu" ? "llvm" : "asm";
}

std::string emit_extension(std::string_view emit) {
  return emit == "ast"    ? "json"
         : emit == "text" ? "txt"
         : emit == "llvm" ? "ll"
         : emit == "asm"  ? "s"
         : emit == "elf"  ? "hsaco"
                          : "c";
}

std::string emit_kernel(const UOp &k, std::string_view target, std::string_view emit,
                        bool lower_ast) {
  const std::string gpu(target);
  if (emit == "ast") {
    std::string text = kernel::kernel_to_json(k) + "\n";
    if (lower_ast)
      lower::lower(k, lower::render_target(is_amdgpu_target(gpu) || target == "cpu" ? gpu : "c"));
    return text;
  }
  if (emit == "text") return kernel::kernel_to_text(k);
  // Every rendered form ends with the kernel's "linearize/render" rewrite (lower/program.hpp), so
  // a trace being recorded has the program its viewer's source steps show.
  if (is_amdgpu_target(gpu) && (emit == "llvm" || emit == "asm" || emit == "elf")) {
    const auto lowered = lower::lower(k, lower::render_target(gpu));
    if (emit == "llvm") {
      render::LlvmTarget amdgpu;
      amdgpu.amdgpu = true;
      std::string ir = render::render_llvm_ir(lowered, amdgpu);
      lower::record_program(lowered, {gpu, ir, {}});
      return ir;
    }
    if (emit == "asm" || emit == "elf") {
      const auto compiled = compile_lowered(lowered, gpu, emit == "asm");
      lower::record_program(lowered, {gpu, compiled.llvm_ir, compiled.code_object});
      return emit == "asm" ? compiled.assembly
                           : std::string(compiled.code_object.begin(), compiled.code_object.end());
    }
  }
  if (emit == "asm" || emit == "elf") (void)compile_amdgpu(k, gpu);  // the unknown target's error
  if (emit == "llvm") {
    const auto lowered = lower::lower(k, lower::render_target("cpu"));
    std::string ir = render::render_llvm_ir(lowered);
    lower::record_program(lowered, {"cpu", ir, {}});
    return ir;
  }
  const auto lowered = render::lower_for_c(k);
  std::string c = render::render_c(lowered);
  lower::record_program(lowered, {"c", c, {}});
  return c;
}

std::string to_json_line(const EmitRecord &r) {
  nlohmann::ordered_json j;
  j["kernel"] = r.kernel;
  j["target"] = r.target;
  j["emit"] = r.form;
  j["bytes"] = r.output.size();
  if (!r.written) j["text"] = r.output;
  return json_line(j);
}

}  // namespace wavescope::compiler::codegen
