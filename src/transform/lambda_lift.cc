// LambdaLift: local functions become private module functions (after TVM's
// relax.transform.LambdaLift).
//
// One graph::ExprMutator walks each module-level graph function F. At a
// binding `f = R.function(params) body` (innermost functions are lifted
// while their enclosing function's body is rewritten, so nesting needs no
// special case):
//
//   captures = the graph variables the local function uses but does not
//              define (f itself excluded: a recursive reference), in order
//              of first use, then the symbolic variables it uses that
//              neither its parameters nor the captured variables' struct
//              info define (a shape variable n of the enclosing function)
//   name     = "<F>_<f>", made unique against the module ("_0", "_1", ...)
//   lifted   = R.function(private=True)(params + captures') body', where
//              captures' are fresh parameters standing for the captures (a
//              symbolic variable n becomes `n: R.Prim(value=n)`, passed as
//              R.prim_value(n), which defines n in the lifted function) and
//              body' is body rewritten by this same mutator with
//              capture -> capture'; a recursive call f(args) inside becomes
//              the direct call name(args, captures')
//
// and at the binding site:
//
//   no captures: the binding disappears; f(args) -> name(args), other uses
//                of f -> the GlobalVar name
//   captures:    f = R.make_closure(name, (captures)); calls of f go through
//                the closure
//
// Any other call of a variable (a closure returned by a lifted function, a
// callable parameter) becomes R.invoke_pure_closure(v, (args), sinfo_args)
// (R.invoke_closure when the callee is impure), as TVM does, since after
// lifting every callable value is a closure object.
//
// The callee's signature must be known while the body of a recursive
// function is being rewritten, so a provisional version of the lifted
// function (its final parameters and return struct info) is added to the
// builder's module first and replaced once the body is done. A lifted
// function that returned a callable returns what its new body returns (a
// closure).
//
// The lifted function gets fresh symbolic variables for those its
// parameters define (a local function may name the enclosing function's).
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "rlx/graph/expr_functor.h"
#include "rlx/graph/struct_info_analysis.h"
#include "rlx/ir/functor.h"
#include "rlx/support/diagnostic.h"
#include "rlx/transform/passes.h"

namespace rlx::transform {
namespace {

using graph::Expr;
using ir::PrimExpr;
using graph::Var;

constexpr const char* kPassName = "lambda-lift";

// What a local function uses from its enclosing function.
struct Captures {
  std::vector<Var> vars;         // graph variables, in order of first use
  std::vector<ir::Var> symbols;  // symbolic variables no parameter defines
};

// Graph and symbolic variables used in a local function but not defined in
// it. A symbolic variable is defined by the struct info of a parameter (of
// the function, of a function nested in it, or of a captured variable, which
// becomes a parameter) or of a match_cast pattern.
class CaptureCollector : public graph::ExprVisitor {
 public:
  static Captures Collect(const graph::Function& func, const graph::VarNode* self) {
    CaptureCollector collector;
    collector.VisitExpr(func);
    collector.VisitStructInfo(func->ret_struct_info);
    Captures captures;
    std::unordered_set<const graph::VarNode*> seen;
    for (const Var& var : collector.used_vars_) {
      if (var.get() == self || collector.defined_vars_.count(var.get()) || !seen.insert(var.get()).second) continue;
      captures.vars.push_back(var);
      collector.DefineSymbols(graph::GetStructInfo(var));
    }
    std::unordered_set<const ir::VarNode*> seen_symbols;
    for (const ir::Var& symbol : collector.used_symbols_) {
      if (collector.defined_symbols_.count(symbol.get()) || !seen_symbols.insert(symbol.get()).second) continue;
      captures.symbols.push_back(symbol);
    }
    return captures;
  }

  void VisitVarDef(const Var& var) override {
    defined_vars_.insert(var.get());
    ExprVisitor::VisitVarDef(var);
  }
  void VisitPrimExpr(const PrimExpr& expr) override {
    ir::PostOrderVisit(expr, [&](const PrimExpr& sub) {
      if (sub.isa<ir::VarNode>()) used_symbols_.push_back(cast<ir::VarNode>(sub));
    });
  }

 protected:
  using ExprVisitor::VisitExpr_;
  void VisitExpr_(const graph::VarNode*, const Expr& self) override { used_vars_.push_back(cast<graph::VarNode>(self)); }
  void VisitExpr_(const graph::DataflowVarNode*, const Expr& self) override {
    used_vars_.push_back(cast<graph::VarNode>(self));
  }
  void VisitExpr_(const graph::FunctionNode* op, const Expr& self) override {
    for (const Var& param : op->params) DefineSymbols(graph::GetStructInfo(param));
    ExprVisitor::VisitExpr_(op, self);
  }
  void VisitBinding_(const graph::MatchCastNode* binding) override {
    DefineSymbols(binding->struct_info);
    ExprVisitor::VisitBinding_(binding);
  }

 private:
  void DefineSymbols(const graph::StructInfo& sinfo) {
    for (const ir::Var& var : graph::DefinableTIRVarsInStructInfo(sinfo)) defined_symbols_.insert(var.get());
  }

  std::unordered_set<const graph::VarNode*> defined_vars_;
  std::vector<Var> used_vars_;
  std::unordered_set<const ir::VarNode*> defined_symbols_;
  std::vector<ir::Var> used_symbols_;
};

// Gives a lifted function symbolic variables of its own: every symbolic
// variable its parameters define is replaced by a fresh one of the same name
// (a module function may not share them with the function it came from).
class SymbolicVarRenamer : public graph::ExprMutator {
 public:
  // `mod` resolves the calls of module functions in `func` (a recursive one).
  static graph::Function Rename(const graph::Function& func, const ir::IRModule& mod) {
    SymbolicVarRenamer renamer(mod);
    for (const Var& param : func->params) {
      for (const ir::Var& var : graph::DefinableTIRVarsInStructInfo(graph::GetStructInfo(param))) {
        if (!renamer.fresh_.count(var.get())) renamer.fresh_[var.get()] = make<ir::VarNode>(var->name_hint, var->dtype);
      }
    }
    if (renamer.fresh_.empty()) return func;
    auto renamed = cast<graph::FunctionNode>(renamer.VisitExpr(func));
    graph::StructInfo ret = graph::SubstituteStructInfo(func->ret_struct_info, renamer.Map());
    return make<graph::FunctionNode>(renamed->params, renamed->body, ret, func->is_pure, func->attrs,
                                     func->is_private);
  }

  PrimExpr VisitPrimExpr(const PrimExpr& expr) override { return ir::Substitute(expr, Map()); }

 private:
  explicit SymbolicVarRenamer(const ir::IRModule& mod) : ExprMutator(mod) {}

  std::function<PrimExpr(const ir::Var&)> Map() const {
    return [this](const ir::Var& var) -> PrimExpr {
      auto it = fresh_.find(var.get());
      return it == fresh_.end() ? PrimExpr() : PrimExpr(it->second);
    };
  }
  std::unordered_map<const ir::VarNode*, ir::Var> fresh_;
};

// A lifted local function, as its enclosing code refers to it.
struct LiftedFunction {
  graph::GlobalVar global;
  std::vector<Var> captures;       // in the enclosing scope (remapped when used)
  std::vector<ir::Var> symbols;    // passed as R.prim_value(symbol)
  bool IsClosure() const { return !captures.empty() || !symbols.empty(); }
};

// Inside a lifted body: how a recursive reference reaches the function.
struct RecursiveReference {
  graph::GlobalVar global;
  std::vector<Var> capture_params;
};

class LambdaLifter : public graph::ExprMutator {
 public:
  LambdaLifter(const ir::IRModule& mod, std::unordered_set<std::string>* taken_names)
      : ExprMutator(mod), taken_names_(taken_names) {}

  graph::Function LiftIn(const std::string& global_name, const graph::Function& func) {
    global_name_ = global_name;
    return cast<graph::FunctionNode>(VisitExpr(func));
  }

 protected:
  using ExprMutator::VisitExpr_;

  void VisitBinding_(const graph::VarBindingNode* binding) override {
    const auto* local = binding->value.as<graph::FunctionNode>();
    if (local == nullptr) return ExprMutator::VisitBinding_(binding);
    LiftedFunction lifted = Lift(binding->var, graph::Function(local));
    if (!lifted.IsClosure()) {
      direct_[binding->var.get()] = lifted.global;
      return;
    }
    std::vector<Expr> captured;
    for (const Var& capture : lifted.captures) captured.push_back(VisitExpr(capture));
    for (const ir::Var& symbol : lifted.symbols) captured.push_back(make<graph::PrimValueNode>(symbol));
    Expr closure = graph::MakeCall("relax.make_closure", {lifted.global, make<graph::TupleNode>(std::move(captured))});
    ReEmitBinding(binding, closure);
  }

  Expr VisitExpr_(const graph::VarNode* op, const Expr& self) override { return VisitVarUse(op, self); }
  Expr VisitExpr_(const graph::DataflowVarNode* op, const Expr& self) override { return VisitVarUse(op, self); }

  Expr VisitExpr_(const graph::CallNode* op, const Expr& self) override {
    const auto* callee = op->op.as<graph::VarNode>();
    if (callee == nullptr) return ExprMutator::VisitExpr_(op, self);
    bool changed = false;
    std::vector<Expr> args = MutateExprs(op->args, &changed);
    if (auto it = direct_.find(callee); it != direct_.end()) return make<graph::CallNode>(it->second, std::move(args));
    if (auto it = recursive_.find(callee); it != recursive_.end()) {
      for (const Var& param : it->second.capture_params) args.push_back(param);
      return make<graph::CallNode>(it->second.global, std::move(args));
    }
    const auto* finfo = op->op->struct_info.as<graph::FuncStructInfoNode>();
    bool pure = finfo != nullptr && finfo->purity;
    return graph::MakeCall(pure ? "relax.invoke_pure_closure" : "relax.invoke_closure",
                           {VisitExpr(op->op), make<graph::TupleNode>(std::move(args))}, nullptr,
                           {graph::GetStructInfo(self)});
  }

 private:
  Expr VisitVarUse(const graph::VarNode* op, const Expr& self) {
    if (auto it = direct_.find(op); it != direct_.end()) return it->second;
    if (auto it = recursive_.find(op); it != recursive_.end()) {
      if (it->second.capture_params.empty()) return it->second.global;
      std::vector<Expr> captured(it->second.capture_params.begin(), it->second.capture_params.end());
      return graph::MakeCall("relax.make_closure", {it->second.global, make<graph::TupleNode>(std::move(captured))});
    }
    if (self.isa<graph::DataflowVarNode>()) return ExprMutator::VisitExpr_(self.as<graph::DataflowVarNode>(), self);
    return ExprMutator::VisitExpr_(op, self);
  }

  std::string UniqueName(const std::string& base) {
    std::string name = base;
    for (int suffix = 0; taken_names_->count(name); ++suffix) name = base + "_" + std::to_string(suffix);
    taken_names_->insert(name);
    return name;
  }

  LiftedFunction Lift(const Var& var, const graph::Function& local) {
    LiftedFunction lifted;
    Captures captures = CaptureCollector::Collect(local, var.get());
    lifted.captures = captures.vars;
    lifted.symbols = captures.symbols;
    lifted.global = make<graph::GlobalVarNode>(UniqueName(global_name_ + "_" + var->name_hint));
    std::vector<Var> params = local->params;
    std::vector<Var> capture_params;
    for (const Var& capture : lifted.captures) {
      capture_params.push_back(graph::MakeVar(capture->name_hint, graph::GetStructInfo(capture)));
    }
    // A symbolic variable is passed as R.Prim(value=n), which defines n in the lifted function.
    for (const ir::Var& symbol : lifted.symbols) {
      capture_params.push_back(graph::MakeVar(symbol->name_hint, make<graph::PrimStructInfoNode>(symbol->dtype, symbol)));
    }
    params.insert(params.end(), capture_params.begin(), capture_params.end());
    // Provisional: lets a recursive call be deduced while the body is rewritten.
    builder().AddFunction(MakeLifted(local, params, local->body, local->ret_struct_info), lifted.global->name_hint);

    auto saved_remap = var_remap_;
    auto saved_recursive = recursive_;
    for (size_t i = 0; i < lifted.captures.size(); ++i) RemapVar(lifted.captures[i], capture_params[i]);
    recursive_[var.get()] = RecursiveReference{lifted.global, capture_params};
    Expr body = VisitWithNewScope(local->body, params);
    var_remap_ = std::move(saved_remap);
    recursive_ = std::move(saved_recursive);

    graph::StructInfo ret = local->ret_struct_info;
    if (ret.isa<graph::FuncStructInfoNode>()) ret = graph::GetStructInfo(body);
    graph::Function final_function = SymbolicVarRenamer::Rename(MakeLifted(local, params, body, ret), builder().GetContextModule());
    builder().AddFunction(final_function, lifted.global->name_hint);
    return lifted;
  }

  static graph::Function MakeLifted(const graph::Function& local, const std::vector<Var>& params, const Expr& body,
                                    const graph::StructInfo& ret) {
    return make<graph::FunctionNode>(params, body, ret, local->is_pure, local->attrs, /*is_private=*/true);
  }

  std::unordered_set<std::string>* taken_names_;
  std::string global_name_;
  std::unordered_map<const graph::VarNode*, graph::GlobalVar> direct_;
  std::unordered_map<const graph::VarNode*, RecursiveReference> recursive_;
};

ir::IRModule LiftModule(const ir::IRModule& mod) {
  std::unordered_set<std::string> taken_names;
  for (const auto& [name, func] : mod->functions) taken_names.insert(name);
  ir::IRModule current = mod;
  for (const auto& [name, func] : mod->functions) {
    const auto* graph_func = func.as<graph::FunctionNode>();
    if (graph_func == nullptr) continue;
    LambdaLifter lifter(current, &taken_names);
    graph::Function updated = lifter.LiftIn(name, graph::Function(graph_func));
    current = lifter.builder().GetContextModule();
    if (!updated.same_as(func)) current = ir::WithFunction(current, name, updated);
  }
  return current;
}

}  // namespace

Pass LambdaLift() {
  return CreateModulePass([](ir::IRModule mod, const PassContext&) { return LiftModule(mod); },
                          PassInfo{kPassName,
                                   "Lifts local functions to private module functions; captured variables "
                                   "become extra parameters, passed through R.make_closure",
                                   0, {}});
}

}  // namespace rlx::transform
