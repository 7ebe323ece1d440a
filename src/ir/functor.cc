#include "rlx/ir/functor.h"

namespace rlx::ir {

// ---------------------------------------------------------------- visitor

void PrimExprVisitor::VisitExpr_(const IntImmNode*, const PrimExpr&) {}
void PrimExprVisitor::VisitExpr_(const FloatImmNode*, const PrimExpr&) {}
void PrimExprVisitor::VisitExpr_(const StringImmNode*, const PrimExpr&) {}
void PrimExprVisitor::VisitExpr_(const VarNode*, const PrimExpr&) {}

#define RLX_VISIT_BINARY(Name)                                              \
  void PrimExprVisitor::VisitExpr_(const Name##Node* op, const PrimExpr&) { \
    VisitExpr(op->a);                                                       \
    VisitExpr(op->b);                                                       \
  }
RLX_VISIT_BINARY(Add)
RLX_VISIT_BINARY(Sub)
RLX_VISIT_BINARY(Mul)
RLX_VISIT_BINARY(Div)
RLX_VISIT_BINARY(Mod)
RLX_VISIT_BINARY(FloorDiv)
RLX_VISIT_BINARY(FloorMod)
RLX_VISIT_BINARY(Min)
RLX_VISIT_BINARY(Max)
RLX_VISIT_BINARY(EQ)
RLX_VISIT_BINARY(NE)
RLX_VISIT_BINARY(LT)
RLX_VISIT_BINARY(LE)
RLX_VISIT_BINARY(GT)
RLX_VISIT_BINARY(GE)
RLX_VISIT_BINARY(And)
RLX_VISIT_BINARY(Or)
#undef RLX_VISIT_BINARY

void PrimExprVisitor::VisitExpr_(const NotNode* op, const PrimExpr&) { VisitExpr(op->a); }
void PrimExprVisitor::VisitExpr_(const SelectNode* op, const PrimExpr&) {
  VisitExpr(op->condition);
  VisitExpr(op->true_value);
  VisitExpr(op->false_value);
}
void PrimExprVisitor::VisitExpr_(const CastNode* op, const PrimExpr&) { VisitExpr(op->value); }
void PrimExprVisitor::VisitExpr_(const LetNode* op, const PrimExpr&) {
  VisitExpr(op->var);
  VisitExpr(op->value);
  VisitExpr(op->body);
}
void PrimExprVisitor::VisitExpr_(const CallNode* op, const PrimExpr&) {
  for (const PrimExpr& arg : op->args) VisitExpr(arg);
}
void PrimExprVisitor::VisitExpr_(const BufferLoadNode* op, const PrimExpr&) {
  for (const PrimExpr& index : op->indices) VisitExpr(index);
}
void PrimExprVisitor::VisitExpr_(const RampNode* op, const PrimExpr&) {
  VisitExpr(op->base);
  VisitExpr(op->stride);
}
void PrimExprVisitor::VisitExpr_(const BroadcastNode* op, const PrimExpr&) { VisitExpr(op->value); }

// ---------------------------------------------------------------- mutator

std::vector<PrimExpr> PrimExprMutator::MutateArray(const std::vector<PrimExpr>& exprs, bool* changed) {
  std::vector<PrimExpr> out;
  out.reserve(exprs.size());
  for (const PrimExpr& e : exprs) {
    PrimExpr m = VisitExpr(e);
    if (!m.same_as(e)) *changed = true;
    out.push_back(std::move(m));
  }
  return out;
}

PrimExpr PrimExprMutator::VisitExpr_(const IntImmNode*, const PrimExpr& self) { return self; }
PrimExpr PrimExprMutator::VisitExpr_(const FloatImmNode*, const PrimExpr& self) { return self; }
PrimExpr PrimExprMutator::VisitExpr_(const StringImmNode*, const PrimExpr& self) { return self; }
PrimExpr PrimExprMutator::VisitExpr_(const VarNode*, const PrimExpr& self) { return self; }

#define RLX_MUTATE_BINARY(Name)                                                        \
  PrimExpr PrimExprMutator::VisitExpr_(const Name##Node* op, const PrimExpr& self) {   \
    PrimExpr a = VisitExpr(op->a);                                                     \
    PrimExpr b = VisitExpr(op->b);                                                     \
    if (a.same_as(op->a) && b.same_as(op->b)) return self;                             \
    return MakeBinary(NodeKind::kPrim##Name, std::move(a), std::move(b));             \
  }
RLX_MUTATE_BINARY(Add)
RLX_MUTATE_BINARY(Sub)
RLX_MUTATE_BINARY(Mul)
RLX_MUTATE_BINARY(Div)
RLX_MUTATE_BINARY(Mod)
RLX_MUTATE_BINARY(FloorDiv)
RLX_MUTATE_BINARY(FloorMod)
RLX_MUTATE_BINARY(Min)
RLX_MUTATE_BINARY(Max)
RLX_MUTATE_BINARY(EQ)
RLX_MUTATE_BINARY(NE)
RLX_MUTATE_BINARY(LT)
RLX_MUTATE_BINARY(LE)
RLX_MUTATE_BINARY(GT)
RLX_MUTATE_BINARY(GE)
RLX_MUTATE_BINARY(And)
RLX_MUTATE_BINARY(Or)
#undef RLX_MUTATE_BINARY

PrimExpr PrimExprMutator::VisitExpr_(const NotNode* op, const PrimExpr& self) {
  PrimExpr a = VisitExpr(op->a);
  return a.same_as(op->a) ? self : logical_not(a);
}
PrimExpr PrimExprMutator::VisitExpr_(const SelectNode* op, const PrimExpr& self) {
  PrimExpr c = VisitExpr(op->condition);
  PrimExpr t = VisitExpr(op->true_value);
  PrimExpr f = VisitExpr(op->false_value);
  if (c.same_as(op->condition) && t.same_as(op->true_value) && f.same_as(op->false_value)) return self;
  return select(c, t, f);
}
PrimExpr PrimExprMutator::VisitExpr_(const CastNode* op, const PrimExpr& self) {
  PrimExpr v = VisitExpr(op->value);
  return v.same_as(op->value) ? self : make<CastNode>(op->dtype, v);
}
PrimExpr PrimExprMutator::VisitExpr_(const LetNode* op, const PrimExpr& self) {
  PrimExpr value = VisitExpr(op->value);
  PrimExpr body = VisitExpr(op->body);
  if (value.same_as(op->value) && body.same_as(op->body)) return self;
  return make<LetNode>(op->var, value, body);
}
PrimExpr PrimExprMutator::VisitExpr_(const CallNode* op, const PrimExpr& self) {
  bool changed = false;
  std::vector<PrimExpr> args = MutateArray(op->args, &changed);
  return changed ? make<CallNode>(op->dtype, op->op, std::move(args)) : self;
}
PrimExpr PrimExprMutator::VisitExpr_(const BufferLoadNode* op, const PrimExpr& self) {
  bool changed = false;
  std::vector<PrimExpr> indices = MutateArray(op->indices, &changed);
  return changed ? make<BufferLoadNode>(op->buffer, std::move(indices)) : self;
}
PrimExpr PrimExprMutator::VisitExpr_(const RampNode* op, const PrimExpr& self) {
  PrimExpr base = VisitExpr(op->base);
  PrimExpr stride = VisitExpr(op->stride);
  if (base.same_as(op->base) && stride.same_as(op->stride)) return self;
  return make<RampNode>(base, stride, op->lanes);
}
PrimExpr PrimExprMutator::VisitExpr_(const BroadcastNode* op, const PrimExpr& self) {
  PrimExpr value = VisitExpr(op->value);
  return value.same_as(op->value) ? self : make<BroadcastNode>(value, op->lanes);
}

// ---------------------------------------------------------------- helpers

namespace {

class PostOrderVisitor : public PrimExprVisitor {
 public:
  explicit PostOrderVisitor(const std::function<void(const PrimExpr&)>& f) : f_(f) {}
  void VisitExpr(const PrimExpr& e) override {
    PrimExprVisitor::VisitExpr(e);
    f_(e);
  }

 private:
  const std::function<void(const PrimExpr&)>& f_;
};

class VarSubstituter : public PrimExprMutator {
 public:
  explicit VarSubstituter(const std::function<PrimExpr(const Var&)>& vmap) : vmap_(vmap) {}

 protected:
  PrimExpr VisitExpr_(const VarNode*, const PrimExpr& self) override {
    PrimExpr mapped = vmap_(cast<VarNode>(self));
    return mapped.defined() ? mapped : self;
  }

 private:
  const std::function<PrimExpr(const Var&)>& vmap_;
};

}  // namespace

void PostOrderVisit(const PrimExpr& expr, const std::function<void(const PrimExpr&)>& fvisit) {
  PostOrderVisitor(fvisit).VisitExpr(expr);
}

PrimExpr Substitute(const PrimExpr& expr, const std::function<PrimExpr(const Var&)>& vmap) {
  return VarSubstituter(vmap).VisitExpr(expr);
}

}  // namespace rlx::ir
