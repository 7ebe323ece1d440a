// LowerAllocTensor: after TVM's relax.transform.LowerAllocTensor.
//
// Every R.builtin.alloc_tensor left after memory planning gets a storage of
// its own:
//
//   y = R.builtin.alloc_tensor(shape, R.dtype("float32"), dev, scope)
// becomes
//   storage = R.memory.alloc_storage(R.shape([nbytes]), dev, scope, R.dtype("uint8"))
//   y = R.memory.alloc_tensor(storage, R.prim_value(0), shape, R.dtype("float32"))
//
// where nbytes = bytes(dtype) * lanes(dtype) * the product of the shape's
// dimensions (symbolic dimensions stay symbolic; the product is simplified by
// arith::Analyzer). The shape must be known (a ShapeExpr, or a variable
// whose Shape struct info has values), else nothing can be sized: a
// CompileError.
#include <fmt/format.h>

#include "rlx/arith/analyzer.h"
#include "rlx/graph/expr_functor.h"
#include "rlx/support/diagnostic.h"
#include "rlx/transform/passes.h"

namespace rlx::transform {
namespace {

using graph::Expr;

constexpr const char* kPassName = "lower-alloc-tensor";

std::vector<ir::PrimExpr> KnownDims(const Expr& shape, const graph::CallNode* call) {
  if (const auto* shape_expr = shape.as<graph::ShapeExprNode>()) return shape_expr->values;
  if (const auto* sinfo = shape->struct_info.as<graph::ShapeStructInfoNode>()) {
    if (sinfo->values) return *sinfo->values;
  }
  throw CompileError(call->span, fmt::format("{}: cannot size R.builtin.alloc_tensor: its shape {} is unknown",
                                             kPassName, graph::ToString(shape->struct_info)));
}

class AllocTensorLowerer : public graph::ExprMutator {
 public:
  explicit AllocTensorLowerer(const ir::IRModule& mod) : ExprMutator(mod) {}

 protected:
  using ExprMutator::VisitExpr_;

  Expr VisitExpr_(const graph::CallNode* op, const Expr& self) override {
    Expr visited = ExprMutator::VisitExpr_(op, self);
    const auto* call = visited.as<graph::CallNode>();
    const auto* callee = call ? call->op.as<graph::OpNode>() : nullptr;
    if (callee == nullptr || callee->name != "relax.builtin.alloc_tensor") return visited;
    RLX_ICHECK(call->args.size() == 4) << "R.builtin.alloc_tensor takes 4 arguments";
    const Expr& shape = call->args[0];
    const Expr& dtype = call->args[1];
    DataType tensor_dtype = cast<graph::DataTypeImmNode>(dtype)->value;
    ir::PrimExpr nbytes = ir::MakeInt(tensor_dtype.bytes() * tensor_dtype.lanes());
    for (const ir::PrimExpr& dim : KnownDims(shape, call)) nbytes = ir::mul(nbytes, ir::cast(DataType::Int64(), dim));
    nbytes = analyzer_.Simplify(nbytes);
    std::vector<Expr> storage_args = {Expr(new graph::ShapeExprNode({nbytes})), call->args[2], call->args[3],
                                      Expr(new graph::DataTypeImmNode(DataType::UInt(8)))};
    Expr storage = builder_->Emit(graph::MakeCall("relax.memory.alloc_storage", std::move(storage_args)), "storage");
    Expr offset(new graph::PrimValueNode(ir::MakeInt(0)));
    return graph::MakeCall("relax.memory.alloc_tensor", {storage, offset, shape, dtype});
  }

 private:
  arith::Analyzer analyzer_;
};

}  // namespace

Pass LowerAllocTensor() {
  return CreateFunctionPass(
      [](graph::Function func, ir::IRModule mod, const PassContext&) {
        AllocTensorLowerer lowerer(mod);
        return cast<graph::FunctionNode>(lowerer.VisitExpr(func));
      },
      PassInfo{kPassName, "Gives each remaining R.builtin.alloc_tensor a storage of its own (memory.alloc_storage)", 0,
               {}});
}

}  // namespace rlx::transform
