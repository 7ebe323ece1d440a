// Visitor and mutator for PrimExpr trees.
//
// PrimExprFunctor<R(const PrimExpr&, Args...)> dispatches on the node kind
// with a switch generated from RLX_PRIM_EXPR_NODES; a subclass overrides
// Visit<Node>_ for the nodes it cares about. PrimExprVisitor walks every
// child; PrimExprMutator rebuilds a node only when a child changed, so a
// mutator that changes nothing returns the very same nodes.
#pragma once

#include <functional>
#include <vector>

#include "rlx/ir/expr.h"

namespace rlx::ir {

template <typename FType>
class PrimExprFunctor;

template <typename R, typename... Args>
class PrimExprFunctor<R(const PrimExpr&, Args...)> {
 public:
  virtual ~PrimExprFunctor() = default;

  virtual R VisitExpr(const PrimExpr& expr, Args... args) {
    switch (expr->kind()) {
#define RLX_DISPATCH(Name)    \
  case NodeKind::kPrim##Name: \
    return VisitExpr_(static_cast<const Name##Node*>(expr.get()), expr, args...);
      RLX_PRIM_EXPR_NODES(RLX_DISPATCH)
#undef RLX_DISPATCH
      default:
        RLX_UNREACHABLE() << "not a PrimExpr: " << NodeKindName(expr->kind());
    }
  }

 protected:
#define RLX_DECLARE_VISIT(Name) \
  virtual R VisitExpr_(const Name##Node* op, const PrimExpr& self, Args... args) = 0;
  RLX_PRIM_EXPR_NODES(RLX_DECLARE_VISIT)
#undef RLX_DECLARE_VISIT
};

// Walks every sub-expression (buffer shapes are not visited by default).
class PrimExprVisitor : public PrimExprFunctor<void(const PrimExpr&)> {
 protected:
#define RLX_DECLARE_VISIT(Name) void VisitExpr_(const Name##Node* op, const PrimExpr& self) override;
  RLX_PRIM_EXPR_NODES(RLX_DECLARE_VISIT)
#undef RLX_DECLARE_VISIT
};

// Rebuilds nodes bottom-up; returns `self` when nothing below changed.
class PrimExprMutator : public PrimExprFunctor<PrimExpr(const PrimExpr&)> {
 protected:
#define RLX_DECLARE_VISIT(Name) PrimExpr VisitExpr_(const Name##Node* op, const PrimExpr& self) override;
  RLX_PRIM_EXPR_NODES(RLX_DECLARE_VISIT)
#undef RLX_DECLARE_VISIT

  // Mutates each element; `changed` is set if any element changed.
  std::vector<PrimExpr> MutateArray(const std::vector<PrimExpr>& exprs, bool* changed);
};

// Calls `fvisit` on every sub-expression in post-order.
void PostOrderVisit(const PrimExpr& expr, const std::function<void(const PrimExpr&)>& fvisit);

// Replaces variables by the map's values (identity-keyed); others unchanged.
PrimExpr Substitute(const PrimExpr& expr, const std::function<PrimExpr(const Var&)>& vmap);

}  // namespace rlx::ir
