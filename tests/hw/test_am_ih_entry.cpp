// IH entries (am-driver.md §11): the 8-dword fields, the handler's verdict per source, and the
// §19.3 IH decode goldens (an SQ error on SOC21, a UTCL2 fault).

#include <catch2/catch.hpp>

#include <array>
#include <vector>

#include "wavescope/base/error.hpp"
#include "wavescope/hw/am/ih_entry.hpp"

using namespace wavescope::hw::am;
using Catch::Matchers::Contains;

namespace {
IhEntry entry(std::uint32_t d0, std::uint32_t ctx0 = 0, std::uint32_t ctx1 = 0) {
  const std::array<std::uint32_t, 8> d = {d0, 0, 0, 0, ctx0, ctx1, 0, 0};
  return decode_ih_entry(d);
}
}  // namespace

TEST_CASE("am ih: the 8-dword entry fields") {
  const std::array<std::uint32_t, 8> d = {0x8A12'EF0A, 1, 2, 0x0034'5678, 0x11, 0x22, 0x33, 0x44};
  const auto e = decode_ih_entry(d);
  CHECK(e.client_id == 0x0A);
  CHECK(e.source_id == 0xEF);
  CHECK(e.ring_id == 0x12);
  CHECK(e.vmid == 0xA);
  CHECK(e.vmid_type);
  CHECK(e.pasid == 0x5678);
  CHECK(e.node_id == 0x34);
  CHECK(e.context[0] == 0x11);
  CHECK(e.context[3] == 0x44);
  CHECK(e.dwords[1] == 1);
  CHECK_THROWS_WITH(decode_ih_entry(std::vector<std::uint32_t>(7)), Contains("0x7 dwords"));
}

TEST_CASE("am ih: §19.3 golden: d0 0xEF0A, ctx1 0x80 on SOC21 is an SQ error") {
  for (unsigned type : {0u, 1u, 2u, 3u}) {
    const auto e = entry(0x0000'EF0A, type << 21 | 0x1234, 0x80);
    CHECK(e.client_id == 10);
    CHECK(e.source_id == 239);
    const auto v = ih_verdict(IhSoc::Soc21, e);
    CHECK(v.source_name == "SQ_INTERRUPT_ID");
    CHECK(v.action == IhAction::SqError);
    CHECK(v.error_state);
    CHECK(v.sq_encoding == 2u);
    CHECK(v.sq_error_type == type);
  }
  const auto v = ih_verdict(IhSoc::Soc21, entry(0xEF0A, 2u << 21, 0x80));
  CHECK_THAT(v.message, Contains("MEMVIOL") && Contains("source 239"));
  CHECK(std::string(sq_error_type_name(1)) == "ILLEGAL_INST");
  // Encodings other than 2 are SQ messages, not errors.
  const auto msg = ih_verdict(IhSoc::Soc21, entry(0xEF0A, 2u << 21, 0x40));
  CHECK(msg.action == IhAction::Ignore);
  CHECK(!msg.error_state);
  CHECK(msg.sq_encoding == 1u);
  CHECK(!msg.sq_error_type);
}

TEST_CASE("am ih: §19.3 golden: d0 0x14 (GRBM_CP, source 0) takes the UTCL2 fault path") {
  const auto e = entry(0x0000'0014);
  CHECK(e.client_id == 20);
  CHECK(e.source_id == 0);
  const auto v = ih_verdict(IhSoc::Soc21, e);
  CHECK(v.source_name == "UTCL2_FAULT");
  CHECK(v.action == IhAction::VmFault);
  CHECK(v.error_state);
  CHECK_THAT(v.message, Contains("GCVM_L2_PROTECTION_FAULT_ADDR_LO32"));
  CHECK(vm_fault_address(0x2'0000'1, 0x0) == 0x2'0000'1000);
  CHECK(vm_fault_address(0x0, 0x2) == 0x2000'0000'0000);
}

TEST_CASE("am ih: SOC15 decodes SQ from ctx0 and faults by the UTCL2 client") {
  const auto sq = ih_verdict(IhSoc::Soc15, entry(0xEF14, 2u << 26));
  CHECK(sq.action == IhAction::SqError);
  CHECK(sq.sq_encoding == 2u);
  CHECK(!sq.sq_error_type);  // the SOC15 error-type assembly is open in the spec
  CHECK(ih_verdict(IhSoc::Soc15, entry(0xEF14, 1u << 26)).action == IhAction::Ignore);
  const auto fault = ih_verdict(IhSoc::Soc15, entry(0x0000'921B));  // client 27, any source
  CHECK(fault.action == IhAction::VmFault);
  // Source 0 from GRBM_CP is no fault on SOC15: gfx9 has no such source.
  CHECK(ih_verdict(IhSoc::Soc15, entry(0x14)).action == IhAction::Unexpected);
}

TEST_CASE("am ih: SDMA_TRAP and CP_EOP_INTERRUPT are ignored, anything else is an error") {
  CHECK(ih_verdict(IhSoc::Soc21, entry(49 << 8 | 10)).action == IhAction::Ignore);  // SDMA_TRAP
  CHECK(ih_verdict(IhSoc::Soc15, entry(224 << 8 | 8)).action == IhAction::Ignore);  // SDMA0
  for (auto soc : {IhSoc::Soc15, IhSoc::Soc21}) {
    const auto eop = ih_verdict(soc, entry(181 << 8 | 20));
    CHECK(eop.source_name == "CP_EOP_INTERRUPT");
    CHECK(eop.action == IhAction::Ignore);
    CHECK(!eop.error_state);
    const auto priv = ih_verdict(soc, entry(184 << 8 | 20));
    CHECK(priv.source_name == "CP_PRIV_REG_FAULT");
    CHECK(priv.action == IhAction::Unexpected);
    CHECK(priv.error_state);
    const auto unknown = ih_verdict(soc, entry(0xFE << 8 | 20));
    CHECK(unknown.source_name.empty());
    CHECK(unknown.action == IhAction::Unexpected);
    CHECK_THAT(unknown.message, Contains("source 254 (unknown)"));
  }
}

TEST_CASE("am ih: source names are looked up per client, as AM does") {
  CHECK(ih_source_name(IhSoc::Soc21, 10, 239) == "SQ_INTERRUPT_ID");
  CHECK(ih_source_name(IhSoc::Soc21, 20, 0) == "UTCL2_FAULT");
  CHECK(ih_source_name(IhSoc::Soc21, 0x1E, 239).empty());             // MP0: no table
  CHECK(ih_source_name(IhSoc::Soc15, 13, 239) == "SQ_INTERRUPT_ID");  // SE3SH
  CHECK(ih_source_name(IhSoc::Soc15, 0x18, 224) == "SDMA_TRAP");      // SDMA7 = VCE1
  CHECK(ih_source_name(IhSoc::Soc15, 20, 224).empty());               // not a gfx9 source
  CHECK(ih_source_name(IhSoc::Soc15, 8, 239).empty());                // not an SDMA source
  // The same source id from a client without a table is an unexpected interrupt.
  const auto v = ih_verdict(IhSoc::Soc21, entry(0x0000'EF1E, 0, 0x80));
  CHECK(v.action == IhAction::Unexpected);
  CHECK(v.error_state);
  CHECK(ih_verdict(IhSoc::Soc21, entry(0x0000'001E)).action == IhAction::Unexpected);
}

TEST_CASE("am ih: ring entries from rptr to wptr wrap, bad pointers are refused") {
  std::vector<std::uint32_t> ring(32, 0);
  for (std::uint32_t i = 0; i < 4; ++i) ring[8 * i] = 0xEF00 | i;
  auto es = ih_ring_entries(ring, 16, 8);
  REQUIRE(es.size() == 3);
  CHECK(es[0].client_id == 2);
  CHECK(es[1].client_id == 3);
  CHECK(es[2].client_id == 0);
  CHECK(ih_ring_entries(ring, 8, 8).empty());
  CHECK_THROWS_WITH(ih_ring_entries(ring, 4, 8), Contains("rptr 0x4"));
  CHECK_THROWS_WITH(ih_ring_entries(ring, 0, 0x20), Contains("wptr 0x20"));
}
