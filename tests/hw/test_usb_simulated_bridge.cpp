// The simulated ASM24 bridge at the USB level (navi31-flash.md §10.10): request decoding, bus
// numbering and window routing, armed-transfer matching, the SRAM engine and XDATA.

#include <catch2/catch.hpp>

#include "support_transport/test_endpoint.hpp"
#include "usb/simulated_asm24_bridge.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/hw/transport/clock.hpp"
#include "wavescope/hw/usb/asm24_protocol.hpp"
#include "wavescope/hw/usb/asm24_transport.hpp"

using namespace wavescope::hw;
using wavescope::Error;
using wavescope::ErrorKind;
using wavescope::testing::TestEndpoint;

namespace {

struct Bench {
  VirtualClock clock;
  TestEndpoint gpu;
  SimulatedAsm24Bridge bridge{gpu, clock};

  void power_on() { bridge.control_out({0x40, asm24::kPciePower, 1, 0}, {}, 1000); }
  asm24::TlpCompletion tlp(std::uint8_t fmt, std::uint32_t address, std::uint32_t value = 0,
                           std::uint8_t enables = 0xF) {
    const auto payload = asm24::pcie_request_payload(address, value);
    bridge.control_out({0x40, 0xF0, static_cast<std::uint16_t>(fmt | enables << 8), 0}, payload,
                       5000);
    return asm24::parse_completion(bridge.control_in({0xC0, 0xF0, 0, 0}, 8, 5000));
  }
  void config_write(unsigned bus, std::uint32_t reg, std::uint32_t value) {
    const auto c = tlp(bus == 0 ? 0x44 : 0x45, asm24::config_address(bus, 0, 0, reg), value);
    REQUIRE(c.status == asm24::CompletionStatus::Success);
  }
  // Bus numbers and windows as B.7 programs them.
  void program_bridges() {
    for (unsigned bus = 0; bus < 4; ++bus) {
      config_write(bus, 0x18, (bus + 1) << 8 | 4u << 16);
      config_write(bus, 0x20, 0xFFFF1000);  // memory base 0x1000, limit 0xFFFF
      config_write(bus, 0x04, 0x07);
    }
  }
  void arm_read(std::uint64_t address, std::uint32_t dwords) {
    bridge.control_out({0x40, 0xF0, 0x0F20, 2}, asm24::pcie_request_payload(address, dwords), 5000);
  }
};

}  // namespace

TEST_CASE("sim bridge: the LTSSM byte reads 0x78 only after PCIe power on") {
  Bench b;
  CHECK(b.bridge.control_in({0xC0, 0xE4, 0xB450, 0}, 1, 1000) == std::vector<std::uint8_t>{0});
  b.power_on();
  CHECK(b.bridge.pcie_powered());
  CHECK(b.bridge.xdata(0xB450) == 0x78);
  b.bridge.control_out({0x40, asm24::kPciePower, 0, 0}, {}, 1000);
  CHECK(b.bridge.xdata(0xB450) == 0);
}

TEST_CASE("sim bridge: bus 4 is unreachable until the bridges have bus numbers") {
  Bench b;
  b.power_on();
  CHECK(b.tlp(0x05, asm24::config_address(4, 0, 0, 0)).status ==
        asm24::CompletionStatus::UnsupportedRequest);
  CHECK(b.tlp(0x04, asm24::config_address(0, 0, 0, 0)).data == 0x24641B21);
  b.config_write(0, 0x18, 1u << 8 | 4u << 16);
  // Bus 2 needs the bridge on bus 1 programmed first.
  CHECK(b.tlp(0x05, asm24::config_address(2, 0, 0, 0)).status ==
        asm24::CompletionStatus::UnsupportedRequest);
  b.program_bridges();
  CHECK(b.tlp(0x05, asm24::config_address(4, 0, 0, 0)).data == 0x744C1002);
  CHECK(b.tlp(0x05, asm24::config_address(4, 1, 0, 0)).status ==
        asm24::CompletionStatus::UnsupportedRequest);
  CHECK(b.tlp(0x05, asm24::config_address(5, 0, 0, 0)).status ==
        asm24::CompletionStatus::UnsupportedRequest);
}

TEST_CASE("sim bridge: Navi31's switch ports and the GPU vanish when the slot is off") {
  Bench b;
  b.power_on();
  b.program_bridges();
  b.bridge.control_out({0x40, asm24::kPciePower, 0, 0}, {}, 1000);
  CHECK(b.tlp(0x05, asm24::config_address(1, 0, 0, 0)).status == asm24::CompletionStatus::Success);
  CHECK(b.tlp(0x05, asm24::config_address(2, 0, 0, 0)).status ==
        asm24::CompletionStatus::UnsupportedRequest);
}

TEST_CASE("sim bridge: memory outside the windows or with MEMORY off reads all ones") {
  Bench b;
  b.power_on();
  b.program_bridges();
  // Assign BAR5 through config space as the host would: size it, then place it.
  b.config_write(4, 0x24, 0xFFFFFFFF);
  CHECK(b.tlp(0x05, asm24::config_address(4, 0, 0, 0x24)).data == 0xFFF00000);
  b.config_write(4, 0x24, 0x10000000);
  b.config_write(4, 0x04, 0x02);
  b.gpu.registers[{5, 0x40}] = 0xCAFE;
  b.arm_read(0x10000040, 1);
  CHECK(b.bridge.bulk_in(0x81, 4, 30000) == std::vector<std::uint8_t>{0xFE, 0xCA, 0, 0});
  b.arm_read(0x0FF00000, 1);  // below the non-prefetchable window
  CHECK(b.bridge.bulk_in(0x81, 4, 30000) == std::vector<std::uint8_t>{0xFF, 0xFF, 0xFF, 0xFF});
  b.config_write(2, 0x04, 0x00);  // a switch port stops forwarding memory
  b.arm_read(0x10000040, 1);
  CHECK(b.bridge.bulk_in(0x81, 4, 30000) == std::vector<std::uint8_t>{0xFF, 0xFF, 0xFF, 0xFF});
  CHECK(b.bridge.counters().unclaimed_reads == 2);
}

TEST_CASE("sim bridge: a partial single-TLP memory write merges into the register") {
  Bench b;
  b.power_on();
  b.program_bridges();
  b.config_write(4, 0x24, 0xFFFFFFFF);
  b.tlp(0x05, asm24::config_address(4, 0, 0, 0x24));
  b.config_write(4, 0x24, 0x10000000);
  b.config_write(4, 0x04, 0x02);
  b.gpu.registers[{5, 0x80}] = 0x11223344;
  const auto payload = asm24::pcie_request_payload(0x10000080, 0xAA00);
  b.bridge.control_out({0x40, 0xF0, 0x0260, 0}, payload, 5000);  // byte enable 0b0010
  CHECK(b.gpu.registers[{5, 0x80}] == 0x1122AA44);
  CHECK(b.tlp(0x20, 0x10000080).data == 0x1122AA44);
}

TEST_CASE("sim bridge: a bulk IN with nothing armed times out after its timeout") {
  Bench b;
  const auto before = b.clock.now();
  try {
    b.bridge.bulk_in(0x81, 4, 30000);
    FAIL("no timeout");
  } catch (const Error &e) {
    CHECK(e.kind() == ErrorKind::Timeout);
    CHECK_THAT(e.what(), Catch::Contains("bulk IN on 0x81, 4 bytes"));
  }
  CHECK(b.clock.now() - before >= std::chrono::seconds(30));
}

TEST_CASE(
    "sim bridge: a bulk transfer that does not match the armed request stalls and consumes it") {
  Bench b;
  b.power_on();
  b.arm_read(0x10000000, 2);
  CHECK_THROWS_WITH(b.bridge.bulk_in(0x81, 4, 30000), Catch::Contains("endpoint stalled"));
  CHECK_THROWS_WITH(b.bridge.bulk_in(0x81, 8, 30000), Catch::Contains("timed out"));
  b.arm_read(0x10000000, 1);
  const std::uint8_t four[4] = {};
  CHECK_THROWS_WITH(b.bridge.bulk_out(0x02, four, 1000), Catch::Contains("endpoint stalled"));
}

TEST_CASE("sim bridge: malformed and unknown requests stall") {
  Bench b;
  const auto payload = asm24::pcie_request_payload(0x10000002, 1);  // unaligned stream
  CHECK_THROWS_WITH(b.bridge.control_out({0x40, 0xF0, 0x0F20, 2}, payload, 5000),
                    Catch::Contains("stalled"));
  CHECK_THROWS_WITH(b.bridge.control_out({0x40, 0xF0, 0x0F20, 7}, payload, 5000),
                    Catch::Contains("stalled"));
  CHECK_THROWS_WITH(b.bridge.control_out({0x40, 0xE1, 0, 0}, {}, 1000), Catch::Contains("stalled"));
  CHECK_THROWS_WITH(b.bridge.control_in({0xC0, 0xF0, 0, 0}, 8, 5000), Catch::Contains("stalled"));
}

TEST_CASE("sim bridge: SRAM DMA writes and reads back through 0xF2 and XDATA 0xF000") {
  Bench b;
  std::vector<std::uint8_t> payload(512);
  for (std::size_t i = 0; i < payload.size(); ++i) payload[i] = static_cast<std::uint8_t>(i * 7);
  b.bridge.control_out({0x40, 0xF2, 1, 0x0100}, {}, 1000);  // 1 sector into slot 0
  b.bridge.bulk_out(0x02, payload, 1000);
  CHECK(b.bridge.xdata(0xF001) == 7);
  b.bridge.control_out({0x40, 0xF2, 0x8001, 0x0100}, {}, 1000);
  CHECK(b.bridge.bulk_in(0x81, 512, 10000) == payload);
}

TEST_CASE("sim bridge: every transfer advances the clock by the transfer latency") {
  Bench b;
  b.bridge.control_in({0xC0, 0xE4, 0xB450, 0}, 1, 1000);
  b.bridge.control_out({0x40, 0xE5, 0xA000, 1}, {}, 1000);
  CHECK(b.clock.now().time_since_epoch() == std::chrono::microseconds(125));
  CHECK(b.bridge.counters().transfers == 2);
}

TEST_CASE("sim bridge: faults match by request and wIndex and count from when they were added") {
  Bench b;
  b.power_on();
  UsbFault fault;
  fault.request = 0xF0;
  fault.index = 2;
  fault.nth = 2;
  fault.effect = UsbFaultEffect::Io;
  b.bridge.faults().add(fault);
  b.arm_read(0x10000000, 1);
  b.bridge.bulk_in(0x81, 4, 30000);
  b.bridge.control_in({0xC0, 0xE4, 0xB450, 0}, 1, 1000);  // not a 0xF0 mode-2 request
  CHECK_THROWS_WITH(b.arm_read(0x10000000, 1), Catch::Contains("I/O error"));
  b.arm_read(0x10000000, 1);  // the fault was for the second one only
  CHECK(b.bridge.faults().injected() == 1);
}

TEST_CASE("sim bridge: it can host the GPU's config space for a BAR-only endpoint model") {
  VirtualClock clock;
  // An endpoint whose own config space is all zeros: only its BAR accesses matter.
  TestEndpoint gpu(PcieFunctionIdentity{});
  SimulatedAsm24BridgeOptions options;
  options.emulate_gpu_config_space = true;
  auto bridge = std::make_unique<SimulatedAsm24Bridge>(gpu, clock, options);
  auto *raw = bridge.get();
  Asm24Transport transport(std::move(bridge), clock);
  CHECK(transport.config_read(0, 4) == 0x744C1002);
  CHECK(transport.bar(5).bus_address == 0x10000000);
  gpu.registers[{5, 0x20}] = 99;
  CHECK(transport.map_bar(5).read32(0x20) == 99);
  CHECK(gpu.config_writes == 0);
  raw->control_out({0x40, asm24::kPciePower, 0, 0}, {}, 1000);  // slot off: BARs are lost
  raw->control_out({0x40, asm24::kPciePower, 1, 0}, {}, 1000);
  CHECK(transport.map_bar(5).read32(0x20) == 0xFFFFFFFFu);
}
