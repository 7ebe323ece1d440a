// Joining and splitting: concat, split.
//
// concat(tensors, axis=0): `tensors` is a tuple of tensors (a Tuple
//   expression or a tuple-valued var). Known dtypes must agree and known
//   ranks must be equal; axis None requires 1-D tensors and concatenates
//   along 0. With every shape known, the result's dim at `axis` is the
//   (simplified) sum, e.g. (n, 4) ++ (m, 4) -> (n + m, 4); the other dims
//   must be equal: provably different is an error naming both shapes,
//   undecidable keeps only the rank.
// split(x, indices_or_sections, axis=0): a tuple of tensors.
//   - sections k (an int >= 1): pieces of ceildiv(d, k) along the axis, the
//     last one d - (k - 1) * ceildiv(d, k) (an error when that is provably
//     negative);
//   - indices [i1, ..., ik] (ints or symbolic PrimExprs): k + 1 pieces,
//     piece j spanning [i_j, i_{j+1}) with i_0 = 0 and i_{k+1} = d, each
//     index clamped to d (numpy), each piece of size max(i_{j+1} - i_j, 0),
//     simplified.
//   The other dims are x's. Without x's shape the pieces keep only x's rank.
#include <fmt/format.h>

#include "manipulate_common.h"
#include "rlx/op/manipulate.h"

namespace rlx::op {
namespace detail {
namespace {

// ---------------------------------------------------------------------------
// concat

std::vector<TensorStructInfo> ConcatInputs(const Call& call) {
  StructInfo sinfo = graph::GetStructInfo(call->args[0]);
  const auto* tuple = sinfo.as<graph::TupleStructInfoNode>();
  if (tuple == nullptr) {
    ThrowOpError(call, fmt::format("expected a tuple of tensors for argument 'tensors', got {}",
                                   graph::ToString(sinfo)));
  }
  if (tuple->fields.empty()) ThrowOpError(call, "expected at least one tensor to concatenate");
  std::vector<TensorStructInfo> inputs;
  for (size_t i = 0; i < tuple->fields.size(); ++i) {
    TensorStructInfo tensor = dyn_cast<graph::TensorStructInfoNode>(tuple->fields[i]);
    if (!tensor.defined()) {
      ThrowOpError(call, fmt::format("expected a tensor for element {} of 'tensors', got {}", i,
                                     graph::ToString(tuple->fields[i])));
    }
    inputs.push_back(tensor);
  }
  return inputs;
}

// The rank shared by all inputs (-1 when none is known); different known
// ranks are an error.
int CommonRank(const Call& call, const std::vector<TensorStructInfo>& inputs) {
  int ndim = -1;
  for (const TensorStructInfo& input : inputs) {
    if (input->IsUnknownNdim()) continue;
    if (ndim != -1 && input->ndim != ndim) {
      ThrowOpError(call, fmt::format("cannot concatenate tensors of ranks {} and {}", ndim, input->ndim));
    }
    ndim = input->ndim;
  }
  return ndim;
}

DataType CommonDtype(const Call& call, const std::vector<TensorStructInfo>& inputs) {
  DataType dtype = inputs[0]->dtype;
  for (const TensorStructInfo& input : inputs) {
    if (dtype.is_void() || input->dtype.is_void()) return DataType::Void();
    if (input->dtype != dtype) {
      ThrowOpError(call, fmt::format("cannot concatenate tensors of dtypes {} and {}", dtype.ToString(),
                                     input->dtype.ToString()));
    }
  }
  return dtype;
}

// The concatenated shape, or nullopt when a dim is undecidable.
std::optional<Shape> ConcatShape(const Call& call, arith::Analyzer& analyzer, const std::vector<Shape>& shapes,
                                 int axis) {
  Shape result = shapes[0];
  bool decidable = true;
  for (size_t t = 1; t < shapes.size(); ++t) {
    for (size_t i = 0; i < result.size(); ++i) {
      if (static_cast<int>(i) == axis) {
        result[i] = result[i] + shapes[t][i];
      } else if (ProvablyDifferent(analyzer, result[i], shapes[t][i])) {
        ThrowOpError(call, fmt::format("cannot concatenate tensors of shapes {} and {} along axis {}",
                                       ir::ShapeToString(shapes[0]), ir::ShapeToString(shapes[t]), axis));
      } else if (!ProvablyEqual(analyzer, result[i], shapes[t][i])) {
        decidable = false;
      }
    }
  }
  if (!decidable) return std::nullopt;
  return SimplifyShape(analyzer, result);
}

StructInfo InferConcat(const Call& call, BlockBuilder& builder) {
  CheckNumArgs(call, 1);
  std::vector<TensorStructInfo> inputs = ConcatInputs(call);
  DataType dtype = CommonDtype(call, inputs);
  int ndim = CommonRank(call, inputs);
  std::optional<int64_t> axis_attr = GetOptionalIntAttr(call, "axis");
  if (!axis_attr && ndim != -1 && ndim != 1) {
    ThrowOpError(call, fmt::format("axis=None requires 1-D tensors, got tensors of rank {}", ndim));
  }
  if (ndim == -1) return graph::TensorSInfo(dtype, axis_attr ? -1 : 1);
  int axis = axis_attr ? NormalizeAxis(call, *axis_attr, ndim) : 0;
  std::vector<Shape> shapes;
  for (const TensorStructInfo& input : inputs) {
    std::optional<Shape> shape = input->GetShape();
    if (!shape) return graph::TensorSInfo(dtype, ndim);
    shapes.push_back(*shape);
  }
  std::optional<Shape> result = ConcatShape(call, builder.analyzer(), shapes, axis);
  if (!result) return graph::TensorSInfo(dtype, ndim);
  return graph::TensorSInfo(*result, dtype);
}

// ---------------------------------------------------------------------------
// split

struct SplitPoints {
  std::optional<int64_t> sections;
  std::vector<PrimExpr> indices;
};

SplitPoints GetSplitPoints(const Call& call) {
  ObjectRef value = call->attrs.defined() ? call->attrs->Get("indices_or_sections") : ObjectRef();
  if (!value.defined()) ThrowOpError(call, "missing attribute 'indices_or_sections'");
  SplitPoints points;
  if (const auto* imm = value.as<ir::IntImmNode>()) {
    if (imm->value < 1) {
      ThrowOpError(call, fmt::format("the number of sections must be positive, got {}", imm->value));
    }
    points.sections = imm->value;
    return points;
  }
  const auto* array = value.as<ir::ArrayNode>();
  if (array == nullptr) ThrowOpError(call, "indices_or_sections expects an integer or a list of indices");
  for (const ObjectRef& element : array->elements) {
    const auto* index = element.as<ir::PrimExprNode>();
    if (index == nullptr || !index->dtype.is_integer()) {
      ThrowOpError(call, "indices_or_sections expects an integer or a list of integer indices");
    }
    points.indices.push_back(AsInt64(PrimExpr(index)));
  }
  return points;
}

// The sizes of the pieces along the split axis of length `length`.
std::vector<PrimExpr> PieceSizes(const Call& call, arith::Analyzer& analyzer, const SplitPoints& points,
                                 const PrimExpr& length) {
  std::vector<PrimExpr> sizes;
  if (points.sections) {
    int64_t k = *points.sections;
    PrimExpr piece = analyzer.Simplify(ir::floordiv(length + (k - 1), k));
    for (int64_t j = 0; j + 1 < k; ++j) sizes.push_back(piece);
    PrimExpr last = analyzer.Simplify(length - piece * (k - 1));
    if (std::optional<int64_t> value = ir::AsConstInt(last); value && *value < 0) {
      ThrowOpError(call, fmt::format("cannot split a dimension of size {} into {} sections", ir::ToString(length), k));
    }
    sizes.push_back(last);
    return sizes;
  }
  PrimExpr begin = ir::MakeInt(0);
  for (size_t j = 0; j <= points.indices.size(); ++j) {
    PrimExpr end = j < points.indices.size() ? ir::min(points.indices[j], AsInt64(length)) : AsInt64(length);
    sizes.push_back(analyzer.Simplify(ir::max(end - begin, ir::MakeInt(0))));
    begin = end;
  }
  return sizes;
}

StructInfo InferSplit(const Call& call, BlockBuilder& builder) {
  CheckNumArgs(call, 1);
  TensorStructInfo x = TensorArg(call, 0);
  SplitPoints points = GetSplitPoints(call);
  size_t num_pieces = points.sections ? static_cast<size_t>(*points.sections) : points.indices.size() + 1;
  int64_t axis_attr = GetIntAttr(call, "axis", 0);
  std::optional<Shape> shape = x->GetShape();
  if (!x->IsUnknownNdim()) {
    int axis = NormalizeAxis(call, axis_attr, x->ndim);
    if (shape) {
      std::vector<PrimExpr> sizes = PieceSizes(call, builder.analyzer(), points, (*shape)[axis]);
      std::vector<StructInfo> fields;
      for (const PrimExpr& size : sizes) {
        Shape piece = *shape;
        piece[axis] = size;
        fields.push_back(graph::TensorSInfo(SimplifyShape(builder.analyzer(), piece), x->dtype));
      }
      return graph::TupleSInfo(std::move(fields));
    }
  }
  return graph::TupleSInfo(std::vector<StructInfo>(num_pieces, graph::TensorSInfo(x->dtype, x->ndim)));
}

}  // namespace

void RegisterManipulateJoinOps() {
  using graph::AttrKind;
  using graph::OpPatternKind;
  graph::RegisterOp(MakeOpInfo("concat", {"tensors"}, InferConcat, OpPatternKind::kInjective,
                               {{"axis", AttrKind::kOptionalInt, IntAttr(0)}}));
  graph::RegisterOp(MakeOpInfo("split", {"x"}, InferSplit, OpPatternKind::kInjective,
                               {{"indices_or_sections", AttrKind::kAny, ObjectRef()},
                                {"axis", AttrKind::kInt, IntAttr(0)}}));
}

}  // namespace detail

Call concat(Expr tensors, std::optional<int64_t> axis) {
  ir::Dict attrs;
  if (axis) attrs = ir::DictWith(attrs, "axis", detail::IntAttr(*axis));
  return detail::MakeOpCall("concat", {std::move(tensors)}, std::move(attrs));
}

Call split(Expr x, int64_t sections, int64_t axis) {
  ir::Dict attrs = ir::DictWith(nullptr, "indices_or_sections", detail::IntAttr(sections));
  attrs = ir::DictWith(attrs, "axis", detail::IntAttr(axis));
  return detail::MakeOpCall("split", {std::move(x)}, std::move(attrs));
}

Call split(Expr x, std::vector<ir::PrimExpr> indices, int64_t axis) {
  ir::Dict attrs = ir::DictWith(nullptr, "indices_or_sections", detail::PrimExprListAttr(indices));
  attrs = ir::DictWith(attrs, "axis", detail::IntAttr(axis));
  return detail::MakeOpCall("split", {std::move(x)}, std::move(attrs));
}

}  // namespace rlx::op
