#pragma once
// Draws one instruction's text with syntax colors, optional search-match and token highlights.
// Shared by the ISA table and the CFG blocks so both look the same.

#include <QColor>
#include <QPainter>
#include <QRectF>
#include <QString>

#include "views/isa_tokens.hpp"
#include "wavescope/compiler/isa/instruction.hpp"

namespace wavescope::gui {

struct IsaPaintOptions {
  QString search;     // case-insensitive substring to mark, or empty
  QString highlight;  // register/mnemonic token whose uses are marked, or empty
};

// Paints `text` left-aligned, vertically centred in `rect`; returns the x after the last glyph.
qreal paint_instruction(QPainter &painter, const QRectF &rect, const QString &text,
                        compiler::isa::InstCategory category, const IsaPaintOptions &options);

// True if `token` (as clicked) is used by instruction `text` (register overlap or same mnemonic).
bool instruction_uses(const QString &text, const QString &token);

// The token of `text` at horizontal position `x` (relative to the text's left edge), or empty.
QString token_at(const QString &text, const QFont &font, qreal x);

QColor token_color(IsaToken::Kind kind, compiler::isa::InstCategory category);

}  // namespace wavescope::gui
