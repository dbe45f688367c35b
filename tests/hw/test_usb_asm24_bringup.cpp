// Asm24Transport bring-up (transport.md B.4.1, B.7) and BAR access through the simulated bridge.

#include <catch2/catch.hpp>

#include "support_transport/bridge_fixture.hpp"
#include "temp_dir.hpp"
#include "wavescope/base/error.hpp"

using namespace wavescope::hw;
using wavescope::Error;
using wavescope::ErrorKind;
using wavescope::testing::BridgeFixture;

TEST_CASE("full bring-up assigns the BARs where B.7 says") {
  BridgeFixture f;
  auto &t = f.open();
  const auto bar0 = t.bar(0), bar2 = t.bar(2), bar5 = t.bar(5);
  CHECK(bar0.present);
  CHECK(bar0.bus_address == 0x8'0000'0000);
  CHECK(bar0.size == (32ull << 30));  // resized to the largest Resizable-BAR size
  CHECK(bar0.is64);
  CHECK(bar0.prefetchable);
  CHECK(bar2.bus_address == 0x10'0000'0000);
  CHECK(bar2.size == (2u << 20));
  CHECK(bar5.bus_address == 0x1000'0000);
  CHECK(bar5.size == (1u << 20));
  CHECK_FALSE(bar5.is64);
  CHECK(t.bar(4).is_io);
  CHECK_FALSE(t.bar(4).present);
  CHECK(f.gpu.config().read(0x04, 1) == 0x07);
}

TEST_CASE("bring-up programs each bridge's bus numbers and windows") {
  BridgeFixture f;
  f.open();
  for (unsigned bus = 0; bus < 4; ++bus) {
    INFO("bus " << bus);
    CHECK(f.bridge.bridge_config(bus, 0x18, 4) == ((bus + 1) << 8 | 4u << 16));
    CHECK(f.bridge.bridge_config(bus, 0x20, 2) == 0x1000);
    CHECK(f.bridge.bridge_config(bus, 0x22, 2) == 0xFFFF);
    CHECK(f.bridge.bridge_config(bus, 0x24, 2) == 0x0000);
    CHECK(f.bridge.bridge_config(bus, 0x28, 4) == 8);
    CHECK(f.bridge.bridge_config(bus, 0x2C, 4) == 0xFFFFFFFFu);
    CHECK(f.bridge.bridge_config(bus, 0x04, 1) == 0x07);
  }
  CHECK_THAT(f.transport->bringup_log().back(), Catch::Contains("bus mastering on"));
}

TEST_CASE("minimal bring-up assigns BAR5 only and enables MEMORY without MASTER") {
  BridgeFixture f;
  Asm24Options options;
  options.minimal_bringup = true;
  auto &t = f.open(options);
  CHECK(t.bar(5).bus_address == 0x1000'0000);
  CHECK_FALSE(t.bar(0).present);
  CHECK(f.gpu.config().bar_size(0) == (256u << 20));  // not resized
  CHECK(f.gpu.config().read(0x04, 1) == 0x02);
  CHECK(f.bridge.bridge_config(0, 0x04, 1) == 0x02);
  CHECK_THROWS_WITH(t.map_bar(0), Catch::Contains("minimal bring-up assigns BAR5 only"));
  f.gpu.registers[{5, 0x100}] = 42;
  CHECK(t.map_bar(5).read32(0x100) == 42);
}

TEST_CASE("bring-up logs what it changes through the log callback") {
  BridgeFixture f;
  std::vector<std::string> lines;
  Asm24Options options;
  options.log = [&](std::string_view line) { lines.emplace_back(line); };
  f.open(options);
  CHECK(lines == f.transport->bringup_log());
  CHECK(std::any_of(lines.begin(), lines.end(), [](const std::string &l) {
    return l.find("GPU BAR5: 1 MiB 32-bit at 0x10000000") != std::string::npos;
  }));
  CHECK(std::any_of(lines.begin(), lines.end(), [](const std::string &l) {
    return l.find("BAR0 resized to 32 GiB") != std::string::npos;
  }));
}

TEST_CASE("a GPU that is not Navi31 is refused before any BAR is programmed") {
  auto identity = navi31_pcie_identity();
  identity.device_id = 0x73BF;
  BridgeFixture f(identity);
  try {
    f.open();
    FAIL("opened a non-Navi31 GPU");
  } catch (const Error &e) {
    CHECK(e.kind() == ErrorKind::Device);
    CHECK_THAT(e.what(), Catch::Contains("is 1002:73bf, not 1002:744c"));
  }
  CHECK(f.gpu.config_writes == 0);
}

TEST_CASE("a link that never trains fails after the bounded wait, in virtual time") {
  BridgeFixture f;
  f.bridge.faults().link_training_fails(0x11);
  try {
    f.open();
    FAIL("opened without a link");
  } catch (const Error &e) {
    CHECK(e.kind() == ErrorKind::Device);
    CHECK_THAT(e.what(), Catch::Contains("XDATA 0xB450 (LTSSM state) is 0x11 after 2000 ms"));
  }
  CHECK(f.clock.now().time_since_epoch() >= std::chrono::seconds(2));
}

TEST_CASE("an already-trained link is not powered on again") {
  BridgeFixture f;
  f.open();
  auto recording = std::make_unique<RecordingUsbDevice>(f.bridge);
  auto *recorder = recording.get();
  Asm24Transport again(std::move(recording), f.clock);
  CHECK(recorder->records()[0].to_string() == "IN 0xc0/0xe4 wValue 0xb450 wIndex 0 [78]");
  CHECK(recorder->records()[1].setup.request == 0xF0);
}

TEST_CASE("BAR5 read32, write32 and block accesses reach the endpoint's registers") {
  BridgeFixture f;
  f.open();
  auto &bar5 = f.bar5();
  bar5.write32(0x5A3A0, 0x11223344);
  CHECK(bar5.read32(0x5A3A0) == 0x11223344);
  const std::vector<std::uint32_t> block = {1, 2, 3, 4, 5, 6, 7, 8};
  bar5.write_block(0x5A400, block);
  CHECK(f.gpu.registers[{5, 0x5A400 + 28}] == 8);
  CHECK(bar5.read_block(0x5A400, 8) == block);
  CHECK(bar5.size() == (1u << 20));
}

TEST_CASE("each BAR operation is one transport operation of two USB requests") {
  BridgeFixture f;
  f.open();
  auto &bar5 = f.bar5();
  bar5.read32(0);
  bar5.write32(0, 1);
  bar5.read_block(0, 64);
  bar5.write_block(0, std::vector<std::uint32_t>(64, 7));
  const auto &s = bar5.stats();
  CHECK(s.reads == 1);
  CHECK(s.writes == 1);
  CHECK(s.block_reads == 1);
  CHECK(s.block_writes == 1);
  CHECK(s.operations() == 4);
  CHECK(s.usb_requests == 8);
  CHECK(s.bytes_read == 4 + 256);
  CHECK(s.bytes_written == 4 + 256);
  // 62.5 µs per simulated transfer: 125 µs per operation.
  CHECK(s.latency_ns == 4 * 125'000);
  CHECK(f.recorder->records().size() == 8);
}

TEST_CASE("transport stats count the USB requests of config and bring-up too") {
  BridgeFixture f;
  auto &t = f.open();
  const auto after_open = t.stats().usb_requests;
  CHECK(after_open > 50);
  t.config_read(0, 4);
  CHECK(t.stats().usb_requests == after_open + 2);
  f.bar5().read32(0);
  CHECK(t.stats().usb_requests == after_open + 4);
  CHECK(t.stats().reads == 1);
}

TEST_CASE("the trace hook sees every BAR access") {
  BridgeFixture f;
  f.open();
  std::vector<MmioAccess> seen;
  f.bar5().set_trace_hook([&](const MmioAccess &a) { seen.push_back(a); });
  f.bar5().write32(0x10, 5);
  f.bar5().read32(0x10);
  f.bar5().flush();
  REQUIRE(seen.size() == 3);
  CHECK(seen[0].kind == MmioAccess::Kind::Write32);
  CHECK(seen[1].value == 5);
  CHECK(seen[2].kind == MmioAccess::Kind::Flush);
}

TEST_CASE("misaligned and out-of-range BAR accesses are refused without USB traffic") {
  BridgeFixture f;
  f.open();
  CHECK_THROWS_WITH(f.bar5().read32(2), Catch::Contains("read32 of BAR5+0x2"));
  CHECK_THROWS_WITH(f.bar5().read_block(0xFFFFC, 2),
                    Catch::Contains("past the end of the 1 MiB BAR"));
  CHECK(f.recorder->records().empty());
}

TEST_CASE("after close every access fails and the device lock is released") {
  BridgeFixture f;
  const wavescope::testing::TempDir temp;
  const auto dir = temp.path;
  Asm24Options options;
  options.lock = std::make_shared<DeviceLock>("usb:test-close", dir);
  auto &t = f.open(std::move(options));
  auto &bar5 = t.map_bar(5);
  CHECK_THROWS_AS(DeviceLock("usb:test-close", dir), Error);
  t.close();
  CHECK(t.closed());
  CHECK_THROWS_WITH(bar5.read32(0), Catch::Contains("is closed"));
  CHECK_THROWS_WITH(t.config_read(0, 4), Catch::Contains("is closed"));
  CHECK_NOTHROW(DeviceLock("usb:test-close", dir));
}

TEST_CASE("XDATA reads are split into requests of at most 255 bytes") {
  BridgeFixture f;
  auto &t = f.open();
  const auto bytes = t.xdata_read(0xB400, 600);
  CHECK(bytes.size() == 600);
  CHECK(bytes[0x50] == 0x78);
  REQUIRE(f.recorder->records().size() == 3);
  CHECK(f.recorder->records()[2].setup.value == 0xB400 + 510);
  t.xdata_write(0xA000, 0x5A);
  CHECK(f.bridge.xdata(0xA000) == 0x5A);
}
