// astype(x, dtype): the input's shape with the requested dtype.
#include "op_common.h"
#include "rlx/op/op.h"

namespace rlx::op {
namespace detail {
namespace {

StructInfo InferAstypeSInfo(const Call& call, BlockBuilder&) {
  CheckNumArgs(call, 1);
  TensorStructInfo x = TensorArg(call, 0);
  return TensorLike(x, GetDataTypeAttr(call, "dtype", std::nullopt));
}

}  // namespace

void RegisterDatatypeOps() {
  graph::RegisterOp(MakeOpInfo("astype", {"x"}, InferAstypeSInfo, graph::OpPatternKind::kElemWise,
                               {{"dtype", graph::AttrKind::kDataType, ObjectRef()}}));
}

}  // namespace detail

Call astype(Expr x, DataType dtype) {
  return detail::MakeOpCall("astype", {std::move(x)}, ir::DictWith(nullptr, "dtype", detail::DataTypeAttr(dtype)));
}

}  // namespace rlx::op
