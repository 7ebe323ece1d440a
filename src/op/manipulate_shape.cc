// Shape edits: expand_dims, squeeze, flatten, broadcast_to (and the
// constructor of shape_of, a builtin of the graph layer: src/graph/builtin_ops.cc).
//
// expand_dims(x, axis): the result has rank ndim + len(axis); each axis is
//   normalized against that rank (so -1 appends) and gets a dimension 1.
// squeeze(x, axis=None): with axes, each named dimension must be 1; one that
//   provably is not is an error, an undecidable one is assumed to be 1 and
//   removed (as TVM). Without axes every dimension provably 1 is removed;
//   when some dimension is undecidable the result keeps only its dtype (the
//   rank is unknowable).
// flatten(x): (product of dims,); a scalar becomes (1,).
// broadcast_to(x, shape): x's dims, aligned at the right, must each be 1 or
//   equal to the target's; a provable mismatch is an error naming both
//   shapes, an undecidable pair is accepted. The result's shape is the
//   target (a Shape var whose values are unknown becomes the shape as is).
#include <fmt/format.h>

#include <algorithm>

#include "manipulate_common.h"
#include "rlx/op/manipulate.h"

namespace rlx::op {
namespace detail {
namespace {

StructInfo InferExpandDims(const Call& call, BlockBuilder& builder) {
  CheckNumArgs(call, 1);
  TensorStructInfo x = TensorArg(call, 0);
  std::vector<int64_t> axes = GetOptionalIntListAttr(call, "axis").value_or(std::vector<int64_t>{});
  if (x->IsUnknownNdim()) return graph::TensorSInfo(x->dtype, -1);
  int out_ndim = x->ndim + static_cast<int>(axes.size());
  std::vector<int> inserted = NormalizeAxes(call, axes, out_ndim);
  std::optional<Shape> shape = x->GetShape();
  if (!shape) return graph::TensorSInfo(x->dtype, out_ndim);
  Shape result(static_cast<size_t>(out_ndim));
  std::vector<bool> is_new(static_cast<size_t>(out_ndim), false);
  for (int axis : inserted) is_new[axis] = true;
  size_t next_input = 0;
  for (int i = 0; i < out_ndim; ++i) result[i] = is_new[i] ? ir::MakeInt(1) : (*shape)[next_input++];
  return graph::TensorSInfo(SimplifyShape(builder.analyzer(), result), x->dtype);
}

StructInfo SqueezeAllOnes(arith::Analyzer& analyzer, const TensorStructInfo& x) {
  std::optional<Shape> shape = x->GetShape();
  if (!shape) return graph::TensorSInfo(x->dtype, -1);
  Shape result;
  for (const PrimExpr& dim : *shape) {
    if (ProvablyEqual(analyzer, dim, ir::MakeInt(1))) continue;
    if (!ProvablyDifferent(analyzer, dim, ir::MakeInt(1))) return graph::TensorSInfo(x->dtype, -1);
    result.push_back(dim);
  }
  return graph::TensorSInfo(SimplifyShape(analyzer, result), x->dtype);
}

StructInfo InferSqueeze(const Call& call, BlockBuilder& builder) {
  CheckNumArgs(call, 1);
  TensorStructInfo x = TensorArg(call, 0);
  std::optional<std::vector<int64_t>> axes = GetOptionalIntListAttr(call, "axis");
  if (!axes) return SqueezeAllOnes(builder.analyzer(), x);
  if (x->IsUnknownNdim()) return graph::TensorSInfo(x->dtype, -1);
  std::vector<int> removed = NormalizeAxes(call, *axes, x->ndim);
  int out_ndim = x->ndim - static_cast<int>(removed.size());
  std::optional<Shape> shape = x->GetShape();
  if (!shape) return graph::TensorSInfo(x->dtype, out_ndim);
  for (int axis : removed) {
    if (ProvablyDifferent(builder.analyzer(), (*shape)[axis], ir::MakeInt(1))) {
      ThrowOpError(call, fmt::format("cannot squeeze axis {} of a tensor of shape {}: its size is {}, not 1", axis,
                                     ir::ShapeToString(*shape), ir::ToString((*shape)[axis])));
    }
  }
  Shape result;
  for (int i = 0; i < x->ndim; ++i) {
    if (std::find(removed.begin(), removed.end(), i) == removed.end()) result.push_back((*shape)[i]);
  }
  return graph::TensorSInfo(SimplifyShape(builder.analyzer(), result), x->dtype);
}

StructInfo InferFlatten(const Call& call, BlockBuilder& builder) {
  CheckNumArgs(call, 1);
  TensorStructInfo x = TensorArg(call, 0);
  std::optional<Shape> shape = x->GetShape();
  if (!shape) return graph::TensorSInfo(x->dtype, 1);
  return graph::TensorSInfo({builder.analyzer().Simplify(ShapeProduct(*shape))}, x->dtype);
}

void CheckBroadcastable(const Call& call, arith::Analyzer& analyzer, const Shape& from, const Shape& to) {
  if (from.size() > to.size()) {
    ThrowOpError(call, fmt::format("cannot broadcast a tensor of shape {} to the lower-rank shape {}",
                                   ir::ShapeToString(from), ir::ShapeToString(to)));
  }
  size_t offset = to.size() - from.size();
  for (size_t i = 0; i < from.size(); ++i) {
    const PrimExpr& dim = from[i];
    if (ProvablyDifferent(analyzer, dim, ir::MakeInt(1)) && ProvablyDifferent(analyzer, dim, to[offset + i])) {
      ThrowOpError(call, fmt::format("cannot broadcast a tensor of shape {} to shape {}", ir::ShapeToString(from),
                                     ir::ShapeToString(to)));
    }
  }
}

StructInfo InferBroadcastTo(const Call& call, BlockBuilder& builder) {
  CheckNumArgs(call, 2);
  TensorStructInfo x = TensorArg(call, 0);
  int target_ndim = -1;
  std::optional<Shape> target = ShapeArgValues(call, 1, target_ndim);
  if (!x->IsUnknownNdim() && target_ndim != -1 && x->ndim > target_ndim) {
    ThrowOpError(call, fmt::format("cannot broadcast a tensor of rank {} to a shape of rank {}", x->ndim,
                                   target_ndim));
  }
  if (!target) {
    if (call->args[1].isa<graph::VarNode>()) return make<graph::TensorStructInfoNode>(call->args[1], x->dtype);
    return graph::TensorSInfo(x->dtype, target_ndim);
  }
  if (std::optional<Shape> shape = x->GetShape()) CheckBroadcastable(call, builder.analyzer(), *shape, *target);
  return graph::TensorSInfo(SimplifyShape(builder.analyzer(), *target), x->dtype);
}

}  // namespace

void RegisterManipulateShapeOps() {
  using graph::AttrKind;
  using graph::OpPatternKind;
  graph::RegisterOp(MakeOpInfo("expand_dims", {"x"}, InferExpandDims, OpPatternKind::kInjective,
                               {{"axis", AttrKind::kIntList, ObjectRef()}}));
  graph::RegisterOp(MakeOpInfo("squeeze", {"x"}, InferSqueeze, OpPatternKind::kInjective,
                               {{"axis", AttrKind::kOptionalIntList, ObjectRef()}}));
  graph::RegisterOp(MakeOpInfo("flatten", {"x"}, InferFlatten, OpPatternKind::kInjective));
  graph::RegisterOp(MakeOpInfo("broadcast_to", {"x", "shape"}, InferBroadcastTo, OpPatternKind::kBroadcast));
}

}  // namespace detail

Call expand_dims(Expr x, std::vector<int64_t> axis) {
  return detail::MakeOpCall("expand_dims", {std::move(x)}, ir::DictWith(nullptr, "axis", detail::IntListAttr(axis)));
}

Call squeeze(Expr x, std::optional<std::vector<int64_t>> axis) {
  ir::Dict attrs;
  if (axis) attrs = ir::DictWith(attrs, "axis", detail::IntListAttr(*axis));
  return detail::MakeOpCall("squeeze", {std::move(x)}, std::move(attrs));
}

Call flatten(Expr x) { return detail::MakeOpCall("flatten", {std::move(x)}); }

Call broadcast_to(Expr x, Expr shape) { return detail::MakeOpCall("broadcast_to", {std::move(x), std::move(shape)}); }

Call shape_of(Expr x) { return detail::MakeOpCall("shape_of", {std::move(x)}); }

}  // namespace rlx::op
