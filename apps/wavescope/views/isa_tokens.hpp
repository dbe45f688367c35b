#pragma once
// Splits AMDGPU instruction text into colored tokens (mnemonic, registers, numbers, modifiers)
// for syntax highlighting and for click-a-token-to-highlight-its-uses.

#include <QString>
#include <QVector>

namespace wavescope::gui {

struct IsaToken {
  enum class Kind { Mnemonic, Register, Number, Modifier, Punctuation, Other };
  Kind kind = Kind::Other;
  int start = 0;  // character offset in the text
  int length = 0;
  QString text;
  // The register file and index range a register token names, for use highlighting:
  // "s[4:7]" -> ("s", 4, 7); "v3" -> ("v", 3, 3); special registers -> (name, 0, 0).
  QString register_file;
  int first = 0, last = 0;
};

QVector<IsaToken> tokenize_instruction(const QString &text);

// True if two register tokens name overlapping registers (s[4:7] and s5 overlap).
bool registers_overlap(const IsaToken &a, const IsaToken &b);

}  // namespace wavescope::gui
