#pragma once
// What `wavectl compile` emits for one kernel and target, and its printer: the kernel AST (JSON or
// text), the C source, LLVM IR (host CPU or AMDGPU), AMDGPU assembly or a code object.

#include <cstddef>
#include <string>
#include <string_view>

#include "wavescope/compiler/ir/uop.hpp"

namespace wavescope::compiler::codegen {

// What a target emits by default: "c" for c, "llvm" for cpu, "asm" for a GPU target.
std::string default_emit(std::string_view target);
// The file extension of an emitted form: json, txt, c, ll, s or hsaco.
std::string emit_extension(std::string_view emit);

// `kernel` as `emit` ("ast", "text", "c", "llvm", "asm" or "elf") for `target` ("c", "cpu" or a
// GPU target); "elf" gives the code object's bytes. With `lower_ast`, "ast" also runs the
// lowering (so a rewrite trace being recorded holds its passes). The backends' errors pass through.
std::string emit_kernel(const UOp &kernel, std::string_view target, std::string_view emit,
                        bool lower_ast = false);

// One kernel's output: {"kernel","target","emit","bytes"[,"text"]} (the text only when it was
// not written to a file). `form` is what was emitted ("c", "llvm", ...; not named `emit`, which
// Qt defines as a macro, so that the app can include this header).
struct EmitRecord {
  std::string kernel, target, form;
  const std::string &output;
  bool written = false;
};
std::string to_json_line(const EmitRecord &record);

}  // namespace wavescope::compiler::codegen
