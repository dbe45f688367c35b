// The per-device lock (transport.md A.2).

#include <catch2/catch.hpp>

#include <filesystem>
#include <sys/stat.h>

#include "support_transport/temp_dir.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/hw/transport/device_lock.hpp"

using wavescope::hw::DeviceLock;

TEST_CASE("a device lock is exclusive and names its file when held") {
  const wavescope::testing::TempDir temp;
  const auto dir = temp.path;
  auto first = std::make_unique<DeviceLock>("pci:0000:03:00.0", dir);
  CHECK(first->path() == dir / "am_pci_0000_03_00.0.lock");
  try {
    DeviceLock second("pci:0000:03:00.0", dir);
    FAIL("took a held lock");
  } catch (const wavescope::Error &e) {
    CHECK(e.kind() == wavescope::ErrorKind::Device);
    CHECK_THAT(e.what(), Catch::Contains("in use by another process"));
    CHECK_THAT(e.what(), Catch::Contains("am_pci_0000_03_00.0.lock"));
  }
  first.reset();
  CHECK_NOTHROW(DeviceLock("pci:0000:03:00.0", dir));
}

TEST_CASE("a device lock file is created readable and writable by everyone") {
  const wavescope::testing::TempDir temp;
  const auto dir = temp.path;
  const auto path = DeviceLock::path_for("usb:9-9-mode", dir);
  DeviceLock lock("usb:9-9-mode", dir);
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0666);
}
