// Fuzz target: arbitrary bytes as a PMC sample buffer, decoded against a schedule laid out like
// the corpus captures' (tinygrad's default counters with gfx1100, gfx1201 and gfx950 geometry),
// optionally with one schedule field disturbed. Any wavescope::Error is a clean rejection;
// anything else (a crash, another exception, a hang) is a bug.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "wavescope/base/error.hpp"
#include "wavescope/trace/pmc/pmc_decoder.hpp"

namespace {

using wavescope::trace::PmcSampleSpec;

struct Layout {
  const char *processor;
  unsigned xcc, se, sa, wgp;  // SQ geometry per XCC
  unsigned l2_instances;
  const char *l2_block;
};

// A contiguous schedule of the eight default counters for one device layout (spec §16.2).
std::vector<PmcSampleSpec> schedule_for(const Layout &l) {
  const bool cdna = std::string(l.l2_block) == "TCC";
  const char *lds = cdna ? "SQ_LDS_IDX_ACTIVE" : "SQC_LDS_IDX_ACTIVE";
  const char *bank = cdna ? "SQ_LDS_BANK_CONFLICT" : "SQC_LDS_BANK_CONFLICT";
  const std::string hit = std::string(l.l2_block) + "_HIT",
                    miss = std::string(l.l2_block) + "_MISS";
  struct Entry {
    std::string name, block;
    unsigned inst, se, sa, wgp;
  };
  const Entry entries[] = {
      {"SQ_BUSY_CYCLES", "SQ", 1, l.se, l.sa, l.wgp},
      {"SQ_INSTS_VALU", "SQ", 1, l.se, l.sa, l.wgp},
      {"SQ_INSTS_SALU", "SQ", 1, l.se, l.sa, l.wgp},
      {lds, "SQ", 1, l.se, l.sa, l.wgp},
      {bank, "SQ", 1, l.se, l.sa, l.wgp},
      {"GRBM_GUI_ACTIVE", "GRBM", 1, 1, 1, 1},
      {hit, l.l2_block, l.l2_instances, 1, 1, 1},
      {miss, l.l2_block, l.l2_instances, 1, 1, 1},
  };
  std::vector<PmcSampleSpec> out;
  std::uint64_t offset = 0;
  for (const auto &e : entries) {
    PmcSampleSpec s;
    s.name = e.name;
    s.block = e.block;
    s.xcc = l.xcc, s.inst = e.inst, s.se = e.se, s.sa = e.sa, s.wgp = e.wgp;
    s.offset = offset;
    s.size = 8ull * s.xcc * s.inst * s.se * s.sa * s.wgp;
    offset += s.size;
    out.push_back(std::move(s));
  }
  return out;
}

const Layout kLayouts[] = {
    {"gfx1100", 1, 6, 2, 4, 32, "GL2C"},
    {"gfx1201", 1, 4, 2, 4, 32, "GL2C"},
    {"gfx950", 8, 4, 1, 1, 16, "TCC"},
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  // Byte 0 picks the layout and a disturbance, byte 1 its argument; the rest is the buffer.
  const std::uint8_t pick = size > 0 ? data[0] : 0;
  const std::uint8_t arg = size > 1 ? data[1] : 0;
  const std::span<const std::uint8_t> buffer(data + std::min<std::size_t>(size, 2),
                                             size - std::min<std::size_t>(size, 2));
  const auto &layout = kLayouts[pick % 3];
  auto schedule = schedule_for(layout);
  auto &victim = schedule[arg % schedule.size()];
  switch ((pick / 3) % 5) {
  case 0: break;
  case 1: victim.wgp = arg / 8; break;                            // zero or odd instance counts
  case 2: victim.offset += arg; break;                            // misaligned or overlapping
  case 3: victim.size = std::uint64_t{arg} << (arg % 61); break;  // sizes of every magnitude
  case 4: victim.inst = 0xFFFFFFFFu - arg; break;                 // geometry far past any buffer
  }
  try {
    wavescope::trace::pmc::DecodeOptions options;
    options.processor = layout.processor;
    options.source_name = "fuzz";
    options.used_bytes = buffer.size() / 2;
    const auto decoded = wavescope::trace::pmc::decode_samples(buffer, schedule, options);
    // Touch the derived data so sanitizers see every read.
    std::uint64_t checksum = 0;
    for (const auto &c : decoded.counters) checksum += c.sum + c.rows.size();
    for (const auto &m : decoded.metrics) checksum += m.text.size();
    if (checksum == 0x5eed) return 0;
  } catch (const wavescope::Error &) {
  }
  return 0;
}
