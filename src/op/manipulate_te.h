// Tensor-expression definitions of the data-movement operators (private to
// src/op), used by their legalizations. Each takes te::Tensors whose shapes
// are the call's argument shapes and returns the result tensor(s); shapes of
// results are passed in when the struct-info rule already computed them, so
// the PrimFunc's buffers carry exactly the deduced (simplified) shapes.
//
// Index arithmetic is int64. Data-dependent indices (take, gather_elements,
// scatter_elements) are normalized the way TVM's kernels do: a negative
// index counts from the end of its axis.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "rlx/ir/expr.h"
#include "rlx/tir/function.h"
#include "rlx/tir/te.h"

namespace rlx::op::detail {

using Shape = std::vector<ir::PrimExpr>;

// Row-major position of `index` in `shape`, and its inverse.
ir::PrimExpr RavelIndex(const std::vector<ir::PrimExpr>& index, const Shape& shape);
std::vector<ir::PrimExpr> UnravelIndex(const ir::PrimExpr& flat, const Shape& shape);

te::Tensor ReshapeTE(const te::Tensor& x, const Shape& new_shape);
// `axes[i]` is the input axis that becomes output axis i.
te::Tensor PermuteDimsTE(const te::Tensor& x, const std::vector<int>& axes);
// `out_shape` is the result's shape: x's dims with the new unit dims (the
// positions in `is_new`) inserted.
te::Tensor ExpandDimsTE(const te::Tensor& x, const Shape& out_shape, const std::vector<bool>& is_new);
// Removes the axes marked in `removed` (each of size 1).
te::Tensor SqueezeTE(const te::Tensor& x, const std::vector<bool>& removed, const Shape& out_shape);
te::Tensor BroadcastToTE(const te::Tensor& x, const Shape& out_shape);
te::Tensor ConcatTE(const std::vector<te::Tensor>& inputs, int axis, const Shape& out_shape);
// The piece of `x` starting at `begin` along `axis` with shape `piece_shape`.
te::Tensor SliceAlongTE(const te::Tensor& x, int axis, const ir::PrimExpr& begin, const Shape& piece_shape,
                        const std::string& name);
// out[..., i_axis, ...] = x[..., begin + i_axis * stride, ...] per sliced axis.
te::Tensor StridedSliceTE(const te::Tensor& x, const std::vector<int>& axes, const std::vector<ir::PrimExpr>& begins,
                          const std::vector<int64_t>& strides, const Shape& out_shape);
// numpy.take along `axis` (x is 1-D when `axis` is nullopt). mode: "fast"
// (indices assumed in range), "wrap", "clip", "nan" (NaN, or 0 for
// non-float dtypes, out of range).
te::Tensor TakeTE(const te::Tensor& x, const te::Tensor& indices, int axis, const std::string& mode);
te::Tensor GatherElementsTE(const te::Tensor& data, const te::Tensor& indices, int axis);
// `axis` nullopt: of the flattened tensor.
te::Tensor RepeatTE(const te::Tensor& data, int64_t repeats, std::optional<int> axis, const Shape& out_shape);
te::Tensor TileTE(const te::Tensor& data, const Shape& out_shape);
te::Tensor FlipTE(const te::Tensor& data, int axis);

// scatter_elements as a PrimFunc(data, indices, updates, out): out = data,
// then every position of `indices`, in row-major order, updates its target
// with `reduction` (TVM's sequential semantics, "mean" averaging the current
// value with each update in turn). `scalar_params` (sizes no buffer dim
// defines by itself) follow the buffers as scalar parameters.
tir::PrimFunc ScatterElementsPrimFunc(const Shape& data_shape, DataType dtype, const Shape& indices_shape,
                                      DataType index_dtype, int axis, const std::string& reduction,
                                      const std::vector<ir::Var>& scalar_params = {});

}  // namespace rlx::op::detail
