// The hw command families print through libhw's report printers (ifwi, sim, flash, rom, psp):
// a transcript recorded with wavectl before the printers moved into the library replays byte for
// byte, text and --json, on one scripted session of simulated boards (data/hw_reports.transcript).
//
// The transcript is "$ ARGS" lines, each followed by the command's stdout and, when it failed,
// "[exit N]"; @DIR@ stands for the session's scratch folder (its simulator root is @DIR@/sim).

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "../hw/support_flash/temp_dir.hpp"
#include "testdata.hpp"
#include "wavectl_runner.hpp"

using wavescope::testing::TempDir;
using wavescope::testing::wavectl;

namespace {

struct Step {
  std::string command;  // with @DIR@
  std::string expected;
};

std::vector<Step> read_transcript(const std::string &path) {
  std::ifstream in(path);
  REQUIRE(in);
  std::vector<Step> steps;
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("$ ", 0) == 0)
      steps.push_back({line.substr(2), {}});
    else if (!steps.empty())
      steps.back().expected += line + '\n';
  }
  return steps;
}

std::string replace_all(std::string text, const std::string &from, const std::string &to) {
  for (std::size_t at = text.find(from); at != std::string::npos;
       at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

}  // namespace

TEST_CASE("hw reports: the recorded transcript replays byte for byte") {
  const auto transcript =
      wavescope::testing::source_root() / "tests/wavectl/data/hw_reports.transcript";
  const auto steps = read_transcript(transcript.string());
  REQUIRE(steps.size() == 32);
  TempDir dir;
  const std::string root = dir.path().string();
  for (const auto &step : steps) {
    std::vector<std::string> args{"-q"};
    std::istringstream words(replace_all(step.command, "@DIR@", root));
    for (std::string w; words >> w;) args.push_back(w);
    const auto r = wavectl(args, {"WAVESCOPE_SIM_ROOT=" + root + "/sim"});
    std::string actual = replace_all(r.out, root, "@DIR@");
    if (r.exit_code != 0) actual += "[exit " + std::to_string(r.exit_code) + "]\n";
    INFO("$ " << step.command << "\nstderr: " << r.err);
    CHECK(actual == step.expected);
  }
}
