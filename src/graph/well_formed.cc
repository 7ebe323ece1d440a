// Well-formedness of graph functions, and the module-level entry points
// (graph/well_formed.h lists the rules; PrimFuncs are checked in
// well_formed_tir.cc).
//
// GraphChecker is an ExprVisitor that carries the scopes of one function:
//   vars_          graph Vars visible here (parameters, earlier bindings of
//                  enclosing SeqExprs); If branches and nested functions
//                  mark and restore it;
//   dataflow_vars_ DataflowVars of the current dataflow block, cleared at
//                  its end;
//   sym_vars_      symbolic variables defined so far (parameter annotations,
//                  match_casts); a nested function starts with its enclosing function's;
//   defined_once_  every Var bound in the current top-level function, for
//                  the "defined once" rule.
// Definitions of symbolic variables come from DefinableTIRVarsInStructInfo
// (graph/struct_info_analysis.h), the same rule the BlockBuilder uses; uses
// reach VisitPrimExpr through ExprVisitor's struct info walk.
#include "rlx/graph/well_formed.h"

#include <fmt/format.h>

#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "rlx/graph/expr_functor.h"
#include "rlx/graph/op_registry.h"
#include "rlx/graph/struct_info_analysis.h"
#include "rlx/tir/analysis.h"
#include "well_formed_internal.h"

namespace rlx::graph {
namespace well_formed {
namespace {

constexpr const char* kForcePure = "relax.force_pure";

bool IsLeaf(const Expr& expr) {
  switch (expr->kind()) {
    case NodeKind::kGraphVar:
    case NodeKind::kGraphDataflowVar:
    case NodeKind::kGraphConstant:
    case NodeKind::kGraphShapeExpr:
    case NodeKind::kGraphPrimValue:
    case NodeKind::kGraphStringImm:
    case NodeKind::kGraphDataTypeImm:
    case NodeKind::kGraphGlobalVar:
    case NodeKind::kGraphExternFunc:
    case NodeKind::kGraphOp:
      return true;
    default:
      return false;
  }
}

bool IsLeafOrTuple(const Expr& expr) {
  if (!expr.defined()) return true;  // reported as missing when visited
  if (const auto* tuple = expr.as<TupleNode>()) {
    for (const Expr& field : tuple->fields) {
      if (!IsLeafOrTuple(field)) return false;
    }
    return true;
  }
  return IsLeaf(expr);
}

// "Call", "If", ... (the kind name without the "relax." prefix).
std::string KindName(const Expr& expr) {
  std::string name = NodeKindName(expr->kind());
  return name.rfind("relax.", 0) == 0 ? name.substr(6) : name;
}

// How a callee is named in messages: R.add, 'f', extern 'sym', 'closure_var'.
std::string DescribeCallee(const Expr& callee) {
  if (const auto* op = callee.as<OpNode>()) {
    const OpInfo* info = FindOp(op->name);
    if (info != nullptr && !info->script_name.empty()) return info->script_name;
    // An operator not registered (yet): spell it as TVMScript does.
    constexpr std::string_view kRelaxPrefix = "relax.";
    if (op->name.starts_with(kRelaxPrefix)) return "R." + op->name.substr(kRelaxPrefix.size());
    return op->name;
  }
  if (const auto* gv = callee.as<GlobalVarNode>()) return fmt::format("'{}'", gv->name_hint);
  if (const auto* extern_func = callee.as<ExternFuncNode>()) return fmt::format("extern '{}'", extern_func->global_symbol);
  if (const auto* var = callee.as<VarNode>()) return fmt::format("'{}'", var->name_hint);
  return KindName(callee);
}

bool IsForcePure(const FunctionNode* func) {
  if (!func->attrs.defined()) return false;
  ObjectRef value = func->attrs->Get(kForcePure);
  auto flag = ir::AsConstInt(dyn_cast<ir::PrimExprNode>(value));
  return flag.has_value() && *flag != 0;
}

class GraphChecker : public ExprVisitor {
 public:
  GraphChecker(const ir::IRModule& mod, DiagnosticSink& sink) : sink_(sink) {
    for (const auto& [name, func] : mod->functions) functions_.emplace(name, func);
  }

  void CheckFunction(const std::string& name, const Function& func) {
    func_name_ = name;
    defined_once_.clear();
    reported_.clear();
    VisitExpr(func);
  }

  void VisitExpr(const Expr& expr) override {
    if (!expr.defined()) {
      Report(Span(), "an expression is missing");
      return;
    }
    // Variables are checked at their definition; operators and global
    // functions get their struct info from the registry and the module.
    if (!expr->struct_info.defined() && !expr.isa<VarNode>() && !expr.isa<OpNode>() && !expr.isa<GlobalVarNode>()) {
      Report(expr->span, fmt::format("{} has no struct info", Describe(expr)));
    }
    ExprVisitor::VisitExpr(expr);
  }

  void VisitStructInfo(const StructInfo& sinfo) override;

  void VisitPrimExpr(const PrimExpr& expr) override {
    PrimVarUseChecker checker(sym_vars_, [this](const ir::VarNode* var, const PrimExpr& use) {
      if (!reported_.insert(var).second) return;
      Report(use->span, fmt::format("symbolic variable '{}' is used but not defined (define it by a parameter "
                                    "annotation or an earlier match_cast)",
                                    var->name_hint));
    });
    checker.VisitExpr(expr);
  }

 protected:
  void VisitExpr_(const VarNode* op, const Expr& self) override;
  void VisitExpr_(const DataflowVarNode* op, const Expr& self) override;
  void VisitExpr_(const TupleNode* op, const Expr& self) override;
  void VisitExpr_(const TupleGetItemNode* op, const Expr& self) override;
  void VisitExpr_(const CallNode* op, const Expr& self) override;
  void VisitExpr_(const IfNode* op, const Expr& self) override;
  void VisitExpr_(const SeqExprNode* op, const Expr& self) override;
  void VisitExpr_(const ShapeExprNode* op, const Expr& self) override;
  void VisitExpr_(const GlobalVarNode* op, const Expr& self) override;
  void VisitExpr_(const FunctionNode* op, const Expr& self) override;

  void VisitBinding_(const VarBindingNode* binding) override;
  void VisitBinding_(const MatchCastNode* binding) override;
  void VisitBindingBlock_(const DataflowBlockNode* block) override;
  void VisitVarDef_(const VarNode* var) override;
  void VisitVarDef_(const DataflowVarNode* var) override;

 private:
  // The state a nested function saves and starts afresh.
  struct FunctionState {
    VarSet sym_vars;
    ScopedSet<VarNode> dataflow_vars;
    bool in_dataflow;
    bool check_purity;
  };

  void Report(const Span& span, const std::string& message) {
    Span where = span.defined() ? span : binding_span_.defined() ? binding_span_ : func_span_;
    sink_.Report(where, fmt::format("function '{}': {}", func_name_, message));
  }

  std::string Describe(const Expr& expr) const {
    if (const auto* var = expr.as<VarNode>()) return fmt::format("{} '{}'", KindName(expr), var->name_hint);
    if (const auto* call = expr.as<CallNode>()) {
      return call->op.defined() ? "call to " + DescribeCallee(call->op) : "a call";
    }
    return KindName(expr);
  }

  void RequireLeaf(const Expr& expr, bool allow_tuple, const std::string& where) {
    if (!expr.defined() || (allow_tuple ? IsLeafOrTuple(expr) : IsLeaf(expr))) return;
    Report(expr->span, fmt::format("{} must be a leaf expression (variable, constant, shape, prim value, string, "
                                   "{}global, extern function or operator) in A-normal form, got {}",
                                   where, allow_tuple ? "tuple of leaves, " : "", Describe(expr)));
  }

  void DefineSymbolicVars(const StructInfo& sinfo) {
    if (!sinfo.defined()) return;
    for (const ir::Var& var : DefinableTIRVarsInStructInfo(sinfo)) sym_vars_.Insert(var.get());
  }

  void CheckStructInfoOf(const Expr& expr) {
    if (expr.defined() && expr->struct_info.defined()) VisitStructInfo(expr->struct_info);
  }

  // Binds `var` in the current scope; reports a second definition.
  void DefineVar(const VarNode* var, ScopedSet<VarNode>& scope) {
    if (!defined_once_.insert(var).second) {
      Report(var->span, fmt::format("{} '{}' is defined more than once", KindName(Var(var)), var->name_hint));
    }
    scope.Insert(var);
    if (!var->struct_info.defined()) {
      Report(var->span, fmt::format("{} '{}' has no struct info", KindName(Var(var)), var->name_hint));
    } else {
      VisitStructInfo(var->struct_info);
    }
  }

  void VisitParams(const FunctionNode* func);
  void VisitFunctionBody(const FunctionNode* func);
  void VisitSeqExpr(const SeqExprNode* seq);
  // An If branch or function body: a SeqExpr, visited in its own scope.
  void VisitScopedSeq(const Expr& expr, const std::string& what);
  void CheckPurity(const CallNode* call);
  // The description of `call`'s callee when it is impure, else "".
  std::string ImpureCallee(const CallNode* call) const;

  DiagnosticSink& sink_;
  std::unordered_map<std::string, ObjectRef> functions_;
  std::string func_name_;
  Span func_span_;
  Span binding_span_;

  VarSet sym_vars_;
  ScopedSet<VarNode> vars_;
  ScopedSet<VarNode> dataflow_vars_;
  std::unordered_set<const VarNode*> defined_once_;
  std::unordered_set<const VarNode*> recursive_vars_;
  std::unordered_map<const VarNode*, std::string> param_owner_;
  std::unordered_set<const Node*> reported_;
  bool in_dataflow_ = false;
  bool check_purity_ = false;
};

// ---------------------------------------------------------------- uses

void GraphChecker::VisitExpr_(const VarNode* op, const Expr&) {
  if (vars_.Contains(op) || recursive_vars_.count(op) > 0) return;
  if (!reported_.insert(op).second) return;
  Report(op->span, fmt::format("Var '{}' is used before its definition", op->name_hint));
}

void GraphChecker::VisitExpr_(const DataflowVarNode* op, const Expr&) {
  if (in_dataflow_ && dataflow_vars_.Contains(op)) return;
  if (!reported_.insert(op).second) return;
  if (defined_once_.count(op) > 0) {
    Report(op->span, fmt::format("DataflowVar '{}' used outside its dataflow block", op->name_hint));
  } else {
    Report(op->span, fmt::format("DataflowVar '{}' is used before its definition", op->name_hint));
  }
}

void GraphChecker::VisitExpr_(const GlobalVarNode* op, const Expr&) {
  if (functions_.count(op->name_hint) > 0) return;
  Report(op->span, fmt::format("GlobalVar '{}' does not name a function of the module", op->name_hint));
}

void GraphChecker::VisitStructInfo(const StructInfo& sinfo) {
  const auto* func = sinfo.as<FuncStructInfoNode>();
  if (func == nullptr) {
    ExprVisitor::VisitStructInfo(sinfo);
    return;
  }
  // A Callable's parameters define its own symbolic variables.
  size_t mark = sym_vars_.Mark();
  if (func->params) {
    for (const StructInfo& param : *func->params) DefineSymbolicVars(param);
    for (const StructInfo& param : *func->params) VisitStructInfo(param);
  }
  if (func->ret.defined()) VisitStructInfo(func->ret);
  sym_vars_.Restore(mark);
}

// ---------------------------------------------------------------- leaves and A-normal form

void GraphChecker::VisitExpr_(const TupleNode* op, const Expr& self) {
  for (size_t i = 0; i < op->fields.size(); ++i) {
    RequireLeaf(op->fields[i], /*allow_tuple=*/true, fmt::format("tuple field {}", i));
    VisitExpr(op->fields[i]);
  }
  CheckStructInfoOf(self);
}

void GraphChecker::VisitExpr_(const TupleGetItemNode* op, const Expr& self) {
  RequireLeaf(op->tuple, /*allow_tuple=*/true, "the tuple of a TupleGetItem");
  VisitExpr(op->tuple);
  CheckStructInfoOf(self);
}

void GraphChecker::VisitExpr_(const ShapeExprNode* op, const Expr&) {
  for (const PrimExpr& value : op->values) {
    if (!value.defined()) {
      Report(op->span, "a shape dimension is missing");
      continue;
    }
    if (!value->dtype.is_integer()) {
      Report(op->span, fmt::format("shape dimension '{}' has type {}; expected an integer", ir::ToString(value),
                                   value->dtype.ToString()));
    }
    VisitPrimExpr(value);
  }
}

void GraphChecker::VisitExpr_(const CallNode* op, const Expr& self) {
  std::string callee = op->op.defined() ? DescribeCallee(op->op) : "a call";
  RequireLeaf(op->op, /*allow_tuple=*/false, "the callee of call to " + callee);
  VisitExpr(op->op);
  for (const StructInfo& sinfo : op->sinfo_args) {
    if (sinfo.defined()) VisitStructInfo(sinfo);
  }
  for (size_t i = 0; i < op->args.size(); ++i) {
    RequireLeaf(op->args[i], /*allow_tuple=*/true, fmt::format("argument {} of call to {}", i, callee));
    VisitExpr(op->args[i]);
  }
  CheckStructInfoOf(self);
  CheckPurity(op);
}

// ---------------------------------------------------------------- purity

std::string GraphChecker::ImpureCallee(const CallNode* call) const {
  const Expr& callee = call->op;
  if (!callee.defined()) return "";
  if (const auto* op = callee.as<OpNode>()) {
    const OpInfo* info = FindOp(op->name);
    bool pure = info != nullptr ? info->pure : op->name != "relax.call_packed";
    return pure ? "" : DescribeCallee(callee);
  }
  if (const auto* gv = callee.as<GlobalVarNode>()) {
    auto it = functions_.find(gv->name_hint);
    if (it != functions_.end()) {
      if (const auto* func = it->second.as<FunctionNode>()) return func->is_pure ? "" : DescribeCallee(callee);
      // A PrimFunc that writes its arguments (or updates other state) is
      // impure; call_tir calls it purely on fresh outputs.
      if (const auto* prim_func = it->second.as<tir::PrimFuncNode>()) {
        return tir::IsPureFunction(tir::PrimFunc(prim_func)) ? "" : "PrimFunc " + DescribeCallee(callee);
      }
    }
  }
  if (const auto* finfo = callee->struct_info.as<FuncStructInfoNode>()) {
    return finfo->purity ? "" : DescribeCallee(callee);
  }
  return "";
}

void GraphChecker::CheckPurity(const CallNode* call) {
  if (!in_dataflow_ && !check_purity_) return;
  std::string impure = ImpureCallee(call);
  if (impure.empty()) return;
  if (in_dataflow_) {
    Report(call->span, fmt::format("impure call to {} inside a dataflow block", impure));
  } else {
    Report(call->span, fmt::format("the function is pure but calls impure {}; mark it impure or set the "
                                   "attribute \"{}\"",
                                   impure, kForcePure));
  }
}

// ---------------------------------------------------------------- scopes

void GraphChecker::VisitExpr_(const IfNode* op, const Expr& self) {
  if (in_dataflow_) Report(op->span, "an If is not allowed inside a dataflow block");
  RequireLeaf(op->cond, /*allow_tuple=*/false, "the condition of an If");
  VisitExpr(op->cond);
  VisitScopedSeq(op->true_branch, "the true branch of an If");
  VisitScopedSeq(op->false_branch, "the false branch of an If");
  CheckStructInfoOf(self);
}

void GraphChecker::VisitExpr_(const SeqExprNode* op, const Expr&) {
  Report(op->span, "a SeqExpr may only be a function body or an If branch");
  size_t mark = vars_.Mark();
  VisitSeqExpr(op);
  vars_.Restore(mark);
}

void GraphChecker::VisitScopedSeq(const Expr& expr, const std::string& what) {
  if (!expr.defined()) {
    Report(Span(), what + " is missing");
    return;
  }
  const auto* seq = expr.as<SeqExprNode>();
  if (seq == nullptr) {
    Report(expr->span, fmt::format("{} must be a SeqExpr, got {}", what, Describe(expr)));
    VisitExpr(expr);
    return;
  }
  size_t var_mark = vars_.Mark();
  size_t sym_mark = sym_vars_.Mark();
  if (!seq->struct_info.defined()) Report(seq->span, fmt::format("{} has no struct info", what));
  VisitSeqExpr(seq);
  sym_vars_.Restore(sym_mark);
  vars_.Restore(var_mark);
}

void GraphChecker::VisitSeqExpr(const SeqExprNode* seq) {
  for (const BindingBlock& block : seq->blocks) VisitBindingBlock(block);
  Span saved = binding_span_;
  binding_span_ = seq->span;
  RequireLeaf(seq->body, /*allow_tuple=*/true, "the body of a SeqExpr");
  VisitExpr(seq->body);
  CheckStructInfoOf(Expr(seq));
  binding_span_ = saved;
}

void GraphChecker::VisitExpr_(const FunctionNode* op, const Expr&) {
  // A local function may use the symbolic variables of the function that
  // encloses it (lambda-lift passes them on as R.Prim parameters).
  FunctionState saved{sym_vars_, std::move(dataflow_vars_), in_dataflow_, check_purity_};
  dataflow_vars_ = ScopedSet<VarNode>();
  in_dataflow_ = false;
  Span saved_span = func_span_;
  if (op->span.defined()) func_span_ = op->span;
  size_t var_mark = vars_.Mark();

  VisitParams(op);
  VisitFunctionBody(op);

  vars_.Restore(var_mark);
  func_span_ = saved_span;
  sym_vars_ = std::move(saved.sym_vars);
  dataflow_vars_ = std::move(saved.dataflow_vars);
  in_dataflow_ = saved.in_dataflow;
  check_purity_ = saved.check_purity;
}

void GraphChecker::VisitParams(const FunctionNode* func) {
  for (const Var& param : func->params) DefineSymbolicVars(param->struct_info);
  for (const Var& param : func->params) {
    if (param.isa<DataflowVarNode>()) {
      Report(param->span, fmt::format("DataflowVar '{}' cannot be a function parameter", param->name_hint));
      reported_.insert(param.get());  // its uses would only repeat the problem
    }
    auto [owner, inserted] = param_owner_.emplace(param.get(), func_name_);
    if (!inserted && owner->second != func_name_) {
      Report(param->span, fmt::format("Var '{}' is a parameter of both function '{}' and function '{}'",
                                      param->name_hint, owner->second, func_name_));
    }
    DefineVar(param.get(), vars_);
  }
}

void GraphChecker::VisitFunctionBody(const FunctionNode* func) {
  if (!func->ret_struct_info.defined()) {
    Report(func->span, "the function has no return struct info");
  } else {
    VisitStructInfo(func->ret_struct_info);
  }
  bool force_pure = IsForcePure(func);
  if (force_pure && !func->is_pure) {
    Report(func->span, fmt::format("attribute \"{}\" is set but the function is not marked pure", kForcePure));
  }
  check_purity_ = func->is_pure && !force_pure;
  VisitScopedSeq(func->body, "the body of the function");
}

// ---------------------------------------------------------------- bindings

void GraphChecker::VisitBinding_(const VarBindingNode* binding) {
  Span saved = binding_span_;
  binding_span_ = binding->span;
  bool is_local_function = binding->value.defined() && binding->value.isa<FunctionNode>();
  if (is_local_function) recursive_vars_.insert(binding->var.get());
  VisitExpr(binding->value);
  if (is_local_function) recursive_vars_.erase(binding->var.get());
  VisitVarDef(binding->var);
  binding_span_ = saved;
}

void GraphChecker::VisitBinding_(const MatchCastNode* binding) {
  Span saved = binding_span_;
  binding_span_ = binding->span;
  VisitExpr(binding->value);
  if (!binding->struct_info.defined()) {
    Report(binding->span, "a match_cast has no struct info pattern");
  } else {
    DefineSymbolicVars(binding->struct_info);
    VisitStructInfo(binding->struct_info);
  }
  VisitVarDef(binding->var);
  binding_span_ = saved;
}

void GraphChecker::VisitBindingBlock_(const DataflowBlockNode* block) {
  bool saved = in_dataflow_;
  in_dataflow_ = true;
  for (const Binding& binding : block->bindings) VisitBinding(binding);
  in_dataflow_ = saved;
  dataflow_vars_ = ScopedSet<VarNode>();
}

void GraphChecker::VisitVarDef_(const VarNode* var) { DefineVar(var, vars_); }

void GraphChecker::VisitVarDef_(const DataflowVarNode* var) {
  if (!in_dataflow_) {
    Report(var->span, fmt::format("DataflowVar '{}' is defined outside a dataflow block", var->name_hint));
  }
  DefineVar(var, dataflow_vars_);
}

void CheckModuleEntries(const ir::IRModule& mod, DiagnosticSink& sink) {
  std::unordered_set<std::string> names;
  for (const auto& [name, func] : mod->functions) {
    if (!names.insert(name).second) {
      sink.Report(mod->span, fmt::format("the module holds two functions named '{}'", name));
    }
    // An ExternFunc entry (`name = R.ExternFunc("symbol")` in a module class)
    // is a function defined outside the module, as in TVM.
    if (!func.defined() ||
        (!func.isa<FunctionNode>() && !func.isa<tir::PrimFuncNode>() && !func.isa<ExternFuncNode>())) {
      sink.Report(mod->span, fmt::format("module entry '{}' is neither a graph function, a PrimFunc nor an "
                                         "extern function", name));
    }
  }
}

void CheckModule(const ir::IRModule& mod, DiagnosticSink& sink) {
  RLX_ICHECK(mod.defined()) << "checking an undefined module";
  CheckModuleEntries(mod, sink);
  GraphChecker graph_checker(mod, sink);
  for (const auto& [name, func] : mod->functions) {
    if (const auto* graph_func = func.as<FunctionNode>()) {
      graph_checker.CheckFunction(name, Function(graph_func));
    } else if (const auto* prim_func = func.as<tir::PrimFuncNode>()) {
      CheckPrimFunc(name, tir::PrimFunc(prim_func), sink);
    }
  }
}

}  // namespace
}  // namespace well_formed

void CheckWellFormed(const ir::IRModule& mod) {
  well_formed::DiagnosticSink sink(/*stop_at_first=*/true);
  well_formed::CheckModule(mod, sink);
}

std::vector<Diagnostic> WellFormedDiagnostics(const ir::IRModule& mod) {
  well_formed::DiagnosticSink sink(/*stop_at_first=*/false);
  well_formed::CheckModule(mod, sink);
  return sink.Take();
}

}  // namespace rlx::graph
