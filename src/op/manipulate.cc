// Shape manipulation: reshape and permute_dims.
//
// reshape(x, shape): `shape` is a ShapeExpr or a Var of Shape struct info.
//   - At most one dimension may be the constant -1; it is inferred as
//     floordiv(product of x's dims, product of the other dims), simplified.
//     A provably non-zero remainder is an error.
//   - Other constant dimensions must be >= 0.
//   - Without -1, element counts that provably differ are an error naming
//     both shapes; undecidable counts are accepted. Dims provably equal on
//     both sides cancel first (so (n, 4) -> (n, 5) is an error): like TVM,
//     which rejects new dims < 1, reshape assumes no dimension is zero.
//   - The result's shape is the (simplified) new shape; a shape Var whose
//     values are unknown becomes the result's shape expression as is.
//
// permute_dims(x, axes=None): `axes` must be a permutation of x's axes
// (negative axes allowed); None reverses them.
#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "op_common.h"
#include "rlx/op/op.h"

namespace rlx::op {
namespace detail {
namespace {

// ---------------------------------------------------------------------------
// reshape

// The dims of reshape's `shape` argument, or nullopt when only its rank is
// known. Not a Shape at all is an error.
std::optional<Shape> NewShapeValues(const Call& call, int& ndim) {
  StructInfo sinfo = graph::GetStructInfo(call->args[1]);
  const auto* shape_sinfo = sinfo.as<graph::ShapeStructInfoNode>();
  if (shape_sinfo == nullptr) {
    ThrowOpError(call, fmt::format("expected a Shape for argument '{}', got {}", ArgName(call, 1),
                                   graph::ToString(sinfo)));
  }
  ndim = shape_sinfo->ndim;
  if (const auto* shape_expr = call->args[1].as<graph::ShapeExprNode>()) return shape_expr->values;
  return shape_sinfo->values;
}

// The index of the single -1 dimension (or -1 when none); rejects other
// negative constants and a second -1.
int FindInferredDim(const Call& call, const Shape& new_shape) {
  int inferred = -1;
  for (size_t i = 0; i < new_shape.size(); ++i) {
    std::optional<int64_t> value = ir::AsConstInt(new_shape[i]);
    if (!value || *value >= 0) continue;
    if (*value != -1) {
      ThrowOpError(call, fmt::format("the new shape {} has a negative dimension {}", ir::ShapeToString(new_shape),
                                     *value));
    }
    if (inferred != -1) {
      ThrowOpError(call, fmt::format("the new shape {} has more than one -1 dimension", ir::ShapeToString(new_shape)));
    }
    inferred = static_cast<int>(i);
  }
  return inferred;
}

[[noreturn]] void ThrowReshapeMismatch(const Call& call, const Shape& old_shape, const Shape& new_shape) {
  ThrowOpError(call, fmt::format("cannot reshape a tensor of shape {} into shape {}", ir::ShapeToString(old_shape),
                                 ir::ShapeToString(new_shape)));
}

// Removes the dims of `a` and `b` that are provably equal, pair by pair, so
// that (b, n, 32) against (b, n, 4) compares 32 with 4. This assumes no
// dimension is zero, as reshape's element-count reasoning does throughout.
void CancelCommonDims(arith::Analyzer& analyzer, Shape& a, Shape& b) {
  for (auto it = a.begin(); it != a.end();) {
    auto same_dim = [&](const PrimExpr& dim) { return ProvablyEqual(analyzer, *it, dim); };
    auto match = std::find_if(b.begin(), b.end(), same_dim);
    if (match == b.end()) {
      ++it;
      continue;
    }
    b.erase(match);
    it = a.erase(it);
  }
}

// Replaces the -1 at `inferred` by the element count of `old_shape` divided
// by the product of the other new dims.
Shape InferMinusOneDim(const Call& call, arith::Analyzer& analyzer, const Shape& old_shape, Shape new_shape,
                       int inferred) {
  Shape others = new_shape;
  others.erase(others.begin() + inferred);
  if (ir::IsConstInt(analyzer.Simplify(ShapeProduct(others)), 0)) {
    ThrowOpError(call, fmt::format("cannot infer the -1 dimension of {}: the other dimensions have no elements",
                                   ir::ShapeToString(new_shape)));
  }
  Shape dividend = old_shape;
  CancelCommonDims(analyzer, dividend, others);
  PrimExpr numerator = ShapeProduct(dividend);
  PrimExpr denominator = ShapeProduct(others);
  std::optional<int64_t> remainder = ir::AsConstInt(analyzer.Simplify(ir::floormod(numerator, denominator)));
  if (remainder && *remainder != 0) ThrowReshapeMismatch(call, old_shape, new_shape);
  new_shape[inferred] = analyzer.Simplify(ir::floordiv(numerator, denominator));
  return new_shape;
}

// Do the two shapes provably hold different numbers of elements?
bool ElementCountsDiffer(arith::Analyzer& analyzer, Shape old_shape, Shape new_shape) {
  CancelCommonDims(analyzer, old_shape, new_shape);
  return ProvablyDifferent(analyzer, analyzer.Simplify(ShapeProduct(old_shape)),
                           analyzer.Simplify(ShapeProduct(new_shape)));
}

StructInfo InferReshapeSInfo(const Call& call, BlockBuilder& builder) {
  CheckNumArgs(call, 2);
  TensorStructInfo x = TensorArg(call, 0);
  int new_ndim = -1;
  std::optional<Shape> new_shape = NewShapeValues(call, new_ndim);
  if (!new_shape) {
    if (call->args[1].isa<graph::VarNode>()) return make<graph::TensorStructInfoNode>(call->args[1], x->dtype);
    return graph::TensorSInfo(x->dtype, new_ndim);
  }
  arith::Analyzer& analyzer = builder.analyzer();
  int inferred = FindInferredDim(call, *new_shape);
  std::optional<Shape> old_shape = x->GetShape();
  if (inferred != -1) {
    if (!old_shape) return graph::TensorSInfo(x->dtype, new_ndim);
    Shape inferred_shape = InferMinusOneDim(call, analyzer, *old_shape, *new_shape, inferred);
    return graph::TensorSInfo(SimplifyShape(analyzer, inferred_shape), x->dtype);
  }
  if (old_shape && ElementCountsDiffer(analyzer, *old_shape, *new_shape)) {
    ThrowReshapeMismatch(call, *old_shape, *new_shape);
  }
  return graph::TensorSInfo(SimplifyShape(analyzer, *new_shape), x->dtype);
}

// ---------------------------------------------------------------------------
// permute_dims

// The permutation `axes` normalized against rank `ndim`, or the reversal
// when axes is None.
std::vector<int> PermutationOf(const Call& call, const std::optional<std::vector<int64_t>>& axes, int ndim) {
  if (!axes) {
    std::vector<int> reversed(static_cast<size_t>(ndim));
    std::iota(reversed.rbegin(), reversed.rend(), 0);
    return reversed;
  }
  if (static_cast<int>(axes->size()) != ndim) {
    ThrowOpError(call, fmt::format("expected {} axes for a tensor of rank {}, got {}", ndim, ndim,
                                   IntListToString(*axes)));
  }
  return NormalizeAxes(call, *axes, ndim);
}

StructInfo InferPermuteDimsSInfo(const Call& call, BlockBuilder&) {
  CheckNumArgs(call, 1);
  TensorStructInfo x = TensorArg(call, 0);
  std::optional<std::vector<int64_t>> axes = GetOptionalIntListAttr(call, "axes");
  if (x->IsUnknownNdim()) {
    if (!axes) return graph::TensorSInfo(x->dtype, -1);
    int ndim = static_cast<int>(axes->size());
    PermutationOf(call, axes, ndim);  // validates the permutation itself
    return graph::TensorSInfo(x->dtype, ndim);
  }
  std::vector<int> permutation = PermutationOf(call, axes, x->ndim);
  std::optional<Shape> shape = x->GetShape();
  if (!shape) return graph::TensorSInfo(x->dtype, x->ndim);
  Shape permuted;
  for (int axis : permutation) permuted.push_back((*shape)[axis]);
  return graph::TensorSInfo(std::move(permuted), x->dtype);
}

}  // namespace

void RegisterManipulateOps() {
  graph::RegisterOp(MakeOpInfo("reshape", {"x", "shape"}, InferReshapeSInfo, graph::OpPatternKind::kInjective));
  graph::RegisterOp(MakeOpInfo("permute_dims", {"x"}, InferPermuteDimsSInfo, graph::OpPatternKind::kInjective,
                               {{"axes", graph::AttrKind::kOptionalIntList, ObjectRef()}}));
}

}  // namespace detail

Call reshape(Expr x, Expr shape) { return detail::MakeOpCall("reshape", {std::move(x), std::move(shape)}); }

Call permute_dims(Expr x, std::optional<std::vector<int64_t>> axes) {
  ir::Dict attrs;  // axes=None: no entry, no Dict
  if (axes) attrs = ir::DictWith(attrs, "axes", detail::IntListAttr(*axes));
  return detail::MakeOpCall("permute_dims", {std::move(x)}, std::move(attrs));
}

}  // namespace rlx::op
