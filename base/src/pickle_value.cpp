#include "wavescope/base/pickle_value.hpp"

#include <cstdio>

#include "wavescope/base/error.hpp"

namespace wavescope::pickle {
namespace {

std::string at_offset(std::uint64_t offset) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "byte %llu (0x%llx)", static_cast<unsigned long long>(offset),
                static_cast<unsigned long long>(offset));
  return buf;
}

[[noreturn]] void wrong_kind(const Value &v, const char *wanted) {
  throw_bad_input("expected " + std::string(wanted) + " but the value made at " +
                  at_offset(v.offset()) + " is " + v.describe());
}

}  // namespace

const char *to_string(Kind kind) {
  switch (kind) {
  case Kind::None: return "None";
  case Kind::Bool: return "Bool";
  case Kind::Int: return "Int";
  case Kind::Float: return "Float";
  case Kind::Str: return "Str";
  case Kind::Bytes: return "Bytes";
  case Kind::Tuple: return "Tuple";
  case Kind::List: return "List";
  case Kind::Dict: return "Dict";
  case Kind::Set: return "Set";
  case Kind::FrozenSet: return "FrozenSet";
  case Kind::Global: return "Global";
  case Kind::Object: return "Object";
  }
  return "?";
}

bool Value::as_bool() const {
  if (kind_ == Kind::Bool) return bool_;
  if (kind_ == Kind::Int && !big_) return int_ != 0;
  wrong_kind(*this, "a bool");
}

std::int64_t Value::as_int64() const {
  if (kind_ == Kind::Bool) return bool_ ? 1 : 0;
  if (kind_ != Kind::Int) wrong_kind(*this, "an int");
  if (big_)
    throw_bad_input("the int made at " + at_offset(offset_) + " does not fit in 64 bits (" +
                    std::to_string(size_) + " bytes)");
  return int_;
}

std::uint64_t Value::as_uint64() const {
  if (kind_ == Kind::Bool) return bool_ ? 1 : 0;
  if (kind_ != Kind::Int) wrong_kind(*this, "an int");
  if (!big_) {
    if (int_ < 0)
      throw_bad_input("the int made at " + at_offset(offset_) + " is negative (" +
                      std::to_string(int_) + ")");
    return static_cast<std::uint64_t>(int_);
  }
  // Big: fits when it is non-negative and its bytes past the eighth are zero.
  bool fits = size_ > 0 && (data_[size_ - 1] & 0x80) == 0;
  for (std::size_t i = 8; fits && i < size_; ++i) fits = data_[i] == 0;
  if (!fits)
    throw_bad_input("the int made at " + at_offset(offset_) + " does not fit in 64 unsigned bits");
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < 8 && i < size_; ++i) v |= std::uint64_t{data_[i]} << (8 * i);
  return v;
}

double Value::as_double() const {
  if (kind_ == Kind::Float) return float_;
  if (kind_ == Kind::Int && !big_) return static_cast<double>(int_);
  if (kind_ == Kind::Bool) return bool_ ? 1.0 : 0.0;
  wrong_kind(*this, "a number");
}

std::string_view Value::as_str() const {
  if (kind_ != Kind::Str) wrong_kind(*this, "a str");
  return {reinterpret_cast<const char *>(data_), size_};
}

std::span<const std::uint8_t> Value::as_bytes() const {
  if (kind_ != Kind::Bytes) wrong_kind(*this, "bytes");
  return {data_, size_};
}

std::optional<std::uint64_t> Value::bytes_input_offset() const {
  if (kind_ != Kind::Bytes || !view_) return std::nullopt;
  return static_cast<std::uint64_t>(int_);
}

std::span<const std::uint8_t> Value::big_int_bytes() const {
  if (kind_ != Kind::Int || !big_) return {};
  return {data_, size_};
}

std::span<const Value *const> Value::items() const {
  switch (kind_) {
  case Kind::Tuple:
  case Kind::List:
  case Kind::Set:
  case Kind::FrozenSet: return items_;
  default: return {};
  }
}

std::size_t Value::size() const {
  if (kind_ == Kind::Dict) return items_.size() / 2;
  return items().size();
}

const Value &Value::operator[](std::size_t i) const {
  const auto elements = items();
  if (kind_ != Kind::Tuple && kind_ != Kind::List) wrong_kind(*this, "a tuple or list");
  if (i >= elements.size())
    throw_bad_input("the " + describe() + " made at " + at_offset(offset_) + " has " +
                    std::to_string(elements.size()) + " elements, element " + std::to_string(i) +
                    " was asked for");
  return *elements[i];
}

const Value *Value::find(std::string_view key) const {
  if (kind_ != Kind::Dict) return nullptr;
  for (std::size_t i = 0; i + 1 < items_.size(); i += 2)
    if (items_[i]->kind_ == Kind::Str && items_[i]->as_str() == key) return items_[i + 1];
  return nullptr;
}

std::string_view Value::module() const {
  if (kind_ != Kind::Global) return {};
  return {reinterpret_cast<const char *>(data_), size_};
}

std::string_view Value::name() const {
  if (kind_ != Kind::Global) return {};
  return {reinterpret_cast<const char *>(data2_), size2_};
}

const Value *Value::object_class() const {
  if (!object_ || !object_->callable || object_->callable->kind_ != Kind::Global) return nullptr;
  return object_->callable;
}

bool Value::is_global(std::string_view mod, std::string_view nm) const {
  const Value *g = kind_ == Kind::Global ? this : object_class();
  return g && g->module() == mod && g->name() == nm;
}

const Value *Value::arg(std::size_t i) const {
  if (!object_ || !object_->args) return nullptr;
  const auto a = object_->args->items();
  return i < a.size() ? a[i] : nullptr;
}

const Value *Value::attr(std::string_view attribute) const {
  if (!object_ || !object_->state) return nullptr;
  const Value *state = object_->state;
  if (state->kind_ == Kind::Dict) return state->find(attribute);
  // (dict or None, slots dict) for classes with __slots__.
  if (state->kind_ == Kind::Tuple && state->items_.size() == 2) {
    if (const Value *v = state->items_[0]->find(attribute)) return v;
    return state->items_[1]->find(attribute);
  }
  return nullptr;
}

std::string Value::describe() const {
  if (kind_ == Kind::Global) return "global " + std::string(module()) + "." + std::string(name());
  if (kind_ == Kind::Object) {
    if (const Value *g = object_class())
      return std::string(g->module()) + "." + std::string(g->name()) + " object";
    return "object";
  }
  return to_string(kind_);
}

}  // namespace wavescope::pickle
