#include "app/theme.hpp"

#include <QApplication>
#include <QFontDatabase>
#include <QPalette>
#include <QStyleFactory>

#include <algorithm>
#include <iterator>

namespace wavescope::gui::theme {

QColor background() { return QColor(0x16, 0x18, 0x1d); }
QColor panel() { return QColor(0x1e, 0x21, 0x28); }
QColor text() { return QColor(0xd8, 0xdc, 0xe4); }
QColor muted_text() { return QColor(0x8a, 0x91, 0x9e); }
QColor accent() { return QColor(0x4f, 0xa3, 0xff); }
QColor latency_color() { return QColor(0x3f, 0x78, 0xb8); }
QColor stall_color() { return QColor(0xff, 0x8a, 0x3d); }
QColor selection() { return QColor(0x2d, 0x4f, 0x7c); }

void apply(QApplication &app) {
  app.setStyle(QStyleFactory::create("Fusion"));
  QPalette p;
  p.setColor(QPalette::Window, panel());
  p.setColor(QPalette::WindowText, text());
  p.setColor(QPalette::Base, background());
  p.setColor(QPalette::AlternateBase, QColor(0x1b, 0x1e, 0x24));
  p.setColor(QPalette::ToolTipBase, panel());
  p.setColor(QPalette::ToolTipText, text());
  p.setColor(QPalette::Text, text());
  p.setColor(QPalette::Button, QColor(0x26, 0x2a, 0x33));
  p.setColor(QPalette::ButtonText, text());
  p.setColor(QPalette::BrightText, Qt::white);
  p.setColor(QPalette::Highlight, selection());
  p.setColor(QPalette::HighlightedText, Qt::white);
  p.setColor(QPalette::Link, accent());
  p.setColor(QPalette::PlaceholderText, muted_text());
  p.setColor(QPalette::Disabled, QPalette::Text, muted_text());
  p.setColor(QPalette::Disabled, QPalette::WindowText, muted_text());
  app.setPalette(p);
}

QColor category_color(compiler::isa::InstCategory category) {
  using compiler::isa::InstCategory;
  switch (category) {
  case InstCategory::Salu: return QColor(0x6c, 0xb6, 0xff);
  case InstCategory::Smem: return QColor(0xc6, 0x92, 0xff);
  case InstCategory::Valu: return QColor(0x7e, 0xd3, 0x7e);
  case InstCategory::Vmem: return QColor(0xff, 0xa6, 0x4d);
  case InstCategory::Lds: return QColor(0xff, 0xd8, 0x4d);
  case InstCategory::Branch: return QColor(0xff, 0x6b, 0x8b);
  case InstCategory::Waitcnt: return QColor(0x9a, 0xa4, 0xb5);
  case InstCategory::Barrier: return QColor(0xff, 0x5c, 0x5c);
  case InstCategory::Message: return QColor(0x4d, 0xd6, 0xd6);
  case InstCategory::Endpgm: return QColor(0xe0, 0x6c, 0xff);
  case InstCategory::Other: break;
  }
  return QColor(0x7a, 0x80, 0x8c);
}

QColor event_color(trace::timeline::EventCategory category) {
  using compiler::isa::InstCategory;
  using trace::timeline::EventCategory;
  switch (category) {
  case EventCategory::Salu: return category_color(InstCategory::Salu);
  case EventCategory::Smem: return category_color(InstCategory::Smem);
  case EventCategory::Valu: return category_color(InstCategory::Valu);
  case EventCategory::Transcendental: return QColor(0x3f, 0xc9, 0xb0);
  case EventCategory::Wmma: return QColor(0x2f, 0x9e, 0x6e);
  case EventCategory::Vmem: return category_color(InstCategory::Vmem);
  case EventCategory::Lds: return category_color(InstCategory::Lds);
  case EventCategory::Branch: return category_color(InstCategory::Branch);
  case EventCategory::Immediate: return category_color(InstCategory::Waitcnt);
  case EventCategory::Barrier: return category_color(InstCategory::Barrier);
  case EventCategory::Message: return category_color(InstCategory::Message);
  case EventCategory::WaveEnd: return category_color(InstCategory::Endpgm);
  case EventCategory::WaveReady: return QColor(0x4f, 0x7a, 0x78);
  case EventCategory::OtherSimd: return QColor(0x5a, 0x61, 0x6e);
  case EventCategory::Other: break;
  }
  return category_color(InstCategory::Other);
}

QString event_category_label(trace::timeline::EventCategory category) {
  using trace::timeline::EventCategory;
  switch (category) {
  case EventCategory::Salu: return QStringLiteral("SALU");
  case EventCategory::Smem: return QStringLiteral("SMEM");
  case EventCategory::Valu: return QStringLiteral("VALU");
  case EventCategory::Transcendental: return QStringLiteral("trans");
  case EventCategory::Wmma: return QStringLiteral("WMMA");
  case EventCategory::Vmem: return QStringLiteral("VMEM");
  case EventCategory::Lds: return QStringLiteral("LDS");
  case EventCategory::Branch: return QStringLiteral("branch");
  case EventCategory::Immediate: return QStringLiteral("immediate");
  case EventCategory::Barrier: return QStringLiteral("barrier");
  case EventCategory::Message: return QStringLiteral("message");
  case EventCategory::WaveEnd: return QStringLiteral("wave end");
  case EventCategory::WaveReady: return QStringLiteral("wave ready");
  case EventCategory::OtherSimd: return QStringLiteral("other SIMD");
  case EventCategory::Other: break;
  }
  return QStringLiteral("other");
}

QColor series_color(int index) {
  static const QColor colors[] = {QColor(0x4f, 0xa3, 0xff), QColor(0xff, 0xa6, 0x4d),
                                  QColor(0x7e, 0xd3, 0x7e), QColor(0xff, 0x6b, 0x8b),
                                  QColor(0xc6, 0x92, 0xff), QColor(0x4d, 0xd6, 0xd6),
                                  QColor(0xff, 0xd8, 0x4d), QColor(0xb0, 0xb8, 0xc8)};
  return colors[static_cast<std::size_t>(index) % std::size(colors)];
}

QColor traced_wave_color() { return QColor(0x4f, 0x8f, 0xd8); }
QColor other_wave_color() { return QColor(0x4a, 0x55, 0x6b); }

QColor wave_state_color(trace::timeline::WaveState state) {
  using trace::timeline::WaveState;
  switch (state) {
  case WaveState::Idle: return QColor(0x3a, 0x40, 0x4e);
  case WaveState::Exec: return QColor(0x3f, 0xb9, 0x50);
  case WaveState::Wait: return QColor(0xe3, 0xb3, 0x41);
  case WaveState::Stall: return QColor(0xf8, 0x51, 0x49);
  }
  return QColor(0x3a, 0x40, 0x4e);
}

QColor canvas() { return QColor(0x10, 0x12, 0x16); }
QColor grid() { return QColor(0x2a, 0x2e, 0x36); }

QColor edge_color(compiler::isa::EdgeKind kind) {
  using compiler::isa::EdgeKind;
  switch (kind) {
  case EdgeKind::Taken: return QColor(0x4c, 0xc9, 0x6b);
  case EdgeKind::NotTaken: return QColor(0xf0, 0x5d, 0x5d);
  case EdgeKind::Unconditional: return QColor(0x5b, 0x9d, 0xff);
  case EdgeKind::FallThrough: break;
  }
  return QColor(0x9a, 0xa0, 0xaa);
}

QColor heat_color(double share) {
  share = std::clamp(share, 0.0, 1.0);
  // Hue from blue (240) through yellow to red (0).
  return QColor::fromHsvF(static_cast<float>((1.0 - share) * 240.0 / 360.0), 0.75f, 0.95f);
}

QFont monospace_font(int point_size) {
  QFont font = QFontDatabase::systemFont(QFontDatabase::FixedFont);
  font.setPointSize(point_size);
  return font;
}

}  // namespace wavescope::gui::theme
