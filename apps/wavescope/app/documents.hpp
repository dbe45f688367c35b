#pragma once
// What the app can open, loaded into library models (outside the GUI thread). Views read these;
// nothing here knows about widgets.

#include <QString>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "wavescope/compiler/isa/cfg.hpp"
#include "wavescope/compiler/isa/code_object.hpp"
#include "wavescope/compiler/isa/instruction.hpp"

namespace wavescope::gui {

// One kernel of a code object, disassembled, with its control-flow graph.
struct KernelCode {
  std::string name;
  std::vector<compiler::isa::Instruction> instructions;
  compiler::isa::Cfg cfg;
};

struct CodeObjectDocument {
  QString path;
  std::shared_ptr<const compiler::isa::CodeObject> code;
  std::vector<compiler::isa::Instruction> text;  // all of .text
  std::vector<KernelCode> kernels;               // one per kernel, or .text as one unit
};

enum class DocumentKind { CodeObject, Capture, RewriteTrace, Unknown };

// What `path` looks like: a folder with meta.json, a JSON file, an ELF.
DocumentKind detect_document_kind(const QString &path);

// Loads and disassembles a code object. Throws wavescope::Error with a message for the user.
std::shared_ptr<CodeObjectDocument> load_code_object(const QString &path,
                                                     std::optional<std::string> target = {},
                                                     std::optional<std::string> kernel_name = {});

}  // namespace wavescope::gui
