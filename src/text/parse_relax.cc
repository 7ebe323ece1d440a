// Graph-level (Relax) functions and statements (see relax_parser.h).
//
// Follows TVM's Relax script parser (python/tvm/script/parser/relax):
// - Signature: parameters need struct info annotations; a string dimension
//   "n" (or a bare undefined name) defines symbolic variable n at its first
//   appearance, a compound string "n * 2" must use defined ones. The return
//   annotation may only use parameter-defined variables; when it is absent
//   the return struct info is deduced from the body. A public function gets
//   the attribute global_symbol = its name (TVM does; the printer hides it).
// - `n = T.int64()` in the body declares a symbolic variable, or re-states
//   one the signature defined (the same variable is used).
// - `x = expr` / `x: S = expr` emit a binding (a rebinding shadows the old
//   variable); `x = R.match_cast(v, S)` a MatchCast; `a, b = t` unpacks a
//   tuple; an expression statement (`R.print(x)`) is bound to `_`.
// - `with R.dataflow():` bindings are DataflowVars except those named in the
//   closing `R.output(...)` (their last binding is emitted as a Var, which is
//   what TVM's rewrite of the block produces); only the outputs stay visible
//   after the block.
// - `if c: ... x = a else: ... x = b` binds x to a relax If: each branch is a
//   SeqExpr whose body is the value last assigned to x.
// - A nested `@R.function def f(...)` is a closure bound to f. With a
//   return annotation its body may call f itself (a recursive local
//   function, as in TVM): f is then bound, while the body is parsed, to a
//   variable annotated with the signature's R.Callable struct info.
#include <fmt/format.h>

#include "rlx/graph/expr_functor.h"
#include "rlx/graph/struct_info_analysis.h"
#include "rlx/op/op.h"
#include "text/relax_parser.h"

namespace rlx::text::detail {

using graph::Expr;
using graph::StructInfo;

namespace {

bool IsLeaf(const Expr& expr) {
  switch (expr->kind()) {
    case NodeKind::kGraphVar:
    case NodeKind::kGraphDataflowVar:
    case NodeKind::kGraphConstant:
    case NodeKind::kGraphShapeExpr:
    case NodeKind::kGraphPrimValue:
    case NodeKind::kGraphStringImm:
    case NodeKind::kGraphDataTypeImm:
    case NodeKind::kGraphExternFunc:
    case NodeKind::kGraphGlobalVar:
    case NodeKind::kGraphOp:
      return true;
    case NodeKind::kGraphTuple:
      for (const Expr& field : expr.as<graph::TupleNode>()->fields) {
        if (!IsLeaf(field)) return false;
      }
      return true;
    default:
      return false;
  }
}

graph::Var NewVar(const std::string& name, StructInfo sinfo, bool dataflow, const Span& span) {
  graph::VarNode* node = dataflow ? new graph::DataflowVarNode(name, std::move(sinfo))
                                  : new graph::VarNode(name, std::move(sinfo));
  node->span = span;
  return graph::Var(node);
}

bool UsesVar(const Expr& expr, const graph::Var& var) {
  bool used = false;
  graph::PostOrderVisit(expr, [&](const Expr& sub) { used |= sub.same_as(var); });
  return used;
}

// The names a statement assigns at its top level (for R.output).
std::vector<std::string> AssignedNames(const py::Stmt& stmt) {
  std::vector<std::string> names;
  auto add_target = [&](const py::Expr& target) {
    if (const auto* name = target.As<py::Name>()) names.push_back(name->id);
    if (const auto* tuple = target.As<py::Tuple>()) {
      for (const py::ExprPtr& elt : tuple->elts) {
        if (const auto* name = elt->As<py::Name>()) names.push_back(name->id);
      }
    }
  };
  if (const auto* assign = stmt.As<py::Assign>()) add_target(*assign->target);
  if (const auto* assign = stmt.As<py::AnnAssign>()) add_target(*assign->target);
  if (const auto* def = stmt.As<py::FunctionDef>()) names.push_back(def->name);
  return names;
}

bool IsOutputCall(const py::Stmt& stmt) {
  const auto* expr = stmt.As<py::ExprStmt>();
  return expr != nullptr && IsCallTo(*expr->value, "R.output");
}

}  // namespace

RelaxParser::RelaxParser(const ModuleContext& mod, const py::FunctionDef& def)
    : mod_(mod),
      def_(def),
      prim_(scopes_, PrimExprParser::Options{DataType::Int64(), nullptr, "symbolic variable"}) {}

RelaxParser::~RelaxParser() = default;

// ---------------------------------------------------------------------------
// Functions.

RelaxParser::Signature RelaxParser::ParseSignature(const py::FunctionDef& def) {
  Signature sig;
  std::unordered_set<std::string> seen;
  // A parameter may use a symbolic variable that a later parameter defines
  // (`x: R.Tensor(("m + 1",)), y: R.Tensor(("m",))`): every bare dimension
  // of every parameter is defined first, in order.
  for (const py::Param& param : def.params) {
    if (param.annotation != nullptr) PredefineBareDims(*param.annotation);
  }
  for (const py::Param& param : def.params) {
    if (param.kind != py::ParamKind::kRegular) Fail(param.span, "only plain parameters are supported");
    if (!seen.insert(param.name).second) Fail(param.name_span, fmt::format("duplicate parameter '{}'", param.name));
    if (param.annotation == nullptr) {
      Fail(param.span, fmt::format("parameter '{}' needs a struct info annotation such as R.Tensor((n, 4), "
                                   "\"float32\")", param.name));
    }
    StructInfo sinfo = EvalSInfo(*param.annotation, DimMode::kParam);
    graph::Var var = NewVar(param.name, sinfo, false, param.name_span);
    sig.params.push_back(var);
    scopes_.DefineRelaxVar(param.name, var);
  }
  if (def.returns) sig.ret = EvalSInfo(*def.returns, DimMode::kRet);
  return sig;
}

graph::Function RelaxParser::Declare() {
  Signature sig = ParseSignature(def_);
  StructInfo ret = sig.ret.defined() ? sig.ret : graph::ObjectSInfo();
  return make<graph::FunctionNode>(sig.params, nullptr, ret, DecoratorFlag(def_, "pure", true), nullptr,
                                   DecoratorFlag(def_, "private", false));
}

graph::Function RelaxParser::Parse() {
  bb_ = std::make_unique<graph::BlockBuilder>(mod_.context_module);
  graph::Function func = ParseFunction(def_, /*nested=*/false);
  return cast<graph::FunctionNode>(WithSpan(def_.span, [&] { return bb_->Normalize(func); }));
}

graph::Function RelaxParser::ParseFunction(const py::FunctionDef& def, bool nested) {
  // Save the enclosing function's state (for closures).
  std::vector<graph::BindingBlock>* saved_blocks = blocks_;
  ir::Dict saved_attrs = attrs_;
  bool saved_dataflow = in_dataflow_;
  bool saved_open = function_scope_open_;
  auto saved_outputs = std::move(output_bindings_);
  output_bindings_.clear();
  attrs_ = nullptr;
  in_dataflow_ = false;

  scopes_.Push();
  Signature sig = ParseSignature(def);
  std::vector<graph::BindingBlock> blocks;
  blocks_ = &blocks;
  bb_->BeginScope(sig.params);
  bb_->BeginBindingBlock();
  function_scope_open_ = true;
  Expr result = ParseBody(def);
  bb_->EndScope();
  scopes_.Pop();

  ir::Dict attrs = attrs_;
  bool is_private = nested || DecoratorFlag(def, "private", false);
  if (!is_private && !(attrs.defined() && attrs->Contains("global_symbol"))) {
    attrs = ir::DictWith(attrs, "global_symbol", ir::MakeString(def.name));
  }
  blocks_ = saved_blocks;
  attrs_ = saved_attrs;
  in_dataflow_ = saved_dataflow;
  function_scope_open_ = saved_open;
  output_bindings_ = std::move(saved_outputs);

  auto* seq = new graph::SeqExprNode(std::move(blocks), result);
  seq->span = def.span;
  auto* func = new graph::FunctionNode(sig.params, Expr(seq), sig.ret, DecoratorFlag(def, "pure", true), attrs,
                                       is_private);
  func->span = def.span;
  return graph::Function(func);
}

void RelaxParser::EndCurrentBlock() {
  graph::BindingBlock block = bb_->EndBlock();
  if (!block->bindings.empty()) blocks_->push_back(block);
}

Expr RelaxParser::ParseBody(const py::FunctionDef& def) {
  const py::StmtList& body = def.body;
  for (size_t i = 0; i < body.size(); ++i) {
    const py::Stmt& stmt = *body[i];
    const auto* ret = stmt.As<py::Return>();
    if (ret == nullptr) {
      current_stmt_ = &stmt;
      WithSpan(stmt.span, [&] { ParseStmt(stmt); });
      continue;
    }
    if (i + 1 != body.size()) Fail(body[i + 1]->span, "unreachable statement after return");
    if (!ret->value) Fail(stmt.span, "a function must return a value");
    Expr value = WithSpan(stmt.span, [&] { return EvalExpr(*ret->value); });
    EndCurrentBlock();
    return value;
  }
  Fail(def.span, fmt::format("function '{}' must end with a return statement", def.name));
}

// ---------------------------------------------------------------------------
// Statements.

void RelaxParser::ParseStmt(const py::Stmt& stmt) {
  switch (stmt.kind) {
    case py::NodeKind::kAssign: return ParseAssign(stmt.Cast<py::Assign>());
    case py::NodeKind::kAnnAssign: return ParseAnnAssign(stmt.Cast<py::AnnAssign>());
    case py::NodeKind::kExprStmt: return ParseExprStmt(stmt.Cast<py::ExprStmt>());
    case py::NodeKind::kIf: ParseIf(stmt.Cast<py::If>()); return;
    case py::NodeKind::kFunctionDef: return ParseNestedFunction(stmt.Cast<py::FunctionDef>());
    case py::NodeKind::kPass: return;
    case py::NodeKind::kWith: {
      const auto& with = stmt.Cast<py::With>();
      if (with.items.size() == 1 && IsCallTo(*with.items[0].context_expr, "R.dataflow")) return ParseDataflow(with);
      Fail(with.items[0].context_expr->span, "only `with R.dataflow():` is allowed in a Relax function");
    }
    case py::NodeKind::kReturn:
      if (in_dataflow_) Fail(stmt.span, "return is not allowed inside a dataflow block");
      Fail(stmt.span, "return is only allowed as the last statement of a function body");
    case py::NodeKind::kFor:
    case py::NodeKind::kWhile: Fail(stmt.span, "loops are not allowed in a Relax function (use a PrimFunc)");
    default: Fail(stmt.span, fmt::format("unsupported statement in a Relax function: {}", py::NodeKindName(stmt.kind)));
  }
}

bool RelaxParser::IsOutputTarget(const std::string& name) const {
  auto it = output_bindings_.find(current_stmt_);
  return in_dataflow_ && it != output_bindings_.end() && it->second.count(name) > 0;
}

graph::Var RelaxParser::EmitBinding(const std::string& name, const Expr& value, const StructInfo& annotation,
                                    const Span& span) {
  bool output = IsOutputTarget(name);
  graph::Var var;
  if (annotation.defined()) {
    var = NewVar(name, annotation, in_dataflow_ && !output, span);
    bb_->EmitWithVar(var, value, span);
  } else if (output) {
    var = bb_->EmitOutput(value, name, span);
  } else {
    var = bb_->Emit(value, name, span);
  }
  scopes_.DefineRelaxVar(name, var);
  return var;
}

graph::Var RelaxParser::EmitMatchCast(const std::string& name, const py::Call& call, const Span& span) {
  CallArgs args(call, "R.match_cast", {"value", "struct_info"}, 2);
  Expr value = bb_->Normalize(EvalExpr(args.Required("value")));
  StructInfo sinfo = EvalSInfo(args.Required("struct_info"), DimMode::kMatchCast);
  StructInfo from = value->struct_info.defined() ? value->struct_info : graph::ObjectSInfo();
  if (graph::StructInfoBaseCheck(sinfo, from, bb_->analyzer()) == graph::BaseCheckResult::kFailL0) {
    Fail(call.span, fmt::format("match_cast can never succeed: a value of {} cannot match {}", graph::ToString(from),
                                graph::ToString(sinfo)));
  }
  graph::Var var = NewVar(name, sinfo, in_dataflow_ && !IsOutputTarget(name), span);
  auto* binding = new graph::MatchCastNode(var, value, sinfo);
  binding->span = span;
  bb_->EmitNormalized(graph::Binding(binding));
  scopes_.DefineRelaxVar(name, var);
  return var;
}

bool RelaxParser::DeclareSymbolicVar(const py::Name& target, const py::Expr& value) {
  const auto* call = value.As<py::Call>();
  if (call == nullptr || !call->args.empty() || !call->keywords.empty()) return false;
  std::string callee = CalleeName(*call);
  if (callee.rfind("T.", 0) != 0) return false;
  std::optional<DataType> dtype = DataType::Parse(callee.substr(2));
  if (!dtype) return false;
  if (const Symbol* existing = scopes_.Lookup(target.id); existing && existing->kind == SymbolKind::kPrimVar) {
    if (existing->prim_var->dtype != *dtype) {
      Fail(value.span, fmt::format("symbolic variable '{}' is already defined as {}", target.id,
                                   existing->prim_var->dtype.ToString()));
    }
    return true;  // re-stating a variable the signature (or an earlier line) defined
  }
  ir::Var var = ir::MakeVar(target.id, *dtype);
  const_cast<ir::VarNode*>(var.get())->span = target.span;
  scopes_.DefinePrimVar(target.id, var);
  return true;
}

void RelaxParser::ParseAssign(const py::Assign& assign) {
  if (const auto* tuple = assign.target->As<py::Tuple>()) return ParseUnpack(*tuple, *assign.value, assign.span);
  const auto* target = assign.target->As<py::Name>();
  if (target == nullptr) Fail(assign.target->span, "expected a variable name on the left of '='");
  if (DeclareSymbolicVar(*target, *assign.value)) return;
  if (std::optional<std::string> name = DottedName(*assign.value);
      name && !mod_.class_name.empty() && *name == mod_.class_name) {
    Symbol symbol;
    symbol.kind = SymbolKind::kModule;
    scopes_.Define(target->id, symbol);  // `cls = Module`
    return;
  }
  if (IsCallTo(*assign.value, "R.match_cast")) {
    EmitMatchCast(target->id, assign.value->Cast<py::Call>(), assign.span);
    return;
  }
  Expr value = EvalExpr(*assign.value);
  EmitBinding(target->id, value, nullptr, assign.span);
}

void RelaxParser::ParseAnnAssign(const py::AnnAssign& assign) {
  const auto* target = assign.target->As<py::Name>();
  if (target == nullptr) Fail(assign.target->span, "expected a variable name on the left of ':'");
  if (!assign.value) Fail(assign.span, fmt::format("'{}' needs a value", target->id));
  if (IsCallTo(*assign.value, "R.match_cast")) {
    graph::Var var = EmitMatchCast(target->id, assign.value->Cast<py::Call>(), assign.span);
    StructInfo annotation = EvalSInfo(*assign.annotation, DimMode::kUse);
    if (graph::StructInfoBaseCheck(annotation, var->struct_info, bb_->analyzer()) == graph::BaseCheckResult::kFailL0) {
      Fail(assign.annotation->span, fmt::format("the annotation {} contradicts the match_cast to {}",
                                                graph::ToString(annotation), graph::ToString(var->struct_info)));
    }
    return;
  }
  Expr value = EvalExpr(*assign.value);
  StructInfo annotation = EvalSInfo(*assign.annotation, DimMode::kUse);
  EmitBinding(target->id, value, annotation, assign.span);
}

// `a, b = x, y` (also `m, n = T.int64(), T.int64()`): the values are read
// first, then bound, as in Python.
void RelaxParser::ParseUnpackLiteral(const std::vector<const py::Name*>& names,
                                     const std::vector<py::ExprPtr>& elts, const Span& span) {
  if (elts.size() != names.size()) {
    Fail(span, fmt::format("cannot unpack {} values into {} names", elts.size(), names.size()));
  }
  std::vector<Expr> values;
  values.reserve(names.size());
  for (size_t k = 0; k < names.size(); ++k) {
    values.push_back(DeclareSymbolicVar(*names[k], *elts[k]) ? Expr() : EvalExpr(*elts[k]));
  }
  for (size_t k = 0; k < names.size(); ++k) {
    if (values[k].defined()) EmitBinding(names[k]->id, values[k], nullptr, span);
  }
}

void RelaxParser::ParseUnpack(const py::Tuple& targets, const py::Expr& value_expr, const Span& span) {
  std::vector<const py::Name*> names;
  for (const py::ExprPtr& elt : targets.elts) {
    const auto* name = elt->As<py::Name>();
    if (name == nullptr) Fail(elt->span, "expected a variable name in the unpacking target");
    names.push_back(name);
  }
  if (const std::vector<py::ExprPtr>* elts = AsSequence(value_expr)) {
    ParseUnpackLiteral(names, *elts, span);
    return;
  }
  Expr value = EvalExpr(value_expr);
  Expr source = value.isa<graph::VarNode>() ? value : Expr(bb_->Emit(value, "", span));
  const auto* sinfo = source->struct_info.as<graph::TupleStructInfoNode>();
  if (sinfo == nullptr || sinfo->fields.size() != names.size()) {
    Fail(value_expr.span, fmt::format("cannot unpack a value of {} into {} names",
                                      graph::ToString(source->struct_info), names.size()));
  }
  for (size_t k = 0; k < names.size(); ++k) {
    auto* item = new graph::TupleGetItemNode(source, static_cast<int>(k));
    item->span = names[k]->span;
    EmitBinding(names[k]->id, Expr(item), nullptr, span);
  }
}

void RelaxParser::ParseExprStmt(const py::ExprStmt& stmt) {
  const py::Expr& value = *stmt.value;
  if (AsStringLiteral(value)) return;  // a docstring
  if (IsCallTo(value, "R.output")) {
    Fail(value.span, "R.output(...) is only allowed at the end of a dataflow block (with R.dataflow():)");
  }
  if (IsCallTo(value, "R.func_attr")) {
    CallArgs args(value.Cast<py::Call>(), "R.func_attr", {"attrs"}, 1);
    ir::Dict dict = EvalAttrDict(args.Required("attrs"), AttrLevel::kRelax, &prim_);
    for (const auto& [key, item] : dict->items) attrs_ = ir::DictWith(attrs_, key, item);
    return;
  }
  EmitBinding("_", EvalExpr(value), nullptr, stmt.span);
}

void RelaxParser::ParseNestedFunction(const py::FunctionDef& def) {
  bool relax = false;
  for (const py::ExprPtr& decorator : def.decorators) {
    const py::Expr& callee = decorator->Is<py::Call>() ? *decorator->Cast<py::Call>().func : *decorator;
    relax |= DottedName(callee) == std::optional<std::string>("R.function");
  }
  if (!relax) Fail(def.name_span, "a function nested in a Relax function must be decorated with @R.function");
  // A recursive function calls itself by name, so with a return annotation
  // its name is bound to `self` (annotated with the signature) around its
  // body; the binding uses `self` only when the body does.
  graph::Var self = DeclareRecursiveFunction(def);
  scopes_.Push();
  if (self.defined()) scopes_.DefineRelaxVar(def.name, self);
  graph::Function func = ParseFunction(def, /*nested=*/true);
  scopes_.Pop();
  if (!self.defined() || !UsesVar(func, self)) {
    EmitBinding(def.name, func, nullptr, def.span);
    return;
  }
  bb_->EmitWithVar(self, func, def.span);
  scopes_.DefineRelaxVar(def.name, self);
}

graph::Var RelaxParser::DeclareRecursiveFunction(const py::FunctionDef& def) {
  if (!def.returns) return graph::Var();
  scopes_.Push();
  Signature sig = ParseSignature(def);
  scopes_.Pop();
  std::vector<StructInfo> params;
  for (const graph::Var& param : sig.params) params.push_back(graph::GetStructInfo(param));
  StructInfo sinfo = make<graph::FuncStructInfoNode>(std::move(params), sig.ret, DecoratorFlag(def, "pure", true));
  return NewVar(def.name, sinfo, in_dataflow_ && !IsOutputTarget(def.name), def.name_span);
}

// ---------------------------------------------------------------------------
// Dataflow blocks.

void RelaxParser::CollectOutputs(const py::StmtList& body, size_t output_index) {
  const auto& call = body[output_index]->Cast<py::ExprStmt>().value->Cast<py::Call>();
  if (!call.keywords.empty()) Fail(call.keywords[0].span, "R.output takes only variables");
  for (const py::ExprPtr& arg : call.args) {
    const auto* name = arg->As<py::Name>();
    if (name == nullptr) Fail(arg->span, fmt::format("R.output expects variable names, got {}", Describe(*arg)));
    const py::Stmt* binding = nullptr;
    for (size_t i = 0; i < output_index; ++i) {
      for (const std::string& assigned : AssignedNames(*body[i])) {
        if (assigned == name->id) binding = body[i].get();
      }
    }
    if (binding == nullptr) {
      Fail(arg->span, fmt::format("R.output: '{}' is not bound in this dataflow block", name->id));
    }
    output_bindings_[binding].insert(name->id);
  }
}

void RelaxParser::ParseDataflow(const py::With& with) {
  if (in_dataflow_) Fail(with.span, "dataflow blocks cannot be nested");
  const py::WithItem& item = with.items[0];
  if (item.optional_vars) Fail(item.span, "R.dataflow() does not bind a name");
  const auto& call = item.context_expr->Cast<py::Call>();
  if (!call.args.empty() || !call.keywords.empty()) Fail(call.span, "R.dataflow() takes no arguments");
  std::optional<size_t> output_index;
  for (size_t i = 0; i < with.body.size(); ++i) {
    if (output_index) {
      Fail(with.body[i]->span, "R.output(...) must be the last statement of a dataflow block");
    }
    if (IsOutputCall(*with.body[i])) output_index = i;
  }
  if (output_index) CollectOutputs(with.body, *output_index);

  EndCurrentBlock();
  bb_->BeginDataflowBlock();
  in_dataflow_ = true;
  scopes_.Push();
  for (const py::StmtPtr& stmt : with.body) {
    if (IsOutputCall(*stmt)) continue;
    current_stmt_ = stmt.get();
    WithSpan(stmt->span, [&] { ParseStmt(*stmt); });
  }
  std::vector<std::pair<std::string, Symbol>> visible;
  for (const auto& [name, symbol] : scopes_.Innermost()) {
    bool is_dataflow_var = symbol.kind == SymbolKind::kRelaxVar && symbol.relax_var.isa<graph::DataflowVarNode>();
    if (is_dataflow_var) {
      scopes_.hidden_dataflow_vars.insert(name);
    } else {
      visible.emplace_back(name, symbol);
    }
  }
  scopes_.Pop();
  for (auto& [name, symbol] : visible) scopes_.Define(name, symbol);
  in_dataflow_ = false;
  EndCurrentBlock();
  bb_->BeginBindingBlock();
}

// ---------------------------------------------------------------------------
// If.

RelaxParser::Branch RelaxParser::ParseBranch(const py::StmtList& stmts, const Span& span) {
  if (stmts.empty()) Fail(span, "an if branch cannot be empty");
  scopes_.Push();
  bb_->BeginScope({});
  std::vector<graph::BindingBlock> blocks;
  std::vector<graph::BindingBlock>* saved_blocks = blocks_;
  blocks_ = &blocks;
  bb_->BeginBindingBlock();
  for (size_t i = 0; i + 1 < stmts.size(); ++i) {
    current_stmt_ = stmts[i].get();
    WithSpan(stmts[i]->span, [&] { ParseStmt(*stmts[i]); });
  }
  const py::Stmt& last = *stmts.back();
  Branch branch;
  WithSpan(last.span, [&] {
    const py::Expr* target = nullptr;
    const py::Expr* value = nullptr;
    if (const auto* assign = last.As<py::Assign>()) {
      target = assign->target.get();
      value = assign->value.get();
    } else if (const auto* ann = last.As<py::AnnAssign>()) {
      target = ann->target.get();
      value = ann->value.get();
      if (value) branch.annotation = EvalSInfo(*ann->annotation, DimMode::kUse);
    }
    if (const auto* nested = last.As<py::If>()) {  // `elif`: the inner if's variable is the result
      current_stmt_ = &last;
      graph::Var var = ParseIf(*nested);
      graph::BindingBlock block = bb_->EndBlock();
      if (!block->bindings.empty()) blocks.push_back(block);
      branch.var_name = var->name_hint;
      auto* seq = new graph::SeqExprNode(std::move(blocks), var);
      seq->span = span;
      branch.seq = Expr(seq);
      return;
    }
    const auto* name = target ? target->As<py::Name>() : nullptr;
    // A branch may end with a call used as a statement (`R.print(...)`):
    // the if then binds its result to `_`, as TVM does.
    const auto* expr_stmt = last.As<py::ExprStmt>();
    bool void_call = expr_stmt != nullptr && expr_stmt->value->Is<py::Call>();
    if (void_call) value = expr_stmt->value.get();
    const std::string var_name = void_call ? std::string(1, '_') : name ? name->id : std::string();
    if (var_name.empty() || value == nullptr) {
      Fail(last.span, "each branch of an if must end by assigning the variable the if defines (x = ...)");
    }
    branch.var_name = var_name;
    Expr result;
    if (IsCallTo(*value, "R.match_cast")) {
      current_stmt_ = &last;
      result = EmitMatchCast(var_name, value->Cast<py::Call>(), last.span);
    } else {
      result = EvalExpr(*value);
      if (!IsLeaf(result)) result = bb_->Emit(result, var_name, last.span);
    }
    graph::BindingBlock block = bb_->EndBlock();
    if (!block->bindings.empty()) blocks.push_back(block);
    auto* seq = new graph::SeqExprNode(std::move(blocks), result);
    seq->span = span;
    branch.seq = Expr(seq);
  });
  blocks_ = saved_blocks;
  bb_->EndScope();
  scopes_.Pop();
  return branch;
}

graph::Var RelaxParser::ParseIf(const py::If& stmt) {
  if (in_dataflow_) Fail(stmt.span, "an if is not allowed inside a dataflow block");
  if (stmt.orelse.empty()) Fail(stmt.span, "an if in a Relax function needs an else branch");
  Expr cond = EvalExpr(*stmt.test);
  const py::Stmt* if_stmt = current_stmt_;
  Branch then_branch = ParseBranch(stmt.body, stmt.span);
  Branch else_branch = ParseBranch(stmt.orelse, stmt.orelse.front()->span);
  current_stmt_ = if_stmt;
  if (then_branch.var_name != else_branch.var_name) {
    Fail(stmt.orelse.back()->span, fmt::format("both branches of an if must end by assigning the same variable; "
                                               "the first assigns '{}', this one '{}'", then_branch.var_name,
                                               else_branch.var_name));
  }
  auto* node = new graph::IfNode(cond, then_branch.seq, else_branch.seq);
  node->span = stmt.span;
  StructInfo annotation = then_branch.annotation.defined() ? then_branch.annotation : else_branch.annotation;
  return EmitBinding(then_branch.var_name, Expr(node), annotation, stmt.span);
}

graph::Function ParseRelaxFunction(const ModuleContext& mod, const py::FunctionDef& def) {
  op::RegisterAllOps();
  return RelaxParser(mod, def).Parse();
}

graph::Function DeclareRelaxFunction(const ModuleContext& mod, const py::FunctionDef& def) {
  op::RegisterAllOps();
  return RelaxParser(mod, def).Declare();
}

}  // namespace rlx::text::detail
