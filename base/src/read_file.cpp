#include "wavescope/base/read_file.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>

#include "wavescope/base/error.hpp"

namespace wavescope {
namespace {

template <class Container>
Container read_whole(const std::filesystem::path &path, std::string_view what) {
  const std::string name = what.empty() ? path.string() : std::string(what) + " " + path.string();
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw Error(ErrorKind::BadInput, "cannot read " + name + ": it is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(ErrorKind::BadInput, "cannot open " + name + ": " + std::strerror(errno));
  Container bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (in.bad())
    throw Error(ErrorKind::BadInput, "cannot read " + name + ": " + std::strerror(errno));
  return bytes;
}

}  // namespace

std::vector<std::uint8_t> read_file_bytes(const std::filesystem::path &path,
                                          std::string_view what) {
  return read_whole<std::vector<std::uint8_t>>(path, what);
}

std::string read_file_text(const std::filesystem::path &path, std::string_view what) {
  return read_whole<std::string>(path, what);
}

}  // namespace wavescope
