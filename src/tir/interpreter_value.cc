// Number formats of the PrimFunc interpreter: integer wrapping, float
// rounding (float16 and bfloat16 emulated in double), conversions, element
// loads and stores. See interpreter_value.h.
//
// Rounding to a binary format with p significant bits: scale |x| so that the
// format's unit in the last place at x's exponent becomes 1, round to the
// nearest integer with ties to even (std::nearbyint under the default
// rounding mode), scale back. Exponents below the format's smallest normal
// exponent use its subnormal spacing; results above the largest finite value
// become infinity, as IEEE round-to-nearest does.
#include "tir/interpreter_value.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace rlx::tir::interp {
namespace {

double RoundToFormat(double x, int precision_bits, int min_normal_exp, double max_finite) {
  if (!std::isfinite(x) || x == 0.0) return x;
  int exponent = std::max(std::ilogb(x), min_normal_exp);
  double ulp = std::ldexp(1.0, exponent - (precision_bits - 1));
  double rounded = std::nearbyint(x / ulp) * ulp;
  if (std::fabs(rounded) > max_finite) return std::copysign(std::numeric_limits<double>::infinity(), x);
  return rounded;
}

constexpr double kHalfMax = 65504.0;
constexpr double kBFloat16Max = 3.3895313892515355e38;

double RoundHalf(double x) { return RoundToFormat(x, 11, -14, kHalfMax); }
double RoundBFloat16(double x) { return RoundToFormat(x, 8, -126, kBFloat16Max); }

// Float to int64 without undefined behaviour: truncate, NaN to 0, saturate.
int64_t SaturatingTrunc(double x) {
  if (std::isnan(x)) return 0;
  if (x >= 9223372036854775807.0) return std::numeric_limits<int64_t>::max();
  if (x <= -9223372036854775808.0) return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(x);
}

// Float to uint64 bits: as above, but the range is [0, 2^64).
int64_t SaturatingTruncUnsigned(double x) {
  if (std::isnan(x) || x <= 0.0) return 0;
  if (x >= 18446744073709551615.0) return -1;
  return static_cast<int64_t>(static_cast<uint64_t>(x));
}

template <typename T>
T ReadAs(const uint8_t* ptr) {
  T value;
  std::memcpy(&value, ptr, sizeof(T));
  return value;
}

template <typename T>
void WriteAs(uint8_t* ptr, T value) {
  std::memcpy(ptr, &value, sizeof(T));
}

template <typename T>
Value LoadInt(const uint8_t* ptr) {
  return Value::Int(static_cast<int64_t>(ReadAs<T>(ptr)));
}
template <typename T>
void StoreInt(uint8_t* ptr, const Value& value) {
  WriteAs<T>(ptr, static_cast<T>(static_cast<uint64_t>(value.i)));
}

Value LoadBool(const uint8_t* ptr) { return Value::Bool(*ptr != 0); }
void StoreBool(uint8_t* ptr, const Value& value) { *ptr = value.AsBool() ? 1 : 0; }
Value LoadHalf(const uint8_t* ptr) { return Value::Float(HalfBitsToDouble(ReadAs<uint16_t>(ptr))); }
void StoreHalf(uint8_t* ptr, const Value& value) { WriteAs<uint16_t>(ptr, DoubleToHalfBits(value.f)); }
Value LoadBFloat16(const uint8_t* ptr) { return Value::Float(BFloat16BitsToDouble(ReadAs<uint16_t>(ptr))); }
void StoreBFloat16(uint8_t* ptr, const Value& value) { WriteAs<uint16_t>(ptr, DoubleToBFloat16Bits(value.f)); }
Value LoadFloat32(const uint8_t* ptr) { return Value::Float(ReadAs<float>(ptr)); }
void StoreFloat32(uint8_t* ptr, const Value& value) { WriteAs<float>(ptr, static_cast<float>(value.f)); }
Value LoadFloat64(const uint8_t* ptr) { return Value::Float(ReadAs<double>(ptr)); }
void StoreFloat64(uint8_t* ptr, const Value& value) { WriteAs<double>(ptr, value.f); }

}  // namespace

int64_t WrapInt(int64_t value, DataType dtype) {
  if (dtype.is_bool()) return value != 0;
  int bits = dtype.bits();
  if (bits >= 64) return value;
  uint64_t mask = (uint64_t{1} << bits) - 1;
  uint64_t low = static_cast<uint64_t>(value) & mask;
  if (dtype.is_uint()) return static_cast<int64_t>(low);
  uint64_t sign = uint64_t{1} << (bits - 1);
  return static_cast<int64_t>((low ^ sign) - sign);
}

double RoundFloat(double value, DataType dtype) {
  if (dtype.is_bfloat16()) return RoundBFloat16(value);
  switch (dtype.bits()) {
    case 16: return RoundHalf(value);
    case 32: return static_cast<double>(static_cast<float>(value));
    default: return value;
  }
}

double ToDouble(const Value& v, DataType from) {
  switch (v.tag) {
    case Value::Tag::kFloat: return v.f;
    case Value::Tag::kBool: return v.b ? 1.0 : 0.0;
    case Value::Tag::kInt:
      if (from.is_uint() && from.bits() == 64) return static_cast<double>(static_cast<uint64_t>(v.i));
      return static_cast<double>(v.i);
  }
  return 0.0;
}

Value Convert(const Value& v, DataType from, DataType to) {
  if (to.is_bool()) return Value::Bool(v.AsBool());
  if (to.is_floating()) return Value::Float(RoundFloat(ToDouble(v, from), to));
  // An integer dtype.
  switch (v.tag) {
    case Value::Tag::kBool: return Value::Int(v.b ? 1 : 0);
    case Value::Tag::kInt: return Value::Int(WrapInt(v.i, to));
    case Value::Tag::kFloat: {
      bool unsigned_64 = to.is_uint() && to.bits() == 64;
      return Value::Int(WrapInt(unsigned_64 ? SaturatingTruncUnsigned(v.f) : SaturatingTrunc(v.f), to));
    }
  }
  return v;
}

Value MakeValue(int64_t int_value, double float_value, DataType dtype) {
  if (dtype.is_bool()) return Value::Bool(int_value != 0);
  if (dtype.is_floating()) return Value::Float(RoundFloat(float_value, dtype));
  return Value::Int(WrapInt(int_value, dtype));
}

uint16_t DoubleToHalfBits(double value) {
  uint16_t sign = std::signbit(value) ? 0x8000 : 0;
  if (std::isnan(value)) return sign | 0x7E00;
  double rounded = std::fabs(RoundHalf(value));
  if (std::isinf(rounded)) return sign | 0x7C00;
  if (rounded < std::ldexp(1.0, -14)) {  // subnormal or zero: multiples of 2^-24
    return sign | static_cast<uint16_t>(std::ldexp(rounded, 24));
  }
  int exponent = std::ilogb(rounded);
  auto mantissa = static_cast<uint16_t>(std::ldexp(rounded, 10 - exponent) - 1024.0);
  return sign | static_cast<uint16_t>((exponent + 15) << 10) | mantissa;
}

double HalfBitsToDouble(uint16_t bits) {
  double sign = (bits & 0x8000) ? -1.0 : 1.0;
  int exponent = (bits >> 10) & 0x1F;
  int mantissa = bits & 0x3FF;
  if (exponent == 0) return sign * std::ldexp(mantissa, -24);
  if (exponent == 31) return mantissa ? std::numeric_limits<double>::quiet_NaN() : sign * HUGE_VAL;
  return sign * std::ldexp(1024 + mantissa, exponent - 25);
}

uint16_t DoubleToBFloat16Bits(double value) {
  if (std::isnan(value)) return std::signbit(value) ? 0xFFC0 : 0x7FC0;
  auto rounded = static_cast<float>(RoundBFloat16(value));  // exact in float
  uint32_t bits;
  std::memcpy(&bits, &rounded, sizeof(bits));
  return static_cast<uint16_t>(bits >> 16);
}

double BFloat16BitsToDouble(uint16_t bits) {
  uint32_t wide = static_cast<uint32_t>(bits) << 16;
  float value;
  std::memcpy(&value, &wide, sizeof(value));
  return value;
}

LoadFn LoadFnFor(DataType dtype) {
  if (!dtype.is_scalar()) return nullptr;
  if (dtype.is_bool()) return LoadBool;
  if (dtype.is_bfloat16()) return dtype.bits() == 16 ? LoadBFloat16 : nullptr;
  if (dtype.is_float()) {
    switch (dtype.bits()) {
      case 16: return LoadHalf;
      case 32: return LoadFloat32;
      case 64: return LoadFloat64;
      default: return nullptr;
    }
  }
  bool is_signed = dtype.is_int();
  if (!dtype.is_integer()) return nullptr;
  switch (dtype.bits()) {
    case 8: return is_signed ? LoadInt<int8_t> : LoadInt<uint8_t>;
    case 16: return is_signed ? LoadInt<int16_t> : LoadInt<uint16_t>;
    case 32: return is_signed ? LoadInt<int32_t> : LoadInt<uint32_t>;
    case 64: return LoadInt<int64_t>;
    default: return nullptr;
  }
}

StoreFn StoreFnFor(DataType dtype) {
  if (!dtype.is_scalar()) return nullptr;
  if (dtype.is_bool()) return StoreBool;
  if (dtype.is_bfloat16()) return dtype.bits() == 16 ? StoreBFloat16 : nullptr;
  if (dtype.is_float()) {
    switch (dtype.bits()) {
      case 16: return StoreHalf;
      case 32: return StoreFloat32;
      case 64: return StoreFloat64;
      default: return nullptr;
    }
  }
  if (!dtype.is_integer()) return nullptr;
  switch (dtype.bits()) {
    case 8: return StoreInt<uint8_t>;
    case 16: return StoreInt<uint16_t>;
    case 32: return StoreInt<uint32_t>;
    case 64: return StoreInt<uint64_t>;
    default: return nullptr;
  }
}

}  // namespace rlx::tir::interp
