// Helpers shared by the TIR lowering passes; see transform_util.h.
#include "tir/transform/transform_util.h"

#include <algorithm>

#include "rlx/ir/functor.h"

namespace rlx::tir::transform_detail {

PrimFunc WithBody(const PrimFunc& func, Stmt body) {
  if (body.same_as(func->body)) return func;
  auto* node = new PrimFuncNode();
  node->params = func->params;
  node->buffer_map = func->buffer_map;
  node->body = std::move(body);
  node->ret_type = func->ret_type;
  node->attrs = func->attrs;
  node->is_private = func->is_private;
  node->span = func->span;
  return PrimFunc(node);
}

Stmt FuseIntoParallelLoop(const std::vector<const ForNode*>& loops, size_t first, size_t last, Stmt body) {
  DataType dtype = loops[first]->loop_var->dtype;
  auto as_dtype = [&](const PrimExpr& e) { return e->dtype == dtype ? e : ir::cast(dtype, e); };
  Var fused = ir::MakeVar("fused", dtype);
  PrimExpr stride = ir::MakeInt(1, dtype);
  for (size_t j = last + 1; j-- > first;) {
    const ForNode* loop = loops[j];
    PrimExpr extent = as_dtype(loop->extent);
    if (!ir::AsConstInt(extent)) extent = ir::max(extent, ir::MakeInt(0, dtype));
    PrimExpr index = ir::IsConstInt(stride, 1) ? PrimExpr(fused) : ir::floordiv(fused, stride);
    if (j > first) index = ir::floormod(index, extent);
    PrimExpr min = as_dtype(loop->min);
    PrimExpr value = ir::IsConstInt(min, 0) ? index : min + index;
    if (loop->loop_var->dtype != dtype) value = ir::cast(loop->loop_var->dtype, value);
    const ir::VarNode* var = loop->loop_var.get();
    body = Substitute(body, [&](const Var& v) { return v.get() == var ? value : PrimExpr(); });
    stride = ir::IsConstInt(stride, 1) ? extent : stride * extent;
  }
  auto* fused_loop = new ForNode();
  fused_loop->loop_var = fused;
  fused_loop->min = ir::MakeInt(0, dtype);
  fused_loop->extent = stride;
  fused_loop->for_kind = ForKind::kParallel;
  fused_loop->body = std::move(body);
  return Stmt(fused_loop);
}

namespace {

// Rebuilds BufferLoads through the parent's RewriteAccess.
class LoadRewriter : public ir::PrimExprMutator {
 public:
  explicit LoadRewriter(BufferAccessRewriter* parent) : parent_(parent) {}

 protected:
  PrimExpr VisitExpr_(const ir::BufferLoadNode* op, const PrimExpr& self) override {
    bool changed = false;
    std::vector<PrimExpr> indices = MutateArray(op->indices, &changed);
    Buffer buffer = op->buffer;
    if (!parent_->RewriteAccess(&buffer, &indices) && !changed) return self;
    auto* node = new ir::BufferLoadNode(std::move(buffer), std::move(indices));
    node->span = op->span;
    return PrimExpr(node);
  }

 private:
  BufferAccessRewriter* parent_;
};

}  // namespace

PrimExpr BufferAccessRewriter::VisitPrimExpr(const PrimExpr& expr) { return LoadRewriter(this).VisitExpr(expr); }

Stmt BufferAccessRewriter::VisitStmt_(const BufferStoreNode* op, const Stmt& self) {
  bool changed = false;
  PrimExpr value = MutateOptional(op->value, &changed);
  std::vector<PrimExpr> indices = MutatePrimExprs(op->indices, &changed);
  Buffer buffer = op->buffer;
  if (!RewriteAccess(&buffer, &indices) && !changed) return self;
  auto* node = new BufferStoreNode(std::move(buffer), std::move(value), std::move(indices));
  node->span = op->span;
  return Stmt(node);
}

// ---------------------------------------------------------------- index math

namespace {

// Brings a scalar integer to `dtype`'s element type (a no-op when equal).
PrimExpr CastScalar(const PrimExpr& e, DataType element) {
  return e->dtype.element_of() == element ? e : ir::cast(element.with_lanes(e->dtype.lanes()), e);
}

DataType WiderIndexType(const PrimExpr& a, const PrimExpr& b) {
  DataType ta = a->dtype.element_of(), tb = b->dtype.element_of();
  return ta.bits() >= tb.bits() ? ta : tb;
}

// A Broadcast of a scalar to `lanes` (identity for lanes == 1).
PrimExpr Splat(const PrimExpr& scalar, int lanes) {
  return lanes == 1 ? scalar : PrimExpr(make<ir::BroadcastNode>(scalar, lanes));
}

// `e` with every element cast to `element`, keeping Ramp/Broadcast form.
PrimExpr CastIndex(const PrimExpr& e, DataType element) {
  if (e->dtype.element_of() == element) return e;
  if (const auto* ramp = e.as<ir::RampNode>()) {
    return make<ir::RampNode>(CastScalar(ramp->base, element), CastScalar(ramp->stride, element), ramp->lanes);
  }
  if (const auto* bcast = e.as<ir::BroadcastNode>()) return Splat(CastScalar(bcast->value, element), bcast->lanes);
  return CastScalar(e, element);
}

int LanesOf(const PrimExpr& a, const PrimExpr& b) { return std::max(a->dtype.lanes(), b->dtype.lanes()); }

}  // namespace

PrimExpr IndexAdd(PrimExpr a, PrimExpr b) {
  DataType element = WiderIndexType(a, b);
  a = CastIndex(a, element);
  b = CastIndex(b, element);
  int lanes = LanesOf(a, b);
  if (lanes == 1) return ir::add(a, b);
  if (a->dtype.lanes() == 1) std::swap(a, b);  // the vector operand first
  const auto* ramp_a = a.as<ir::RampNode>();
  if (ramp_a && b->dtype.lanes() == 1) return make<ir::RampNode>(ir::add(ramp_a->base, b), ramp_a->stride, lanes);
  if (const auto* bc_a = a.as<ir::BroadcastNode>(); bc_a && b->dtype.lanes() == 1) {
    return Splat(ir::add(bc_a->value, b), lanes);
  }
  const auto* ramp_b = b.as<ir::RampNode>();
  if (ramp_a && ramp_b) {
    return make<ir::RampNode>(ir::add(ramp_a->base, ramp_b->base), ir::add(ramp_a->stride, ramp_b->stride), lanes);
  }
  const auto* bc_b = b.as<ir::BroadcastNode>();
  if (ramp_a && bc_b) return make<ir::RampNode>(ir::add(ramp_a->base, bc_b->value), ramp_a->stride, lanes);
  if (b->dtype.lanes() == 1) b = Splat(b, lanes);
  return ir::add(a, b);
}

PrimExpr IndexMul(PrimExpr a, PrimExpr b) {
  DataType element = WiderIndexType(a, b);
  a = CastIndex(a, element);
  b = CastIndex(b, element);
  int lanes = LanesOf(a, b);
  if (lanes == 1) return ir::mul(a, b);
  if (a->dtype.lanes() == 1) std::swap(a, b);
  PrimExpr scalar_b = b->dtype.lanes() == 1 ? b : PrimExpr();
  if (const auto* bc_b = b.as<ir::BroadcastNode>()) scalar_b = bc_b->value;
  if (scalar_b.defined()) {
    if (const auto* ramp = a.as<ir::RampNode>()) {
      return make<ir::RampNode>(ir::mul(ramp->base, scalar_b), ir::mul(ramp->stride, scalar_b), lanes);
    }
    if (const auto* bc_a = a.as<ir::BroadcastNode>()) return Splat(ir::mul(bc_a->value, scalar_b), lanes);
  }
  if (b->dtype.lanes() == 1) b = Splat(b, lanes);
  return ir::mul(a, b);
}

}  // namespace rlx::tir::transform_detail
