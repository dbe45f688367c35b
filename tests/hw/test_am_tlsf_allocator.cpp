// The TLSF allocator (am-driver.md §6.2) against the spec's [run] golden on a 1 MiB allocator,
// its bucket functions, and clear errors for exhaustion and bad frees; the VA allocator (§6.2.1).

#include <catch2/catch.hpp>

#include "wavescope/base/error.hpp"
#include "wavescope/hw/am/tlsf_allocator.hpp"
#include "wavescope/hw/am/va_allocator.hpp"

using namespace wavescope::hw::am;
using Catch::Matchers::Contains;

TEST_CASE("am tlsf: the §6.2 golden sequence on a 1 MiB allocator") {
  TlsfAllocator a(0x10'0000);
  CHECK(a.alloc(0x1000) == 0x0);
  CHECK(a.alloc(0x3000, 0x1000) == 0x1000);
  CHECK(a.alloc(0x10, 0x100) == 0x4000);
  CHECK(a.alloc(0x20000, 0x10000) == 0x10000);
  a.free(0x1000);
  CHECK(a.alloc(0x2000) == 0x1000);
  for (std::uint64_t p : {0x0, 0x1000, 0x4000, 0x10000}) a.free(p);
  CHECK(a.free_bytes() == 0x10'0000);
  CHECK(a.alloc(0x10'0000) == 0x0);
}

TEST_CASE("am tlsf: base is added, minimum block is 16 bytes, heads stay free") {
  TlsfAllocator a(0x10'0000, 0x200'0000, "ptable");
  CHECK(a.alloc(0x1000, 0x1000) == 0x200'0000);
  CHECK(a.alloc(1) == 0x200'1000);
  CHECK(a.alloc(1) == 0x200'1010);
  CHECK(a.is_allocated(0x200'1010));
  CHECK(a.free_bytes() == 0x10'0000 - 0x1020);
  // An aligned request leaves the unaligned head [0x200_1020, 0x200_2000) free for later.
  CHECK(a.alloc(0x1000, 0x1000) == 0x200'2000);
  CHECK(a.alloc(0x20) == 0x200'1020);
}

TEST_CASE("am tlsf: bucket functions are bit length and the 4 bits after the MSB") {
  CHECK(TlsfAllocator::lv1(0x10) == 5);
  CHECK(TlsfAllocator::lv2(0x10) == 0);
  CHECK(TlsfAllocator::lv1(0x3000) == 14);
  CHECK(TlsfAllocator::lv2(0x3000) == 8);
  CHECK(TlsfAllocator::lv2(0x1F) == 15);
  CHECK(TlsfAllocator::lv2(0xFF000) == 15);
}

TEST_CASE("am tlsf: freeing merges with free neighbours on both sides") {
  TlsfAllocator a(0x10000);
  const auto x = a.alloc(0x1000), y = a.alloc(0x1000), z = a.alloc(0x1000);
  a.free(x);
  a.free(z);
  a.free(y);  // walks left to x, then merges y, z and the rest
  CHECK(a.free_bytes() == 0x10000);
  CHECK(a.alloc(0x10000) == 0);
}

TEST_CASE("am tlsf: out of memory and bad frees name the request in hex") {
  TlsfAllocator a(0x10'0000, 0, "pa");
  a.alloc(0x8'0000);
  REQUIRE_THROWS_WITH(a.alloc(0x9'0000), Contains("pa: out of memory") && Contains("0x90000"));
  REQUIRE_THROWS_AS(a.alloc(0x9'0000), wavescope::Error);
  try {
    a.alloc(0x1000, 0x100'0000);
    FAIL("expected an error");
  } catch (const wavescope::Error &e) {
    CHECK(e.kind() == wavescope::ErrorKind::State);
    CHECK_THAT(e.what(), Contains("0x1000 bytes aligned to 0x1000000"));
  }
  CHECK_THROWS_WITH(a.alloc(~std::uint64_t{0}), Contains("0xFFFFFFFFFFFFFFFF"));
  CHECK_THROWS_WITH(a.alloc(0x10, 0), Contains("alignment 0"));
  try {
    a.free(0x1234);
    FAIL("expected an error");
  } catch (const wavescope::Error &e) {
    CHECK(e.kind() == wavescope::ErrorKind::Usage);
    CHECK_THAT(e.what(), Contains("free(0x1234)"));
  }
  a.free(0);
  CHECK_THROWS_WITH(a.free(0), Contains("free(0x0)"));  // a double free is refused
  TlsfAllocator empty(0, 0x200'0000, "ptable");         // no page-table region on a large BAR
  CHECK_THROWS_WITH(empty.alloc(0x1000, 0x1000), Contains("ptable: out of memory"));
  TlsfAllocator tiny(8);  // smaller than the minimum block: nothing fits
  CHECK_THROWS_WITH(tiny.alloc(1), Contains("0x10 bytes"));
}

TEST_CASE("am va: base 0x2000_0000_0000, size 2^44, natural alignment") {
  CHECK(VaAllocator::alignment_for(0x1000, 0x1000) == 0x1000);
  CHECK(VaAllocator::alignment_for(0x3000, 0x1000) == 0x2000);
  CHECK(VaAllocator::alignment_for(0x20'1000, 0x1000) == 0x20'0000);
  CHECK(VaAllocator::alignment_for(0x1000, 0x10000) == 0x10000);
  VaAllocator va;
  CHECK(va.tlsf().size() == std::uint64_t{1} << 44);
  CHECK(va.alloc(0x1000) == 0x2000'0000'0000);
  CHECK(va.alloc(0x3000) == 0x2000'0000'2000);  // aligned to 0x2000
  CHECK(va.alloc(0x20'0000) == 0x2000'0020'0000);
  // The free 0x1000-byte head at +0x1000 is too small for the search size 0x1FFF (size +
  // align - 1), so the next page comes from the head left before the 2 MiB block.
  CHECK(va.alloc(0x1000) == 0x2000'0000'5000);
  va.free(0x2000'0000'2000);
  CHECK(va.alloc(0x2000) == 0x2000'0000'2000);
  CHECK_THROWS_WITH(va.alloc(0), Contains("0 bytes"));
  CHECK_THROWS_WITH(va.alloc(std::uint64_t{1} << 45), Contains("va: out of memory"));
  CHECK_THROWS_WITH(va.free(0x1000), Contains("free(0x1000)"));
}
