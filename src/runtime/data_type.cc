// DataType and Device to and from text. The spellings match the compiler's
// printer ("float32", "int64x4", "bool") so error messages read the same at
// compile time and run time.
#include "rlx/runtime/data_type.h"

#include <charconv>

#include "rlx/runtime/device.h"
#include "rlx/runtime/error.h"

namespace rlx::runtime {

namespace {

std::string BaseName(const DataType& dtype) {
  switch (dtype.code()) {
    case DataType::kInt: return "int" + std::to_string(dtype.bits());
    case DataType::kUInt: return "uint" + std::to_string(dtype.bits());
    case DataType::kFloat: return "float" + std::to_string(dtype.bits());
    case DataType::kBFloat: return "bfloat" + std::to_string(dtype.bits());
    case DataType::kBool: return dtype.bits() == 8 ? "bool" : "";
    case DataType::kHandle: return dtype.bits() == 64 ? "handle" : "";
    default: return "";
  }
}

bool ParseNumber(std::string_view text, int* out) {
  if (text.empty()) return false;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return ec == std::errc() && ptr == text.data() + text.size();
}

bool ValidBits(DataType::Code code, int bits) {
  switch (code) {
    case DataType::kInt:
    case DataType::kUInt: return bits == 1 || bits == 4 || bits == 8 || bits == 16 || bits == 32 || bits == 64;
    case DataType::kFloat: return bits == 16 || bits == 32 || bits == 64;
    case DataType::kBFloat: return bits == 16;
    default: return false;
  }
}

std::optional<DataType> ParseScalar(std::string_view base, int lanes) {
  if (base == "bool") return DataType(DataType::kBool, 8, lanes);
  if (base == "handle") return lanes == 1 ? std::optional(DataType::Handle()) : std::nullopt;
  struct Prefix {
    std::string_view name;
    DataType::Code code;
  };
  static constexpr Prefix kPrefixes[] = {
      {"uint", DataType::kUInt}, {"int", DataType::kInt}, {"float", DataType::kFloat}, {"bfloat", DataType::kBFloat}};
  for (const Prefix& prefix : kPrefixes) {
    if (base.substr(0, prefix.name.size()) != prefix.name) continue;
    int bits = 0;
    if (!ParseNumber(base.substr(prefix.name.size()), &bits) || !ValidBits(prefix.code, bits)) return std::nullopt;
    return DataType(prefix.code, bits, lanes);
  }
  return std::nullopt;
}

}  // namespace

std::string DataType::ToString() const {
  std::string base = BaseName(*this);
  if (base.empty()) {
    return StrCat("dtype(code=", code(), ", bits=", bits(), ", lanes=", lanes(), ")");
  }
  if (lanes() != 1) base += "x" + std::to_string(lanes());
  return base;
}

std::optional<DataType> DataType::Parse(std::string_view text) {
  int lanes = 1;
  std::string_view base = text;
  size_t x = text.find('x');
  if (x != std::string_view::npos) {
    if (!ParseNumber(text.substr(x + 1), &lanes) || lanes < 2 || lanes > 65535) return std::nullopt;
    base = text.substr(0, x);
  }
  return ParseScalar(base, lanes);
}

DataType DataType::FromString(std::string_view text) {
  std::optional<DataType> dtype = Parse(text);
  if (!dtype) throw RuntimeError(StrCat("unknown dtype '", text, "'"));
  return *dtype;
}

std::string Device::ToString() const {
  std::string name;
  switch (type()) {
    case kDLCPU: name = "cpu"; break;
    case kDLCUDA: name = "cuda"; break;
    case kDLCUDAHost: name = "cuda_host"; break;
    case kDLOpenCL: name = "opencl"; break;
    case kDLVulkan: name = "vulkan"; break;
    case kDLMetal: name = "metal"; break;
    case kDLROCM: name = "rocm"; break;
    case kDLWebGPU: name = "webgpu"; break;
    default: name = StrCat("device(type=", static_cast<int>(type()), ")"); break;
  }
  return StrCat(name, ":", id());
}

}  // namespace rlx::runtime
