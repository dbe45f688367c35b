#pragma once
// Field encode/decode and read-modify-write of a register (am-driver.md §4.1: update = read, clear
// exactly the named fields' masks, OR in the new field values, write).

#include <cstdint>
#include <functional>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "wavescope/hw/regs/register_table.hpp"

namespace wavescope::hw::regs {

struct FieldValue {
  const Field *field = nullptr;
  std::uint64_t value = 0;  // the field's value, shifted down to bit 0
};

// Every field of `reg` in `value`, in header order. Throws Error(Usage) when `value` has bits
// beyond the register's width (32 bits, or the highest field bit when a field reaches higher).
std::vector<FieldValue> decode_register(const Register &reg, std::uint64_t value);
// One field's value.
std::uint64_t decode_field(const Field &field, std::uint64_t value);
// `value` placed at the field's bits; throws Error(Usage) naming the register and field when it is
// wider than the field.
std::uint64_t encode_field(const Register &reg, const Field &field, std::uint64_t value);
// `old` with the named fields replaced (names case-insensitive); throws Error(Usage) for an
// unknown field or a value that does not fit.
std::uint64_t
update_register_value(const Register &reg, std::uint64_t old,
                      std::span<const std::pair<std::string_view, std::uint64_t>> fields);
// The register's width in bits: 32, or more when a field reaches beyond bit 31.
unsigned register_width(const Register &reg);

using ReadDword = std::function<std::uint32_t(std::uint64_t dword_address)>;
using WriteDword = std::function<void(std::uint64_t dword_address, std::uint32_t value)>;
// read, update_register_value, write; returns the value written.
std::uint32_t read_modify_write(const ReadDword &read, const WriteDword &write,
                                std::uint64_t dword_address, const Register &reg,
                                std::span<const std::pair<std::string_view, std::uint64_t>> fields);

}  // namespace wavescope::hw::regs
