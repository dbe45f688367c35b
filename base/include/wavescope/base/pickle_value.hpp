#pragma once
// The plain object tree a Python pickle stream describes (see pickle_reader.hpp): scalars,
// strings, bytes, containers, globals named by module and name, and objects as "this callable
// with these arguments, then this state". Nothing of Python runs: a class the reader has never
// heard of is only its name, its constructor arguments and its state.
//
// Nodes are owned by their PickleDocument and referred to by pointer; a node the stream memoized
// and referenced again is the same node wherever it appears (shared nodes stay shared). Strings
// and bytes point into the input where the stream stores them contiguously (zero-copy).

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace wavescope::pickle {

enum class Kind : std::uint8_t {
  None,
  Bool,
  Int,  // any size; as_int64()/as_uint64() say whether it fits
  Float,
  Str,
  Bytes,  // bytes and bytearray
  Tuple,
  List,
  Dict,
  Set,
  FrozenSet,
  Global,  // a name in a module: a class or function the stream refers to
  Object,  // the result of calling something (REDUCE, NEWOBJ, OBJ, INST), with optional state
};

const char *to_string(Kind kind);

// How an Object was made.
enum class Construction : std::uint8_t {
  Reduce,  // callable(*args)
  NewObj,  // cls.__new__(cls, *args, **kwargs)
};

class Value;

// The parts of an Object (allocated only for objects).
struct ObjectParts {
  const Value *callable = nullptr;  // usually a Global
  const Value *args = nullptr;      // a Tuple
  const Value *kwargs = nullptr;    // a Dict (NEWOBJ_EX) or nullptr
  const Value *state = nullptr;     // what BUILD gave it, or nullptr
  Construction construction = Construction::Reduce;
  std::vector<const Value *> list_items;  // APPEND/APPENDS on the object (list subclasses)
  std::vector<const Value *> dict_items;  // SETITEM(S) on the object: key, value, key, value...
};

class Value {
public:
  Kind kind() const { return kind_; }
  // Byte offset of the opcode that made this value.
  std::uint64_t offset() const { return offset_; }
  // Longest chain of containers below this value (0 for scalars).
  std::uint32_t depth() const { return depth_; }

  bool is(Kind k) const { return kind_ == k; }
  bool is_none() const { return kind_ == Kind::None; }

  // Typed access; each throws Error(BadInput) naming the value's offset when the kind is wrong.
  bool as_bool() const;
  std::int64_t as_int64() const;    // Int (fitting in 64 bits) or Bool
  std::uint64_t as_uint64() const;  // non-negative Int up to 2^64 - 1
  double as_double() const;         // Float or Int
  std::string_view as_str() const;  // Str (UTF-8 as stored)
  std::span<const std::uint8_t> as_bytes() const;
  // Where the bytes of a Bytes value start in the input, when they are a view of it.
  std::optional<std::uint64_t> bytes_input_offset() const;

  bool int_fits_int64() const { return kind_ == Kind::Int && !big_; }
  // A big Int's little-endian two's-complement bytes (empty for a small one).
  std::span<const std::uint8_t> big_int_bytes() const;

  // Tuple, List, Set, FrozenSet: the elements. Empty for other kinds.
  std::span<const Value *const> items() const;
  std::size_t size() const;                      // elements, or entries of a Dict
  const Value &operator[](std::size_t i) const;  // element i of a sequence; throws if out of range

  // Dict entries in insertion order (a repeated key keeps its first place and its last value).
  struct Entry {
    const Value *key;
    const Value *value;
  };
  std::size_t dict_size() const { return kind_ == Kind::Dict ? items_.size() / 2 : 0; }
  Entry dict_entry(std::size_t i) const { return {items_[2 * i], items_[2 * i + 1]}; }
  // The value under a string key of a Dict, nullptr when absent or not a Dict.
  const Value *find(std::string_view key) const;

  // Global: the module and the name.
  std::string_view module() const;
  std::string_view name() const;
  // True for a Global with that module and name, or an Object made by calling one.
  bool is_global(std::string_view module, std::string_view name) const;

  // Object parts; nullptr for other kinds.
  const ObjectParts *object() const { return object_.get(); }
  // The class or function an Object was made by, when that is a Global; else nullptr.
  const Value *object_class() const;
  // An Object's positional constructor argument i, nullptr when absent.
  const Value *arg(std::size_t i) const;
  // An attribute of an Object: its state dict's entry (state given as a dict, or as the
  // (dict, slots) pair of a class with __slots__). nullptr when absent.
  const Value *attr(std::string_view name) const;

  // "Str", "tinygrad.helpers.ProfileRangeEvent object", ... for messages.
  std::string describe() const;

private:
  friend class Builder;

  Kind kind_ = Kind::None;
  bool bool_ = false;
  bool big_ = false;        // Int: stored as bytes
  bool view_ = false;       // Str/Bytes data points into the input (Bytes: int_ is its offset)
  std::uint8_t visit_ = 0;  // finishing walk: 0 new, 1 on the path, 2 done
  std::uint32_t depth_ = 0;
  std::uint64_t offset_ = 0;
  std::int64_t int_ = 0;  // Int
  double float_ = 0;
  const std::uint8_t *data_ = nullptr;  // Str, Bytes, big Int, Global module
  std::size_t size_ = 0;
  const std::uint8_t *data2_ = nullptr;  // Global name
  std::size_t size2_ = 0;
  std::vector<const Value *> items_;  // sequence elements; Dict: key, value, key, value...
  std::unique_ptr<ObjectParts> object_;
};

}  // namespace wavescope::pickle
