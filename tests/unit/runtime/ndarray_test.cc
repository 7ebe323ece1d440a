// NDArray: creation, shapes and dtypes, views (bounds-checked, sharing
// storage), copies between host buffers and arrays, strided layouts.
#include "rlx/runtime/ndarray.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>
#include <numeric>

namespace rlx::runtime {
namespace {

using ::testing::HasSubstr;

// Runs `action` and returns the RuntimeError's message ("" if none thrown).
template <typename F>
std::string ErrorOf(F&& action) {
  try {
    action();
  } catch (const RuntimeError& error) {
    return error.what();
  }
  return "";
}

std::vector<float> Iota(size_t n) {
  std::vector<float> values(n);
  std::iota(values.begin(), values.end(), 0.0f);
  return values;
}

TEST(DataTypeTest, PrintsAndParsesTheCompilerSpellings) {
  for (const char* name : {"float32", "float16", "bfloat16", "float64", "int8", "int64", "uint8", "uint32", "bool",
                           "handle", "float32x4", "int4"}) {
    std::optional<DataType> dtype = DataType::Parse(name);
    ASSERT_TRUE(dtype.has_value()) << name;
    EXPECT_EQ(dtype->ToString(), name);
  }
  EXPECT_EQ(DataType::FromString("bool"), DataType::Bool());
  EXPECT_EQ(DataType::Bool().code(), kDLBool);
  EXPECT_EQ(DataType::Bool().bytes(), 1);
  EXPECT_EQ(DataType::BFloat16().code(), kDLBfloat);
  EXPECT_EQ(DataType::Float(32, 4).bytes(), 16);
  EXPECT_EQ(DataTypeOf<int16_t>(), DataType::Int(16));
  EXPECT_EQ(DataTypeOf<double>(), DataType::Float(64));
  for (const char* bad : {"", "float", "float31", "int", "bfloat32", "boolx", "floatx4", "f32", "float32x1"}) {
    EXPECT_FALSE(DataType::Parse(bad).has_value()) << bad;
  }
  EXPECT_EQ(ErrorOf([] { DataType::FromString("fp32"); }), "unknown dtype 'fp32'");
}

TEST(DeviceTest, Prints) {
  EXPECT_EQ(Device::CPU().ToString(), "cpu:0");
  EXPECT_EQ(Device::CUDA(1).ToString(), "cuda:1");
  EXPECT_NE(Device::CPU(), Device::CUDA(0));
}

TEST(DLPackLayoutTest, MatchesTheSpec) {
  EXPECT_EQ(sizeof(DLDataType), 4u);
  EXPECT_EQ(sizeof(DLDevice), 8u);
  EXPECT_EQ(offsetof(DLTensor, data), 0u);
  EXPECT_EQ(offsetof(DLTensor, device), 8u);
  EXPECT_EQ(offsetof(DLTensor, ndim), 16u);
  EXPECT_EQ(offsetof(DLTensor, dtype), 20u);
  EXPECT_EQ(offsetof(DLTensor, shape), 24u);
  EXPECT_EQ(offsetof(DLTensor, strides), 32u);
  EXPECT_EQ(offsetof(DLTensor, byte_offset), 40u);
  EXPECT_EQ(sizeof(DLTensor), 48u);
}

TEST(NDArrayTest, EmptyDescribesItselfThroughDLPack) {
  NDArray array = NDArray::Empty({2, 3}, DataType::Float(32));
  EXPECT_EQ(array.shape(), (ShapeTuple{2, 3}));
  EXPECT_EQ(array.ndim(), 2);
  EXPECT_EQ(array.NumElements(), 6);
  EXPECT_EQ(array.ByteSize(), 24u);
  EXPECT_TRUE(array.IsContiguous());
  EXPECT_EQ(array.ToString(), "NDArray((2, 3), float32, cpu:0)");
  const DLTensor* tensor = array.dl_tensor();
  EXPECT_EQ(tensor->ndim, 2);
  EXPECT_EQ(tensor->shape[0], 2);
  EXPECT_EQ(tensor->shape[1], 3);
  EXPECT_EQ(tensor->strides, nullptr);
  EXPECT_EQ(tensor->byte_offset, 0u);
  EXPECT_EQ(DataType(tensor->dtype), DataType::Float(32));
  EXPECT_EQ(tensor->device.device_type, kDLCPU);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(array.data()) % kAllocAlignment, 0u);
}

TEST(NDArrayTest, ScalarAndZeroSizedArrays) {
  NDArray scalar = NDArray::Empty({}, DataType::Int(64));
  EXPECT_EQ(scalar.NumElements(), 1);
  EXPECT_EQ(scalar.ByteSize(), 8u);
  EXPECT_EQ(ShapeToString(scalar.shape()), "()");
  NDArray empty = NDArray::Empty({0, 5}, DataType::Float(32));
  EXPECT_EQ(empty.NumElements(), 0);
  EXPECT_EQ(empty.ByteSize(), 0u);
  EXPECT_TRUE(empty.ToVector<float>().empty());
  EXPECT_EQ(ShapeToString({7}), "(7,)");
}

TEST(NDArrayTest, RejectsBadShapesAndDevices) {
  EXPECT_EQ(ErrorOf([] { NDArray::Empty({2, -1}, DataType::Float(32)); }), "negative dimension -1 in shape (2, -1)");
  EXPECT_THAT(ErrorOf([] { NDArray::Empty({int64_t{1} << 40, int64_t{1} << 40}, DataType::Float(32)); }),
              HasSubstr("too many elements"));
  EXPECT_THAT(ErrorOf([] { NDArray::Empty({4}, DataType::Float(32), Device::CUDA(0)); }),
              HasSubstr("cannot allocate on cuda:0"));
  EXPECT_THAT(ErrorOf([] { NDArray::Empty({4}, DataType::Int(4)); }), HasSubstr("sub-byte dtype int4"));
  NDArray null;
  EXPECT_FALSE(null.defined());
  EXPECT_EQ(ErrorOf([&] { (void)null.shape(); }), "use of a null NDArray");
}

TEST(NDArrayTest, CopiesRoundTripThroughHostBuffers) {
  NDArray array = NDArray::FromVector<float>({2, 3}, Iota(6));
  EXPECT_EQ(array.ToVector<float>(), Iota(6));
  std::vector<float> out(6);
  array.CopyTo(out.data(), out.size() * sizeof(float));
  EXPECT_EQ(out, Iota(6));
  EXPECT_EQ(ErrorOf([&] { array.CopyFrom(out.data(), 20); }),
            "CopyFrom: an array of (2, 3) float32 needs 24 bytes, got 20");
  EXPECT_EQ(ErrorOf([&] { array.CopyTo(out.data(), 28); }),
            "CopyTo: an array of (2, 3) float32 has 24 bytes, but the buffer has 28");
  EXPECT_EQ(ErrorOf([&] { (void)array.ToVector<int32_t>(); }), "ToVector: the array holds float32, not int32");
}

TEST(NDArrayTest, CopyFromAnotherArrayChecksShapeAndDtype) {
  NDArray source = NDArray::FromVector<int32_t>({2, 2}, {1, 2, 3, 4});
  NDArray target = NDArray::Empty({2, 2}, DataType::Int(32));
  target.CopyFrom(source);
  EXPECT_EQ(target.ToVector<int32_t>(), (std::vector<int32_t>{1, 2, 3, 4}));
  NDArray clone = source.Clone();
  EXPECT_NE(clone.data(), source.data());
  EXPECT_EQ(clone.ToVector<int32_t>(), source.ToVector<int32_t>());
  NDArray wrong_shape = NDArray::Empty({4}, DataType::Int(32));
  EXPECT_EQ(ErrorOf([&] { wrong_shape.CopyFrom(source); }),
            "CopyFrom: cannot copy an array of (2, 2) int32 into one of (4,) int32");
  NDArray wrong_dtype = NDArray::Empty({2, 2}, DataType::Float(32));
  EXPECT_THAT(ErrorOf([&] { wrong_dtype.CopyFrom(source); }), HasSubstr("(2, 2) int32 into one of (2, 2) float32"));
}

TEST(NDArrayTest, ViewsShareStorageAndOutliveTheirSource) {
  NDArray view;
  const void* base = nullptr;
  {
    NDArray array = NDArray::FromVector<float>({4, 4}, Iota(16));
    base = array.data();
    view = array.CreateView({2, 4}, DataType::Float(32), 8 * sizeof(float));
    EXPECT_EQ(array.storage(), view.storage());
    view.CopyFrom(std::vector<float>(8, -1.0f).data(), 8 * sizeof(float));
    std::vector<float> values = array.ToVector<float>();
    EXPECT_EQ(values[7], 7.0f);
    EXPECT_EQ(values[8], -1.0f);
  }
  // The source handle is gone; the view keeps the storage alive.
  EXPECT_EQ(static_cast<const char*>(view.data()), static_cast<const char*>(base) + 32);
  EXPECT_EQ(view.ToVector<float>(), std::vector<float>(8, -1.0f));
}

TEST(NDArrayTest, ViewsMayReinterpretTheDtype) {
  NDArray array = NDArray::FromVector<uint8_t>({8}, {1, 0, 0, 0, 2, 0, 0, 0});
  NDArray as_int = array.CreateView({2}, DataType::Int(32));
  EXPECT_EQ(as_int.ToVector<int32_t>(), (std::vector<int32_t>{1, 2}));
}

TEST(NDArrayTest, ViewsOutsideTheirSourceAreErrors) {
  NDArray array = NDArray::Empty({4, 4}, DataType::Float(32));
  EXPECT_EQ(ErrorOf([&] { array.CreateView({4, 4}, DataType::Float(32), 16); }),
            "CreateView: a view of (4, 4) float32 at byte offset 16 needs bytes up to 80, but the array of "
            "(4, 4) float32 has 64");
  EXPECT_THAT(ErrorOf([&] { array.CreateView({1}, DataType::Float(32), 1000); }), HasSubstr("at byte offset 1000"));
  EXPECT_EQ(ErrorOf([&] { array.CreateView({16}, DataType::Float(64)); }),
            "CreateView: a view of (16,) float64 at byte offset 0 needs bytes up to 128, but the array of "
            "(4, 4) float32 has 64");
  EXPECT_NO_THROW(array.CreateView({16}, DataType::Float(32)));
  EXPECT_NO_THROW(array.CreateView({0}, DataType::Float(32), 64));
}

TEST(NDArrayTest, StridedViewsGatherAndScatter) {
  NDArray array = NDArray::FromVector<float>({3, 4}, Iota(12));
  // The transpose: shape (4, 3), strides (1, 4).
  NDArray transposed = array.CreateStridedView({4, 3}, {1, 4});
  EXPECT_FALSE(transposed.IsContiguous());
  EXPECT_NE(transposed.dl_tensor()->strides, nullptr);
  EXPECT_EQ(transposed.ToVector<float>(), (std::vector<float>{0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11}));
  // Column 1 as a (3,) view written through.
  NDArray column = array.CreateStridedView({3}, {4}, sizeof(float));
  column.CopyFrom(std::vector<float>{-1, -2, -3}.data(), 3 * sizeof(float));
  std::vector<float> values = array.ToVector<float>();
  EXPECT_EQ(values[1], -1);
  EXPECT_EQ(values[5], -2);
  EXPECT_EQ(values[9], -3);
  // Copies between strided and compact arrays.
  NDArray compact = NDArray::Empty({4, 3}, DataType::Float(32));
  compact.CopyFrom(transposed);
  EXPECT_EQ(compact.ToVector<float>(), transposed.ToVector<float>());
  EXPECT_THAT(ErrorOf([&] { transposed.CreateView({2}, DataType::Float(32)); }), HasSubstr("not contiguous"));
}

TEST(NDArrayTest, StridedViewsAreBoundsChecked) {
  NDArray array = NDArray::Empty({3, 4}, DataType::Float(32));
  EXPECT_EQ(ErrorOf([&] { array.CreateStridedView({4, 3}, {1, 5}); }),
            "CreateStridedView: a view of (4, 3) float32 with strides (1, 5) at byte offset 0 reaches bytes "
            "[0, 56), outside the array's 48 bytes");
  EXPECT_THAT(ErrorOf([&] { array.CreateStridedView({3}, {-4}); }), HasSubstr("reaches bytes [-32, 4)"));
  EXPECT_NO_THROW(array.CreateStridedView({3}, {-4}, 8 * sizeof(float)));
  EXPECT_THAT(ErrorOf([&] { array.CreateStridedView({3}, {1, 1}); }), HasSubstr("2 strides for the 1-dimensional"));
  // Unit dimensions do not break contiguity.
  EXPECT_TRUE(array.CreateStridedView({1, 4}, {99, 1}).IsContiguous());
}

TEST(NDArrayTest, ArraysPlacedInPlannedStorage) {
  std::shared_ptr<Storage> storage = Storage::Create(100);
  NDArray first = NDArray::FromStorage(storage, 0, {4}, DataType::Float(32));
  NDArray second = NDArray::FromStorage(storage, 64, {9}, DataType::Float(32));
  EXPECT_EQ(static_cast<char*>(second.data()) - static_cast<char*>(first.data()), 64);
  EXPECT_EQ(ErrorOf([&] { NDArray::FromStorage(storage, 64, {10}, DataType::Float(32)); }),
            "cannot place an array of (10,) float32 (40 bytes) at byte offset 64 in a storage of 100 bytes");
}

}  // namespace
}  // namespace rlx::runtime
