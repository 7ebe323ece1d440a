// Type-erased functions and the values they exchange.
//
// Design (after TVM's PackedFunc, our own code):
// - A Value is a tagged value: null, int (int64), float (double), bool,
//   string, dtype, device, NDArray, shape (a tuple of int64), array (of
//   Values), object (an opaque ObjectPtr: Storage, later KV caches and
//   closures) or function (a PackedFunc). Copying a Value is cheap: strings,
//   shapes and arrays are immutable and shared.
// - A PackedFunc takes its arguments as one span of Values (Args) and returns
//   one Value, so the VM, builtins, loaded kernels and tests all call each
//   other through a single signature. Args has typed accessors that check the
//   tag and raise, e.g.
//     argument 1 of 'vm.builtin.alloc_storage': expected int, got NDArray
//   (arguments are numbered from 0, like Args[i]).
// - Whatever a function body throws reaches the caller as a RuntimeError: a
//   RuntimeError passes through unchanged, any other exception is wrapped
//   with the function's name. Nothing aborts.
// - Registry: a process-wide, thread-safe table name -> PackedFunc for
//   builtins ("vm.builtin.alloc_storage") and user callbacks. Register
//   explicitly from an init function: static registration objects in a
//   static library are dropped by the linker when nothing references them.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include "rlx/runtime/data_type.h"
#include "rlx/runtime/device.h"
#include "rlx/runtime/error.h"
#include "rlx/runtime/ndarray.h"
#include "rlx/runtime/object.h"

namespace rlx::runtime {

class Args;
class Value;

class PackedFunc {
 public:
  using Body = std::function<Value(const Args&)>;

  // A null function: calling it is a RuntimeError.
  PackedFunc() = default;
  PackedFunc(std::nullptr_t) {}
  // `name` appears in argument errors ("argument 0 of 'name'").
  PackedFunc(std::string name, Body body);

  Value CallPacked(std::span<const Value> args) const;
  template <typename... Ts>
  Value operator()(Ts&&... args) const;

  const std::string& name() const;
  bool defined() const { return impl_ != nullptr; }
  explicit operator bool() const { return defined(); }
  bool operator==(std::nullptr_t) const { return impl_ == nullptr; }
  // Identity: two handles to the same function.
  bool SameAs(const PackedFunc& other) const { return impl_ == other.impl_; }

 private:
  struct Impl {
    std::string name;
    Body body;
  };
  std::shared_ptr<const Impl> impl_;
};

class Value {
 public:
  enum class Kind { kNull, kInt, kFloat, kBool, kString, kDtype, kDevice, kNDArray, kShape, kArray, kObject, kFunc };

  Value() = default;
  Value(std::nullptr_t) {}
  // Every integer type becomes an int64.
  template <typename T>
    requires(std::is_integral_v<T> && !std::is_same_v<T, bool>)
  Value(T value) : data_(static_cast<int64_t>(value)) {}
  Value(double value) : data_(value) {}
  Value(float value) : data_(static_cast<double>(value)) {}
  Value(bool value) : data_(value) {}
  Value(std::string value) : data_(std::make_shared<const std::string>(std::move(value))) {}
  Value(const char* value) : Value(std::string(value)) {}
  Value(DataType value) : data_(value) {}
  Value(Device value) : data_(value) {}
  Value(NDArray value) : data_(std::move(value)) {}
  Value(ShapeTuple value) : data_(std::make_shared<const ShapeTuple>(std::move(value))) {}
  Value(std::vector<Value> value) : data_(std::make_shared<const std::vector<Value>>(std::move(value))) {}
  Value(ObjectPtr value) : data_(std::move(value)) {}
  template <typename T>
    requires std::is_base_of_v<Object, T>
  Value(std::shared_ptr<T> value) : data_(ObjectPtr(std::move(value))) {}
  Value(PackedFunc value) : data_(std::move(value)) {}

  Kind kind() const { return static_cast<Kind>(data_.index()); }
  bool is_null() const { return kind() == Kind::kNull; }
  // "null", "int", "float", "bool", "string", "dtype", "device", "NDArray",
  // "shape", "array", the object's type_name(), "function".
  std::string type_name() const;
  // A short rendering for messages: 3, 2.5, True, "text", float32, cpu:0,
  // NDArray((2, 3), float32, cpu:0), shape (2, 3), [1, "a"], Storage,
  // function 'f'.
  std::string ToString() const;

  // Unchecked-by-kind accessors that throw RuntimeError("expected int, got
  // NDArray") on a mismatch; Args gives better messages inside functions.
  int64_t AsInt() const;
  double AsFloat() const;
  bool AsBool() const;
  const std::string& AsString() const;
  DataType AsDtype() const;
  Device AsDevice() const;
  const NDArray& AsNDArray() const;
  const ShapeTuple& AsShape() const;
  const std::vector<Value>& AsArray() const;
  const ObjectPtr& AsObject() const;
  const PackedFunc& AsFunc() const;

 private:
  // The accepted conversions, shared by As* and Args::Get*: nullptr / nullopt
  // on a mismatch.
  std::optional<int64_t> TryInt() const;
  std::optional<double> TryFloat() const;
  std::optional<bool> TryBool() const;
  template <typename T>
  const T* TryGet() const {
    return std::get_if<T>(&data_);
  }
  template <typename T>
  const T* TryGetShared() const {
    const auto* ptr = std::get_if<std::shared_ptr<const T>>(&data_);
    return ptr ? ptr->get() : nullptr;
  }

  // The variant's alternative order must match Kind.
  std::variant<std::monostate, int64_t, double, bool, std::shared_ptr<const std::string>, DataType, Device, NDArray,
               std::shared_ptr<const ShapeTuple>, std::shared_ptr<const std::vector<Value>>, ObjectPtr, PackedFunc>
      data_;

  friend class Args;
};

class Args {
 public:
  Args(std::span<const Value> values, std::string_view func_name) : values_(values), func_name_(func_name) {}

  int64_t size() const { return static_cast<int64_t>(values_.size()); }
  // Argument i; RuntimeError when the call has fewer arguments.
  const Value& operator[](int64_t i) const;
  std::span<const Value> values() const { return values_; }
  std::string_view func_name() const { return func_name_; }

  // RuntimeError "'f' expects 2 arguments, got 3" unless size() == count.
  void CheckCount(int64_t count) const;

  // Typed getters: RuntimeError naming the argument, the function, the
  // expected and the actual type on a mismatch. Int accepts bool; Float
  // accepts int; Bool accepts int.
  int64_t GetInt(int64_t i) const;
  double GetFloat(int64_t i) const;
  bool GetBool(int64_t i) const;
  const std::string& GetString(int64_t i) const;
  DataType GetDtype(int64_t i) const;
  Device GetDevice(int64_t i) const;
  const NDArray& GetNDArray(int64_t i) const;
  const ShapeTuple& GetShape(int64_t i) const;
  const std::vector<Value>& GetArray(int64_t i) const;
  const ObjectPtr& GetObject(int64_t i) const;
  const PackedFunc& GetFunc(int64_t i) const;
  // An object of dynamic type T (T declares kTypeName).
  template <typename T>
  std::shared_ptr<T> GetObjectAs(int64_t i) const;

  [[noreturn]] void ThrowTypeMismatch(int64_t i, std::string_view expected) const;

 private:
  std::span<const Value> values_;
  std::string_view func_name_;
};

// The process-wide table of named functions.
class Registry {
 public:
  // Registers `func` under `name` (and renames nothing: func keeps its own
  // name for messages). RuntimeError if the name is taken, unless
  // `override_existing`.
  static void Register(const std::string& name, PackedFunc func, bool override_existing = false);
  // Shorthand: wraps `body` in a PackedFunc called `name`.
  static void Register(const std::string& name, PackedFunc::Body body, bool override_existing = false);
  // The function registered under `name`, or a null PackedFunc (== nullptr).
  static PackedFunc Get(const std::string& name);
  // Like Get, but RuntimeError "no function 'x' is registered" if absent.
  static PackedFunc GetRequired(const std::string& name);
  // Removes `name`; returns whether it was registered.
  static bool Remove(const std::string& name);
  // All registered names, sorted.
  static std::vector<std::string> ListNames();
};

template <typename... Ts>
Value PackedFunc::operator()(Ts&&... args) const {
  const Value values[] = {Value(std::forward<Ts>(args))..., Value()};
  return CallPacked(std::span<const Value>(values, sizeof...(Ts)));
}

template <typename T>
std::shared_ptr<T> Args::GetObjectAs(int64_t i) const {
  const Value& value = (*this)[i];
  if (value.kind() == Value::Kind::kObject) {
    if (auto object = std::dynamic_pointer_cast<T>(value.AsObject())) return object;
  }
  ThrowTypeMismatch(i, T::kTypeName);
}

}  // namespace rlx::runtime
