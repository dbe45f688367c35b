// The PSP mailbox (navi31-flash.md §7) against the simulated PSP (§10.7): the primitive's
// READY handling, the transfer state machine's errors, `probe`, and `ifwi-all` streaming the
// synthesized image until the phase-2 commit, whose write-back differs from the image exactly
// where §10.7 says.

#include <catch2/catch.hpp>

#include <cstring>

#include "support_flash/sim_bench.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/hw/navi31/bar5_registers.hpp"
#include "wavescope/hw/psp/psp_mailbox.hpp"
#include "wavescope/hw/psp/psp_procedures.hpp"

using namespace wavescope::hw;
using namespace wavescope::hw::psp;
using wavescope::ErrorKind;
using wavescope::testing::SimBench;

namespace {

std::uint16_t error_of(PspMailbox &mailbox, std::uint8_t command,
                       std::optional<std::uint32_t> arg) {
  return mailbox.send(command, arg).error;
}

ErrorKind kind_of(const std::function<void()> &f) {
  try {
    f();
  } catch (const wavescope::Error &e) {
    return e.kind();
  }
  return ErrorKind::Internal;
}

}  // namespace

TEST_CASE("the early PSP answers the query commands, the transfer state machine rejects misuse") {
  SimBench bench({}, SimBench::test_image());
  PspMailbox mailbox(bench.bar5(), bench.clock());
  const auto type = mailbox.send(command::kGetTransferType, std::nullopt);
  CHECK(type.error == 0);
  CHECK(type.response == 0x001u);
  CHECK(mailbox.send(command::kSpiGetModelId, std::nullopt).response == 0x001560C8u);
  CHECK(error_of(mailbox, command::kDataTransfer, 0) == 0x10);                     // no START
  CHECK(error_of(mailbox, command::kStartTransfer, (0x54u << 8) | 0x02) == 0x11);  // wrong item
  CHECK(error_of(mailbox, command::kStartTransfer, (0x53u << 8) | 0x01) == 0x03);  // size % 4
  CHECK(error_of(mailbox, 0x42, std::nullopt) == 0x0E);  // unknown command
  CHECK(error_of(mailbox, command::kStartTransfer, (8u << 8) | 0x01) == 0);
  CHECK(error_of(mailbox, command::kStartTransfer, (8u << 8) | 0x01) == 0x11);  // already receiving
  CHECK(error_of(mailbox, command::kDataTransfer, 1) == 0);
  CHECK(error_of(mailbox, command::kDataTransfer, 2) == 0);
  CHECK(error_of(mailbox, command::kDataTransfer, 3) == 0x02);                // beyond the size
  CHECK(error_of(mailbox, command::kEndTransfer, (8u << 8) | 0x01) == 0x06);  // not 0x55AA55AA
}

TEST_CASE("the mailbox primitive refuses a bricked board's dead mailbox and a lost device") {
  SimBench bricked;
  PspMailbox mailbox(bricked.bar5(), bricked.clock());
  CHECK_THROWS_WITH(mailbox.send(command::kGetTransferType, std::nullopt),
                    Catch::Contains("PSP mailbox not ready") && Catch::Contains("0x00000000"));
  SimBench lost({}, SimBench::test_image());
  lost.board().link_down();
  PspMailbox mailbox2(lost.bar5(), lost.clock());
  CHECK(kind_of([&] { mailbox2.send(command::kGetTransferType, std::nullopt); }) ==
        ErrorKind::Device);
}

TEST_CASE("a mailbox that stays busy times out on the virtual clock") {
  SimBench bench({}, SimBench::test_image());
  bench.board().arm_fault(wavescope::hw::sim::parse_fault("psp:mode=busy,cmd=0x07"));
  PspMailbox mailbox(bench.bar5(), bench.clock());
  CHECK(kind_of([&] { mailbox.send(command::kGetTransferType, std::nullopt); }) ==
        ErrorKind::Timeout);
  CHECK(bench.clock().now().time_since_epoch() >= std::chrono::seconds(10));
}

TEST_CASE("psp probe reports the requested item on a booted board and gating under SOS") {
  SimBench booted({}, SimBench::test_image());
  const auto probe = psp_probe(booted.bar5(), booted.clock());
  CHECK(probe.entries.size() == 4);
  CHECK(probe.transfer_type == 0x001u);
  CHECK_FALSE(probe.update_gated);
  CHECK(booted.board().activity().start_transfers == 0);

  SimBench sos({}, SimBench::test_image());
  sos.board().load_driver();
  const auto gated = psp_probe(sos.bar5(), sos.clock());
  CHECK(gated.update_gated);
  CHECK_THAT(gated.advice, Catch::Contains("power-cycled"));
}

TEST_CASE(
    "ifwi-all streams the 18 items and the commit differs from the image only where §10.7 says") {
  const auto &image = SimBench::test_image();
  SimBench bench({}, image);
  const auto result = psp_ifwi_all(bench.bar5(), bench.clock(), image);
  CHECK(result.completed);
  REQUIRE(result.items.size() == 18);
  CHECK(result.items.back().item == 0x08);
  CHECK(result.items.back().size == 0xC0000);
  CHECK(bench.board().state() == wavescope::hw::sim::BoardState::Updated);
  // Differences: the cookie at 0x50, ISH B's checksum and retries, the metadata block.
  const auto &flash = bench.board().flash();
  std::vector<std::size_t> differing;
  for (std::size_t i = 0; i < image.size(); ++i)
    if (flash[i] != image[i] && (i < 0x1EF000 || i >= 0x1F0000)) differing.push_back(i / 4 * 4);
  differing.erase(std::unique(differing.begin(), differing.end()), differing.end());
  CHECK(differing == std::vector<std::size_t>{0x50, 0x13000, 0x13008});
  CHECK(std::memcmp(flash.data() + 0x1EF000, "SIMMETA", 8) == 0);
  // Gated until a power cycle, which boots slot B.
  const auto after = psp_probe(bench.bar5(), bench.clock());
  CHECK(after.update_gated);
  bench.board().power_cycle();
  CHECK(bench.board().booted_slot() == wavescope::hw::sim::Slot::B);
}

TEST_CASE("ifwi-all stops cleanly on an unresolvable item, a repeated item or a decreasing phase") {
  using wavescope::hw::sim::ScriptStep;
  const auto &image = SimBench::test_image();
  struct Case {
    std::vector<ScriptStep> script;
    const char *message;
  };
  const Case cases[] = {
      {{{0x01, 0}, {0x8A, 0}}, "cannot provide"},
      {{{0x01, 0}, {0x01, 0}}, "again after receiving"},
      {{{0x01, 1}, {0x80, 0}}, "phase went back"},
  };
  for (const auto &c : cases) {
    wavescope::hw::sim::SimConfig config;
    config.psp_script = c.script;
    SimBench bench(config, image);
    CHECK_THROWS_WITH(psp_ifwi_all(bench.bar5(), bench.clock(), image), Catch::Contains(c.message));
  }
  wavescope::hw::sim::SimConfig first_is_last;
  first_is_last.psp_script = {{0x01, 2}};
  SimBench bench(first_is_last, image);
  const auto result = psp_ifwi_all(bench.bar5(), bench.clock(), image);
  CHECK(result.completed);
  CHECK(result.items.size() == 1);
}

TEST_CASE("a PSP error during a stream is reported with its meaning and the session closed") {
  const auto &image = SimBench::test_image();
  SimBench bench({}, image);
  bench.board().arm_fault(
      wavescope::hw::sim::parse_fault("psp:mode=error,code=0x0D,cmd=0x09,nth=5"));
  try {
    psp_ifwi_all(bench.bar5(), bench.clock(), image);
    FAIL("no error");
  } catch (const wavescope::Error &e) {
    CHECK(e.kind() == ErrorKind::Firmware);
    CHECK_THAT(e.what(), Catch::Contains("0x0D signature validation error") &&
                             Catch::Contains("DATA_TRANSFER"));
  }
  // The partial END closed the receive session: the PSP asks for item 0x01 again.
  PspMailbox mailbox(bench.bar5(), bench.clock());
  CHECK(mailbox.send(command::kGetTransferType, std::nullopt).response == 0x001u);
}

TEST_CASE("the fast mailbox variant streams with 3 operations per dword instead of 6") {
  // §6.7: 1 201 592 operations for the reference procedure, 602 337 for the fast variant,
  // measured with 125 µs per operation (READY at the first poll).
  const auto &image = SimBench::test_image();
  std::uint64_t ops[2];
  for (int fast = 0; fast < 2; ++fast) {
    SimBench bench(wavescope::testing::usb_timing_config(), image);
    IfwiAllOptions options;
    options.mailbox.fast = fast == 1;
    const auto result = psp_ifwi_all(bench.bar5(), bench.clock(), image, options);
    CHECK(result.completed);
    CHECK(result.dwords == 199710);
    ops[fast] = bench.operations();
  }
  CHECK(ops[0] == Approx(1201592).epsilon(0.001));
  CHECK(ops[1] == Approx(602337).epsilon(0.001));
}
