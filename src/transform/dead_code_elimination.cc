// DeadCodeElimination: removes unused bindings and unreachable functions
// (after TVM's relax.transform.DeadCodeElimination).
//
// The module-level algorithm, as in TVM:
//   S1. entries = the named entry functions + every externally visible
//       function (a graph function that is not private or has a
//       global_symbol; a PrimFunc likewise). Functions not reachable from an
//       entry through GlobalVar references are removed, unless some reachable
//       function refers to a name the module lacks (then the call graph is
//       incomplete and nothing is removed).
//   S2. dead bindings are removed from every graph function (below);
//   S3. S1 again: a removed binding may have been a function's only caller.
//
// Dead bindings are found by liveness over a use graph, in one sweep (so
// chains die together, whatever their order):
//
//     node = one binding, at any depth (If branches, local functions)
//     uses(node) = variables its value refers to directly; a nested SeqExpr
//                  contributes only its result, its bindings being nodes
//     roots = variables the function returns
//           + every binding whose value contains an impure call
//           + every match_cast (a run-time check that may define symbolic
//             variables; TVM keeps them too)
//
//   live := roots; while a live variable is bound by a node, its uses are
//   live. A binding is kept iff it is a root or its variable is live.
//
// Unused dataflow outputs are removed like any other binding (TVM does the
// same: a dataflow block whose outputs are all unused disappears). The
// bindings are then dropped with a graph::ExprMutator, which re-normalizes
// what changed and drops the blocks left empty.
#include <unordered_map>
#include <unordered_set>

#include "rlx/graph/expr_functor.h"
#include "rlx/graph/op_registry.h"
#include "rlx/support/diagnostic.h"
#include "rlx/tir/function.h"
#include "rlx/transform/passes.h"
#include "utils.h"

namespace rlx::transform {
namespace {

using graph::Binding;
using graph::Expr;
using graph::Var;

constexpr const char* kPassName = "dead-code-elimination";

// ---------------------------------------------------------------------------
// Purity.

// Does calling `callee` (the op of a Call) have side effects?
bool IsImpureCallee(const Expr& callee, const ir::IRModule& mod) {
  if (const auto* op = callee.as<graph::OpNode>()) {
    const graph::OpInfo* info = graph::FindOp(op->name);
    return info == nullptr || !info->pure;
  }
  if (const auto* gvar = callee.as<graph::GlobalVarNode>()) {
    ObjectRef func = mod.defined() ? mod->Lookup(gvar->name_hint) : ObjectRef();
    if (const auto* graph_func = func.as<graph::FunctionNode>()) return !graph_func->is_pure;
    return true;  // a PrimFunc called directly writes its outputs; an unknown callee may do anything
  }
  const auto* finfo = callee->struct_info.as<graph::FuncStructInfoNode>();
  return finfo == nullptr || !finfo->purity;
}

// True when evaluating `expr` may call something impure. Local function
// definitions are not entered: defining a function calls nothing.
class ImpureCallFinder : public graph::ExprVisitor {
 public:
  explicit ImpureCallFinder(const ir::IRModule& mod) : mod_(mod) {}
  bool Find(const Expr& expr) {
    found_ = false;
    VisitExpr(expr);
    return found_;
  }

 protected:
  using ExprVisitor::VisitExpr_;
  void VisitExpr_(const graph::CallNode* op, const Expr& self) override {
    if (IsImpureCallee(op->op, mod_)) found_ = true;
    ExprVisitor::VisitExpr_(op, self);
  }
  void VisitExpr_(const graph::FunctionNode*, const Expr&) override {}

 private:
  const ir::IRModule& mod_;
  bool found_ = false;
};

// ---------------------------------------------------------------------------
// Liveness of bindings.

class BindingLiveness : public graph::ExprVisitor {
 public:
  explicit BindingLiveness(const ir::IRModule& mod) : impure_(mod) {}

  // Analyzes `func`; afterwards IsLive answers for each of its bindings.
  void Analyze(const graph::Function& func) {
    VisitExpr(func);
    Propagate();
  }

  bool IsLive(const Binding& binding) const {
    return root_bindings_.count(binding.get()) > 0 || live_.count(binding->var.get()) > 0;
  }

  void VisitBinding(const Binding& binding) override {
    int saved = current_;
    current_ = static_cast<int>(uses_.size());
    uses_.emplace_back();
    node_of_var_[binding->var.get()] = current_;
    ExprVisitor::VisitBinding(binding);
    current_ = saved;
    if (IsRoot(binding)) {
      root_bindings_.insert(binding.get());
      pending_.push_back(binding->var.get());
    }
  }

 protected:
  using ExprVisitor::VisitExpr_;
  void VisitExpr_(const graph::VarNode* op, const Expr&) override { Use(op); }
  void VisitExpr_(const graph::DataflowVarNode* op, const Expr&) override { Use(op); }

 private:
  bool IsRoot(const Binding& binding) {
    if (binding.isa<graph::MatchCastNode>()) return true;
    return impure_.Find(cast<graph::VarBindingNode>(binding)->value);
  }

  // A use inside the value of the current node, or at the function level.
  void Use(const graph::VarNode* var) {
    if (current_ < 0) {
      pending_.push_back(var);
    } else {
      uses_[current_].push_back(var);
    }
  }

  void Propagate() {
    while (!pending_.empty()) {
      const graph::VarNode* var = pending_.back();
      pending_.pop_back();
      if (!live_.insert(var).second) continue;
      auto it = node_of_var_.find(var);
      if (it == node_of_var_.end()) continue;  // a parameter
      for (const graph::VarNode* use : uses_[it->second]) pending_.push_back(use);
    }
  }

  ImpureCallFinder impure_;
  std::vector<std::vector<const graph::VarNode*>> uses_;  // per node: the variables its value uses
  std::unordered_map<const graph::VarNode*, int> node_of_var_;
  std::unordered_set<const graph::BindingNode*> root_bindings_;
  std::unordered_set<const graph::VarNode*> live_;
  std::vector<const graph::VarNode*> pending_;
  int current_ = -1;  // the node whose value is being visited; -1: none
};

// Drops the bindings the liveness analysis found dead.
class DeadBindingRemover : public graph::ExprMutator {
 public:
  DeadBindingRemover(const ir::IRModule& mod, const BindingLiveness& liveness)
      : ExprMutator(mod), liveness_(liveness) {}

  void VisitBinding(const Binding& binding) override {
    if (liveness_.IsLive(binding)) ExprMutator::VisitBinding(binding);
  }

 private:
  const BindingLiveness& liveness_;
};

graph::Function RemoveDeadBindings(const graph::Function& func, const ir::IRModule& mod) {
  BindingLiveness liveness(mod);
  liveness.Analyze(func);
  DeadBindingRemover remover(mod, liveness);
  return cast<graph::FunctionNode>(remover.VisitExpr(func));
}

// ---------------------------------------------------------------------------
// Reachability of functions.

bool HasGlobalSymbol(const ir::Dict& attrs) { return attrs.defined() && attrs->Contains("global_symbol"); }

bool IsExternallyVisible(const ObjectRef& func) {
  if (const auto* graph_func = func.as<graph::FunctionNode>()) {
    return !graph_func->is_private || HasGlobalSymbol(graph_func->attrs);
  }
  if (const auto* prim_func = func.as<tir::PrimFuncNode>()) {
    return !prim_func->is_private || HasGlobalSymbol(prim_func->attrs);
  }
  return true;  // an unknown kind of function: keep it
}

// Names of the module functions `func` refers to.
std::vector<std::string> Callees(const ObjectRef& func) {
  std::vector<std::string> names;
  if (const auto* graph_func = func.as<graph::FunctionNode>()) {
    graph::PostOrderVisit(Expr(graph_func), [&](const Expr& expr) {
      if (const auto* gvar = expr.as<graph::GlobalVarNode>()) names.push_back(gvar->name_hint);
    });
  }
  return names;  // PrimFuncs call no module functions
}

ir::IRModule RemoveUnreachableFunctions(const ir::IRModule& mod, const std::vector<std::string>& entries) {
  std::unordered_set<std::string> reachable(entries.begin(), entries.end());
  std::vector<std::string> to_visit(entries.begin(), entries.end());
  while (!to_visit.empty()) {
    ObjectRef func = mod->Lookup(to_visit.back());
    to_visit.pop_back();
    if (!func.defined()) return mod;  // the call graph is incomplete: remove nothing
    for (std::string& callee : Callees(func)) {
      if (reachable.insert(callee).second) to_visit.push_back(std::move(callee));
    }
  }
  ir::IRModule result = mod;
  for (const auto& [name, func] : mod->functions) {
    if (!reachable.count(name)) result = ir::WithoutFunction(result, name);
  }
  return result;
}

std::vector<std::string> EntryFunctions(const ir::IRModule& mod, const std::vector<std::string>& named) {
  std::vector<std::string> entries;
  for (const std::string& name : named) {
    if (!mod->Contains(name)) {
      throw CompileError(mod->span, std::string(kPassName) + ": entry function '" + name + "' is not in the module");
    }
    entries.push_back(name);
  }
  for (const auto& [name, func] : mod->functions) {
    if (IsExternallyVisible(func)) entries.push_back(name);
  }
  return entries;
}

ir::IRModule RemoveDeadBindingsInModule(const ir::IRModule& mod) {
  ir::IRModule result = mod;
  for (const auto& [name, func] : mod->functions) {
    const auto* graph_func = func.as<graph::FunctionNode>();
    if (graph_func == nullptr) continue;
    graph::Function updated = RemoveDeadBindings(graph::Function(graph_func), mod);
    if (!updated.same_as(func)) result = ir::WithFunction(result, name, updated);
  }
  return result;
}

}  // namespace

graph::Function RemoveAllUnused(const graph::Function& func, const ir::IRModule& mod) {
  return RemoveDeadBindings(func, mod);
}

bool ContainsImpureCall(const graph::Expr& expr, const ir::IRModule& mod) { return ImpureCallFinder(mod).Find(expr); }

Pass DeadCodeElimination(std::vector<std::string> entry_functions) {
  auto run = [entry_functions](ir::IRModule mod, const PassContext&) {
    std::vector<std::string> entries = EntryFunctions(mod, entry_functions);
    mod = RemoveUnreachableFunctions(mod, entries);
    mod = RemoveDeadBindingsInModule(mod);
    return RemoveUnreachableFunctions(mod, entries);
  };
  return CreateModulePass(run, PassInfo{kPassName,
                                        "Removes unused pure bindings and functions unreachable from the entry "
                                        "functions (option: entry-functions=a,b)",
                                        1, {}});
}

}  // namespace rlx::transform
