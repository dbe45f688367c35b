#include "wavescope/hw/am/doorbell_routing.hpp"

#include <fmt/format.h>

#include "wavescope/hw/am/doorbell.hpp"

namespace wavescope::hw::am {

namespace {
std::string entry_register(const AmChipInfo &chip, unsigned port) {
  return chip.gc.major >= 12 ? fmt::format("nbio.GDC_S2A0_S2A_DOORBELL_ENTRY_{}_CTRL", port)
                             : fmt::format("nbio.S2A_DOORBELL_ENTRY_{}_CTRL", port);
}
}  // namespace

bool is_nbio_7_9(const AmChipInfo &chip) { return chip.nbio.major == 7 && chip.nbio.minor == 9; }

std::uint32_t s2a_doorbell_enable(AmRegisters &regs, const AmChipInfo &chip,
                                  const S2aDoorbellPort &p, unsigned aid) {
  const std::string reg = entry_register(chip, p.port);
  const std::string f = fmt::format("S2A_DOORBELL_PORT{}_", p.port);
  const std::string enable = f + "ENABLE", awid = f + "AWID", size = f + "RANGE_SIZE",
                    awaddr = f + "AWADDR_31_28_VALUE", offset = f + "RANGE_OFFSET";
  const std::uint32_t value = regs.encode(reg, {{enable, 1},
                                                {awid, p.awid},
                                                {size, p.range_size},
                                                {awaddr, p.awaddr_31_28},
                                                {offset, p.range_offset}});
  if (is_nbio_7_9(chip))
    regs.write_aid(reg, value, aid);
  else
    regs.write(reg, value);
  return value;
}

void enable_compute_doorbells(AmRegisters &regs, const AmChipInfo &chip) {
  if (is_nbio_7_9(chip)) return;
  s2a_doorbell_enable(regs, chip, {0, 0x3, 0x3, 0, 0});
  s2a_doorbell_enable(regs, chip, {3, 0x6, 0x3, 0, 0});
}

void enable_sdma_doorbells(AmRegisters &regs, const AmChipInfo &chip) {
  if (!is_nbio_7_9(chip)) {
    s2a_doorbell_enable(regs, chip,
                        {2, 0xE, 0x3, doorbell_register_offset(kDoorbellSdmaEngine0), 4});
    return;
  }
  struct Port {
    unsigned port, awid, offset, awaddr;
  };
  constexpr Port kPorts[] = {
      {1, 0xE, 0xE, 0x1}, {2, 0x8, 0x8, 0x2}, {5, 0x9, 0x9, 0x8}, {6, 0xA, 0xA, 0x9}};
  for (unsigned aid = 0; aid < chip.mmhubs; ++aid) {
    for (unsigned k = 0; k < 4; ++k) {
      const unsigned entry = k + 1 + 4 * aid;
      const std::string reg = fmt::format("nbio.DOORBELL0_CTRL_ENTRY_{}", entry);
      const std::string size = fmt::format("BIF_DOORBELL{}_RANGE_SIZE_ENTRY", entry);
      const std::string offset = fmt::format("BIF_DOORBELL{}_RANGE_OFFSET_ENTRY", entry);
      regs.write_fields(reg,
                        {{size, 20}, {offset, (kDoorbellSdmaEngine0 + (entry - 1) * 0xA) * 2}});
      const Port &p = kPorts[k];
      s2a_doorbell_enable(regs, chip, {p.port, p.awid, p.awaddr, p.offset, 4}, aid);
    }
  }
}

}  // namespace wavescope::hw::am
