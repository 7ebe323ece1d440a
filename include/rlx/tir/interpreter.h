// A reference interpreter for PrimFuncs: the test oracle for everything that
// produces or transforms tensor programs (TE, legalization, fusion,
// scheduling, codegen).
//
//   HostTensor x(DataType::Float32(), {7, 4}), y(DataType::Float32(), {7, 4});
//   ... fill x ...
//   RunPrimFunc(relu, {&x, &y});     // inputs then outputs, then scalars
//
// Semantics:
// - Arguments bind to parameters in order. A buffer_map parameter takes a
//   HostTensor: its dtype and rank must match, and its dimensions bind the
//   buffer's shape. A bare symbolic dimension (`n`) is defined by its first
//   appearance (scalar parameters come first, then buffers in parameter
//   order); every other dimension is checked against the actual size, e.g.
//   "buffer A: expected dimension 1 to be 4 (n * 4 with n = 1), got 5".
//   Declared strides and element offsets must describe the compact layout.
// - Statements run as written; loops of every kind run sequentially. A
//   BlockRealize binds the iteration variables, skips the block when the
//   predicate is false, checks each value lies in its domain, allocates the
//   block's buffers, binds match_buffers as views, and runs `init` when every
//   reduce iteration variable is at its domain's minimum.
// - Expressions follow include/rlx/ir/expr.h: integers wrap in their dtype;
//   floordiv/floormod round towards negative infinity, Div/Mod towards zero;
//   float16 and bfloat16 are computed in double and rounded (to nearest even)
//   to their format after every operation, like float32; Select evaluates
//   both arms, if_then_else only the chosen one; And/Or evaluate both sides
//   (as compiled code does). Float-to-integer casts truncate; NaN becomes 0
//   and out-of-range values saturate at the int64 range before wrapping.
// - Buffers the program allocates (alloc_buffer, Allocate, an allocating
//   DeclBuffer) start filled with 0xFF bytes (NaN for floats, -1 for
//   integers), so a program that reads before it writes gives visibly wrong
//   results instead of accidentally right ones.
// - Every failure is a CompileError, never undefined behaviour: out-of-bounds
//   accesses (naming the buffer, the index and the shape), integer division
//   by zero, a failed AssertStmt (its message), an unbound variable, a
//   mismatched argument, an unsupported construct (vector lanes, extern
//   calls).
//
// Design: the PrimFunc is compiled once into a tree of closures in which
// every variable, buffer and storage is a slot index into flat per-run
// tables, so evaluation does no map lookups and no per-element allocation.
// Values are a tagged union (int64 / double / bool). Interpreter keeps the
// compiled form for repeated runs (several sizes of the same function).
#pragma once

#include <cstdint>
#include <memory>
#include <variant>
#include <vector>

#include "rlx/ir/dtype.h"
#include "rlx/tir/function.h"

namespace rlx::tir {

// A compact row-major tensor in host memory. float16 and bfloat16 elements
// are stored as their 16-bit encodings, bool as one byte.
struct HostTensor {
  DataType dtype;
  std::vector<int64_t> shape;
  std::vector<uint8_t> data;

  HostTensor() = default;
  // A zero-filled tensor.
  HostTensor(DataType dtype, std::vector<int64_t> shape);
  // A tensor holding `values` (converted like SetFloat), row-major.
  static HostTensor FromDoubles(DataType dtype, std::vector<int64_t> shape, const std::vector<double>& values);

  int64_t num_elements() const;
  // The row-major position of `index` (checked against the shape).
  int64_t FlatIndex(const std::vector<int64_t>& index) const;

  // Element access by flat position. GetFloat reads any dtype as double;
  // SetFloat rounds to the dtype (integers truncate towards zero).
  double GetFloat(int64_t flat) const;
  void SetFloat(int64_t flat, double value);
  // Integer and bool dtypes only; SetInt wraps to the dtype.
  int64_t GetInt(int64_t flat) const;
  void SetInt(int64_t flat, int64_t value);
  // Shorthands by multi-dimensional index.
  double At(const std::vector<int64_t>& index) const { return GetFloat(FlatIndex(index)); }
  void Set(const std::vector<int64_t>& index, double value) { SetFloat(FlatIndex(index), value); }

  void Fill(double value);
  std::vector<double> ToDoubles() const;

  // The elements as T; T's size must match the dtype's.
  template <typename T>
  T* typed_data() {
    CheckElementSize(sizeof(T));
    return reinterpret_cast<T*>(data.data());
  }
  template <typename T>
  const T* typed_data() const {
    CheckElementSize(sizeof(T));
    return reinterpret_cast<const T*>(data.data());
  }

 private:
  void CheckElementSize(size_t size) const;
};

// One argument of a call: a tensor (not owned; written in place when it is
// an output) or a scalar.
class ArgValue {
 public:
  ArgValue(HostTensor* tensor) : value_(tensor) {}  // NOLINT: implicit
  ArgValue(HostTensor& tensor) : value_(&tensor) {}  // NOLINT: implicit
  ArgValue(int64_t value) : value_(value) {}        // NOLINT: implicit
  ArgValue(int value) : value_(int64_t{value}) {}   // NOLINT: implicit
  ArgValue(double value) : value_(value) {}         // NOLINT: implicit

  HostTensor* tensor() const { return is_tensor() ? std::get<HostTensor*>(value_) : nullptr; }
  bool is_tensor() const { return std::holds_alternative<HostTensor*>(value_); }
  bool is_int() const { return std::holds_alternative<int64_t>(value_); }
  bool is_float() const { return std::holds_alternative<double>(value_); }
  int64_t int_value() const { return std::get<int64_t>(value_); }
  double float_value() const { return std::get<double>(value_); }

 private:
  std::variant<HostTensor*, int64_t, double> value_;
};

namespace interp {
class CompiledFunc;
}

// A PrimFunc compiled for interpretation. Construction checks the whole body
// (unbound variables, unsupported constructs) and throws CompileError.
class Interpreter {
 public:
  explicit Interpreter(const PrimFunc& func);
  ~Interpreter();
  Interpreter(const Interpreter&) = delete;
  Interpreter& operator=(const Interpreter&) = delete;

  // Runs the function on `args` (inputs, outputs, then scalars).
  void Run(const std::vector<ArgValue>& args) const;

 private:
  std::unique_ptr<interp::CompiledFunc> compiled_;
};

// Compiles and runs `func` once.
void RunPrimFunc(const PrimFunc& func, const std::vector<ArgValue>& args);

}  // namespace rlx::tir
