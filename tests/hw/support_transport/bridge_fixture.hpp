#pragma once
// An Asm24Transport over a recording decorator over a SimulatedAsm24Bridge over a TestEndpoint,
// all on a virtual clock: the real USB protocol code against the simulator, with every transfer
// logged.

#include <memory>

#include "test_endpoint.hpp"
#include "usb/simulated_asm24_bridge.hpp"
#include "wavescope/hw/transport/clock.hpp"
#include "wavescope/hw/usb/asm24_transport.hpp"
#include "wavescope/hw/usb/recording_usb_device.hpp"

namespace wavescope::testing {

struct BridgeFixture {
  hw::VirtualClock clock;
  TestEndpoint gpu;
  hw::SimulatedAsm24Bridge bridge{gpu, clock};
  hw::RecordingUsbDevice *recorder = nullptr;  // owned by the transport
  std::unique_ptr<hw::Asm24Transport> transport;

  explicit BridgeFixture(hw::PcieFunctionIdentity identity = hw::navi31_pcie_identity())
      : gpu(identity) {}

  // Brings the transport up; the recorder's log then starts empty.
  hw::Asm24Transport &open(hw::Asm24Options options = {}) {
    auto recording = std::make_unique<hw::RecordingUsbDevice>(bridge);
    recorder = recording.get();
    if (options.id == hw::Asm24Options{}.id) options.id = "usb:test";
    transport = std::make_unique<hw::Asm24Transport>(std::move(recording), clock, options);
    recorder->clear();
    return *transport;
  }
  hw::Mmio &bar5() { return transport->map_bar(5); }
};

}  // namespace wavescope::testing
