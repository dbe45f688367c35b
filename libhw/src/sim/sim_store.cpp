#include "wavescope/hw/sim/sim_store.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sim/navi31_board.hpp"
#include "wavescope/base/atomic_file.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/hw/navi31/spi_flash_facts.hpp"
#include "wavescope/hw/remedy/refusal.hpp"

namespace wavescope::hw::sim {

namespace fs = std::filesystem;

SimBoardLock::SimBoardLock(const fs::path &lock_file, const std::string &name) {
  fd_ = ::open(lock_file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0)
    throw Error(ErrorKind::Device,
                fmt::format("cannot open the lock of simulated board '{}' ({}): {}", name,
                            lock_file.string(), std::strerror(errno)));
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd_);
    fd_ = -1;
    throw Error(ErrorKind::Device, fmt::format("simulated board '{}' is in use by another wavectl "
                                               "process (lock {})",
                                               name, lock_file.string()));
  }
}

SimBoardLock::SimBoardLock(SimBoardLock &&other) noexcept : fd_(other.fd_) { other.fd_ = -1; }

SimBoardLock &SimBoardLock::operator=(SimBoardLock &&other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.fd_;
    other.fd_ = -1;
  }
  return *this;
}

SimBoardLock::~SimBoardLock() {
  if (fd_ >= 0) ::close(fd_);
}

SimStore::SimStore(fs::path root) : root_(std::move(root)) {}

void SimStore::validate_name(const std::string &name) {
  const bool ok =
      !name.empty() && name.size() <= 64 && name[0] != '.' &&
      std::all_of(name.begin(), name.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-';
      });
  if (!ok)
    throw Error(ErrorKind::Usage,
                fmt::format("bad simulated board name '{}': use 1-64 characters of "
                            "letters, digits, '.', '_' and '-'",
                            name));
}

std::vector<std::string> SimStore::list() const {
  std::vector<std::string> names;
  std::error_code ec;
  if (!fs::is_directory(root_, ec)) return names;
  for (const auto &entry : fs::directory_iterator(root_, ec)) {
    if (entry.is_directory() && fs::exists(entry.path() / "board.json"))
      names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

bool SimStore::exists(const std::string &name) const {
  return fs::exists(board_dir(name) / "board.json");
}

LoadedBoard::LoadedBoard() = default;
LoadedBoard::LoadedBoard(LoadedBoard &&) noexcept = default;
LoadedBoard &LoadedBoard::operator=(LoadedBoard &&) noexcept = default;
LoadedBoard::~LoadedBoard() = default;

void SimStore::write(const std::string &name, Navi31Board &board,
                     std::string_view last_run_json) const {
  const auto dir = board_dir(name);
  const auto &flash = board.flash();
  write_file_atomically(dir / "flash.bin",
                        std::span<const unsigned char>(flash.data(), flash.size()));
  nlohmann::json j = board.save();
  if (!last_run_json.empty()) j["last_run"] = nlohmann::json::parse(last_run_json);
  write_file_atomically(dir / "board.json", j.dump(1));
}

void SimStore::create(const std::string &name, Navi31Board &board) {
  validate_name(name);
  if (exists(name))
    throw Refusal(ErrorKind::Usage,
                  {Remedy::RemoveBoardFirst,
                   fmt::format("simulated board '{}' already exists in {}", name, root_.string()),
                   {name}});
  std::error_code ec;
  fs::create_directories(board_dir(name), ec);
  if (ec)
    throw Error(ErrorKind::Internal,
                fmt::format("cannot create {}: {}", board_dir(name).string(), ec.message()));
  SimBoardLock lock(board_dir(name) / "lock", name);
  write(name, board, {});
}

LoadedBoard SimStore::open(const std::string &name) const {
  validate_name(name);
  if (!exists(name))
    throw Refusal(ErrorKind::Device,
                  {Remedy::CreateBoard,
                   fmt::format("no simulated board '{}' in {}", name, root_.string()),
                   {name}});
  LoadedBoard loaded;
  loaded.name = name;
  loaded.lock = SimBoardLock(board_dir(name) / "lock", name);
  nlohmann::json j;
  {
    std::ifstream in(board_dir(name) / "board.json");
    try {
      j = nlohmann::json::parse(in);
    } catch (const nlohmann::json::exception &e) {
      throw Error(ErrorKind::BadInput,
                  fmt::format("simulated board '{}': {} is damaged: {}", name,
                              (board_dir(name) / "board.json").string(), e.what()));
    }
  }
  std::vector<std::uint8_t> flash(navi31::kFlashSize);
  {
    std::ifstream in(board_dir(name) / "flash.bin", std::ios::binary);
    in.read(reinterpret_cast<char *>(flash.data()), static_cast<std::streamsize>(flash.size()));
    if (in.gcount() != static_cast<std::streamsize>(flash.size()))
      throw Error(ErrorKind::BadInput,
                  fmt::format("simulated board '{}': {} is not {} bytes", name,
                              (board_dir(name) / "flash.bin").string(), navi31::kFlashSize));
  }
  loaded.clock = std::make_unique<VirtualClock>();
  loaded.clock->advance(Clock::Duration(j.value("time_ns", std::int64_t{0})));
  if (auto last = j.find("last_run"); last != j.end() && !last->is_null())
    loaded.last_run_json = last->dump();
  loaded.board = Navi31Board::load(j, *loaded.clock, std::move(flash));
  return loaded;
}

void SimStore::save(LoadedBoard &loaded, std::string_view last_run_json) const {
  write(loaded.name, *loaded.board, last_run_json);
}

void SimStore::remove(const std::string &name) {
  validate_name(name);
  if (!exists(name))
    throw Error(ErrorKind::Usage,
                fmt::format("no simulated board '{}' in {}", name, root_.string()));
  {
    SimBoardLock lock(board_dir(name) / "lock", name);  // refuse while another process uses it
  }
  std::error_code ec;
  fs::remove_all(board_dir(name), ec);
  if (ec)
    throw Error(ErrorKind::Internal,
                fmt::format("cannot remove {}: {}", board_dir(name).string(), ec.message()));
}

}  // namespace wavescope::hw::sim
