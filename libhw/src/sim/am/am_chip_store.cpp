#include "wavescope/hw/sim/am_chip_store.hpp"

#include <algorithm>
#include <cstring>
#include <fstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sim/am/fake_gpu.hpp"
#include "wavescope/base/atomic_file.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/base/read_file.hpp"

namespace wavescope::hw::sim {

namespace fs = std::filesystem;

namespace {

// vram.bin: the magic, then per page in use {u64 paddr (little-endian), 4096 bytes}.
constexpr char kVramMagic[8] = {'W', 'S', 'V', 'R', 'A', 'M', '1', '\0'};
constexpr std::size_t kPage = 4096;

std::vector<unsigned char> encode_vram(const hw::am::SimulatedVram &vram) {
  std::vector<unsigned char> out(kVramMagic, kVramMagic + sizeof kVramMagic);
  vram.for_each_page([&](std::uint64_t paddr, std::span<const std::uint8_t, 4096> page) {
    for (int i = 0; i < 8; ++i) out.push_back(static_cast<unsigned char>(paddr >> (8 * i)));
    out.insert(out.end(), page.begin(), page.end());
  });
  return out;
}

void decode_vram(const std::vector<std::uint8_t> &bytes, hw::am::SimulatedVram &vram,
                 const fs::path &file) {
  if (bytes.size() < sizeof kVramMagic ||
      std::memcmp(bytes.data(), kVramMagic, sizeof kVramMagic) != 0 ||
      (bytes.size() - sizeof kVramMagic) % (8 + kPage) != 0)
    throw Error(ErrorKind::BadInput,
                fmt::format("{} is not a fake GPU's VRAM file (magic WSVRAM1 and whole 4 KiB "
                            "pages expected; {} bytes)",
                            file.string(), bytes.size()));
  for (std::size_t at = sizeof kVramMagic; at < bytes.size(); at += 8 + kPage) {
    std::uint64_t paddr = 0;
    for (int i = 0; i < 8; ++i) paddr |= std::uint64_t{bytes[at + i]} << (8 * i);
    if (paddr % kPage != 0 || paddr >= vram.size())
      throw Error(ErrorKind::BadInput,
                  fmt::format("{}: page at paddr 0x{:X} (file offset 0x{:X}) is not a 4 KiB "
                              "page inside the 0x{:X}-byte VRAM",
                              file.string(), paddr, at, vram.size()));
    vram.load_page(paddr, std::span<const std::uint8_t, 4096>(bytes.data() + at + 8, kPage));
  }
}

}  // namespace

LoadedAmChip::LoadedAmChip() = default;
LoadedAmChip::LoadedAmChip(LoadedAmChip &&) noexcept = default;
LoadedAmChip &LoadedAmChip::operator=(LoadedAmChip &&) noexcept = default;
LoadedAmChip::~LoadedAmChip() = default;

AmChipStore::AmChipStore(fs::path sim_root) : root_(std::move(sim_root) / "am") {}

std::vector<std::string> AmChipStore::list() const {
  std::vector<std::string> names;
  std::error_code ec;
  if (!fs::is_directory(root_, ec)) return names;
  for (const auto &entry : fs::directory_iterator(root_, ec))
    if (entry.is_directory() && fs::exists(entry.path() / "chip.json"))
      names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

bool AmChipStore::exists(const std::string &name) const {
  return fs::exists(chip_dir(name) / "chip.json");
}

void AmChipStore::write(const std::string &name, am::FakeGpu &gpu, const VirtualClock &clock,
                        std::string_view last_run_json) const {
  const auto dir = chip_dir(name);
  const auto vram = encode_vram(gpu.vram());
  write_file_atomically(dir / "vram.bin", std::span<const unsigned char>(vram));
  nlohmann::json j = gpu.save();
  j["time_ns"] = clock.now().time_since_epoch().count();
  if (!last_run_json.empty()) j["last_run"] = nlohmann::json::parse(last_run_json);
  write_file_atomically(dir / "chip.json", j.dump(1));
}

void AmChipStore::create(const std::string &name, am::FakeGpu &gpu, const VirtualClock &clock) {
  SimStore::validate_name(name);
  if (exists(name))
    throw Error(ErrorKind::Usage,
                fmt::format("fake GPU '{}' already exists in {}; remove it first or choose "
                            "another name",
                            name, root_.string()));
  std::error_code ec;
  fs::create_directories(chip_dir(name), ec);
  if (ec)
    throw Error(ErrorKind::Internal,
                fmt::format("cannot create {}: {}", chip_dir(name).string(), ec.message()));
  SimBoardLock lock(chip_dir(name) / "lock", name);
  write(name, gpu, clock, {});
}

LoadedAmChip AmChipStore::open(const std::string &name) const {
  SimStore::validate_name(name);
  if (!exists(name))
    throw Error(ErrorKind::Device,
                fmt::format("no fake GPU '{}' in {} (create one first, with a chip profile: "
                            "tinygrad-mock, navi31, navi48, mi300x)",
                            name, root_.string()));
  LoadedAmChip loaded;
  loaded.name = name;
  loaded.lock = SimBoardLock(chip_dir(name) / "lock", name);
  const auto json_path = chip_dir(name) / "chip.json";
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(read_file_text(json_path, "fake GPU state"));
  } catch (const nlohmann::json::exception &e) {
    throw Error(ErrorKind::BadInput, fmt::format("fake GPU '{}': {} is damaged: {}", name,
                                                 json_path.string(), e.what()));
  }
  loaded.clock = std::make_unique<VirtualClock>();
  loaded.clock->advance(Clock::Duration(j.value("time_ns", std::int64_t{0})));
  if (auto last = j.find("last_run"); last != j.end() && !last->is_null())
    loaded.last_run_json = last->dump();
  try {
    loaded.gpu = am::FakeGpu::load(j, *loaded.clock);
  } catch (const nlohmann::json::exception &e) {
    throw Error(ErrorKind::BadInput, fmt::format("fake GPU '{}': {} is damaged: {}", name,
                                                 json_path.string(), e.what()));
  }
  const auto vram_path = chip_dir(name) / "vram.bin";
  decode_vram(read_file_bytes(vram_path, "fake GPU VRAM"), loaded.gpu->vram(), vram_path);
  return loaded;
}

void AmChipStore::save(LoadedAmChip &loaded, std::string_view last_run_json) const {
  write(loaded.name, *loaded.gpu, *loaded.clock, last_run_json);
}

void AmChipStore::remove(const std::string &name) {
  SimStore::validate_name(name);
  if (!exists(name))
    throw Error(ErrorKind::Usage, fmt::format("no fake GPU '{}' in {}", name, root_.string()));
  {
    SimBoardLock lock(chip_dir(name) / "lock", name);  // refuse while another process uses it
  }
  std::error_code ec;
  fs::remove_all(chip_dir(name), ec);
  if (ec)
    throw Error(ErrorKind::Internal,
                fmt::format("cannot remove {}: {}", chip_dir(name).string(), ec.message()));
}

}  // namespace wavescope::hw::sim
