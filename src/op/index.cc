// Indexing: take, strided_slice.
//
// take(x, indices, axis=None, mode="fast"): indices have an integer dtype;
//   the result is x's shape with dimension `axis` replaced by indices' whole
//   shape (x[:axis] + indices + x[axis+1:]), x's dtype. axis None requires a
//   1-D x. mode is one of "fast", "nan", "wrap", "clip".
// strided_slice(x, axes, begin, end, strides=None, assume_inbound=False):
//   axes, begin, end and strides are tuples of PrimValues of one length;
//   axes must be constants, the others may be symbolic. Per sliced axis of
//   length d with stride s (a non-zero constant; a symbolic stride keeps
//   only the rank):
//     assume_inbound: len = ceildiv(end - begin, s)       (s > 0)
//                           ceildiv(begin - end, -s)      (s < 0)
//     otherwise begin and end are first made non-negative (i < 0 -> i + d)
//     and clamped to [0, d] (s > 0) or [-1, d - 1] (s < 0), and the length
//     is max(len, 0);
//   everything simplified, so static slices give constants and `0:n` of an
//   n-long axis gives n.
#include <fmt/format.h>

#include "manipulate_common.h"
#include "rlx/op/manipulate.h"

namespace rlx::op {
namespace detail {
namespace {

// ---------------------------------------------------------------------------
// take

StructInfo InferTake(const Call& call, BlockBuilder& builder) {
  CheckNumArgs(call, 2);
  TensorStructInfo x = TensorArg(call, 0);
  TensorStructInfo indices = TensorArg(call, 1);
  CheckIndexDtype(call, 1, indices->dtype);
  CheckOneOf(call, "mode", GetStringAttr(call, "mode", "fast"), {"fast", "nan", "wrap", "clip"});
  std::optional<int64_t> axis_attr = GetOptionalIntAttr(call, "axis");
  if (!axis_attr && !x->IsUnknownNdim() && x->ndim != 1) {
    ThrowOpError(call, fmt::format("axis=None requires a 1-D tensor, got a tensor of rank {}", x->ndim));
  }
  if (x->IsUnknownNdim() || indices->IsUnknownNdim()) return graph::TensorSInfo(x->dtype, -1);
  int axis = axis_attr ? NormalizeAxis(call, *axis_attr, x->ndim) : 0;
  int out_ndim = x->ndim - 1 + indices->ndim;
  std::optional<Shape> x_shape = x->GetShape();
  std::optional<Shape> indices_shape = indices->GetShape();
  if (!x_shape || !indices_shape) return graph::TensorSInfo(x->dtype, out_ndim);
  Shape result(x_shape->begin(), x_shape->begin() + axis);
  result.insert(result.end(), indices_shape->begin(), indices_shape->end());
  result.insert(result.end(), x_shape->begin() + axis + 1, x_shape->end());
  return graph::TensorSInfo(SimplifyShape(builder.analyzer(), result), x->dtype);
}

// ---------------------------------------------------------------------------
// strided_slice

struct SliceArgs {
  std::vector<int> axes;
  std::optional<Shape> begin, end, strides;
};

// The constant axes of the slice, normalized against `ndim` (-1: unknown).
std::vector<int64_t> ConstantAxes(const Call& call) {
  int length = -1;
  std::optional<Shape> axes = PrimValueTupleArg(call, 1, length);
  if (!axes) ThrowOpError(call, "the axes must be constant integers");
  std::vector<int64_t> values;
  for (const PrimExpr& axis : *axes) {
    std::optional<int64_t> value = ir::AsConstInt(axis);
    if (!value) ThrowOpError(call, fmt::format("the axes must be constant integers, got {}", ir::ToString(axis)));
    values.push_back(*value);
  }
  return values;
}

std::optional<Shape> SliceValues(const Call& call, size_t index, size_t num_axes) {
  int length = -1;
  std::optional<Shape> values = PrimValueTupleArg(call, index, length);
  if (length != static_cast<int>(num_axes)) {
    ThrowOpError(call, fmt::format("'{}' has {} values for {} axes", ArgName(call, index), length, num_axes));
  }
  return values;
}

// `index` made non-negative and clamped to [low, high].
PrimExpr CanonicalizeIndex(const PrimExpr& index, const PrimExpr& length, int64_t low, const PrimExpr& high) {
  PrimExpr zero = ir::MakeInt(0);
  PrimExpr wrapped = ir::max(index + length, ir::MakeInt(low));
  PrimExpr clamped = ir::min(index, high);
  return ir::select(ir::lt(index, zero), wrapped, clamped);
}

PrimExpr CeilDiv(const PrimExpr& a, int64_t b) { return ir::floordiv(a + (b - 1), b); }

// The length of the slice [begin, end) with stride `stride` of an axis of
// length `length`.
PrimExpr SliceLength(arith::Analyzer& analyzer, PrimExpr begin, PrimExpr end, int64_t stride, const PrimExpr& length,
                     bool assume_inbound) {
  if (assume_inbound) {
    return analyzer.Simplify(stride > 0 ? CeilDiv(end - begin, stride) : CeilDiv(begin - end, -stride));
  }
  if (stride > 0) {
    begin = CanonicalizeIndex(begin, length, 0, length);
    end = CanonicalizeIndex(end, length, 0, length);
    return analyzer.Simplify(ir::max(CeilDiv(end - begin, stride), ir::MakeInt(0)));
  }
  begin = CanonicalizeIndex(begin, length, -1, length - 1);
  end = CanonicalizeIndex(end, length, -1, length - 1);
  return analyzer.Simplify(ir::max(CeilDiv(begin - end, -stride), ir::MakeInt(0)));
}

std::optional<Shape> SlicedShape(const Call& call, arith::Analyzer& analyzer, Shape shape, const SliceArgs& args,
                                 bool assume_inbound) {
  for (size_t i = 0; i < args.axes.size(); ++i) {
    int64_t stride = 1;
    if (args.strides) {
      std::optional<int64_t> value = ir::AsConstInt(analyzer.Simplify((*args.strides)[i]));
      if (!value) return std::nullopt;
      if (*value == 0) ThrowOpError(call, fmt::format("the stride of axis {} is 0", args.axes[i]));
      stride = *value;
    }
    int axis = args.axes[i];
    shape[axis] = SliceLength(analyzer, (*args.begin)[i], (*args.end)[i], stride, shape[axis], assume_inbound);
  }
  return shape;
}

StructInfo InferStridedSlice(const Call& call, BlockBuilder& builder) {
  if (call->args.size() != 4 && call->args.size() != 5) {
    ThrowOpError(call, fmt::format("expected 4 or 5 arguments (x, axes, begin, end[, strides]), got {}",
                                   call->args.size()));
  }
  TensorStructInfo x = TensorArg(call, 0);
  std::vector<int64_t> axes = ConstantAxes(call);
  SliceArgs args;
  args.begin = SliceValues(call, 2, axes.size());
  args.end = SliceValues(call, 3, axes.size());
  if (call->args.size() == 5) args.strides = SliceValues(call, 4, axes.size());
  bool assume_inbound = GetBoolAttr(call, "assume_inbound", false);
  if (x->IsUnknownNdim()) return graph::TensorSInfo(x->dtype, -1);
  std::vector<int> normalized = NormalizeAxes(call, axes, x->ndim);
  args.axes = normalized;
  std::optional<Shape> shape = x->GetShape();
  if (!shape || !args.begin || !args.end || (call->args.size() == 5 && !args.strides)) {
    return graph::TensorSInfo(x->dtype, x->ndim);
  }
  std::optional<Shape> sliced = SlicedShape(call, builder.analyzer(), *shape, args, assume_inbound);
  return TensorOrRank(builder.analyzer(), sliced, x->dtype, x->ndim);
}

Expr PrimValueTuple(const std::vector<PrimExpr>& values) {
  std::vector<Expr> fields;
  for (const PrimExpr& value : values) fields.push_back(make<graph::PrimValueNode>(AsInt64(value)));
  return make<graph::TupleNode>(std::move(fields));
}

}  // namespace

void RegisterIndexOps() {
  using graph::AttrKind;
  using graph::OpPatternKind;
  graph::RegisterOp(MakeOpInfo("take", {"x", "indices"}, InferTake, OpPatternKind::kInjective,
                               {{"axis", AttrKind::kOptionalInt, ObjectRef()},
                                {"mode", AttrKind::kString, ir::MakeString("fast")}}));
  graph::OpInfo slice = MakeOpInfo("strided_slice", {"x", "axes", "begin", "end", "strides"}, InferStridedSlice,
                                   OpPatternKind::kInjective, {{"assume_inbound", AttrKind::kBool, BoolAttr(false)}});
  slice.variadic_args = true;  // strides is optional
  graph::RegisterOp(std::move(slice));
}

}  // namespace detail

Call take(Expr x, Expr indices, std::optional<int64_t> axis, std::string mode) {
  ir::Dict attrs;
  if (axis) attrs = ir::DictWith(attrs, "axis", detail::IntAttr(*axis));
  attrs = ir::DictWith(attrs, "mode", ir::MakeString(std::move(mode)));
  return detail::MakeOpCall("take", {std::move(x), std::move(indices)}, std::move(attrs));
}

Call strided_slice(Expr x, std::vector<int64_t> axes, std::vector<ir::PrimExpr> begin, std::vector<ir::PrimExpr> end,
                   std::vector<ir::PrimExpr> strides, bool assume_inbound) {
  std::vector<ir::PrimExpr> axis_values;
  for (int64_t axis : axes) axis_values.push_back(ir::MakeInt(axis));
  std::vector<Expr> args = {std::move(x), detail::PrimValueTuple(axis_values), detail::PrimValueTuple(begin),
                            detail::PrimValueTuple(end)};
  if (!strides.empty()) args.push_back(detail::PrimValueTuple(strides));
  ir::Dict attrs = ir::DictWith(nullptr, "assume_inbound", detail::BoolAttr(assume_inbound));
  return detail::MakeOpCall("strided_slice", std::move(args), std::move(attrs));
}

}  // namespace rlx::op
