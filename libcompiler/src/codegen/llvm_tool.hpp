#pragma once
// The programs of the LLVM libcompiler is built on (LLVM 22's bin directory), private to
// libcompiler: its ld.lld links code objects, its clang compiles the C target.

#include <filesystem>
#include <optional>
#include <string>
#include <system_error>

namespace wavescope::compiler::codegen {

// The path of LLVM's own `name` (e.g. "clang") when that program is installed, else nothing.
inline std::optional<std::string> own_llvm_tool(const char *name) {
  const std::filesystem::path path = std::filesystem::path(WAVESCOPE_LLVM_TOOLS_DIR) / name;
  std::error_code ec;
  if (std::filesystem::exists(path, ec)) return path.string();
  return std::nullopt;
}

}  // namespace wavescope::compiler::codegen
