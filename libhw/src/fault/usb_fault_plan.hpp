#pragma once
// Fault injection for the simulated ASM24 bridge (navi31-flash.md §10.9 F14/F15, §10.10): USB
// transfer failures on the n-th transfer of a kind (or every one from there on), TLP return and
// completion statuses, a link that never trains, and a link that goes down.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "wavescope/hw/transport/usb_device.hpp"
#include "wavescope/hw/usb/asm24_protocol.hpp"
#include "wavescope/hw/usb/usb_status.hpp"

namespace wavescope::hw {

// What happens to a transfer a fault hits. Short: the first `short_length` bytes get through.
enum class UsbFaultEffect { Io, Stall, Timeout, NoDevice, Overflow, Short };

struct UsbFault {
  std::optional<UsbTransferKind> kind;  // any transfer when empty
  std::optional<std::uint8_t> request;  // only control transfers with this bRequest
  std::optional<std::uint16_t> index;   // ... and this wIndex (e.g. the 0xF0 mode)
  std::uint64_t nth = 1;                // the n-th matching transfer after the fault was added
  bool and_after = false;               // every matching transfer from the n-th on
  UsbFaultEffect effect = UsbFaultEffect::Io;
  std::size_t short_length = 0;
};

class UsbFaultPlan {
public:
  void add(UsbFault fault);
  // Convenience: the n-th transfer of `kind` (1-based, counted from now) fails with `effect`.
  void fail_nth(UsbTransferKind kind, std::uint64_t nth, UsbFaultEffect effect,
                std::size_t short_length = 0);
  // Every transfer of `kind` from the n-th on fails.
  void fail_from(UsbTransferKind kind, std::uint64_t nth, UsbFaultEffect effect);

  // The next `attempts` single-TLP non-posted requests report return status `status` (not
  // executed by the bridge), exercising the host's retry path.
  void return_status_for(unsigned attempts, std::uint8_t status = 1);
  // The next `count` single-TLP non-posted requests complete with `status` (not executed).
  void completion_status_for(unsigned count, asm24::CompletionStatus status);
  // The PCIe link never trains: XDATA 0xB450 shows `ltssm` instead of 0x78 after power-on.
  void link_training_fails(std::uint8_t ltssm = 0x11);
  // The link drops after `transfers` further USB transfers (F15); or now.
  void link_down_after(std::uint64_t transfers);
  void set_link_down(bool down);
  void clear();

  std::uint64_t injected() const { return injected_; }

  // --- used by the bridge ---
  // Counts one transfer and returns the fault that hits it, if any.
  std::optional<UsbFault> on_transfer(UsbTransferKind kind, const UsbControlSetup *setup);
  std::optional<std::uint8_t> take_return_status();
  std::optional<asm24::CompletionStatus> take_completion_status();
  std::optional<std::uint8_t> training_failure() const { return training_failure_; }
  bool link_down() const { return link_down_; }

private:
  struct Armed {
    UsbFault fault;
    std::uint64_t seen = 0;
    bool spent = false;
  };
  std::vector<Armed> faults_;
  unsigned return_status_attempts_ = 0;
  std::uint8_t return_status_ = 1;
  unsigned completion_count_ = 0;
  asm24::CompletionStatus completion_status_ = asm24::CompletionStatus::UnsupportedRequest;
  std::optional<std::uint8_t> training_failure_;
  std::optional<std::uint64_t> link_down_countdown_;
  bool link_down_ = false;
  std::uint64_t injected_ = 0;
};

}  // namespace wavescope::hw
