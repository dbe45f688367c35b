#pragma once
// Exclusive access to one device across processes (transport.md A.2): a non-blocking flock on a
// lock file named after the device, in one namespace for every tool, so a dump and a flash can
// never run on the same board at once. The file is created world-writable so other users can
// take it too.

#include <filesystem>
#include <string>
#include <string_view>

namespace wavescope::hw {

class DeviceLock {
public:
  // Takes the lock for `device_id` ("pci:0000:03:00.0", "usb:2-5", "sim:board") in `directory`
  // (default: the system temp directory). Throws wavescope::Error (Device) when another process
  // holds it, naming the lock file.
  explicit DeviceLock(std::string_view device_id, std::filesystem::path directory = {});
  ~DeviceLock();
  DeviceLock(const DeviceLock &) = delete;
  DeviceLock &operator=(const DeviceLock &) = delete;

  const std::filesystem::path &path() const { return path_; }
  // The lock file for a device: am_<id with ':' and '/' replaced by '_'>.lock (tinygrad's
  // am_<bdf>).
  static std::filesystem::path path_for(std::string_view device_id,
                                        const std::filesystem::path &directory = {});

private:
  std::filesystem::path path_;
  int fd_ = -1;
};

}  // namespace wavescope::hw
