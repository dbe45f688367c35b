#pragma once
// The structure of a Navi31 IFWI flash image (navi31-flash.md §7.5, §10.12): the embedded firmware
// structure (EFS) header, the two $PSP directories, the $SGN table, the two image-slot headers
// (ISH A/B) and the partitions they point at. parse_ifwi() reads whatever is there and never
// throws on malformed content: a structure that is absent or does not fit is left empty, and
// validate_flash_image() (image_check.hpp) turns that into findings.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace wavescope::hw::ifwi {

inline constexpr std::size_t kNavi31ImageSize = 0x200000;  // 2 MiB, GD25LQ16E
inline constexpr std::uint32_t kEfsMagic = 0x55AA55AA;     // bytes AA 55 AA 55 at offset 0
inline constexpr std::size_t kEfsHeaderSize = 0x54;
inline constexpr std::uint64_t kSgnPointerOffset = 0x1000;
inline constexpr std::uint64_t kPrimaryPspDirectoryOffset = 0x2000;
inline constexpr std::uint64_t kBackupPspDirectoryOffset = 0x3000;
inline constexpr std::uint64_t kIshAOffset = 0x12000;
inline constexpr std::uint64_t kIshBOffset = 0x13000;
inline constexpr std::size_t kIshSize = 0x20;
inline constexpr std::uint32_t kPspRegionAFirmwareId = 0x13C;
inline constexpr std::uint32_t kPspRegionBFirmwareId = 0x13D;
inline constexpr std::uint32_t kVbiosImageFirmwareId = 0x137;
inline constexpr std::uint16_t kNavi31DeviceId = 0x744C;

struct EfsHeader {
  std::uint32_t magic = 0;
  std::uint32_t psp_directory = 0;         // u32 @0x14
  std::uint32_t backup_psp_directory = 0;  // u32 @0x2C
};

struct DirectoryEntry {
  std::uint32_t type = 0;  // firmware id
  std::uint32_t size = 0;
  std::uint64_t location = 0;
};

// A table whose claimed entries run past the end of the image is damaged (a garbage count can
// claim 2^32 entries): of such a table only the first few entries are read, enough to show what
// it holds, and its body is not checksummed, since it is not all there.
inline constexpr std::size_t kListedEntriesOfOverlongTable = 16;

// A $PSP directory (or a partition's $PL2 directory): cookie, Fletcher-32 of the body,
// entry count @+8, additional info @+12, then 16-byte entries.
struct PspDirectory {
  std::uint64_t offset = 0;
  std::string cookie;
  std::uint32_t checksum = 0;                      // as stored
  std::optional<std::uint32_t> computed_checksum;  // Fletcher-32 of the body, when all present
  std::uint32_t entry_count = 0;                   // as stored
  std::uint32_t entries_in_image = 0;              // whole entries the image holds, <= count
  std::uint32_t additional_info = 0;
  std::vector<DirectoryEntry> entries;  // all of them, or the first few of an overlong table
  bool checksum_ok() const { return computed_checksum == checksum; }
  bool entries_truncated() const { return entries_in_image < entry_count; }
};

struct SignatureEntry {
  std::uint32_t sign_type = 0;
  std::uint32_t reserved = 0;
  std::uint32_t size = 0;
  std::uint32_t offset = 0;
};

// The $SGN table at the offset stored at 0x1000.
struct SignatureTable {
  std::uint64_t offset = 0;
  std::uint32_t checksum = 0;  // as stored (CRC-32 of the body in the synthesized image)
  std::optional<std::uint32_t> computed_checksum;  // CRC-32 of the body, when all present
  std::uint32_t entry_count = 0;
  std::uint32_t entries_in_image = 0;   // whole entries the image holds, <= count
  std::vector<SignatureEntry> entries;  // all of them, or the first few of an overlong table
  bool checksum_ok() const { return computed_checksum == checksum; }
  bool entries_truncated() const { return entries_in_image < entry_count; }
};

// AMD IMAGE_SLOT_HEADER_V2.
struct ImageSlotHeader {
  char slot = 'A';
  std::uint64_t offset = 0;
  std::uint32_t checksum = 0;
  std::uint32_t computed_checksum = 0;  // CRC-32 of bytes 4..0x1F (the synthesized convention)
  std::uint32_t priority = 0;
  std::uint32_t update_retries = 0;
  std::uint8_t glitch_retries = 0;
  std::uint32_t slot_address = 0;   // @0x10
  std::uint32_t psp_id = 0;         // @0x14
  std::uint32_t slot_max_size = 0;  // @0x18
  std::uint32_t reserved = 0;       // @0x1C
  bool blank() const { return slot_address == 0xFFFFFFFFu && slot_max_size == 0xFFFFFFFFu; }
};

// A legacy option ROM found in a partition (the VBIOS stand-in of the synthesized image).
struct OptionRom {
  std::uint64_t offset = 0;
  std::uint32_t length = 0;  // byte 2 × 512
  std::optional<std::uint16_t> pcir_vendor_id;
  std::optional<std::uint16_t> pcir_device_id;
  std::string amd_signature;  // e.g. " 761295520" when present at +0x30
  bool has_atom_table = false;
};

// The payload an image-slot header points at.
struct Partition {
  char slot = 'A';
  std::uint64_t offset = 0;
  std::uint64_t size = 0;                 // the slot's max size, clipped to the image
  std::optional<PspDirectory> directory;  // "$PL2" at the start, when present
  std::optional<OptionRom> option_rom;    // via the directory's VBIOS entry (0x137)
};

struct IfwiLayout {
  std::size_t size = 0;
  std::optional<EfsHeader> efs;
  std::optional<PspDirectory> primary_psp;   // at 0x2000 when its cookie is "$PSP"
  std::optional<PspDirectory> backup_psp;    // at 0x3000
  std::optional<std::uint32_t> sgn_pointer;  // u32 @0x1000
  std::optional<SignatureTable> sgn;         // at sgn_pointer when its cookie is "$SGN"
  std::optional<ImageSlotHeader> ish_a;
  std::optional<ImageSlotHeader> ish_b;
  std::vector<Partition> partitions;  // one per image-slot header whose slot lies in the image
  bool halves_identical = false;      // first MiB equals the second (a mirrored read)
};

IfwiLayout parse_ifwi(std::span<const std::uint8_t> image);

// Reads a directory with the given cookie at `offset`; nullopt when the cookie is not there.
std::optional<PspDirectory> parse_directory(std::span<const std::uint8_t> image,
                                            std::uint64_t offset, std::string_view cookie);

}  // namespace wavescope::hw::ifwi
