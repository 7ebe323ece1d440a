// NumPy .npy reading and writing.
//
// File layout (NumPy's format spec, versions 1.0 and 2.0):
//
//   "\x93NUMPY" major minor | header_len (u16 LE for 1.0, u32 LE for 2.0)
//   | header: a Python dict literal, space-padded, ending in '\n'
//   | raw element bytes, row-major
//
// The header is e.g. {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }.
// We parse it with a small recursive-descent reader that accepts exactly the
// three keys, in any order. Only little-endian (or byte-sized) C-order data
// is accepted; anything else, and any size that does not add up, is a
// RuntimeError "cannot read 'x.npy': <what is wrong>".
//
// LoadNpy reads the header first and then the data straight into the new
// array, so a large weight file is not held twice in memory.
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>

#include "rlx/runtime/ndarray.h"

namespace rlx::runtime {

namespace {

constexpr std::string_view kMagic = "\x93NUMPY";

struct NpyHeader {
  DataType dtype;
  ShapeTuple shape;
  size_t data_offset = 0;  // where the element bytes start
};

[[noreturn]] void Fail(const std::string& name, const std::string& what) {
  throw RuntimeError(StrCat("cannot read '", name, "': ", what));
}

uint32_t ReadLittleEndian(std::string_view bytes, size_t offset, size_t width) {
  uint32_t value = 0;
  for (size_t i = 0; i < width; ++i) value |= uint32_t{static_cast<uint8_t>(bytes[offset + i])} << (8 * i);
  return value;
}

// The size of the preamble plus the header, from the first bytes of a file.
size_t HeaderEnd(std::string_view bytes, const std::string& name) {
  if (bytes.size() < 10) Fail(name, StrCat("truncated: ", bytes.size(), " bytes is shorter than a .npy preamble"));
  if (bytes.substr(0, kMagic.size()) != kMagic) Fail(name, "not a .npy file (the magic string \\x93NUMPY is missing)");
  int major = static_cast<uint8_t>(bytes[6]);
  int minor = static_cast<uint8_t>(bytes[7]);
  if ((major != 1 && major != 2) || minor != 0) {
    Fail(name, StrCat("unsupported .npy format version ", major, ".", minor, " (supported: 1.0, 2.0)"));
  }
  size_t width = major == 1 ? 2 : 4;
  if (bytes.size() < 8 + width) Fail(name, "truncated: the header length is cut off");
  return 8 + width + ReadLittleEndian(bytes, 8, width);
}

// Reads the dict literal of a .npy header. Offsets in its messages count from
// the start of the dict.
class HeaderParser {
 public:
  HeaderParser(std::string_view text, const std::string& name) : text_(text), name_(name) {}

  NpyHeader Parse() {
    std::optional<std::string> descr;
    std::optional<bool> fortran_order;
    std::optional<ShapeTuple> shape;
    Expect('{');
    while (!TryConsume('}')) {
      size_t key_offset = pos_;
      std::string key = ParseString();
      Expect(':');
      if (key == "descr") {
        descr = ParseString();
      } else if (key == "fortran_order") {
        fortran_order = ParseBool();
      } else if (key == "shape") {
        shape = ParseShape();
      } else {
        pos_ = key_offset;
        Malformed(StrCat("unexpected key '", key, "'"));
      }
      if (!TryConsume(',')) {
        Expect('}');
        break;
      }
    }
    if (!descr || !fortran_order || !shape) Malformed("the header lacks 'descr', 'fortran_order' or 'shape'");
    if (*fortran_order) Fail(name_, "Fortran-order arrays are not supported (save with C order)");
    return NpyHeader{DtypeFromDescr(*descr), *shape, 0};
  }

 private:
  [[noreturn]] void Malformed(const std::string& what) {
    Fail(name_, StrCat("malformed header at offset ", pos_, ": ", what));
  }

  void SkipSpace() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\n' || text_[pos_] == '\t')) ++pos_;
  }

  bool TryConsume(char c) {
    SkipSpace();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }

  void Expect(char c) {
    if (!TryConsume(c)) Malformed(StrCat("expected '", c, "'"));
  }

  std::string ParseString() {
    SkipSpace();
    if (pos_ >= text_.size() || (text_[pos_] != '\'' && text_[pos_] != '"')) Malformed("expected a quoted string");
    char quote = text_[pos_++];
    size_t end = text_.find(quote, pos_);
    if (end == std::string_view::npos) Malformed("unterminated string");
    std::string value(text_.substr(pos_, end - pos_));
    pos_ = end + 1;
    return value;
  }

  bool ParseBool() {
    SkipSpace();
    for (auto [word, value] : {std::pair{std::string_view("True"), true}, std::pair{std::string_view("False"), false}}) {
      if (text_.substr(pos_, word.size()) == word) {
        pos_ += word.size();
        return value;
      }
    }
    Malformed("expected True or False");
  }

  int64_t ParseInt() {
    SkipSpace();
    size_t start = pos_;
    int64_t value = 0;
    while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') {
      if (__builtin_mul_overflow(value, 10, &value) || __builtin_add_overflow(value, text_[pos_] - '0', &value)) {
        Malformed("dimension too large");
      }
      ++pos_;
    }
    if (pos_ == start) Malformed("expected a non-negative integer dimension");
    if (pos_ < text_.size() && text_[pos_] == 'L') ++pos_;  // Python 2 long suffix
    return value;
  }

  ShapeTuple ParseShape() {
    Expect('(');
    ShapeTuple shape;
    while (!TryConsume(')')) {
      shape.push_back(ParseInt());
      if (!TryConsume(',')) {
        Expect(')');
        break;
      }
    }
    return shape;
  }

  DataType DtypeFromDescr(const std::string& descr) {
    if (descr.size() < 3) Fail(name_, StrCat("unsupported dtype '", descr, "'"));
    char order = descr[0];
    if (order == '>') Fail(name_, StrCat("big-endian data ('", descr, "') is not supported"));
    std::string_view code = std::string_view(descr).substr(1);
    struct Entry {
      std::string_view code;
      DataType dtype;
    };
    static constexpr Entry kTable[] = {
        {"f2", DataType::Float(16)}, {"f4", DataType::Float(32)}, {"f8", DataType::Float(64)},
        {"i1", DataType::Int(8)},    {"i2", DataType::Int(16)},   {"i4", DataType::Int(32)},
        {"i8", DataType::Int(64)},   {"u1", DataType::UInt(8)},   {"u2", DataType::UInt(16)},
        {"u4", DataType::UInt(32)},  {"u8", DataType::UInt(64)},  {"b1", DataType::Bool()},
    };
    if (order == '<' || order == '|' || order == '=') {
      for (const Entry& entry : kTable) {
        if (entry.code == code) return entry.dtype;
      }
    }
    Fail(name_, StrCat("unsupported dtype '", descr, "' (supported: f2 f4 f8 i1 i2 i4 i8 u1 u2 u4 u8 b1)"));
  }

  std::string_view text_;
  const std::string& name_;
  size_t pos_ = 0;
};

// Parses the preamble and header; `bytes` must hold at least HeaderEnd bytes.
NpyHeader ParseHeader(std::string_view bytes, const std::string& name) {
  size_t end = HeaderEnd(bytes, name);
  if (bytes.size() < end) {
    Fail(name, StrCat("truncated: the header ends at byte ", end, " but the file has ", bytes.size()));
  }
  size_t start = static_cast<uint8_t>(bytes[6]) == 1 ? 10 : 12;
  NpyHeader header = HeaderParser(bytes.substr(start, end - start), name).Parse();
  header.data_offset = end;
  return header;
}

// The data bytes the header's shape and dtype call for.
size_t NeededBytes(const NpyHeader& header, const std::string& name) {
  int64_t bytes = header.dtype.bytes();
  for (int64_t dim : header.shape) {
    if (__builtin_mul_overflow(bytes, dim, &bytes)) {
      Fail(name, StrCat("the shape ", ShapeToString(header.shape), " is too large"));
    }
  }
  return static_cast<size_t>(bytes);
}

// Checks, before anything is allocated, that the file holds exactly the data
// the header announces.
void CheckDataSize(const NpyHeader& header, size_t available, const std::string& name) {
  size_t needed = NeededBytes(header, name);
  std::string array = StrCat("an array of shape ", ShapeToString(header.shape), " ", header.dtype.ToString());
  if (available < needed) {
    Fail(name, StrCat("truncated: ", array, " needs ", needed, " data bytes, the file has ", available));
  }
  if (available > needed) {
    Fail(name, StrCat(available - needed, " unexpected bytes after the data of ", array));
  }
}

std::string Descr(DataType dtype) {
  if (dtype.lanes() != 1) throw RuntimeError(StrCat("cannot save vector dtype ", dtype.ToString(), " as .npy"));
  char kind = 0;
  switch (dtype.code()) {
    case DataType::kFloat: kind = 'f'; break;
    case DataType::kInt: kind = 'i'; break;
    case DataType::kUInt: kind = 'u'; break;
    case DataType::kBool: kind = 'b'; break;
    default: throw RuntimeError(StrCat("cannot save dtype ", dtype.ToString(), " as .npy (NumPy has no such type)"));
  }
  return StrCat(dtype.bytes() == 1 ? '|' : '<', kind, dtype.bytes());
}

// Preamble and header, padded so that the data starts at a multiple of 64.
std::string EncodeHeader(const NDArray& array) {
  std::string dict = StrCat("{'descr': '", Descr(array.dtype()), "', 'fortran_order': False, 'shape': ",
                            ShapeToString(array.shape()), ", }");
  auto padded_length = [&](size_t preamble) { return (preamble + dict.size() + 1 + 63) / 64 * 64 - preamble; };
  bool version1 = padded_length(10) <= 0xffff;
  size_t preamble = version1 ? 10 : 12;
  size_t header_length = padded_length(preamble);
  dict.append(header_length - dict.size() - 1, ' ');
  dict.push_back('\n');
  std::string bytes(kMagic);
  bytes.push_back(static_cast<char>(version1 ? 1 : 2));
  bytes.push_back('\0');
  for (size_t i = 0; i < preamble - 8; ++i) bytes.push_back(static_cast<char>((header_length >> (8 * i)) & 0xff));
  return bytes + dict;
}

}  // namespace

NDArray NDArray::ParseNpy(std::string_view bytes, const std::string& name, Allocator* allocator) {
  NpyHeader header = ParseHeader(bytes, name);
  CheckDataSize(header, bytes.size() - header.data_offset, name);
  NDArray array = Empty(header.shape, header.dtype, Device::CPU(), allocator);
  array.CopyFrom(bytes.data() + header.data_offset, array.ByteSize());
  return array;
}

NDArray NDArray::LoadNpy(const std::string& path, Allocator* allocator) {
  std::ifstream file(path, std::ios::binary);
  if (!file) Fail(path, std::strerror(errno));
  std::error_code error;
  size_t file_size = std::filesystem::file_size(path, error);
  if (error) Fail(path, error.message());
  // Read the preamble, then exactly the header it announces.
  std::string head(std::min<size_t>(file_size, 12), '\0');
  file.read(head.data(), static_cast<std::streamsize>(head.size()));
  size_t header_end = std::min(HeaderEnd(head, path), file_size);
  size_t already_read = head.size();
  head.resize(std::max(header_end, already_read));
  if (header_end > already_read) file.read(head.data() + already_read, static_cast<std::streamsize>(header_end - already_read));
  head.resize(header_end);
  NpyHeader header = ParseHeader(head, path);
  CheckDataSize(header, file_size - header.data_offset, path);
  NDArray array = Empty(header.shape, header.dtype, Device::CPU(), allocator);
  file.seekg(static_cast<std::streamoff>(header.data_offset));
  if (array.ByteSize() > 0 &&
      !file.read(static_cast<char*>(array.data()), static_cast<std::streamsize>(array.ByteSize()))) {
    Fail(path, "read error in the array data");
  }
  return array;
}

std::string NDArray::ToNpyBytes() const {
  std::string bytes = EncodeHeader(*this);
  size_t header_size = bytes.size();
  bytes.resize(header_size + ByteSize());
  CopyTo(bytes.data() + header_size, ByteSize());
  return bytes;
}

void NDArray::SaveNpy(const std::string& path) const {
  std::string bytes = ToNpyBytes();
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (!file) throw RuntimeError(StrCat("cannot write '", path, "': ", std::strerror(errno)));
  file.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!file.flush()) throw RuntimeError(StrCat("cannot write '", path, "': write error"));
}

}  // namespace rlx::runtime
