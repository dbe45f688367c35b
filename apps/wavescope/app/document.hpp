#pragma once
// Something the app has open: a code object, a capture or a rewrite trace, loaded into library
// models outside the GUI thread. Views read documents; documents know nothing of widgets.

#include <QString>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "wavescope/compiler/isa/cfg.hpp"
#include "wavescope/compiler/isa/instruction.hpp"
#include "wavescope/trace/profile/profile.hpp"

namespace wavescope::gui {

enum class DocumentKind { CodeObject, Capture, RewriteTrace, SymbolicCases, Profile, Unknown };

// What `path` looks like: a folder with meta.json (capture), an ELF (code object), a JSON file
// (rewrite trace), a JSON-lines file (symbolic corpus cases), a Chrome/Perfetto trace JSON
// (profile). A tinygrad profile pickle is a Capture: it opens as one when it holds SQTT/PMC data,
// else as a profile.
DocumentKind detect_document_kind(const QString &path);

// One kernel's code, disassembled, with its control-flow graph: what the ISA and CFG views show.
struct KernelCode {
  std::string name;
  std::string target;  // processor, e.g. "gfx1100"
  std::vector<compiler::isa::Instruction> instructions;
  compiler::isa::Cfg cfg;
};

class Document {
public:
  virtual ~Document() = default;
  virtual DocumentKind kind() const = 0;

  QString path;
  QString title;  // short name for the navigator

  // The kernels whose code the document holds (code objects, capture programs).
  virtual int kernel_count() const { return 0; }
  virtual const KernelCode *kernel(int /*index*/) const { return nullptr; }
  // Per-PC cost share of a kernel ("cost %" / 100: the instruction's share of the kernel's
  // cycles, summing to at most 1), keyed by ELF address; nullptr when there is no timing for it.
  virtual const std::map<std::uint64_t, double> *pc_heat(int /*kernel*/) const { return nullptr; }
  // The profile behind the document (its timeline and memory), or nullptr when it has none.
  virtual const trace::profile::Profile *profile() const { return nullptr; }
};

}  // namespace wavescope::gui
