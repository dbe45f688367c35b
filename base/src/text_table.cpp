#include "wavescope/base/text_table.hpp"

#include <algorithm>

namespace wavescope {

TextTable::TextTable(std::vector<std::string> headers, std::vector<Align> align)
    : headers_(std::move(headers)), align_(std::move(align)) {
  align_.resize(headers_.size(), Align::Left);
}

void TextTable::add_row(std::vector<std::string> cells) {
  cells.resize(headers_.size());
  rows_.push_back(std::move(cells));
}

std::string TextTable::render() const {
  std::vector<std::size_t> width(headers_.size());
  for (std::size_t c = 0; c < headers_.size(); ++c) {
    width[c] = headers_[c].size();
    for (const auto &row : rows_) width[c] = std::max(width[c], row[c].size());
  }
  auto line = [&](const std::vector<std::string> &cells) {
    std::string out;
    for (std::size_t c = 0; c < cells.size(); ++c) {
      const std::string pad(width[c] - cells[c].size(), ' ');
      const bool last = c + 1 == cells.size();
      if (align_[c] == Align::Right)
        out += pad + cells[c];
      else
        out += last ? cells[c] : cells[c] + pad;
      if (!last) out += "  ";
    }
    return out + "\n";
  };
  std::string out = line(headers_);
  for (const auto &row : rows_) out += line(row);
  return out;
}

}  // namespace wavescope
