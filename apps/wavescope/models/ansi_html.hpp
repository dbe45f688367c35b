#pragma once
// tinygrad colors kernel names with ANSI escapes (each axis by its type: global blue, local cyan,
// reduce red, upcast yellow, ...): the same colors as HTML spans for rich-text labels.

#include <QString>

#include <string_view>

namespace wavescope::gui {

// `text` HTML-escaped, its SGR color escapes as <span style='color:...'> (other escapes dropped).
QString ansi_to_html(std::string_view text);

}  // namespace wavescope::gui
