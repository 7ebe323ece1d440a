// FuseTIR: turns each call of a primitive function (made by fuse-ops) into
// one `R.call_tir` of a single PrimFunc that merges its callees (after TVM's
// relax.transform.FuseTIR).
//
// Algorithm, for a primitive function F(p_1, ..., p_k) whose body is one
// dataflow block of `R.call_tir`, tuple and tuple-get-item bindings:
//
// 1. Signature. F's symbolic variables (those its parameters' shapes and
//    `R.Prim(value=v)` parameters define) get fresh TIR variables of the
//    same name. Each tensor parameter becomes an input buffer whose shape is
//    the parameter's shape in those variables.
//
// 2. Inlining, binding by binding. A call_tir binding gets one fresh buffer
//    per output tensor (its out_sinfo shape). The callee is then bound to the
//    actual buffers: each callee buffer dimension that is a bare variable
//    binds that variable to the actual dimension (first binding wins); the
//    callee's trailing scalar parameters bind to the call's tir_vars; every
//    other dimension (`n * m` against `a * b` or `256`) must then be proven
//    equal to the actual one by the analyzer. The callee body is copied with
//    its variables substituted, its parameter buffers replaced by the actual
//    ones, and every definition renewed (loop variables, block iteration
//    variables, allocated buffers, block names made unique), so the same
//    callee may be inlined twice. Its root block's allocations are hoisted
//    into the merged root block. Tuples and tuple-get-items only regroup
//    buffers.
//
// 3. Result. The buffers of F's result become the output parameters; every
//    other buffer made in step 2 is an intermediate: `T.alloc_buffer` in the
//    merged function's root block. A symbolic variable that is used but that
//    no input or output buffer shape defines as a bare dimension becomes a
//    trailing scalar parameter.
//
// 4. Call sites. `F(args)` becomes
//    `R.call_tir(F', (tensor args), out_sinfo=<the call's struct info>,
//    tir_vars=R.shape([...]))`, where the tir_vars are the call-site values
//    of those symbolic variables (read off the arguments' struct info by
//    matching F's parameter shapes, or the PrimValue arguments). F' replaces
//    F under F's name. Afterwards primitive functions and private PrimFuncs
//    nothing refers to any more are removed.
//
// A primitive function this cannot merge (a tuple parameter, a callee whose
// shapes cannot be bound, an operator call inside) is left as a function
// call, which the VM runs as is.
#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <optional>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "rlx/arith/analyzer.h"
#include "rlx/graph/block_builder.h"
#include "rlx/graph/expr_functor.h"
#include "rlx/graph/struct_info_analysis.h"
#include "rlx/ir/functor.h"
#include "rlx/support/logging.h"
#include "rlx/tir/function.h"
#include "rlx/tir/stmt_functor.h"
#include "rlx/transform/passes.h"

namespace rlx::transform {
namespace {

using graph::Expr;
using graph::StructInfo;
using ir::Buffer;
using ir::PrimExpr;
using tir::Stmt;

constexpr const char* kPassName = "fuse-tir";

using VarMap = std::unordered_map<const ir::VarNode*, PrimExpr>;

PrimExpr SubstituteVars(const PrimExpr& expr, const VarMap& vmap) {
  return ir::Substitute(expr, [&](const ir::Var& v) -> PrimExpr {
    auto it = vmap.find(v.get());
    return it == vmap.end() ? PrimExpr() : it->second;
  });
}

// ---------------------------------------------------------------- callee copy

// Substitutes the callee's shape variables bound to non-variables (`n` ->
// 16, `k` -> `m * 2`) and simplifies each integer expression that mentions
// one, so `n * m` becomes 256 rather than `16 * 16`. Other expressions are
// left in their original form.
class ShapeFolder : public ir::PrimExprMutator {
 public:
  ShapeFolder(const VarMap& vmap, const std::unordered_set<const ir::VarNode*>& folded, arith::Analyzer* analyzer)
      : vmap_(vmap), folded_(folded), analyzer_(analyzer) {}

  PrimExpr VisitExpr(const PrimExpr& expr) override {
    if (expr->dtype.is_integer() && !expr.isa<ir::IntImmNode>() && Mentions(expr)) {
      return analyzer_->Simplify(SubstituteVars(expr, vmap_));
    }
    return PrimExprMutator::VisitExpr(expr);
  }

 private:
  bool Mentions(const PrimExpr& expr) const {
    bool found = false;
    ir::PostOrderVisit(expr, [&](const PrimExpr& e) {
      if (const auto* v = e.as<ir::VarNode>()) found |= folded_.count(v) > 0;
    });
    return found;
  }

  const VarMap& vmap_;
  const std::unordered_set<const ir::VarNode*>& folded_;
  arith::Analyzer* analyzer_;
};

// Copies a callee body into the merged function: variables substituted,
// parameter buffers replaced, every definition renewed.
class CalleeInliner : public tir::StmtMutator {
 public:
  CalleeInliner(VarMap vmap, std::unordered_map<const ir::BufferNode*, Buffer> buffers,
                std::set<std::string>* block_names, std::set<std::string>* buffer_names)
      : vmap_(std::move(vmap)), buffers_(std::move(buffers)), block_names_(block_names), buffer_names_(buffer_names) {
    for (const auto& [var, value] : vmap_) {
      if (!value.isa<ir::VarNode>()) folded_.insert(var);
    }
  }

  PrimExpr VisitPrimExpr(const PrimExpr& expr) override {
    return StmtMutator::VisitPrimExpr(Substitute(expr));
  }

  // The callee's variables replaced (shape variables folded, see ShapeFolder).
  PrimExpr Substitute(const PrimExpr& expr) {
    PrimExpr folded = ShapeFolder(vmap_, folded_, &analyzer_).VisitExpr(expr);
    return SubstituteVars(folded, vmap_);
  }

  Buffer VisitBuffer(const Buffer& buffer) override {
    if (auto it = buffers_.find(buffer.get()); it != buffers_.end()) return it->second;
    std::vector<PrimExpr> shape;
    for (const PrimExpr& dim : buffer->shape) shape.push_back(Substitute(dim));
    auto* node = new ir::BufferNode();
    node->data = ir::MakeVar(buffer->data->name_hint, buffer->data->dtype);
    node->dtype = buffer->dtype;
    node->shape = std::move(shape);
    for (const PrimExpr& stride : buffer->strides) node->strides.push_back(Substitute(stride));
    node->elem_offset = buffer->elem_offset.defined() ? Substitute(buffer->elem_offset) : PrimExpr();
    node->name = UniqueName(buffer->name, buffer_names_);
    node->scope = buffer->scope;
    node->data_alignment = buffer->data_alignment;
    node->offset_factor = buffer->offset_factor;
    node->span = buffer->span;
    Buffer renewed(node);
    buffers_[buffer.get()] = renewed;
    return renewed;
  }

  static std::string UniqueName(const std::string& base, std::set<std::string>* names) {
    std::string name = base;
    for (int k = 1; names->count(name); ++k) name = fmt::format("{}_{}", base, k);
    names->insert(name);
    return name;
  }

 protected:
  using StmtMutator::VisitStmt_;

  Stmt VisitStmt_(const tir::ForNode* op, const Stmt& self) override {
    ir::Var fresh = ir::MakeVar(op->loop_var->name_hint, op->loop_var->dtype);
    vmap_[op->loop_var.get()] = fresh;
    Stmt visited = StmtMutator::VisitStmt_(op, self);
    const auto* loop = visited.as<tir::ForNode>();
    auto* node = new tir::ForNode();
    node->span = loop->span;
    node->loop_var = fresh;
    node->min = loop->min;
    node->extent = loop->extent;
    node->for_kind = loop->for_kind;
    node->body = loop->body;
    node->thread_tag = loop->thread_tag;
    node->annotations = loop->annotations;
    node->step = loop->step;
    return Stmt(node);
  }

  Stmt VisitStmt_(const tir::BlockNode* op, const Stmt& self) override {
    std::vector<ir::Var> fresh;
    for (const tir::IterVar& iter : op->iter_vars) {
      fresh.push_back(ir::MakeVar(iter->var->name_hint, iter->var->dtype));
      vmap_[iter->var.get()] = fresh.back();
    }
    Stmt visited = StmtMutator::VisitStmt_(op, self);
    const auto* block = visited.as<tir::BlockNode>();
    auto* node = new tir::BlockNode();
    node->span = block->span;
    node->name = block->name;
    node->iter_vars = block->iter_vars;
    node->reads = block->reads;
    node->writes = block->writes;
    node->init = block->init;
    node->body = block->body;
    node->alloc_buffers = block->alloc_buffers;
    node->match_buffers = block->match_buffers;
    node->annotations = block->annotations;
    for (size_t i = 0; i < node->iter_vars.size(); ++i) {
      const tir::IterVar& iter = node->iter_vars[i];
      node->iter_vars[i] = make<tir::IterVarNode>(fresh[i], iter->dom, iter->iter_kind, iter->thread_tag);
    }
    if (op->name != "root") node->name = UniqueName(op->name, block_names_);
    return Stmt(node);
  }

  Stmt VisitStmt_(const tir::LetStmtNode* op, const Stmt& self) override {
    ir::Var fresh = ir::MakeVar(op->var->name_hint, op->var->dtype);
    vmap_[op->var.get()] = fresh;
    Stmt visited = StmtMutator::VisitStmt_(op, self);
    const auto* let = visited.as<tir::LetStmtNode>();
    return make<tir::LetStmtNode>(fresh, let->value, let->body);
  }

 private:
  VarMap vmap_;
  std::unordered_set<const ir::VarNode*> folded_;
  arith::Analyzer analyzer_;
  std::unordered_map<const ir::BufferNode*, Buffer> buffers_;
  std::set<std::string>* block_names_;
  std::set<std::string>* buffer_names_;
};

// ---------------------------------------------------------------- merging

struct FusedPrimFunc {
  tir::PrimFunc func;
  // F's symbolic variables passed as trailing scalars, in parameter order.
  std::vector<ir::Var> tir_var_sources;
};

class PrimFuncMerger {
 public:
  PrimFuncMerger(const ir::IRModule& mod, const graph::FunctionNode* func) : mod_(mod), func_(func) {}

  std::optional<FusedPrimFunc> Merge();

 private:
  bool BindParams();
  bool InlineBinding(const graph::VarBindingNode* binding);
  bool InlineCallTIR(const graph::CallNode* call, const graph::VarNode* var);
  bool BindCallee(const tir::PrimFuncNode* callee, const std::vector<Buffer>& actual,
                  const std::vector<PrimExpr>& scalars, VarMap* vmap);
  bool CollectBuffers(const Expr& expr, std::vector<Buffer>* out) const;
  PrimExpr ToTIR(const PrimExpr& expr) const { return SubstituteVars(expr, sym_map_); }
  Buffer NewBuffer(const std::string& name, const StructInfo& sinfo);

  const ir::IRModule& mod_;
  const graph::FunctionNode* func_;
  arith::Analyzer analyzer_;
  VarMap sym_map_;                      // F's symbolic var -> TIR var
  std::vector<std::pair<ir::Var, ir::Var>> sym_vars_;  // (F's var, TIR var) in order
  std::vector<Buffer> input_buffers_;
  std::vector<Buffer> made_buffers_;  // outputs of the inlined calls, in order
  std::unordered_map<const graph::VarNode*, std::vector<Buffer>> buffers_of_;
  std::vector<Stmt> bodies_;
  std::vector<Buffer> hoisted_allocs_;
  std::set<std::string> block_names_;
  std::set<std::string> buffer_names_;
};

Buffer PrimFuncMerger::NewBuffer(const std::string& name, const StructInfo& sinfo) {
  const auto* tensor = sinfo.as<graph::TensorStructInfoNode>();
  if (tensor == nullptr || !tensor->GetShape() || tensor->IsUnknownDtype()) return nullptr;
  std::vector<PrimExpr> shape;
  std::vector<PrimExpr> dims = *tensor->GetShape();
  for (const PrimExpr& dim : dims) shape.push_back(ToTIR(dim));
  return ir::MakeBuffer(CalleeInliner::UniqueName(name, &buffer_names_), std::move(shape), tensor->dtype);
}

bool PrimFuncMerger::BindParams() {
  auto define = [&](const ir::Var& v) {
    if (sym_map_.count(v.get())) return;
    ir::Var tir_var = ir::MakeVar(v->name_hint, v->dtype);
    sym_map_[v.get()] = tir_var;
    sym_vars_.emplace_back(v, tir_var);
  };
  for (const graph::Var& param : func_->params) {
    for (const ir::Var& v : graph::DefinableTIRVarsInStructInfo(param->struct_info)) define(v);
  }
  for (const graph::Var& param : func_->params) {
    if (param->struct_info.isa<graph::PrimStructInfoNode>()) continue;
    Buffer buffer = NewBuffer(param->name_hint, param->struct_info);
    if (!buffer.defined()) return false;
    input_buffers_.push_back(buffer);
    buffers_of_[param.get()] = {buffer};
  }
  return true;
}

bool PrimFuncMerger::CollectBuffers(const Expr& expr, std::vector<Buffer>* out) const {
  if (const auto* var = expr.as<graph::VarNode>()) {
    auto it = buffers_of_.find(var);
    if (it == buffers_of_.end()) return false;
    out->insert(out->end(), it->second.begin(), it->second.end());
    return true;
  }
  if (const auto* tuple = expr.as<graph::TupleNode>()) {
    for (const Expr& field : tuple->fields) {
      if (!CollectBuffers(field, out)) return false;
    }
    return true;
  }
  return false;
}

bool PrimFuncMerger::BindCallee(const tir::PrimFuncNode* callee, const std::vector<Buffer>& actual,
                                const std::vector<PrimExpr>& scalars, VarMap* vmap) {
  if (callee->buffer_map.size() != actual.size() || callee->params.size() != actual.size() + scalars.size()) {
    return false;
  }
  // Bare dimensions first, then the scalar parameters, then check the rest.
  for (size_t i = 0; i < actual.size(); ++i) {
    const Buffer& formal = callee->buffer_map[i].second;
    if (formal->shape.size() != actual[i]->shape.size() || formal->dtype != actual[i]->dtype) return false;
    if (!formal->strides.empty() || (formal->elem_offset.defined() && !ir::IsConstInt(formal->elem_offset, 0))) {
      return false;
    }
    for (size_t d = 0; d < formal->shape.size(); ++d) {
      if (const auto* v = formal->shape[d].as<ir::VarNode>()) vmap->emplace(v, actual[i]->shape[d]);
    }
  }
  for (size_t k = 0; k < scalars.size(); ++k) {
    const ir::Var& param = callee->params[actual.size() + k];
    if (callee->BufferFor(param).defined()) return false;
    auto [it, inserted] = vmap->emplace(param.get(), scalars[k]);
    if (!inserted && !analyzer_.CanProveEqual(it->second, scalars[k])) return false;
  }
  for (size_t i = 0; i < actual.size(); ++i) {
    const Buffer& formal = callee->buffer_map[i].second;
    for (size_t d = 0; d < formal->shape.size(); ++d) {
      PrimExpr bound = SubstituteVars(formal->shape[d], *vmap);
      bool free_var = false;
      ir::PostOrderVisit(bound, [&](const PrimExpr& e) {
        if (const auto* v = e.as<ir::VarNode>()) {
          free_var |= std::none_of(sym_vars_.begin(), sym_vars_.end(), [&](const auto& p) { return p.second.get() == v; });
        }
      });
      if (free_var || !analyzer_.CanProveEqual(bound, actual[i]->shape[d])) return false;
    }
  }
  return true;
}

// The statement inside `body`'s root block; its allocations go to `allocs`.
Stmt StripRootBlock(const Stmt& body, std::vector<Buffer>* allocs) {
  const auto* realize = body.as<tir::BlockRealizeNode>();
  if (realize == nullptr || !realize->block->iter_vars.empty() || realize->block->init.defined() ||
      !realize->block->match_buffers.empty() || !ir::IsConstInt(realize->predicate, 1)) {
    return body;
  }
  allocs->insert(allocs->end(), realize->block->alloc_buffers.begin(), realize->block->alloc_buffers.end());
  return realize->block->body;
}

bool PrimFuncMerger::InlineCallTIR(const graph::CallNode* call, const graph::VarNode* var) {
  const auto* gv = call->args[0].as<graph::GlobalVarNode>();
  const auto* callee = gv ? mod_->Lookup(gv->name_hint).as<tir::PrimFuncNode>() : nullptr;
  if (callee == nullptr || call->args.size() < 2 || call->sinfo_args.size() != 1) return false;
  std::vector<Buffer> actual;
  if (!CollectBuffers(call->args[1], &actual)) return false;
  std::vector<Buffer> outputs;
  const StructInfo& out_sinfo = call->sinfo_args[0];
  std::vector<StructInfo> out_fields;
  if (const auto* tuple = out_sinfo.as<graph::TupleStructInfoNode>()) {
    out_fields = tuple->fields;
  } else {
    out_fields = {out_sinfo};
  }
  for (const StructInfo& field : out_fields) {
    std::string base = callee->buffer_map.size() > actual.size() + outputs.size()
                           ? callee->buffer_map[actual.size() + outputs.size()].second->name
                           : var->name_hint;
    Buffer buffer = NewBuffer(base, field);
    if (!buffer.defined()) return false;
    outputs.push_back(buffer);
  }
  std::vector<PrimExpr> scalars;
  if (call->args.size() > 2) {
    const auto* shape = call->args[2].as<graph::ShapeExprNode>();
    if (shape == nullptr) return false;
    for (const PrimExpr& value : shape->values) scalars.push_back(ToTIR(value));
  }
  std::vector<Buffer> all = actual;
  all.insert(all.end(), outputs.begin(), outputs.end());
  VarMap vmap;
  if (!BindCallee(callee, all, scalars, &vmap)) return false;
  std::unordered_map<const ir::BufferNode*, Buffer> buffer_map;
  for (size_t i = 0; i < all.size(); ++i) buffer_map[callee->buffer_map[i].second.get()] = all[i];
  CalleeInliner inliner(std::move(vmap), std::move(buffer_map), &block_names_, &buffer_names_);
  bodies_.push_back(StripRootBlock(inliner.VisitStmt(callee->body), &hoisted_allocs_));
  made_buffers_.insert(made_buffers_.end(), outputs.begin(), outputs.end());
  buffers_of_[var] = outputs;
  return true;
}

bool PrimFuncMerger::InlineBinding(const graph::VarBindingNode* binding) {
  const Expr& value = binding->value;
  const graph::VarNode* var = binding->var.get();
  if (const auto* call = value.as<graph::CallNode>()) {
    const auto* op = call->op.as<graph::OpNode>();
    if (op == nullptr || op->name != "relax.call_tir") return false;
    return InlineCallTIR(call, var);
  }
  if (const auto* item = value.as<graph::TupleGetItemNode>()) {
    std::vector<Buffer> fields;
    if (!CollectBuffers(item->tuple, &fields) || item->index < 0 || static_cast<size_t>(item->index) >= fields.size()) {
      return false;
    }
    buffers_of_[var] = {fields[item->index]};
    return true;
  }
  std::vector<Buffer> buffers;
  if (!CollectBuffers(value, &buffers)) return false;
  buffers_of_[var] = buffers;
  return true;
}

std::optional<FusedPrimFunc> PrimFuncMerger::Merge() {
  for (const graph::Var& param : func_->params) {
    const StructInfo& sinfo = param->struct_info;
    const auto* prim = sinfo.as<graph::PrimStructInfoNode>();
    bool scalar_var = prim != nullptr && prim->value.defined() && prim->value.isa<ir::VarNode>();
    if (!sinfo.isa<graph::TensorStructInfoNode>() && !scalar_var) return std::nullopt;
  }
  const auto* seq = func_->body.as<graph::SeqExprNode>();
  if (seq == nullptr || !BindParams()) return std::nullopt;
  for (const graph::BindingBlock& block : seq->blocks) {
    for (const graph::Binding& binding : block->bindings) {
      const auto* var_binding = binding.as<graph::VarBindingNode>();
      if (var_binding == nullptr || !InlineBinding(var_binding)) return std::nullopt;
    }
  }
  std::vector<Buffer> results;
  if (!CollectBuffers(seq->body, &results)) return std::nullopt;
  std::unordered_set<const ir::BufferNode*> result_set;
  for (const Buffer& buffer : results) {
    bool made = std::any_of(made_buffers_.begin(), made_buffers_.end(), [&](const Buffer& b) { return b.same_as(buffer); });
    if (!made || !result_set.insert(buffer.get()).second) return std::nullopt;  // a parameter or a repeat
  }

  auto* node = new tir::PrimFuncNode();
  std::unordered_set<const ir::VarNode*> defined;
  auto add_buffer_param = [&](const Buffer& buffer) {
    bool symbolic = false;
    for (const PrimExpr& dim : buffer->shape) {
      if (const auto* v = dim.as<ir::VarNode>()) defined.insert(v);
      symbolic |= !ir::AsConstInt(dim).has_value();
    }
    node->params.push_back(ir::MakeVar(symbolic ? "p_" + buffer->name : buffer->name, DataType::Handle()));
    node->buffer_map.emplace_back(node->params.back(), buffer);
  };
  for (const Buffer& buffer : input_buffers_) add_buffer_param(buffer);
  for (const Buffer& buffer : results) add_buffer_param(buffer);

  auto* root = new tir::BlockNode();
  root->name = "root";
  for (const Buffer& buffer : made_buffers_) {
    if (!result_set.count(buffer.get())) root->alloc_buffers.push_back(buffer);
  }
  root->alloc_buffers.insert(root->alloc_buffers.end(), hoisted_allocs_.begin(), hoisted_allocs_.end());
  root->body = tir::MakeSeq(bodies_);
  auto* realize = new tir::BlockRealizeNode();
  realize->predicate = ir::MakeBool(true);
  realize->block = tir::Block(root);
  node->body = Stmt(realize);

  // Symbolic variables used but not defined by a buffer shape: scalars.
  std::unordered_set<const ir::VarNode*> used;
  tir::PostOrderVisit(node->body, [&](const ObjectRef& obj) {
    if (const auto* v = obj.as<ir::VarNode>()) used.insert(v);
  });
  for (const Buffer& buffer : root->alloc_buffers) {
    for (const PrimExpr& dim : buffer->shape) {
      ir::PostOrderVisit(dim, [&](const PrimExpr& e) {
        if (const auto* v = e.as<ir::VarNode>()) used.insert(v);
      });
    }
  }
  for (const Buffer& buffer : results) {
    for (const PrimExpr& dim : buffer->shape) {
      ir::PostOrderVisit(dim, [&](const PrimExpr& e) {
        if (const auto* v = e.as<ir::VarNode>()) used.insert(v);
      });
    }
  }
  for (const Buffer& buffer : input_buffers_) {
    for (const PrimExpr& dim : buffer->shape) {
      ir::PostOrderVisit(dim, [&](const PrimExpr& e) {
        if (const auto* v = e.as<ir::VarNode>()) used.insert(v);
      });
    }
  }
  FusedPrimFunc fused;
  for (const auto& [relax_var, tir_var] : sym_vars_) {
    if (defined.count(tir_var.get()) || !used.count(tir_var.get())) continue;
    node->params.push_back(tir_var);
    fused.tir_var_sources.push_back(relax_var);
  }
  node->attrs = make<ir::DictNode>(std::vector<ir::DictNode::Item>{{"tir.noalias", ir::MakeBool(true)}});
  node->is_private = true;
  fused.func = tir::PrimFunc(node);
  return fused;
}

// ---------------------------------------------------------------- call sites

bool IsPrimitive(const ObjectRef& func) {
  const auto* graph_func = func.as<graph::FunctionNode>();
  return graph_func != nullptr && graph_func->attrs.defined() && graph_func->attrs->Get("Primitive").defined();
}

// F's symbolic variable -> its value at the call site.
VarMap MatchCallSite(const graph::FunctionNode* func, const graph::CallNode* call) {
  VarMap values;
  for (size_t i = 0; i < func->params.size() && i < call->args.size(); ++i) {
    const StructInfo& formal = func->params[i]->struct_info;
    StructInfo actual = graph::GetStructInfo(call->args[i]);
    if (const auto* prim = formal.as<graph::PrimStructInfoNode>()) {
      const auto* arg_prim = actual.as<graph::PrimStructInfoNode>();
      if (prim->value.defined() && arg_prim && arg_prim->value.defined()) {
        if (const auto* v = prim->value.as<ir::VarNode>()) values.emplace(v, arg_prim->value);
      }
      continue;
    }
    const auto* formal_tensor = formal.as<graph::TensorStructInfoNode>();
    const auto* actual_tensor = actual.as<graph::TensorStructInfoNode>();
    if (!formal_tensor || !actual_tensor || !formal_tensor->GetShape() || !actual_tensor->GetShape()) continue;
    std::vector<PrimExpr> formal_shape = *formal_tensor->GetShape();
    std::vector<PrimExpr> actual_shape = *actual_tensor->GetShape();
    for (size_t d = 0; d < formal_shape.size() && d < actual_shape.size(); ++d) {
      if (const auto* v = formal_shape[d].as<ir::VarNode>()) values.emplace(v, actual_shape[d]);
    }
  }
  return values;
}

class CallRewriter : public graph::ExprMutator {
 public:
  // `mod` already holds the merged PrimFuncs; `original` the primitive
  // functions they replace.
  CallRewriter(const ir::IRModule& mod, const ir::IRModule& original,
               const std::unordered_map<std::string, FusedPrimFunc>& fused)
      : ExprMutator(mod), original_(original), fused_(fused) {}

 protected:
  using ExprMutator::VisitExpr_;

  Expr VisitExpr_(const graph::CallNode* op, const Expr& self) override {
    Expr visited = ExprMutator::VisitExpr_(op, self);
    const auto* call = visited.as<graph::CallNode>();
    const auto* gv = call ? call->op.as<graph::GlobalVarNode>() : nullptr;
    if (gv == nullptr) return visited;
    if (!fused_.count(gv->name_hint)) return visited;
    // The call's struct info as deduced against the primitive function (the
    // builder's module now holds the merged PrimFunc under that name).
    StructInfo out_sinfo = graph::GetStructInfo(self);
    auto it = fused_.find(gv->name_hint);
    if (it == fused_.end()) return visited;
    const auto* func = original_->Lookup(gv->name_hint).as<graph::FunctionNode>();
    VarMap values = MatchCallSite(func, call);
    std::vector<Expr> tensor_args;
    for (size_t i = 0; i < call->args.size(); ++i) {
      if (!func->params[i]->struct_info.isa<graph::PrimStructInfoNode>()) tensor_args.push_back(call->args[i]);
    }
    std::vector<PrimExpr> tir_vars;
    for (const ir::Var& source : it->second.tir_var_sources) {
      auto value = values.find(source.get());
      RLX_ICHECK(value != values.end()) << "fuse-tir: no call-site value for '" << source->name_hint << "' of "
                                        << gv->name_hint;
      tir_vars.push_back(value->second);
    }
    auto callee = make<graph::GlobalVarNode>(gv->name_hint);
    std::vector<Expr> args = {callee, make<graph::TupleNode>(std::move(tensor_args))};
    if (!tir_vars.empty()) args.push_back(make<graph::ShapeExprNode>(std::move(tir_vars)));
    return builder().Normalize(graph::MakeCall("relax.call_tir", std::move(args), nullptr, {out_sinfo}));
  }

 private:
  const ir::IRModule& original_;
  const std::unordered_map<std::string, FusedPrimFunc>& fused_;
};

// Names of module functions referred to from `func`.
void CollectCallees(const ObjectRef& func, std::set<std::string>* names) {
  const auto* graph_func = func.as<graph::FunctionNode>();
  if (graph_func == nullptr) return;
  graph::PostOrderVisit(Expr(graph_func), [&](const Expr& e) {
    if (const auto* gv = e.as<graph::GlobalVarNode>()) names->insert(gv->name_hint);
  });
}

// Removes primitive functions and private PrimFuncs nothing reaches from
// the other functions.
ir::IRModule RemoveUnreferenced(const ir::IRModule& mod) {
  std::set<std::string> reached;
  std::vector<std::string> work;
  for (const auto& [name, func] : mod->functions) {
    bool removable = IsPrimitive(func) || (func.isa<tir::PrimFuncNode>() && func.as<tir::PrimFuncNode>()->is_private);
    if (!removable) work.push_back(name);
  }
  while (!work.empty()) {
    std::string name = work.back();
    work.pop_back();
    if (!reached.insert(name).second) continue;
    std::set<std::string> callees;
    CollectCallees(mod->Lookup(name), &callees);
    for (const std::string& callee : callees) {
      if (mod->Contains(callee) && !reached.count(callee)) work.push_back(callee);
    }
  }
  ir::IRModule result = mod;
  for (const auto& [name, func] : mod->functions) {
    if (!reached.count(name)) result = ir::WithoutFunction(result, name);
  }
  return result;
}

ir::IRModule FuseTIRModule(const ir::IRModule& mod) {
  std::unordered_map<std::string, FusedPrimFunc> fused;
  for (const auto& [name, func] : mod->functions) {
    if (!IsPrimitive(func)) continue;
    PrimFuncMerger merger(mod, func.as<graph::FunctionNode>());
    if (std::optional<FusedPrimFunc> merged = merger.Merge()) fused.emplace(name, std::move(*merged));
  }
  if (fused.empty()) return mod;
  ir::IRModule with_prim_funcs = mod;
  for (const auto& [name, merged] : fused) with_prim_funcs = ir::WithFunction(with_prim_funcs, name, merged.func);
  ir::IRModule result = with_prim_funcs;
  CallRewriter rewriter(with_prim_funcs, mod, fused);
  for (const auto& [name, func] : mod->functions) {
    if (!func.isa<graph::FunctionNode>() || IsPrimitive(func)) continue;
    Expr updated = rewriter.VisitExpr(Expr(func.as<graph::FunctionNode>()));
    if (!updated.same_as(func)) result = ir::WithFunction(result, name, updated);
  }
  return RemoveUnreferenced(result);
}

}  // namespace

Pass FuseTIR() {
  return CreateModulePass([](ir::IRModule mod, const PassContext&) { return FuseTIRModule(mod); },
                          PassInfo{kPassName,
                                   "Merges the PrimFuncs called by each primitive function into one PrimFunc "
                                   "called with a single call_tir",
                                   0, {}});
}

}  // namespace rlx::transform
