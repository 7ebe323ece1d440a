// BlockBuilder: emission, scoping and the normalizer (see
// include/rlx/graph/block_builder.h).
//
// State:
//   scopes  a stack of variable scopes. BeginScope pushes a *function* scope
//           (its parameters and the symbolic vars their annotations define);
//           the normalizer pushes an *inner* scope around every SeqExpr (a
//           function body, an If branch), so what a SeqExpr binds (graph vars,
//           symbolic vars defined by its match_casts) goes out of scope with
//           it. Lookups see every scope on the stack.
//   blocks  a stack of open binding blocks; Emit* appends to the top one.
//
// Normalization (Impl::Normalize) is a post-order rebuild after Apache TVM's
// Normalizer:
//   - leaves (vars, constants, shapes, prim values, strings, extern funcs,
//     global vars, ops) are returned as they are;
//   - an argument position (call args, tuple fields, an If condition, a
//     TupleGetItem's tuple, a SeqExpr body) is normalized and, when the result
//     is not a leaf or a tuple of leaves, emitted as a fresh binding into the
//     current block: A-normal form;
//   - struct info is deduced for nodes that have none: ops via the registry's
//     rule, module functions and callable vars by DeriveCallRetStructInfo,
//     tuples fieldwise, If as the LCA of its branches, SeqExpr as its body's,
//     in both cases erased of what went out of scope.
// A node is rebuilt only when a child changed; a node that already carries
// struct info keeps it (it is never re-deduced or overwritten).
//
// Errors a user can cause are CompileErrors at the offending node's span;
// errors from an op's rule that carry no span get the call's.
#include "rlx/graph/block_builder.h"

#include <fmt/format.h>

#include <functional>
#include <unordered_set>

#include "rlx/graph/op_registry.h"
#include "rlx/graph/struct_info_analysis.h"
#include "rlx/support/diagnostic.h"
#include "rlx/tir/analysis.h"
#include "rlx/tir/function.h"

namespace rlx::graph {
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
    default:
      return false;
  }
}

bool IsLeafOrTuple(const Expr& expr) {
  if (IsLeaf(expr)) return true;
  const auto* tuple = expr.as<TupleNode>();
  if (tuple == nullptr) return false;
  for (const Expr& field : tuple->fields) {
    if (!IsLeafOrTuple(field)) return false;
  }
  return true;
}

// Runs `fn` when destroyed unless released: keeps the builder's stacks
// balanced when a CompileError unwinds through the normalizer.
class OnExit {
 public:
  explicit OnExit(std::function<void()> fn) : fn_(std::move(fn)) {}
  ~OnExit() {
    if (fn_) fn_();
  }
  OnExit(const OnExit&) = delete;
  OnExit& operator=(const OnExit&) = delete;
  void Release() { fn_ = nullptr; }

 private:
  std::function<void()> fn_;
};

// Rethrows a CompileError that has no location at `span`.
template <typename F>
auto WithSpan(const Span& span, F&& fn) -> decltype(fn()) {
  try {
    return fn();
  } catch (const CompileError& error) {
    if (error.diagnostic().span.defined() || !span.defined()) throw;
    Diagnostic diag = error.diagnostic();
    diag.span = span;
    throw CompileError(std::move(diag));
  }
}

Span FirstDefined(std::initializer_list<Span> spans) {
  for (const Span& span : spans) {
    if (span.defined()) return span;
  }
  return Span();
}

// Vars that appear as bare tensor or shape dimensions: sizes, so >= 0.
void CollectDimVars(const StructInfo& sinfo, std::vector<ir::Var>& out) {
  auto collect = [&out](const std::vector<PrimExpr>& dims) {
    for (const PrimExpr& dim : dims) {
      if (dim.isa<ir::VarNode>()) out.push_back(cast<ir::VarNode>(dim));
    }
  };
  if (const auto* shape = sinfo.as<ShapeStructInfoNode>()) {
    if (shape->values) collect(*shape->values);
  } else if (const auto* tensor = sinfo.as<TensorStructInfoNode>()) {
    if (const auto* shape_expr = tensor->shape.as<ShapeExprNode>()) collect(shape_expr->values);
  } else if (const auto* tuple = sinfo.as<TupleStructInfoNode>()) {
    for (const StructInfo& field : tuple->fields) CollectDimVars(field, out);
  }
}

}  // namespace

struct BlockBuilder::Impl {
  struct Scope {
    std::unordered_set<const ir::VarNode*> sym_vars;
    std::unordered_set<const VarNode*> relax_vars;
  };
  struct BlockFrame {
    bool is_dataflow = false;
    std::vector<Binding> bindings;
  };

  Impl(BlockBuilder* self, ir::IRModule module) : self(self), module(std::move(module)) {}

  BlockBuilder* self;
  ir::IRModule module;
  arith::Analyzer analyzer;
  std::vector<Scope> scopes;
  std::vector<BlockFrame> blocks;
  std::unordered_set<const ir::VarNode*> non_negative_vars;

  // -------------------------------------------------------------------------
  // Scopes.

  void DefineSymbolicVars(const StructInfo& sinfo) {
    if (scopes.empty()) return;
    for (const ir::Var& var : DefinableTIRVarsInStructInfo(sinfo)) {
      if (!IsSymDefined(var)) scopes.back().sym_vars.insert(var.get());
    }
    std::vector<ir::Var> dims;
    CollectDimVars(sinfo, dims);
    for (const ir::Var& var : dims) {
      if (non_negative_vars.insert(var.get()).second) {
        analyzer.Bind(var, 0, arith::ConstIntBound::kPosInf);
      }
    }
  }

  void DefineRelaxVar(const Var& var) {
    if (!scopes.empty()) scopes.back().relax_vars.insert(var.get());
  }

  void DefineParams(const std::vector<Var>& params) {
    for (const Var& param : params) {
      RLX_ICHECK(param->struct_info.defined()) << "parameter '" << param->name_hint << "' has no struct info";
      DefineRelaxVar(param);
      DefineSymbolicVars(param->struct_info);
    }
  }

  bool IsSymDefined(const ir::Var& var) const {
    for (const Scope& scope : scopes) {
      if (scope.sym_vars.count(var.get())) return true;
    }
    return false;
  }

  bool IsRelaxDefined(const Var& var) const {
    for (const Scope& scope : scopes) {
      if (scope.relax_vars.count(var.get())) return true;
    }
    return false;
  }

  // Outside any scope nothing is erased (a fragment being built by hand).
  StructInfo EraseInScope(const StructInfo& sinfo) const {
    if (scopes.empty()) return sinfo;
    return EraseToWellDefined(
        sinfo, [this](const ir::Var& var) { return IsSymDefined(var); },
        [this](const Var& var) { return IsRelaxDefined(var); });
  }

  // -------------------------------------------------------------------------
  // Blocks and emission.

  BlockFrame& CurrentBlock() {
    RLX_ICHECK(!blocks.empty()) << "emitting a binding outside of a block (call BeginBindingBlock first)";
    return blocks.back();
  }

  BlockFrame PopBlock() {
    RLX_ICHECK(!blocks.empty()) << "EndBlock without an open block";
    BlockFrame frame = std::move(blocks.back());
    blocks.pop_back();
    return frame;
  }

  static BindingBlock MakeBlock(std::vector<Binding> bindings, bool is_dataflow, const Span& span = {}) {
    BindingBlockNode* node = is_dataflow ? new DataflowBlockNode(std::move(bindings))
                                         : new BindingBlockNode(std::move(bindings), false);
    node->span = span;
    return BindingBlock(node);
  }

  void Append(const Binding& binding) {
    CurrentBlock().bindings.push_back(binding);
    DefineRelaxVar(binding->var);
    if (const auto* match = binding.as<MatchCastNode>()) DefineSymbolicVars(match->struct_info);
  }

  Var NewVar(const std::string& name_hint, StructInfo sinfo, bool is_output, const Span& span) {
    bool dataflow = CurrentBlock().is_dataflow && !is_output;
    std::string name = !name_hint.empty() ? name_hint : dataflow ? "lv" : "gv";
    VarNode* node = dataflow ? new DataflowVarNode(std::move(name), std::move(sinfo))
                             : new VarNode(std::move(name), std::move(sinfo));
    node->span = span;
    return Var(node);
  }

  static Binding MakeVarBinding(Var var, Expr value, const Span& span) {
    auto* node = new VarBindingNode(std::move(var), std::move(value));
    node->span = span;
    return Binding(node);
  }

  Var EmitValue(const Expr& normalized, const std::string& name_hint, bool is_output, const Span& span) {
    Var var = NewVar(name_hint, SInfoOf(normalized), is_output, span);
    Append(MakeVarBinding(var, normalized, span));
    return var;
  }

  // Gives `var` the deduced struct info of `value`, or checks its annotation.
  void CheckVarAnnotation(const Var& var, const Expr& value, const Span& span) {
    StructInfo deduced = SInfoOf(value);
    if (!var->struct_info.defined()) {
      UpdateStructInfo(var, deduced);
      return;
    }
    if (StructInfoBaseCheck(var->struct_info, deduced, analyzer) == BaseCheckResult::kFailL0) {
      ThrowError(FirstDefined({span, var->span, value->span}),
                 fmt::format("cannot bind a value of {} to a variable annotated {}", ToString(deduced),
                             ToString(var->struct_info)));
    }
  }

  void CheckMatchCast(const Expr& value, const StructInfo& target, const Span& span) {
    StructInfo from = SInfoOf(value);
    if (StructInfoBaseCheck(target, from, analyzer) == BaseCheckResult::kFailL0) {
      ThrowError(FirstDefined({span, value->span}),
                 fmt::format("match_cast can never succeed: a value of {} cannot match {}", ToString(from),
                             ToString(target)));
    }
  }

  // -------------------------------------------------------------------------
  // Struct info of leaves and callees.

  // The struct info a normalized expression carries; GlobalVars (which may
  // have none) get their function's, ops Object.
  StructInfo SInfoOf(const Expr& expr) {
    if (expr->struct_info.defined()) return expr->struct_info;
    if (const auto* gv = expr.as<GlobalVarNode>()) {
      if (FuncStructInfo finfo = LookupGlobal(gv->name_hint)) return finfo;
    }
    return ObjectSInfo();
  }

  // The call is pure when the function is (tir::IsPureFunction), as in
  // TVM. A void function returns Object here (TVM: the empty tuple).
  static FuncStructInfo PrimFuncSInfo(const tir::PrimFuncNode* func) {
    StructInfo ret = func->ret_type.is_void() ? ObjectSInfo() : PrimSInfo(func->ret_type);
    return FuncStructInfoNode::Opaque(ret, tir::IsPureFunction(tir::PrimFunc(func)));
  }

  FuncStructInfo LookupGlobal(const std::string& name) {
    if (!module.defined()) return nullptr;
    ObjectRef func = module->Lookup(name);
    if (const auto* graph_func = func.as<FunctionNode>()) return dyn_cast<FuncStructInfoNode>(graph_func->struct_info);
    if (const auto* prim_func = func.as<tir::PrimFuncNode>()) return PrimFuncSInfo(prim_func);
    return nullptr;
  }

  FuncStructInfo ResolveGlobalCallee(const GlobalVar& gv, const Span& span) {
    if (FuncStructInfo finfo = LookupGlobal(gv->name_hint)) return finfo;
    if (FuncStructInfo finfo = dyn_cast<FuncStructInfoNode>(gv->struct_info)) return finfo;
    ThrowError(span, fmt::format("undefined function '{}'", gv->name_hint));
  }

  StructInfo InferOpCall(const OpNode* op, const Call& call) {
    const OpInfo* info = FindOp(op->name);
    if (info == nullptr) ThrowError(call->span, fmt::format("unknown operator '{}'", op->name));
    if (!info->infer) return ObjectSInfo();
    return WithSpan(call->span, [&] { return info->infer(call, *self); });
  }

  StructInfo InferCall(const Call& call) {
    if (const auto* op = call->op.as<OpNode>()) return InferOpCall(op, call);
    FuncStructInfo finfo;
    if (const auto* gv = call->op.as<GlobalVarNode>()) {
      finfo = ResolveGlobalCallee(cast<GlobalVarNode>(call->op), FirstDefined({call->span, gv->span}));
    } else {
      StructInfo callee = SInfoOf(call->op);
      if (call->op.isa<ExternFuncNode>() || callee.isa<ObjectStructInfoNode>()) {
        if (!call->sinfo_args.empty()) return call->sinfo_args[0];
      }
      finfo = dyn_cast<FuncStructInfoNode>(callee);
      if (!finfo.defined() && callee.isa<ObjectStructInfoNode>()) return ObjectSInfo();
      if (!finfo.defined()) {
        ThrowError(call->span, fmt::format("cannot call a value of {}", ToString(callee)));
      }
    }
    return WithSpan(call->span, [&] { return DeriveCallRetStructInfo(finfo, call, *self); });
  }

  // -------------------------------------------------------------------------
  // Normalization.

  Expr Normalize(const Expr& expr) {
    RLX_ICHECK(expr.defined()) << "normalizing an undefined expression";
    switch (expr->kind()) {
      case NodeKind::kGraphTuple: return NormalizeTuple(expr.as<TupleNode>(), expr);
      case NodeKind::kGraphTupleGetItem: return NormalizeTupleGetItem(expr.as<TupleGetItemNode>(), expr);
      case NodeKind::kGraphCall: return NormalizeCall(expr.as<CallNode>(), expr);
      case NodeKind::kGraphIf: return NormalizeIf(expr.as<IfNode>(), expr);
      case NodeKind::kGraphSeqExpr: return NormalizeSeqExpr(expr.as<SeqExprNode>(), expr);
      case NodeKind::kGraphFunction: return NormalizeFunction(expr.as<FunctionNode>(), expr);
      case NodeKind::kGraphVar:
      case NodeKind::kGraphDataflowVar:
        RLX_ICHECK(expr->struct_info.defined())
            << "variable '" << expr.as<VarNode>()->name_hint << "' is used before it has struct info";
        return expr;
      default:
        return expr;
    }
  }

  // Normalizes an expression in argument position: non-leaves are bound to
  // a fresh variable in the current block (when one is open).
  Expr NormalizeArgument(const Expr& expr) {
    Expr normalized = Normalize(expr);
    if (IsLeafOrTuple(normalized) || blocks.empty()) return normalized;
    return EmitValue(normalized, "", /*is_output=*/false, normalized->span);
  }

  std::vector<Expr> NormalizeArguments(const std::vector<Expr>& exprs, bool* changed) {
    std::vector<Expr> result;
    result.reserve(exprs.size());
    for (const Expr& expr : exprs) {
      result.push_back(NormalizeArgument(expr));
      *changed |= !result.back().same_as(expr);
    }
    return result;
  }

  Expr NormalizeTuple(const TupleNode* op, const Expr& self_expr) {
    bool changed = false;
    std::vector<Expr> fields = NormalizeArguments(op->fields, &changed);
    Expr tuple = self_expr;
    if (changed) {
      auto* node = new TupleNode(std::move(fields));
      node->span = op->span;
      tuple = Expr(node);
    }
    if (!tuple->struct_info.defined()) {
      std::vector<StructInfo> sinfos;
      for (const Expr& field : tuple.as<TupleNode>()->fields) sinfos.push_back(SInfoOf(field));
      UpdateStructInfo(tuple, TupleSInfo(std::move(sinfos)));
    }
    return tuple;
  }

  StructInfo TupleGetItemSInfo(const TupleGetItemNode* op, const Expr& tuple) {
    StructInfo sinfo = SInfoOf(tuple);
    if (sinfo.isa<ObjectStructInfoNode>()) return sinfo;
    const auto* tuple_sinfo = sinfo.as<TupleStructInfoNode>();
    if (tuple_sinfo == nullptr) {
      ThrowError(op->span, fmt::format("cannot take item {} of a value of {}: not a tuple", op->index, ToString(sinfo)));
    }
    int size = static_cast<int>(tuple_sinfo->fields.size());
    if (op->index < 0 || op->index >= size) {
      ThrowError(op->span, fmt::format("index {} out of range for a tuple of {} field{}", op->index, size,
                                       size == 1 ? "" : "s"));
    }
    return tuple_sinfo->fields[op->index];
  }

  Expr NormalizeTupleGetItem(const TupleGetItemNode* op, const Expr& self_expr) {
    Expr tuple = NormalizeArgument(op->tuple);
    Expr item = self_expr;
    if (!tuple.same_as(op->tuple)) {
      auto* node = new TupleGetItemNode(tuple, op->index);
      node->span = op->span;
      item = Expr(node);
    }
    if (!item->struct_info.defined()) UpdateStructInfo(item, TupleGetItemSInfo(op, tuple));
    return item;
  }

  Expr NormalizeCall(const CallNode* op, const Expr& self_expr) {
    Expr callee = IsLeaf(op->op) ? op->op : NormalizeArgument(op->op);
    bool changed = !callee.same_as(op->op);
    std::vector<Expr> args = NormalizeArguments(op->args, &changed);
    Call call = cast<CallNode>(self_expr);
    if (changed) {
      auto* node = new CallNode(callee, std::move(args), op->attrs, op->sinfo_args);
      node->span = op->span;
      call = Call(node);
    }
    if (!call->struct_info.defined()) UpdateStructInfo(call, InferCall(call));
    return call;
  }

  void CheckIfCondition(const Expr& cond, const Span& span) {
    StructInfo sinfo = SInfoOf(cond);
    if (const auto* prim = sinfo.as<PrimStructInfoNode>(); prim && prim->dtype.is_bool()) return;
    if (const auto* tensor = sinfo.as<TensorStructInfoNode>(); tensor && (tensor->ndim == 0 || tensor->IsUnknownNdim())) {
      return;
    }
    ThrowError(FirstDefined({cond->span, span}),
               fmt::format("the condition of an if must be a bool scalar or a 0-d tensor, got {}", ToString(sinfo)));
  }

  Expr NormalizeIf(const IfNode* op, const Expr& self_expr) {
    Expr cond = NormalizeArgument(op->cond);
    CheckIfCondition(cond, op->span);
    Expr true_branch = NormalizeSeq(op->true_branch);
    Expr false_branch = NormalizeSeq(op->false_branch);
    Expr result = self_expr;
    if (!cond.same_as(op->cond) || !true_branch.same_as(op->true_branch) || !false_branch.same_as(op->false_branch)) {
      auto* node = new IfNode(cond, true_branch, false_branch);
      node->span = op->span;
      result = Expr(node);
    }
    if (!result->struct_info.defined()) {
      StructInfo lca = StructInfoLCA(SInfoOf(true_branch), SInfoOf(false_branch), analyzer);
      UpdateStructInfo(result, EraseInScope(lca));
    }
    return result;
  }

  // Wraps a non-SeqExpr into one, then normalizes it (in its own scope).
  Expr NormalizeSeq(const Expr& expr) {
    if (const auto* seq = expr.as<SeqExprNode>()) return NormalizeSeqExpr(seq, expr);
    auto* node = new SeqExprNode({}, expr);
    node->span = expr->span;
    Expr wrapped(node);
    return NormalizeSeqExpr(node, wrapped);
  }

  Binding NormalizeBinding(const Binding& binding) {
    if (const auto* var_binding = binding.as<VarBindingNode>()) {
      Expr value = Normalize(var_binding->value);
      CheckVarAnnotation(binding->var, value, binding->span);
      if (value.same_as(var_binding->value)) return binding;
      return MakeVarBinding(binding->var, value, binding->span);
    }
    const auto* match = binding.as<MatchCastNode>();
    RLX_ICHECK(match != nullptr) << "unknown binding kind " << NodeKindName(binding->kind());
    Expr value = Normalize(match->value);
    CheckMatchCast(value, match->struct_info, binding->span);
    if (!binding->var->struct_info.defined()) UpdateStructInfo(binding->var, match->struct_info);
    if (value.same_as(match->value)) return binding;
    auto* node = new MatchCastNode(binding->var, value, match->struct_info);
    node->span = binding->span;
    return Binding(node);
  }

  BindingBlock NormalizeBlock(const BindingBlock& block) {
    blocks.push_back(BlockFrame{block->is_dataflow(), {}});
    OnExit pop([this] { blocks.pop_back(); });
    for (const Binding& binding : block->bindings) Append(NormalizeBinding(binding));
    pop.Release();
    BlockFrame frame = PopBlock();
    bool same = frame.bindings.size() == block->bindings.size();
    for (size_t i = 0; same && i < frame.bindings.size(); ++i) same = frame.bindings[i].same_as(block->bindings[i]);
    if (same) return block;
    return MakeBlock(std::move(frame.bindings), block->is_dataflow(), block->span);
  }

  // Drops empty blocks and merges neighbours of the same kind.
  static std::vector<BindingBlock> MergeBlocks(const std::vector<BindingBlock>& input, bool* changed) {
    std::vector<BindingBlock> result;
    for (const BindingBlock& block : input) {
      if (block->bindings.empty()) {
        *changed = true;
      } else if (!result.empty() && result.back()->is_dataflow() == block->is_dataflow()) {
        std::vector<Binding> merged = result.back()->bindings;
        merged.insert(merged.end(), block->bindings.begin(), block->bindings.end());
        result.back() = MakeBlock(std::move(merged), block->is_dataflow(), result.back()->span);
        *changed = true;
      } else {
        result.push_back(block);
      }
    }
    return result;
  }

  Expr NormalizeSeqExpr(const SeqExprNode* op, const Expr& self_expr) {
    scopes.emplace_back();
    OnExit pop_scope([this] { scopes.pop_back(); });
    bool changed = false;
    std::vector<BindingBlock> new_blocks;
    for (const BindingBlock& block : op->blocks) {
      new_blocks.push_back(NormalizeBlock(block));
      changed |= !new_blocks.back().same_as(block);
    }
    bool outer_dataflow = !blocks.empty() && blocks.back().is_dataflow;
    blocks.push_back(BlockFrame{outer_dataflow, {}});
    OnExit pop_block([this] { blocks.pop_back(); });
    Expr body = NormalizeArgument(op->body);
    pop_block.Release();
    BlockFrame prologue = PopBlock();
    changed |= !body.same_as(op->body);
    if (!prologue.bindings.empty()) new_blocks.push_back(MakeBlock(std::move(prologue.bindings), outer_dataflow));
    new_blocks = MergeBlocks(new_blocks, &changed);
    StructInfo body_sinfo = SInfoOf(body);
    pop_scope.Release();
    scopes.pop_back();

    Expr seq = self_expr;
    if (changed) {
      auto* node = new SeqExprNode(std::move(new_blocks), body);
      node->span = op->span;
      seq = Expr(node);
    }
    if (!seq->struct_info.defined()) UpdateStructInfo(seq, EraseInScope(body_sinfo));
    return seq;
  }

  Expr NormalizeFunction(const FunctionNode* op, const Expr& self_expr) {
    scopes.emplace_back();
    OnExit pop_scope([this] { scopes.pop_back(); });
    DefineParams(op->params);
    Expr body = NormalizeSeq(op->body);
    StructInfo body_sinfo = SInfoOf(body);
    StructInfo ret = op->ret_struct_info;
    if (!ret.defined()) {
      // The body's struct info may have been cached under a wider scope;
      // the return may only mention what the parameters define.
      ret = EraseInScope(body_sinfo);
    } else if (StructInfoBaseCheck(ret, body_sinfo, analyzer) == BaseCheckResult::kFailL0) {
      ThrowError(FirstDefined({op->body->span, op->span}),
                 fmt::format("the function returns a value of {} but is annotated to return {}",
                             ToString(body_sinfo), ToString(ret)));
    }
    if (body.same_as(op->body) && ret.same_as(op->ret_struct_info)) return self_expr;
    auto* node = new FunctionNode(op->params, body, ret, op->is_pure, op->attrs, op->is_private);
    node->span = op->span;
    return Expr(node);
  }
};

// ---------------------------------------------------------------------------
// Public interface.

BlockBuilder::BlockBuilder(ir::IRModule context_module)
    : impl_(std::make_unique<Impl>(this, std::move(context_module))) {}

BlockBuilder::~BlockBuilder() = default;

ir::IRModule BlockBuilder::GetContextModule() const { return impl_->module; }

GlobalVar BlockBuilder::AddFunction(const ObjectRef& func, const std::string& name) {
  RLX_ICHECK(func.isa<FunctionNode>() || func.isa<tir::PrimFuncNode>())
      << "AddFunction expects a graph Function or a PrimFunc, got " << NodeKindName(func->kind());
  impl_->module = ir::WithFunction(impl_->module, name, func);
  GlobalVar gv = make<GlobalVarNode>(name);
  if (const auto* graph_func = func.as<FunctionNode>()) UpdateStructInfo(gv, graph_func->struct_info);
  return gv;
}

arith::Analyzer& BlockBuilder::analyzer() { return impl_->analyzer; }

void BlockBuilder::BeginScope(const std::vector<Var>& params) {
  impl_->scopes.emplace_back();
  impl_->DefineParams(params);
}

void BlockBuilder::EndScope() {
  RLX_ICHECK(!impl_->scopes.empty()) << "EndScope without BeginScope";
  impl_->scopes.pop_back();
}

void BlockBuilder::BeginDataflowBlock() { impl_->blocks.push_back(Impl::BlockFrame{true, {}}); }

void BlockBuilder::BeginBindingBlock() { impl_->blocks.push_back(Impl::BlockFrame{false, {}}); }

BindingBlock BlockBuilder::EndBlock() {
  Impl::BlockFrame frame = impl_->PopBlock();
  return Impl::MakeBlock(std::move(frame.bindings), frame.is_dataflow);
}

bool BlockBuilder::CurrentBlockIsDataflow() const {
  return !impl_->blocks.empty() && impl_->blocks.back().is_dataflow;
}

Var BlockBuilder::Emit(const Expr& expr, const std::string& name_hint, Span span) {
  impl_->CurrentBlock();
  Expr normalized = impl_->Normalize(expr);
  return impl_->EmitValue(normalized, name_hint, /*is_output=*/false, FirstDefined({span, expr->span}));
}

Var BlockBuilder::EmitWithVar(const Var& var, const Expr& expr, Span span) {
  impl_->CurrentBlock();
  Expr normalized = impl_->Normalize(expr);
  impl_->CheckVarAnnotation(var, normalized, span);
  impl_->Append(Impl::MakeVarBinding(var, normalized, span));
  return var;
}

Var BlockBuilder::EmitMatchCast(const Expr& value, const StructInfo& sinfo, const std::string& name_hint, Span span) {
  impl_->CurrentBlock();
  RLX_ICHECK(sinfo.defined()) << "match_cast to undefined struct info";
  Expr normalized = impl_->Normalize(value);
  impl_->CheckMatchCast(normalized, sinfo, span);
  Var var = impl_->NewVar(name_hint, sinfo, /*is_output=*/false, span);
  auto* node = new MatchCastNode(var, normalized, sinfo);
  node->span = span;
  impl_->Append(Binding(node));
  return var;
}

Var BlockBuilder::EmitOutput(const Expr& expr, const std::string& name_hint, Span span) {
  RLX_ICHECK(CurrentBlockIsDataflow()) << "EmitOutput outside of a dataflow block";
  Expr normalized = impl_->Normalize(expr);
  return impl_->EmitValue(normalized, name_hint, /*is_output=*/true, FirstDefined({span, expr->span}));
}

void BlockBuilder::EmitNormalized(const Binding& binding) { impl_->Append(binding); }

Expr BlockBuilder::Normalize(const Expr& expr) { return impl_->Normalize(expr); }

Expr BlockBuilder::NormalizeSeq(const Expr& expr) { return impl_->NormalizeSeq(expr); }

bool BlockBuilder::IsSymbolicVarDefined(const ir::Var& var) const { return impl_->IsSymDefined(var); }

}  // namespace rlx::graph
