// Element-wise gather and scatter along an axis (ONNX GatherElements and
// ScatterElements, TVM's relax.gather_elements / relax.scatter_elements).
//
// gather_elements(data, indices, axis=0): data and indices have the same
//   rank (different known ranks are an error), indices an integer dtype; the
//   result has indices' shape and data's dtype. axis is normalized against
//   the rank.
// scatter_elements(data, indices, updates, axis=0, reduction="update"): the
//   three have one rank; indices and updates have the same shape (a
//   provable mismatch is an error naming both shapes); updates' dtype is
//   data's; indices are integers. The result is data's struct info.
//   reduction is one of "update", "add", "mul", "mean", "max", "min".
#include <fmt/format.h>

#include "manipulate_common.h"
#include "rlx/op/manipulate.h"

namespace rlx::op {
namespace detail {
namespace {

void CheckSameRank(const Call& call, const TensorStructInfo& a, size_t a_index, const TensorStructInfo& b,
                   size_t b_index) {
  if (a->IsUnknownNdim() || b->IsUnknownNdim() || a->ndim == b->ndim) return;
  ThrowOpError(call, fmt::format("'{}' has rank {} but '{}' has rank {}", ArgName(call, a_index), a->ndim,
                                 ArgName(call, b_index), b->ndim));
}

int RankOf(const TensorStructInfo& a, const TensorStructInfo& b) { return a->IsUnknownNdim() ? b->ndim : a->ndim; }

StructInfo InferGatherElements(const Call& call, BlockBuilder& builder) {
  CheckNumArgs(call, 2);
  TensorStructInfo data = TensorArg(call, 0);
  TensorStructInfo indices = TensorArg(call, 1);
  CheckIndexDtype(call, 1, indices->dtype);
  CheckSameRank(call, data, 0, indices, 1);
  int ndim = RankOf(data, indices);
  int64_t axis = GetIntAttr(call, "axis", 0);
  if (ndim != -1) NormalizeAxis(call, axis, ndim);
  return TensorOrRank(builder.analyzer(), indices->GetShape(), data->dtype, ndim);
}

void CheckSameShape(const Call& call, arith::Analyzer& analyzer, const TensorStructInfo& a, size_t a_index,
                    const TensorStructInfo& b, size_t b_index) {
  std::optional<Shape> a_shape = a->GetShape();
  std::optional<Shape> b_shape = b->GetShape();
  if (!a_shape || !b_shape) return;
  for (size_t i = 0; i < a_shape->size(); ++i) {
    if (ProvablyDifferent(analyzer, (*a_shape)[i], (*b_shape)[i])) {
      ThrowOpError(call, fmt::format("'{}' of shape {} and '{}' of shape {} must have the same shape",
                                     ArgName(call, a_index), ir::ShapeToString(*a_shape), ArgName(call, b_index),
                                     ir::ShapeToString(*b_shape)));
    }
  }
}

StructInfo InferScatterElements(const Call& call, BlockBuilder& builder) {
  CheckNumArgs(call, 3);
  TensorStructInfo data = TensorArg(call, 0);
  TensorStructInfo indices = TensorArg(call, 1);
  TensorStructInfo updates = TensorArg(call, 2);
  CheckIndexDtype(call, 1, indices->dtype);
  CheckOneOf(call, "reduction", GetStringAttr(call, "reduction", "update"),
             {"update", "add", "mul", "mean", "max", "min"});
  CheckSameRank(call, data, 0, indices, 1);
  CheckSameRank(call, data, 0, updates, 2);
  CheckSameRank(call, indices, 1, updates, 2);
  CheckSameShape(call, builder.analyzer(), indices, 1, updates, 2);
  if (!data->dtype.is_void() && !updates->dtype.is_void() && data->dtype != updates->dtype) {
    ThrowOpError(call, fmt::format("'updates' has dtype {} but 'data' has dtype {}", updates->dtype.ToString(),
                                   data->dtype.ToString()));
  }
  int ndim = RankOf(data, indices);
  if (ndim == -1) ndim = updates->ndim;
  if (ndim != -1) NormalizeAxis(call, GetIntAttr(call, "axis", 0), ndim);
  if (data->IsUnknownNdim() && ndim != -1) return graph::TensorSInfo(data->dtype, ndim);
  return data;
}

}  // namespace

void RegisterGatherScatterOps() {
  using graph::AttrKind;
  using graph::OpPatternKind;
  graph::RegisterOp(MakeOpInfo("gather_elements", {"data", "indices"}, InferGatherElements, OpPatternKind::kInjective,
                               {{"axis", AttrKind::kInt, IntAttr(0)}}));
  graph::RegisterOp(MakeOpInfo("scatter_elements", {"data", "indices", "updates"}, InferScatterElements,
                               OpPatternKind::kOpaque,
                               {{"axis", AttrKind::kInt, IntAttr(0)},
                                {"reduction", AttrKind::kString, ir::MakeString("update")}}));
}

}  // namespace detail

Call gather_elements(Expr data, Expr indices, int64_t axis) {
  return detail::MakeOpCall("gather_elements", {std::move(data), std::move(indices)},
                            ir::DictWith(nullptr, "axis", detail::IntAttr(axis)));
}

Call scatter_elements(Expr data, Expr indices, Expr updates, int64_t axis, std::string reduction) {
  ir::Dict attrs = ir::DictWith(nullptr, "axis", detail::IntAttr(axis));
  attrs = ir::DictWith(attrs, "reduction", ir::MakeString(std::move(reduction)));
  return detail::MakeOpCall("scatter_elements", {std::move(data), std::move(indices), std::move(updates)},
                            std::move(attrs));
}

}  // namespace rlx::op
