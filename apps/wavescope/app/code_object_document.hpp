#pragma once
// An opened AMDGPU code object: its kernels disassembled, each with its CFG.

#include <memory>
#include <optional>

#include "app/document.hpp"
#include "wavescope/compiler/isa/code_object.hpp"

namespace wavescope::gui {

class CodeObjectDocument final : public Document {
public:
  DocumentKind kind() const override { return DocumentKind::CodeObject; }
  int kernel_count() const override { return static_cast<int>(kernels.size()); }
  const KernelCode *kernel(int index) const override {
    return index >= 0 && index < kernel_count() ? &kernels[static_cast<std::size_t>(index)]
                                                : nullptr;
  }

  std::shared_ptr<const compiler::isa::CodeObject> code;
  std::vector<KernelCode> kernels;  // one per kernel, or all of .text as one unit
};

// The kernels of a code object (one unit for all of .text when it names none).
std::vector<KernelCode> kernel_code_of(const compiler::isa::CodeObject &code);

// Loads and disassembles a code object. Throws wavescope::Error with a message for the user.
std::shared_ptr<CodeObjectDocument> load_code_object(const QString &path,
                                                     std::optional<std::string> target = {},
                                                     std::optional<std::string> kernel_name = {});

}  // namespace wavescope::gui
