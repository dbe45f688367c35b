// The packet tables of spec §4-§7 and the op-category names of §9.1.

#include "wavescope/trace/sqtt/packet_types.hpp"

#include <deque>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "wavescope/base/error.hpp"

namespace wavescope::trace::sqtt {
namespace {

// ---- enum value names -------------------------------------------------------------------

struct NamedRange {
  unsigned first, last;   // inclusive value range
  std::string_view stem;  // name, or stem of a numbered series
  int first_number;       // -1: a single name; else stem + "_" + (first_number + i)
};

// Builds a value -> name table from single names and numbered series; the strings live for the
// whole program (function-local statics of the callers).
struct NameTable {
  std::deque<std::string> storage;
  std::vector<std::string_view> names;
  EnumNames view;

  NameTable(std::size_t size, std::initializer_list<NamedRange> ranges) : names(size) {
    for (const auto &r : ranges)
      for (unsigned v = r.first; v <= r.last && v < size; ++v) {
        storage.push_back(r.first_number < 0
                              ? std::string(r.stem)
                              : fmt::format("{}_{}", r.stem, r.first_number + int(v - r.first)));
        names[v] = storage.back();
      }
    view = EnumNames{names};
  }
};

const EnumNames &rdna3_ops() {
  static const NameTable table(
      128, {{0x00, 0x00, "SALU", -1},         {0x01, 0x01, "SMEM_RD", -1},
            {0x03, 0x03, "JUMP", -1},         {0x04, 0x04, "JUMP_NO", -1},
            {0x05, 0x05, "CALL", -1},         {0x09, 0x09, "MESSAGE", -1},
            {0x0B, 0x0B, "VALUT_4", -1},      {0x0D, 0x0D, "VALUB_2", -1},
            {0x0E, 0x0E, "VALUB_4", -1},      {0x0F, 0x0F, "VALUB_16", -1},
            {0x12, 0x12, "VINTERP", -1},      {0x13, 0x13, "BARRIER", -1},
            {0x1C, 0x1C, "FLAT_RD_2", -1},    {0x1D, 0x20, "FLAT_WR", 3},
            {0x21, 0x21, "SGMEM_RD_1", -1},   {0x22, 0x22, "SGMEM_RD_2", -1},
            {0x24, 0x28, "SGMEM_WR", 2},      {0x29, 0x29, "LDS_RD", -1},
            {0x2A, 0x2E, "LDS_WR", 1},        {0x50, 0x54, "OTHER_LDS", 1},
            {0x55, 0x59, "OTHER_FLAT", 2},    {0x5A, 0x66, "OTHER_VMEM", 1},
            {0x72, 0x72, "SALU_WR_EXEC", -1}, {0x73, 0x73, "VALU1_WR_EXEC", -1}});
  return table.view;
}

const EnumNames &rdna4_ops() {
  static const NameTable table(
      256, {{0x00, 0x00, "SALU", -1},           {0x01, 0x01, "SMEM", -1},
            {0x02, 0x02, "SMEM_WR", -1},        {0x03, 0x03, "JUMP", -1},
            {0x04, 0x04, "JUMP_NO", -1},        {0x05, 0x05, "CALL", -1},
            {0x07, 0x07, "SALU_NO_EXEC", -1},   {0x09, 0x09, "MESSAGE", -1},
            {0x0A, 0x0A, "VALU_1", -1},         {0x0B, 0x0B, "VALUT_4", -1},
            {0x0C, 0x0C, "VALUB_1", -1},        {0x0D, 0x0D, "VALUB_2", -1},
            {0x0E, 0x0E, "VALUB_4", -1},        {0x0F, 0x0F, "VALUB_16", -1},
            {0x12, 0x12, "VINTERP", -1},        {0x13, 0x13, "BARRIER_WAIT", -1},
            {0x1C, 0x1C, "FLAT_RD_2", -1},      {0x1D, 0x20, "FLAT_WR", 3},
            {0x21, 0x22, "VMEM_RD", 1},         {0x23, 0x28, "VMEM_WR", 1},
            {0x29, 0x29, "LDS_RD", -1},         {0x2A, 0x2E, "LDS_WR", 1},
            {0x2F, 0x30, "BUF_RD", 1},          {0x31, 0x36, "BUF_WR", 1},
            {0x50, 0x54, "OTHER_LDS", 1},       {0x55, 0x59, "OTHER_FLAT", 2},
            {0x6E, 0x6E, "LDS_DIR_LOAD", -1},   {0x6F, 0x6F, "LDS_PARAM_LOAD", -1},
            {0x72, 0x72, "SALU_WR_EXEC", -1},   {0x73, 0x73, "VALU1_WR_EXEC", -1},
            {0x74, 0x74, "VALU_WR_EXEC_2", -1}, {0x77, 0x77, "OTHER_LDS_6", -1},
            {0x78, 0x78, "OTHER_LDS_10", -1},   {0x7A, 0x7A, "BARRIER_SIGNAL", -1},
            {0x87, 0x87, "DYN_VGPR", -1},       {0x8A, 0x8A, "BARRIER_JOIN", -1},
            {0x8C, 0x8C, "WMMA_8", -1},         {0x8D, 0x8D, "WMMA_16", -1},
            {0x8E, 0x8E, "WMMA_32", -1},        {0x8F, 0x8F, "WMMA_64", -1},
            {0x92, 0x92, "VALU_DPFP", -1},      {0x98, 0x98, "SALU_FLOAT_3", -1},
            {0x99, 0x99, "VALU_SCL_TRANS", -1}, {0x9B, 0x9B, "SALU_2", -1},
            {0x9C, 0x9C, "SALU_5", -1},         {0xBC, 0xDD, "OTHER_VMEM", 1}});
  return table.view;
}

const EnumNames &cdna_ops() {
  static const NameTable table(32, {{0, 0, "SMEM_RD", -1},
                                    {1, 1, "SALU_32", -1},
                                    {2, 2, "VMEM_RD", -1},
                                    {3, 3, "VMEM_WR", -1},
                                    {4, 4, "FLAT_WR", -1},
                                    {5, 5, "VALU_32", -1},
                                    {6, 6, "LDS", -1},
                                    {7, 7, "PC", -1},
                                    {12, 12, "JUMP", -1},
                                    {13, 13, "NEXT", -1},
                                    {14, 14, "FLAT_RD", -1},
                                    {15, 15, "OTHER_MSG", -1},
                                    {16, 16, "SMEM_WR", -1},
                                    {17, 17, "SALU_64", -1},
                                    {18, 18, "VALU_64", -1},
                                    {28, 28, "VALU_MAI", -1}});
  return table.view;
}

const EnumNames &alu_sources() {
  static const NameTable table(
      4, {{0, 0, "NONE", -1}, {1, 1, "SALU", -1}, {2, 2, "VALU", -1}, {3, 3, "VALU_SALU", -1}});
  return table.view;
}

const EnumNames &mem_sources() {
  static const NameTable table(
      4, {{0, 0, "LDS", -1}, {1, 1, "LDS_ALT", -1}, {2, 2, "VMEM", -1}, {3, 3, "VMEM_ALT", -1}});
  return table.view;
}

// ---- field lists (public fields in tinygrad's declaration order, then hidden ones) --------

using F = FieldSpec;
constexpr F hidden(std::string_view name, std::uint8_t lo, std::uint8_t width) {
  return F{name, lo, width, nullptr, true};
}

const F kValuinst[] = {{"delta", 3, 3}, {"flag", 6, 1}, {"wave", 7, 5}};
const F kImmediate[] = {{"delta", 4, 3}, {"wave", 7, 5}};
const F kMask[] = {{"delta", 5, 3}, {"mask", 8, 16}};
const F kTsDeltaS8W3[] = {{"delta", 8, 3}, hidden("_padding", 11, 61)};
const F kWaveend[] = {
    {"delta", 5, 3}, {"sa", 8, 1}, {"simd", 9, 2}, {"wgp", 11, 3}, {"wave", 15, 5}};
const F kWavestart[] = {{"delta", 5, 2}, {"sa", 7, 1},    {"simd", 8, 2},
                        {"wgp", 10, 3},  {"wave", 13, 5}, {"id7", 18, 14}};
const F kDelta65[] = {{"delta", 5, 2}};
const F kDelta75[] = {{"delta", 5, 3}};
const F kPerf[] = {{"delta", 5, 3}, {"arg", 8, 20}};
const F kUtilctr[] = {{"delta", 7, 2}, {"ctr", 9, 39}};
const F kTsDeltaShort[] = {{"delta", 4, 4}};
const F kTsWaveState[] = {{"delta", 7, 9}, {"coarse", 16, 8}};
const F kEvent[] = {{"delta", 8, 3}, {"event", 11, 13}};
const F kEventBig[] = {{"delta", 8, 3}, {"event", 11, 21}};
const F kReg[] = {
    {"delta", 4, 3}, {"slot", 7, 3}, {"hi_byte", 8, 8}, {"subop", 16, 16}, {"val32", 32, 32}};
const F kSnapshot[] = {{"delta", 7, 3}, {"snap", 10, 54}};
const F kTsDeltaOrMark[] = {{"delta", 12, 36}, {"pl", 8, 1}, {"rt", 9, 1}};
const F kLayoutHeader[] = {{"layout", 7, 6}, {"simd", 13, 2},  {"group", 15, 3},
                           {"sel_a", 28, 4}, {"sel_b", 33, 4}, {"flag4", 59, 1}};
const F kInst[] = {
    {"delta", 4, 3}, {"flag1", 3, 1}, {"flag2", 7, 1}, {"wave", 8, 5}, {"op", 13, 7}};

const F kWaveendRdna4[] = {
    {"delta", 5, 3}, {"sa", 8, 1}, {"simd", 9, 2}, {"wgp", 11, 4}, {"wave", 15, 5}};
const F kWavestartRdna4[] = {{"delta", 5, 2}, {"sa", 7, 1},    {"simd", 8, 2},
                             {"wgp", 10, 4},  {"wave", 15, 5}, {"id7", 20, 12}};
const F kDelta97[] = {{"delta", 7, 3}};
const F kPerfRdna4[] = {{"delta", 7, 3}, {"arg", 10, 22}};
const F kTsDeltaOrMarkRdna4[] = {{"delta", 12, 52}, {"rt", 7, 1}, {"pl", 8, 1}, {"tl", 9, 1}};

const F kCdnaMisc[] = {{"delta", 4, 8}, {"sh", 12, 1}, {"misc_type", 13, 3}};
const F kCdnaTimestamp[] = {{"timestamp", 16, 48}, hidden("_reserved", 4, 12)};
const F kCdnaReg[] = {{"pipe", 5, 2},
                      {"regaddr", 16, 16},
                      {"regdata", 32, 32},
                      hidden("_me_raw", 7, 2),
                      hidden("_reserved", 9, 7)};
const F kCdnaWavestart[] = {
    {"sh", 5, 1},    {"cu", 6, 4},  {"wave", 10, 4},  {"simd", 14, 2},
    {"pipe", 16, 2}, {"me", 18, 2}, {"count", 22, 7}, hidden("_reserved", 20, 2)};
const F kCdnaWave[] = {{"sh", 5, 1}, {"cu", 6, 4}, {"wave", 10, 4}, {"simd", 14, 2}};
const F kCdnaRegCs[] = {
    {"pipe", 5, 2}, {"regaddr", 9, 7}, {"regdata", 16, 32}, hidden("_me_raw", 7, 2)};
const F kCdnaEvent[] = {hidden("_reserved", 4, 12)};
const F kCdnaInstPc[] = {
    {"wave", 5, 4}, {"simd", 9, 2}, {"err", 15, 1}, {"pc", 16, 48}, hidden("_reserved", 11, 4)};
const F kCdnaUserdata[] = {
    {"sh", 5, 1}, {"cu", 6, 4}, {"wave", 10, 4}, {"simd", 14, 2}, {"data", 16, 32}};
const F kCdnaIssue[] = {{"simd", 5, 2},   {"inst0", 8, 2},  {"inst1", 10, 2}, {"inst2", 12, 2},
                        {"inst3", 14, 2}, {"inst4", 16, 2}, {"inst5", 18, 2}, {"inst6", 20, 2},
                        {"inst7", 22, 2}, {"inst8", 24, 2}, {"inst9", 26, 2}};
const F kCdnaPerf[] = {{"sh", 5, 1},      {"cu", 6, 4},      {"cntr_bank", 10, 2},
                       {"cntr0", 12, 13}, {"cntr1", 25, 13}, {"cntr2", 38, 13},
                       {"cntr3", 51, 13}};

// Fields whose values name an enum need the tables, which are built at run time.
struct EnumFields {
  F vmemexec[2], aluexec[2], inst[5], inst_rdna4[4], cdna_inst[3];
  EnumFields() {
    vmemexec[0] = {"delta", 4, 2};
    vmemexec[1] = {"src", 6, 2, &mem_sources()};
    aluexec[0] = {"delta", 4, 2};
    aluexec[1] = {"src", 6, 2, &alu_sources()};
    for (int i = 0; i < 4; ++i) inst[i] = kInst[i];
    inst[4] = {"op", 13, 7, &rdna3_ops()};
    inst_rdna4[0] = {"delta", 3, 3};
    inst_rdna4[1] = {"w64h", 6, 1};
    inst_rdna4[2] = {"wave", 7, 5};
    inst_rdna4[3] = {"op", 12, 8, &rdna4_ops()};
    cdna_inst[0] = {"wave", 5, 4};
    cdna_inst[1] = {"simd", 9, 2};
    cdna_inst[2] = {"op", 11, 5, &cdna_ops()};
  }
};

constexpr std::int8_t kNoDelta = -1;

std::vector<PacketSpec> build_specs() {
  static const EnumFields e;
  using T = PacketType;
  using R = TimeRule;
  // type, name, size in nibbles, encoding bits, encoding, time rule, delta field, fields
  std::vector<PacketSpec> s = {
      {T::Valuinst, "VALUINST", 3, 3, 0b011, R::AddDelta, 0, kValuinst},
      {T::Vmemexec, "VMEMEXEC", 2, 4, 0b1111, R::AddDelta, 0, e.vmemexec},
      {T::Aluexec, "ALUEXEC", 2, 4, 0b1110, R::AddDelta, 0, e.aluexec},
      {T::Immediate, "IMMEDIATE", 3, 4, 0b1101, R::AddDelta, 0, kImmediate},
      {T::ImmediateMask, "IMMEDIATE_MASK", 6, 5, 0b00100, R::AddDelta, 0, kMask},
      {T::Waverdy, "WAVERDY", 6, 5, 0b10100, R::AddDelta, 0, kMask},
      {T::TsDeltaS8W3, "TS_DELTA_S8_W3", 18, 7, 0b0100001, R::AddDelta, 0, kTsDeltaS8W3},
      {T::Waveend, "WAVEEND", 5, 5, 0b10101, R::AddDelta, 0, kWaveend},
      {T::Wavestart, "WAVESTART", 8, 5, 0b01100, R::AddDelta, 0, kWavestart},
      {T::TsDeltaS5W2, "TS_DELTA_S5_W2", 12, 5, 0b11100, R::AddDelta, 0, kDelta65},
      {T::Wavealloc, "WAVEALLOC", 5, 5, 0b00101, R::AddDelta, 0, kDelta75},
      {T::TsDeltaS5W3, "TS_DELTA_S5_W3", 13, 5, 0b00110, R::AddDelta, 0, kDelta75},
      {T::Perf, "PERF", 7, 5, 0b10110, R::AddDelta, 0, kPerf},
      {T::Utilctr, "UTILCTR", 12, 7, 0b0110001, R::AddDelta, 0, kUtilctr},
      {T::TsDeltaShort, "TS_DELTA_SHORT", 2, 4, 0b1000, R::AddDeltaPlus4, 0, kTsDeltaShort},
      {T::Nop, "NOP", 1, 4, 0b0000, R::None, kNoDelta, {}},
      {T::TsWaveState, "TS_WAVE_STATE", 6, 7, 0b1010001, R::AddDelta, 0, kTsWaveState},
      {T::Event, "EVENT", 6, 8, 0b01100001, R::AddDelta, 0, kEvent},
      {T::EventBig, "EVENT_BIG", 8, 8, 0b11100001, R::AddDelta, 0, kEventBig},
      {T::Reg, "REG", 16, 4, 0b1001, R::AddDelta, 0, kReg},
      {T::Snapshot, "SNAPSHOT", 16, 7, 0b1110001, R::AddDelta, 0, kSnapshot},
      {T::TsDeltaOrMark, "TS_DELTA_OR_MARK", 12, 7, 0b0000001, R::DeltaOrMarker, 0, kTsDeltaOrMark},
      {T::LayoutHeader, "LAYOUT_HEADER", 16, 7, 0b0010001, R::None, kNoDelta, kLayoutHeader},
      {T::Inst, "INST", 5, 3, 0b010, R::AddDelta, 0, e.inst},
      {T::WaveendRdna4, "WAVEEND_RDNA4", 5, 5, 0b10101, R::AddDelta, 0, kWaveendRdna4},
      {T::WavestartRdna4, "WAVESTART_RDNA4", 8, 5, 0b01100, R::AddDelta, 0, kWavestartRdna4},
      {T::TsDeltaS5W2Rdna4, "TS_DELTA_S5_W2_RDNA4", 10, 5, 0b11100, R::AddDelta, 0, kDelta65},
      {T::WaveallocRdna4, "WAVEALLOC_RDNA4", 6, 5, 0b00101, R::AddDelta, 0, kDelta75},
      {T::TsDeltaS5W3Rdna4, "TS_DELTA_S5_W3_RDNA4", 14, 5, 0b00110, R::AddDelta, 0, kDelta97},
      {T::PerfRdna4, "PERF_RDNA4", 8, 5, 0b10110, R::AddDelta, 0, kPerfRdna4},
      {T::TsDeltaOrMarkRdna4, "TS_DELTA_OR_MARK_RDNA4", 16, 7, 0b0000001, R::DeltaOrMarker, 0,
       kTsDeltaOrMarkRdna4},
      {T::InstRdna4, "INST_RDNA4", 5, 3, 0b010, R::AddDelta, 0, e.inst_rdna4},
      {T::CdnaMisc, "CDNA_MISC", 4, 4, 0, R::AddDeltaTimes4, 0, kCdnaMisc},
      {T::CdnaTimestamp, "CDNA_TIMESTAMP", 16, 4, 1, R::CdnaTimestamp, kNoDelta, kCdnaTimestamp},
      {T::CdnaReg, "CDNA_REG", 16, 4, 2, R::None, kNoDelta, kCdnaReg},
      {T::CdnaWavestart, "CDNA_WAVESTART", 8, 4, 3, R::None, kNoDelta, kCdnaWavestart},
      {T::CdnaWavealloc, "CDNA_WAVEALLOC", 4, 4, 4, R::None, kNoDelta, kCdnaWave},
      {T::CdnaRegCs, "CDNA_REG_CS", 12, 4, 5, R::None, kNoDelta, kCdnaRegCs},
      {T::CdnaWaveend, "CDNA_WAVEEND", 4, 4, 6, R::None, kNoDelta, kCdnaWave},
      {T::CdnaEvent, "CDNA_EVENT", 4, 4, 7, R::None, kNoDelta, kCdnaEvent},
      {T::CdnaEventCs, "CDNA_EVENT_CS", 4, 4, 8, R::None, kNoDelta, kCdnaEvent},
      {T::CdnaEventGfx1, "CDNA_EVENT_GFX1", 4, 4, 9, R::None, kNoDelta, kCdnaEvent},
      {T::CdnaInst, "CDNA_INST", 4, 4, 10, R::None, kNoDelta, e.cdna_inst},
      {T::CdnaInstPc, "CDNA_INST_PC", 16, 4, 11, R::None, kNoDelta, kCdnaInstPc},
      {T::CdnaUserdata, "CDNA_USERDATA", 12, 4, 12, R::None, kNoDelta, kCdnaUserdata},
      {T::CdnaIssue, "CDNA_ISSUE", 8, 4, 13, R::None, kNoDelta, kCdnaIssue},
      {T::CdnaPerf, "CDNA_PERF", 16, 4, 14, R::None, kNoDelta, kCdnaPerf},
      {T::CdnaRegCsPriv, "CDNA_REG_CS_PRIV", 12, 4, 15, R::None, kNoDelta, kCdnaRegCs},
  };
  for (auto &spec : s)
    if (spec.type == T::Inst || spec.type == T::InstRdna4 || spec.type == T::CdnaInst)
      for (std::size_t i = 0; i < spec.fields.size(); ++i)
        if (spec.fields[i].name == "op") spec.op_field = static_cast<std::int8_t>(i);
  return s;
}

const std::vector<PacketSpec> &specs() {
  static const std::vector<PacketSpec> s = build_specs();
  return s;
}

// The types a family's byte table is built from (spec §4).
std::vector<PacketType> family_types(Family family) {
  using T = PacketType;
  std::vector<T> rdna3 = {T::Valuinst,      T::Vmemexec,      T::Aluexec,      T::Immediate,
                          T::ImmediateMask, T::Waverdy,       T::TsDeltaS8W3,  T::Waveend,
                          T::Wavestart,     T::TsDeltaS5W2,   T::Wavealloc,    T::TsDeltaS5W3,
                          T::Perf,          T::Utilctr,       T::TsDeltaShort, T::Nop,
                          T::TsWaveState,   T::Event,         T::EventBig,     T::Reg,
                          T::Snapshot,      T::TsDeltaOrMark, T::LayoutHeader, T::Inst};
  if (family == Family::Rdna3) return rdna3;
  if (family == Family::Rdna4) {
    for (auto &t : rdna3) {
      switch (t) {
      case T::Waveend: t = T::WaveendRdna4; break;
      case T::Wavestart: t = T::WavestartRdna4; break;
      case T::TsDeltaS5W2: t = T::TsDeltaS5W2Rdna4; break;
      case T::Wavealloc: t = T::WaveallocRdna4; break;
      case T::TsDeltaS5W3: t = T::TsDeltaS5W3Rdna4; break;
      case T::Perf: t = T::PerfRdna4; break;
      case T::TsDeltaOrMark: t = T::TsDeltaOrMarkRdna4; break;
      case T::Inst: t = T::InstRdna4; break;
      default: break;
      }
    }
    return rdna3;
  }
  std::vector<T> cdna;
  for (auto t = static_cast<unsigned>(T::CdnaMisc); t <= static_cast<unsigned>(T::CdnaRegCsPriv);
       ++t)
    cdna.push_back(static_cast<T>(t));
  cdna.push_back(T::LayoutHeader);
  return cdna;
}

// Byte -> type: the matching encoding that constrains the most bits wins; NOP when none does.
std::array<PacketType, 256> build_type_table(Family family) {
  std::array<PacketType, 256> table{};
  const auto types = family_types(family);
  for (unsigned b = 0; b < 256; ++b) {
    int best_bits = -1;
    PacketType best = PacketType::Nop;
    for (const auto t : types) {
      const auto &s = packet_spec(t);
      if ((b & s.encoding_mask()) == s.encoding && int(s.encoding_bits) > best_bits &&
          !(t == PacketType::Nop && best_bits >= 0)) {
        best_bits = s.encoding_bits;
        best = t;
      }
    }
    table[b] = best;
  }
  return table;
}

}  // namespace

std::string_view to_string(Family family) {
  switch (family) {
  case Family::Rdna3: return "rdna3";
  case Family::Rdna4: return "rdna4";
  case Family::Cdna: return "cdna";
  }
  return "?";
}

std::optional<Family> parse_family(std::string_view name) {
  if (name == "auto" || name.empty()) return std::nullopt;
  if (name == "rdna3" || name == "layout3") return Family::Rdna3;
  if (name == "rdna4" || name == "layout4") return Family::Rdna4;
  if (name == "cdna" || name == "gfx9") return Family::Cdna;
  if (name.substr(0, 5) == "gfx11") return Family::Rdna3;
  if (name.substr(0, 5) == "gfx12") return Family::Rdna4;
  if (name.substr(0, 4) == "gfx9" && name.size() >= 5) return Family::Cdna;
  throw Error(ErrorKind::Usage,
              fmt::format("unknown SQTT architecture \"{}\": use auto, rdna3, rdna4, cdna or a "
                          "processor such as gfx1100, gfx1201, gfx950",
                          name));
}

const FieldSpec *PacketSpec::field(std::string_view field_name) const {
  for (const auto &f : fields)
    if (f.name == field_name) return &f;
  return nullptr;
}

const PacketSpec &packet_spec(PacketType type) { return specs()[static_cast<std::size_t>(type)]; }

std::span<const PacketSpec> all_packet_specs() { return specs(); }

std::string_view to_string(PacketType type) { return packet_spec(type).name; }

std::optional<PacketType> packet_type_from_name(std::string_view name) {
  for (const auto &s : specs())
    if (s.name == name) return s.type;
  return std::nullopt;
}

const std::array<PacketType, 256> &type_table(Family family) {
  static const std::array<PacketType, 256> tables[3] = {build_type_table(Family::Rdna3),
                                                        build_type_table(Family::Rdna4),
                                                        build_type_table(Family::Cdna)};
  return tables[static_cast<int>(family)];
}

PacketType packet_type_for_byte(Family family, std::uint8_t low_byte) {
  return type_table(family)[low_byte];
}

Family family_of(PacketType type) {
  if (type >= PacketType::CdnaMisc) return Family::Cdna;
  if (type >= PacketType::WaveendRdna4) return Family::Rdna4;
  return Family::Rdna3;
}

std::string_view inst_op_name(PacketType inst_type, std::uint64_t op) {
  switch (inst_type) {
  case PacketType::Inst: return rdna3_ops().name(op);
  case PacketType::InstRdna4: return rdna4_ops().name(op);
  case PacketType::CdnaInst: return cdna_ops().name(op);
  default: return {};
  }
}

bool is_other_simd_op(PacketType inst_type, std::uint64_t op) {
  if (inst_type != PacketType::Inst && inst_type != PacketType::InstRdna4) return false;
  return inst_op_name(inst_type, op).substr(0, 6) == "OTHER_";
}

}  // namespace wavescope::trace::sqtt
