// The runtime's element type: a C++ face on DLPack's DLDataType.
//
// Codes follow DLPack, not the compiler's rlx::DataType enum: bool is
// {kDLBool, 8, 1} here (one byte per element) and bfloat16 is {kDLBfloat, 16}.
// Strings are the same as the compiler prints them: "float32", "int64",
// "uint8", "bool", "float16", "bfloat16", "handle", with "x4" for 4 lanes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

#include "rlx/runtime/dlpack.h"

namespace rlx::runtime {

class DataType {
 public:
  enum Code : uint8_t {
    kInt = kDLInt,
    kUInt = kDLUInt,
    kFloat = kDLFloat,
    kHandle = kDLOpaqueHandle,
    kBFloat = kDLBfloat,
    kBool = kDLBool,
  };

  constexpr DataType() : DataType(kFloat, 32) {}
  constexpr DataType(Code code, int bits, int lanes = 1)
      : dl_{static_cast<uint8_t>(code), static_cast<uint8_t>(bits), static_cast<uint16_t>(lanes)} {}
  constexpr explicit DataType(DLDataType dl) : dl_(dl) {}

  static constexpr DataType Int(int bits, int lanes = 1) { return DataType(kInt, bits, lanes); }
  static constexpr DataType UInt(int bits, int lanes = 1) { return DataType(kUInt, bits, lanes); }
  static constexpr DataType Float(int bits, int lanes = 1) { return DataType(kFloat, bits, lanes); }
  static constexpr DataType BFloat16() { return DataType(kBFloat, 16); }
  static constexpr DataType Bool() { return DataType(kBool, 8); }
  static constexpr DataType Handle() { return DataType(kHandle, 64); }

  int code() const { return dl_.code; }
  int bits() const { return dl_.bits; }
  int lanes() const { return dl_.lanes; }
  // Bytes of one element (all lanes); sub-byte types round up.
  int64_t bytes() const { return (int64_t{dl_.bits} * dl_.lanes + 7) / 8; }
  bool is_byte_addressable() const { return dl_.bits % 8 == 0; }

  DLDataType dl() const { return dl_; }
  operator DLDataType() const { return dl_; }

  bool operator==(const DataType& other) const {
    return dl_.code == other.dl_.code && dl_.bits == other.dl_.bits && dl_.lanes == other.dl_.lanes;
  }
  bool operator!=(const DataType& other) const { return !(*this == other); }

  // "float32", "int8x4", "bool", "bfloat16", "handle"; unknown codes print
  // as "dtype(code=9, bits=8, lanes=1)".
  std::string ToString() const;
  // Parses the strings ToString produces; nullopt for anything else.
  static std::optional<DataType> Parse(std::string_view text);
  // Like Parse, but throws RuntimeError("unknown dtype 'x'") on failure.
  static DataType FromString(std::string_view text);

 private:
  DLDataType dl_;
};

// The DataType of a C++ element type: DataTypeOf<float>() == float32.
template <typename T>
constexpr DataType DataTypeOf() {
  if constexpr (std::is_same_v<T, bool>) {
    return DataType::Bool();
  } else if constexpr (std::is_floating_point_v<T>) {
    return DataType::Float(sizeof(T) * 8);
  } else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
    return DataType::Int(sizeof(T) * 8);
  } else if constexpr (std::is_integral_v<T> && std::is_unsigned_v<T>) {
    return DataType::UInt(sizeof(T) * 8);
  } else {
    static_assert(!sizeof(T), "no DataType for this C++ type");
  }
}

}  // namespace rlx::runtime
