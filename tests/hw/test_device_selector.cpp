// Device selection (`--device`, the simulator root) and opening simulated boards through both
// paths: the board is locked while open, saved on close (also after an error), and USB faults are
// handed to the simulated bridge.

#include <catch2/catch.hpp>

#include <cstdlib>

#include "fault/fault_plan.hpp"
#include "fault/usb_fault_spec.hpp"
#include "sim/navi31_board.hpp"
#include "support_flash/temp_dir.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/hw/device.hpp"
#include "wavescope/hw/navi31/bar5_registers.hpp"
#include "wavescope/hw/sim/sim_store.hpp"

using namespace wavescope::hw;
using namespace wavescope::hw::device;
using wavescope::ErrorKind;
using wavescope::testing::TempDir;

namespace {

void create_board(const TempDir &dir, const std::string &name) {
  VirtualClock clock;
  sim::Navi31Board board({}, clock, std::vector<std::uint8_t>(0x200000, 0xFF));
  sim::SimStore(dir.path()).create(name, board);
}

device::OpenOptions options_in(const TempDir &dir) {
  device::OpenOptions o;
  o.sim_root = dir.path();
  o.command = "test";
  return o;
}

}  // namespace

TEST_CASE("device specs parse the four forms and refuse anything else") {
  CHECK(parse_device_spec("usb:0").kind == DeviceSpec::Kind::Usb);
  CHECK(parse_device_spec("pci:0000:03:00.0").name == "0000:03:00.0");
  CHECK(parse_device_spec("sim:bench").kind == DeviceSpec::Kind::Sim);
  CHECK(parse_device_spec("sim-pci:bench").text() == "sim-pci:bench");
  CHECK_THROWS_WITH(parse_device_spec("floppy:0"), Catch::Contains("usb:N, pci:BDF"));
  CHECK_THROWS_WITH(parse_device_spec("sim:"), Catch::Contains("bad device spec 'sim:'"));
  CHECK_THROWS_WITH(parse_device_spec("sim:../x"), Catch::Contains("bad simulated board name"));
}

TEST_CASE("the simulator root comes from the option, then WAVESCOPE_SIM_ROOT, then XDG_DATA_HOME") {
  CHECK(resolve_sim_root(std::filesystem::path("/opt/sims")) == "/opt/sims");
  ::setenv("WAVESCOPE_SIM_ROOT", "/env/sims", 1);
  CHECK(resolve_sim_root(std::nullopt) == "/env/sims");
  ::unsetenv("WAVESCOPE_SIM_ROOT");
  ::setenv("XDG_DATA_HOME", "/xdg", 1);
  CHECK(resolve_sim_root(std::nullopt) == "/xdg/wavescope/sim");
  ::unsetenv("XDG_DATA_HOME");
}

TEST_CASE(
    "a simulated board opens through both paths, stays locked while open and is saved on close") {
  TempDir dir;
  create_board(dir, "b");
  for (const char *spec : {"sim:b", "sim-pci:b"}) {
    CAPTURE(spec);
    auto device = open_device(parse_device_spec(spec), options_in(dir));
    CHECK(device->simulated());
    CHECK(device->id() == spec);
    device->bar5().write32(navi31::kGpioPadTxImpSel, 0x1234);
    CHECK_THROWS_WITH(open_device(parse_device_spec("sim-pci:b"), options_in(dir)),
                      Catch::Contains("in use"));
    CHECK(device->close().empty());
    auto again = open_device(parse_device_spec("sim-pci:b"), options_in(dir));
    CHECK(again->bar5().read32(navi31::kGpioPadTxImpSel) == 0x1234);
  }
  try {
    open_device(parse_device_spec("sim:nothing"), options_in(dir));
    FAIL("opened a board that does not exist");
  } catch (const wavescope::Error &e) {
    CHECK(e.kind() == ErrorKind::Device);
  }
}

TEST_CASE("a USB fault armed on the board is used by the next sim: command and then removed") {
  TempDir dir;
  create_board(dir, "b");
  {
    auto loaded = sim::SimStore(dir.path()).open("b");
    loaded.board->arm_fault(sim::parse_fault("usb:link-training=0x11"));
    sim::SimStore(dir.path()).save(loaded);
  }
  CHECK_THROWS_WITH(open_device(parse_device_spec("sim:b"), options_in(dir)),
                    Catch::Contains("0x11"));
  auto device = open_device(parse_device_spec("sim:b"), options_in(dir));  // the fault is used up
  CHECK(device->bar5().read32(navi31::kRomCntl) == 1);
}

TEST_CASE("USB fault specs cover transfers, TLP statuses and the link, nonsense is refused") {
  UsbFaultPlan plan;
  apply_usb_fault(plan, "transfer=bulk-in,nth=40,effect=timeout");
  apply_usb_fault(plan, "transfer=control-out,request=0xF0,mode=2,nth=3,effect=stall,after");
  apply_usb_fault(plan, "return-status=3");
  apply_usb_fault(plan, "completion=ca,count=2");
  apply_usb_fault(plan, "link-down-after=500");
  CHECK_THROWS_WITH(apply_usb_fault(plan, "transfer=bulk-sideways,effect=io"),
                    Catch::Contains("unknown transfer"));
  CHECK_THROWS_WITH(apply_usb_fault(plan, "nth=3"), Catch::Contains("needs effect="));
  CHECK_THROWS_WITH(apply_usb_fault(plan, "effect=io,color=red"),
                    Catch::Contains("unknown key 'color'"));
}
