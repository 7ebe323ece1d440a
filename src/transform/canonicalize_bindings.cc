// CanonicalizeBindings: removes trivial bindings and the indirections they
// cause (after TVM's relax.transform.CanonicalizeBindings).
//
// Two phases over each function, as in TVM:
//
// 1. The planner (an ExprVisitor) reads the whole function and records
//    - trivial bindings `y = x` (a VarBinding of a variable, a TupleGetItem
//      of a variable known to hold a tuple literal, `t[i]` -> field i, or a
//      match_cast whose target struct info equals the value's);
//    - variables bound to constants;
//    - which variables are defined in a dataflow block and which are used
//      outside the block that defines them (free variables of local
//      functions count as used outside).
//    From these it plans, with `y = x` resolved through chains to the first
//    non-trivial definition `x`:
//
//      y, x kinds                         plan
//      Var = Var, DF = Var, DF = DF       drop `y = x`, uses of y -> x
//      Var = DF, y used only in block     drop `y = x`, uses of y -> x
//      Var = DF, y used after the block   drop `y = x`, bind x's value to y
//                                         instead (x's binding is renamed),
//                                         uses of x -> y: outputs stay Vars
//
//    plus: a Var defined in a dataflow block and used only inside it is
//    replaced by a DataflowVar (it leaves R.output), and uses of a variable
//    bound to a constant become the constant.
//
// 2. The canonicalizer (a graph::ExprMutator) applies the plan: skips the
//    dropped bindings, renames definitions, rewrites uses. The mutator
//    re-deduces struct info where values changed and drops emptied blocks.
//
// Not done (TVM's CanonicalizeTIRVariables half): replacing symbolic
// variables that a match_cast defines by values known from earlier shapes.
#include <unordered_map>
#include <unordered_set>

#include "rlx/arith/analyzer.h"
#include "rlx/graph/expr_functor.h"
#include "rlx/graph/struct_info_analysis.h"
#include "rlx/transform/passes.h"

namespace rlx::transform {
namespace {

using graph::Binding;
using graph::Expr;
using graph::Var;

template <typename T>
using VarMap = std::unordered_map<const graph::VarNode*, T>;
using VarSet = std::unordered_set<const graph::VarNode*>;

bool IsDataflowVar(const Var& var) { return var.isa<graph::DataflowVarNode>(); }

// Equal up to provable equality of symbolic values: each is a base of the other.
bool SameStructInfo(const graph::StructInfo& a, const graph::StructInfo& b, arith::Analyzer& ana) {
  return graph::IsBaseOf(a, b, ana) && graph::IsBaseOf(b, a, ana);
}

// Variables used in `func` but defined outside it.
VarSet FreeVars(const graph::Function& func) {
  class Collector : public graph::ExprVisitor {
   public:
    void VisitVarDef(const Var& var) override { defined.insert(var.get()); }
    VarSet defined;
    VarSet used;

   protected:
    using ExprVisitor::VisitExpr_;
    void VisitExpr_(const graph::VarNode* op, const Expr&) override { used.insert(op); }
    void VisitExpr_(const graph::DataflowVarNode* op, const Expr&) override { used.insert(op); }
  };
  Collector collector;
  collector.VisitExpr(func);
  VarSet free;
  for (const graph::VarNode* var : collector.used) {
    if (!collector.defined.count(var)) free.insert(var);
  }
  return free;
}

struct CanonicalizationPlan {
  VarMap<Var> replace_usage;     // uses of the key become uses of the value
  VarMap<Var> replace_binding;   // the key's binding binds the value instead
  VarSet bindings_to_remove;     // bindings (by variable) to drop
  VarMap<graph::Constant> inline_constant;
};

// Phase 1: reads a function and plans its canonicalization.
class CanonicalizePlanner : public graph::ExprVisitor {
 public:
  static CanonicalizationPlan Plan(const graph::Function& func) {
    CanonicalizePlanner planner;
    planner.VisitExpr(func);
    CanonicalizationPlan plan;
    planner.PlanDataflowDemotions(plan);
    for (const auto& [var, constant] : planner.known_constant_) plan.inline_constant[var] = constant;
    planner.PlanTrivialBindings(plan);
    return plan;
  }

  void VisitBinding(const Binding& binding) override {
    Expr value = Unwrap(BoundValue(binding));
    if (value.isa<graph::VarNode>() && IsTrivialCast(binding)) {
      trivial_order_.push_back(binding->var);
      trivial_bindings_[binding->var.get()] = cast<graph::VarNode>(value);
    }
    if (value.isa<graph::ConstantNode>()) known_constant_[binding->var.get()] = cast<graph::ConstantNode>(value);
    known_bindings_[binding->var.get()] = value;
    def_block_[binding->var.get()] = current_block_;
    ExprVisitor::VisitBinding(binding);
  }

  void VisitBindingBlock(const graph::BindingBlock& block) override {
    RLX_ICHECK(current_block_ == nullptr) << "nested binding blocks";
    current_block_ = block.get();
    ExprVisitor::VisitBindingBlock(block);
    current_block_ = nullptr;
  }

  void VisitVarDef(const Var& var) override {
    if (InsideDataflow()) defined_inside_dataflow_.push_back(var);
    ExprVisitor::VisitVarDef(var);
  }

 protected:
  using ExprVisitor::VisitExpr_;

  void VisitExpr_(const graph::FunctionNode* op, const Expr& self) override {
    const graph::BindingBlockNode* saved = current_block_;
    current_block_ = nullptr;
    for (const graph::VarNode* var : FreeVars(cast<graph::FunctionNode>(self))) used_outside_home_.insert(var);
    ExprVisitor::VisitExpr_(op, self);
    current_block_ = saved;
  }

  // Nested SeqExprs (If branches) have blocks of their own.
  void VisitExpr_(const graph::SeqExprNode* op, const Expr& self) override {
    const graph::BindingBlockNode* saved = current_block_;
    current_block_ = nullptr;
    ExprVisitor::VisitExpr_(op, self);
    current_block_ = saved;
  }

  void VisitExpr_(const graph::VarNode* op, const Expr&) override { RecordUse(op); }
  void VisitExpr_(const graph::DataflowVarNode* op, const Expr&) override { RecordUse(op); }

 private:
  static Expr BoundValue(const Binding& binding) {
    if (const auto* var_binding = binding.as<graph::VarBindingNode>()) return var_binding->value;
    return cast<graph::MatchCastNode>(binding)->value;
  }

  // A var binding always; a match_cast when it changes no struct info.
  bool IsTrivialCast(const Binding& binding) {
    const auto* match_cast = binding.as<graph::MatchCastNode>();
    if (match_cast == nullptr) return true;
    return SameStructInfo(graph::GetStructInfo(binding->var), graph::GetStructInfo(match_cast->value), analyzer_);
  }

  // `t[i]` where `t` is known to hold a tuple literal -> its field i.
  Expr Unwrap(const Expr& value) const {
    const auto* get_item = value.as<graph::TupleGetItemNode>();
    if (get_item == nullptr) return value;
    Expr tuple = get_item->tuple;
    while (const auto* var = tuple.as<graph::VarNode>()) {
      auto it = known_bindings_.find(var);
      if (it == known_bindings_.end()) break;
      tuple = it->second;
    }
    const auto* literal = tuple.as<graph::TupleNode>();
    if (literal == nullptr || get_item->index < 0 || get_item->index >= static_cast<int>(literal->fields.size())) {
      return value;
    }
    return literal->fields[get_item->index];
  }

  bool InsideDataflow() const { return current_block_ != nullptr && current_block_->is_dataflow(); }

  // A use outside any dataflow block, or in a dataflow block other than the
  // one defining the variable, exposes the variable.
  void RecordUse(const graph::VarNode* var) {
    auto home = def_block_.find(var);
    bool in_other_block = home != def_block_.end() && current_block_ != nullptr && current_block_ != home->second;
    if (!InsideDataflow() || in_other_block) used_outside_home_.insert(var);
  }

  void PlanDataflowDemotions(CanonicalizationPlan& plan) const {
    for (const Var& var : defined_inside_dataflow_) {
      if (IsDataflowVar(var) || used_outside_home_.count(var.get())) continue;
      auto* demoted = new graph::DataflowVarNode(var->name_hint, var->struct_info);
      demoted->span = var->span;
      plan.replace_binding[var.get()] = Var(demoted);
      plan.replace_usage[var.get()] = Var(demoted);
    }
  }

  void PlanTrivialBindings(CanonicalizationPlan& plan) const {
    for (const Var& bound_var : trivial_order_) {
      Var bound_to = trivial_bindings_.at(bound_var.get());
      for (auto it = trivial_bindings_.find(bound_to.get()); it != trivial_bindings_.end();
           it = trivial_bindings_.find(bound_to.get())) {
        bound_to = it->second;
      }
      for (auto it = plan.replace_binding.find(bound_to.get()); it != plan.replace_binding.end();
           it = plan.replace_binding.find(bound_to.get())) {
        bound_to = it->second;
      }
      plan.bindings_to_remove.insert(bound_var.get());
      if (IsDataflowVar(bound_var) || !IsDataflowVar(bound_to) || !used_outside_home_.count(bound_var.get())) {
        plan.replace_usage[bound_var.get()] = bound_to;
      } else {
        plan.replace_binding[bound_to.get()] = bound_var;
        plan.replace_usage[bound_to.get()] = bound_var;
      }
    }
  }

  arith::Analyzer analyzer_;
  const graph::BindingBlockNode* current_block_ = nullptr;
  VarMap<const graph::BindingBlockNode*> def_block_;
  std::vector<Var> trivial_order_;
  VarMap<Var> trivial_bindings_;
  VarMap<Expr> known_bindings_;
  VarMap<graph::Constant> known_constant_;
  std::vector<Var> defined_inside_dataflow_;
  VarSet used_outside_home_;
};

// Phase 2: applies a plan.
class BindingCanonicalizer : public graph::ExprMutator {
 public:
  BindingCanonicalizer(const ir::IRModule& mod, CanonicalizationPlan plan) : ExprMutator(mod), plan_(std::move(plan)) {}

  void VisitBinding(const Binding& binding) override {
    if (!plan_.bindings_to_remove.count(binding->var.get())) ExprMutator::VisitBinding(binding);
  }

  Var VisitVarDef(const Var& var) override { return ExprMutator::VisitVarDef(Follow(plan_.replace_binding, var)); }

 protected:
  using ExprMutator::VisitExpr_;

  Expr VisitExpr_(const graph::VarNode* op, const Expr& self) override { return VisitUse(Var(op), self); }
  Expr VisitExpr_(const graph::DataflowVarNode* op, const Expr& self) override { return VisitUse(Var(op), self); }

  // As ExprMutator's, but a renamed definition (replace_binding) keeps the
  // name and kind it was renamed to, and every identity the variable had is
  // remapped. A changed value gets a fresh variable with deduced struct info.
  void VisitBinding_(const graph::VarBindingNode* binding) override {
    Expr value = VisitExpr(binding->value);
    Var var = VisitVarDef(binding->var);
    if (var.same_as(binding->var) && value.same_as(binding->value)) {
      builder_->EmitNormalized(Binding(binding));
      return;
    }
    Var target = value.same_as(binding->value) ? var : FreshLike(var, nullptr);
    Var emitted = builder_->EmitWithVar(target, value, binding->span);
    RemapVar(binding->var, emitted);
    if (!var.same_as(binding->var)) RemapVar(var, emitted);
  }

  void VisitBinding_(const graph::MatchCastNode* binding) override {
    Expr value = VisitExpr(binding->value);
    graph::StructInfo sinfo = VisitStructInfo(binding->struct_info);
    Var var = VisitVarDef(binding->var);
    if (var.same_as(binding->var) && value.same_as(binding->value) && sinfo.same_as(binding->struct_info)) {
      builder_->EmitNormalized(Binding(binding));
      return;
    }
    Var target = var.same_as(binding->var) ? FreshLike(binding->var, sinfo) : var;
    auto* node = new graph::MatchCastNode(target, value, sinfo);
    node->span = binding->span;
    builder_->EmitNormalized(Binding(node));
    RemapVar(binding->var, target);
  }

 private:
  static Var Follow(const VarMap<Var>& map, Var var) {
    for (auto it = map.find(var.get()); it != map.end(); it = map.find(var.get())) var = it->second;
    return var;
  }

  static Var FreshLike(const Var& var, graph::StructInfo sinfo) {
    graph::VarNode* node = IsDataflowVar(var) ? new graph::DataflowVarNode(var->name_hint, std::move(sinfo))
                                              : new graph::VarNode(var->name_hint, std::move(sinfo));
    node->span = var->span;
    return Var(node);
  }

  Expr VisitUse(const Var& original, const Expr& self) {
    Var var = Follow(plan_.replace_usage, original);
    if (auto it = plan_.inline_constant.find(var.get()); it != plan_.inline_constant.end()) return it->second;
    auto remapped = var_remap_.find(var.get());
    if (remapped != var_remap_.end()) return remapped->second;
    return var.same_as(original) ? self : Expr(var);
  }

  CanonicalizationPlan plan_;
};

}  // namespace

Pass CanonicalizeBindings() {
  return CreateFunctionPass(
      [](graph::Function func, ir::IRModule mod, const PassContext&) {
        BindingCanonicalizer canonicalizer(mod, CanonicalizePlanner::Plan(func));
        return cast<graph::FunctionNode>(canonicalizer.VisitExpr(func));
      },
      PassInfo{"canonicalize-bindings",
               "Folds trivial bindings (y = x, t[i] of a tuple literal, no-op match_cast) and inlines bound constants",
               1, {}});
}

}  // namespace rlx::transform
