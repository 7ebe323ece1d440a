// ONNX TensorProto <-> host tensor data (graph::TensorData).
//
// A TensorProto stores its elements in one of several places: raw_data
// (little-endian bytes), the typed repeated fields (float_data, int32_data
// for every type up to 32 bits including bool and float16's bit patterns,
// int64_data, double_data, uint64_data), or an external file
// (data_location EXTERNAL, with `location`, `offset` and `length` entries,
// the path relative to the model). All end as dense row-major bytes.
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>

#include "frontend/onnx/converter.h"
#include "rlx/support/diagnostic.h"

namespace rlx::frontend::onnx_impl {
namespace {

[[noreturn]] void Fail(const std::string& where, const std::string& message) {
  ThrowError(Span{}, where + ": " + message);
}

template <typename Dst, typename Src>
void AppendAs(std::vector<uint8_t>& bytes, Src value) {
  Dst converted = static_cast<Dst>(value);
  size_t offset = bytes.size();
  bytes.resize(offset + sizeof(Dst));
  std::memcpy(bytes.data() + offset, &converted, sizeof(Dst));
}

// Elements of a 32-bit-or-narrower type from int32_data.
void CopyInt32Field(const onnx::TensorProto& proto, DataType dtype, std::vector<uint8_t>& bytes) {
  for (int32_t value : proto.int32_data()) {
    switch (dtype.bits()) {
      case 8: AppendAs<uint8_t>(bytes, value); break;
      case 16: AppendAs<uint16_t>(bytes, value); break;
      default: AppendAs<int32_t>(bytes, value); break;
    }
  }
}

std::string ReadExternalData(const onnx::TensorProto& proto, const std::string& model_dir, const std::string& where) {
  std::string location;
  int64_t offset = 0;
  int64_t length = -1;
  for (const auto& entry : proto.external_data()) {
    if (entry.key() == "location") location = entry.value();
    if (entry.key() == "offset") offset = std::stoll(entry.value());
    if (entry.key() == "length") length = std::stoll(entry.value());
  }
  if (location.empty()) Fail(where, "external data of tensor '" + proto.name() + "' has no location");
  std::filesystem::path path = std::filesystem::path(model_dir) / location;
  std::ifstream file(path, std::ios::binary);
  if (!file) Fail(where, "cannot open external data file '" + path.string() + "' of tensor '" + proto.name() + "'");
  file.seekg(0, std::ios::end);
  int64_t size = file.tellg();
  if (length < 0) length = size - offset;
  if (offset < 0 || offset + length > size) {
    Fail(where, "external data file '" + path.string() + "' is too short for tensor '" + proto.name() + "'");
  }
  std::string data(static_cast<size_t>(length), '\0');
  file.seekg(offset);
  file.read(data.data(), length);
  return data;
}

}  // namespace

DataType DataTypeFromOnnx(int onnx_type, const std::string& where) {
  using T = onnx::TensorProto;
  switch (onnx_type) {
    case T::FLOAT: return DataType::Float(32);
    case T::DOUBLE: return DataType::Float(64);
    case T::FLOAT16: return DataType::Float(16);
    case T::BFLOAT16: return DataType::BFloat16();
    case T::INT8: return DataType::Int(8);
    case T::INT16: return DataType::Int(16);
    case T::INT32: return DataType::Int(32);
    case T::INT64: return DataType::Int(64);
    case T::UINT8: return DataType::UInt(8);
    case T::UINT16: return DataType::UInt(16);
    case T::UINT32: return DataType::UInt(32);
    case T::UINT64: return DataType::UInt(64);
    case T::BOOL: return DataType::Bool();
    default: break;
  }
  Fail(where, "unsupported ONNX element type " + std::to_string(onnx_type));
}

graph::TensorDataPtr TensorFromProto(const onnx::TensorProto& proto, const std::string& model_dir,
                                     const std::string& where) {
  auto data = std::make_shared<graph::TensorData>();
  data->dtype = DataTypeFromOnnx(proto.data_type(), where + ": tensor '" + proto.name() + "'");
  data->shape.assign(proto.dims().begin(), proto.dims().end());
  int64_t count = data->NumElements();
  size_t element_bytes = static_cast<size_t>((data->dtype.bits() + 7) / 8);
  if (proto.data_location() == onnx::TensorProto::EXTERNAL) {
    std::string raw = ReadExternalData(proto, model_dir, where);
    data->bytes.assign(raw.begin(), raw.end());
  } else if (proto.has_raw_data()) {
    data->bytes.assign(proto.raw_data().begin(), proto.raw_data().end());
  } else if (proto.float_data_size() > 0) {
    for (float value : proto.float_data()) AppendAs<float>(data->bytes, value);
  } else if (proto.double_data_size() > 0) {
    for (double value : proto.double_data()) AppendAs<double>(data->bytes, value);
  } else if (proto.int64_data_size() > 0) {
    for (int64_t value : proto.int64_data()) AppendAs<int64_t>(data->bytes, value);
  } else if (proto.uint64_data_size() > 0) {
    for (uint64_t value : proto.uint64_data()) AppendAs<uint64_t>(data->bytes, value);
  } else if (proto.int32_data_size() > 0) {
    CopyInt32Field(proto, data->dtype, data->bytes);
  }
  if (data->bytes.size() != static_cast<size_t>(count) * element_bytes) {
    Fail(where, "tensor '" + proto.name() + "' holds " + std::to_string(data->bytes.size()) + " bytes, its shape needs " +
                    std::to_string(static_cast<size_t>(count) * element_bytes));
  }
  return data;
}

namespace {

template <typename T>
T Load(const uint8_t* p) {
  T value;
  std::memcpy(&value, p, sizeof(T));
  return value;
}

float HalfToFloat(uint16_t h) {
  uint32_t sign = (h >> 15) & 1, exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
  float value;
  if (exponent == 0) {
    value = std::ldexp(static_cast<float>(mantissa), -24);
  } else if (exponent == 31) {
    value = mantissa ? std::numeric_limits<float>::quiet_NaN() : std::numeric_limits<float>::infinity();
  } else {
    value = std::ldexp(static_cast<float>(mantissa | 0x400), static_cast<int>(exponent) - 25);
  }
  return sign ? -value : value;
}

double ElementAsDouble(DataType dtype, const uint8_t* p) {
  if (dtype.is_bool()) return *p ? 1.0 : 0.0;
  if (dtype.is_bfloat16()) {
    uint32_t bits = static_cast<uint32_t>(Load<uint16_t>(p)) << 16;
    return Load<float>(reinterpret_cast<const uint8_t*>(&bits));
  }
  if (dtype.is_float()) {
    if (dtype.bits() == 16) return HalfToFloat(Load<uint16_t>(p));
    return dtype.bits() == 32 ? Load<float>(p) : Load<double>(p);
  }
  if (dtype.is_int()) {
    switch (dtype.bits()) {
      case 8: return Load<int8_t>(p);
      case 16: return Load<int16_t>(p);
      case 32: return Load<int32_t>(p);
      default: return static_cast<double>(Load<int64_t>(p));
    }
  }
  switch (dtype.bits()) {
    case 8: return Load<uint8_t>(p);
    case 16: return Load<uint16_t>(p);
    case 32: return Load<uint32_t>(p);
    default: return static_cast<double>(Load<uint64_t>(p));
  }
}

int64_t ElementAsInt(DataType dtype, const uint8_t* p) {
  if (dtype.is_int() && dtype.bits() == 64) return Load<int64_t>(p);
  if (dtype.is_uint() && dtype.bits() == 64) return static_cast<int64_t>(Load<uint64_t>(p));
  return static_cast<int64_t>(ElementAsDouble(dtype, p));
}

uint16_t FloatToHalf(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  uint32_t sign = (bits >> 16) & 0x8000;
  int exponent = static_cast<int>((bits >> 23) & 0xff) - 127 + 15;
  uint32_t mantissa = bits & 0x7fffff;
  if (((bits >> 23) & 0xff) == 0xff) return static_cast<uint16_t>(sign | 0x7c00 | (mantissa ? 0x200 : 0));
  if (exponent >= 31) return static_cast<uint16_t>(sign | 0x7c00);
  if (exponent <= 0) {
    if (exponent < -10) return static_cast<uint16_t>(sign);
    mantissa |= 0x800000;
    uint32_t shift = static_cast<uint32_t>(14 - exponent);
    uint32_t half = mantissa >> shift;
    if ((mantissa >> (shift - 1)) & 1) half += 1;
    return static_cast<uint16_t>(sign | half);
  }
  uint32_t half = sign | (static_cast<uint32_t>(exponent) << 10) | (mantissa >> 13);
  if (mantissa & 0x1000) half += 1;
  return static_cast<uint16_t>(half);
}

void StoreElement(DataType dtype, uint8_t* p, double value, int64_t int_value, bool from_int) {
  auto store = [&](auto typed) { std::memcpy(p, &typed, sizeof(typed)); };
  if (dtype.is_bool()) {
    *p = (from_int ? int_value != 0 : value != 0.0) ? 1 : 0;
  } else if (dtype.is_bfloat16()) {
    float f = static_cast<float>(value);
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    store(static_cast<uint16_t>((bits + 0x7fff + ((bits >> 16) & 1)) >> 16));
  } else if (dtype.is_float()) {
    if (dtype.bits() == 16) store(FloatToHalf(static_cast<float>(value)));
    else if (dtype.bits() == 32) store(static_cast<float>(value));
    else store(value);
  } else {
    int64_t v = from_int ? int_value : static_cast<int64_t>(value);
    switch (dtype.bits()) {
      case 8: store(static_cast<uint8_t>(v)); break;
      case 16: store(static_cast<uint16_t>(v)); break;
      case 32: store(static_cast<uint32_t>(v)); break;
      default: store(v); break;
    }
  }
}

graph::TensorDataPtr MakeHostImpl(DataType dtype, std::vector<int64_t> shape, size_t count,
                                  const std::function<void(uint8_t*, size_t)>& fill) {
  auto data = std::make_shared<graph::TensorData>();
  data->dtype = dtype;
  data->shape = std::move(shape);
  size_t element_bytes = static_cast<size_t>((dtype.bits() + 7) / 8);
  data->bytes.resize(count * element_bytes);
  for (size_t i = 0; i < count; ++i) fill(data->bytes.data() + i * element_bytes, i);
  return data;
}

}  // namespace

std::vector<double> HostAsDoubles(const graph::TensorData& data) {
  size_t element_bytes = static_cast<size_t>((data.dtype.bits() + 7) / 8);
  std::vector<double> values(static_cast<size_t>(data.NumElements()));
  for (size_t i = 0; i < values.size(); ++i) values[i] = ElementAsDouble(data.dtype, data.bytes.data() + i * element_bytes);
  return values;
}

std::vector<int64_t> HostAsInts(const graph::TensorData& data) {
  size_t element_bytes = static_cast<size_t>((data.dtype.bits() + 7) / 8);
  std::vector<int64_t> values(static_cast<size_t>(data.NumElements()));
  for (size_t i = 0; i < values.size(); ++i) values[i] = ElementAsInt(data.dtype, data.bytes.data() + i * element_bytes);
  return values;
}

graph::TensorDataPtr MakeHost(DataType dtype, std::vector<int64_t> shape, const std::vector<double>& values) {
  return MakeHostImpl(dtype, std::move(shape), values.size(),
                      [&](uint8_t* p, size_t i) { StoreElement(dtype, p, values[i], 0, false); });
}

graph::TensorDataPtr MakeHostInts(DataType dtype, std::vector<int64_t> shape, const std::vector<int64_t>& values) {
  return MakeHostImpl(dtype, std::move(shape), values.size(), [&](uint8_t* p, size_t i) {
    StoreElement(dtype, p, static_cast<double>(values[i]), values[i], true);
  });
}

}  // namespace rlx::frontend::onnx_impl
