// AMDHSA kernel metadata from a code object's note (kernel_metadata.hpp).

#include "wavescope/compiler/codegen/kernel_metadata.hpp"

#include <algorithm>
#include <optional>

#include <fmt/format.h>
#include <llvm/BinaryFormat/ELF.h>
#include <llvm/BinaryFormat/MsgPackDocument.h>
#include <llvm/Object/ELF.h>

#include "wavescope/base/error.hpp"

namespace wavescope::compiler::codegen {
namespace {

namespace msgpack = llvm::msgpack;

class Reader {
public:
  explicit Reader(const std::string &origin) : origin_(origin) {}

  Error fail(const std::string &what) const {
    return Error(ErrorKind::BadInput, fmt::format("{}: AMDGPU metadata note: {}", origin_, what));
  }

  const msgpack::DocNode *find(const msgpack::DocNode &map, const char *key) const {
    if (!map.isMap()) return nullptr;
    auto &m = const_cast<msgpack::DocNode &>(map).getMap();
    auto it = m.find(llvm::StringRef(key));
    return it == m.end() ? nullptr : &it->second;
  }
  std::string string(const msgpack::DocNode &map, const char *key, bool required) const {
    const auto *n = find(map, key);
    if (!n) {
      if (required) throw fail(fmt::format("no '{}'", key));
      return {};
    }
    if (!n->isString()) throw fail(fmt::format("'{}' is not a string", key));
    return n->getString().str();
  }
  static std::optional<std::int64_t> number(const msgpack::DocNode &n) {
    if (n.getKind() == msgpack::Type::UInt) return static_cast<std::int64_t>(n.getUInt());
    if (n.getKind() == msgpack::Type::Int) return n.getInt();
    return std::nullopt;
  }
  std::uint32_t u32(const msgpack::DocNode &map, const char *key, bool required) const {
    const auto *n = find(map, key);
    if (!n) {
      if (required) throw fail(fmt::format("no '{}'", key));
      return 0;
    }
    const auto v = number(*n);
    if (!v || *v < 0 || *v > 0xFFFFFFFF)
      throw fail(fmt::format("'{}' is not a 32-bit unsigned number", key));
    return static_cast<std::uint32_t>(*v);
  }

  KernelMetadata kernel(const msgpack::DocNode &k) const {
    if (!k.isMap()) throw fail("a kernel entry that is not a map");
    KernelMetadata m;
    m.name = string(k, ".name", true);
    m.symbol = string(k, ".symbol", true);
    m.kernarg_segment_size = u32(k, ".kernarg_segment_size", true);
    m.group_segment_fixed_size = u32(k, ".group_segment_fixed_size", true);
    m.private_segment_fixed_size = u32(k, ".private_segment_fixed_size", true);
    m.wavefront_size = u32(k, ".wavefront_size", true);
    if (const auto *args = find(k, ".args")) {
      if (!args->isArray()) throw fail(m.name + ": '.args' is not an array");
      for (const auto &a : const_cast<msgpack::DocNode &>(*args).getArray()) {
        if (!a.isMap()) throw fail(m.name + ": an argument that is not a map");
        m.args.push_back({string(a, ".name", false), string(a, ".value_kind", true),
                          u32(a, ".offset", true), u32(a, ".size", true)});
      }
    }
    if (const auto *reqd = find(k, ".reqd_workgroup_size")) {
      if (!reqd->isArray() || const_cast<msgpack::DocNode &>(*reqd).getArray().size() != 3)
        throw fail(m.name + ": '.reqd_workgroup_size' is not three numbers");
      auto &arr = const_cast<msgpack::DocNode &>(*reqd).getArray();
      for (std::size_t d = 0; d < 3; ++d) {
        const auto v = number(arr[d]);
        if (!v) throw fail(m.name + ": '.reqd_workgroup_size' is not three numbers");
        m.reqd_workgroup_size[d] = *v;
      }
    }
    return m;
  }

private:
  const std::string &origin_;
};

}  // namespace

std::vector<KernelMetadata> read_kernel_metadata(std::span<const std::uint8_t> code_object,
                                                 const std::string &origin) {
  const Reader reader(origin);
  const auto &magic = llvm::ELF::ElfMagic;
  if (code_object.size() < llvm::ELF::EI_NIDENT ||
      !std::equal(magic, magic + 4, code_object.begin()) ||
      code_object[llvm::ELF::EI_CLASS] != llvm::ELF::ELFCLASS64 ||
      code_object[llvm::ELF::EI_DATA] != llvm::ELF::ELFDATA2LSB)
    throw Error(
        ErrorKind::BadInput,
        fmt::format("{}: not an ELF64 code object (no little-endian ELF64 header)", origin));
  auto elf = llvm::object::ELF64LEFile::create(
      llvm::StringRef(reinterpret_cast<const char *>(code_object.data()), code_object.size()));
  if (!elf)
    throw Error(ErrorKind::BadInput, fmt::format("{}: not an ELF64 code object: {}", origin,
                                                 llvm::toString(elf.takeError())));
  auto headers = elf->program_headers();
  if (!headers)
    throw Error(ErrorKind::BadInput, fmt::format("{}: unreadable program headers: {}", origin,
                                                 llvm::toString(headers.takeError())));
  for (const auto &phdr : *headers) {
    if (phdr.p_type != llvm::ELF::PT_NOTE) continue;
    llvm::Error err = llvm::Error::success();
    for (const auto &note : elf->notes(phdr, err)) {
      if (note.getName() != "AMDGPU" || note.getType() != llvm::ELF::NT_AMDGPU_METADATA) continue;
      msgpack::Document doc;
      if (!doc.readFromBlob(note.getDescAsStringRef(4), false))
        throw reader.fail("not MessagePack");
      const auto *kernels = reader.find(doc.getRoot(), "amdhsa.kernels");
      if (!kernels || !kernels->isArray()) throw reader.fail("no 'amdhsa.kernels' array");
      std::vector<KernelMetadata> out;
      for (const auto &k : const_cast<msgpack::DocNode &>(*kernels).getArray())
        out.push_back(reader.kernel(k));
      llvm::consumeError(std::move(err));
      return out;
    }
    if (err)
      throw Error(ErrorKind::BadInput,
                  fmt::format("{}: unreadable notes: {}", origin, llvm::toString(std::move(err))));
  }
  throw Error(ErrorKind::BadInput, fmt::format("{}: no AMDGPU metadata note", origin));
}

}  // namespace wavescope::compiler::codegen
