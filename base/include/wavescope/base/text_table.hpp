#pragma once
// Aligned text tables for the text printers of every library: a header line, then the rows, each
// column padded to its widest cell and separated by two spaces; the last column is not padded.

#include <string>
#include <vector>

namespace wavescope {

class TextTable {
public:
  enum class Align { Left, Right };
  explicit TextTable(std::vector<std::string> headers, std::vector<Align> align = {});
  void add_row(std::vector<std::string> cells);
  // The table with a header line and columns padded to their widest cell.
  std::string render() const;
  std::size_t rows() const { return rows_.size(); }

private:
  std::vector<std::string> headers_;
  std::vector<Align> align_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace wavescope
