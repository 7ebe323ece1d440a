// ExprVisitor, ExprMutatorBase, ExprMutator (graph/expr_functor.h).
//
// The walk orders follow TVM's relax/ir/expr_functor.cc: a Call visits its
// op, sinfo_args, args, then its own struct info; a binding visits its value
// before its variable; a function its parameters before its body.
//
// Identity is the mutators' contract: every VisitExpr_ returns `self` when no
// child (nor the struct info it depends on) changed. ExprMutator re-emits
// bindings through its BlockBuilder, which always builds a new block object;
// when every binding of that block is the original binding, the original
// block is returned instead, so identity survives up to the function.
#include "rlx/graph/expr_functor.h"

#include <utility>

#include "rlx/graph/struct_info_analysis.h"

namespace rlx::graph {

namespace {

// True when `a` and `b` hold the same bindings (by identity), in order.
bool SameBindings(const BindingBlock& a, const BindingBlock& b) {
  if (a->bindings.size() != b->bindings.size()) return false;
  for (size_t i = 0; i < a->bindings.size(); ++i) {
    if (!a->bindings[i].same_as(b->bindings[i])) return false;
  }
  return true;
}

// A new variable of `var`'s name and kind (Var or DataflowVar) with `sinfo`
// (which may be undefined: the builder then deduces it).
Var CopyVar(const Var& var, StructInfo sinfo) {
  VarNode* node = var.isa<DataflowVarNode>() ? new DataflowVarNode(var->name_hint, std::move(sinfo))
                                              : new VarNode(var->name_hint, std::move(sinfo));
  node->span = var->span;
  return Var(node);
}

// A node that comes back unchanged and already has struct info was
// normalized before; re-normalizing it would only re-walk its bindings.
bool IsUnchangedAndNormalized(const Expr& before, const Expr& after) {
  return after.same_as(before) && before->struct_info.defined();
}

BindingBlock MakeBlockLike(const BindingBlock& original, std::vector<Binding> bindings) {
  auto* node = original->is_dataflow() ? new DataflowBlockNode(std::move(bindings))
                                       : new BindingBlockNode(std::move(bindings));
  node->span = original->span;
  return BindingBlock(node);
}

}  // namespace

// ================================================================ ExprVisitor

void ExprVisitor::VisitExpr(const Expr& expr) { ExprFunctor::VisitExpr(expr); }

void ExprVisitor::VisitStructInfoOf(const ExprNode* expr) {
  if (expr->struct_info.defined()) VisitStructInfo(expr->struct_info);
}

void ExprVisitor::VisitExpr_(const VarNode* op, const Expr&) { VisitStructInfoOf(op); }

void ExprVisitor::VisitExpr_(const DataflowVarNode* op, const Expr& self) {
  VisitExpr_(static_cast<const VarNode*>(op), self);
}

void ExprVisitor::VisitExpr_(const ConstantNode*, const Expr&) {}

void ExprVisitor::VisitExpr_(const TupleNode* op, const Expr&) {
  for (const Expr& field : op->fields) VisitExpr(field);
  VisitStructInfoOf(op);
}

void ExprVisitor::VisitExpr_(const TupleGetItemNode* op, const Expr&) {
  VisitExpr(op->tuple);
  VisitStructInfoOf(op);
}

void ExprVisitor::VisitExpr_(const CallNode* op, const Expr&) {
  VisitExpr(op->op);
  for (const StructInfo& sinfo : op->sinfo_args) VisitStructInfo(sinfo);
  for (const Expr& arg : op->args) VisitExpr(arg);
  VisitStructInfoOf(op);
}

void ExprVisitor::VisitExpr_(const IfNode* op, const Expr&) {
  VisitExpr(op->cond);
  VisitExpr(op->true_branch);
  VisitExpr(op->false_branch);
  VisitStructInfoOf(op);
}

void ExprVisitor::VisitExpr_(const SeqExprNode* op, const Expr&) {
  for (const BindingBlock& block : op->blocks) VisitBindingBlock(block);
  VisitExpr(op->body);
  VisitStructInfoOf(op);
}

// A ShapeExpr's and a PrimValue's struct info are derived from their values,
// which are visited directly.
void ExprVisitor::VisitExpr_(const ShapeExprNode* op, const Expr&) {
  for (const PrimExpr& value : op->values) VisitPrimExpr(value);
}

void ExprVisitor::VisitExpr_(const PrimValueNode* op, const Expr&) { VisitPrimExpr(op->value); }

void ExprVisitor::VisitExpr_(const StringImmNode*, const Expr&) {}
void ExprVisitor::VisitExpr_(const DataTypeImmNode*, const Expr&) {}
void ExprVisitor::VisitExpr_(const ExternFuncNode*, const Expr&) {}
void ExprVisitor::VisitExpr_(const GlobalVarNode*, const Expr&) {}
void ExprVisitor::VisitExpr_(const OpNode*, const Expr&) {}

void ExprVisitor::VisitExpr_(const FunctionNode* op, const Expr&) {
  for (const Var& param : op->params) VisitVarDef(param);
  VisitExpr(op->body);
}

void ExprVisitor::VisitBindingBlock(const BindingBlock& block) {
  if (const auto* dataflow = block.as<DataflowBlockNode>()) {
    VisitBindingBlock_(dataflow);
  } else {
    VisitBindingBlock_(block.get());
  }
}

void ExprVisitor::VisitBindingBlock_(const BindingBlockNode* block) {
  for (const Binding& binding : block->bindings) VisitBinding(binding);
}

void ExprVisitor::VisitBindingBlock_(const DataflowBlockNode* block) {
  for (const Binding& binding : block->bindings) VisitBinding(binding);
}

void ExprVisitor::VisitBinding(const Binding& binding) {
  if (const auto* var_binding = binding.as<VarBindingNode>()) {
    VisitBinding_(var_binding);
  } else if (const auto* match_cast = binding.as<MatchCastNode>()) {
    VisitBinding_(match_cast);
  } else {
    RLX_UNREACHABLE() << "not a binding: " << NodeKindName(binding->kind());
  }
}

void ExprVisitor::VisitBinding_(const VarBindingNode* binding) {
  VisitExpr(binding->value);
  VisitVarDef(binding->var);
}

void ExprVisitor::VisitBinding_(const MatchCastNode* binding) {
  VisitExpr(binding->value);
  VisitStructInfo(binding->struct_info);
  VisitVarDef(binding->var);
}

void ExprVisitor::VisitVarDef(const Var& var) {
  if (const auto* dataflow = var.as<DataflowVarNode>()) {
    VisitVarDef_(dataflow);
  } else {
    VisitVarDef_(var.get());
  }
}

void ExprVisitor::VisitVarDef_(const VarNode*) {}

void ExprVisitor::VisitVarDef_(const DataflowVarNode* var) { VisitVarDef_(static_cast<const VarNode*>(var)); }

void ExprVisitor::VisitStructInfo(const StructInfo& sinfo) {
  if (const auto* prim = sinfo.as<PrimStructInfoNode>()) {
    if (prim->value.defined()) VisitPrimExpr(prim->value);
  } else if (const auto* shape = sinfo.as<ShapeStructInfoNode>()) {
    if (shape->values) {
      for (const PrimExpr& value : *shape->values) VisitPrimExpr(value);
    }
  } else if (const auto* tensor = sinfo.as<TensorStructInfoNode>()) {
    if (tensor->shape.defined()) VisitExpr(tensor->shape);
  } else if (const auto* tuple = sinfo.as<TupleStructInfoNode>()) {
    for (const StructInfo& field : tuple->fields) VisitStructInfo(field);
  }
  // Object: nothing inside. Callable: bound by its own parameters (file comment).
}

void ExprVisitor::VisitPrimExpr(const PrimExpr&) {}

// ================================================================ ExprMutatorBase

Expr ExprMutatorBase::VisitExpr(const Expr& expr) { return ExprFunctor::VisitExpr(expr); }

std::vector<Expr> ExprMutatorBase::MutateExprs(const std::vector<Expr>& exprs, bool* changed) {
  std::vector<Expr> out;
  out.reserve(exprs.size());
  for (const Expr& expr : exprs) {
    Expr mutated = VisitExpr(expr);
    if (!mutated.same_as(expr)) *changed = true;
    out.push_back(std::move(mutated));
  }
  return out;
}

std::vector<PrimExpr> ExprMutatorBase::MutatePrimExprs(const std::vector<PrimExpr>& exprs, bool* changed) {
  std::vector<PrimExpr> out;
  out.reserve(exprs.size());
  for (const PrimExpr& expr : exprs) {
    PrimExpr mutated = VisitPrimExpr(expr);
    if (!mutated.same_as(expr)) *changed = true;
    out.push_back(std::move(mutated));
  }
  return out;
}

bool ExprMutatorBase::VisitAndCheckStructInfoFieldUnchanged(const StructInfo& sinfo) {
  return !sinfo.defined() || VisitStructInfo(sinfo).same_as(sinfo);
}

Expr ExprMutatorBase::VisitExpr_(const VarNode*, const Expr& self) { return self; }
Expr ExprMutatorBase::VisitExpr_(const DataflowVarNode*, const Expr& self) { return self; }
Expr ExprMutatorBase::VisitExpr_(const ConstantNode*, const Expr& self) { return self; }
Expr ExprMutatorBase::VisitExpr_(const StringImmNode*, const Expr& self) { return self; }
Expr ExprMutatorBase::VisitExpr_(const DataTypeImmNode*, const Expr& self) { return self; }
Expr ExprMutatorBase::VisitExpr_(const ExternFuncNode*, const Expr& self) { return self; }
Expr ExprMutatorBase::VisitExpr_(const GlobalVarNode*, const Expr& self) { return self; }
Expr ExprMutatorBase::VisitExpr_(const OpNode*, const Expr& self) { return self; }

Expr ExprMutatorBase::VisitExpr_(const TupleNode* op, const Expr& self) {
  bool changed = false;
  std::vector<Expr> fields = MutateExprs(op->fields, &changed);
  if (!changed) return self;
  std::vector<StructInfo> field_sinfo;
  for (const Expr& field : fields) {
    if (field->struct_info.defined()) field_sinfo.push_back(field->struct_info);
  }
  auto* node = new TupleNode(std::move(fields));
  node->span = op->span;
  if (field_sinfo.size() == node->fields.size()) node->struct_info = TupleSInfo(std::move(field_sinfo));
  return Expr(node);
}

Expr ExprMutatorBase::VisitExpr_(const TupleGetItemNode* op, const Expr& self) {
  Expr tuple = VisitExpr(op->tuple);
  if (tuple.same_as(op->tuple)) return self;
  auto* node = new TupleGetItemNode(tuple, op->index);
  node->span = op->span;
  if (const auto* sinfo = tuple->struct_info.as<TupleStructInfoNode>()) {
    if (op->index >= 0 && op->index < static_cast<int>(sinfo->fields.size())) {
      node->struct_info = sinfo->fields[op->index];
    }
  }
  return Expr(node);
}

Expr ExprMutatorBase::VisitExpr_(const CallNode* op, const Expr& self) {
  Expr callee = VisitExpr(op->op);
  bool changed = !callee.same_as(op->op);
  std::vector<StructInfo> sinfo_args;
  for (const StructInfo& sinfo : op->sinfo_args) {
    sinfo_args.push_back(VisitStructInfo(sinfo));
    changed |= !sinfo_args.back().same_as(sinfo);
  }
  std::vector<Expr> args = MutateExprs(op->args, &changed);
  if (!changed && VisitAndCheckStructInfoFieldUnchanged(op->struct_info)) return self;
  auto* node = new CallNode(std::move(callee), std::move(args), op->attrs, std::move(sinfo_args));
  node->span = op->span;
  return Expr(node);
}

Expr ExprMutatorBase::VisitExpr_(const IfNode* op, const Expr& self) {
  Expr cond = VisitExpr(op->cond);
  Expr true_branch = VisitExpr(op->true_branch);
  Expr false_branch = VisitExpr(op->false_branch);
  if (cond.same_as(op->cond) && true_branch.same_as(op->true_branch) && false_branch.same_as(op->false_branch) &&
      VisitAndCheckStructInfoFieldUnchanged(op->struct_info)) {
    return self;
  }
  auto* node = new IfNode(std::move(cond), std::move(true_branch), std::move(false_branch));
  node->span = op->span;
  return Expr(node);
}

Expr ExprMutatorBase::VisitExpr_(const SeqExprNode* op, const Expr& self) {
  bool changed = false;
  std::vector<BindingBlock> blocks;
  for (const BindingBlock& block : op->blocks) {
    BindingBlock mutated = VisitBindingBlock(block);
    if (!mutated.same_as(block)) changed = true;
    if (!mutated->bindings.empty()) blocks.push_back(std::move(mutated));
  }
  Expr body = VisitExpr(op->body);
  if (!changed && body.same_as(op->body) && VisitAndCheckStructInfoFieldUnchanged(op->struct_info)) return self;
  auto* node = new SeqExprNode(std::move(blocks), std::move(body));
  node->span = op->span;
  return Expr(node);
}

Expr ExprMutatorBase::VisitExpr_(const ShapeExprNode* op, const Expr& self) {
  bool changed = false;
  std::vector<PrimExpr> values = MutatePrimExprs(op->values, &changed);
  if (!changed) return self;
  auto* node = new ShapeExprNode(std::move(values));
  node->span = op->span;
  return Expr(node);
}

Expr ExprMutatorBase::VisitExpr_(const PrimValueNode* op, const Expr& self) {
  PrimExpr value = VisitPrimExpr(op->value);
  if (value.same_as(op->value)) return self;
  auto* node = new PrimValueNode(std::move(value));
  node->span = op->span;
  return Expr(node);
}

Expr ExprMutatorBase::VisitExpr_(const FunctionNode* op, const Expr& self) {
  Expr body = VisitExpr(op->body);
  if (body.same_as(op->body)) return self;
  auto* node = new FunctionNode(op->params, std::move(body), op->ret_struct_info, op->is_pure, op->attrs,
                                op->is_private);
  node->span = op->span;
  return Expr(node);
}

BindingBlock ExprMutatorBase::VisitBindingBlock(const BindingBlock& block) {
  bool changed = false;
  std::vector<Binding> bindings;
  bindings.reserve(block->bindings.size());
  for (const Binding& binding : block->bindings) {
    if (const auto* var_binding = binding.as<VarBindingNode>()) {
      Expr value = VisitExpr(var_binding->value);
      if (value.same_as(var_binding->value)) {
        bindings.push_back(binding);
        continue;
      }
      auto* node = new VarBindingNode(var_binding->var, std::move(value));
      node->span = binding->span;
      bindings.emplace_back(node);
    } else {
      const auto* match_cast = binding.as<MatchCastNode>();
      RLX_ICHECK(match_cast != nullptr) << "not a binding: " << NodeKindName(binding->kind());
      Expr value = VisitExpr(match_cast->value);
      StructInfo sinfo = VisitStructInfo(match_cast->struct_info);
      if (value.same_as(match_cast->value) && sinfo.same_as(match_cast->struct_info)) {
        bindings.push_back(binding);
        continue;
      }
      auto* node = new MatchCastNode(match_cast->var, std::move(value), std::move(sinfo));
      node->span = binding->span;
      bindings.emplace_back(node);
    }
    changed = true;
  }
  return changed ? MakeBlockLike(block, std::move(bindings)) : block;
}

StructInfo ExprMutatorBase::VisitStructInfo(const StructInfo& sinfo) {
  StructInfoNode* rebuilt = nullptr;
  if (const auto* prim = sinfo.as<PrimStructInfoNode>()) {
    if (!prim->value.defined()) return sinfo;
    PrimExpr value = VisitPrimExpr(prim->value);
    if (value.same_as(prim->value)) return sinfo;
    rebuilt = new PrimStructInfoNode(prim->dtype, std::move(value));
  } else if (const auto* shape = sinfo.as<ShapeStructInfoNode>()) {
    if (!shape->values) return sinfo;
    bool changed = false;
    std::vector<PrimExpr> values = MutatePrimExprs(*shape->values, &changed);
    if (!changed) return sinfo;
    rebuilt = new ShapeStructInfoNode(std::move(values));
  } else if (const auto* tensor = sinfo.as<TensorStructInfoNode>()) {
    if (!tensor->shape.defined()) return sinfo;
    Expr shape = VisitExpr(tensor->shape);
    if (shape.same_as(tensor->shape)) return sinfo;
    rebuilt = new TensorStructInfoNode(std::move(shape), tensor->dtype);
  } else if (const auto* tuple = sinfo.as<TupleStructInfoNode>()) {
    bool changed = false;
    std::vector<StructInfo> fields;
    for (const StructInfo& field : tuple->fields) {
      fields.push_back(VisitStructInfo(field));
      changed |= !fields.back().same_as(field);
    }
    if (!changed) return sinfo;
    rebuilt = new TupleStructInfoNode(std::move(fields));
  } else {
    return sinfo;  // Object; Callable (bound by its own parameters)
  }
  rebuilt->span = sinfo->span;
  return StructInfo(rebuilt);
}

PrimExpr ExprMutatorBase::VisitPrimExpr(const PrimExpr& expr) { return expr; }

// ================================================================ ExprMutator

ExprMutator::ExprMutator(ir::IRModule context_module)
    : builder_(std::make_unique<BlockBuilder>(std::move(context_module))) {}

ExprMutator::~ExprMutator() = default;

Expr ExprMutator::VisitExpr(const Expr& expr) {
  Expr visited = ExprFunctor::VisitExpr(expr);
  return IsUnchangedAndNormalized(expr, visited) ? visited : builder_->Normalize(visited);
}

void ExprMutator::RemapVar(const Var& from, const Var& to) {
  var_remap_[from.get()] = to;
}

Expr ExprMutator::VisitExpr_(const VarNode* op, const Expr& self) {
  auto it = var_remap_.find(op);
  return it == var_remap_.end() ? self : Expr(it->second);
}

Expr ExprMutator::VisitExpr_(const DataflowVarNode* op, const Expr& self) {
  return VisitExpr_(static_cast<const VarNode*>(op), self);
}

Expr ExprMutator::VisitExpr_(const FunctionNode* op, const Expr& self) {
  bool params_changed = false;
  std::vector<Var> params;
  for (const Var& param : op->params) {
    params.push_back(VisitVarDef(param));
    if (!params.back().same_as(param)) {
      RemapVar(param, params.back());
      params_changed = true;
    }
  }
  StructInfo ret_sinfo = op->ret_struct_info.defined() ? VisitStructInfo(op->ret_struct_info) : StructInfo();
  Expr body = VisitWithNewScope(op->body, params);
  if (!params_changed && body.same_as(op->body) && ret_sinfo.same_as(op->ret_struct_info)) return self;
  // The annotation stays unless the new body provably contradicts it; then
  // the normalizer takes the body's struct info instead.
  if (ret_sinfo.defined() && body->struct_info.defined() &&
      StructInfoBaseCheck(ret_sinfo, body->struct_info, builder_->analyzer()) == BaseCheckResult::kFailL0) {
    ret_sinfo = StructInfo();
  }
  auto* node = new FunctionNode(std::move(params), std::move(body), std::move(ret_sinfo), op->is_pure, op->attrs,
                                op->is_private);
  node->span = op->span;
  return Expr(node);
}

Expr ExprMutator::VisitExpr_(const IfNode* op, const Expr& self) {
  Expr cond = VisitExpr(op->cond);
  Expr true_branch = VisitWithNewScope(op->true_branch);
  Expr false_branch = VisitWithNewScope(op->false_branch);
  if (cond.same_as(op->cond) && true_branch.same_as(op->true_branch) && false_branch.same_as(op->false_branch) &&
      VisitAndCheckStructInfoFieldUnchanged(op->struct_info)) {
    return self;
  }
  auto* node = new IfNode(std::move(cond), std::move(true_branch), std::move(false_branch));
  node->span = op->span;
  return Expr(node);
}

Expr ExprMutator::VisitExpr_(const SeqExprNode* op, const Expr& self) {
  bool changed = false;
  std::vector<BindingBlock> blocks;
  for (const BindingBlock& block : op->blocks) {
    BindingBlock mutated = VisitBindingBlock(block);
    if (!mutated.same_as(block)) changed = true;
    if (!mutated->bindings.empty()) blocks.push_back(std::move(mutated));
  }
  // Normalizing a changed body may emit bindings; they form a last block.
  builder_->BeginBindingBlock();
  Expr body = VisitExpr(op->body);
  BindingBlock prologue = builder_->EndBlock();
  if (!prologue->bindings.empty()) {
    blocks.push_back(std::move(prologue));
    changed = true;
  }
  if (!changed && body.same_as(op->body) && VisitAndCheckStructInfoFieldUnchanged(op->struct_info)) return self;
  auto* node = new SeqExprNode(std::move(blocks), std::move(body));
  node->span = op->span;
  return Expr(node);
}

BindingBlock ExprMutator::VisitBindingBlock(const BindingBlock& block) {
  if (const auto* dataflow = block.as<DataflowBlockNode>()) return VisitBindingBlock_(dataflow);
  return VisitBindingBlock_(block.get());
}

BindingBlock ExprMutator::VisitBindingBlock_(const BindingBlockNode* block) {
  builder_->BeginBindingBlock();
  for (const Binding& binding : block->bindings) VisitBinding(binding);
  BindingBlock result = builder_->EndBlock();
  BindingBlock original(block);
  return SameBindings(result, original) ? original : result;
}

BindingBlock ExprMutator::VisitBindingBlock_(const DataflowBlockNode* block) {
  builder_->BeginDataflowBlock();
  for (const Binding& binding : block->bindings) VisitBinding(binding);
  BindingBlock result = builder_->EndBlock();
  BindingBlock original(block);
  return SameBindings(result, original) ? original : result;
}

void ExprMutator::VisitBinding(const Binding& binding) {
  if (const auto* var_binding = binding.as<VarBindingNode>()) {
    VisitBinding_(var_binding);
  } else if (const auto* match_cast = binding.as<MatchCastNode>()) {
    VisitBinding_(match_cast);
  } else {
    RLX_UNREACHABLE() << "not a binding: " << NodeKindName(binding->kind());
  }
}

void ExprMutator::VisitBinding_(const VarBindingNode* binding) {
  Expr new_value = VisitExpr(binding->value);
  ReEmitBinding(binding, new_value);
}

void ExprMutator::ReEmitBinding(const VarBindingNode* binding, const Expr& new_value) {
  Var new_var = VisitVarDef(binding->var);
  if (new_var.same_as(binding->var) && new_value.same_as(binding->value)) {
    builder_->EmitNormalized(Binding(binding));
    return;
  }
  // A changed value gets a fresh variable whose struct info the builder
  // deduces; a variable whose own struct info was mutated is kept as is.
  Var target = new_var.same_as(binding->var) ? CopyVar(binding->var, nullptr) : new_var;
  Var emitted = builder_->EmitWithVar(target, new_value, binding->span);
  RemapVar(binding->var, emitted);
}

void ExprMutator::VisitBinding_(const MatchCastNode* binding) {
  Expr new_value = VisitExpr(binding->value);
  StructInfo new_sinfo = VisitStructInfo(binding->struct_info);
  Var new_var = VisitVarDef(binding->var);
  if (new_var.same_as(binding->var) && new_value.same_as(binding->value) &&
      new_sinfo.same_as(binding->struct_info)) {
    builder_->EmitNormalized(Binding(binding));
    return;
  }
  Var target = CopyVar(binding->var, new_sinfo);
  auto* node = new MatchCastNode(target, new_value, new_sinfo);
  node->span = binding->span;
  builder_->EmitNormalized(Binding(node));
  RemapVar(binding->var, target);
}

Var ExprMutator::VisitVarDef(const Var& var) {
  if (const auto* dataflow = var.as<DataflowVarNode>()) return VisitVarDef_(dataflow);
  return VisitVarDef_(var.get());
}

Var ExprMutator::VisitVarDef_(const VarNode* var) {
  Var original(var);
  if (!var->struct_info.defined()) return original;
  StructInfo sinfo = VisitStructInfo(var->struct_info);
  return sinfo.same_as(var->struct_info) ? original : CopyVar(original, sinfo);
}

Var ExprMutator::VisitVarDef_(const DataflowVarNode* var) { return VisitVarDef_(static_cast<const VarNode*>(var)); }

namespace {

// Ends a builder scope when destroyed, so that a CompileError thrown while
// visiting leaves the builder's scopes balanced.
class ScopeGuard {
 public:
  ScopeGuard(BlockBuilder& builder, const std::vector<Var>& params) : builder_(builder) { builder_.BeginScope(params); }
  ~ScopeGuard() { builder_.EndScope(); }
  ScopeGuard(const ScopeGuard&) = delete;
  ScopeGuard& operator=(const ScopeGuard&) = delete;

 private:
  BlockBuilder& builder_;
};

}  // namespace

Expr ExprMutator::VisitWithNewScope(const Expr& expr, const std::vector<Var>& params) {
  ScopeGuard outer(*builder_, params);
  Expr visited;
  {
    // What the body binds (variables, match_cast's symbolic variables) lives
    // in an inner scope, closed before the body is normalized, so that the
    // body's struct info is erased to what the parameters define.
    ScopeGuard inner(*builder_, {});
    visited = ExprFunctor::VisitExpr(expr);
  }
  if (visited.isa<SeqExprNode>() && IsUnchangedAndNormalized(expr, visited)) return visited;
  return builder_->NormalizeSeq(visited);
}

// ================================================================ helpers

namespace {

class PostOrderExprVisitor : public ExprVisitor {
 public:
  explicit PostOrderExprVisitor(const std::function<void(const Expr&)>& fvisit) : fvisit_(fvisit) {}

  void VisitExpr(const Expr& expr) override {
    ExprVisitor::VisitExpr(expr);
    fvisit_(expr);
  }

 private:
  const std::function<void(const Expr&)>& fvisit_;
};

}  // namespace

void PostOrderVisit(const Expr& expr, const std::function<void(const Expr&)>& fvisit) {
  PostOrderExprVisitor(fvisit).VisitExpr(expr);
}

}  // namespace rlx::graph
