// Scalar values and number formats of the PrimFunc interpreter (private to
// the tir layer).
//
// A Value is a tagged union: kInt holds every integer dtype (uint64 as its
// bit pattern), kFloat every floating dtype (float16/bfloat16/float32 values
// are doubles already rounded to their format), kBool a bool. The dtype of
// each expression is known when the interpreter compiles it, so the
// operations below take it as a parameter instead of storing it per value.
#pragma once

#include <cstdint>

#include "rlx/ir/dtype.h"

namespace rlx::tir::interp {

struct Value {
  enum class Tag : uint8_t { kInt, kFloat, kBool };
  Tag tag = Tag::kInt;
  union {
    int64_t i = 0;
    double f;
    bool b;
  };

  static Value Int(int64_t v) {
    Value value;
    value.i = v;
    return value;
  }
  static Value Float(double v) {
    Value value;
    value.tag = Tag::kFloat;
    value.f = v;
    return value;
  }
  static Value Bool(bool v) {
    Value value;
    value.tag = Tag::kBool;
    value.b = v;
    return value;
  }

  bool AsBool() const { return tag == Tag::kBool ? b : tag == Tag::kInt ? i != 0 : f != 0.0; }
};

// `value` wrapped to the integer (or bool: 0/1) dtype, two's complement.
int64_t WrapInt(int64_t value, DataType dtype);
// `value` rounded to the nearest value of a floating dtype (ties to even).
double RoundFloat(double value, DataType dtype);
// The value of `v` (of dtype `from`) as a double; uint64 read unsigned.
double ToDouble(const Value& v, DataType from);
// `v` of dtype `from` converted to `to` (see interpreter.h for float to int).
Value Convert(const Value& v, DataType from, DataType to);
// The zero Value of a dtype's tag.
Value MakeValue(int64_t int_value, double float_value, DataType dtype);

// 16-bit float formats.
uint16_t DoubleToHalfBits(double value);
double HalfBitsToDouble(uint16_t bits);
uint16_t DoubleToBFloat16Bits(double value);
double BFloat16BitsToDouble(uint16_t bits);

// Element load and store for a scalar dtype, chosen once per access site.
using LoadFn = Value (*)(const uint8_t* ptr);
using StoreFn = void (*)(uint8_t* ptr, const Value& value);
// nullptr when the dtype has no element representation (void, handle,
// vectors, unusual widths).
LoadFn LoadFnFor(DataType dtype);
StoreFn StoreFnFor(DataType dtype);

}  // namespace rlx::tir::interp
