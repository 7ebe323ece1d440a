// Dtype ranges and wrapping for the analyzer (see int_math.h).
#include "arith/int_math.h"

namespace rlx::arith::detail {

ConstIntBound DtypeRange(DataType dtype) {
  if (dtype.is_bool()) return MakeBound(0, 1);
  if (dtype.is_int() && dtype.bits() < 64 && dtype.bits() > 0) {
    int64_t half = int64_t{1} << (dtype.bits() - 1);
    return MakeBound(-half, half - 1);
  }
  if (dtype.is_uint()) {
    if (dtype.bits() < 64 && dtype.bits() > 0) return MakeBound(0, (int64_t{1} << dtype.bits()) - 1);
    return MakeBound(0, ConstIntBound::kPosInf);
  }
  return Everything();
}

int64_t WrapToDtype(int128 value, DataType dtype) {
  if (dtype.is_bool()) return value != 0 ? 1 : 0;
  uint64_t bits = static_cast<uint64_t>(value);  // low 64 bits, two's complement
  int width = dtype.bits();
  if (!dtype.is_integer() || width >= 64 || width <= 0) return static_cast<int64_t>(bits);
  uint64_t mask = (uint64_t{1} << width) - 1;
  bits &= mask;
  if (dtype.is_int() && (bits >> (width - 1)) != 0) bits |= ~mask;  // sign-extend
  return static_cast<int64_t>(bits);
}

bool FitsDtype(int128 value, DataType dtype) {
  if (dtype.is_bool()) return value == 0 || value == 1;
  if (dtype.is_uint() && dtype.bits() >= 64) return value >= 0 && value <= static_cast<int128>(UINT64_MAX);
  if (!dtype.is_integer() || dtype.bits() >= 64) {
    return value >= static_cast<int128>(INT64_MIN) && value <= static_cast<int128>(INT64_MAX);
  }
  ConstIntBound range = DtypeRange(dtype);
  return value >= range.min_value && value <= range.max_value;
}

}  // namespace rlx::arith::detail
