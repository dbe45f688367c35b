#pragma once
// Aligned text tables for human output.

#include <string>
#include <vector>

namespace wavectl {

class Table {
public:
  enum class Align { Left, Right };
  explicit Table(std::vector<std::string> headers, std::vector<Align> align = {});
  void add_row(std::vector<std::string> cells);
  // The table with a header line and columns padded to their widest cell.
  std::string render() const;
  std::size_t rows() const { return rows_.size(); }

private:
  std::vector<std::string> headers_;
  std::vector<Align> align_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace wavectl
