// Field encode/decode and read-modify-write (am-driver.md §4.1).

#include "wavescope/hw/regs/register_codec.hpp"

#include <fmt/format.h>

#include "wavescope/base/error.hpp"

namespace wavescope::hw::regs {

unsigned register_width(const Register &reg) {
  unsigned width = 32;
  for (const auto &f : reg.fields) width = std::max(width, unsigned(f.hi) + 1);
  return width;
}

std::uint64_t decode_field(const Field &field, std::uint64_t value) {
  return (value & field.mask()) >> field.lo;
}

std::vector<FieldValue> decode_register(const Register &reg, std::uint64_t value) {
  const unsigned width = register_width(reg);
  if (width < 64 && value >> width)
    throw Error(ErrorKind::Usage, fmt::format("value {:#x} is wider than register {} ({} bits)",
                                              value, reg.umr_name(), width));
  std::vector<FieldValue> out;
  out.reserve(reg.fields.size());
  for (const auto &f : reg.fields) out.push_back({&f, decode_field(f, value)});
  return out;
}

std::uint64_t encode_field(const Register &reg, const Field &field, std::uint64_t value) {
  if (value > field.max_value())
    throw Error(ErrorKind::Usage,
                fmt::format("value {:#x} is wider than field {}.{} (bits {}..{}, {} bit{}, at most "
                            "{:#x})",
                            value, reg.umr_name(), field.name, field.lo, field.hi, field.width(),
                            field.width() == 1 ? "" : "s", field.max_value()));
  return value << field.lo;
}

std::uint64_t
update_register_value(const Register &reg, std::uint64_t old,
                      std::span<const std::pair<std::string_view, std::uint64_t>> fields) {
  std::uint64_t v = old;
  for (const auto &[name, value] : fields) {
    const auto *f = reg.field(name);
    if (!f)
      throw Error(ErrorKind::Usage,
                  fmt::format("unknown field '{}' of register {}", name, reg.umr_name()));
    v = (v & ~f->mask()) | encode_field(reg, *f, value);
  }
  return v;
}

std::uint32_t
read_modify_write(const ReadDword &read, const WriteDword &write, std::uint64_t dword_address,
                  const Register &reg,
                  std::span<const std::pair<std::string_view, std::uint64_t>> fields) {
  // Check every field before the read, so a bad field touches nothing.
  update_register_value(reg, 0, fields);
  const auto value =
      static_cast<std::uint32_t>(update_register_value(reg, read(dword_address), fields));
  write(dword_address, value);
  return value;
}

}  // namespace wavescope::hw::regs
