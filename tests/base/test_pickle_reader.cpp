// The pickle reader opcode by opcode on small hand-assembled streams, and its refusals of bad
// input (each names the byte offset and the opcode).

#include <catch2/catch.hpp>

#include <cstring>
#include <limits>
#include <string>

#include "wavescope/base/error.hpp"
#include "wavescope/base/pickle_reader.hpp"

using namespace wavescope;
using pickle::Kind;
using pickle::PickleDocument;

namespace {

std::span<const std::uint8_t> span_of(const std::string &s) {
  return {reinterpret_cast<const std::uint8_t *>(s.data()), s.size()};
}

// The document keeps a copy of the stream alive: its strings and bytes are views of it.
PickleDocument read(const std::string &stream, pickle::ReadOptions options = {}) {
  auto kept = std::make_shared<const std::string>(stream);
  return PickleDocument::parse(span_of(*kept), options, kept);
}

// The message of the error reading `stream` gives; fails the test if it reads.
std::string error_of(const std::string &stream, pickle::ReadOptions options = {}) {
  try {
    read(stream, options);
  } catch (const Error &e) {
    CHECK(e.kind() == ErrorKind::BadInput);
    return e.what();
  }
  FAIL("the stream was read without an error");
  return {};
}

std::string le32(std::uint32_t v) {
  std::string s(4, '\0');
  for (int i = 0; i < 4; ++i) s[static_cast<std::size_t>(i)] = static_cast<char>(v >> (8 * i));
  return s;
}
std::string le64(std::uint64_t v) {
  std::string s(8, '\0');
  for (int i = 0; i < 8; ++i) s[static_cast<std::size_t>(i)] = static_cast<char>(v >> (8 * i));
  return s;
}
// SHORT_BINUNICODE
std::string str(const std::string &s) { return "\x8c" + std::string(1, char(s.size())) + s; }

const std::string P2 = "\x80\x02", P4 = "\x80\x04", P5 = "\x80\x05";

// A byte string literal that may hold NULs: "a\x00b"_b.
std::string operator""_b(const char *s, std::size_t n) { return std::string(s, n); }

}  // namespace

TEST_CASE("pickle reader: integers of every encoding") {
  CHECK(read(P2 + "K\x05.").root().as_int64() == 5);
  CHECK(read(P2 + "M\x34\x12.").root().as_int64() == 0x1234);
  CHECK(read(P2 + "J" + le32(0xFFFFFFFE) + ".").root().as_int64() == -2);
  CHECK(read(P2 + "\x8a\x01\xff.").root().as_int64() == -1);
  CHECK(read(P2 + std::string("\x8a\x00.", 3)).root().as_int64() == 0);
  // 2^64 - 1 needs nine bytes in Python's encoding: a big Int that fits unsigned 64 bits.
  const auto max = read(P2 + "\x8a\x09" + std::string(8, '\xff') + std::string("\x00.", 2));
  CHECK_FALSE(max.root().int_fits_int64());
  CHECK(max.root().as_uint64() == std::numeric_limits<std::uint64_t>::max());
  CHECK_THROWS_AS(max.root().as_int64(), Error);
  CHECK(read(P2 + "\x8b" + le32(2) + "\x00\x80."_b).root().as_int64() == -32768);
  CHECK(read("I42\n.").root().as_int64() == 42);
  CHECK(read("I-7\n.").root().as_int64() == -7);
  CHECK(read("I01\n.").root().kind() == Kind::Bool);
  CHECK(read("I01\n.").root().as_bool());
  const auto big = read("L-123456789012345678901234567890L\n.");
  CHECK(big.root().kind() == Kind::Int);
  CHECK_FALSE(big.root().int_fits_int64());
  // -123456789012345678901234567890 in two's complement, little-endian (13 bytes).
  const std::uint8_t expected[] = {0x2e, 0xf5, 0xc0, 0xb1, 0x11, 0x1f, 0x8c,
                                   0x3c, 0x09, 0xf0, 0x16, 0x71, 0xfe};
  const auto bytes = big.root().big_int_bytes();
  REQUIRE(bytes.size() == sizeof expected);
  CHECK(std::memcmp(bytes.data(), expected, sizeof expected) == 0);
  CHECK(read("L12L\n.").root().as_int64() == 12);
}

TEST_CASE("pickle reader: floats, None and booleans") {
  CHECK(read(P2 + "G\x40\x09\x21\xfb\x54\x44\x2d\x18.").root().as_double() == 3.141592653589793);
  CHECK(read("F2.5\n.").root().as_double() == 2.5);
  CHECK(read(P2 + "N.").root().is_none());
  CHECK(read(P2 + "\x88.").root().as_bool());
  CHECK_FALSE(read(P2 + "\x89.").root().as_bool());
}

TEST_CASE("pickle reader: text of every encoding") {
  CHECK(read(P4 + str("héllo") + ".").root().as_str() == "héllo");
  CHECK(read(P2 + "X" + le32(3) + "abc.").root().as_str() == "abc");
  CHECK(read(P4 + "\x8d" + le64(2) + "hi.").root().as_str() == "hi");
  CHECK(read("V\\u00e9t\\U0001F600\n.").root().as_str() == "\xc3\xa9t\xf0\x9f\x98\x80");
  // Python 2 str: Latin-1.
  CHECK(read(P2 + "U\x02\xe9x.").root().as_str() == "\xc3\xa9x");
  CHECK(read(P2 + "T" + le32(1) + "a.").root().as_str() == "a");
  CHECK(read("S'a\\nb\\x41\\101'\n.").root().as_str() == "a\nbAA");
}

TEST_CASE("pickle reader: bytes are views of the input, protocol 2 bytes become bytes") {
  const std::string stream = P5 + "C\x03xyz" + ".";
  const auto doc = read(stream);
  const auto b = doc.root().as_bytes();
  REQUIRE(b.size() == 3);
  CHECK(std::string(b.begin(), b.end()) == "xyz");
  CHECK(b.data() == doc.input().data() + 4);
  CHECK(doc.root().bytes_input_offset() == 4u);
  CHECK(read(P4 + "\x8e" + le64(2) + "ab.").root().as_bytes().size() == 2);
  CHECK(read(P5 + "\x96" + le64(1) + "z\x98.").root().as_bytes().size() == 1);
  CHECK(read(P4 + "B" + le32(1) + "q.").root().kind() == Kind::Bytes);
  // Protocol 2 writes b"\xff\x00" as _codecs.encode("\xff\x00", "latin1").
  const auto p2 = read(P2 + "c_codecs\nencode\nX" + le32(3) + "\xc3\xbf" + std::string(1, '\0') +
                       "X" + le32(6) + "latin1\x86R.");
  REQUIRE(p2.root().kind() == Kind::Bytes);
  CHECK(p2.root().as_bytes().size() == 2);
  CHECK(p2.root().as_bytes()[0] == 0xff);
  CHECK_FALSE(p2.root().bytes_input_offset());
  const auto ba = read(P4 + "cbuiltins\nbytearray\nC\x02hi\x85R.");
  CHECK(ba.root().kind() == Kind::Bytes);
}

TEST_CASE("pickle reader: tuples, lists, dicts and sets") {
  const auto t = read(P2 + "K\x01K\x02K\x03\x87.");
  REQUIRE(t.root().kind() == Kind::Tuple);
  CHECK(t.root().size() == 3);
  CHECK(t.root()[2].as_int64() == 3);
  CHECK_THROWS_AS(t.root()[3], Error);
  CHECK(read(P2 + "(K\x01K\x02t.").root().size() == 2);
  CHECK(read(P2 + "K\x01\x85.").root().size() == 1);
  CHECK(read(P2 + "K\x01K\x02\x86.").root().size() == 2);
  const auto l = read(P2 + "](K\x01K\x02"
                           "eK\x03"
                           "a."_b);
  REQUIRE(l.root().kind() == Kind::List);
  CHECK(l.root().size() == 3);
  CHECK(read(P2 + "(K\x01l.").root().size() == 1);
  const auto d = read(P4 + "}(" + str("a") + "K\x01" + str("b") + "K\x02u" + str("c") + "K\x03s.");
  REQUIRE(d.root().kind() == Kind::Dict);
  CHECK(d.root().dict_size() == 3);
  CHECK(d.root().find("b")->as_int64() == 2);
  CHECK(d.root().find("z") == nullptr);
  CHECK(read(P4 + "(" + str("k") + "N" + "d.").root().dict_size() == 1);
  // A repeated key keeps its first place and its last value.
  const auto r = read(P4 + "}(" + str("a") + "K\x01" + str("b") + "K\x02" + str("a") + "K\x09u.");
  CHECK(r.root().dict_size() == 2);
  CHECK(r.root().dict_entry(0).key->as_str() == "a");
  CHECK(r.root().dict_entry(0).value->as_int64() == 9);
  const auto s = read(P4 + "\x8f(K\x01K\x02\x90.");
  CHECK(s.root().kind() == Kind::Set);
  CHECK(s.root().size() == 2);
  CHECK(read(P4 + "(K\x01\x91.").root().kind() == Kind::FrozenSet);
  const auto py2set = read(P2 + "c__builtin__\nset\n]K\x07"
                                "a\x85R.");
  CHECK(py2set.root().kind() == Kind::Set);
  CHECK(py2set.root().size() == 1);
}

TEST_CASE("pickle reader: memo references share one node") {
  const auto doc = read(P2 + "]q\x00(h\x00h\x00t."_b);
  const auto &tuple = doc.root();
  REQUIRE(tuple.size() == 2);
  CHECK(tuple.items()[0] == tuple.items()[1]);
  CHECK(tuple.items()[0]->kind() == Kind::List);
  const auto memoize = read(P4 + "]\x94]\x94h\x00h\x01\x86."_b);
  CHECK(memoize.root().items()[0] != memoize.root().items()[1]);
  const auto long_put = read(P2 + "K\x05r" + le32(70000) + "j" + le32(70000) + "\x86.");
  CHECK(long_put.root().items()[0] == long_put.root().items()[1]);
  const auto text = read("((lp0\ng0\nt.");
  CHECK(text.root().items()[0]->kind() == Kind::List);
  // A list appended to after it was memoized shows the append wherever it is referenced.
  const auto later = read(P2 + "]q\x00h\x00K\x01"
                               "a\x86."_b);
  CHECK(later.root().items()[0]->size() == 1);
}

TEST_CASE("pickle reader: objects keep their class, arguments and state") {
  // cls = mod.Thing; Thing.__new__(Thing, 1) then BUILD({"x": "y"})
  const auto doc =
      read(P4 + str("mod") + str("Thing") + "\x93K\x01\x85\x81}" + str("x") + str("y") + "sb.");
  const auto &o = doc.root();
  REQUIRE(o.kind() == Kind::Object);
  CHECK(o.is_global("mod", "Thing"));
  CHECK(o.object()->construction == pickle::Construction::NewObj);
  CHECK(o.arg(0)->as_int64() == 1);
  CHECK(o.arg(1) == nullptr);
  CHECK(o.attr("x")->as_str() == "y");
  CHECK(o.attr("missing") == nullptr);
  CHECK(o.describe() == "mod.Thing object");
  // REDUCE: decimal.Decimal("1.5") stays a call with its argument.
  const auto dec = read(P4 + "cdecimal\nDecimal\n" + str("1.5") + "\x85R.");
  CHECK(dec.root().is_global("decimal", "Decimal"));
  CHECK(dec.root().object()->construction == pickle::Construction::Reduce);
  CHECK(dec.root().arg(0)->as_str() == "1.5");
  // NEWOBJ_EX with keyword arguments.
  const auto ex = read(P4 + "cm\nC\n)}" + str("k") + "K\x02s\x92.");
  CHECK(ex.root().object()->kwargs->find("k")->as_int64() == 2);
  // OBJ and INST (protocol 0/1 instances).
  CHECK(read("(cm\nC\nK\x01o.").root().arg(0)->as_int64() == 1);
  CHECK(read("(K\x02im\nC\n.").root().arg(0)->as_int64() == 2);
  // State of a class with __slots__: (dict or None, slots).
  const auto slots = read(P4 + "cm\nC\n)\x81N}" + str("s") + "K\x03s\x86" + "b.");
  CHECK(slots.root().attr("s")->as_int64() == 3);
  // Items appended to and set on an object (list and dict subclasses).
  const auto sub = read(P4 +
                        "cm\nL\n)\x81(K\x01K\x02"
                        "e" +
                        str("k") + "K\x03s.");
  CHECK(sub.root().object()->list_items.size() == 2);
  CHECK(sub.root().object()->dict_items.size() == 2);
  // copyreg._reconstructor(cls, object, None) is an object of class cls.
  const auto rc = read(P2 + "ccopy_reg\n_reconstructor\ncm\nC\nc__builtin__\nobject\nN\x87R.");
  CHECK(rc.root().is_global("m", "C"));
  // A global as a value.
  const auto g = read(P2 + "cos\nsystem\n.");
  CHECK(g.root().kind() == Kind::Global);
  CHECK(g.root().module() == "os");
  CHECK(g.root().name() == "system");
}

TEST_CASE("pickle reader: stack manipulation and framing") {
  CHECK(read(P2 + "K\x01K\x02" + "0.").root().as_int64() == 1);
  CHECK(read(P2 + "K\x01(K\x02K\x03" + "1.").root().as_int64() == 1);
  CHECK(read(P2 + "K\x01" + "2\x86.").root().size() == 2);
  const std::string body = "K\x01.";
  CHECK(read(P4 + "\x95" + le64(body.size()) + body).root().as_int64() == 1);
  // Trailing bytes after STOP are not read (as Python).
  CHECK(read(P2 + "K\x01.garbage").root().as_int64() == 1);
  CHECK(read(P5 + "N.").protocol() == 5);
}

TEST_CASE("pickle reader: bad input is refused with the byte offset and the opcode") {
  CHECK_THAT(error_of(""),
             Catch::Contains("byte 0 (0x0)") && Catch::Contains("ends before its STOP opcode"));
  CHECK_THAT(error_of(P2 + "\xff"),
             Catch::Contains("byte 2 (0x2)") && Catch::Contains("unknown opcode 0xff"));
  CHECK_THAT(error_of(P2 + "h\x07."),
             Catch::Contains("opcode BINGET (0x68)") && Catch::Contains("memo entry 7"));
  CHECK_THAT(error_of(P4 + "\x8e" + le64(std::uint64_t{1} << 62) + "ab."),
             Catch::Contains("BINBYTES8") && Catch::Contains("only 3 remain"));
  CHECK_THAT(error_of(P2 + "X" + le32(10) + "abc"), Catch::Contains("truncated"));
  CHECK_THAT(error_of(P2 + "T" + le32(0x80000000) + "."), Catch::Contains("negative length"));
  CHECK_THAT(error_of(P2 + "R."), Catch::Contains("stack underflow"));
  CHECK_THAT(error_of(P2 + "K\x01(R."), Catch::Contains("stack underflow"));
  CHECK_THAT(error_of(P2 + "e."), Catch::Contains("no MARK"));
  CHECK_THAT(error_of("\x80\x06N."), Catch::Contains("protocol 6 is newer than 5"));
  CHECK_THAT(error_of(P2 + "K\x01Q."), Catch::Contains("persistent ids"));
  CHECK_THAT(error_of(P2 + "\x82\x01."), Catch::Contains("extension registry"));
  CHECK_THAT(error_of(P5 + "\x97."), Catch::Contains("out-of-band"));
  CHECK_THAT(error_of(P2 + "]}b."), Catch::Contains("BUILD on List"));
  CHECK_THAT(error_of(P2 + "K\x01K\x02K\x03s."), Catch::Contains("SETITEM on Int"));
  CHECK_THAT(error_of(P2 + "K\x01K\x02"
                           "a."),
             Catch::Contains("APPEND to Int"));
  CHECK_THAT(error_of(P4 + "K\x01K\x02\x93."), Catch::Contains("STACK_GLOBAL needs"));
  CHECK_THAT(error_of(P2 + "K\x01K\x02R."), Catch::Contains("not a tuple"));
  CHECK_THAT(error_of(P4 + "\x95" + le64(100) + "N."), Catch::Contains("FRAME"));
  CHECK_THAT(error_of("I12x\n."), Catch::Contains("is not an integer"));
  CHECK_THAT(error_of("L" + std::string(5000, '9') + "\n."), Catch::Contains("digits"));
  CHECK_THAT(error_of("cos\nsystem"), Catch::Contains("newline"));
  CHECK_THAT(error_of("S'abc\n."), Catch::Contains("quoted"));
  pickle::ReadOptions named;
  named.source_name = "profile.pkl";
  CHECK_THAT(error_of(P2 + "\xff", named), Catch::StartsWith("profile.pkl: byte 2"));
}

TEST_CASE("pickle reader: deep nesting and cycles are refused, within configurable limits") {
  // N nested lists: N EMPTY_LISTs, then N-1 APPENDs.
  auto nested = [](std::size_t n) {
    return P2 + std::string(n, ']') + std::string(n - 1, 'a') + ".";
  };
  CHECK(read(nested(10000)).root().depth() == 10000);
  CHECK_THAT(error_of(nested(10001)), Catch::Contains("nests deeper than 10000 levels"));
  pickle::ReadOptions shallow;
  shallow.limits.max_depth = 5;
  CHECK(read(nested(5), shallow).root().depth() == 5);
  CHECK_THAT(error_of(nested(6), shallow), Catch::Contains("nests deeper than 5 levels"));
  pickle::ReadOptions deep;
  deep.limits.max_depth = 100000;
  CHECK(read(nested(50000), deep).root().depth() == 50000);
  // A list that contains itself.
  CHECK_THAT(error_of(P2 + "]q\x00h\x00"
                           "a."_b),
             Catch::Contains("cyclic"));
  // Sharing without a cycle is fine (a diamond).
  CHECK(read(P2 + "]q\x00h\x00h\x00\x86h\x00\x86."_b).root().depth() == 3);
  pickle::ReadOptions few;
  few.limits.max_nodes = 10;
  CHECK_THAT(error_of(P2 + std::string(20, 'N') + ".", few), Catch::Contains("more than 10"));
}

TEST_CASE("pickle reader: typed access to the wrong kind names the value's offset") {
  const auto doc = read(P2 + "NK\x01\x86.");
  try {
    (void)doc.root()[0].as_str();
    FAIL("no error");
  } catch (const Error &e) {
    CHECK(e.kind() == ErrorKind::BadInput);
    CHECK_THAT(std::string(e.what()), Catch::Contains("expected a str") &&
                                          Catch::Contains("byte 2 (0x2)") &&
                                          Catch::Contains("None"));
  }
  CHECK_THROWS_AS(doc.root()[1].as_bytes(), Error);
  CHECK(doc.root()[1].as_double() == 1.0);
}
