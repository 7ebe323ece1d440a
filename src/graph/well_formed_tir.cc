// Well-formedness of one PrimFunc (graph/well_formed.h lists the rules).
//
// One walk over the body with a scoped set of bound variables and one of
// declared buffers. Binding statements (For, LetStmt, Block, Allocate,
// DeclBuffer, a thread_extent AttrStmt) mark both sets, bind what they introduce, visit their body
// and restore the marks, so a variable or buffer is visible exactly inside
// the statement that introduces it. Parameters and buffer_map are bound
// before the walk; a bare variable in a buffer_map (or match_buffer) shape,
// stride or offset is bound by its first appearance, in any buffer of the
// map, so `A: (n, m)` and `B: (n * m,)` are fine in either order.
#include <fmt/format.h>

#include <unordered_set>

#include "rlx/tir/stmt_functor.h"
#include "well_formed_internal.h"

namespace rlx::graph::well_formed {
namespace {

using ir::Buffer;
using ir::PrimExpr;
using ir::Var;

class PrimFuncChecker : public tir::StmtVisitor {
 public:
  PrimFuncChecker(const std::string& name, const tir::PrimFunc& func, DiagnosticSink& sink)
      : name_(name), func_(func), sink_(sink) {}

  void Check() {
    BindParams();
    BindBufferMap();
    if (!func_->body.defined()) {
      Report(func_->span, "has no body");
      return;
    }
    VisitStmt(func_->body);
  }

  void VisitStmt(const tir::Stmt& stmt) override {
    if (!stmt.defined()) {
      Report(Span(), "a statement is missing");
      return;
    }
    Span saved = stmt_span_;
    if (stmt->span.defined()) stmt_span_ = stmt->span;
    tir::StmtVisitor::VisitStmt(stmt);
    stmt_span_ = saved;
  }

  void VisitPrimExpr(const PrimExpr& expr) override {
    if (!expr.defined()) {
      Report(Span(), "an expression is missing");
      return;
    }
    PrimVarUseChecker checker(
        vars_, [this](const ir::VarNode* var, const PrimExpr& use) { ReportUndefinedVar(var, use->span); },
        [this](const ir::BufferLoadNode* load, const PrimExpr&) { CheckBufferUse(load->buffer, load->span); });
    checker.VisitExpr(expr);
  }

  void VisitBufferUse(const Buffer& buffer) override { CheckBufferUse(buffer, Span()); }

 protected:
  void VisitStmt_(const tir::ForNode* op, const tir::Stmt&) override {
    VisitPrimExpr(op->min);
    VisitPrimExpr(op->extent);
    if (op->step.defined()) {
      VisitPrimExpr(op->step);
      if (std::optional<int64_t> step = ir::AsConstInt(op->step); step && *step <= 0) {
        Report(op->span,
               fmt::format("loop {} has step {}; a loop step must be positive", op->loop_var->name_hint, *step));
      }
    }
    size_t mark = vars_.Mark();
    BindOnce(op->loop_var, "loop variable");
    VisitStmt(op->body);
    vars_.Restore(mark);
  }

  void VisitStmt_(const tir::WhileNode* op, const tir::Stmt&) override {
    VisitPrimExpr(op->condition);
    if (op->condition.defined() && !(op->condition->dtype.is_bool() && op->condition->dtype.is_scalar())) {
      Report(op->span, fmt::format("the condition of a while loop must be a bool scalar, got {}",
                                   op->condition->dtype.ToString()));
    }
    VisitStmt(op->body);
  }

  void VisitStmt_(const tir::LetStmtNode* op, const tir::Stmt&) override {
    VisitPrimExpr(op->value);
    size_t mark = vars_.Mark();
    BindOnce(op->var, "let variable");
    VisitStmt(op->body);
    vars_.Restore(mark);
  }

  // A thread binding defines its IterVar's var in the body unless an
  // enclosing binding (of the same env_thread) already did.
  void VisitStmt_(const tir::AttrStmtNode* op, const tir::Stmt&) override {
    if (op->value.defined()) VisitPrimExpr(op->value);
    size_t mark = vars_.Mark();
    if (tir::IsThreadBindingAttr(op->attr_key)) {
      const auto* iter_var = op->node.as<tir::IterVarNode>();
      if (iter_var == nullptr) {
        Report(op->span, "attribute " + op->attr_key + " must be attached to an IterVar");
      } else if (!vars_.Contains(iter_var->var.get())) {
        BindOnce(iter_var->var, "thread variable");
      }
    }
    VisitStmt(op->body);
    vars_.Restore(mark);
  }

  void VisitStmt_(const tir::BlockRealizeNode* op, const tir::Stmt&) override {
    for (const PrimExpr& value : op->iter_values) VisitPrimExpr(value);
    if (op->predicate.defined()) VisitPrimExpr(op->predicate);
    if (!op->block.defined()) {
      Report(Span(), "a BlockRealize has no block");
      return;
    }
    if (op->iter_values.size() != op->block->iter_vars.size()) {
      Report(Span(), fmt::format("block '{}' has {} iteration variable(s) but its BlockRealize binds {} value(s)",
                                 op->block->name, op->block->iter_vars.size(), op->iter_values.size()));
    }
    VisitStmt(op->block);
  }

  void VisitStmt_(const tir::BlockNode* op, const tir::Stmt&) override;

  void VisitStmt_(const tir::AllocateNode* op, const tir::Stmt&) override {
    for (const PrimExpr& extent : op->extents) VisitPrimExpr(extent);
    if (op->condition.defined()) VisitPrimExpr(op->condition);
    size_t var_mark = vars_.Mark();
    size_t data_mark = allocated_data_.Mark();
    BindOnce(op->buffer_var, "allocated variable");
    allocated_data_.Insert(op->buffer_var.get());
    VisitStmt(op->body);
    allocated_data_.Restore(data_mark);
    vars_.Restore(var_mark);
  }

  void VisitStmt_(const tir::DeclBufferNode* op, const tir::Stmt&) override {
    size_t var_mark = vars_.Mark();
    size_t buffer_mark = buffers_.Mark();
    DeclareBuffer(op->buffer, /*bind_bare_vars=*/false);
    VisitStmt(op->body);
    buffers_.Restore(buffer_mark);
    vars_.Restore(var_mark);
  }

 private:
  void Report(const Span& span, const std::string& message) {
    Span where = span.defined() ? span : stmt_span_.defined() ? stmt_span_ : func_->span;
    sink_.Report(where, fmt::format("PrimFunc '{}': {}", name_, message));
  }

  void ReportUndefinedVar(const ir::VarNode* var, const Span& span) {
    if (!reported_.insert(var).second) return;
    Report(span, fmt::format("variable '{}' is used but not bound (not a parameter, a buffer_map variable, "
                             "a loop, block or let variable, or the data of a declared buffer)",
                             var->name_hint));
  }

  void CheckBufferUse(const Buffer& buffer, const Span& span) {
    if (!buffer.defined()) {
      Report(span, "a buffer reference is missing");
      return;
    }
    if (buffers_.Contains(buffer.get())) return;
    if (buffer->data.defined() && allocated_data_.Contains(buffer->data.get())) return;
    // A view of bound memory: `T.Buffer(256, data=A.data)`.
    if (buffer->data.defined() && vars_.Contains(buffer->data.get())) return;
    if (!reported_.insert(buffer.get()).second) return;
    Report(span.defined() ? span : buffer->span,
           fmt::format("buffer '{}' is used but not declared (it is not in buffer_map, the alloc_buffers or "
                       "match_buffers of an enclosing block, or a DeclBuffer or Allocate in scope)",
                       buffer->name));
  }

  // Binds a loop, let, iteration or allocated variable, which must be new.
  void BindOnce(const Var& var, const char* what) {
    if (!var.defined()) {
      Report(Span(), fmt::format("a {} is missing", what));
      return;
    }
    if (vars_.Contains(var.get()) || !bound_once_.insert(var.get()).second) {
      Report(var->span, fmt::format("{} '{}' is redefined", what, var->name_hint));
    }
    vars_.Insert(var.get());
  }

  // Binds the bare variables among a buffer's shape, strides and offset.
  void BindBareVars(const Buffer& buffer) {
    auto bind = [this](const PrimExpr& expr) {
      if (const auto* var = expr.as<ir::VarNode>()) vars_.Insert(var);
    };
    for (const PrimExpr& dim : buffer->shape) bind(dim);
    for (const PrimExpr& stride : buffer->strides) bind(stride);
    if (buffer->elem_offset.defined()) bind(buffer->elem_offset);
  }

  // Makes `buffer` visible: its shape must use bound variables (or bind
  // them, for match buffers), and its data variable becomes bound.
  void DeclareBuffer(const Buffer& buffer, bool bind_bare_vars) {
    if (!buffer.defined()) {
      Report(Span(), "a declared buffer is missing");
      return;
    }
    if (bind_bare_vars) BindBareVars(buffer);
    tir::StmtVisitor::VisitBufferDef(buffer);  // shape, strides, offset: uses
    if (buffer->data.defined()) vars_.Insert(buffer->data.get());
    buffers_.Insert(buffer.get());
  }

  void BindParams() {
    for (const Var& param : func_->params) {
      if (!vars_.Insert(param.get())) {
        Report(param->span, fmt::format("parameter '{}' appears twice", param->name_hint));
      }
    }
  }

  void BindBufferMap() {
    for (const auto& [param, buffer] : func_->buffer_map) {
      if (!vars_.Contains(param.get())) {
        Report(buffer->span, fmt::format("buffer_map binds buffer '{}' to '{}', which is not a parameter",
                                         buffer->name, param->name_hint));
      }
      BindBareVars(buffer);
    }
    for (const auto& entry : func_->buffer_map) DeclareBuffer(entry.second, /*bind_bare_vars=*/false);
  }

  const std::string& name_;
  const tir::PrimFunc& func_;
  DiagnosticSink& sink_;
  VarSet vars_;
  ScopedSet<ir::BufferNode> buffers_;
  VarSet allocated_data_;
  std::unordered_set<const ir::VarNode*> bound_once_;
  std::unordered_set<const Node*> reported_;
  Span stmt_span_;
};

void PrimFuncChecker::VisitStmt_(const tir::BlockNode* op, const tir::Stmt&) {
  // Iteration domains are evaluated outside the block.
  for (const tir::IterVar& iter_var : op->iter_vars) VisitRange(iter_var->dom);
  size_t var_mark = vars_.Mark();
  size_t buffer_mark = buffers_.Mark();
  for (const tir::IterVar& iter_var : op->iter_vars) BindOnce(iter_var->var, "block iteration variable");
  for (const tir::MatchBufferRegion& match : op->match_buffers) {
    VisitBufferRegion(match->source);
    DeclareBuffer(match->buffer, /*bind_bare_vars=*/true);
  }
  for (const Buffer& buffer : op->alloc_buffers) DeclareBuffer(buffer, /*bind_bare_vars=*/false);
  for (const tir::BufferRegion& region : op->reads) VisitBufferRegion(region);
  for (const tir::BufferRegion& region : op->writes) VisitBufferRegion(region);
  if (op->init.defined()) VisitStmt(op->init);
  VisitStmt(op->body);
  buffers_.Restore(buffer_mark);
  vars_.Restore(var_mark);
}

}  // namespace

void CheckPrimFunc(const std::string& name, const tir::PrimFunc& func, DiagnosticSink& sink) {
  PrimFuncChecker(name, func, sink).Check();
}

}  // namespace rlx::graph::well_formed
