#pragma once
// How the rewrite graph draws a node of each op: its fill color and the legend group it belongs
// to. The colors are tinygrad VIZ's (spec/viz.md §2.3) where VIZ has one; VIZ paints every ALU op
// the same yellow, which says little in index math, so ALU ops are split into families of
// neighbouring warm tones (add/mul stays VIZ's yellow).

#include <QColor>
#include <QString>

#include "wavescope/compiler/ir/ops.hpp"

namespace wavescope::gui {

struct OpStyle {
  QColor fill;
  QString group;  // legend entry, e.g. "div / mod", "variable", "constant"
};

OpStyle op_style(compiler::Op op);
// Dark or light text, whichever reads better on `fill`.
QColor text_color_on(const QColor &fill);

}  // namespace wavescope::gui
