// User-typed numbers (fault specs, simulator settings, CLI addresses) share one parser.
#include <catch2/catch.hpp>

#include "wavescope/base/parse_number.hpp"

using wavescope::parse_unsigned;

TEST_CASE("parse_unsigned reads decimal and 0x hex", "[base]") {
  CHECK(parse_unsigned("0") == 0u);
  CHECK(parse_unsigned("4096") == 4096u);
  CHECK(parse_unsigned("0x1000") == 0x1000u);
  CHECK(parse_unsigned("0XfFfF") == 0xFFFFu);
  CHECK(parse_unsigned("18446744073709551615") == 0xFFFFFFFFFFFFFFFFull);
}

TEST_CASE("parse_unsigned: a leading zero is decimal, not octal", "[base]") {
  CHECK(parse_unsigned("010") == 10u);
}

TEST_CASE("parse_unsigned refuses what is not a whole number", "[base]") {
  for (const char *bad :
       {"", "0x", "-1", "+1", "12k", " 12", "0x1g", "1.5", "18446744073709551616"})
    CHECK_FALSE(parse_unsigned(bad).has_value());
}
