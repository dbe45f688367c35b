// The wavectl shell: help, version, usage errors.

#include <catch2/catch.hpp>

#include "wavectl_runner.hpp"

using wavescope::testing::wavectl;

TEST_CASE("wavectl --help lists the command families") {
  const auto r = wavectl({"--help"});
  CHECK(r.exit_code == 0);
  for (const char *command : {"disasm", "cfg", "asm", "codeobj"})
    CHECK_THAT(r.out, Catch::Contains(command));
  CHECK_THAT(r.out, Catch::Contains("--json"));
}

TEST_CASE("wavectl --version names wavescope and LLVM") {
  const auto r = wavectl({"--version"});
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("wavectl 0."));
  CHECK_THAT(r.out, Catch::Contains("LLVM 22."));
}

TEST_CASE("usage errors print error: and exit 2") {
  for (const auto &args :
       std::vector<std::vector<std::string>>{{}, {"no-such-command"}, {"disasm"}}) {
    const auto r = wavectl(args);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::StartsWith("error: "));
  }
}
