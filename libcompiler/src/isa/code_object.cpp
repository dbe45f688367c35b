#include "wavescope/compiler/isa/code_object.hpp"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <set>

#include <fmt/format.h>
#include <llvm/BinaryFormat/ELF.h>
#include <llvm/Object/ELFObjectFile.h>
#include <llvm/Support/MemoryBuffer.h>

#include "wavescope/base/error.hpp"
#include "wavescope/base/read_file.hpp"

namespace wavescope::compiler::isa {
namespace {

namespace ELF = llvm::ELF;

template <typename T> T get(const std::vector<std::uint8_t> &b, std::size_t offset) {
  T value;
  std::memcpy(&value, b.data() + offset, sizeof(T));
  return value;
}
template <typename T> void put(std::vector<std::uint8_t> &b, std::size_t offset, T value) {
  std::memcpy(b.data() + offset, &value, sizeof(T));
}

std::string llvm_message(llvm::Error error) { return llvm::toString(std::move(error)); }

// ELF64 header field offsets (System V gABI).
constexpr std::size_t kType = 16, kMachine = 18, kVersion = 20, kFlags = 48, kEhsize = 52,
                      kPhentsize = 54, kPhnum = 56, kShentsize = 58, kShnum = 60;

// Checks the identification and repairs the header fields tinygrad's packer leaves zero, so
// that LLVM's ELF reader (and llvm-objdump) accept the copy. Records each repair as a quirk.
std::vector<std::uint8_t> repair_header(const std::vector<std::uint8_t> &bytes,
                                        const std::string &origin,
                                        std::vector<std::string> &quirks) {
  if (bytes.size() < 4 || std::memcmp(bytes.data(), ELF::ElfMagic, 4) != 0)
    throw_bad_input(
        fmt::format("{}: not an ELF file (the first bytes are not 7f 45 4c 46)", origin));
  if (bytes.size() < sizeof(ELF::Elf64_Ehdr))
    throw_bad_input(fmt::format("{}: truncated ELF: {} bytes, the ELF64 header alone needs {}",
                                origin, bytes.size(), sizeof(ELF::Elf64_Ehdr)));
  if (bytes[ELF::EI_CLASS] != ELF::ELFCLASS64)
    throw_bad_input(fmt::format("{}: ELF class {} is not ELF64; AMDGPU code objects are ELF64",
                                origin, bytes[ELF::EI_CLASS]));
  std::vector<std::uint8_t> out = bytes;
  if (bytes[ELF::EI_DATA] == ELF::ELFDATA2MSB)
    throw_bad_input(
        fmt::format("{}: big-endian ELF; AMDGPU code objects are little-endian", origin));
  if (bytes[ELF::EI_DATA] != ELF::ELFDATA2LSB) {
    quirks.push_back(
        fmt::format("e_ident[EI_DATA] is {} (none); read as little-endian", bytes[ELF::EI_DATA]));
    out[ELF::EI_DATA] = ELF::ELFDATA2LSB;
  }
  if (bytes[ELF::EI_VERSION] != ELF::EV_CURRENT) out[ELF::EI_VERSION] = ELF::EV_CURRENT;
  if (bytes[ELF::EI_OSABI] != ELF::ELFOSABI_AMDGPU_HSA) {
    quirks.push_back(
        fmt::format("e_ident[EI_OSABI] is {}, not AMDGPU HSA (64)", bytes[ELF::EI_OSABI]));
    out[ELF::EI_OSABI] = ELF::ELFOSABI_AMDGPU_HSA;
    out[ELF::EI_ABIVERSION] = ELF::ELFABIVERSION_AMDGPU_HSA_V5;
  }
  const auto type = get<std::uint16_t>(bytes, kType);
  if (type == ELF::ET_NONE) {
    quirks.push_back("e_type is 0 (ET_NONE); read as a shared object (ET_DYN)");
    put<std::uint16_t>(out, kType, ELF::ET_DYN);
  }
  const auto machine = get<std::uint16_t>(bytes, kMachine);
  if (machine == ELF::EM_NONE) {
    quirks.push_back("e_machine is 0 (EM_NONE); read as EM_AMDGPU (224)");
    put<std::uint16_t>(out, kMachine, ELF::EM_AMDGPU);
  } else if (machine != ELF::EM_AMDGPU) {
    throw_bad_input(fmt::format(
        "{}: e_machine is {}, not EM_AMDGPU (224): not an AMDGPU code object", origin, machine));
  }
  if (get<std::uint32_t>(bytes, kVersion) != ELF::EV_CURRENT)
    put<std::uint32_t>(out, kVersion, ELF::EV_CURRENT);
  if (get<std::uint16_t>(bytes, kEhsize) != sizeof(ELF::Elf64_Ehdr)) {
    quirks.push_back(fmt::format("e_ehsize is {}, not 64", get<std::uint16_t>(bytes, kEhsize)));
    put<std::uint16_t>(out, kEhsize, sizeof(ELF::Elf64_Ehdr));
  }
  if (get<std::uint16_t>(bytes, kPhnum) != 0 && get<std::uint16_t>(bytes, kPhentsize) == 0) {
    quirks.push_back("e_phentsize is 0; read as 56");
    put<std::uint16_t>(out, kPhentsize, sizeof(ELF::Elf64_Phdr));
  }
  if (get<std::uint16_t>(bytes, kShnum) != 0 && get<std::uint16_t>(bytes, kShentsize) == 0) {
    quirks.push_back("e_shentsize is 0; read as 64");
    put<std::uint16_t>(out, kShentsize, sizeof(ELF::Elf64_Shdr));
  }
  return out;
}

Symbol::Kind symbol_kind(const llvm::object::ELFSymbolRef &symbol) {
  if (symbol.getELFType() == ELF::STT_FUNC || symbol.getELFType() == ELF::STT_AMDGPU_HSA_KERNEL)
    return Symbol::Kind::Function;
  if (symbol.getELFType() == ELF::STT_OBJECT) return Symbol::Kind::Object;
  auto flags = symbol.getFlags();
  if (flags && (*flags & llvm::object::SymbolRef::SF_Absolute)) return Symbol::Kind::Absolute;
  if (!flags) llvm::consumeError(flags.takeError());
  return Symbol::Kind::Other;
}

// Phases of CodeObject::from_bytes.

// The target: the caller's, else the one e_flags names; the normalized copy's e_flags name it.
GpuTarget choose_target(std::uint32_t elf_flags, const CodeObjectOptions &options,
                        const std::string &origin, std::vector<std::uint8_t> &normalized,
                        std::vector<std::string> &quirks) {
  GpuTarget target;
  const auto mach = elf_flags & ELF::EF_AMDGPU_MACH;
  const auto recorded = processor_from_elf_flags(elf_flags);
  if (options.target) {
    target = parse_gpu_target(*options.target);
    if (mach == 0)
      quirks.push_back(
          fmt::format("e_flags names no processor; using {} as given", target.processor));
    else if (recorded != target.processor)
      quirks.push_back(fmt::format("e_flags names {}, overridden by {}",
                                   recorded.value_or(fmt::format("mach {:#x}", mach)),
                                   target.processor));
    put<std::uint32_t>(normalized, kFlags,
                       (elf_flags & ~std::uint32_t{ELF::EF_AMDGPU_MACH}) |
                           elf_mach_for_processor(target.processor));
  } else if (mach == 0) {
    throw TargetNotNamed(
        fmt::format("{}: e_flags is {:#x} and names no AMDGPU processor (a tinygrad packer ELF?)",
                    origin, elf_flags));
  } else if (!recorded) {
    throw TargetNotNamed(fmt::format("{}: e_flags {:#x} names processor {:#x}, which LLVM {} does "
                                     "not know",
                                     origin, elf_flags, mach, llvm_version()));
  } else {
    target = parse_gpu_target(*recorded);
  }
  return target;
}

struct SectionScan {
  std::vector<Section> sections;
  std::optional<Section> text, rodata;
};

// Sections, with contents checked to lie inside the file; .text present and whole words.
SectionScan read_sections(const llvm::object::ELF64LEObjectFile &object, const std::string &origin,
                          const std::vector<std::uint8_t> &normalized) {
  SectionScan scan;
  auto &text = scan.text;
  auto &rodata = scan.rodata;
  bool text_is_nobits = false;
  for (const auto &section : object.sections()) {
    auto name = section.getName();
    if (!name)
      throw_bad_input(
          fmt::format("{}: bad section name: {}", origin, llvm_message(name.takeError())));
    Section s{name->str(), section.getAddress(), 0, section.getSize()};
    if (s.size > std::numeric_limits<std::uint64_t>::max() - s.address)
      throw_bad_input(fmt::format("{}: section {} at {:#x} of {:#x} bytes wraps around the "
                                  "64-bit address space",
                                  origin, s.name, s.address, s.size));
    if (!section.isBSS() && s.size != 0) {
      auto contents = section.getContents();
      if (!contents)
        throw_bad_input(fmt::format("{}: section {} lies outside the file: {}", origin, s.name,
                                    llvm_message(contents.takeError())));
      s.file_offset = static_cast<std::uint64_t>(
          reinterpret_cast<const std::uint8_t *>(contents->data()) - normalized.data());
    }
    scan.sections.push_back(s);
    if (s.name == ".text" || (!text && section.isText())) {
      text = s;
      text_is_nobits = section.isBSS();
    }
    if (s.name == ".rodata") rodata = s;
  }
  if (!text) throw_bad_input(fmt::format("{}: no .text section", origin));
  // A NOBITS section occupies no file bytes, so there is no code to read for it.
  if (text_is_nobits && text->size != 0)
    throw_bad_input(
        fmt::format("{}: .text is a NOBITS section of {:#x} bytes: the file holds no code for it",
                    origin, text->size));
  if (text->size % 4 != 0)
    throw_bad_input(fmt::format("{}: .text is {} bytes, not a whole number of 4-byte words; the "
                                "last instruction is cut off",
                                origin, text->size));
  return scan;
}

// Symbols from .symtab and .dynsym, each (name, value) once.
std::vector<Symbol> read_symbols(const llvm::object::ELF64LEObjectFile &object,
                                 std::vector<std::string> &quirks) {
  std::vector<Symbol> symbols;
  std::set<std::pair<std::string, std::uint64_t>> seen;
  std::size_t unreadable = 0;
  auto add_symbols = [&](auto range) {
    for (const llvm::object::ELFSymbolRef symbol : range) {
      auto name = symbol.getName();
      auto value = symbol.getValue();
      if (!name || !value) {
        if (!name) llvm::consumeError(name.takeError());
        if (!value) llvm::consumeError(value.takeError());
        ++unreadable;
        continue;
      }
      if (name->empty() || !seen.insert({name->str(), *value}).second) continue;
      Symbol s{name->str(), *value, symbol.getSize(), symbol_kind(symbol), {}};
      if (auto section = symbol.getSection(); section && *section != object.section_end()) {
        if (auto section_name = (*section)->getName())
          s.section = section_name->str();
        else
          llvm::consumeError(section_name.takeError());
      } else if (!section) {
        llvm::consumeError(section.takeError());
      }
      symbols.push_back(std::move(s));
    }
  };
  add_symbols(object.symbols());
  add_symbols(object.getDynamicSymbolIterators());
  if (unreadable == 1) quirks.push_back("a symbol with an unreadable name or value was skipped");
  if (unreadable > 1)
    quirks.push_back(
        fmt::format("{} symbols with an unreadable name or value were skipped", unreadable));
  return symbols;
}

}  // namespace

CodeObject CodeObject::load(const std::filesystem::path &path, const CodeObjectOptions &options) {
  return from_bytes(read_file_bytes(path, "code object"), options, path.string());
}

CodeObject CodeObject::from_bytes(std::vector<std::uint8_t> bytes, const CodeObjectOptions &options,
                                  std::string origin) {
  CodeObject co;
  co.origin_ = std::move(origin);
  co.bytes_ = std::move(bytes);
  co.normalized_ = repair_header(co.bytes_, co.origin_, co.quirks_);
  co.elf_flags_ = get<std::uint32_t>(co.bytes_, kFlags);
  co.target_ = choose_target(co.elf_flags_, options, co.origin_, co.normalized_, co.quirks_);
  llvm::MemoryBufferRef ref(
      llvm::StringRef(reinterpret_cast<const char *>(co.normalized_.data()), co.normalized_.size()),
      co.origin_);
  auto created = llvm::object::ELF64LEObjectFile::create(ref);
  if (!created)
    throw_bad_input(
        fmt::format("{}: malformed ELF: {}", co.origin_, llvm_message(created.takeError())));
  const auto &object = *created;
  auto scan = read_sections(object, co.origin_, co.normalized_);
  co.sections_ = std::move(scan.sections);
  co.text_ = *scan.text;
  const auto &rodata = scan.rodata;
  co.symbols_ = read_symbols(object, co.quirks_);

  // Kernels: every "<name>.kd" descriptor object.
  auto descriptor_bytes = [&](std::uint64_t address) -> std::span<const std::uint8_t> {
    for (const auto &s : co.sections_) {
      // Written as differences so that an address near 2^64 cannot wrap past the check.
      if (s.file_offset == 0 || address < s.address || s.size < 64 ||
          address - s.address > s.size - 64)
        continue;
      return {co.normalized_.data() + s.file_offset + (address - s.address), 64};
    }
    throw_bad_input(fmt::format("{}: kernel descriptor at {:#x} is not inside any section",
                                co.origin_, address));
  };
  auto add_kernel = [&](std::string name, std::uint64_t kd_address) {
    Kernel k;
    k.name = std::move(name);
    k.descriptor_address = kd_address;
    k.descriptor = decode_kernel_descriptor(descriptor_bytes(kd_address), co.target_);
    k.entry = kd_address + static_cast<std::uint64_t>(k.descriptor.kernel_code_entry_byte_offset);
    if (k.entry < co.text_.address || k.entry >= co.text_.address + co.text_.size)
      throw_bad_input(fmt::format("{}: kernel {} enters at {:#x}, outside .text [{:#x}, {:#x})",
                                  co.origin_, k.name, k.entry, co.text_.address,
                                  co.text_.address + co.text_.size));
    k.code_size = co.text_.address + co.text_.size - k.entry;
    for (const auto &s : co.symbols_)
      if (s.name == k.name && s.kind == Symbol::Kind::Function && s.value == k.entry && s.size)
        k.code_size = std::min(s.size, k.code_size);
    co.kernels_.push_back(std::move(k));
  };
  for (const auto &s : co.symbols_)
    if (s.kind == Symbol::Kind::Object && s.name.ends_with(".kd"))
      add_kernel(s.name.substr(0, s.name.size() - 3), s.value);
  if (co.kernels_.empty() && co.symbols_.empty() && rodata && rodata->size == 64) {
    co.quirks_.push_back("no symbols; the kernel descriptor is the 64-byte .rodata section");
    add_kernel(options.kernel_name.value_or("kernel"), rodata->address);
    // tinygrad's packer stores -len(.text) as the entry offset but aligns the descriptor to 64
    // bytes after .text, so descriptor + offset overshoots .text's start by that padding.
    auto &k = co.kernels_.back();
    if (k.entry != co.text_.address) {
      co.quirks_.push_back(
          fmt::format("the descriptor's entry offset points at {:#x}, {} bytes past "
                      ".text's start (tinygrad packer); the entry is .text's start",
                      k.entry, k.entry - co.text_.address));
      k.entry = co.text_.address;
      k.code_size = co.text_.size;
    }
  }
  std::sort(co.kernels_.begin(), co.kernels_.end(),
            [](const Kernel &a, const Kernel &b) { return a.entry < b.entry; });
  return co;
}

std::span<const std::uint8_t> CodeObject::text_bytes() const {
  return {normalized_.data() + text_.file_offset, text_.size};
}

const Kernel &CodeObject::kernel(std::string_view name) const {
  for (const auto &k : kernels_)
    if (k.name == name) return k;
  std::string names;
  for (const auto &k : kernels_) names += (names.empty() ? "" : ", ") + k.name;
  throw Error(ErrorKind::Usage, fmt::format("{}: no kernel named '{}' (kernels: {})", origin_, name,
                                            names.empty() ? "none" : names));
}

}  // namespace wavescope::compiler::isa
