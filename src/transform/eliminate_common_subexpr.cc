// EliminateCommonSubexpr: a binding whose value was already computed by an
// earlier binding in scope becomes a trivial binding of the earlier variable
// (after TVM's relax.transform.EliminateCommonSubexpr).
//
// One graph::ExprMutator walks each graph function, keeping a table
//
//     key(value) -> variables bound to that value, first one first
//
// At each binding (value rewritten first, so earlier replacements carry
// over):
//   - impure values (ContainsImpureCall), allocations (TVM's TAllocator
//     ops: builtin/memory/vm alloc_storage and alloc_tensor, which are pure
//     but each call must return a distinct buffer), and with call_only
//     every value that is not a Call, are never merged;
//   - a key already in the table: the binding becomes `var = first` and
//     uses of `var` become uses of `first` (the trivial binding stays, as in
//     TVM; canonicalize-bindings or dead-code-elimination removes it);
//   - otherwise the variable is recorded under its key.
//
// The key is the value compared by structural equality, plus the target
// struct info for a match_cast (two match_casts of one value that define
// different symbolic variables are different). Structural equality maps
// variables at first sight, which would equate `add(x, y)` with
// `add(a, b)`; so the key also holds the free variables of the value (graph
// variables and symbolic variables, in order of first appearance) by
// identity: equal structure + identical free-variable sequences means the
// correspondence maps each variable to itself.
//
// Scoping as in TVM: DataflowVars leave the table (and the use remapping)
// when their dataflow block ends; If branches see the enclosing table but
// add nothing to it; a local function is processed with a fresh table.
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "rlx/graph/expr_functor.h"
#include "rlx/graph/structural_equal.h"
#include "rlx/ir/functor.h"
#include "rlx/transform/passes.h"
#include "utils.h"

namespace rlx::transform {
namespace {

using graph::Binding;
using graph::Expr;
using ir::PrimExpr;
using graph::Var;

constexpr const char* kPassName = "eliminate-common-subexpr";

// Graph and symbolic variables that `root` (and `match_sinfo`) mention, in
// order of first appearance.
class FreeVarSequence : public graph::ExprVisitor {
 public:
  static std::vector<const Node*> Of(const Expr& root, const graph::StructInfo& match_sinfo) {
    FreeVarSequence collector;
    collector.VisitExpr(root);
    if (match_sinfo.defined()) collector.VisitStructInfo(match_sinfo);
    return collector.order_;
  }

  void VisitPrimExpr(const PrimExpr& expr) override {
    ir::PostOrderVisit(expr, [&](const PrimExpr& sub) {
      if (sub.isa<ir::VarNode>()) Add(sub.get());
    });
  }

 protected:
  using ExprVisitor::VisitExpr_;
  void VisitExpr_(const graph::VarNode* op, const Expr&) override { Add(op); }
  void VisitExpr_(const graph::DataflowVarNode* op, const Expr&) override { Add(op); }

 private:
  void Add(const Node* var) {
    if (seen_.insert(var).second) order_.push_back(var);
  }
  std::unordered_set<const Node*> seen_;
  std::vector<const Node*> order_;
};

struct ReplacementKey {
  Expr value;
  graph::StructInfo match_sinfo;  // undefined for a VarBinding
  std::vector<const Node*> free_vars;

  bool operator==(const ReplacementKey& other) const {
    return free_vars == other.free_vars && graph::StructuralEqual(value, other.value) &&
           graph::StructuralEqual(match_sinfo, other.match_sinfo);
  }
};

struct ReplacementKeyHash {
  size_t operator()(const ReplacementKey& key) const {
    size_t hash = graph::StructuralHash(key.value);
    if (key.match_sinfo.defined()) hash = hash * 31 + graph::StructuralHash(key.match_sinfo);
    for (const Node* var : key.free_vars) hash = hash * 31 + std::hash<const Node*>()(var);
    return hash;
  }
};

// An allocation: equal calls must still give distinct buffers.
bool IsAllocation(const Expr& value) {
  static const std::unordered_set<std::string> kAllocators = {
      "relax.builtin.alloc_tensor", "relax.memory.alloc_storage", "relax.memory.alloc_tensor",
      "relax.vm.alloc_storage", "relax.vm.alloc_tensor"};
  const auto* call = value.as<graph::CallNode>();
  if (call == nullptr) return false;
  const auto* op = call->op.as<graph::OpNode>();
  return op != nullptr && kAllocators.count(op->name) > 0;
}

using ReplacementTable = std::unordered_map<ReplacementKey, std::vector<Var>, ReplacementKeyHash>;

class CommonSubexprEliminator : public graph::ExprMutator {
 public:
  CommonSubexprEliminator(const ir::IRModule& mod, bool call_only) : ExprMutator(mod), mod_(mod), call_only_(call_only) {}

  void VisitBinding(const Binding& binding) override {
    const auto* match_cast = binding.as<graph::MatchCastNode>();
    const auto* var_binding = binding.as<graph::VarBindingNode>();
    Expr value = VisitExpr(match_cast ? match_cast->value : var_binding->value);
    if (!Mergeable(value)) return EmitAsIs(binding, value);
    graph::StructInfo match_sinfo = match_cast ? match_cast->struct_info : graph::StructInfo();
    ReplacementKey key{value, match_sinfo, FreeVarSequence::Of(value, match_sinfo)};
    auto it = table_.find(key);
    if (it == table_.end() || it->second.empty()) {
      EmitAsIs(binding, value);
      table_[key].push_back(EmittedVar(binding->var));
      return;
    }
    const Var& first = it->second.front();
    builder().EmitNormalized(make<graph::VarBindingNode>(binding->var, first));
    RemapVar(binding->var, first);
    if (first.isa<graph::DataflowVarNode>()) remapped_to_dataflow_.push_back(binding->var.get());
  }

 protected:
  using ExprMutator::VisitExpr_;

  graph::BindingBlock VisitBindingBlock_(const graph::DataflowBlockNode* block) override {
    graph::BindingBlock result = ExprMutator::VisitBindingBlock_(block);
    ForgetDataflowVars();
    return result;
  }

  Expr VisitExpr_(const graph::IfNode* op, const Expr& self) override {
    ReplacementTable saved_table = table_;
    auto saved_remap = var_remap_;
    Expr cond = VisitExpr(op->cond);
    Expr true_branch = VisitBranch(op->true_branch, saved_table, saved_remap);
    Expr false_branch = VisitBranch(op->false_branch, saved_table, saved_remap);
    if (cond.same_as(op->cond) && true_branch.same_as(op->true_branch) && false_branch.same_as(op->false_branch)) {
      return self;
    }
    return make<graph::IfNode>(cond, true_branch, false_branch);
  }

  Expr VisitExpr_(const graph::FunctionNode* op, const Expr& self) override {
    if (table_.empty()) return ExprMutator::VisitExpr_(op, self);
    CommonSubexprEliminator fresh(mod_, call_only_);
    return fresh.VisitExpr(self);
  }

 private:
  bool Mergeable(const Expr& value) const {
    if (call_only_ && !value.isa<graph::CallNode>()) return false;
    if (IsAllocation(value)) return false;
    return !ContainsImpureCall(value, mod_);
  }

  void EmitAsIs(const Binding& binding, const Expr& value) {
    if (const auto* var_binding = binding.as<graph::VarBindingNode>()) return ReEmitBinding(var_binding, value);
    ExprMutator::VisitBinding(binding);
  }

  // The variable the builder bound for `var` (a fresh one when its value
  // changed).
  Var EmittedVar(const Var& var) const {
    auto it = var_remap_.find(var.get());
    return it == var_remap_.end() ? var : it->second;
  }

  Expr VisitBranch(const Expr& branch, const ReplacementTable& table,
                   const std::unordered_map<const graph::VarNode*, Var>& remap) {
    Expr result = VisitWithNewScope(branch);
    table_ = table;
    var_remap_ = remap;
    return result;
  }

  void ForgetDataflowVars() {
    for (auto& [key, vars] : table_) {
      std::erase_if(vars, [](const Var& var) { return var.isa<graph::DataflowVarNode>(); });
    }
    for (const graph::VarNode* var : remapped_to_dataflow_) var_remap_.erase(var);
    remapped_to_dataflow_.clear();
  }

  const ir::IRModule& mod_;
  bool call_only_;
  ReplacementTable table_;
  std::vector<const graph::VarNode*> remapped_to_dataflow_;
};

ir::IRModule EliminateInModule(const ir::IRModule& mod, bool call_only) {
  ir::IRModule result = mod;
  for (const auto& [name, func] : mod->functions) {
    const auto* graph_func = func.as<graph::FunctionNode>();
    if (graph_func == nullptr) continue;
    CommonSubexprEliminator eliminator(mod, call_only);
    Expr updated = eliminator.VisitExpr(graph::Function(graph_func));
    if (!updated.same_as(func)) result = ir::WithFunction(result, name, updated);
  }
  return result;
}

}  // namespace

Pass EliminateCommonSubexpr(bool call_only) {
  return CreateModulePass(
      [call_only](ir::IRModule mod, const PassContext&) { return EliminateInModule(mod, call_only); },
      PassInfo{kPassName,
               "Replaces a pure binding whose value an earlier binding in scope already computed by a trivial "
               "binding of that variable (option: call-only=true)",
               1, {}});
}

}  // namespace rlx::transform
