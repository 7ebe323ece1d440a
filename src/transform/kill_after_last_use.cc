// KillAfterLastUse: after TVM's relax.transform.KillAfterLastUse.
//
// Frees every VM-held object as soon as it is dead, instead of at the end of
// the function:
//
//   storage = R.memory.alloc_storage(...)      storage = R.memory.alloc_storage(...)
//   t = R.memory.alloc_tensor(storage, ...)    t = R.memory.alloc_tensor(storage, ...)
//   _ = cls.f(x, t)                      =>    _ = cls.f(x, t)
//   u = R.add(t, t)                            u = R.add(t, t)
//                                              _ = R.memory.kill_tensor(t)
//   return u                                   _ = R.memory.kill_storage(storage)
//                                              return u
//
// Steps, for each graph function:
//   1. canonicalize-bindings, then drop trivial bindings (`y = x`, a
//      match_cast that changes nothing) whose variable is unused, so that
//      aliases do not hide the real last use;
//   2. for each SeqExpr (the body, and If branches on their own), find the
//      last binding of that SeqExpr whose value uses each variable bound
//      there (uses inside nested expressions count for the enclosing
//      binding); a variable used by the SeqExpr's result, never used, or
//      already passed to a kill is left alone. A variable bound to another
//      variable (a refining match_cast) shares its VM register: it is an
//      alias, its uses extend the life of the variable it renames, and it
//      is never killed itself (killing it would clear the other's register;
//      TVM kills such aliases);
//   3. right after that binding, emit (tensors first, then storage, then
//      other objects, each group in binding order)
//        R.memory.kill_tensor(v)   for tensors,
//        R.memory.kill_storage(v)  for storage (bound to memory/vm.alloc_storage),
//        R.vm.kill_object(v)       for other objects held in VM registers;
//      constants, shapes, prim values and functions are not held in
//      registers and are never killed.
// Parameters are not bound in the function, so they are never killed.
#include <algorithm>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "rlx/graph/expr_functor.h"
#include "rlx/graph/structural_equal.h"
#include "rlx/transform/passes.h"

namespace rlx::transform {
namespace {

using graph::Binding;
using graph::Expr;
using graph::Var;
using graph::VarNode;

const graph::CallNode* OpCall(const Expr& expr, std::initializer_list<const char*> names) {
  const auto* call = expr.as<graph::CallNode>();
  const auto* op = call ? call->op.as<graph::OpNode>() : nullptr;
  if (op == nullptr) return nullptr;
  for (const char* name : names) {
    if (op->name == name) return call;
  }
  return nullptr;
}

const graph::CallNode* KillCall(const Expr& expr) {
  return OpCall(expr, {"relax.memory.kill_tensor", "relax.memory.kill_storage", "relax.vm.kill_object"});
}

Expr ValueOf(const Binding& binding) {
  if (const auto* var_binding = binding.as<graph::VarBindingNode>()) return var_binding->value;
  return cast<graph::MatchCastNode>(binding)->value;
}

// Variables used anywhere in an expression.
class UsedVarCollector : public graph::ExprVisitor {
 public:
  std::unordered_set<const VarNode*> used;

 protected:
  using ExprVisitor::VisitExpr_;
  void VisitExpr_(const VarNode* op, const Expr&) override { used.insert(op); }
  void VisitExpr_(const graph::DataflowVarNode* op, const Expr&) override { used.insert(op); }
};

// Step 1: trivial bindings whose variable is unused.
class UnusedTrivialBindingRemover : public graph::ExprMutator {
 public:
  explicit UnusedTrivialBindingRemover(const ir::IRModule& mod) : ExprMutator(mod) {}

  graph::Function Run(const graph::Function& func) {
    UsedVarCollector collector;
    collector.VisitExpr(func->body);
    used_ = std::move(collector.used);
    return cast<graph::FunctionNode>(VisitExpr(func));
  }

  void VisitBinding(const Binding& binding) override {
    if (IsTrivial(binding) && !used_.count(binding->var.get())) return;
    ExprMutator::VisitBinding(binding);
  }

 private:
  static bool IsTrivial(const Binding& binding) {
    if (const auto* var_binding = binding.as<graph::VarBindingNode>()) return var_binding->value.isa<VarNode>();
    const auto* match_cast = binding.as<graph::MatchCastNode>();
    return match_cast->value.isa<VarNode>() &&
           graph::StructuralEqual(match_cast->var->struct_info, match_cast->value->struct_info);
  }

  std::unordered_set<const VarNode*> used_;
};

enum class KillKind { kTensor, kStorage, kObject };

struct Kill {
  const VarNode* var;
  KillKind kind;
};

// Step 2: binding variable -> the kills to emit right after its binding.
using KillPlan = std::unordered_map<const VarNode*, std::vector<Kill>>;

std::optional<KillKind> KillKindOf(const Binding& binding) {
  Expr value = ValueOf(binding);
  if (OpCall(value, {"relax.memory.alloc_storage", "relax.vm.alloc_storage"})) return KillKind::kStorage;
  if (value.isa<graph::ConstantNode>()) return std::nullopt;
  const graph::StructInfo& sinfo = binding->var->struct_info;
  if (sinfo.isa<graph::FuncStructInfoNode>() || sinfo.isa<graph::ShapeStructInfoNode>() ||
      sinfo.isa<graph::PrimStructInfoNode>()) {
    return std::nullopt;
  }
  if (sinfo.isa<graph::TensorStructInfoNode>()) return KillKind::kTensor;
  return KillKind::kObject;
}

// A variable bound to another variable (a match_cast, or a trivial binding
// that is still used) names the same VM register, so it is an alias: its
// uses count as uses of the variable it renames, and only that one is killed.
class AliasMap {
 public:
  void Record(const Binding& binding) {
    if (const auto* source = ValueOf(binding).as<VarNode>()) alias_of_[binding->var.get()] = source;
  }
  bool IsAlias(const VarNode* var) const { return alias_of_.count(var) > 0; }
  const VarNode* Root(const VarNode* var) const {
    for (auto it = alias_of_.find(var); it != alias_of_.end(); it = alias_of_.find(var)) var = it->second;
    return var;
  }

 private:
  std::unordered_map<const VarNode*, const VarNode*> alias_of_;
};

KillPlan PlanKills(const graph::SeqExprNode* seq) {
  std::vector<Binding> bindings;
  for (const graph::BindingBlock& block : seq->blocks) {
    bindings.insert(bindings.end(), block->bindings.begin(), block->bindings.end());
  }
  AliasMap aliases;
  std::unordered_map<const VarNode*, const VarNode*> last_use;
  std::unordered_set<const VarNode*> killed;
  for (const Binding& binding : bindings) {
    aliases.Record(binding);
    Expr value = ValueOf(binding);
    if (const graph::CallNode* kill = KillCall(value)) {
      if (const auto* var = kill->args.at(0).as<VarNode>()) killed.insert(aliases.Root(var));
      continue;
    }
    UsedVarCollector uses;
    uses.VisitExpr(value);
    for (const VarNode* var : uses.used) last_use[aliases.Root(var)] = binding->var.get();
  }
  UsedVarCollector outputs;
  outputs.VisitExpr(seq->body);
  std::unordered_set<const VarNode*> returned;
  for (const VarNode* var : outputs.used) returned.insert(aliases.Root(var));
  KillPlan plan;
  for (const Binding& binding : bindings) {
    const VarNode* var = binding->var.get();
    auto it = last_use.find(var);
    if (it == last_use.end() || aliases.IsAlias(var) || returned.count(var) || killed.count(var)) continue;
    if (std::optional<KillKind> kind = KillKindOf(binding)) plan[it->second].push_back(Kill{var, *kind});
  }
  return plan;
}

// Step 3.
class KillInserter : public graph::ExprMutator {
 public:
  explicit KillInserter(const ir::IRModule& mod) : ExprMutator(mod) {}

  void VisitBinding(const Binding& binding) override {
    ExprMutator::VisitBinding(binding);
    if (plans_.empty()) return;
    auto it = plans_.back().find(binding->var.get());
    if (it == plans_.back().end()) return;
    std::vector<Kill> kills = it->second;
    std::stable_sort(kills.begin(), kills.end(), [](const Kill& a, const Kill& b) { return a.kind < b.kind; });
    for (const Kill& kill : kills) {
      Expr var = VisitExpr(Expr(kill.var));
      const char* op = kill.kind == KillKind::kTensor    ? "relax.memory.kill_tensor"
                       : kill.kind == KillKind::kStorage ? "relax.memory.kill_storage"
                                                         : "relax.vm.kill_object";
      builder_->Emit(graph::MakeCall(op, {var}), "_");
    }
  }

 protected:
  using ExprMutator::VisitExpr_;
  Expr VisitExpr_(const graph::SeqExprNode* op, const Expr& self) override {
    plans_.push_back(PlanKills(op));
    Expr result = ExprMutator::VisitExpr_(op, self);
    plans_.pop_back();
    return result;
  }

 private:
  std::vector<KillPlan> plans_;
};

}  // namespace

Pass KillAfterLastUse() {
  auto run = [](ir::IRModule mod, const PassContext& ctx) {
    mod = CanonicalizeBindings()(mod, ctx);
    ir::IRModule result = mod;
    for (const auto& [name, func] : mod->functions) {
      const auto* graph_func = func.as<graph::FunctionNode>();
      if (graph_func == nullptr) continue;
      graph::Function updated = UnusedTrivialBindingRemover(mod).Run(graph::Function(graph_func));
      updated = cast<graph::FunctionNode>(KillInserter(mod).VisitExpr(updated));
      if (!updated.same_as(func)) result = ir::WithFunction(result, name, updated);
    }
    return result;
  };
  return CreateModulePass(run, PassInfo{"kill-after-last-use",
                                        "Kills tensors, storage and other VM objects right after their last use", 0,
                                        {}});
}

}  // namespace rlx::transform
