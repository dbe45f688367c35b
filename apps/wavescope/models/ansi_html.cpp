#include "models/ansi_html.hpp"

#include <string>

namespace wavescope::gui {

namespace {
const char *color_of(int code) {
  switch (code) {
  case 30: return "#7f848e";
  case 31: return "#e06c75";
  case 32: return "#98c379";
  case 33: return "#e5c07b";
  case 34: return "#61afef";
  case 35: return "#c678dd";
  case 36: return "#56b6c2";
  case 37: return "#d8dce4";
  case 90: return "#7f848e";
  case 91: return "#ff7b86";
  case 92: return "#b5e890";
  case 93: return "#ffd68a";
  case 94: return "#82c4ff";
  case 95: return "#dd9af0";
  case 96: return "#7fd8e3";
  case 97: return "#ffffff";
  default: return nullptr;
  }
}
}  // namespace

QString ansi_to_html(std::string_view text) {
  QString out;
  bool open = false;
  std::string run;
  auto flush = [&] {
    out += QString::fromStdString(run).toHtmlEscaped();
    run.clear();
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\x1b') {
      run += text[i];
      continue;
    }
    // ESC [ params final
    std::size_t j = i + 1;
    if (j < text.size() && text[j] == '[') ++j;
    const std::size_t params = j;
    while (j < text.size() && !(text[j] >= '@' && text[j] <= '~')) ++j;
    if (j >= text.size()) break;
    if (text[j] == 'm') {
      flush();
      const char *color = nullptr;
      bool reset = params == j;
      std::size_t k = params;
      while (k < j) {
        int code = 0;
        while (k < j && text[k] >= '0' && text[k] <= '9') code = code * 10 + (text[k++] - '0');
        if (k < j) ++k;  // ';'
        if (code == 0 || code == 39) reset = true, color = nullptr;
        if (const char *c = color_of(code)) color = c, reset = false;
      }
      if (open && (reset || color)) {
        out += QStringLiteral("</span>");
        open = false;
      }
      if (color) {
        out += QStringLiteral("<span style='color:%1'>").arg(QLatin1String(color));
        open = true;
      }
    }
    i = j;
  }
  flush();
  if (open) out += QStringLiteral("</span>");
  return out;
}

}  // namespace wavescope::gui
