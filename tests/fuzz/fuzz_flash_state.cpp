// Fuzzes what the flash area reads from text a user or a damaged disk can hand it: a simulated
// board's saved state (board.json), fault specs, USB fault specs and optimization lists. Each
// either loads or throws wavescope::Error — never crashes, never reads outside the chip.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fault/usb_fault_spec.hpp"
#include "sim/navi31_board.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/hw/flash/flash_session.hpp"
#include "wavescope/hw/navi31/bar5_registers.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  using namespace wavescope::hw;
  const std::string text(reinterpret_cast<const char *>(data), size);
  auto guarded = [](auto &&f) {
    try {
      f();
    } catch (const wavescope::Error &) {
    }
  };
  guarded([&] { (void)sim::parse_fault(text); });
  guarded([&] { (void)flash::FlashOptimizations::parse(text); });
  guarded([&] {
    UsbFaultPlan plan;
    device::apply_usb_fault(plan, text);
  });
  const auto json = nlohmann::json::parse(text, nullptr, false);
  if (json.is_discarded() || !json.is_object()) return 0;
  guarded([&] {
    VirtualClock clock;
    auto board = sim::Navi31Board::load(json, clock, std::vector<std::uint8_t>(0x200000, 0xFF));
    // A loaded board must answer its registers and save itself again.
    for (std::uint32_t offset :
         {navi31::kRomSwStatus, navi31::kRomData, navi31::kPspCommand, navi31::kRomSwData1})
      (void)board->bar_read32(5, offset);
    clock.advance(std::chrono::seconds(10));
    (void)board->flash();
    (void)board->save();
  });
  return 0;
}
