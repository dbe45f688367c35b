#pragma once
// What `wavectl codeobj`, `disasm`, `cfg` and `asm` report, and their printers: JSON (one object
// per line, keys in a fixed order) and text. The tool picks a printer; the ISA layer prints.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "wavescope/compiler/isa/cfg.hpp"
#include "wavescope/compiler/isa/code_object.hpp"
#include "wavescope/compiler/isa/instruction.hpp"

namespace wavescope::compiler::isa {

class AssemblyError;

// A code object's target, quirks, kernels (with their descriptors), sections and symbols.
struct CodeObjectReport {
  const CodeObject &code;
};
std::string to_json(const CodeObjectReport &report);
std::string to_text(const CodeObjectReport &report);

// A disassembly listing; the JSON form is one line per instruction, the text form collapses runs
// of s_code_end padding unless `collapse_padding` is false and labels kernel entries.
struct DisassemblyReport {
  const CodeObject &code;
  const std::vector<Instruction> &instructions;
  bool collapse_padding = true;
};
std::string to_json(const DisassemblyReport &report);
std::string to_text(const DisassemblyReport &report);

// One unit's (a kernel's or the whole .text's) control-flow graph: blocks, edges and the branch
// targets it could not resolve.
struct CfgReport {
  std::string name;
  const Cfg &cfg;
};
std::string to_json(const CfgReport &report);
std::string to_text(const CfgReport &report);

// The result of assembling text: the code bytes and where they went (`output` empty: nowhere,
// and the text form shows them as little-endian words, eight a line).
struct AssemblyReport {
  std::string target;
  std::span<const std::uint8_t> bytes;
  std::string output;
};
std::string to_json(const AssemblyReport &report);
std::string to_text(const AssemblyReport &report);

// The assembler's failure with each diagnostic as `file:line:column: error|warning: message`.
std::string describe(const AssemblyError &error, const std::string &file);

}  // namespace wavescope::compiler::isa
