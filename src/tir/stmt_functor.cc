// StmtVisitor, StmtMutator and their helpers (tir/stmt_functor.h).
//
// The mutator's rule is "same node unless a child changed": each VisitStmt_
// mutates the children, tracks whether any of them is a different node, and
// only then copies the statement with the new children (keeping every other
// field, span included). Nodes without a field-wise constructor (For, Block,
// BlockRealize, Allocate) are copied by the Copy* helpers below.
#include "rlx/tir/stmt_functor.h"

#include <utility>

namespace rlx::tir {

// ================================================================ visitor

namespace {

// Walks a PrimExpr and reports the buffers of nested BufferLoads.
class BufferLoadReporter : public ir::PrimExprVisitor {
 public:
  explicit BufferLoadReporter(StmtVisitor* parent) : parent_(parent) {}

 protected:
  void VisitExpr_(const ir::BufferLoadNode* op, const PrimExpr& self) override {
    parent_->VisitBufferUse(op->buffer);
    ir::PrimExprVisitor::VisitExpr_(op, self);
  }

 private:
  StmtVisitor* parent_;
};

}  // namespace

void StmtVisitor::VisitPrimExpr(const PrimExpr& expr) { BufferLoadReporter(this).VisitExpr(expr); }

void StmtVisitor::VisitBufferDef(const Buffer& buffer) {
  for (const PrimExpr& dim : buffer->shape) VisitPrimExpr(dim);
  for (const PrimExpr& stride : buffer->strides) VisitPrimExpr(stride);
  if (buffer->elem_offset.defined()) VisitPrimExpr(buffer->elem_offset);
}

void StmtVisitor::VisitBufferUse(const Buffer&) {}

void StmtVisitor::VisitRange(const Range& range) {
  VisitPrimExpr(range.min);
  VisitPrimExpr(range.extent);
}

void StmtVisitor::VisitBufferRegion(const BufferRegion& region) {
  VisitBufferUse(region->buffer);
  for (const Range& range : region->region) VisitRange(range);
}

void StmtVisitor::VisitStmt_(const ForNode* op, const Stmt&) {
  VisitPrimExpr(op->min);
  VisitPrimExpr(op->extent);
  if (op->step.defined()) VisitPrimExpr(op->step);
  VisitStmt(op->body);
}

void StmtVisitor::VisitStmt_(const BlockNode* op, const Stmt&) {
  for (const IterVar& iter_var : op->iter_vars) VisitRange(iter_var->dom);
  for (const BufferRegion& region : op->reads) VisitBufferRegion(region);
  for (const BufferRegion& region : op->writes) VisitBufferRegion(region);
  for (const MatchBufferRegion& match : op->match_buffers) {
    VisitBufferRegion(match->source);
    VisitBufferDef(match->buffer);
  }
  for (const Buffer& buffer : op->alloc_buffers) VisitBufferDef(buffer);
  if (op->init.defined()) VisitStmt(op->init);
  VisitStmt(op->body);
}

void StmtVisitor::VisitStmt_(const BlockRealizeNode* op, const Stmt&) {
  for (const PrimExpr& value : op->iter_values) VisitPrimExpr(value);
  if (op->predicate.defined()) VisitPrimExpr(op->predicate);
  VisitStmt(op->block);
}

void StmtVisitor::VisitStmt_(const BufferStoreNode* op, const Stmt&) {
  VisitBufferUse(op->buffer);
  VisitPrimExpr(op->value);
  for (const PrimExpr& index : op->indices) VisitPrimExpr(index);
}

void StmtVisitor::VisitStmt_(const SeqStmtNode* op, const Stmt&) {
  for (const Stmt& stmt : op->seq) VisitStmt(stmt);
}

void StmtVisitor::VisitStmt_(const IfThenElseNode* op, const Stmt&) {
  VisitPrimExpr(op->condition);
  VisitStmt(op->then_case);
  if (op->else_case.defined()) VisitStmt(op->else_case);
}

void StmtVisitor::VisitStmt_(const WhileNode* op, const Stmt&) {
  VisitPrimExpr(op->condition);
  VisitStmt(op->body);
}

void StmtVisitor::VisitStmt_(const LetStmtNode* op, const Stmt&) {
  VisitPrimExpr(op->value);
  VisitStmt(op->body);
}

void StmtVisitor::VisitStmt_(const AttrStmtNode* op, const Stmt&) {
  VisitPrimExpr(op->value);
  VisitStmt(op->body);
}

void StmtVisitor::VisitStmt_(const EvaluateNode* op, const Stmt&) { VisitPrimExpr(op->value); }

void StmtVisitor::VisitStmt_(const AssertStmtNode* op, const Stmt&) {
  VisitPrimExpr(op->condition);
  if (op->message.defined()) VisitPrimExpr(op->message);
  if (op->body.defined()) VisitStmt(op->body);
}

void StmtVisitor::VisitStmt_(const AllocateNode* op, const Stmt&) {
  for (const PrimExpr& extent : op->extents) VisitPrimExpr(extent);
  if (op->condition.defined()) VisitPrimExpr(op->condition);
  VisitStmt(op->body);
}

void StmtVisitor::VisitStmt_(const DeclBufferNode* op, const Stmt&) {
  VisitBufferDef(op->buffer);
  VisitStmt(op->body);
}

// ================================================================ mutator

namespace {

// Rebuilds BufferLoads whose buffer the parent mutator replaces.
class BufferLoadRemapper : public ir::PrimExprMutator {
 public:
  explicit BufferLoadRemapper(StmtMutator* parent) : parent_(parent) {}

 protected:
  PrimExpr VisitExpr_(const ir::BufferLoadNode* op, const PrimExpr& self) override {
    PrimExpr visited = ir::PrimExprMutator::VisitExpr_(op, self);
    const auto* load = visited.as<ir::BufferLoadNode>();
    Buffer buffer = parent_->VisitBuffer(load->buffer);
    if (buffer.same_as(load->buffer)) return visited;
    auto* node = new ir::BufferLoadNode(buffer, load->indices);
    node->span = load->span;
    return PrimExpr(node);
  }

 private:
  StmtMutator* parent_;
};

ForNode* CopyFor(const ForNode* op) {
  auto* node = new ForNode();
  node->span = op->span;
  node->loop_var = op->loop_var;
  node->min = op->min;
  node->extent = op->extent;
  node->for_kind = op->for_kind;
  node->body = op->body;
  node->thread_tag = op->thread_tag;
  node->annotations = op->annotations;
  node->step = op->step;
  return node;
}

BlockNode* CopyBlock(const BlockNode* op) {
  auto* node = new BlockNode();
  node->span = op->span;
  node->name = op->name;
  node->iter_vars = op->iter_vars;
  node->reads = op->reads;
  node->writes = op->writes;
  node->init = op->init;
  node->body = op->body;
  node->alloc_buffers = op->alloc_buffers;
  node->match_buffers = op->match_buffers;
  node->annotations = op->annotations;
  return node;
}

BlockRealizeNode* CopyBlockRealize(const BlockRealizeNode* op) {
  auto* node = new BlockRealizeNode();
  node->span = op->span;
  node->iter_values = op->iter_values;
  node->predicate = op->predicate;
  node->block = op->block;
  return node;
}

AllocateNode* CopyAllocate(const AllocateNode* op) {
  auto* node = new AllocateNode();
  node->span = op->span;
  node->buffer_var = op->buffer_var;
  node->dtype = op->dtype;
  node->extents = op->extents;
  node->condition = op->condition;
  node->body = op->body;
  node->annotations = op->annotations;
  return node;
}

// Wraps a freshly built statement, giving it `span`.
template <typename T>
Stmt WithSpan(T* node, const Span& span) {
  node->span = span;
  return Stmt(node);
}

}  // namespace

PrimExpr StmtMutator::VisitPrimExpr(const PrimExpr& expr) { return BufferLoadRemapper(this).VisitExpr(expr); }

Buffer StmtMutator::VisitBuffer(const Buffer& buffer) { return buffer; }

std::vector<PrimExpr> StmtMutator::MutatePrimExprs(const std::vector<PrimExpr>& exprs, bool* changed) {
  std::vector<PrimExpr> out;
  out.reserve(exprs.size());
  for (const PrimExpr& expr : exprs) {
    PrimExpr mutated = VisitPrimExpr(expr);
    if (!mutated.same_as(expr)) *changed = true;
    out.push_back(std::move(mutated));
  }
  return out;
}

std::vector<Buffer> StmtMutator::MutateBuffers(const std::vector<Buffer>& buffers, bool* changed) {
  std::vector<Buffer> out;
  out.reserve(buffers.size());
  for (const Buffer& buffer : buffers) {
    Buffer mutated = VisitBuffer(buffer);
    if (!mutated.same_as(buffer)) *changed = true;
    out.push_back(std::move(mutated));
  }
  return out;
}

PrimExpr StmtMutator::MutateOptional(const PrimExpr& expr, bool* changed) {
  if (!expr.defined()) return expr;
  PrimExpr mutated = VisitPrimExpr(expr);
  if (!mutated.same_as(expr)) *changed = true;
  return mutated;
}

Stmt StmtMutator::MutateOptional(const Stmt& stmt, bool* changed) {
  if (!stmt.defined()) return stmt;
  Stmt mutated = VisitStmt(stmt);
  if (!mutated.same_as(stmt)) *changed = true;
  return mutated;
}

Range StmtMutator::MutateRange(const Range& range, bool* changed) {
  return Range{MutateOptional(range.min, changed), MutateOptional(range.extent, changed)};
}

BufferRegion StmtMutator::MutateBufferRegion(const BufferRegion& region, bool* changed) {
  bool region_changed = false;
  Buffer buffer = VisitBuffer(region->buffer);
  if (!buffer.same_as(region->buffer)) region_changed = true;
  std::vector<Range> ranges;
  ranges.reserve(region->region.size());
  for (const Range& range : region->region) ranges.push_back(MutateRange(range, &region_changed));
  if (!region_changed) return region;
  *changed = true;
  return make<BufferRegionNode>(std::move(buffer), std::move(ranges));
}

std::vector<BufferRegion> StmtMutator::MutateBufferRegions(const std::vector<BufferRegion>& regions,
                                                          bool* changed) {
  std::vector<BufferRegion> out;
  out.reserve(regions.size());
  for (const BufferRegion& region : regions) out.push_back(MutateBufferRegion(region, changed));
  return out;
}

Stmt StmtMutator::VisitStmt_(const ForNode* op, const Stmt& self) {
  bool changed = false;
  PrimExpr min = MutateOptional(op->min, &changed);
  PrimExpr extent = MutateOptional(op->extent, &changed);
  PrimExpr step = MutateOptional(op->step, &changed);
  Stmt body = MutateOptional(op->body, &changed);
  if (!changed) return self;
  ForNode* node = CopyFor(op);
  node->min = std::move(min);
  node->extent = std::move(extent);
  node->step = std::move(step);
  node->body = std::move(body);
  return Stmt(node);
}

Stmt StmtMutator::VisitStmt_(const BlockNode* op, const Stmt& self) {
  bool changed = false;
  std::vector<IterVar> iter_vars;
  for (const IterVar& iter_var : op->iter_vars) {
    bool dom_changed = false;
    Range dom = MutateRange(iter_var->dom, &dom_changed);
    iter_vars.push_back(dom_changed ? make<IterVarNode>(iter_var->var, dom, iter_var->iter_kind) : iter_var);
    changed |= dom_changed;
  }
  std::vector<BufferRegion> reads = MutateBufferRegions(op->reads, &changed);
  std::vector<BufferRegion> writes = MutateBufferRegions(op->writes, &changed);
  std::vector<MatchBufferRegion> match_buffers;
  for (const MatchBufferRegion& match : op->match_buffers) {
    bool match_changed = false;
    BufferRegion source = MutateBufferRegion(match->source, &match_changed);
    Buffer buffer = VisitBuffer(match->buffer);
    match_changed |= !buffer.same_as(match->buffer);
    match_buffers.push_back(match_changed ? make<MatchBufferRegionNode>(buffer, source) : match);
    changed |= match_changed;
  }
  std::vector<Buffer> alloc_buffers = MutateBuffers(op->alloc_buffers, &changed);
  Stmt init = MutateOptional(op->init, &changed);
  Stmt body = MutateOptional(op->body, &changed);
  if (!changed) return self;
  BlockNode* node = CopyBlock(op);
  node->iter_vars = std::move(iter_vars);
  node->reads = std::move(reads);
  node->writes = std::move(writes);
  node->match_buffers = std::move(match_buffers);
  node->alloc_buffers = std::move(alloc_buffers);
  node->init = std::move(init);
  node->body = std::move(body);
  return Stmt(node);
}

Stmt StmtMutator::VisitStmt_(const BlockRealizeNode* op, const Stmt& self) {
  bool changed = false;
  std::vector<PrimExpr> iter_values = MutatePrimExprs(op->iter_values, &changed);
  PrimExpr predicate = MutateOptional(op->predicate, &changed);
  Stmt block = MutateOptional(Stmt(op->block), &changed);
  if (!changed) return self;
  RLX_ICHECK(block.isa<BlockNode>()) << "a BlockRealize's block was mutated into a "
                                     << NodeKindName(block->kind());
  BlockRealizeNode* node = CopyBlockRealize(op);
  node->iter_values = std::move(iter_values);
  node->predicate = std::move(predicate);
  node->block = cast<BlockNode>(block);
  return Stmt(node);
}

Stmt StmtMutator::VisitStmt_(const BufferStoreNode* op, const Stmt& self) {
  bool changed = false;
  Buffer buffer = VisitBuffer(op->buffer);
  changed |= !buffer.same_as(op->buffer);
  PrimExpr value = MutateOptional(op->value, &changed);
  std::vector<PrimExpr> indices = MutatePrimExprs(op->indices, &changed);
  if (!changed) return self;
  return WithSpan(new BufferStoreNode(std::move(buffer), std::move(value), std::move(indices)), op->span);
}

Stmt StmtMutator::VisitStmt_(const SeqStmtNode* op, const Stmt& self) {
  bool changed = false;
  std::vector<Stmt> seq;
  seq.reserve(op->seq.size());
  for (const Stmt& stmt : op->seq) seq.push_back(MutateOptional(stmt, &changed));
  if (!changed) return self;
  return WithSpan(new SeqStmtNode(std::move(seq)), op->span);
}

Stmt StmtMutator::VisitStmt_(const IfThenElseNode* op, const Stmt& self) {
  bool changed = false;
  PrimExpr condition = MutateOptional(op->condition, &changed);
  Stmt then_case = MutateOptional(op->then_case, &changed);
  Stmt else_case = MutateOptional(op->else_case, &changed);
  if (!changed) return self;
  return WithSpan(new IfThenElseNode(std::move(condition), std::move(then_case), std::move(else_case)), op->span);
}

Stmt StmtMutator::VisitStmt_(const WhileNode* op, const Stmt& self) {
  bool changed = false;
  PrimExpr condition = MutateOptional(op->condition, &changed);
  Stmt body = MutateOptional(op->body, &changed);
  if (!changed) return self;
  return WithSpan(new WhileNode(std::move(condition), std::move(body)), op->span);
}

Stmt StmtMutator::VisitStmt_(const LetStmtNode* op, const Stmt& self) {
  bool changed = false;
  PrimExpr value = MutateOptional(op->value, &changed);
  Stmt body = MutateOptional(op->body, &changed);
  if (!changed) return self;
  return WithSpan(new LetStmtNode(op->var, std::move(value), std::move(body)), op->span);
}

Stmt StmtMutator::VisitStmt_(const AttrStmtNode* op, const Stmt& self) {
  bool changed = false;
  PrimExpr value = MutateOptional(op->value, &changed);
  Stmt body = MutateOptional(op->body, &changed);
  if (!changed) return self;
  return WithSpan(new AttrStmtNode(op->node, op->attr_key, std::move(value), std::move(body)), op->span);
}

Stmt StmtMutator::VisitStmt_(const EvaluateNode* op, const Stmt& self) {
  bool changed = false;
  PrimExpr value = MutateOptional(op->value, &changed);
  if (!changed) return self;
  return WithSpan(new EvaluateNode(std::move(value)), op->span);
}

Stmt StmtMutator::VisitStmt_(const AssertStmtNode* op, const Stmt& self) {
  bool changed = false;
  PrimExpr condition = MutateOptional(op->condition, &changed);
  PrimExpr message = MutateOptional(op->message, &changed);
  Stmt body = MutateOptional(op->body, &changed);
  if (!changed) return self;
  return WithSpan(new AssertStmtNode(std::move(condition), std::move(message), std::move(body)), op->span);
}

Stmt StmtMutator::VisitStmt_(const AllocateNode* op, const Stmt& self) {
  bool changed = false;
  std::vector<PrimExpr> extents = MutatePrimExprs(op->extents, &changed);
  PrimExpr condition = MutateOptional(op->condition, &changed);
  Stmt body = MutateOptional(op->body, &changed);
  if (!changed) return self;
  AllocateNode* node = CopyAllocate(op);
  node->extents = std::move(extents);
  node->condition = std::move(condition);
  node->body = std::move(body);
  return Stmt(node);
}

Stmt StmtMutator::VisitStmt_(const DeclBufferNode* op, const Stmt& self) {
  bool changed = false;
  Buffer buffer = VisitBuffer(op->buffer);
  changed |= !buffer.same_as(op->buffer);
  Stmt body = MutateOptional(op->body, &changed);
  if (!changed) return self;
  return WithSpan(new DeclBufferNode(std::move(buffer), std::move(body)), op->span);
}

// ================================================================ helpers

namespace {

class PostOrderStmtVisitor : public StmtVisitor {
 public:
  explicit PostOrderStmtVisitor(const std::function<void(const ObjectRef&)>& fvisit) : fvisit_(fvisit) {}

  void VisitStmt(const Stmt& stmt) override {
    StmtVisitor::VisitStmt(stmt);
    fvisit_(stmt);
  }
  void VisitPrimExpr(const PrimExpr& expr) override {
    ir::PostOrderVisit(expr, [this](const PrimExpr& sub) { fvisit_(sub); });
  }

 private:
  const std::function<void(const ObjectRef&)>& fvisit_;
};

class StmtVarSubstituter : public StmtMutator {
 public:
  explicit StmtVarSubstituter(const std::function<PrimExpr(const Var&)>& vmap) : vmap_(vmap) {}

  PrimExpr VisitPrimExpr(const PrimExpr& expr) override { return ir::Substitute(expr, vmap_); }

 private:
  const std::function<PrimExpr(const Var&)>& vmap_;
};

}  // namespace

void PostOrderVisit(const Stmt& stmt, const std::function<void(const ObjectRef&)>& fvisit) {
  PostOrderStmtVisitor(fvisit).VisitStmt(stmt);
}

Stmt Substitute(const Stmt& stmt, const std::function<PrimExpr(const Var&)>& vmap) {
  return StmtVarSubstituter(vmap).VisitStmt(stmt);
}

}  // namespace rlx::tir
