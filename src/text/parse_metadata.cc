// TVM's metadata section (see parser_context.h, ReadMetadata).
//
// TVM prints what it cannot write inline (tensor constants, mostly) into a
// `metadata = tvm.ir.load_json("""{...}""")` header and refers to it as
// `metadata["relax.expr.Constant"][i]`. The JSON is TVM's object-graph
// serialization: "nodes" is a flat list, "root" the index of a Map whose
// keys are type names and whose values index Arrays of node indices; a
// relax.expr.Constant node's "data" attribute indexes "b64ndarrays", each a
// base64 NDArray in TVM's binary layout:
//   u64 magic 0xDD5E40F096B4A13F, u64 reserved, i32 device_type,
//   i32 device_id, i32 ndim, u8 type_code, u8 bits, u16 lanes,
//   i64 shape[ndim], i64 byte_size, byte_size bytes of data.
// Only relax.expr.Constant entries are read (into graph Constants); other
// kinds are kept as names so that a reference to them says what is missing.
//
// The JSON reader is a small recursive-descent parser over the subset that
// the serialization uses (objects, arrays, strings, numbers, literals).
#include <fmt/format.h>

#include <cstring>
#include <map>
#include <memory>

#include "text/parser_context.h"

namespace rlx::text::detail {
namespace {

struct Json {
  enum class Kind { kNull, kBool, kNumber, kString, kArray, kObject } kind = Kind::kNull;
  double number = 0;
  bool boolean = false;
  std::string text;
  std::vector<Json> items;
  std::map<std::string, Json> fields;

  const Json* Field(const std::string& key) const {
    auto it = fields.find(key);
    return it == fields.end() ? nullptr : &it->second;
  }
};

class JsonReader {
 public:
  JsonReader(const std::string& text, const Span& span) : text_(text), span_(span) {}

  Json Read() {
    Json value = Value();
    SkipSpace();
    if (pos_ != text_.size()) Error("unexpected text after the JSON value");
    return value;
  }

 private:
  [[noreturn]] void Error(const std::string& what) {
    Fail(span_, fmt::format("invalid metadata JSON at offset {}: {}", pos_, what));
  }
  void SkipSpace() {
    while (pos_ < text_.size() && std::strchr(" \t\r\n", text_[pos_]) != nullptr) ++pos_;
  }
  bool Consume(char c) {
    SkipSpace();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  void Expect(char c) {
    if (!Consume(c)) Error(fmt::format("expected '{}'", c));
  }

  Json Value() {
    SkipSpace();
    if (pos_ >= text_.size()) Error("unexpected end");
    char c = text_[pos_];
    Json value;
    if (c == '{') {
      value.kind = Json::Kind::kObject;
      ++pos_;
      if (Consume('}')) return value;
      do {
        SkipSpace();
        std::string key = String();
        Expect(':');
        value.fields[key] = Value();
      } while (Consume(','));
      Expect('}');
    } else if (c == '[') {
      value.kind = Json::Kind::kArray;
      ++pos_;
      if (Consume(']')) return value;
      do {
        value.items.push_back(Value());
      } while (Consume(','));
      Expect(']');
    } else if (c == '"') {
      value.kind = Json::Kind::kString;
      value.text = String();
    } else if (text_.compare(pos_, 4, "true") == 0 || text_.compare(pos_, 5, "false") == 0) {
      value.kind = Json::Kind::kBool;
      value.boolean = text_[pos_] == 't';
      pos_ += value.boolean ? 4 : 5;
    } else if (text_.compare(pos_, 4, "null") == 0) {
      pos_ += 4;
    } else {
      size_t end = pos_;
      while (end < text_.size() && std::strchr("+-.0123456789eE", text_[end]) != nullptr) ++end;
      if (end == pos_) Error(fmt::format("unexpected character '{}'", c));
      value.kind = Json::Kind::kNumber;
      value.number = std::stod(text_.substr(pos_, end - pos_));
      pos_ = end;
    }
    return value;
  }

  std::string String() {
    if (pos_ >= text_.size() || text_[pos_] != '"') Error("expected a string");
    ++pos_;
    std::string out;
    while (pos_ < text_.size() && text_[pos_] != '"') {
      char c = text_[pos_++];
      if (c != '\\') {
        out.push_back(c);
        continue;
      }
      if (pos_ >= text_.size()) break;
      char e = text_[pos_++];
      switch (e) {
        case 'n': out.push_back('\n'); break;
        case 't': out.push_back('\t'); break;
        case 'r': out.push_back('\r'); break;
        case 'b': out.push_back('\b'); break;
        case 'f': out.push_back('\f'); break;
        case 'u': {
          if (pos_ + 4 > text_.size()) Error("truncated \\u escape");
          unsigned code = static_cast<unsigned>(std::stoul(text_.substr(pos_, 4), nullptr, 16));
          pos_ += 4;
          if (code < 0x80) {
            out.push_back(static_cast<char>(code));
          } else if (code < 0x800) {
            out.push_back(static_cast<char>(0xc0 | (code >> 6)));
            out.push_back(static_cast<char>(0x80 | (code & 0x3f)));
          } else {
            out.push_back(static_cast<char>(0xe0 | (code >> 12)));
            out.push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3f)));
            out.push_back(static_cast<char>(0x80 | (code & 0x3f)));
          }
          break;
        }
        default: out.push_back(e); break;
      }
    }
    if (pos_ >= text_.size()) Error("unterminated string");
    ++pos_;
    return out;
  }

  const std::string& text_;
  Span span_;
  size_t pos_ = 0;
};

std::vector<uint8_t> DecodeBase64(const std::string& text, const Span& span) {
  auto value_of = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
  };
  std::vector<uint8_t> out;
  uint32_t buffer = 0;
  int bits = 0;
  for (char c : text) {
    if (c == '=' || c == '\n' || c == ' ') continue;
    int v = value_of(c);
    if (v < 0) Fail(span, fmt::format("invalid base64 character '{}' in a metadata tensor", c));
    buffer = (buffer << 6) | static_cast<uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<uint8_t>((buffer >> bits) & 0xff));
    }
  }
  return out;
}

// Reads TVM's binary NDArray layout (file comment) into tensor data.
graph::TensorDataPtr DecodeTensor(const std::vector<uint8_t>& bytes, const Span& span) {
  size_t pos = 0;
  auto read = [&](void* dst, size_t n) {
    if (pos + n > bytes.size()) Fail(span, "a metadata tensor is truncated");
    std::memcpy(dst, bytes.data() + pos, n);
    pos += n;
  };
  uint64_t magic = 0, reserved = 0;
  int32_t device_type = 0, device_id = 0, ndim = 0;
  uint8_t code = 0, bits = 0;
  uint16_t lanes = 0;
  read(&magic, 8);
  if (magic != 0xDD5E40F096B4A13FULL) Fail(span, "a metadata tensor does not start with TVM's NDArray magic number");
  read(&reserved, 8);
  read(&device_type, 4);
  read(&device_id, 4);
  read(&ndim, 4);
  read(&code, 1);
  read(&bits, 1);
  read(&lanes, 2);
  if (ndim < 0) Fail(span, "a metadata tensor has a negative rank");
  auto data = std::make_shared<graph::TensorData>();
  switch (code) {
    case 0: data->dtype = DataType::Int(bits, lanes); break;
    case 1: data->dtype = bits == 1 ? DataType::Bool(lanes) : DataType::UInt(bits, lanes); break;
    case 2: data->dtype = DataType::Float(bits, lanes); break;
    case 4:
      if (bits != 16) Fail(span, "a metadata tensor has an unsupported bfloat width");
      data->dtype = DataType::BFloat16(lanes);
      break;
    case 6: data->dtype = DataType::Bool(lanes); break;
    default: Fail(span, fmt::format("a metadata tensor has the unsupported type code {}", code));
  }
  for (int32_t i = 0; i < ndim; ++i) {
    int64_t dim = 0;
    read(&dim, 8);
    data->shape.push_back(dim);
  }
  int64_t size = 0;
  read(&size, 8);
  if (size < 0 || pos + static_cast<size_t>(size) > bytes.size()) Fail(span, "a metadata tensor is truncated");
  data->bytes.assign(bytes.begin() + static_cast<std::ptrdiff_t>(pos), bytes.begin() + static_cast<std::ptrdiff_t>(pos + size));
  return data;
}

size_t NodeIndex(const Json& value, size_t count, const Span& span) {
  double index = value.kind == Json::Kind::kString ? std::stod(value.text) : value.number;
  if (index < 0 || index >= static_cast<double>(count)) Fail(span, "metadata JSON refers to a missing node");
  return static_cast<size_t>(index);
}

}  // namespace

std::shared_ptr<Metadata> ReadMetadata(const std::string& json, const Span& span) {
  Json root = JsonReader(json, span).Read();
  const Json* nodes = root.Field("nodes");
  const Json* root_index = root.Field("root");
  if (nodes == nullptr || root_index == nullptr || nodes->kind != Json::Kind::kArray) {
    Fail(span, "metadata JSON needs \"root\" and \"nodes\"");
  }
  std::vector<std::vector<uint8_t>> arrays;
  if (const Json* b64 = root.Field("b64ndarrays")) {
    for (const Json& item : b64->items) arrays.push_back(DecodeBase64(item.text, span));
  }
  const Json& map = nodes->items[NodeIndex(*root_index, nodes->items.size(), span)];
  const Json* keys = map.Field("keys");
  const Json* data = map.Field("data");
  auto metadata = std::make_shared<Metadata>();
  if (keys == nullptr || data == nullptr || keys->items.size() != data->items.size()) return metadata;
  for (size_t k = 0; k < keys->items.size(); ++k) {
    const std::string& type_key = keys->items[k].text;
    std::vector<ObjectRef>& entries = metadata->entries[type_key];
    const Json& array = nodes->items[NodeIndex(data->items[k], nodes->items.size(), span)];
    const Json* elements = array.Field("data");
    if (elements == nullptr) continue;
    for (const Json& element : elements->items) {
      const Json& node = nodes->items[NodeIndex(element, nodes->items.size(), span)];
      const Json* attrs = node.Field("attrs");
      const Json* tensor = attrs ? attrs->Field("data") : nullptr;
      if (type_key != "relax.expr.Constant" || tensor == nullptr) {
        entries.push_back(ObjectRef());  // a kind this project does not read
        continue;
      }
      size_t index = NodeIndex(*tensor, arrays.size(), span);
      entries.push_back(graph::Expr(new graph::ConstantNode(DecodeTensor(arrays[index], span))));
    }
  }
  return metadata;
}

}  // namespace rlx::text::detail
