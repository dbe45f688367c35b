#include "wavescope/hw/am/doorbell.hpp"

#include <fmt/format.h>

#include "wavescope/base/error.hpp"

namespace wavescope::hw::am {

unsigned sdma_doorbell_index(unsigned pipe, unsigned queue) {
  if (pipe > 3 || queue > 3)
    throw Error(ErrorKind::Usage,
                fmt::format("SDMA doorbell: pipe {} queue {} is outside 0..3", pipe, queue));
  return kDoorbellSdmaEngine0 + 0xA * (pipe + 4 * queue);
}

std::string doorbell_name(unsigned index) {
  // amdgpu_doorbell.h, enum AMDGPU_NAVI10_DOORBELL_ASSIGNMENT.
  switch (index) {
  case 0x000: return "KIQ";
  case 0x001: return "HIQ";
  case 0x002: return "DIQ";
  case 0x00B: return "MES_RING0";
  case 0x00C: return "MES_RING1";
  case 0x08B: return "GFX_RING0";
  case 0x08C: return "GFX_RING1";
  case 0x178: return "IH";
  case 0x190: return "VPE";
  default: break;
  }
  if (index >= 0x003 && index <= 0x00A) return fmt::format("MEC_RING{}", index - 0x003);
  if (index >= 0x00D && index <= 0x08A) return fmt::format("USERQUEUE+{}", index - 0x00D);
  if (index >= 0x08D && index <= 0x0FF) return fmt::format("GFX_USERQUEUE+{}", index - 0x08D);
  if (index >= 0x100 && index < 0x100 + 16 * 0xA && (index - 0x100) % 0xA == 0)
    return fmt::format("sDMA_ENGINE{}", (index - 0x100) / 0xA);
  if (index >= 0x188 && index <= 0x18F) return fmt::format("VCN{}", index - 0x188);
  return "";
}

std::uint64_t doorbell_value(DoorbellQueueKind kind, std::uint64_t put_dwords) {
  switch (kind) {
  case DoorbellQueueKind::Pm4: return put_dwords;
  case DoorbellQueueKind::Sdma: return put_dwords * 4;
  case DoorbellQueueKind::Aql:
    if (put_dwords == 0 || put_dwords % 16 != 0)
      throw Error(ErrorKind::Usage,
                  fmt::format("AQL doorbell: {:#x} dwords is not a whole number of 64-byte packets "
                              "(or none)",
                              put_dwords));
    return put_dwords / 16 - 1;
  }
  return put_dwords;
}

}  // namespace wavescope::hw::am
