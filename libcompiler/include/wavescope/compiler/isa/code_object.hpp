#pragma once
// An AMDGPU code object (ELF64) read with LLVM's Object library: target, symbols, kernels with
// their descriptors, and the .text section.
//
// Real code objects written by tinygrad's own ELF packer leave e_ident[EI_DATA], e_type, e_machine,
// e_flags and e_shentsize zero. They are real, so they load: the reader repairs a copy of the
// header, says what was unusual in quirks(), and needs the target from the caller when e_flags
// does not name one.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "wavescope/base/error.hpp"
#include "wavescope/compiler/isa/gpu_target.hpp"
#include "wavescope/compiler/isa/kernel_descriptor.hpp"

namespace wavescope::compiler::isa {

struct Symbol {
  std::string name;
  std::uint64_t value = 0;
  std::uint64_t size = 0;
  enum class Kind { Function, Object, Absolute, Other } kind = Kind::Other;
  std::string section;  // empty for absolute and undefined symbols
};

struct Kernel {
  std::string name;
  std::uint64_t entry = 0;      // address of the first instruction
  std::uint64_t code_size = 0;  // bytes of code (symbol size; to the end of .text if unknown)
  std::uint64_t descriptor_address = 0;
  KernelDescriptor descriptor;
};

struct Section {
  std::string name;
  std::uint64_t address = 0;
  std::uint64_t file_offset = 0;
  std::uint64_t size = 0;
};

struct CodeObjectOptions {
  // The processor to assume when e_flags does not name one (tinygrad packer ELFs); also
  // overrides e_flags when set.
  std::optional<std::string> target;
  // The kernel's name when the ELF carries no symbols (tinygrad packer ELFs).
  std::optional<std::string> kernel_name;
};

// A code object whose header names no processor LLVM knows, loaded without a target: the problem
// (file, e_flags) and, in the message, the remedy in the library's terms (CodeObjectOptions's
// target); a tool words the remedy with its own option.
class TargetNotNamed : public Error {
public:
  explicit TargetNotNamed(std::string problem)
      : Error(ErrorKind::BadInput, problem + "; name the target processor, e.g. gfx1100"),
        problem_(std::move(problem)) {}
  const std::string &problem() const noexcept { return problem_; }

private:
  std::string problem_;
};

class CodeObject {
public:
  // Throws Error(BadInput) naming the file and what is wrong, Error(Usage) for an unknown target.
  static CodeObject load(const std::filesystem::path &path, const CodeObjectOptions &options = {});
  static CodeObject from_bytes(std::vector<std::uint8_t> bytes,
                               const CodeObjectOptions &options = {},
                               std::string origin = "<memory>");

  const std::string &origin() const { return origin_; }
  const GpuTarget &target() const { return target_; }
  std::uint32_t elf_flags() const { return elf_flags_; }
  // What is unusual about the file, one sentence each (empty for a well-formed code object).
  const std::vector<std::string> &quirks() const { return quirks_; }

  const std::vector<Section> &sections() const { return sections_; }
  const std::vector<Symbol> &symbols() const { return symbols_; }
  const std::vector<Kernel> &kernels() const { return kernels_; }
  const Section &text() const { return text_; }
  std::span<const std::uint8_t> text_bytes() const;
  // The kernel called `name`; throws Error(Usage) listing the kernels there are if none is.
  const Kernel &kernel(std::string_view name) const;

  // The file's bytes as read, and a copy with the header repaired so standard tools accept it.
  const std::vector<std::uint8_t> &bytes() const { return bytes_; }
  const std::vector<std::uint8_t> &normalized_bytes() const { return normalized_; }

private:
  std::string origin_;
  GpuTarget target_;
  std::uint32_t elf_flags_ = 0;
  std::vector<std::string> quirks_;
  std::vector<Section> sections_;
  std::vector<Symbol> symbols_;
  std::vector<Kernel> kernels_;
  Section text_;
  std::vector<std::uint8_t> bytes_;
  std::vector<std::uint8_t> normalized_;
};

}  // namespace wavescope::compiler::isa
