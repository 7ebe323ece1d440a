// argmax, argmin (x, axis=None, keepdims=False) and cumsum (data, axis=None,
// dtype=None, exclusive=False).
//
// argmax/argmin (TVM's src/relax/op/tensor/search.cc): the result is int64;
// with an axis that dim is dropped (kept as 1 with keepdims); without one
// the result is a scalar (every dim 1 with keepdims).
// cumsum (TVM's scan rule): with an axis the result has the input's shape;
// without one the input is flattened (a 1-D result of the product of the
// dims). The dtype is `dtype`, or the input's when void.
#include <fmt/format.h>

#include "attr_util.h"
#include "op_common.h"
#include "rlx/op/statistical.h"

namespace rlx::op {
namespace detail {
namespace {

using graph::AttrKind;

StructInfo InferArgReduceSInfo(const Call& call, BlockBuilder&) {
  CheckNumArgs(call, 1);
  TensorStructInfo x = TensorArg(call, 0);
  std::optional<int64_t> axis = GetOptionalIntAttr(call, "axis");
  bool keepdims = GetBoolAttr(call, "keepdims", false);
  DataType dtype = DataType::Int64();
  if (x->IsUnknownNdim()) {
    if (!axis && !keepdims) return graph::TensorSInfo(Shape{}, dtype);
    return graph::TensorSInfo(dtype, -1);
  }
  int normalized = axis ? NormalizeAxis(call, *axis, x->ndim) : -1;
  int out_ndim = keepdims ? x->ndim : (axis ? x->ndim - 1 : 0);
  std::optional<Shape> shape = x->GetShape();
  if (!shape) return graph::TensorSInfo(dtype, out_ndim);
  Shape out;
  for (int i = 0; i < x->ndim; ++i) {
    bool reduced = !axis || i == normalized;
    if (!reduced) {
      out.push_back((*shape)[i]);
    } else if (keepdims) {
      out.push_back(ir::MakeInt(1));
    }
  }
  return graph::TensorSInfo(std::move(out), dtype);
}

StructInfo InferCumsumSInfo(const Call& call, BlockBuilder& builder) {
  CheckNumArgs(call, 1);
  TensorStructInfo data = TensorArg(call, 0);
  std::optional<int64_t> axis = GetOptionalIntAttr(call, "axis");
  GetBoolAttr(call, "exclusive", false);
  DataType dtype = GetDataTypeAttr(call, "dtype", DataType::Void());
  if (dtype.is_void()) dtype = data->dtype;
  if (axis) {
    if (!data->IsUnknownNdim()) NormalizeAxis(call, *axis, data->ndim);
    return TensorLike(data, dtype);
  }
  std::optional<Shape> shape = data->GetShape();
  if (!shape) return graph::TensorSInfo(dtype, 1);
  return graph::TensorSInfo({builder.analyzer().Simplify(ShapeProduct(*shape))}, dtype);
}

Call MakeArgReduce(const std::string& name, Expr x, std::optional<int64_t> axis, bool keepdims) {
  ir::Dict attrs;
  if (axis) attrs = ir::DictWith(attrs, "axis", IntAttr(*axis));
  attrs = ir::DictWith(attrs, "keepdims", BoolAttr(keepdims));
  return MakeOpCall(name, {std::move(x)}, attrs);
}

}  // namespace

void RegisterSearchScanOps() {
  using graph::OpPatternKind;
  for (const char* name : {"argmax", "argmin"}) {
    graph::RegisterOp(MakeOpInfo(name, {"x"}, InferArgReduceSInfo, OpPatternKind::kCommReduce,
                                 {{"axis", AttrKind::kOptionalInt, ObjectRef()},
                                  {"keepdims", AttrKind::kBool, BoolAttr(false)}}));
  }
  graph::RegisterOp(MakeOpInfo("cumsum", {"data"}, InferCumsumSInfo, OpPatternKind::kOpaque,
                               {{"axis", AttrKind::kOptionalInt, ObjectRef()},
                                {"dtype", AttrKind::kDataType, DataTypeAttr(DataType::Void())},
                                {"exclusive", AttrKind::kBool, BoolAttr(false)}}));
}

}  // namespace detail

Call argmax(Expr x, std::optional<int64_t> axis, bool keepdims) {
  return detail::MakeArgReduce("argmax", std::move(x), axis, keepdims);
}
Call argmin(Expr x, std::optional<int64_t> axis, bool keepdims) {
  return detail::MakeArgReduce("argmin", std::move(x), axis, keepdims);
}

Call cumsum(Expr data, std::optional<int64_t> axis, DataType dtype, bool exclusive) {
  ir::Dict attrs;
  if (axis) attrs = ir::DictWith(attrs, "axis", detail::IntAttr(*axis));
  attrs = ir::DictWith(attrs, "dtype", detail::DataTypeAttr(dtype));
  attrs = ir::DictWith(attrs, "exclusive", detail::BoolAttr(exclusive));
  return detail::MakeOpCall("cumsum", {std::move(data)}, attrs);
}

}  // namespace rlx::op
