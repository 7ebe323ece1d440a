#include "rlx/ir/dtype.h"

#include <charconv>

namespace rlx {

std::string DataType::ToString() const {
  if (is_void()) return "";
  std::string base;
  switch (code_) {
    case kInt: base = "int" + std::to_string(bits_); break;
    case kUInt: base = "uint" + std::to_string(bits_); break;
    case kFloat: base = "float" + std::to_string(bits_); break;
    case kBFloat: base = "bfloat" + std::to_string(bits_); break;
    case kBool: base = "bool"; break;
    case kHandle: base = "handle"; break;
  }
  if (lanes_ != 1) base += "x" + std::to_string(lanes_);
  return base;
}

namespace {

bool ParseNumber(std::string_view text, int* out) {
  if (text.empty()) return false;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return ec == std::errc() && ptr == text.data() + text.size();
}

bool ValidBits(DataType::Code code, int bits) {
  switch (code) {
    case DataType::kInt:
    case DataType::kUInt: return bits == 1 || bits == 8 || bits == 16 || bits == 32 || bits == 64;
    case DataType::kFloat: return bits == 16 || bits == 32 || bits == 64;
    case DataType::kBFloat: return bits == 16;
    default: return false;
  }
}

}  // namespace

std::optional<DataType> DataType::Parse(std::string_view text) {
  int lanes = 1;
  size_t x = text.find('x');
  std::string_view base = text;
  if (x != std::string_view::npos) {
    if (!ParseNumber(text.substr(x + 1), &lanes) || lanes < 1 || lanes > 65535) return std::nullopt;
    base = text.substr(0, x);
  }
  if (base == "bool") return DataType::Bool(lanes);
  if (base == "handle") return lanes == 1 ? std::optional(DataType::Handle()) : std::nullopt;
  struct Prefix {
    std::string_view name;
    Code code;
  };
  static constexpr Prefix kPrefixes[] = {{"uint", kUInt}, {"int", kInt}, {"float", kFloat}, {"bfloat", kBFloat}};
  for (const Prefix& prefix : kPrefixes) {
    if (base.substr(0, prefix.name.size()) != prefix.name) continue;
    int bits = 0;
    if (!ParseNumber(base.substr(prefix.name.size()), &bits) || !ValidBits(prefix.code, bits)) return std::nullopt;
    return DataType(prefix.code, bits, lanes);
  }
  return std::nullopt;
}

}  // namespace rlx
