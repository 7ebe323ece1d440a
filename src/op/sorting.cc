// sort (data, axis=-1, descending=False), argsort (data, axis=-1,
// descending=False, dtype="int32") and topk (data, k=1, axis=-1,
// ret_type="both", largest=True, dtype="int32"), after TVM's
// src/relax/op/tensor/sorting.cc.
//
// Struct info:
// - sort: the input's.
// - argsort: the input's shape with `dtype` (the input's dtype when void).
// - topk: the input's shape with the axis dim replaced by k when k > 0 and
//   the dim is not a constant at most k (a symbolic dim becomes k: ONNX and
//   TVM require k <= dim); values keep the dtype, indices are of `dtype`.
//   ret_type "both" gives Tuple(values, indices), "values" / "indices" one
//   tensor. An unknown shape keeps the rank.
// The axis is checked against the rank when it is known.
#include <fmt/format.h>

#include "attr_util.h"
#include "op_common.h"
#include "rlx/op/sorting.h"

namespace rlx::op {
namespace detail {
namespace {

using graph::AttrKind;

DataType IndexDtype(const Call& call, const TensorStructInfo& data) {
  DataType dtype = GetDataTypeAttr(call, "dtype", DataType::Int32());
  return dtype.is_void() ? data->dtype : dtype;
}

void CheckAxis(const Call& call, const TensorStructInfo& data) {
  if (!data->IsUnknownNdim()) NormalizeAxis(call, GetIntAttr(call, "axis", -1), data->ndim);
}

StructInfo InferSortSInfo(const Call& call, BlockBuilder&) {
  CheckNumArgs(call, 1);
  TensorStructInfo data = TensorArg(call, 0);
  CheckAxis(call, data);
  GetBoolAttr(call, "descending", false);
  return data;
}

StructInfo InferArgsortSInfo(const Call& call, BlockBuilder&) {
  CheckNumArgs(call, 1);
  TensorStructInfo data = TensorArg(call, 0);
  CheckAxis(call, data);
  GetBoolAttr(call, "descending", false);
  return TensorLike(data, IndexDtype(call, data));
}

// The shape of topk's outputs (nullopt when the input's is unknown).
std::optional<Shape> TopKShape(const Call& call, const TensorStructInfo& data) {
  std::optional<Shape> shape = data->GetShape();
  if (!shape) return std::nullopt;
  int axis = NormalizeAxis(call, GetIntAttr(call, "axis", -1), data->ndim);
  int64_t k = GetIntAttr(call, "k", 1);
  std::optional<int64_t> dim = ir::AsConstInt((*shape)[axis]);
  if (k > 0 && (!dim || k < *dim)) (*shape)[axis] = ir::MakeInt(k);
  return shape;
}

StructInfo InferTopKSInfo(const Call& call, BlockBuilder&) {
  CheckNumArgs(call, 1);
  TensorStructInfo data = TensorArg(call, 0);
  std::string ret_type = GetStringAttr(call, "ret_type", "both");
  if (ret_type != "both" && ret_type != "values" && ret_type != "indices") {
    ThrowOpError(call, fmt::format("ret_type must be \"both\", \"values\" or \"indices\", got \"{}\"", ret_type));
  }
  GetBoolAttr(call, "largest", true);
  CheckAxis(call, data);
  DataType index_dtype = IndexDtype(call, data);
  std::optional<Shape> shape = TopKShape(call, data);
  StructInfo values = shape ? graph::TensorSInfo(*shape, data->dtype) : graph::TensorSInfo(data->dtype, data->ndim);
  StructInfo indices = shape ? graph::TensorSInfo(*shape, index_dtype) : graph::TensorSInfo(index_dtype, data->ndim);
  if (ret_type == "values") return values;
  if (ret_type == "indices") return indices;
  return graph::TupleSInfo({values, indices});
}

}  // namespace

void RegisterSortingOps() {
  using graph::OpPatternKind;
  graph::RegisterOp(MakeOpInfo("sort", {"data"}, InferSortSInfo, OpPatternKind::kOpaque,
                               {{"axis", AttrKind::kInt, IntAttr(-1)},
                                {"descending", AttrKind::kBool, BoolAttr(false)}}));
  graph::RegisterOp(MakeOpInfo("argsort", {"data"}, InferArgsortSInfo, OpPatternKind::kOpaque,
                               {{"axis", AttrKind::kInt, IntAttr(-1)},
                                {"descending", AttrKind::kBool, BoolAttr(false)},
                                {"dtype", AttrKind::kDataType, DataTypeAttr(DataType::Int32())}}));
  graph::RegisterOp(MakeOpInfo("topk", {"data"}, InferTopKSInfo, OpPatternKind::kOpaque,
                               {{"k", AttrKind::kInt, IntAttr(1)},
                                {"axis", AttrKind::kInt, IntAttr(-1)},
                                {"ret_type", AttrKind::kString, StringAttr("both")},
                                {"largest", AttrKind::kBool, BoolAttr(true)},
                                {"dtype", AttrKind::kDataType, DataTypeAttr(DataType::Int32())}}));
}

}  // namespace detail

Call sort(Expr data, int64_t axis, bool descending) {
  ir::Dict attrs;
  attrs = ir::DictWith(attrs, "axis", detail::IntAttr(axis));
  attrs = ir::DictWith(attrs, "descending", detail::BoolAttr(descending));
  return detail::MakeOpCall("sort", {std::move(data)}, attrs);
}

Call argsort(Expr data, int64_t axis, bool descending, DataType dtype) {
  ir::Dict attrs;
  attrs = ir::DictWith(attrs, "axis", detail::IntAttr(axis));
  attrs = ir::DictWith(attrs, "descending", detail::BoolAttr(descending));
  attrs = ir::DictWith(attrs, "dtype", detail::DataTypeAttr(dtype));
  return detail::MakeOpCall("argsort", {std::move(data)}, attrs);
}

Call topk(Expr data, int64_t k, int64_t axis, std::string ret_type, bool largest, DataType dtype) {
  ir::Dict attrs;
  attrs = ir::DictWith(attrs, "k", detail::IntAttr(k));
  attrs = ir::DictWith(attrs, "axis", detail::IntAttr(axis));
  attrs = ir::DictWith(attrs, "ret_type", detail::StringAttr(ret_type));
  attrs = ir::DictWith(attrs, "largest", detail::BoolAttr(largest));
  attrs = ir::DictWith(attrs, "dtype", detail::DataTypeAttr(dtype));
  return detail::MakeOpCall("topk", {std::move(data)}, attrs);
}

}  // namespace rlx::op
