#pragma once
// Reading a whole file into memory, failing with the project's error: Error(BadInput) naming
// the file, what it was meant to be and why it could not be read.

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace wavescope {

// `what` names the file's role for the message ("code object", "rewrite trace"); it may be empty:
// "cannot open code object k.elf: No such file or directory".
std::vector<std::uint8_t> read_file_bytes(const std::filesystem::path &path,
                                          std::string_view what = {});
std::string read_file_text(const std::filesystem::path &path, std::string_view what = {});

}  // namespace wavescope
