// Nodes released while the process exits. Qt's pool threads end during static destruction, and
// their thread_local memos (e.g. the symbolic simplifier's) release nodes then — after the
// statics of libcompiler made later than the thread's owner are gone. The interning table must
// outlive them (found by AddressSanitizer in a `wavescope --screenshot` run).

#include <unistd.h>

#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>

#include "process.hpp"
#include "wavescope/compiler/ir/builders.hpp"
#include "wavescope/compiler/ir/uop.hpp"

using namespace wavescope::compiler;

namespace {

// A thread that holds nodes in a thread_local until this object's destructor, at exit, lets it end.
struct ThreadEndingAtExit {
  std::mutex mutex;
  std::condition_variable cv;
  bool holding = false, end = false;
  std::thread thread;
  ~ThreadEndingAtExit() {
    {
      std::lock_guard lock(mutex);
      end = true;
    }
    cv.notify_all();
    if (thread.joinable()) thread.join();
  }
};

std::string own_executable() {
  std::vector<char> path(4096);
  const ssize_t n = ::readlink("/proc/self/exe", path.data(), path.size() - 1);
  return n > 0 ? std::string(path.data(), static_cast<std::size_t>(n)) : std::string();
}

}  // namespace

// Run by the test below in a process of its own (hidden: "[.]").
TEST_CASE("UOp exit child: a thread holding nodes ends during static destruction",
          "[.][uop-exit]") {
  // Made before this process's first node, so destroyed after the statics the first node makes.
  static ThreadEndingAtExit owner;
  owner.thread = std::thread([] {
    thread_local std::vector<UOp> memo;
    memo.push_back(variable("x", 0, 9) * const_int(3) + const_int(1));
    std::unique_lock lock(owner.mutex);
    owner.holding = true;
    owner.cv.notify_all();
    owner.cv.wait(lock, [] { return owner.end; });
  });
  std::unique_lock lock(owner.mutex);
  owner.cv.wait(lock, [] { return owner.holding; });
  CHECK(owner.holding);
}

TEST_CASE("UOp: nodes released by a thread that ends while the process exits", "[compiler][ir]") {
  const std::string self = own_executable();
  REQUIRE_FALSE(self.empty());
  const auto result = wavescope::testing::run_process({self, "[uop-exit]"});
  INFO(result.out << result.err);
  CHECK(result.exit_code == 0);
  CHECK(result.out.find("1 assertion in 1 test case") != std::string::npos);
}
