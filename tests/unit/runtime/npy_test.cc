// NumPy .npy reading and writing: a round trip for every supported dtype, the
// headers NumPy writes (versions 1.0 and 2.0), and a clear error for every
// kind of malformed or truncated file.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <numeric>

#include "rlx/runtime/ndarray.h"

namespace rlx::runtime {
namespace {

using ::testing::HasSubstr;

template <typename F>
std::string ErrorOf(F&& action) {
  try {
    action();
  } catch (const RuntimeError& error) {
    return error.what();
  }
  return "";
}

std::string TempPath(const std::string& name) { return ::testing::TempDir() + "rlx_npy_test_" + name; }

void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

// A .npy file as NumPy >= 1.23 writes it: the dict, growth-axis spaces, then
// padding to a multiple of 64 bytes and '\n'.
std::string NumpyStyleFile(const std::string& dict, const std::string& data, int major = 1) {
  size_t preamble = major == 1 ? 10 : 12;
  std::string header = dict + std::string(21 - 1, ' ');
  size_t pad = 64 - (preamble + header.size() + 1) % 64;
  header += std::string(pad, ' ') + "\n";
  std::string bytes = std::string("\x93NUMPY") + static_cast<char>(major) + '\0';
  for (size_t i = 0; i < preamble - 8; ++i) bytes += static_cast<char>((header.size() >> (8 * i)) & 0xff);
  return bytes + header + data;
}

template <typename T>
std::string Bytes(const std::vector<T>& values) {
  return std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
}

// Fills an array's bytes with a pattern that differs per byte.
NDArray Patterned(ShapeTuple shape, DataType dtype) {
  NDArray array = NDArray::Empty(std::move(shape), dtype);
  std::string bytes(array.ByteSize(), '\0');
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>(i * 7 + 3);
  if (dtype == DataType::Bool()) {
    for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>(i % 3 == 0);
  }
  array.CopyFrom(bytes.data(), bytes.size());
  return array;
}

std::string RawBytes(const NDArray& array) {
  std::string bytes(array.ByteSize(), '\0');
  array.CopyTo(bytes.data(), bytes.size());
  return bytes;
}

class NpyRoundTripTest : public ::testing::TestWithParam<const char*> {};

TEST_P(NpyRoundTripTest, FileHoldsTheSameDtypeShapeAndBytes) {
  DataType dtype = DataType::FromString(GetParam());
  for (const ShapeTuple& shape : {ShapeTuple{2, 3, 4}, ShapeTuple{5}, ShapeTuple{}, ShapeTuple{0, 3}}) {
    NDArray original = Patterned(shape, dtype);
    std::string path = TempPath(std::string(GetParam()) + ".npy");
    original.SaveNpy(path);
    NDArray loaded = NDArray::LoadNpy(path);
    EXPECT_EQ(loaded.dtype(), dtype);
    EXPECT_EQ(loaded.shape(), shape);
    EXPECT_EQ(RawBytes(loaded), RawBytes(original));
    // The header pads the data to a 64-byte boundary, as NumPy does.
    EXPECT_EQ((std::filesystem::file_size(path) - original.ByteSize()) % 64, 0u);
    std::filesystem::remove(path);
  }
}

INSTANTIATE_TEST_SUITE_P(EveryDtype, NpyRoundTripTest,
                         ::testing::Values("float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8",
                                           "uint16", "uint32", "uint64", "bool"));

TEST(NpyTest, WritesNumpysHeaderLayout) {
  NDArray array = NDArray::FromVector<float>({2, 3}, {0, 1, 2, 3, 4, 5});
  std::string bytes = array.ToNpyBytes();
  std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
  ASSERT_GE(bytes.size(), 10 + dict.size());
  EXPECT_EQ(bytes.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
  size_t header_length = static_cast<uint8_t>(bytes[8]) | (static_cast<uint8_t>(bytes[9]) << 8);
  EXPECT_EQ(10 + header_length + 24, bytes.size());
  EXPECT_EQ((10 + header_length) % 64, 0u);
  EXPECT_EQ(bytes.substr(10, dict.size()), dict);
  EXPECT_EQ(bytes[10 + header_length - 1], '\n');
  EXPECT_EQ(NDArray::FromVector<uint8_t>({1}, {1}).ToNpyBytes().substr(10, 17), "{'descr': '|u1', ");
}

TEST(NpyTest, ReadsNumpyWrittenFilesOfBothVersions) {
  std::vector<int64_t> values = {1, -2, 3, -4, 5, -6};
  std::string dict = "{'descr': '<i8', 'fortran_order': False, 'shape': (3, 2), }";
  for (int major : {1, 2}) {
    NDArray array = NDArray::ParseNpy(NumpyStyleFile(dict, Bytes(values), major), "v.npy");
    EXPECT_EQ(array.shape(), (ShapeTuple{3, 2}));
    EXPECT_EQ(array.ToVector<int64_t>(), values);
  }
}

TEST(NpyTest, AcceptsKeysInAnyOrderAndPythonSpellings) {
  std::vector<float> values = {1.5f, 2.5f, 3.5f};
  for (const char* dict : {"{'shape': (3,), 'fortran_order': False, 'descr': '<f4'}",
                           "{\"descr\": \"<f4\", \"fortran_order\": False, \"shape\": (3L,)}",
                           "{'descr':'=f4','fortran_order':False,'shape':(3,),}"}) {
    NDArray array = NDArray::ParseNpy(NumpyStyleFile(dict, Bytes(values)), "order.npy");
    EXPECT_EQ(array.ToVector<float>(), values) << dict;
  }
  NDArray scalar = NDArray::ParseNpy(
      NumpyStyleFile("{'descr': '|b1', 'fortran_order': False, 'shape': (), }", std::string(1, '\1')), "s.npy");
  EXPECT_EQ(scalar.dtype(), DataType::Bool());
  EXPECT_EQ(scalar.ndim(), 0);
}

TEST(NpyTest, SavesStridedArraysInRowMajorOrder) {
  NDArray array = NDArray::FromVector<int32_t>({2, 3}, {0, 1, 2, 3, 4, 5});
  NDArray transposed = array.CreateStridedView({3, 2}, {1, 3});
  NDArray loaded = NDArray::ParseNpy(transposed.ToNpyBytes(), "t.npy");
  EXPECT_EQ(loaded.shape(), (ShapeTuple{3, 2}));
  EXPECT_EQ(loaded.ToVector<int32_t>(), (std::vector<int32_t>{0, 3, 1, 4, 2, 5}));
}

TEST(NpyTest, RefusesTypesNumpyLacks) {
  EXPECT_EQ(ErrorOf([] { NDArray::Empty({2}, DataType::BFloat16()).ToNpyBytes(); }),
            "cannot save dtype bfloat16 as .npy (NumPy has no such type)");
  EXPECT_EQ(ErrorOf([] { NDArray::Empty({2}, DataType::Float(32, 4)).ToNpyBytes(); }),
            "cannot save vector dtype float32x4 as .npy");
}

TEST(NpyTest, MissingFileNamesTheFile) {
  std::string path = TempPath("does_not_exist.npy");
  EXPECT_EQ(ErrorOf([&] { NDArray::LoadNpy(path); }), "cannot read '" + path + "': No such file or directory");
  EXPECT_THAT(ErrorOf([] { NDArray::Empty({1}, DataType::Float(32)).SaveNpy("/nonexistent-dir/x.npy"); }),
              HasSubstr("cannot write '/nonexistent-dir/x.npy'"));
}

struct MalformedCase {
  const char* what;
  std::string bytes;
  const char* expected_error;
};

std::string F4(const std::string& dict, size_t data_bytes) { return NumpyStyleFile(dict, std::string(data_bytes, 'x')); }

std::vector<MalformedCase> MalformedCases() {
  const std::string good = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
  std::string v3 = F4(good, 24);
  v3[6] = 3;
  std::string huge_header = F4(good, 24).substr(0, 8) + std::string("\xff\xff", 2) + "{'descr'";
  return {
      {"empty", "", "truncated: 0 bytes is shorter than a .npy preamble"},
      {"bad magic", "PK\x03\x04 this is a zip file", "not a .npy file (the magic string \\x93NUMPY is missing)"},
      {"version 3", v3, "unsupported .npy format version 3.0 (supported: 1.0, 2.0)"},
      {"header cut off", huge_header, "truncated: the header ends at byte 65545 but the file has 18"},
      {"missing colon", F4("{'descr' '<f4', 'fortran_order': False, 'shape': (2, 3), }", 24),
       "malformed header at offset 9: expected ':'"},
      {"unknown key", F4("{'descr': '<f4', 'order': 'C', 'shape': (2, 3), }", 24),
       "malformed header at offset 17: unexpected key 'order'"},
      {"missing key", F4("{'descr': '<f4', 'shape': (2, 3), }", 24),
       "the header lacks 'descr', 'fortran_order' or 'shape'"},
      {"bad shape", F4("{'descr': '<f4', 'fortran_order': False, 'shape': (2, -3), }", 24),
       "expected a non-negative integer dimension"},
      {"bad bool", F4("{'descr': '<f4', 'fortran_order': false, 'shape': (2, 3), }", 24), "expected True or False"},
      {"not a dict", F4("['descr', '<f4']", 24), "malformed header at offset 0: expected '{'"},
      {"big endian", F4("{'descr': '>f4', 'fortran_order': False, 'shape': (2, 3), }", 24),
       "big-endian data ('>f4') is not supported"},
      {"fortran order", F4("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }", 24),
       "Fortran-order arrays are not supported"},
      {"complex", F4("{'descr': '<c8', 'fortran_order': False, 'shape': (2, 3), }", 48),
       "unsupported dtype '<c8' (supported: f2 f4 f8 i1 i2 i4 i8 u1 u2 u4 u8 b1)"},
      {"truncated data", F4(good, 20),
       "truncated: an array of shape (2, 3) float32 needs 24 data bytes, the file has 20"},
      {"trailing bytes", F4(good, 30), "6 unexpected bytes after the data of an array of shape (2, 3) float32"},
      {"absurd shape", F4("{'descr': '<f4', 'fortran_order': False, 'shape': (4000000000, 4000000000), }", 24),
       "the shape (4000000000, 4000000000) is too large"},
  };
}

TEST(NpyTest, MalformedBytesAreErrorsNamingTheProblem) {
  for (const MalformedCase& c : MalformedCases()) {
    std::string error = ErrorOf([&] { NDArray::ParseNpy(c.bytes, "bad.npy"); });
    EXPECT_THAT(error, HasSubstr("cannot read 'bad.npy': ")) << c.what;
    EXPECT_THAT(error, HasSubstr(c.expected_error)) << c.what;
  }
}

TEST(NpyTest, MalformedFilesAreErrorsNamingTheFile) {
  for (const MalformedCase& c : MalformedCases()) {
    std::string path = TempPath("malformed.npy");
    WriteFile(path, c.bytes);
    std::string error = ErrorOf([&] { NDArray::LoadNpy(path); });
    EXPECT_THAT(error, HasSubstr("cannot read '" + path + "': ")) << c.what;
    EXPECT_THAT(error, HasSubstr(c.expected_error)) << c.what;
    std::filesystem::remove(path);
  }
}

}  // namespace
}  // namespace rlx::runtime
