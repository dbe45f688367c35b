#pragma once
// A reader of Python pickle streams (protocols 0 to 5) that needs no Python and runs nothing.
//
// It interprets the pickle virtual machine's opcodes into the plain object tree of
// pickle_value.hpp: globals by module and name, objects as callable + arguments + state, memoized
// references shared. A few reductions that only describe data are read as that data rather than
// as calls: `_codecs.encode(str, "latin1")` (how protocol 2 stores bytes) and
// `builtins.bytearray(...)` become Bytes, `builtins.set/frozenset(list)` become sets, and
// `copyreg._reconstructor(cls, base, state)` becomes an object of class `cls`. Everything else is
// kept as written: an unknown class is a name with its arguments, so files written by any version
// of any program read the same.
//
// Bad input never crashes, hangs or allocates without bound: a truncated stream, an unknown or
// unsupported opcode (persistent ids, the extension registry, out-of-band buffers), a memo index
// never stored, a length past the end of the input, a stack underflow, a cyclic object graph or
// one nested deeper than ReadLimits::max_depth each throw Error(BadInput) whose message names the
// source, the byte offset (decimal and hex) and the opcode. Work and memory are linear in the
// input's size.

#include <cstdint>
#include <deque>
#include <filesystem>
#include <memory>
#include <span>
#include <string>

#include "wavescope/base/pickle_value.hpp"

namespace wavescope::pickle {

struct ReadLimits {
  std::uint32_t max_depth = 10000;     // nesting of containers and objects
  std::uint64_t max_nodes = 1u << 30;  // values created
};

struct ReadOptions {
  std::string source_name;  // names the input in errors, e.g. the file's path
  ReadLimits limits;
};

class PickleDocument {
public:
  // Reads a stream held in memory. The document refers into `bytes` (strings and bytes are views
  // of it); `owner`, if given, keeps that memory alive for as long as the document lives.
  static PickleDocument parse(std::span<const std::uint8_t> bytes, const ReadOptions &options = {},
                              std::shared_ptr<const void> owner = {});
  // Maps a file read-only and reads it; the document keeps the mapping.
  static PickleDocument load(const std::filesystem::path &path, ReadOptions options = {});

  PickleDocument(PickleDocument &&) noexcept;
  PickleDocument &operator=(PickleDocument &&) noexcept;
  ~PickleDocument();

  // The value the stream's STOP returned.
  const Value &root() const { return *root_; }
  // The highest protocol the stream declared (PROTO), 0 if it declared none.
  int protocol() const { return protocol_; }
  std::size_t node_count() const;
  const std::string &source_name() const { return source_name_; }
  // The input; views in the tree point into it.
  std::span<const std::uint8_t> input() const { return input_; }
  // Keeps the input alive (hand it to whoever keeps a view past the document's life).
  const std::shared_ptr<const void> &input_owner() const { return owner_; }

private:
  friend class Builder;
  PickleDocument();

  struct Storage;
  std::unique_ptr<Storage> storage_;
  const Value *root_ = nullptr;
  int protocol_ = 0;
  std::string source_name_;
  std::span<const std::uint8_t> input_;
  std::shared_ptr<const void> owner_;
};

}  // namespace wavescope::pickle
