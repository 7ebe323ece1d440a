// Exact integer helpers shared by the analyzer's parts (private to arith).
//
// - Floor/trunc division and modulo on int64 with the semantics of
//   ir/expr.h. Callers guarantee a non-zero divisor and avoid the one
//   overflowing case (INT64_MIN / -1); the 128-bit variants have no such case.
// - Checked arithmetic: the canonical form's coefficients use it and throw
//   OverflowError, which the simplifier catches to keep the node unsimplified
//   (the analyzer assumes shape arithmetic does not overflow, but it must not
//   produce a wrong constant when it does).
// - Bound arithmetic: ConstIntBound's kNegInf/kPosInf are infinities. Sums
//   and products are computed in 128 bits and saturate to the infinities, so
//   a finite bound never wraps; inf * 0 is 0 (an unbounded but finite value
//   times zero is zero).
// - Dtype helpers: the value range of a dtype and two's-complement wrapping
//   of a value into a dtype.
#pragma once

#include <cstdint>

#include "rlx/arith/analyzer.h"
#include "rlx/ir/dtype.h"

namespace rlx::arith::detail {

using int128 = __int128;

// Thrown by checked operations; caught inside the simplifier only.
struct OverflowError {};

inline int64_t FloorDivInt(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}
inline int64_t FloorModInt(int64_t a, int64_t b) {
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}
inline int128 FloorDiv128(int128 a, int128 b) {
  int128 q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}
inline int128 FloorMod128(int128 a, int128 b) {
  int128 r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}

inline int64_t CheckedAdd(int64_t a, int64_t b) {
  int64_t out;
  if (__builtin_add_overflow(a, b, &out)) throw OverflowError{};
  return out;
}
inline int64_t CheckedSub(int64_t a, int64_t b) {
  int64_t out;
  if (__builtin_sub_overflow(a, b, &out)) throw OverflowError{};
  return out;
}
inline int64_t CheckedMul(int64_t a, int64_t b) {
  int64_t out;
  if (__builtin_mul_overflow(a, b, &out)) throw OverflowError{};
  return out;
}
inline int64_t CheckedNeg(int64_t a) { return CheckedSub(0, a); }

// gcd(|a|, |b|), non-negative; Gcd(0, 0) == 0. Safe for INT64_MIN: a result
// of 2^63 (only gcd(INT64_MIN, 0 or INT64_MIN)) saturates to INT64_MAX.
inline int64_t Gcd(int64_t a, int64_t b) {
  uint64_t x = a < 0 ? 0 - static_cast<uint64_t>(a) : static_cast<uint64_t>(a);
  uint64_t y = b < 0 ? 0 - static_cast<uint64_t>(b) : static_cast<uint64_t>(b);
  while (y != 0) {
    uint64_t t = x % y;
    x = y;
    y = t;
  }
  return x > static_cast<uint64_t>(INT64_MAX) ? INT64_MAX : static_cast<int64_t>(x);
}

// ---------------------------------------------------------------- bounds

inline bool IsNegInf(int64_t v) { return v == ConstIntBound::kNegInf; }
inline bool IsPosInf(int64_t v) { return v == ConstIntBound::kPosInf; }
inline bool IsInf(int64_t v) { return IsNegInf(v) || IsPosInf(v); }

// Clamps a 128-bit value to a bound value (saturating to the infinities).
inline int64_t Saturate(int128 v) {
  if (v <= static_cast<int128>(ConstIntBound::kNegInf)) return ConstIntBound::kNegInf;
  if (v >= static_cast<int128>(ConstIntBound::kPosInf)) return ConstIntBound::kPosInf;
  return static_cast<int64_t>(v);
}

inline int64_t BoundAdd(int64_t a, int64_t b) {
  if (IsInf(a)) return a;
  if (IsInf(b)) return b;
  return Saturate(static_cast<int128>(a) + b);
}
inline int64_t BoundNeg(int64_t a) {
  if (IsNegInf(a)) return ConstIntBound::kPosInf;
  if (IsPosInf(a)) return ConstIntBound::kNegInf;
  return -a;
}
inline int64_t BoundMul(int64_t a, int64_t b) {
  if (a == 0 || b == 0) return 0;
  if (IsInf(a) || IsInf(b)) return (a < 0) != (b < 0) ? ConstIntBound::kNegInf : ConstIntBound::kPosInf;
  return Saturate(static_cast<int128>(a) * b);
}

inline ConstIntBound MakeBound(int64_t lo, int64_t hi) {
  ConstIntBound b;
  b.min_value = lo;
  b.max_value = hi;
  return b;
}
inline ConstIntBound Everything() { return ConstIntBound{}; }
inline ConstIntBound Intersect(const ConstIntBound& a, const ConstIntBound& b) {
  return MakeBound(a.min_value > b.min_value ? a.min_value : b.min_value,
                   a.max_value < b.max_value ? a.max_value : b.max_value);
}
inline ConstIntBound Union(const ConstIntBound& a, const ConstIntBound& b) {
  return MakeBound(a.min_value < b.min_value ? a.min_value : b.min_value,
                   a.max_value > b.max_value ? a.max_value : b.max_value);
}
inline bool IsEmpty(const ConstIntBound& b) { return b.min_value > b.max_value; }

// ---------------------------------------------------------------- dtypes

// The values a scalar of `dtype` can hold; everything for int64, floats and
// handles (int64 shape variables are unbounded unless bound).
ConstIntBound DtypeRange(DataType dtype);

// Two's-complement wrap of `value` into `dtype` (bool: value != 0; uint64
// keeps the bit pattern). Non-integer dtypes return the value truncated to 64
// bits.
int64_t WrapToDtype(int128 value, DataType dtype);

// Whether `value` is representable in `dtype` without wrapping.
bool FitsDtype(int128 value, DataType dtype);

inline bool IsScalarInt(DataType dtype) { return dtype.is_integer() && dtype.lanes() == 1; }

}  // namespace rlx::arith::detail
