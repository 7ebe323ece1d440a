// NDArray: construction, views, copies (design in ndarray.h).
//
// A Container owns the DLTensor and the vectors its shape/strides point
// into; it is never copied or moved after creation (the DLTensor's pointers
// would dangle), only shared.
#include "rlx/runtime/ndarray.h"

#include <cstring>
#include <utility>

namespace rlx::runtime {

struct NDArray::Container {
  DLTensor tensor{};
  ShapeTuple shape;
  ShapeTuple strides;
  std::shared_ptr<Storage> storage;

  Container() = default;
  Container(const Container&) = delete;
  Container& operator=(const Container&) = delete;
};

namespace {

std::string Describe(const ShapeTuple& shape, DataType dtype) {
  return ShapeToString(shape) + " " + dtype.ToString();
}

// The product of the dimensions; throws on a negative dimension or overflow.
int64_t CheckedNumElements(const ShapeTuple& shape, DataType dtype) {
  int64_t count = 1;
  for (int64_t dim : shape) {
    if (dim < 0) throw RuntimeError(StrCat("negative dimension ", dim, " in shape ", ShapeToString(shape)));
    if (__builtin_mul_overflow(count, dim, &count)) {
      throw RuntimeError(StrCat("shape ", ShapeToString(shape), " has too many elements"));
    }
  }
  int64_t bytes = 0;
  if (__builtin_mul_overflow(count, dtype.bytes(), &bytes)) {
    throw RuntimeError(StrCat("shape ", Describe(shape, dtype), " needs more bytes than fit in int64"));
  }
  return count;
}

void CheckByteAddressable(DataType dtype) {
  if (!dtype.is_byte_addressable()) {
    throw RuntimeError(StrCat("arrays of the sub-byte dtype ", dtype.ToString(), " are not supported"));
  }
}

// Copies `shape` elements of elem_bytes each between two strided layouts
// (strides in elements), one dimension at a time.
void CopyStrided(const char* src, const int64_t* src_strides, char* dst, const int64_t* dst_strides,
                 const int64_t* shape, int ndim, int64_t elem_bytes) {
  if (ndim == 0) {
    std::memcpy(dst, src, static_cast<size_t>(elem_bytes));
    return;
  }
  for (int64_t i = 0; i < shape[0]; ++i) {
    CopyStrided(src + i * src_strides[0] * elem_bytes, src_strides + 1, dst + i * dst_strides[0] * elem_bytes,
                dst_strides + 1, shape + 1, ndim - 1, elem_bytes);
  }
}

ShapeTuple CompactStrides(const ShapeTuple& shape) {
  ShapeTuple strides(shape.size());
  int64_t stride = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    strides[i] = stride;
    stride *= shape[i];
  }
  return strides;
}

ShapeTuple EffectiveStrides(const NDArray& array) {
  return array.strides().empty() ? CompactStrides(array.shape()) : array.strides();
}

void RequireCPU(const NDArray& array, const char* what) {
  if (!array.device().is_cpu()) {
    throw RuntimeError(StrCat(what, ": copies on ", array.device().ToString(), " are not supported yet"));
  }
}

}  // namespace

std::string ShapeToString(const ShapeTuple& shape) {
  std::string text = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) text += ", ";
    text += std::to_string(shape[i]);
  }
  if (shape.size() == 1) text += ",";
  return text + ")";
}

NDArray NDArray::MakeView(const std::shared_ptr<Storage>& storage, char* data, ShapeTuple shape,
                          ShapeTuple strides, DataType dtype) {
  auto container = std::make_shared<Container>();
  container->shape = std::move(shape);
  container->strides = std::move(strides);
  container->storage = storage;
  DLTensor& tensor = container->tensor;
  tensor.data = data;
  tensor.device = storage->device();
  tensor.ndim = static_cast<int32_t>(container->shape.size());
  tensor.dtype = dtype;
  tensor.shape = container->shape.data();
  tensor.strides = container->strides.empty() ? nullptr : container->strides.data();
  tensor.byte_offset = 0;
  return NDArray(std::move(container));
}

NDArray NDArray::Empty(ShapeTuple shape, DataType dtype, Device device, Allocator* allocator) {
  CheckByteAddressable(dtype);
  int64_t count = CheckedNumElements(shape, dtype);
  std::shared_ptr<Storage> storage = Storage::Create(static_cast<size_t>(count * dtype.bytes()), device, allocator);
  return MakeView(storage, static_cast<char*>(storage->data()), std::move(shape), {}, dtype);
}

std::weak_ptr<const void> NDArray::WeakHandle() const { return container_; }

NDArray NDArray::FromStorage(std::shared_ptr<Storage> storage, uint64_t byte_offset, ShapeTuple shape,
                             DataType dtype) {
  if (storage == nullptr) throw RuntimeError("FromStorage: the storage is null");
  CheckByteAddressable(dtype);
  uint64_t bytes = static_cast<uint64_t>(CheckedNumElements(shape, dtype) * dtype.bytes());
  if (byte_offset > storage->size() || bytes > storage->size() - byte_offset) {
    throw RuntimeError(StrCat("cannot place an array of ", Describe(shape, dtype), " (", bytes,
                              " bytes) at byte offset ", byte_offset, " in a storage of ", storage->size(),
                              " bytes"));
  }
  char* data = static_cast<char*>(storage->data()) + byte_offset;
  return MakeView(storage, data, std::move(shape), {}, dtype);
}

NDArray NDArray::CreateView(ShapeTuple shape, DataType dtype, uint64_t byte_offset) const {
  if (!IsContiguous()) {
    throw RuntimeError(StrCat("CreateView: the source array of shape ", ShapeToString(this->shape()),
                              " is not contiguous"));
  }
  CheckByteAddressable(dtype);
  uint64_t bytes = static_cast<uint64_t>(CheckedNumElements(shape, dtype) * dtype.bytes());
  if (byte_offset > ByteSize() || bytes > ByteSize() - byte_offset) {
    throw RuntimeError(StrCat("CreateView: a view of ", Describe(shape, dtype), " at byte offset ", byte_offset,
                              " needs bytes up to ", byte_offset + bytes, ", but the array of ",
                              Describe(this->shape(), this->dtype()), " has ", ByteSize()));
  }
  return MakeView(storage(), static_cast<char*>(data()) + byte_offset, std::move(shape), {}, dtype);
}

NDArray NDArray::CreateStridedView(ShapeTuple shape, ShapeTuple strides, uint64_t byte_offset) const {
  if (!IsContiguous()) {
    throw RuntimeError(StrCat("CreateStridedView: the source array of shape ", ShapeToString(this->shape()),
                              " is not contiguous"));
  }
  if (strides.size() != shape.size()) {
    throw RuntimeError(StrCat("CreateStridedView: ", strides.size(), " strides for the ", shape.size(),
                              "-dimensional shape ", ShapeToString(shape)));
  }
  int64_t count = CheckedNumElements(shape, dtype());
  // The lowest and highest element offsets the view can reach.
  int64_t lowest = 0, highest = 0;
  for (size_t i = 0; i < shape.size(); ++i) {
    int64_t reach = (shape[i] - 1) * strides[i];
    (reach < 0 ? lowest : highest) += reach;
  }
  int64_t elem = dtype().bytes();
  int64_t first = static_cast<int64_t>(byte_offset) + lowest * elem;
  int64_t end = static_cast<int64_t>(byte_offset) + (highest + 1) * elem;
  if (count > 0 && (first < 0 || end > static_cast<int64_t>(ByteSize()))) {
    throw RuntimeError(StrCat("CreateStridedView: a view of ", Describe(shape, dtype()), " with strides ",
                              ShapeToString(strides), " at byte offset ", byte_offset, " reaches bytes [", first,
                              ", ", end, "), outside the array's ", ByteSize(), " bytes"));
  }
  return MakeView(storage(), static_cast<char*>(data()) + byte_offset, std::move(shape), std::move(strides),
                  dtype());
}

void NDArray::CopyFrom(const void* src, size_t nbytes) const {
  RequireCPU(*this, "CopyFrom");
  if (nbytes != ByteSize()) {
    throw RuntimeError(StrCat("CopyFrom: an array of ", Describe(shape(), dtype()), " needs ", ByteSize(),
                              " bytes, got ", nbytes));
  }
  if (IsContiguous()) {
    if (nbytes > 0) std::memcpy(data(), src, nbytes);
    return;
  }
  ShapeTuple compact = CompactStrides(shape());
  CopyStrided(static_cast<const char*>(src), compact.data(), static_cast<char*>(data()), strides().data(),
              shape().data(), ndim(), dtype().bytes());
}

void NDArray::CopyTo(void* dst, size_t nbytes) const {
  RequireCPU(*this, "CopyTo");
  if (nbytes != ByteSize()) {
    throw RuntimeError(StrCat("CopyTo: an array of ", Describe(shape(), dtype()), " has ", ByteSize(),
                              " bytes, but the buffer has ", nbytes));
  }
  if (IsContiguous()) {
    if (nbytes > 0) std::memcpy(dst, data(), nbytes);
    return;
  }
  ShapeTuple compact = CompactStrides(shape());
  CopyStrided(static_cast<const char*>(data()), strides().data(), static_cast<char*>(dst), compact.data(),
              shape().data(), ndim(), dtype().bytes());
}

void NDArray::CopyFrom(const NDArray& other) const {
  if (!other.defined()) throw RuntimeError("CopyFrom: the source array is null");
  RequireCPU(*this, "CopyFrom");
  RequireCPU(other, "CopyFrom");
  if (other.shape() != shape() || other.dtype() != dtype()) {
    throw RuntimeError(StrCat("CopyFrom: cannot copy an array of ", Describe(other.shape(), other.dtype()),
                              " into one of ", Describe(shape(), dtype())));
  }
  if (IsContiguous() && other.IsContiguous()) {
    if (ByteSize() > 0) std::memmove(data(), other.data(), ByteSize());
    return;
  }
  if (NumElements() == 0) return;
  ShapeTuple src_strides = EffectiveStrides(other);
  ShapeTuple dst_strides = EffectiveStrides(*this);
  CopyStrided(static_cast<const char*>(other.data()), src_strides.data(), static_cast<char*>(data()),
              dst_strides.data(), shape().data(), ndim(), dtype().bytes());
}

NDArray NDArray::Clone(Allocator* allocator) const {
  NDArray copy = Empty(shape(), dtype(), device(), allocator);
  copy.CopyFrom(*this);
  return copy;
}

const NDArray::Container& NDArray::container() const {
  if (container_ == nullptr) throw RuntimeError("use of a null NDArray");
  return *container_;
}

const ShapeTuple& NDArray::shape() const { return container().shape; }
const ShapeTuple& NDArray::strides() const { return container().strides; }
int NDArray::ndim() const { return static_cast<int>(container().shape.size()); }
DataType NDArray::dtype() const { return DataType(container().tensor.dtype); }
Device NDArray::device() const { return Device(container().tensor.device); }
const std::shared_ptr<Storage>& NDArray::storage() const { return container().storage; }
DLTensor* NDArray::dl_tensor() const { return const_cast<DLTensor*>(&container().tensor); }

void* NDArray::data() const {
  const DLTensor& tensor = container().tensor;
  return static_cast<char*>(tensor.data) + tensor.byte_offset;
}

int64_t NDArray::NumElements() const {
  int64_t count = 1;
  for (int64_t dim : shape()) count *= dim;
  return count;
}

size_t NDArray::ByteSize() const { return static_cast<size_t>(NumElements() * dtype().bytes()); }

bool NDArray::IsContiguous() const {
  const ShapeTuple& strides = this->strides();
  if (strides.empty() || NumElements() == 0) return true;
  const ShapeTuple& shape = this->shape();
  int64_t expected = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    if (shape[i] != 1 && strides[i] != expected) return false;
    expected *= shape[i];
  }
  return true;
}

std::string NDArray::ToString() const {
  if (!defined()) return "NDArray(null)";
  return StrCat("NDArray(", ShapeToString(shape()), ", ", dtype().ToString(), ", ", device().ToString(), ")");
}

}  // namespace rlx::runtime
