// matmul: numpy (array API) matrix multiplication with batch broadcasting.
//
//   x1 (..., n, k)  x  x2 (..., k, m)  ->  (broadcast(...), n, m)
//   x1 (k,)         x  x2 (..., k, m)  ->  (..., m)     x1 gets a leading 1
//   x1 (..., n, k)  x  x2 (k,)         ->  (..., n)     x2 gets a trailing 1
//
// Rules, in order:
//   1. both operands are Tensors; the result dtype is out_dtype, or when it
//      is void the operands' common dtype (different known dtypes are an
//      error);
//   2. an operand of unknown rank gives a result of unknown rank; a 0-d
//      operand is an error;
//   3. with both shapes known: reduction lengths that provably differ are an
//      error naming both shapes (undecidable ones are accepted), batch
//      dimensions are broadcast like binary operators; anything undecidable
//      keeps only the result rank.
#include <fmt/format.h>

#include <algorithm>

#include "op_common.h"
#include "rlx/op/op.h"

namespace rlx::op {
namespace detail {
namespace {

// The shapes with vector operands promoted to matrices.
struct MatmulOperands {
  Shape x1;
  Shape x2;
  bool x1_prepended = false;  // x1 was a vector (k,) -> (1, k)
  bool x2_appended = false;   // x2 was a vector (k,) -> (k, 1)
};

MatmulOperands PromoteVectors(Shape x1, Shape x2) {
  MatmulOperands operands;
  operands.x1_prepended = x1.size() == 1;
  operands.x2_appended = x2.size() == 1;
  if (operands.x1_prepended) x1.insert(x1.begin(), ir::MakeInt(1));
  if (operands.x2_appended) x2.push_back(ir::MakeInt(1));
  operands.x1 = std::move(x1);
  operands.x2 = std::move(x2);
  return operands;
}

DataType MatmulDtype(const Call& call, const TensorStructInfo& x1, const TensorStructInfo& x2) {
  DataType out_dtype = GetDataTypeAttr(call, "out_dtype", DataType::Void());
  if (!out_dtype.is_void()) return out_dtype;
  return UnifyDtypes(call, x1->dtype, x2->dtype);
}

void CheckRankAtLeastOne(const Call& call, const TensorStructInfo& tensor, size_t index) {
  if (tensor->ndim == 0) {
    ThrowOpError(call, fmt::format("expected argument '{}' to have rank at least 1, got {}", ArgName(call, index),
                                   graph::ToString(tensor)));
  }
}

StructInfo InferMatmulSInfo(const Call& call, BlockBuilder& builder) {
  CheckNumArgs(call, 2);
  TensorStructInfo x1 = TensorArg(call, 0);
  TensorStructInfo x2 = TensorArg(call, 1);
  DataType dtype = MatmulDtype(call, x1, x2);
  if (x1->IsUnknownNdim() || x2->IsUnknownNdim()) return graph::TensorSInfo(dtype, -1);
  CheckRankAtLeastOne(call, x1, 0);
  CheckRankAtLeastOne(call, x2, 1);
  int out_ndim = std::max(std::max(x1->ndim, 2), std::max(x2->ndim, 2)) - (x1->ndim == 1) - (x2->ndim == 1);
  std::optional<Shape> shape1 = x1->GetShape();
  std::optional<Shape> shape2 = x2->GetShape();
  if (!shape1 || !shape2) return graph::TensorSInfo(dtype, out_ndim);

  arith::Analyzer& analyzer = builder.analyzer();
  MatmulOperands operands = PromoteVectors(*shape1, *shape2);
  const PrimExpr& k1 = operands.x1[operands.x1.size() - 1];
  const PrimExpr& k2 = operands.x2[operands.x2.size() - 2];
  if (ProvablyDifferent(analyzer, k1, k2)) {
    ThrowOpError(call, fmt::format("reduction dimensions differ: x1 has shape {}, x2 has shape {}",
                                   ir::ShapeToString(*shape1), ir::ShapeToString(*shape2)));
  }
  Shape batch1(operands.x1.begin(), operands.x1.end() - 2);
  Shape batch2(operands.x2.begin(), operands.x2.end() - 2);
  BroadcastResult batch = BroadcastShapes(analyzer, batch1, batch2);
  if (batch.status == BroadcastResult::Status::kMismatch) {
    ThrowOpError(call, fmt::format("cannot broadcast the batch dimensions of shapes {} and {}",
                                   ir::ShapeToString(*shape1), ir::ShapeToString(*shape2)));
  }
  if (batch.status == BroadcastResult::Status::kUndecidable) return graph::TensorSInfo(dtype, out_ndim);

  Shape out = std::move(batch.shape);
  if (!operands.x1_prepended) out.push_back(operands.x1[operands.x1.size() - 2]);
  if (!operands.x2_appended) out.push_back(operands.x2[operands.x2.size() - 1]);
  return graph::TensorSInfo(SimplifyShape(analyzer, out), dtype);
}

}  // namespace

void RegisterLinearAlgebraOps() {
  graph::RegisterOp(MakeOpInfo("matmul", {"x1", "x2"}, InferMatmulSInfo, graph::OpPatternKind::kOutEWiseFusable,
                               {{"out_dtype", graph::AttrKind::kDataType, DataTypeAttr(DataType::Void())}}));
}

}  // namespace detail

Call matmul(Expr x1, Expr x2, DataType out_dtype) {
  ir::Dict attrs = make<ir::DictNode>(std::vector<ir::DictNode::Item>{{"out_dtype", detail::DataTypeAttr(out_dtype)}});
  return detail::MakeOpCall("matmul", {std::move(x1), std::move(x2)}, std::move(attrs));
}

}  // namespace rlx::op
