// The simplifier (private to arith): canonical form for integer expressions,
// rewrite rules for everything else.
//
// Integer scalar expressions go through ToSum, which turns each node into a
// SumForm (sum_form.h) bottom-up: + - * are polynomial arithmetic; division,
// min/max, select, cast and calls become atoms after their own rules have had
// a chance to remove them (simplify_int.cc). Bool, float and vector
// expressions are rewritten node by node (simplify_rewrite.cc): constant
// folding, comparisons decided by bounds and normalized through the
// difference of their sides, logic identities, x * 1 and x + 0 for floats.
//
// A Simplifier lives for one public call: it caches the bounds of atoms and
// the canonical forms of atom-like and shared nodes it meets (by node
// identity, holding the nodes), which keeps nested and DAG-shaped
// expressions linear.
#pragma once

#include <optional>
#include <unordered_map>

#include "arith/facts.h"
#include "arith/sum_form.h"

namespace rlx::arith::detail {

class Simplifier {
 public:
  Simplifier(const Facts& facts, ExprOrder& order) : facts_(facts), alg_(order) {}

  ir::PrimExpr Simplify(const ir::PrimExpr& e);
  // The canonical form of an integer scalar expression.
  SumForm ToSum(const ir::PrimExpr& e);
  ConstIntBound SumBounds(const SumForm& form);
  ModularSet SumModular(const SumForm& form);
  // Sound bounds of a difference, also trying c * (x // c) = x - x % c.
  ConstIntBound DiffBounds(const SumForm& diff);
  SumAlgebra& algebra() { return alg_; }

  // `cmp(a, b)` for integer forms a, b: True/False when decided, else the
  // normalized comparison. kind is one of EQ NE LT LE GT GE.
  ir::PrimExpr CompareInt(NodeKind kind, const SumForm& a, const SumForm& b);

 private:
  // ---- integer canonical form (simplify_int.cc)
  SumForm ToSumUnchecked(const ir::PrimExpr& e);
  SumForm VarToSum(const ir::PrimExpr& e);
  // An atom, or its constant value when its bounds pin it down.
  SumForm AtomOf(const ir::PrimExpr& atom);
  SumForm MergeDivMod(const SumForm& form);
  SumForm DivisionToSum(NodeKind kind, const SumForm& x, const SumForm& y);
  SumForm FloorDivConst(const SumForm& x, int64_t c);
  SumForm FloorDivRest(const SumForm& rest, int64_t c);
  SumForm FloorModConst(const SumForm& x, int64_t c);
  SumForm FloorModRest(const SumForm& rest, int64_t c);
  SumForm TruncDivConst(const SumForm& x, int64_t c);
  SumForm TruncModConst(const SumForm& x, int64_t c);
  SumForm MinMaxToSum(NodeKind kind, const SumForm& a, const SumForm& b);
  std::optional<SumForm> MinMaxAbsorb(NodeKind kind, const SumForm& a, const SumForm& b);
  SumForm SelectToSum(const ir::SelectNode* op);
  SumForm CastToSum(const ir::CastNode* op);
  SumForm LetToSum(const ir::LetNode* op);
  SumForm CallToSum(const ir::CallNode* op, const ir::PrimExpr& self);
  // x == c * quotient + rest, 0 <= rest.constant < c, no rest term divisible by c.
  SumForm SplitByDivisor(const SumForm& x, int64_t c, SumForm* rest);
  ConstIntBound AtomBound(const ir::PrimExpr& atom);

  // ---- everything else (simplify_rewrite.cc)
  ir::PrimExpr Rewrite(const ir::PrimExpr& e);
  ir::PrimExpr MapChildren(const ir::PrimExpr& e);
  ir::PrimExpr VarValue(const ir::PrimExpr& e);
  ir::PrimExpr RewriteArith(const ir::BinaryNode* op, const ir::PrimExpr& self);
  ir::PrimExpr RewriteCompare(const ir::BinaryNode* op, const ir::PrimExpr& self);
  ir::PrimExpr RewriteAndOr(const ir::BinaryNode* op, const ir::PrimExpr& self);
  ir::PrimExpr RewriteNot(const ir::NotNode* op, const ir::PrimExpr& self);
  ir::PrimExpr RewriteSelect(const ir::SelectNode* op, const ir::PrimExpr& self);
  ir::PrimExpr RewriteCast(const ir::CastNode* op, const ir::PrimExpr& self);
  ir::PrimExpr RewriteCall(const ir::CallNode* op, const ir::PrimExpr& self);
  std::optional<bool> DecideInt(NodeKind kind, const SumForm& diff);
  ir::PrimExpr BuildComparison(NodeKind kind, const SumForm& diff);
  // Whether b is provably the negation of a (both simplified).
  bool IsNegation(const ir::PrimExpr& a, const ir::PrimExpr& b);

  const Facts& facts_;
  SumAlgebra alg_;
  int substitution_depth_ = 0;  // inside a bound value: no further substitution
  AnalysisCache analysis_cache_;
  std::unordered_map<const ir::PrimExprNode*, std::pair<ir::PrimExpr, SumForm>> sum_cache_;
};

}  // namespace rlx::arith::detail
