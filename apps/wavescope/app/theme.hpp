#pragma once
// The app's look: a dark palette and the colors that carry meaning across views.

#include <QColor>
#include <QFont>
#include <QString>

#include "wavescope/compiler/isa/cfg.hpp"
#include "wavescope/compiler/isa/instruction.hpp"
#include "wavescope/trace/timeline/timeline_model.hpp"

class QApplication;

namespace wavescope::gui::theme {

void apply(QApplication &app);

QColor background();
QColor panel();
QColor text();
QColor muted_text();
QColor accent();
QColor selection();

// Color of an instruction category (ISA text, timeline bars, CFG tokens).
QColor category_color(compiler::isa::InstCategory category);
// Color of a timeline event category (wave and exec-unit bars, the legend); matches
// category_color for the instruction kinds both know.
QColor event_color(trace::timeline::EventCategory category);
// Short legend name of an event category ("SALU", "VMEM", "barrier", ...).
QString event_category_label(trace::timeline::EventCategory category);
// Occupancy lanes: waves whose instructions were traced, and all the others.
QColor traced_wave_color();
QColor other_wave_color();
// The state lane under a wave row: IDLE dim, EXEC green, WAIT amber, STALL red.
QColor wave_state_color(trace::timeline::WaveState state);
// Color of the n-th series of a set (shader engines in charts).
QColor series_color(int index);
// Window background of plots and timelines, a shade darker than background().
QColor canvas();
// Grid and separator lines on canvases.
QColor grid();

// Color of a CFG edge by kind: taken green, not-taken red, unconditional blue.
QColor edge_color(compiler::isa::EdgeKind kind);
// A heat color for a share in [0, 1] (cold blue to hot red).
QColor heat_color(double share);
// The timing table's stall/latency bar: the latency, and its stall part drawn over it.
QColor latency_color();
QColor stall_color();

QFont monospace_font(int point_size = 10);

}  // namespace wavescope::gui::theme
