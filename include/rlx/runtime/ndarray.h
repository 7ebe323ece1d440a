// NDArray: an n-dimensional array, a reference-counted handle to a DLTensor
// and the Storage that owns its memory.
//
// Design (after TVM's NDArray, our own code):
// - Copying an NDArray copies the handle, not the data; a view
//   (CreateView, CreateStridedView) is a new handle sharing the storage, so
//   the memory lives as long as any view does and then returns to its
//   allocator's pool.
// - An NDArray is a handle: its const methods may write the elements
//   (CopyFrom), just as a const pointer-to-non-const may.
// - dl_tensor() is the DLPack description handed to kernels. Its shape and
//   strides point into the handle's own vectors, so it stays valid while the
//   NDArray (any copy of the handle) is alive.
// - strides are in elements; an empty strides() means compact row-major.
//   Only views made by CreateStridedView have strides.
// - Every shape, size and offset is checked: a view that would reach outside
//   its source, a copy between different shapes, a negative dimension are
//   RuntimeErrors that print shapes as "(2, 3)" and dtypes as "float32".
// - NumPy .npy files (format 1.0 and 2.0, little-endian, C order) are read
//   and written by LoadNpy/SaveNpy (src/runtime/npy.cc).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "rlx/runtime/allocator.h"
#include "rlx/runtime/data_type.h"
#include "rlx/runtime/device.h"
#include "rlx/runtime/dlpack.h"
#include "rlx/runtime/error.h"

namespace rlx::runtime {

using ShapeTuple = std::vector<int64_t>;

// "(2, 3)", "(4,)" for one dimension, "()" for a scalar.
std::string ShapeToString(const ShapeTuple& shape);

class NDArray {
 public:
  // A null handle; defined() is false.
  NDArray() = default;

  // An uninitialized array in fresh storage from `allocator` (nullptr: the
  // global pooled CPU allocator).
  static NDArray Empty(ShapeTuple shape, DataType dtype, Device device = Device::CPU(),
                       Allocator* allocator = nullptr);
  // A compact array at byte_offset inside `storage`, bounds-checked (the VM's
  // planned memory: one storage, many arrays).
  static NDArray FromStorage(std::shared_ptr<Storage> storage, uint64_t byte_offset, ShapeTuple shape,
                             DataType dtype);
  // A new CPU array holding a copy of `values` (values.size() must match).
  template <typename T>
  static NDArray FromVector(ShapeTuple shape, const std::vector<T>& values);

  // A compact view of this (contiguous) array's bytes starting byte_offset
  // bytes after its first element; it must fit within this array's bytes.
  NDArray CreateView(ShapeTuple shape, DataType dtype, uint64_t byte_offset = 0) const;
  // A view with the same dtype, the given strides (in elements, may be
  // negative) and byte offset; every element it can reach must lie within
  // this (contiguous) array's bytes.
  NDArray CreateStridedView(ShapeTuple shape, ShapeTuple strides, uint64_t byte_offset = 0) const;

  // Copies from / to a host buffer of exactly ByteSize() bytes, in row-major
  // order (strided arrays are gathered / scattered).
  void CopyFrom(const void* data, size_t nbytes) const;
  void CopyTo(void* data, size_t nbytes) const;
  // Copies another array of the same shape and dtype into this one.
  void CopyFrom(const NDArray& other) const;
  // A compact copy in fresh storage.
  NDArray Clone(Allocator* allocator = nullptr) const;
  // The elements in row-major order; T must match dtype() exactly.
  template <typename T>
  std::vector<T> ToVector() const;

  bool defined() const { return container_ != nullptr; }
  explicit operator bool() const { return defined(); }

  const ShapeTuple& shape() const;
  // Empty for compact arrays.
  const ShapeTuple& strides() const;
  int ndim() const;
  DataType dtype() const;
  Device device() const;
  int64_t NumElements() const;
  // NumElements() * dtype().bytes().
  size_t ByteSize() const;
  // True when the elements are laid out row-major without gaps.
  bool IsContiguous() const;
  // The address of the first element (data + byte_offset).
  void* data() const;
  // The DLPack view handed to kernels (shallow: writes go to this array).
  DLTensor* dl_tensor() const;
  const std::shared_ptr<Storage>& storage() const;
  // How many handles share this array's container (views are separate).
  long use_count() const { return container_.use_count(); }
  // A weak handle of this array's container: expired once no handle of it
  // (this one or a copy) remains (the memory-plan verifier's liveness).
  std::weak_ptr<const void> WeakHandle() const;
  // "NDArray((2, 3), float32, cpu:0)", or "NDArray(null)".
  std::string ToString() const;

  // NumPy .npy files (format 1.0/2.0, little-endian, C order; dtypes
  // f2 f4 f8 i1 i2 i4 i8 u1 u2 u4 u8 b1). A missing, malformed or truncated
  // file is a RuntimeError naming the file and what is wrong.
  static NDArray LoadNpy(const std::string& path, Allocator* allocator = nullptr);
  void SaveNpy(const std::string& path) const;
  // The same on bytes in memory; `name` is used in error messages.
  static NDArray ParseNpy(std::string_view bytes, const std::string& name, Allocator* allocator = nullptr);
  std::string ToNpyBytes() const;

 private:
  struct Container;
  explicit NDArray(std::shared_ptr<Container> container) : container_(std::move(container)) {}
  static NDArray MakeView(const std::shared_ptr<Storage>& storage, char* data, ShapeTuple shape,
                          ShapeTuple strides, DataType dtype);
  const Container& container() const;

  std::shared_ptr<Container> container_;
};

template <typename T>
NDArray NDArray::FromVector(ShapeTuple shape, const std::vector<T>& values) {
  static_assert(!std::is_same_v<T, bool>, "std::vector<bool> is packed; use uint8_t and DataType::Bool()");
  NDArray array = Empty(std::move(shape), DataTypeOf<T>());
  array.CopyFrom(values.data(), values.size() * sizeof(T));
  return array;
}

template <typename T>
std::vector<T> NDArray::ToVector() const {
  static_assert(!std::is_same_v<T, bool>, "std::vector<bool> is packed; read bool arrays as uint8_t");
  if (dtype() != DataTypeOf<T>()) {
    throw RuntimeError(StrCat("ToVector: the array holds ", dtype().ToString(), ", not ",
                              DataTypeOf<T>().ToString()));
  }
  std::vector<T> values(static_cast<size_t>(NumElements()));
  CopyTo(values.data(), values.size() * sizeof(T));
  return values;
}

}  // namespace rlx::runtime
