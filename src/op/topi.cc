// Tensor-expression building blocks of the legalizations (see topi.h).
#include "op/topi.h"

#include "op_common.h"
#include "rlx/support/logging.h"

namespace rlx::op::topi {

Tensor Elementwise(const Tensor& x, const FUnaryElem& f, const std::string& name) {
  return te::Compute(
      x.shape(), [&](const std::vector<ir::Var>& i) { return f(x(i)); }, name);
}

std::vector<PrimExpr> BroadcastShape(const std::vector<std::vector<PrimExpr>>& shapes) {
  arith::Analyzer analyzer;
  std::vector<PrimExpr> result;
  for (const std::vector<PrimExpr>& shape : shapes) {
    detail::BroadcastResult broadcast = detail::BroadcastShapes(analyzer, result, shape);
    RLX_ICHECK(broadcast.status == detail::BroadcastResult::Status::kOk)
        << "legalization: cannot prove that " << ir::ShapeToString(result) << " and " << ir::ShapeToString(shape)
        << " broadcast";
    result = broadcast.shape;
  }
  return result;
}

std::vector<PrimExpr> BroadcastIndex(const std::vector<PrimExpr>& shape, const std::vector<ir::Var>& out_index) {
  RLX_ICHECK(shape.size() <= out_index.size()) << "broadcast operand of higher rank than the result";
  size_t offset = out_index.size() - shape.size();
  std::vector<PrimExpr> index;
  index.reserve(shape.size());
  for (size_t d = 0; d < shape.size(); ++d) {
    if (ir::IsConstInt(shape[d], 1)) {
      index.push_back(ir::MakeInt(0, shape[d]->dtype));
    } else {
      index.push_back(out_index[offset + d]);
    }
  }
  return index;
}

Tensor Broadcast(const Tensor& a, const Tensor& b, const FBinaryElem& f, const std::string& name) {
  std::vector<PrimExpr> shape = BroadcastShape({a.shape(), b.shape()});
  return te::Compute(
      shape,
      [&](const std::vector<ir::Var>& i) { return f(a(BroadcastIndex(a.shape(), i)), b(BroadcastIndex(b.shape(), i))); },
      name);
}

}  // namespace rlx::op::topi
