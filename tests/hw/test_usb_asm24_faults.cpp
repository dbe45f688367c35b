// Every failure of transport.md B.8 through the ASM24 transport: a clear error naming the
// operation and the request, the right error kind, and no retry of anything that may have run.

#include <catch2/catch.hpp>

#include "support_transport/bridge_fixture.hpp"
#include "wavescope/base/error.hpp"

using namespace wavescope::hw;
using wavescope::Error;
using wavescope::ErrorKind;
using wavescope::testing::BridgeFixture;
using wavescope::testing::TestEndpoint;

namespace {

// Runs `operation`, requires a wavescope::Error of `kind`, returns its message.
template <typename F> std::string failure_of(F &&operation, ErrorKind kind) {
  try {
    operation();
  } catch (const Error &e) {
    CHECK(e.kind() == kind);
    return e.what();
  }
  FAIL("no error");
  return {};
}

std::size_t count_requests(const RecordingUsbDevice &recorder, std::uint8_t request,
                           std::uint16_t index) {
  return static_cast<std::size_t>(std::count_if(
      recorder.records().begin(), recorder.records().end(), [&](const UsbTransferRecord &r) {
        return r.kind == UsbTransferKind::ControlOut && r.setup.request == request &&
               r.setup.index == index;
      }));
}

}  // namespace

TEST_CASE("a bulk IN timeout on read32 names the register and the transfer, in virtual time") {
  BridgeFixture f;
  f.open();
  f.bridge.faults().fail_nth(UsbTransferKind::BulkIn, 1, UsbFaultEffect::Timeout);
  const auto before = f.clock.now();
  const auto message = failure_of([&] { f.bar5().read32(0x5A3A4); }, ErrorKind::Timeout);
  CHECK_THAT(message, Catch::Contains("read32 of BAR5+0x5a3a4 (PCIe 0x1005a3a4)"));
  CHECK_THAT(message, Catch::Contains("bulk IN of 4 bytes on 0x81 failed"));
  CHECK_THAT(message, Catch::Contains("timed out"));
  CHECK(f.clock.now() - before >= std::chrono::seconds(30));
}

TEST_CASE("a stalled bulk IN is a device error with the stall remedy") {
  BridgeFixture f;
  f.open();
  f.bridge.faults().fail_nth(UsbTransferKind::BulkIn, 1, UsbFaultEffect::Stall);
  const auto message = failure_of([&] { f.bar5().read_block(0x400, 64); }, ErrorKind::Device);
  CHECK_THAT(message, Catch::Contains("read_block of 64 dwords at BAR5+0x400"));
  CHECK_THAT(message, Catch::Contains("endpoint stalled"));
  CHECK_THAT(message, Catch::Contains("power-cycle the bridge"));
}

TEST_CASE("a short bulk IN of a FIFO read fails and is not retried") {
  BridgeFixture f;
  f.open();
  f.bridge.faults().fail_nth(UsbTransferKind::BulkIn, 1, UsbFaultEffect::Short, 2);
  const auto before = f.gpu.fifo_next;
  const auto message =
      failure_of([&] { f.bar5().read32(TestEndpoint::kFifoOffset); }, ErrorKind::Device);
  CHECK_THAT(message, Catch::Contains("returned 2 of 4 bytes (short transfer)"));
  CHECK_THAT(message, Catch::Contains("not retried"));
  CHECK(f.gpu.fifo_next == before + 1);              // the read happened once on the device ...
  CHECK(count_requests(*f.recorder, 0xF0, 2) == 1);  // ... and was requested once
  CHECK(f.recorder->records().size() == 2);
}

TEST_CASE("a failed bulk IN of a FIFO read is not retried either") {
  BridgeFixture f;
  f.open();
  f.bridge.faults().fail_nth(UsbTransferKind::BulkIn, 1, UsbFaultEffect::Io);
  const auto before = f.gpu.fifo_next;
  failure_of([&] { f.bar5().read32(TestEndpoint::kFifoOffset); }, ErrorKind::Device);
  CHECK(f.gpu.fifo_next == before + 1);
  CHECK(f.recorder->records().size() == 2);
  // The next read works and continues from where the device is: the caller restarts knowingly.
  CHECK(f.bar5().read32(TestEndpoint::kFifoOffset) == before + 1);
}

TEST_CASE("a failed control OUT of write32 is reported and the write never happens") {
  BridgeFixture f;
  f.open();
  f.bridge.faults().fail_nth(UsbTransferKind::ControlOut, 1, UsbFaultEffect::Io);
  const auto message = failure_of([&] { f.bar5().write32(0x5A3A0, 0x1234); }, ErrorKind::Device);
  CHECK_THAT(message, Catch::Contains("write32 of BAR5+0x5a3a0"));
  CHECK_THAT(message,
             Catch::Contains("0xF0 streaming write request (mode 1, 1 dwords at 0x1005a3a0)"));
  CHECK_THAT(message, Catch::Contains("I/O error"));
  CHECK(f.gpu.bar_writes == 0);
  CHECK(f.recorder->records().size() == 1);  // no bulk OUT after the failed request, no retry
}

TEST_CASE("a failed bulk OUT drops the write and is not retried") {
  BridgeFixture f;
  f.open();
  f.bridge.faults().fail_nth(UsbTransferKind::BulkOut, 1, UsbFaultEffect::Short);
  const auto message = failure_of([&] { f.bar5().write32(0x10, 7); }, ErrorKind::Device);
  CHECK_THAT(message, Catch::Contains("bulk OUT of 4 bytes on 0x02 failed"));
  CHECK(f.gpu.bar_writes == 0);
  CHECK(count_requests(*f.recorder, 0xF0, 1) == 1);
}

TEST_CASE("a disconnected bridge says so and every later transfer fails") {
  BridgeFixture f;
  f.open();
  f.bridge.faults().fail_from(UsbTransferKind::ControlOut, 1, UsbFaultEffect::NoDevice);
  CHECK_THAT(failure_of([&] { f.bar5().read32(0); }, ErrorKind::Device),
             Catch::Contains("bridge disconnected"));
  CHECK_THAT(failure_of([&] { f.bar5().read32(0); }, ErrorKind::Device),
             Catch::Contains("bridge disconnected"));
}

TEST_CASE("an overflow on the completion read is a protocol error") {
  BridgeFixture f;
  f.open();
  UsbFault fault;
  fault.kind = UsbTransferKind::ControlIn;
  fault.request = 0xF0;
  fault.effect = UsbFaultEffect::Overflow;
  f.bridge.faults().add(fault);
  const auto message = failure_of([&] { f.transport->config_read(0, 4); }, ErrorKind::Device);
  CHECK_THAT(message, Catch::Contains("config read of bus 4 offset 0x0 (4 bytes)"));
  CHECK_THAT(message, Catch::Contains("0xF0 completion read failed"));
  CHECK_THAT(message, Catch::Contains("overflow"));
}

TEST_CASE("a short completion reply is refused") {
  BridgeFixture f;
  f.open();
  UsbFault fault;
  fault.kind = UsbTransferKind::ControlIn;
  fault.effect = UsbFaultEffect::Short;
  fault.short_length = 5;
  f.bridge.faults().add(fault);
  CHECK_THAT(failure_of([&] { f.transport->config_read(0, 4); }, ErrorKind::Device),
             Catch::Contains("returned 5 of 8 bytes (short transfer)"));
}

TEST_CASE("a non-zero return status is retried up to ten times, 1 ms apart") {
  BridgeFixture f;
  f.open();
  f.bridge.faults().return_status_for(3);
  const auto before = f.clock.now();
  CHECK(f.transport->config_read(0, 4) == 0x744C1002);
  CHECK(count_requests(*f.recorder, 0xF0, 0) == 4);
  CHECK(f.clock.now() - before >= std::chrono::milliseconds(3));
}

TEST_CASE("a return status that persists fails after the last retry with the status") {
  BridgeFixture f;
  f.open();
  f.bridge.faults().return_status_for(11, 0x05);
  const auto message =
      failure_of([&] { f.transport->config_write(0x04, 7, 1); }, ErrorKind::Device);
  CHECK_THAT(message, Catch::Contains("config write of 0x7 to bus 4 offset 0x4"));
  CHECK_THAT(message, Catch::Contains("return status 0x05 on 11 attempts (request not executed)"));
  CHECK(count_requests(*f.recorder, 0xF0, 0) == 11);
}

TEST_CASE("completion statuses UR, CRS and CA are named") {
  using asm24::CompletionStatus;
  const std::pair<CompletionStatus, const char *> cases[] = {
      {CompletionStatus::UnsupportedRequest, "Unsupported Request"},
      {CompletionStatus::ConfigRetry, "Configuration Request Retry Status"},
      {CompletionStatus::CompleterAbort, "Completer Abort"}};
  for (const auto &[status, name] : cases) {
    BridgeFixture f;
    f.open();
    f.bridge.faults().completion_status_for(1, status);
    const auto message = failure_of([&] { f.transport->config_read(0x08, 4); }, ErrorKind::Device);
    CHECK_THAT(message, Catch::Contains("config read of bus 4 offset 0x8"));
    CHECK_THAT(message, Catch::Contains(name));
  }
}

TEST_CASE("a lost link reads all ones on BAR5 and UR on config space") {
  BridgeFixture f;
  f.open();
  f.gpu.registers[{5, 0x5A3A4}] = 0;
  f.bridge.faults().set_link_down(true);
  CHECK(f.bar5().read32(0x5A3A4) == 0xFFFFFFFFu);
  f.bar5().write32(0x10, 1);
  CHECK(f.bridge.counters().unclaimed_reads == 1);
  CHECK(f.bridge.counters().dropped_writes == 1);
  CHECK_THAT(failure_of([&] { f.transport->config_read(0, 4); }, ErrorKind::Device),
             Catch::Contains("Unsupported Request"));
}

TEST_CASE("a link that drops after a number of transfers turns reads into all ones") {
  BridgeFixture f;
  f.open();
  f.bridge.faults().link_down_after(3);
  CHECK(f.bar5().read32(0) == 0);  // transfers 1-2
  CHECK(f.bar5().read32(0) == 0xFFFFFFFFu);
}

TEST_CASE("a board that lost power answers like a lost link") {
  BridgeFixture f;
  f.open();
  f.gpu.link = false;
  CHECK(f.bar5().read32(0) == 0xFFFFFFFFu);
  CHECK_THROWS_WITH(f.transport->config_read(0, 4), Catch::Contains("Unsupported Request"));
}

TEST_CASE("bring-up with the GPU absent names the unreachable bus") {
  BridgeFixture f;
  f.gpu.link = false;
  const auto message = failure_of([&] { f.open(); }, ErrorKind::Device);
  CHECK_THAT(message, Catch::Contains("bus 2"));
  CHECK_THAT(message, Catch::Contains("Unsupported Request"));
}

TEST_CASE("USB failures during bring-up name the step") {
  BridgeFixture f;
  f.bridge.faults().fail_nth(UsbTransferKind::ControlIn, 1, UsbFaultEffect::Timeout);
  const auto message = failure_of([&] { f.open(); }, ErrorKind::Timeout);
  CHECK_THAT(message, Catch::Contains("controller init (link training)"));
  CHECK_THAT(message, Catch::Contains("XDATA read (0xE4) of 1 bytes at 0xb450"));
}
