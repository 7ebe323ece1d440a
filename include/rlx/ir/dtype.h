// Scalar and vector data types.
//
// A DataType is (code, bits, lanes), as in DLPack: int32 is (kInt, 32, 1),
// float32x4 is (kFloat, 32, 4), bool is (kBool, 8, 1) in memory but prints as
// "bool", handle is (kHandle, 64, 1). A "void" type (kHandle, 0, 0) marks
// "no value" (e.g. an unknown tensor dtype prints as nothing).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace rlx {

class DataType {
 public:
  enum Code : uint8_t { kInt = 0, kUInt = 1, kFloat = 2, kHandle = 3, kBFloat = 4, kBool = 5 };

  constexpr DataType() : code_(kHandle), bits_(0), lanes_(0) {}
  constexpr DataType(Code code, int bits, int lanes = 1)
      : code_(code), bits_(static_cast<uint8_t>(bits)), lanes_(static_cast<uint16_t>(lanes)) {}

  static constexpr DataType Int(int bits, int lanes = 1) { return DataType(kInt, bits, lanes); }
  static constexpr DataType UInt(int bits, int lanes = 1) { return DataType(kUInt, bits, lanes); }
  static constexpr DataType Float(int bits, int lanes = 1) { return DataType(kFloat, bits, lanes); }
  static constexpr DataType BFloat16(int lanes = 1) { return DataType(kBFloat, 16, lanes); }
  static constexpr DataType Bool(int lanes = 1) { return DataType(kBool, 8, lanes); }
  static constexpr DataType Handle() { return DataType(kHandle, 64, 1); }
  static constexpr DataType Void() { return DataType(); }
  static constexpr DataType Int64() { return Int(64); }
  static constexpr DataType Int32() { return Int(32); }
  static constexpr DataType Float32() { return Float(32); }

  Code code() const { return code_; }
  int bits() const { return bits_; }
  int lanes() const { return lanes_; }
  int bytes() const { return (bits_ + 7) / 8; }

  bool is_void() const { return code_ == kHandle && bits_ == 0; }
  bool is_int() const { return code_ == kInt; }
  bool is_uint() const { return code_ == kUInt; }
  bool is_bool() const { return code_ == kBool; }
  bool is_float() const { return code_ == kFloat; }
  bool is_bfloat16() const { return code_ == kBFloat; }
  bool is_handle() const { return code_ == kHandle && bits_ != 0; }
  // int or uint (not bool).
  bool is_integer() const { return code_ == kInt || code_ == kUInt; }
  // float or bfloat.
  bool is_floating() const { return code_ == kFloat || code_ == kBFloat; }
  bool is_scalar() const { return lanes_ == 1; }
  bool is_vector() const { return lanes_ > 1; }

  DataType element_of() const { return DataType(code_, bits_, 1); }
  DataType with_lanes(int lanes) const { return DataType(code_, bits_, lanes); }

  bool operator==(const DataType& other) const {
    return code_ == other.code_ && bits_ == other.bits_ && lanes_ == other.lanes_;
  }
  bool operator!=(const DataType& other) const { return !(*this == other); }

  // "float32", "int64x4", "bool", "handle", "" for void.
  std::string ToString() const;
  // Parses the strings ToString produces (and "float", "int" shorthands are
  // NOT accepted); nullopt for anything else.
  static std::optional<DataType> Parse(std::string_view text);

 private:
  Code code_;
  uint8_t bits_;
  uint16_t lanes_;
};

}  // namespace rlx
