#pragma once
// The app's look: a dark palette and the colours that carry meaning across views.

#include <QColor>
#include <QFont>

#include "wavescope/compiler/isa/cfg.hpp"
#include "wavescope/compiler/isa/instruction.hpp"

class QApplication;

namespace wavescope::gui::theme {

void apply(QApplication &app);

QColor background();
QColor panel();
QColor text();
QColor muted_text();
QColor accent();
QColor selection();

// Colour of an instruction category (ISA text, timeline bars, CFG tokens).
QColor category_color(compiler::isa::InstCategory category);
// Colour of a CFG edge by kind: taken green, not-taken red, unconditional blue.
QColor edge_color(compiler::isa::EdgeKind kind);
// A heat colour for a share in [0, 1] (cold blue to hot red).
QColor heat_color(double share);

QFont monospace_font(int point_size = 10);

}  // namespace wavescope::gui::theme
