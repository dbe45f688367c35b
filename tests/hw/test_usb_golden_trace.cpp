// The worked examples of transport.md B.4.3a, reproduced byte for byte from the transfers the
// ASM24 transport sends (recorded between it and the simulated bridge).

#include <catch2/catch.hpp>

#include "support_transport/bridge_fixture.hpp"

using namespace wavescope::hw;
using wavescope::testing::BridgeFixture;

namespace {

std::vector<std::string> lines(const RecordingUsbDevice &recorder) {
  std::vector<std::string> out;
  for (const auto &r : recorder.records()) out.push_back(r.to_string());
  return out;
}

}  // namespace

TEST_CASE("B.4.3a: read32 of BAR5+0x5A3A4 is a mode-2 request and a 4-byte bulk IN") {
  BridgeFixture f;
  f.open();
  f.gpu.registers[{5, 0x5A3A4}] = 0x04000800;
  CHECK(f.bar5().read32(0x5A3A4) == 0x04000800);
  CHECK(lines(*f.recorder) ==
        std::vector<std::string>{
            "OUT 0x40/0xf0 wValue 0x0f20 wIndex 2 [A4 A3 05 10 00 00 00 00 01 00 00 00]",
            "bulk IN 0x81 4 -> [00 08 00 04]"});
}

TEST_CASE("B.4.3a: write32 to BAR5+0x5A3A0 is a mode-1 request and a 4-byte bulk OUT") {
  BridgeFixture f;
  f.open();
  f.bar5().write32(0x5A3A0, 0xDEADBEEF);
  CHECK(lines(*f.recorder) ==
        std::vector<std::string>{
            "OUT 0x40/0xf0 wValue 0x0f60 wIndex 1 [A0 A3 05 10 00 00 00 00 01 00 00 00]",
            "bulk OUT 0x02 [EF BE AD DE]"});
  CHECK(f.gpu.registers[{5, 0x5A3A0}] == 0xDEADBEEF);
}

TEST_CASE("B.4.3a: a 256-byte block read at BAR5+0x5A3B0 is one request for 0x40 dwords") {
  BridgeFixture f;
  f.open();
  for (unsigned i = 0; i < 64; ++i) f.gpu.registers[{5, 0x5A3B0 + 4 * i}] = i;
  const auto values = f.bar5().read_block(0x5A3B0, 64);
  REQUIRE(values.size() == 64);
  CHECK(values[63] == 63);
  const auto &records = f.recorder->records();
  REQUIRE(records.size() == 2);
  CHECK(records[0].to_string() ==
        "OUT 0x40/0xf0 wValue 0x0f20 wIndex 2 [B0 A3 05 10 00 00 00 00 40 00 00 00]");
  CHECK(records[1].kind == UsbTransferKind::BulkIn);
  CHECK(records[1].endpoint == 0x81);
  CHECK(records[1].data.size() == 256);
}

TEST_CASE("B.4.3a: config read of bus 4 offset 0 returns Navi31's ids in the completion") {
  BridgeFixture f;
  f.open();
  CHECK(f.transport->config_read(0, 4) == 0x744C1002);
  CHECK(lines(*f.recorder) ==
        std::vector<std::string>{
            "OUT 0x40/0xf0 wValue 0x0f05 wIndex 0 [00 00 00 04 00 00 00 00 00 00 00 00]",
            "IN 0xc0/0xf0 wValue 0x0000 wIndex 0 [02 10 4C 74 00 00 00 00]"});
}

TEST_CASE("B.4.3a: 16-bit config write of 0x0006 to COMMAND of bus 2") {
  BridgeFixture f;
  f.open();
  f.transport->pcie_config_write(2, 0x04, 0x0006, 2);
  const auto &records = f.recorder->records();
  REQUIRE(records.size() == 2);
  CHECK(records[0].to_string() ==
        "OUT 0x40/0xf0 wValue 0x0345 wIndex 0 [04 00 00 02 00 00 00 00 06 00 00 00]");
  CHECK(records[1].kind == UsbTransferKind::ControlIn);
  CHECK(records[1].data.size() == 8);
  CHECK(f.bridge.bridge_config(2, 0x04, 2) == 0x0006);
}

TEST_CASE("B.4.3a: 8-bit config write of 0x07 to COMMAND of bus 2, as B.7 does") {
  BridgeFixture f;
  f.open();
  f.transport->pcie_config_write(2, 0x04, 0x07, 1);
  const auto &records = f.recorder->records();
  REQUIRE(records.size() == 2);
  CHECK(records[0].to_string() ==
        "OUT 0x40/0xf0 wValue 0x0145 wIndex 0 [04 00 00 02 00 00 00 00 07 00 00 00]");
  CHECK(records[1].to_string() == "IN 0xc0/0xf0 wValue 0x0000 wIndex 0 [00 00 00 00 00 00 00 00]");
}

TEST_CASE("a config access at a non-zero byte lane shifts value and byte enables") {
  BridgeFixture f;
  f.open();
  // Secondary bus number of the bridge at bus 1: offset 0x19, one byte, lane 1.
  CHECK(f.transport->pcie_config_read(1, 0x19, 1) == 2);
  CHECK(f.recorder->records()[0].to_string() ==
        "OUT 0x40/0xf0 wValue 0x0205 wIndex 0 [18 00 00 01 00 00 00 00 00 00 00 00]");
}

TEST_CASE(
    "bring-up begins with the LTSSM read, powers the slot on, and programs bus 0 with type 0") {
  BridgeFixture f;
  auto recording = std::make_unique<RecordingUsbDevice>(f.bridge);
  auto *recorder = recording.get();
  Asm24Transport transport(std::move(recording), f.clock);
  const auto &r = recorder->records();
  REQUIRE(r.size() > 10);
  CHECK(r[0].to_string() == "IN 0xc0/0xe4 wValue 0xb450 wIndex 0 [00]");
  CHECK(r[1].to_string() == "OUT 0x40/0xf3 wValue 0x0001 wIndex 0 []");
  CHECK(r[2].to_string() == "IN 0xc0/0xe4 wValue 0xb450 wIndex 0 [78]");
  // Bus numbers of bus 0: primary 0, secondary 1, subordinate 4 in one type-0 dword write.
  CHECK(r[3].to_string() ==
        "OUT 0x40/0xf0 wValue 0x0f44 wIndex 0 [18 00 00 00 00 00 00 00 00 01 04 00]");
}
