// ToNonDataflow: turns every dataflow block into an ordinary binding block
// and every DataflowVar into a Var (after TVM's relax.transform.ToNonDataflow).
//
// Lowering to the VM introduces impure calls (allocations written in place,
// kills), which dataflow blocks forbid, so this pass runs first. It is a
// graph::ExprMutator:
//   - a dataflow block is re-emitted into a binding block;
//   - a DataflowVar at its definition becomes a fresh Var of the same name
//     and struct info, remembered so that its uses refer to the new Var;
//   - match_cast bindings of DataflowVars likewise bind a Var.
// Everything else is unchanged, so a function without dataflow blocks comes
// back as the same node.
#include "rlx/graph/expr_functor.h"
#include "rlx/transform/passes.h"

namespace rlx::transform {
namespace {

using graph::BindingBlock;
using graph::Var;

class DataflowBlockFlattener : public graph::ExprMutator {
 public:
  explicit DataflowBlockFlattener(const ir::IRModule& mod) : ExprMutator(mod) {}

 protected:
  using ExprMutator::VisitBindingBlock_;
  using ExprMutator::VisitBinding_;
  using ExprMutator::VisitVarDef_;

  BindingBlock VisitBindingBlock_(const graph::DataflowBlockNode* block) override {
    builder_->BeginBindingBlock();
    for (const graph::Binding& binding : block->bindings) VisitBinding(binding);
    return builder_->EndBlock();
  }

  Var VisitVarDef_(const graph::DataflowVarNode* var) override {
    auto* node = new graph::VarNode(var->name_hint, VisitStructInfo(var->struct_info));
    node->span = var->span;
    return Var(node);
  }

  void VisitBinding_(const graph::MatchCastNode* binding) override {
    if (!binding->var.isa<graph::DataflowVarNode>()) return ExprMutator::VisitBinding_(binding);
    graph::Expr value = VisitExpr(binding->value);
    graph::StructInfo sinfo = VisitStructInfo(binding->struct_info);
    Var var = VisitVarDef(binding->var);
    auto* node = new graph::MatchCastNode(var, value, sinfo);
    node->span = binding->span;
    builder_->EmitNormalized(graph::Binding(node));
    RemapVar(binding->var, var);
  }
};

}  // namespace

Pass ToNonDataflow() {
  return CreateFunctionPass(
      [](graph::Function func, ir::IRModule mod, const PassContext&) {
        DataflowBlockFlattener flattener(mod);
        return cast<graph::FunctionNode>(flattener.VisitExpr(func));
      },
      PassInfo{"to-non-dataflow", "Turns dataflow blocks into binding blocks and DataflowVars into Vars", 0, {}});
}

}  // namespace rlx::transform
