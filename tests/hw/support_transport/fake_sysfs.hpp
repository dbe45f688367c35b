#pragma once
// A fake Linux sysfs tree in a temporary directory, shaped like /sys/bus/pci for one or more
// Navi31 functions: ids, enable, config, resource table, resource5 (a real file that mmap
// accepts), optional bound driver and sibling functions.

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

namespace wavescope::testing {

class FakeSysfs {
public:
  FakeSysfs() {
    std::random_device rd;
    root_ = std::filesystem::temp_directory_path() / ("wavescope-sysfs-" + std::to_string(rd()));
    std::filesystem::create_directories(root_ / "bus" / "pci" / "devices");
    std::filesystem::create_directories(root_ / "bus" / "pci" / "drivers");
  }
  ~FakeSysfs() { std::filesystem::remove_all(root_); }
  FakeSysfs(const FakeSysfs &) = delete;
  FakeSysfs &operator=(const FakeSysfs &) = delete;

  const std::filesystem::path &root() const { return root_; }
  std::filesystem::path device(const std::string &bdf) const {
    return root_ / "bus" / "pci" / "devices" / bdf;
  }

  // A function with the given ids; BAR5 of `bar5_size` bytes at 0xfc000000 (0 = unassigned).
  void add_device(const std::string &bdf, std::uint16_t vendor = 0x1002,
                  std::uint16_t device_id = 0x744C, std::uint64_t bar5_size = 1u << 20) {
    const auto dir = device(bdf);
    std::filesystem::create_directories(dir);
    write(dir / "vendor", hex(vendor) + "\n");
    write(dir / "device", hex(device_id) + "\n");
    write(dir / "class", "0x030000\n");
    write(dir / "enable", "0\n");
    std::string config(256, '\0');
    config[0] = static_cast<char>(vendor & 0xFF);
    config[1] = static_cast<char>(vendor >> 8);
    config[2] = static_cast<char>(device_id & 0xFF);
    config[3] = static_cast<char>(device_id >> 8);
    write(dir / "config", config);
    std::string resource;
    const char *zero = "0x0000000000000000 0x0000000000000000 0x0000000000000000\n";
    resource += "0x0000007800000000 0x0000007fffffffff 0x000000000014220c\n";  // BAR0 (not used)
    resource += zero;
    resource += "0x0000007c00000000 0x0000007c001fffff 0x000000000014220c\n";  // BAR2
    resource += zero;
    resource += "0x000000000000e000 0x000000000000e0ff 0x0000000000040101\n";  // BAR4 I/O
    if (bar5_size)
      resource +=
          "0x00000000fc000000 " + hex64(0xfc000000ull + bar5_size - 1) + " 0x0000000000040200\n";
    else
      resource += zero;
    write(dir / "resource", resource);
    if (bar5_size) {
      std::ofstream(dir / "resource5", std::ios::binary).close();
      std::filesystem::resize_file(dir / "resource5", bar5_size);
    }
  }

  // Binds `driver` to the function (a driver/ symlink and an unbind file to write to).
  void bind(const std::string &bdf, const std::string &driver) {
    const auto dir = root_ / "bus" / "pci" / "drivers" / driver;
    std::filesystem::create_directories(dir);
    write(dir / "unbind", "");
    std::filesystem::create_directory_symlink(dir, device(bdf) / "driver");
  }
  // Puts the function in IOMMU group `group` (iommu_group link and the group's device list).
  void add_to_iommu_group(const std::string &bdf, const std::string &group) {
    const auto dir = root_ / "kernel" / "iommu_groups" / group / "devices";
    std::filesystem::create_directories(dir);
    std::filesystem::create_directory_symlink(dir.parent_path(), device(bdf) / "iommu_group");
    std::filesystem::create_directory_symlink(device(bdf), dir / bdf);
  }
  void add_sibling(const std::string &bdf) {
    add_device(bdf, 0x1002, 0xAB30, 0);
    write(device(bdf) / "remove", "");
  }

  static std::string read(const std::filesystem::path &file) {
    std::ifstream in(file, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
  }
  static void write(const std::filesystem::path &file, const std::string &text) {
    std::ofstream(file, std::ios::binary) << text;
  }

private:
  static std::string hex(std::uint16_t v) {
    static const char *digits = "0123456789abcdef";
    std::string s = "0x";
    for (int shift = 12; shift >= 0; shift -= 4) s += digits[(v >> shift) & 0xF];
    return s;
  }
  static std::string hex64(std::uint64_t v) {
    static const char *digits = "0123456789abcdef";
    std::string s = "0x";
    for (int shift = 60; shift >= 0; shift -= 4) s += digits[(v >> shift) & 0xF];
    return s;
  }
  std::filesystem::path root_;
};

}  // namespace wavescope::testing
