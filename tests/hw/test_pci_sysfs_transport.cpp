// The native sysfs transport against a fake sysfs tree (transport.md Part A).

#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include "support_transport/fake_sysfs.hpp"
#include "support_transport/test_endpoint.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/hw/pci/sysfs_transport.hpp"

using namespace wavescope::hw;
using wavescope::Error;
using wavescope::ErrorKind;
using wavescope::testing::FakeSysfs;
using wavescope::testing::TestEndpoint;

namespace {

constexpr const char *kBdf = "0000:03:00.0";

SysfsOptions options_for(const FakeSysfs &fs) {
  SysfsOptions options;
  options.sysfs_root = fs.root();
  return options;
}

// BAR5 accesses forwarded to an endpoint model: the board behind a fake resource5.
class EndpointMmio final : public Mmio {
public:
  explicit EndpointMmio(TestEndpoint &gpu) : gpu_(gpu) {}
  std::uint64_t size() const override { return 1u << 20; }
  std::uint32_t read32(std::uint64_t offset) override {
    ++stats_.reads;
    return gpu_.bar_read32(5, offset);
  }
  void write32(std::uint64_t offset, std::uint32_t value) override {
    ++stats_.writes;
    gpu_.bar_write32(5, offset, value);
  }
  std::vector<std::uint32_t> read_block(std::uint64_t offset, std::size_t dwords) override {
    std::vector<std::uint32_t> out;
    for (std::size_t i = 0; i < dwords; ++i) out.push_back(gpu_.bar_read32(5, offset + 4 * i));
    return out;
  }
  void write_block(std::uint64_t offset, std::span<const std::uint32_t> values) override {
    for (std::size_t i = 0; i < values.size(); ++i) gpu_.bar_write32(5, offset + 4 * i, values[i]);
  }
  void flush() override {}
  const TransportStats &stats() const override { return stats_; }
  void set_trace_hook(MmioTraceHook) override {}

private:
  TestEndpoint &gpu_;
  TransportStats stats_;
};

}  // namespace

TEST_CASE("sysfs: opening an unbound Navi31 enables it and says so") {
  FakeSysfs fs;
  fs.add_device(kBdf);
  std::vector<std::string> told;
  auto options = options_for(fs);
  options.log = [&](std::string_view line) { told.emplace_back(line); };
  SysfsPciFunction gpu(kBdf, options);
  CHECK(gpu.id() == "pci:0000:03:00.0");
  CHECK(gpu.kind() == TransportKind::NativeSysfs);
  CHECK(FakeSysfs::read(fs.device(kBdf) / "enable") == "1");
  REQUIRE(gpu.actions().size() == 1);
  CHECK_THAT(gpu.actions()[0], Catch::Contains("write 1 to"));
  CHECK_THAT(gpu.actions()[0], Catch::Contains("enable memory decoding"));
  CHECK(told == gpu.actions());
  CHECK_FALSE(gpu.driver_at_open());
}

TEST_CASE("sysfs: BARs come from the resource table") {
  FakeSysfs fs;
  fs.add_device(kBdf);
  SysfsPciFunction gpu(kBdf, options_for(fs));
  const auto bar5 = gpu.bar(5);
  CHECK(bar5.present);
  CHECK(bar5.bus_address == 0xfc000000);
  CHECK(bar5.size == (1u << 20));
  CHECK_FALSE(bar5.is64);
  CHECK(gpu.bar(0).is64);
  CHECK(gpu.bar(0).prefetchable);
  CHECK(gpu.bar(0).size == (32ull << 30));
  CHECK(gpu.bar(4).is_io);
  CHECK_FALSE(gpu.bar(1).present);
}

TEST_CASE("sysfs: BAR5 is mapped from resource5 with 32-bit accesses") {
  FakeSysfs fs;
  fs.add_device(kBdf);
  SysfsPciFunction gpu(kBdf, options_for(fs));
  auto &bar5 = gpu.map_bar(5);
  CHECK(bar5.size() == (1u << 20));
  bar5.write32(0x5A3A0, 0x11223344);
  bar5.write_block(0x100, std::vector<std::uint32_t>{1, 2});
  CHECK(bar5.read32(0x5A3A0) == 0x11223344);
  CHECK(bar5.read_block(0x100, 2) == std::vector<std::uint32_t>{1, 2});
  CHECK(bar5.stats().operations() == 4);
  gpu.close();
  const auto file = FakeSysfs::read(fs.device(kBdf) / "resource5");
  CHECK(static_cast<unsigned char>(file[0x5A3A0]) == 0x44);
  CHECK(static_cast<unsigned char>(file[0x5A3A3]) == 0x11);
  CHECK_THROWS_WITH(gpu.map_bar(5), Catch::Contains("is closed"));
}

TEST_CASE("sysfs: the BAR mapping goes through an injected Mmio factory") {
  FakeSysfs fs;
  fs.add_device(kBdf);
  TestEndpoint board;
  board.registers[{5, 0x5A3A4}] = 0x04000800;
  std::filesystem::path mapped;
  auto options = options_for(fs);
  options.mmio_factory = [&](const std::filesystem::path &resource, unsigned index,
                             std::uint64_t size) -> std::unique_ptr<Mmio> {
    mapped = resource;
    CHECK(index == 5);
    CHECK(size == (1u << 20));
    return std::make_unique<EndpointMmio>(board);
  };
  SysfsPciFunction gpu(kBdf, options);
  CHECK(gpu.map_bar(5).read32(0x5A3A4) == 0x04000800);
  CHECK(mapped == fs.device(kBdf) / "resource5");
  CHECK(&gpu.map_bar(5) == &gpu.map_bar(5));  // mapped once
}

TEST_CASE("sysfs: config space is read and written little-endian at the register offset") {
  FakeSysfs fs;
  fs.add_device(kBdf);
  SysfsPciFunction gpu(kBdf, options_for(fs));
  CHECK(gpu.config_read(0, 4) == 0x744C1002);
  CHECK(gpu.config_read(2, 2) == 0x744C);
  gpu.config_write(0x04, 0x0006, 2);
  CHECK(gpu.config_read(0x04, 2) == 0x0006);
  CHECK(FakeSysfs::read(fs.device(kBdf) / "config")[4] == 6);
  CHECK_THROWS_AS(gpu.config_read(0x0FFE, 4), Error);
}

TEST_CASE("sysfs: a bound kernel driver is refused and nothing is written") {
  FakeSysfs fs;
  fs.add_device(kBdf);
  fs.bind(kBdf, "amdgpu");
  try {
    SysfsPciFunction gpu(kBdf, options_for(fs));
    FAIL("opened a device with a bound driver");
  } catch (const Error &e) {
    CHECK(e.kind() == ErrorKind::State);
    CHECK_THAT(e.what(), Catch::Contains("kernel driver amdgpu is bound to 0000:03:00.0"));
    CHECK_THAT(e.what(), Catch::Contains("turns off every display"));
    CHECK_THAT(e.what(), Catch::Contains("driver/unbind"));
  }
  CHECK(FakeSysfs::read(fs.device(kBdf) / "enable") == "0\n");
  CHECK(FakeSysfs::read(fs.root() / "bus/pci/drivers/amdgpu/unbind").empty());
}

TEST_CASE("sysfs: with unbinding allowed the BDF goes to driver/unbind, and a driver that stays is "
          "reported") {
  FakeSysfs fs;
  fs.add_device(kBdf);
  fs.bind(kBdf, "amdgpu");
  auto options = options_for(fs);
  options.allow_unbind = true;
  // The fake kernel does not act on the unbind, so the driver is still there afterwards.
  CHECK_THROWS_WITH(SysfsPciFunction(kBdf, options),
                    Catch::Contains("kernel driver amdgpu still bound to 0000:03:00.0"));
  CHECK(FakeSysfs::read(fs.root() / "bus/pci/drivers/amdgpu/unbind") == kBdf);
}

TEST_CASE("sysfs: sibling functions are removed only when allowed") {
  FakeSysfs fs;
  fs.add_device(kBdf);
  fs.add_sibling("0000:03:00.1");
  {
    SysfsPciFunction gpu(kBdf, options_for(fs));
    CHECK(FakeSysfs::read(fs.device("0000:03:00.1") / "remove").empty());
  }
  auto options = options_for(fs);
  options.allow_remove_siblings = true;
  SysfsPciFunction gpu(kBdf, options);
  CHECK(FakeSysfs::read(fs.device("0000:03:00.1") / "remove") == "1");
  CHECK_THAT(gpu.actions()[0], Catch::Contains("hot-remove sibling"));
}

TEST_CASE("sysfs: missing permission is reported with the remedy") {
  FakeSysfs fs;
  fs.add_device(kBdf);
  std::filesystem::permissions(fs.device(kBdf) / "enable", std::filesystem::perms::owner_read |
                                                               std::filesystem::perms::group_read |
                                                               std::filesystem::perms::others_read);
  const auto attempt = [&]() -> int {
    try {
      SysfsPciFunction gpu(kBdf, options_for(fs));
      return 1;
    } catch (const Error &e) {
      const std::string what = e.what();
      return e.kind() == ErrorKind::Device &&
                     what.find("cannot access PCI device 0000:03:00.0: need root or "
                               "capabilities") != std::string::npos
                 ? 0
                 : 2;
    }
  };
  if (::geteuid() != 0) {
    CHECK(attempt() == 0);
    return;
  }
  // Root ignores file modes: try as an unprivileged user in a child process.
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    if (::setresgid(65534, 65534, 65534) != 0 || ::setresuid(65534, 65534, 65534) != 0) ::_exit(3);
    ::_exit(attempt());
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
}

TEST_CASE("sysfs: an unassigned BAR5 is reported with the BIOS hint") {
  FakeSysfs fs;
  fs.add_device(kBdf, 0x1002, 0x744C, 0);
  SysfsPciFunction gpu(kBdf, options_for(fs));
  CHECK_FALSE(gpu.bar(5).present);
  CHECK_THROWS_WITH(gpu.map_bar(5), Catch::Contains("BAR5 of 0000:03:00.0 not assigned by the "
                                                    "firmware/kernel"));
  CHECK_THROWS_WITH(gpu.map_bar(4), Catch::Contains("I/O BAR"));
}

TEST_CASE("sysfs: a failed mapping names the BAR and the device") {
  FakeSysfs fs;
  fs.add_device(kBdf);
  std::filesystem::remove(fs.device(kBdf) / "resource5");
  SysfsPciFunction gpu(kBdf, options_for(fs));
  CHECK_THROWS_WITH(gpu.map_bar(5), Catch::Contains("cannot map BAR5 of 0000:03:00.0"));
}

TEST_CASE("sysfs: other devices and missing trees are refused clearly") {
  FakeSysfs fs;
  fs.add_device("0000:05:00.0", 0x1002, 0x73BF);
  CHECK_THROWS_WITH(SysfsPciFunction("0000:05:00.0", options_for(fs)),
                    Catch::Contains("is 1002:73bf, not a supported AMD GPU"));
  CHECK_THROWS_WITH(SysfsPciFunction("0000:09:00.0", options_for(fs)),
                    Catch::Contains("no PCI device 0000:09:00.0"));
  SysfsOptions nowhere;
  nowhere.sysfs_root = fs.root() / "missing";
  CHECK_THROWS_WITH(SysfsPciFunction(kBdf, nowhere), Catch::Contains("PCI sysfs not available"));
}

TEST_CASE("sysfs: listing finds Navi31 functions sorted by BDF, with their drivers") {
  FakeSysfs fs;
  fs.add_device("0000:0a:00.0");
  fs.add_device("0000:03:00.0");
  fs.add_sibling("0000:03:00.1");
  fs.add_device("0000:01:00.0", 0x10DE, 0x2684);
  fs.bind("0000:0a:00.0", "amdgpu");
  const auto all = list_pci_devices(fs.root());
  CHECK(all.size() == 4);
  const auto navi = list_navi31_devices(fs.root());
  REQUIRE(navi.size() == 2);
  CHECK(navi[0].bdf == "0000:03:00.0");
  CHECK_FALSE(navi[0].driver);
  CHECK(navi[1].bdf == "0000:0a:00.0");
  CHECK(navi[1].driver == "amdgpu");
  CHECK(navi[1].class_code == 0x030000);
  CHECK(list_pci_devices(fs.root() / "missing").empty());
}
