// wavectl flash ...: the recovery story through the CLI on simulated boards, through the real USB
// protocol code (sim:) and the direct path (sim-pci:): identify, refuse what is unsafe before any
// write, back up, write, verify, power-cycle; a power loss mid-write and --resume.

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "../hw/support_flash/temp_dir.hpp"
#include "wavectl_runner.hpp"

using wavescope::testing::json_lines;
using wavescope::testing::TempDir;
using wavescope::testing::wavectl;

namespace {

constexpr const char *kTestImageSha =
    "b5596d9a2fe5f20f94973677b7a8f8fcb113e52cb00236f77ef1103d7bf40cf9";

struct Setup {
  TempDir dir;
  std::vector<std::string> env{"WAVESCOPE_SIM_ROOT=" + dir.path().string()};
  std::string image = (dir.path() / "image.bin").string();
  Setup() {
    REQUIRE(wavectl({"sim", "create", "source", "--test-image"}, env).exit_code == 0);
    REQUIRE(wavectl({"sim", "export", "source", image}, env).exit_code == 0);
  }
  std::string path(const char *name) const { return (dir.path() / name).string(); }
  nlohmann::json status(const std::string &name) const {
    return json_lines(wavectl({"sim", "status", name, "--json"}, env).out).at(0);
  }
};

std::string device_prefix() { return GENERATE(std::string("sim:"), std::string("sim-pci:")); }

}  // namespace

TEST_CASE("wavectl flash: identify, write, verify and boot a bricked board (scenario 1)") {
  const std::string prefix = device_prefix();
  Setup s;
  REQUIRE(wavectl({"sim", "create", "b"}, s.env).exit_code == 0);
  const std::string device = prefix + "b";

  const auto info = wavectl({"flash", "info", "--device", device, "--json"}, s.env);
  REQUIRE(info.exit_code == 0);
  const auto i = json_lines(info.out).at(0);
  CHECK(i["jedec"] == "C8 60 15 C8");
  CHECK(i["sfdp_signature_offset"] == 1);
  CHECK(i["state"] == "bricked");
  CHECK(i["transport"]["operations"].get<int>() > 0);
  CHECK((i["transport"]["usb_requests"].get<int>() > 0) == (prefix == "sim:"));

  const auto write = wavectl({"flash", "write", s.image, "--yes", "--device", device, "--backup",
                              s.path("backup.bin"), "--json"},
                             s.env);
  INFO(write.err);
  REQUIRE(write.exit_code == 0);
  const auto w = json_lines(write.out).at(0);
  CHECK(w["image_sha256"] == kTestImageSha);
  CHECK(w["range_sha256"] == kTestImageSha);
  CHECK(w["sectors_written"] == 78);
  CHECK(w["sectors_skipped"] == 434);
  CHECK(w["transport"]["reads"].get<int>() > 0);
  CHECK(std::filesystem::file_size(s.path("backup.bin")) == 0x200000);

  const auto verify = wavectl({"flash", "verify", s.image, "--device", device, "--json"}, s.env);
  REQUIRE(verify.exit_code == 0);
  CHECK(json_lines(verify.out).at(0)["sha256"] == kTestImageSha);
  CHECK(s.status("b")["last_run"]["findings"].empty());

  REQUIRE(wavectl({"sim", "power-cycle", "b"}, s.env).exit_code == 0);
  CHECK(s.status("b")["state"] == "booted");
  const auto gated = wavectl({"flash", "info", "--device", device}, s.env);
  CHECK(gated.exit_code == 5);
  CHECK_THAT(gated.err, Catch::Contains("ROM_SW is gated"));
}

TEST_CASE(
    "wavectl flash write refuses CMP protection without --clear-cmp, clears it with (scenario 2)") {
  Setup s;
  REQUIRE(wavectl({"sim", "create", "b", "--cmp"}, s.env).exit_code == 0);
  const auto refused =
      wavectl({"flash", "write", s.image, "--yes", "--device", "sim:b", "--no-backup"}, s.env);
  CHECK(refused.exit_code == 6);
  CHECK_THAT(refused.err, Catch::Contains("--clear-cmp"));
  const auto ok = wavectl({"flash", "write", s.image, "--yes", "--device", "sim:b", "--no-backup",
                           "--clear-cmp", "--journal", s.path("j.json"), "--json"},
                          s.env);
  INFO(ok.err);
  REQUIRE(ok.exit_code == 0);
  CHECK(json_lines(ok.out).at(0)["protection_cleared"] == true);
  const auto st = s.status("b");
  CHECK((st["sr2"].get<int>() & 0x40) == 0);
  CHECK(st["flash_sha256"] == kTestImageSha);
}

TEST_CASE("wavectl flash write refuses bad input before anything is written") {
  Setup s;
  REQUIRE(wavectl({"sim", "create", "b"}, s.env).exit_code == 0);
  const auto before = s.status("b")["flash_sha256"];
  // A truncated image, an image with a bad magic, one whose $PSP directory points outside.
  std::vector<char> bytes(0x200000);
  std::ifstream(s.image, std::ios::binary)
      .read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  std::ofstream(s.path("short.bin"), std::ios::binary).write(bytes.data(), 0x100000);
  auto bad_magic = bytes;
  bad_magic[0] = 0;
  std::ofstream(s.path("magic.bin"), std::ios::binary)
      .write(bad_magic.data(), static_cast<std::streamsize>(bad_magic.size()));
  auto outside = bytes;
  outside[0x2000 + 0x10 + 8 + 2] = 0x7F;  // first $PSP entry's location → 0x7F12000
  std::ofstream(s.path("outside.bin"), std::ios::binary)
      .write(outside.data(), static_cast<std::streamsize>(outside.size()));

  struct Case {
    std::vector<std::string> args;
    int exit;
    const char *message;
  };
  const Case cases[] = {
      {{"flash", "write", s.image, "--device", "sim:b"}, 2, "add --yes"},
      {{"flash", "write", s.path("short.bin"), "--yes", "--device", "sim:b"}, 3, "exactly 2 MiB"},
      {{"flash", "write", s.path("magic.bin"), "--yes", "--device", "sim:b"}, 3, "--force-image"},
      {{"flash", "write", s.path("outside.bin"), "--yes", "--device", "sim:b"}, 3, "--force-image"},
      {{"flash", "write", s.image, "--yes", "--device", "sim:missing"},
       4,
       "no simulated board 'missing'"},
      {{"flash", "write", s.image, "--yes", "--device", "sim:b", "--start-sector", "600"},
       2,
       "out of range"},
      {{"flash", "write", s.path("nonexistent.bin"), "--yes", "--device", "sim:b"},
       3,
       "cannot open"},
      {{"flash", "write", s.image, "--yes", "--device", "floppy:0"}, 2, "bad --device"},
  };
  for (const auto &c : cases) {
    auto args = c.args;
    args.push_back("--no-backup");
    const auto r = wavectl(args, s.env);
    CAPTURE(args);
    CHECK(r.exit_code == c.exit);
    CHECK_THAT(r.err, Catch::Contains(c.message));
  }
  CHECK(s.status("b")["flash_sha256"] == before);
  CHECK(s.status("b")["last_run"].is_null());  // no command ever opened the board
}

TEST_CASE(
    "wavectl flash dump reads twice and writes atomically, read prints hex or writes a file") {
  Setup s;
  REQUIRE(wavectl({"sim", "create", "b", "--test-image", "--state", "bricked"}, s.env).exit_code ==
          0);
  const auto dump = wavectl(
      {"flash", "dump", s.path("dump.bin"), "--device", "sim-pci:b", "--json", "--optimize", "all"},
      s.env);
  REQUIRE(dump.exit_code == 0);
  const auto d = json_lines(dump.out).at(0);
  CHECK(d["sha256"] == kTestImageSha);
  CHECK(d["optimize"] == "session,no-check-reads,pipeline,block-read,block-write,skip-erase");
  const auto hex = wavectl({"flash", "read", "0", "16", "--device", "sim-pci:b"}, s.env);
  REQUIRE(hex.exit_code == 0);
  CHECK_THAT(hex.out, Catch::StartsWith("00000000: AA 55 AA 55"));
  const auto file = wavectl(
      {"flash", "read", "0x2000", "0x30", "-o", s.path("psp.bin"), "--device", "sim-pci:b"}, s.env);
  REQUIRE(file.exit_code == 0);
  CHECK(std::filesystem::file_size(s.path("psp.bin")) == 0x30);
  CHECK(wavectl({"flash", "read", "0x1FFFFF", "2", "--device", "sim-pci:b"}, s.env).exit_code == 2);
  CHECK(wavectl({"flash", "dump", s.path("x.bin"), "--device", "sim-pci:b", "--optimize", "warp"},
                s.env)
            .exit_code == 2);
}

TEST_CASE(
    "wavectl flash write survives a power loss: power-cycle, then --resume finishes the image") {
  Setup s;
  REQUIRE(
      wavectl({"sim", "create", "b", "--image", s.image, "--state", "bricked"}, s.env).exit_code ==
      0);
  // Old contents that force erases: write a random-ish image first (the synthesized one shifted).
  REQUIRE(wavectl({"sim", "fault", "b", "power-loss:op=program,nth=200"}, s.env).exit_code == 0);
  std::vector<char> bytes(0x200000);
  std::ifstream(s.image, std::ios::binary)
      .read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  for (std::size_t i = 0x20000; i < bytes.size(); ++i)
    bytes[i] = static_cast<char>(bytes[i] ^ 0x5A);
  std::ofstream(s.path("new.bin"), std::ios::binary)
      .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  const std::vector<std::string> write = {"flash",
                                          "write",
                                          s.path("new.bin"),
                                          "--yes",
                                          "--force-image",
                                          "--device",
                                          "sim:b",
                                          "--backup",
                                          s.path("backup.bin"),
                                          "--optimize",
                                          "all"};
  const auto failed = wavectl(write, s.env);
  CHECK(failed.exit_code == 4);
  CHECK_THAT(failed.err, Catch::Contains("not responding") && Catch::Contains("--resume"));
  CHECK(s.status("b")["state"] == "offline");
  const auto fresh = wavectl(write, s.env);
  CHECK(fresh.exit_code == 4);  // still no power
  REQUIRE(wavectl({"sim", "fault", "b", "--clear"}, s.env).exit_code == 0);
  REQUIRE(wavectl({"sim", "power-cycle", "b"}, s.env).exit_code == 0);
  CHECK(s.status("b")["state"] == "bricked");  // header-last: sector 0 still erased
  const auto blocked = wavectl(write, s.env);
  CHECK(blocked.exit_code == 2);
  CHECK_THAT(blocked.err, Catch::Contains("rerun with --resume"));
  auto resume = write;
  resume.push_back("--resume");
  const auto resumed = wavectl(resume, s.env);
  INFO(resumed.err);
  REQUIRE(resumed.exit_code == 0);
  REQUIRE(wavectl({"sim", "export", "b", s.path("after.bin")}, s.env).exit_code == 0);
  std::vector<char> after(0x200000);
  std::ifstream(s.path("after.bin"), std::ios::binary)
      .read(after.data(), static_cast<std::streamsize>(after.size()));
  CHECK((after == bytes));
}

TEST_CASE("wavectl flash --trace appends every BAR5 access to a file") {
  Setup s;
  REQUIRE(wavectl({"sim", "create", "b"}, s.env).exit_code == 0);
  const auto trace = s.path("trace.txt");
  const auto r =
      wavectl({"flash", "info", "--device", "sim-pci:b", "--trace", trace, "--json"}, s.env);
  REQUIRE(r.exit_code == 0);
  const auto ops = json_lines(r.out).at(0)["transport"]["operations"].get<std::size_t>();
  std::ifstream in(trace);
  std::string line;
  std::size_t lines = 0, launches = 0;
  std::getline(in, line);
  CHECK_THAT(line, Catch::StartsWith("# wavectl flash info on sim-pci:b"));
  while (std::getline(in, line)) {
    ++lines;
    if (line.find(" W32 0x5A3A0 ") != std::string::npos) ++launches;  // ROM_SW_CNTL
  }
  CHECK(lines == ops);
  CHECK(launches == 14);  // RDID gate, SR1..3, SFDP, density, RDID: 7 primed reads
}

TEST_CASE("wavectl flash write --dry-run runs the write on a copy and only reads the device") {
  const std::string prefix = device_prefix();
  Setup s;
  const auto scratch = s.dir.path() / "tmp";
  std::filesystem::create_directories(scratch);
  auto env = s.env;
  env.push_back("TMPDIR=" + scratch.string());
  REQUIRE(wavectl({"sim", "create", "b", "--cmp"}, env).exit_code == 0);
  const auto before = s.status("b");

  // Refused as the real write would be: protection covers the chip.
  const auto refused =
      wavectl({"flash", "write", s.image, "--dry-run", "--device", prefix + "b"}, env);
  CHECK(refused.exit_code == 6);
  CHECK_THAT(refused.err, Catch::Contains("--clear-cmp"));

  const auto dry = wavectl(
      {"flash", "write", s.image, "--dry-run", "--clear-cmp", "--device", prefix + "b", "--json"},
      env);
  INFO(dry.err);
  REQUIRE(dry.exit_code == 0);
  const auto d = json_lines(dry.out).at(0);
  CHECK(d["dry_run"] == true);
  CHECK(d["device"] == prefix + "b");
  CHECK(d["chip_sha256"] == before["flash_sha256"]);
  CHECK(d["range_sha256"] == kTestImageSha);
  CHECK(d["protection_cleared"] == true);
  CHECK(d["simulated_seconds"].get<double>() > 0);
  // The device is as it was (CMP still set), and nothing was left behind.
  const auto after = s.status("b");
  CHECK(after["flash_sha256"] == before["flash_sha256"]);
  CHECK((after["sr2"].get<int>() & 0x40) != 0);
  CHECK(std::filesystem::is_empty(scratch));
  CHECK_FALSE(std::filesystem::exists(s.path("backup.bin")));

  // The real write then does exactly what the dry run said.
  const auto real = wavectl({"flash", "write", s.image, "--yes", "--clear-cmp", "--device",
                             prefix + "b", "--backup", s.path("backup.bin"), "--json"},
                            env);
  REQUIRE(real.exit_code == 0);
  const auto r = json_lines(real.out).at(0);
  for (const char *key : {"sectors_written", "sectors_skipped", "erases", "erases_skipped",
                          "pages_programmed", "backup_sha256", "range_sha256"})
    CHECK(r[key] == d[key]);
  CHECK(r["transport"] == d["transport"]);
}

TEST_CASE("wavectl flash write --dry-run cannot resume a journalled write") {
  Setup s;
  REQUIRE(wavectl({"sim", "create", "b"}, s.env).exit_code == 0);
  const auto r =
      wavectl({"flash", "write", s.image, "--dry-run", "--resume", "--device", "sim:b"}, s.env);
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("--dry-run cannot --resume"));
  CHECK(s.status("b")["last_run"].is_null());
}

TEST_CASE("wavectl flash --log appends one JSON line per command: how it ended") {
  Setup s;
  REQUIRE(wavectl({"sim", "create", "b", "--cmp"}, s.env).exit_code == 0);
  const std::string log = s.path("recovery.log");
  CHECK(wavectl({"flash", "info", "--device", "sim:b", "--log", log}, s.env).exit_code == 0);
  CHECK(wavectl(
            {"flash", "write", s.image, "--yes", "--no-backup", "--device", "sim:b", "--log", log},
            s.env)
            .exit_code == 6);
  CHECK(wavectl({"flash", "info", "--device", "sim:nope", "--log", log}, s.env).exit_code == 4);
  std::ifstream in(log);
  const std::string text((std::istreambuf_iterator<char>(in)), {});
  const auto lines = json_lines(text);
  REQUIRE(lines.size() == 3);
  CHECK(lines[0]["command"] == "flash info");
  CHECK(lines[0]["device"] == "sim:b");
  CHECK(lines[0]["exit_code"] == 0);
  CHECK(lines[0]["summary"]["jedec"] == "C8 60 15 C8");
  CHECK(lines[1]["command"] == "flash write");
  CHECK(lines[1]["exit_code"] == 6);
  CHECK_THAT(lines[1]["error"].get<std::string>(), Catch::Contains("CMP = 1"));
  CHECK(lines[2]["device"] == "sim:nope");
  CHECK(lines[2]["exit_code"] == 4);
  for (const auto &l : lines) CHECK(l["time"].get<std::string>().size() == 20);  // ISO 8601 UTC

  const auto bad =
      wavectl({"flash", "info", "--device", "sim:b", "--log", s.path("no/such/dir/x.log")}, s.env);
  CHECK(bad.exit_code == 2);
  CHECK_THAT(bad.err, Catch::Contains("cannot open the log file"));
}
