// The simulated PCIe function config space: identity, BAR sizing, Resizable BAR, decoding.

#include <catch2/catch.hpp>

#include "wavescope/hw/transport/pcie_config_space.hpp"

using namespace wavescope::hw;

TEST_CASE("Navi31 config space reports its ids and class") {
  PcieConfigSpace cfg(navi31_pcie_identity());
  CHECK(cfg.read(0, 4) == 0x744C1002);
  CHECK(cfg.read(0x0B, 1) == 0x03);
  cfg.write(0, 0x12345678, 4);
  CHECK(cfg.read(0, 2) == 0x1002);  // read-only
}

TEST_CASE("BAR sizing reads back the size mask with the type bits") {
  PcieConfigSpace cfg(navi31_pcie_identity());
  cfg.write(0x24, 0xFFFFFFFF, 4);
  CHECK(cfg.read(0x24, 4) == 0xFFF00000);  // BAR5: 1 MiB, 32-bit, non-prefetchable
  cfg.write(0x10, 0xFFFFFFFF, 4);
  cfg.write(0x14, 0xFFFFFFFF, 4);
  CHECK(cfg.read(0x10, 4) == 0xF000000C);  // BAR0: 256 MiB, 64-bit prefetchable
  CHECK(cfg.read(0x14, 4) == 0xFFFFFFFF);
  cfg.write(0x20, 0xFFFFFFFF, 4);
  CHECK(cfg.read(0x20, 4) == 0xFFFFFF01);  // BAR4: 256 bytes of I/O
  cfg.write(0x1C, 0xFFFFFFFF, 4);
  CHECK(cfg.read(0x1C, 4) == 0xFFFFFFFF);  // BAR2's upper half
}

TEST_CASE("the Resizable-BAR control sets BAR0's size") {
  PcieConfigSpace cfg(navi31_pcie_identity());
  CHECK(cfg.read(0x100, 2) == 0x15);
  CHECK(cfg.read(0x104, 4) == 0x000FF000);
  CHECK(cfg.bar_size(0) == (256ull << 20));
  cfg.write(0x108, 15u << 8, 4);
  CHECK(cfg.bar_size(0) == (32ull << 30));
  cfg.write(0x10, 0xFFFFFFFF, 4);
  cfg.write(0x14, 0xFFFFFFFF, 4);
  CHECK(cfg.read(0x10, 4) == 0x0000000C);
  CHECK(cfg.read(0x14, 4) == 0xFFFFFFF8);
  cfg.write(0x108, 3u << 8, 4);  // unsupported size: ignored
  CHECK(cfg.bar_size(0) == (32ull << 30));
}

TEST_CASE("memory decoding needs COMMAND.MEMORY and an assigned BAR") {
  PcieConfigSpace cfg(navi31_pcie_identity());
  cfg.write(0x24, 0x10000000, 4);
  CHECK_FALSE(cfg.decode_memory(0x10000010));
  cfg.write(0x04, 0x02, 2);
  const auto hit = cfg.decode_memory(0x10000010);
  REQUIRE(hit);
  CHECK(hit->bar == 5);
  CHECK(hit->offset == 0x10);
  CHECK_FALSE(cfg.decode_memory(0x10100000));
  CHECK(cfg.bar_info(5).present);
  CHECK(cfg.bar_info(5).bus_address == 0x10000000);
  cfg.reset();
  CHECK_FALSE(cfg.decode_memory(0x10000010));
  CHECK(cfg.read(0x04, 2) == 0);
}
