// RemovePurityChecking: after TVM's relax.transform.RemovePurityChecking.
//
// Lowering to the VM turns pure graph code into code with visible effects
// (a PrimFunc called directly writes its output arguments, tensors are
// killed), while the function stays pure as seen by its callers. This pass
// says so ahead of the lowering:
//   - every pure graph function (local functions included) gets the
//     attribute "relax.force_pure" = True, which tells the well-formedness
//     checker not to check its body for purity;
//   - R.call_pure_packed(f, args...) becomes a plain call of the extern
//     function f (printed R.call_packed), and R.invoke_pure_closure becomes
//     R.invoke_closure, the pure wrappers having no use any more.
#include "rlx/graph/expr_functor.h"
#include "rlx/transform/passes.h"

namespace rlx::transform {
namespace {

using graph::Expr;

class PurityRemover : public graph::ExprMutator {
 public:
  explicit PurityRemover(const ir::IRModule& mod) : ExprMutator(mod) {}

 protected:
  using ExprMutator::VisitExpr_;

  Expr VisitExpr_(const graph::FunctionNode* op, const Expr& self) override {
    Expr visited = ExprMutator::VisitExpr_(op, self);
    const auto* func = visited.as<graph::FunctionNode>();
    if (!func->is_pure || IsForcePure(func)) return visited;
    auto* node = new graph::FunctionNode(func->params, func->body, func->ret_struct_info, func->is_pure,
                                         ir::DictWith(func->attrs, "relax.force_pure", ir::MakeBool(true)),
                                         func->is_private);
    node->span = func->span;
    return Expr(node);
  }

  Expr VisitExpr_(const graph::CallNode* op, const Expr& self) override {
    Expr visited = ExprMutator::VisitExpr_(op, self);
    const auto* call = visited.as<graph::CallNode>();
    const auto* callee = call ? call->op.as<graph::OpNode>() : nullptr;
    if (callee == nullptr || call->args.empty()) return visited;
    if (callee->name == "relax.call_pure_packed") {
      std::vector<Expr> args(call->args.begin() + 1, call->args.end());
      return Rebuilt(call, call->args[0], std::move(args));
    }
    if (callee->name == "relax.invoke_pure_closure") {
      return Rebuilt(call, graph::GetOp("relax.invoke_closure"), call->args);
    }
    return visited;
  }

 private:
  static bool IsForcePure(const graph::FunctionNode* func) {
    ObjectRef value = func->attrs.defined() ? func->attrs->Get("relax.force_pure") : ObjectRef();
    const auto* flag = value.as<ir::IntImmNode>();
    return flag != nullptr && flag->value != 0;
  }

  static Expr Rebuilt(const graph::CallNode* call, Expr op, std::vector<Expr> args) {
    auto* node = new graph::CallNode(std::move(op), std::move(args), call->attrs, call->sinfo_args);
    node->span = call->span;
    return Expr(node);
  }
};

}  // namespace

Pass RemovePurityChecking() {
  return CreateFunctionPass(
      [](graph::Function func, ir::IRModule mod, const PassContext&) {
        PurityRemover remover(mod);
        return cast<graph::FunctionNode>(remover.VisitExpr(func));
      },
      PassInfo{"remove-purity-checking",
               "Marks pure functions relax.force_pure and turns pure packed calls and closures into plain ones", 0,
               {}});
}

}  // namespace rlx::transform
