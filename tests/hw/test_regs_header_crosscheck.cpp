// `regs decode` against the kernel headers: for every register and field of the 28 generated
// tables, a second parse of the headers (tests/hw/support_regdb, apart from the generator) gives
// the same registers in the same order (name, offset, segment) and the library decodes each field's
// header mask into exactly what the header's _MASK defines say, for every field of the register;
// each field's low bit also equals its __SHIFT define except for the one inconsistent field of the
// 6.12 headers (gc_11_0_0 GL1C_UTCL0_CNTL1.FORCE_IN_ORDER: mask 0x06000000, shift 27). Skipped
// (with a message) when linux-source-6.12 is not installed.

#include <catch2/catch.hpp>

#include "support_regdb/kernel_headers.hpp"
#include "wavescope/hw/regs/register_codec.hpp"
#include "wavescope/hw/regs/register_report.hpp"
#include "wavescope/hw/regs/register_table.hpp"

using namespace wavescope::hw::regs;

namespace {
unsigned lowest_bit(std::uint64_t mask) {
  unsigned bit = 0;
  while (!(mask & 1)) mask >>= 1, ++bit;
  return bit;
}
}  // namespace

TEST_CASE("regdb: decode agrees with the kernel headers for every register and field") {
  std::string why;
  const auto dir = wavescope::testing::kernel_asic_reg_dir(why);
  if (!dir) {
    WARN("skipped: " << why);
    return;
  }
  std::size_t tables = 0, registers = 0, fields = 0, decodes = 0;
  // Fields whose __SHIFT disagrees with their _MASK's lowest bit; the database follows the mask
  // (spec 4.1).
  std::vector<std::string> shift_quirks;
  for (const auto &[kdir, stem] : wavescope::testing::regdb_header_pairs()) {
    INFO(stem);
    const auto header = wavescope::testing::parse_header_pair(*dir, kdir, stem);
    const auto &table = register_table(stem);
    REQUIRE(table.registers().size() == header.size());
    ++tables;
    for (std::size_t i = 0; i < header.size(); ++i) {
      const auto &h = header[i];
      const auto &r = table.registers()[i];
      INFO(h.name);
      REQUIRE(r.name == h.name);
      CHECK(r.offset == h.offset);
      CHECK(r.segment == h.segment);
      REQUIRE(r.fields.size() == h.fields.size());
      ++registers;
      for (std::size_t k = 0; k < h.fields.size(); ++k) {
        const auto &hf = h.fields[k];
        const auto &f = r.fields[k];
        INFO(hf.name);
        REQUIRE(f.name == hf.name);
        const unsigned lo = lowest_bit(hf.mask);
        CHECK(f.lo == lo);
        if (!hf.has_shift || hf.shift != lo)
          shift_quirks.push_back(stem + " " + h.name + "." + hf.name +
                                 (hf.has_shift ? "" : " (no __SHIFT)"));
        CHECK(f.mask() == hf.mask);
        CHECK(encode_field(r, f, hf.mask >> lo) == hf.mask);
        ++fields;
        // Decoding this field's mask: every field g of the register reads (mask & mask_g) >>
        // shift_g.
        const auto values = decode_register(r, hf.mask);
        REQUIRE(values.size() == h.fields.size());
        for (std::size_t g = 0; g < values.size(); ++g) {
          const auto expected = (hf.mask & h.fields[g].mask) >> lowest_bit(h.fields[g].mask);
          if (values[g].value != expected) FAIL(h.fields[g].name << " decodes wrongly");
          ++decodes;
        }
      }
    }
  }
  CHECK(tables == 28);
  CHECK(registers == 76802);
  CHECK(fields == 277145);
  CHECK(decodes > fields);
  // One field whose shift disagrees with its mask, and ten with a mask but no __SHIFT (one in
  // nbio_4_3_0, nine in nbio_7_11_0).
  std::size_t no_shift = 0;
  std::vector<std::string> disagree;
  for (const auto &q : shift_quirks) {
    if (q.ends_with("(no __SHIFT)"))
      ++no_shift;
    else
      disagree.push_back(q);
  }
  CHECK(disagree == std::vector<std::string>{"gc_11_0_0 regGL1C_UTCL0_CNTL1.FORCE_IN_ORDER"});
  CHECK(no_shift == 10);
}
