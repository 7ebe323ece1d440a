// Naive C++ references of the operators, shared by the tests that run
// legalized PrimFuncs in the TIR interpreter (tests/unit/op) and the tests
// that run the same PrimFuncs compiled through LLVM (tests/unit/codegen).
// Each reference computes the output from the operator's definition (numpy /
// TVM Relax semantics), element by element, without any TIR: it is the
// independent side of every numerical comparison.
//
//   tir::HostTensor x = RandomTensor(kF32, {5, 3}, 1);
//   ExpectedTensor want = PermuteDimsReference(x, {1, 0});
//   ExpectTensorNear(actual, want.shape, want.values, 0, 0, "permute_dims");
//
// Besides the per-operator references it holds the data helpers they are
// built from: random tensors, PyTorch reference arrays (LoadOpReference),
// row-major index arithmetic, numpy broadcasting, rounding to a dtype and
// the element-wise comparison.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "rlx/ir/dtype.h"
#include "rlx/runtime/ndarray.h"
#include "rlx/tir/interpreter.h"

namespace rlx::op_test {

using Index = std::vector<int64_t>;
// The value of one output element, given its multi-index.
using ElementFn = std::function<double(const Index&)>;

// ---------------------------------------------------------------------------
// Data

// A tensor of uniform random values in [lo, hi) (integers: rounded down).
inline tir::HostTensor RandomTensor(DataType dtype, std::vector<int64_t> shape, unsigned seed, double lo = -2.0,
                                    double hi = 2.0) {
  tir::HostTensor tensor(dtype, std::move(shape));
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> dist(lo, hi);
  for (int64_t i = 0; i < tensor.num_elements(); ++i) {
    double value = dist(rng);
    if (dtype.is_bool()) {
      tensor.SetInt(i, value > (lo + hi) / 2 ? 1 : 0);
    } else if (dtype.is_integer()) {
      tensor.SetInt(i, static_cast<int64_t>(std::floor(value)));
    } else {
      tensor.SetFloat(i, value);
    }
  }
  return tensor;
}

// A tensor of shape `shape` filled with 0, 1, 2, ... so copies are easy to check.
inline tir::HostTensor Iota(DataType dtype, const Index& shape) {
  tir::HostTensor tensor(dtype, shape);
  for (int64_t i = 0; i < tensor.num_elements(); ++i) tensor.SetFloat(i, static_cast<double>(i));
  return tensor;
}

// ---------------------------------------------------------------------------
// Index arithmetic

inline int64_t NumElements(const Index& shape) {
  return std::accumulate(shape.begin(), shape.end(), int64_t{1}, std::multiplies<>());
}

// Row-major multi-index of flat position `flat` in `shape`.
inline Index Unflatten(int64_t flat, const Index& shape) {
  Index index(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    index[d] = shape[d] == 0 ? 0 : flat % shape[d];
    flat = shape[d] == 0 ? 0 : flat / shape[d];
  }
  return index;
}

// Row-major position of `index` in `shape`.
inline int64_t Ravel(const Index& index, const Index& shape) {
  int64_t flat = 0;
  for (size_t d = 0; d < shape.size(); ++d) flat = flat * shape[d] + index[d];
  return flat;
}

// The element of `tensor` that a broadcast result element at `out_index`
// reads (numpy broadcasting, aligned at the right).
inline double BroadcastAt(const tir::HostTensor& tensor, const Index& out_index) {
  Index index(tensor.shape.size());
  size_t offset = out_index.size() - tensor.shape.size();
  for (size_t d = 0; d < tensor.shape.size(); ++d) index[d] = tensor.shape[d] == 1 ? 0 : out_index[offset + d];
  return tensor.At(index);
}

// An axis in [-rank, rank) made non-negative.
inline int64_t NormalizeAxis(int64_t axis, size_t rank) { return axis < 0 ? axis + static_cast<int64_t>(rank) : axis; }

// A PyTorch reference array (tests/data/op_reference/<case>.<array>.npy,
// written by tests/data/gen_op_reference.py) as a float32 or int64 tensor.
inline tir::HostTensor LoadOpReference(const std::string& case_name, const std::string& array) {
  runtime::NDArray nd = runtime::NDArray::LoadNpy(std::string(RLX_SOURCE_DIR) + "/tests/data/op_reference/" +
                                                  case_name + "." + array + ".npy");
  std::vector<int64_t> shape(nd.shape().begin(), nd.shape().end());
  if (nd.dtype().code() == runtime::DataType::kInt) {
    tir::HostTensor result(DataType::Int64(), shape);
    std::vector<int64_t> values = nd.ToVector<int64_t>();
    for (size_t i = 0; i < values.size(); ++i) result.SetInt(static_cast<int64_t>(i), values[i]);
    return result;
  }
  std::vector<float> values = nd.ToVector<float>();
  return tir::HostTensor::FromDoubles(DataType::Float32(), shape, std::vector<double>(values.begin(), values.end()));
}

// ---------------------------------------------------------------------------
// Expected results and the comparison

// The expected output of an operator: its shape and row-major values.
struct ExpectedTensor {
  Index shape;
  std::vector<double> values;
};

// The tensor of `shape` whose element at index i is `element(i)`.
inline ExpectedTensor Reference(const Index& shape, const ElementFn& element) {
  ExpectedTensor expected{shape, {}};
  for (int64_t flat = 0; flat < NumElements(shape); ++flat) expected.values.push_back(element(Unflatten(flat, shape)));
  return expected;
}

// The reference rounded to the output dtype (as the kernel stores it).
inline std::vector<double> RoundedTo(DataType dtype, const Index& shape, const std::vector<double>& values) {
  return tir::HostTensor::FromDoubles(dtype, shape, values).ToDoubles();
}

// Expects `actual` to hold `expected` (same shape and dtype), elementwise
// within `rel` relative + `abs_tol` absolute error; NaN matches NaN.
inline void ExpectTensorNear(const tir::HostTensor& actual, const Index& shape, const std::vector<double>& expected,
                             double rel, double abs_tol, const std::string& what) {
  ASSERT_EQ(actual.shape, shape) << what;
  ASSERT_EQ(actual.num_elements(), static_cast<int64_t>(expected.size())) << what;
  int failures = 0;
  for (int64_t i = 0; i < actual.num_elements() && failures < 5; ++i) {
    double a = actual.GetFloat(i), e = expected[i];
    bool ok = (std::isnan(a) && std::isnan(e)) || a == e || std::fabs(a - e) <= abs_tol + rel * std::fabs(e);
    if (!ok) {
      ++failures;
      ADD_FAILURE() << what << ": element " << i << " is " << a << ", expected " << e;
    }
  }
}

inline void ExpectTensorEq(const tir::HostTensor& actual, const ExpectedTensor& expected, const std::string& what) {
  ExpectTensorNear(actual, expected.shape, expected.values, 0, 0, what);
}

// ---------------------------------------------------------------------------
// Data movement

// reshape, flatten, expand_dims, squeeze: the elements in the same row-major
// order under a new shape.
inline ExpectedTensor RowMajorCopyReference(const tir::HostTensor& x, const Index& out_shape) {
  return Reference(out_shape, [&](const Index& i) { return x.GetFloat(Ravel(i, out_shape)); });
}

// permute_dims: output axis d is input axis axes[d] (reversed when empty).
inline ExpectedTensor PermuteDimsReference(const tir::HostTensor& x, Index axes = {}) {
  size_t rank = x.shape.size();
  if (axes.empty()) {
    for (size_t d = rank; d-- > 0;) axes.push_back(static_cast<int64_t>(d));
  }
  Index shape;
  for (int64_t axis : axes) shape.push_back(x.shape[NormalizeAxis(axis, rank)]);
  return Reference(shape, [&](const Index& i) {
    Index source(rank);
    for (size_t d = 0; d < rank; ++d) source[NormalizeAxis(axes[d], rank)] = i[d];
    return x.At(source);
  });
}

// `tensor` with its dimensions permuted (result dim d is tensor dim perm[d]),
// as a tensor of the same dtype: to feed a layout the data was not made in.
inline tir::HostTensor Permuted(const tir::HostTensor& tensor, const Index& perm) {
  ExpectedTensor permuted = PermuteDimsReference(tensor, perm);
  return tir::HostTensor::FromDoubles(tensor.dtype, permuted.shape, permuted.values);
}

inline ExpectedTensor BroadcastToReference(const tir::HostTensor& x, const Index& shape) {
  return Reference(shape, [&](const Index& i) { return BroadcastAt(x, i); });
}

inline ExpectedTensor FlipReference(const tir::HostTensor& x, int64_t axis) {
  size_t a = NormalizeAxis(axis, x.shape.size());
  return Reference(x.shape, [&](const Index& i) {
    Index source = i;
    source[a] = x.shape[a] - 1 - i[a];
    return x.At(source);
  });
}

// repeat: each element `repeats` times along `axis`; without an axis, of the
// flattened tensor.
inline ExpectedTensor RepeatReference(const tir::HostTensor& x, int64_t repeats, std::optional<int64_t> axis) {
  if (!axis) {
    return Reference({x.num_elements() * repeats}, [&](const Index& i) { return x.GetFloat(i[0] / repeats); });
  }
  size_t a = NormalizeAxis(*axis, x.shape.size());
  Index shape = x.shape;
  shape[a] *= repeats;
  return Reference(shape, [&](const Index& i) {
    Index source = i;
    source[a] = i[a] / repeats;
    return x.At(source);
  });
}

// tile: the shorter of rank and repeats is padded with leading 1s.
inline ExpectedTensor TileReference(const tir::HostTensor& x, Index repeats) {
  Index in_shape = x.shape;
  while (in_shape.size() < repeats.size()) in_shape.insert(in_shape.begin(), 1);
  while (repeats.size() < in_shape.size()) repeats.insert(repeats.begin(), 1);
  Index shape;
  for (size_t d = 0; d < in_shape.size(); ++d) shape.push_back(in_shape[d] * repeats[d]);
  size_t dropped = in_shape.size() - x.shape.size();
  return Reference(shape, [&](const Index& i) {
    Index source;
    for (size_t d = dropped; d < in_shape.size(); ++d) source.push_back(i[d] % in_shape[d]);
    return x.At(source);
  });
}

inline ExpectedTensor ConcatReference(const std::vector<tir::HostTensor>& inputs, int64_t axis) {
  size_t a = NormalizeAxis(axis, inputs[0].shape.size());
  Index shape = inputs[0].shape;
  shape[a] = 0;
  for (const tir::HostTensor& t : inputs) shape[a] += t.shape[a];
  return Reference(shape, [&](const Index& i) {
    Index source = i;
    for (const tir::HostTensor& t : inputs) {
      if (source[a] < t.shape[a]) return t.At(source);
      source[a] -= t.shape[a];
    }
    ADD_FAILURE() << "concat reference: index past the end";
    return 0.0;
  });
}

// The piece boundaries of split: `sections` equal pieces (the last one
// shorter when the length does not divide), as numpy's array_split with
// ceil-sized pieces, which is what TVM's split does.
inline Index SplitSectionBounds(int64_t length, int64_t sections) {
  int64_t size = (length + sections - 1) / sections;
  Index bounds;
  for (int64_t k = 0; k <= sections; ++k) bounds.push_back(std::min(k * size, length));
  return bounds;
}

// The piece boundaries of split at `indices` (clamped to the axis).
inline Index SplitIndexBounds(int64_t length, const Index& indices) {
  Index bounds = {0};
  for (int64_t index : indices) bounds.push_back(std::clamp<int64_t>(index, bounds.back(), length));
  bounds.push_back(length);
  return bounds;
}

// Piece k of split is [bounds[k], bounds[k + 1]) along `axis`.
inline std::vector<ExpectedTensor> SplitReference(const tir::HostTensor& x, const Index& bounds, int64_t axis) {
  size_t a = NormalizeAxis(axis, x.shape.size());
  std::vector<ExpectedTensor> pieces;
  for (size_t k = 0; k + 1 < bounds.size(); ++k) {
    Index shape = x.shape;
    shape[a] = std::max<int64_t>(bounds[k + 1] - bounds[k], 0);
    int64_t begin = bounds[k];
    pieces.push_back(Reference(shape, [&](const Index& i) {
      Index source = i;
      source[a] += begin;
      return x.At(source);
    }));
  }
  return pieces;
}

// numpy's slice begin:end:stride of an axis of length `length`: the indices
// it selects.
inline Index SliceIndices(int64_t begin, int64_t end, int64_t stride, int64_t length) {
  auto canonical = [&](int64_t i) {
    if (i < 0) i += length;
    return stride > 0 ? std::clamp<int64_t>(i, 0, length) : std::clamp<int64_t>(i, -1, length - 1);
  };
  Index selected;
  for (int64_t i = canonical(begin); stride > 0 ? i < canonical(end) : i > canonical(end); i += stride) {
    selected.push_back(i);
  }
  return selected;
}

// strided_slice: axes[k] is sliced begin[k]:end[k]:strides[k] (stride 1 when
// `strides` is empty); other axes are kept whole.
inline ExpectedTensor StridedSliceReference(const tir::HostTensor& x, const Index& axes, const Index& begin,
                                            const Index& end, const Index& strides = {}) {
  size_t rank = x.shape.size();
  std::vector<Index> selected(rank);
  for (size_t d = 0; d < rank; ++d) {
    for (int64_t i = 0; i < x.shape[d]; ++i) selected[d].push_back(i);
  }
  for (size_t k = 0; k < axes.size(); ++k) {
    size_t a = NormalizeAxis(axes[k], rank);
    selected[a] = SliceIndices(begin[k], end[k], strides.empty() ? 1 : strides[k], x.shape[a]);
  }
  Index shape;
  for (const Index& s : selected) shape.push_back(static_cast<int64_t>(s.size()));
  return Reference(shape, [&](const Index& i) {
    Index source(rank);
    for (size_t d = 0; d < rank; ++d) source[d] = selected[d][i[d]];
    return x.At(source);
  });
}

// take along `axis` with TVM's modes: "fast" (indices in range), "clip"
// (clamped), "wrap" (modulo), "nan" (NaN for out-of-range indices).
inline ExpectedTensor TakeReference(const tir::HostTensor& x, const tir::HostTensor& indices, int64_t axis,
                                    const std::string& mode = "fast") {
  size_t a = NormalizeAxis(axis, x.shape.size());
  int64_t length = x.shape[a];
  Index shape(x.shape.begin(), x.shape.begin() + a);
  shape.insert(shape.end(), indices.shape.begin(), indices.shape.end());
  shape.insert(shape.end(), x.shape.begin() + a + 1, x.shape.end());
  size_t index_rank = indices.shape.size();
  return Reference(shape, [&, a](const Index& i) {
    Index index_of(i.begin() + a, i.begin() + a + index_rank);
    int64_t j = static_cast<int64_t>(indices.At(index_of));
    if (mode == "clip") j = std::clamp<int64_t>(j, 0, length - 1);
    if (mode == "wrap") j = ((j % length) + length) % length;
    if (j < 0 || j >= length) {
      EXPECT_EQ(mode, "nan") << "take reference: index " << j << " out of range in mode " << mode;
      return std::nan("");
    }
    Index source(i.begin(), i.begin() + a);
    source.push_back(j);
    source.insert(source.end(), i.begin() + a + index_rank, i.end());
    return x.At(source);
  });
}

// gather_elements: out[i] = data[i with axis replaced by indices[i]]
// (negative indices count from the end).
inline ExpectedTensor GatherElementsReference(const tir::HostTensor& data, const tir::HostTensor& indices,
                                              int64_t axis) {
  size_t a = NormalizeAxis(axis, data.shape.size());
  return Reference(indices.shape, [&](const Index& i) {
    int64_t j = static_cast<int64_t>(indices.At(i));
    Index source = i;
    source[a] = j < 0 ? j + data.shape[a] : j;
    return data.At(source);
  });
}

// scatter_elements: the updates applied one by one in row-major order of
// `indices` (so duplicates combine in that order), with `reduction` one of
// update, add, mul, mean (the running pairwise mean, as TVM computes it),
// max, min. Rounded to the data's dtype.
inline ExpectedTensor ScatterElementsReference(const tir::HostTensor& data, const tir::HostTensor& indices,
                                               const tir::HostTensor& updates, int64_t axis,
                                               const std::string& reduction) {
  size_t a = NormalizeAxis(axis, data.shape.size());
  std::vector<double> out = data.ToDoubles();
  for (int64_t flat = 0; flat < indices.num_elements(); ++flat) {
    Index target = Unflatten(flat, indices.shape);
    int64_t j = static_cast<int64_t>(indices.GetFloat(flat));
    target[a] = j < 0 ? j + data.shape[a] : j;
    double& dst = out[Ravel(target, data.shape)];
    double u = updates.GetFloat(flat);
    if (reduction == "update") dst = u;
    if (reduction == "add") dst += u;
    if (reduction == "mul") dst *= u;
    if (reduction == "mean") dst = (dst + u) / 2;
    if (reduction == "max") dst = std::max(dst, u);
    if (reduction == "min") dst = std::min(dst, u);
  }
  return {data.shape, RoundedTo(data.dtype, data.shape, out)};
}

// layout_transform by its forward index map: every input element lands at
// map(index); output elements no input reaches hold `pad_value`.
inline ExpectedTensor LayoutTransformReference(const tir::HostTensor& x, const Index& out_shape,
                                               const std::function<Index(const Index&)>& map, double pad_value) {
  ExpectedTensor expected{out_shape, std::vector<double>(NumElements(out_shape), pad_value)};
  for (int64_t flat = 0; flat < x.num_elements(); ++flat) {
    expected.values[Ravel(map(Unflatten(flat, x.shape)), out_shape)] = x.GetFloat(flat);
  }
  return expected;
}

// ---------------------------------------------------------------------------
// where, astype

// where(cond, x1, x2) with numpy broadcasting of the three operands.
inline ExpectedTensor WhereReference(const tir::HostTensor& cond, const tir::HostTensor& x1,
                                     const tir::HostTensor& x2) {
  size_t rank = std::max({cond.shape.size(), x1.shape.size(), x2.shape.size()});
  Index shape(rank, 1);
  for (const tir::HostTensor* t : {&cond, &x1, &x2}) {
    for (size_t d = 0; d < t->shape.size(); ++d) {
      int64_t& dim = shape[rank - t->shape.size() + d];
      if (t->shape[d] != 1) dim = t->shape[d];
    }
  }
  return Reference(shape, [&](const Index& i) {
    return BroadcastAt(cond, i) != 0 ? BroadcastAt(x1, i) : BroadcastAt(x2, i);
  });
}

// astype: to bool, nonzero; to an integer, truncation towards zero (the
// values must be in range); to a float, rounding to the nearest
// representable value.
inline ExpectedTensor AstypeReference(const tir::HostTensor& x, DataType to) {
  std::vector<double> values;
  for (double v : x.ToDoubles()) {
    if (to.is_bool()) v = v != 0 ? 1 : 0;
    if (to.is_integer()) v = std::trunc(v);
    values.push_back(v);
  }
  return {x.shape, RoundedTo(to, x.shape, values)};
}

}  // namespace rlx::op_test
