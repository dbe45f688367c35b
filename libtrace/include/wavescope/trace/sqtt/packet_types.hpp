#pragma once
// The SQTT packet vocabulary: every packet type of the three decoder families (RDNA3 layout 3,
// RDNA4 layout 4, CDNA/gfx9), with its encoding, size and bit fields as tables. The decoder,
// the encoder, the JSON printer and the tests all read these tables; nothing else hard-codes a
// bit position. Type and field names are tinygrad's (the corpus' reference.jsonl contract).

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace wavescope::trace::sqtt {

// The byte->type table and the packet layouts a stream is decoded with.
enum class Family : std::uint8_t { Rdna3, Rdna4, Cdna };

std::string_view to_string(Family family);
// Parses "rdna3", "rdna4", "cdna" or a processor name ("gfx1100", "gfx1201", "gfx950", ...);
// nullopt for "auto". Throws Error(Usage) for anything else.
std::optional<Family> parse_family(std::string_view name);

enum class PacketType : std::uint8_t {
  // RDNA (layout 3 sizes; the _RDNA4 variants below replace some of them on layout 4)
  Valuinst,
  Vmemexec,
  Aluexec,
  Immediate,
  ImmediateMask,
  Waverdy,
  TsDeltaS8W3,
  Waveend,
  Wavestart,
  TsDeltaS5W2,
  Wavealloc,
  TsDeltaS5W3,
  Perf,
  Utilctr,
  TsDeltaShort,
  Nop,
  TsWaveState,
  Event,
  EventBig,
  Reg,
  Snapshot,
  TsDeltaOrMark,
  LayoutHeader,
  Inst,
  // RDNA4 redefinitions
  WaveendRdna4,
  WavestartRdna4,
  TsDeltaS5W2Rdna4,
  WaveallocRdna4,
  TsDeltaS5W3Rdna4,
  PerfRdna4,
  TsDeltaOrMarkRdna4,
  InstRdna4,
  // CDNA (gfx9), typed by the low nibble
  CdnaMisc,
  CdnaTimestamp,
  CdnaReg,
  CdnaWavestart,
  CdnaWavealloc,
  CdnaRegCs,
  CdnaWaveend,
  CdnaEvent,
  CdnaEventCs,
  CdnaEventGfx1,
  CdnaInst,
  CdnaInstPc,
  CdnaUserdata,
  CdnaIssue,
  CdnaPerf,
  CdnaRegCsPriv,
};
inline constexpr std::size_t kPacketTypeCount =
    static_cast<std::size_t>(PacketType::CdnaRegCsPriv) + 1;

// How a packet moves the stream's running time (spec §8).
enum class TimeRule : std::uint8_t {
  None,            // NOP, LAYOUT_HEADER, CDNA packets other than MISC/TIMESTAMP
  AddDelta,        // time += delta
  AddDeltaPlus4,   // TS_DELTA_SHORT: time += delta + 4
  DeltaOrMarker,   // TS_DELTA_OR_MARK*: += delta unless it is a realtime marker (rt=1, pl=0)
  AddDeltaTimes4,  // CDNA_MISC: time += 4 * delta
  CdnaTimestamp,   // absolute timestamp re-anchoring
};

// Names for the values of an enum field (INST op, exec src); empty entries are gaps.
struct EnumNames {
  std::span<const std::string_view> names;  // indexed by value
  std::string_view name(std::uint64_t value) const {
    return value < names.size() ? names[value] : std::string_view{};
  }
};

struct FieldSpec {
  std::string_view name;
  std::uint8_t lo = 0;     // lowest bit
  std::uint8_t width = 0;  // bits
  const EnumNames *enum_names = nullptr;
  // Private in tinygrad (padding, reserved): not printed, but decoded and encoded.
  bool hidden = false;

  std::uint64_t mask() const { return width >= 64 ? ~0ull : ((1ull << width) - 1); }
};

struct PacketSpec {
  PacketType type;
  std::string_view name;       // tinygrad's class name, e.g. "INST_RDNA4"
  std::uint8_t size_nibbles;   // (highest defined bit + 4) / 4
  std::uint8_t encoding_bits;  // how many low bits the encoding constrains
  std::uint8_t encoding;       // their value
  TimeRule time_rule;
  std::int8_t delta_field;            // index into fields, -1 if the type has no delta
  std::span<const FieldSpec> fields;  // public fields in tinygrad's order, then hidden ones
  std::int8_t op_field = -1;          // index of the instruction-op field (INST types)

  // A public or hidden field by name, nullptr if the type has none.
  const FieldSpec *field(std::string_view field_name) const;
  std::uint64_t encoding_mask() const { return (1ull << encoding_bits) - 1; }
};

const PacketSpec &packet_spec(PacketType type);
// Every type's spec, indexed by PacketType.
std::span<const PacketSpec> all_packet_specs();
std::string_view to_string(PacketType type);
// The packet type tinygrad names `name` (e.g. "WAVESTART_RDNA4"), nullopt if none.
std::optional<PacketType> packet_type_from_name(std::string_view name);

// The 256-entry byte -> type table of a family (spec §4): the type of a packet whose window's
// low byte is `low_byte`. Bytes without an encoding map to NOP (CDNA has none).
PacketType packet_type_for_byte(Family family, std::uint8_t low_byte);
const std::array<PacketType, 256> &type_table(Family family);

// The family a packet type belongs to (RDNA types common to layout 3 and 4 report Rdna3).
Family family_of(PacketType type);

// Instruction-op categories (spec §9.1): the name of an INST/INST_RDNA4/CDNA_INST op value,
// empty if the value is not in the table (a decode gap, not an error).
std::string_view inst_op_name(PacketType inst_type, std::uint64_t op);
// True for the OTHER_* categories: instructions of a wave on another SIMD (spec §9.2).
bool is_other_simd_op(PacketType inst_type, std::uint64_t op);

}  // namespace wavescope::trace::sqtt
