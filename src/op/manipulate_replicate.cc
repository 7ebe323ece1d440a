// Replication and reversal: repeat, tile, flip.
//
// repeat(data, repeats, axis=None): repeats is an int >= 1. With an axis the
//   result is data's shape with that dim multiplied by repeats; without one
//   it is 1-D, (product of dims * repeats,).
// tile(data, repeats): repeats are ints >= 0. The result has rank
//   max(ndim, len(repeats)): the shorter of the shape and repeats is padded
//   with leading 1s, then dims multiply pairwise (numpy.tile).
// flip(data, axis): same struct info as data; axis must be in range.
#include <fmt/format.h>

#include <algorithm>

#include "manipulate_common.h"
#include "rlx/op/manipulate.h"

namespace rlx::op {
namespace detail {
namespace {

StructInfo InferRepeat(const Call& call, BlockBuilder& builder) {
  CheckNumArgs(call, 1);
  TensorStructInfo data = TensorArg(call, 0);
  int64_t repeats = GetIntAttr(call, "repeats");
  if (repeats < 1) ThrowOpError(call, fmt::format("repeats must be positive, got {}", repeats));
  std::optional<int64_t> axis_attr = GetOptionalIntAttr(call, "axis");
  std::optional<Shape> shape = data->GetShape();
  if (!axis_attr) {
    if (!shape) return graph::TensorSInfo(data->dtype, 1);
    return graph::TensorSInfo({builder.analyzer().Simplify(ShapeProduct(*shape) * repeats)}, data->dtype);
  }
  if (data->IsUnknownNdim()) return graph::TensorSInfo(data->dtype, -1);
  int axis = NormalizeAxis(call, *axis_attr, data->ndim);
  if (!shape) return graph::TensorSInfo(data->dtype, data->ndim);
  Shape result = *shape;
  result[axis] = AsInt64(result[axis]) * repeats;
  return graph::TensorSInfo(SimplifyShape(builder.analyzer(), result), data->dtype);
}

StructInfo InferTile(const Call& call, BlockBuilder& builder) {
  CheckNumArgs(call, 1);
  TensorStructInfo data = TensorArg(call, 0);
  std::vector<int64_t> repeats = GetOptionalIntListAttr(call, "repeats").value_or(std::vector<int64_t>{});
  for (int64_t r : repeats) {
    if (r < 0) ThrowOpError(call, fmt::format("repeats must be non-negative, got {}", IntListToString(repeats)));
  }
  if (data->IsUnknownNdim()) return graph::TensorSInfo(data->dtype, -1);
  int out_ndim = std::max(data->ndim, static_cast<int>(repeats.size()));
  std::optional<Shape> shape = data->GetShape();
  if (!shape) return graph::TensorSInfo(data->dtype, out_ndim);
  Shape padded_shape(static_cast<size_t>(out_ndim) - shape->size(), ir::MakeInt(1));
  padded_shape.insert(padded_shape.end(), shape->begin(), shape->end());
  std::vector<int64_t> padded_repeats(static_cast<size_t>(out_ndim) - repeats.size(), 1);
  padded_repeats.insert(padded_repeats.end(), repeats.begin(), repeats.end());
  Shape result;
  for (int i = 0; i < out_ndim; ++i) result.push_back(AsInt64(padded_shape[i]) * padded_repeats[i]);
  return graph::TensorSInfo(SimplifyShape(builder.analyzer(), result), data->dtype);
}

StructInfo InferFlip(const Call& call, BlockBuilder&) {
  CheckNumArgs(call, 1);
  TensorStructInfo data = TensorArg(call, 0);
  int64_t axis = GetIntAttr(call, "axis");
  if (!data->IsUnknownNdim()) NormalizeAxis(call, axis, data->ndim);
  return data;
}

}  // namespace

void RegisterManipulateReplicateOps() {
  using graph::AttrKind;
  using graph::OpPatternKind;
  graph::RegisterOp(MakeOpInfo("repeat", {"data"}, InferRepeat, OpPatternKind::kInjective,
                               {{"repeats", AttrKind::kInt, ObjectRef()},
                                {"axis", AttrKind::kOptionalInt, ObjectRef()}}));
  graph::RegisterOp(MakeOpInfo("tile", {"data"}, InferTile, OpPatternKind::kInjective,
                               {{"repeats", AttrKind::kIntList, ObjectRef()}}));
  graph::RegisterOp(MakeOpInfo("flip", {"data"}, InferFlip, OpPatternKind::kInjective,
                               {{"axis", AttrKind::kInt, ObjectRef()}}));
}

}  // namespace detail

Call repeat(Expr data, int64_t repeats, std::optional<int64_t> axis) {
  ir::Dict attrs = ir::DictWith(nullptr, "repeats", detail::IntAttr(repeats));
  if (axis) attrs = ir::DictWith(attrs, "axis", detail::IntAttr(*axis));
  return detail::MakeOpCall("repeat", {std::move(data)}, std::move(attrs));
}

Call tile(Expr data, std::vector<int64_t> repeats) {
  return detail::MakeOpCall("tile", {std::move(data)}, ir::DictWith(nullptr, "repeats", detail::IntListAttr(repeats)));
}

Call flip(Expr data, int64_t axis) {
  return detail::MakeOpCall("flip", {std::move(data)}, ir::DictWith(nullptr, "axis", detail::IntAttr(axis)));
}

}  // namespace rlx::op
