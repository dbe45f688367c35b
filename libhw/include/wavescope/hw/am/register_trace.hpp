#pragma once
// A register-access trace (am-driver.md §19.2 item 3): every read and write with its dword
// address, value and the path it took, named after the register database ("gc.SCRATCH_REG7",
// instance 0). Both sides keep one: the AM driver records what it did (`wavectl am boot
// --trace FILE`, works on real hardware too) and the fake GPU records what reached it. The text
// form is one line per access and is what the goldens compare.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "wavescope/hw/regs/register_map.hpp"

namespace wavescope::hw::am {

enum class RegisterAccessPath : std::uint8_t {
  Direct,      // BAR5 dword
  Rsmu,        // BIF_BX_PF0_RSMU_INDEX/DATA (index beyond BAR5)
  PcieIndex2,  // BIF_BX0_PCIE_INDEX2/INDEX2_HI/DATA2 (another AID on MI300)
};

struct RegisterAccess {
  bool write = false;
  std::uint64_t address = 0;  // dword address (AID in bits 32..33 for PCIE INDEX2 with an AID)
  std::uint32_t value = 0;
  RegisterAccessPath path = RegisterAccessPath::Direct;
  std::uint32_t count = 1;  // consecutive identical reads (a poll) are one entry
};

// Appends an access, folding a read identical to the previous entry (same address, value and
// path) into its count.
void append_register_access(std::vector<RegisterAccess> &trace, const RegisterAccess &access);

// The name of a register address: "block.REG" and its instance; empty name when no register of
// the map sits there (the fixed pre-discovery indices are named too: MM_INDEX, MM_DATA,
// MM_INDEX_HI, RCC_CONFIG_MEMSIZE, RCC_IOV_FUNC_IDENTIFIER).
struct RegisterName {
  std::string name;
  unsigned instance = 0;
};

class RegisterNamer {
public:
  explicit RegisterNamer(const regs::RegisterMap &map);
  ~RegisterNamer();
  RegisterNamer(RegisterNamer &&) noexcept;
  RegisterNamer &operator=(RegisterNamer &&) noexcept;
  RegisterName name(std::uint64_t address) const;

private:
  struct Index;
  std::unique_ptr<Index> index_;
};

// "W gc.SCRATCH_REG7[0] 0xC047 = 0xA0000008" (R for reads; "rsmu"/"index2" after the name for
// the indirect paths; "?" for an address without a register; " x12" for a folded poll). With
// `namer` null only addresses.
std::string format_register_access(const RegisterAccess &access, const RegisterNamer *namer);
std::string format_register_trace(const std::vector<RegisterAccess> &trace,
                                  const RegisterNamer *namer);

}  // namespace wavescope::hw::am
