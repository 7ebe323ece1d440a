// Reductions: sum, mean, max, min, prod, variance, std (x, axis=None,
// keepdims=False).
//
// `axis` lists the reduced axes (negative ones count from the end; out of
// range or repeated axes are errors); None reduces every axis. The result
// drops the reduced dims, or keeps them as 1 with keepdims. The dtype is the
// input's. With the input's rank unknown, only "reduce everything without
// keepdims" (a 0-d result) has a known rank.
#include <algorithm>

#include "op_common.h"
#include "rlx/op/op.h"
#include "rlx/op/statistical.h"

namespace rlx::op {
namespace detail {
namespace {

// Which axes of a rank-`ndim` tensor are reduced.
std::vector<bool> ReducedAxes(const Call& call, const std::optional<std::vector<int64_t>>& axis, int ndim) {
  std::vector<bool> reduced(static_cast<size_t>(ndim), !axis.has_value());
  if (axis) {
    for (int normalized : NormalizeAxes(call, *axis, ndim)) reduced[normalized] = true;
  }
  return reduced;
}

StructInfo InferReductionSInfo(const Call& call, BlockBuilder&) {
  CheckNumArgs(call, 1);
  TensorStructInfo x = TensorArg(call, 0);
  std::optional<std::vector<int64_t>> axis = GetOptionalIntListAttr(call, "axis");
  bool keepdims = GetBoolAttr(call, "keepdims", false);
  if (x->IsUnknownNdim()) {
    if (!axis && !keepdims) return graph::TensorSInfo(Shape{}, x->dtype);
    return graph::TensorSInfo(x->dtype, -1);
  }
  std::vector<bool> reduced = ReducedAxes(call, axis, x->ndim);
  std::optional<Shape> shape = x->GetShape();
  if (!shape) {
    int kept = static_cast<int>(std::count(reduced.begin(), reduced.end(), false));
    return graph::TensorSInfo(x->dtype, keepdims ? x->ndim : kept);
  }
  Shape out;
  for (size_t i = 0; i < reduced.size(); ++i) {
    if (!reduced[i]) {
      out.push_back((*shape)[i]);
    } else if (keepdims) {
      out.push_back(ir::MakeInt(1));
    }
  }
  return graph::TensorSInfo(std::move(out), x->dtype);
}

}  // namespace

void RegisterStatisticalOps() {
  for (const char* name : {"sum", "mean", "max", "min", "prod", "variance", "std"}) {
    graph::RegisterOp(MakeOpInfo(name, {"x"}, InferReductionSInfo, graph::OpPatternKind::kCommReduce,
                                 {{"axis", graph::AttrKind::kOptionalIntList, ObjectRef()},
                                  {"keepdims", graph::AttrKind::kBool, BoolAttr(false)}}));
  }
}

namespace {

Call MakeReduction(const std::string& name, Expr x, const std::optional<std::vector<int64_t>>& axis,
                   bool keepdims) {
  ir::Dict attrs;
  if (axis) attrs = ir::DictWith(attrs, "axis", IntListAttr(*axis));
  attrs = ir::DictWith(attrs, "keepdims", BoolAttr(keepdims));
  return MakeOpCall(name, {std::move(x)}, std::move(attrs));
}

}  // namespace
}  // namespace detail

Call sum(Expr x, std::optional<std::vector<int64_t>> axis, bool keepdims) {
  return detail::MakeReduction("sum", std::move(x), axis, keepdims);
}
Call mean(Expr x, std::optional<std::vector<int64_t>> axis, bool keepdims) {
  return detail::MakeReduction("mean", std::move(x), axis, keepdims);
}
Call max(Expr x, std::optional<std::vector<int64_t>> axis, bool keepdims) {
  return detail::MakeReduction("max", std::move(x), axis, keepdims);
}
Call min(Expr x, std::optional<std::vector<int64_t>> axis, bool keepdims) {
  return detail::MakeReduction("min", std::move(x), axis, keepdims);
}
Call prod(Expr x, std::optional<std::vector<int64_t>> axis, bool keepdims) {
  return detail::MakeReduction("prod", std::move(x), axis, keepdims);
}
Call variance(Expr x, std::optional<std::vector<int64_t>> axis, bool keepdims) {
  return detail::MakeReduction("variance", std::move(x), axis, keepdims);
}
Call std(Expr x, std::optional<std::vector<int64_t>> axis, bool keepdims) {
  return detail::MakeReduction("std", std::move(x), axis, keepdims);
}

}  // namespace rlx::op
