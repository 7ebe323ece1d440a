// The Analyzer facade: owns the facts and the atom order, and answers each
// query with a fresh Simplifier (simplifier.h) over them.
//
// Facts (AddConstraint) are read off comparisons after simplification:
// `coeff * v + k  (<, <=, ==)  0` for a variable v gives a range; `v % c == r`
// (floormod) and `truncmod(v, c) == 0` give a modular set. Anything else
// (or, not, relations between two variables) is ignored, which is always
// sound: a fact not recorded only makes the analyzer prove less.
//
// CanProve simplifies the condition (comparisons are decided there by bounds
// and modular sets) and splits and/or. It never answers true for a condition
// that can be false under the recorded facts; facts that contradict each
// other make every condition vacuously provable.
#include "rlx/arith/analyzer.h"

#include "arith/expr_order.h"
#include "arith/facts.h"
#include "arith/int_math.h"
#include "arith/simplifier.h"

namespace rlx::arith {

using detail::Facts;
using detail::Simplifier;
using detail::SumForm;

struct Analyzer::Impl {
  Facts facts;
  detail::ExprOrder order;

  Simplifier NewSimplifier() { return Simplifier(facts, order); }
  void AddComparisonFact(NodeKind kind, const PrimExpr& a, const PrimExpr& b);
  void AddLinearFact(NodeKind kind, const detail::Term& term, int64_t constant);
  void AddModularFact(const detail::Term& term, int64_t constant);
};

Analyzer::Analyzer() : impl_(std::make_unique<Impl>()) {}
Analyzer::~Analyzer() = default;

void Analyzer::Bind(const Var& var, int64_t min_value, int64_t max_value) {
  detail::VarFact& fact = impl_->facts.Get(var);
  fact.bound = detail::Intersect(fact.bound, detail::MakeBound(min_value, max_value));
}

void Analyzer::Bind(const Var& var, const PrimExpr& value) {
  PrimExpr simplified = Simplify(ir::cast(var->dtype, value));
  ConstIntBound bound = ConstBounds(simplified);
  ModularSet modular = Modular(simplified);
  detail::VarFact& fact = impl_->facts.Get(var);
  fact.value = simplified;
  fact.bound = detail::Intersect(fact.bound, bound);
  if (modular.coeff == 0 || modular.coeff > fact.modular.coeff) fact.modular = modular;
}

void Analyzer::AddConstraint(const PrimExpr& condition) {
  if (const auto* op = condition.as<ir::AndNode>()) {
    AddConstraint(op->a);
    AddConstraint(op->b);
    return;
  }
  PrimExpr simplified = Simplify(condition);
  if (const auto* op = simplified.as<ir::AndNode>()) {
    AddConstraint(op->a);
    AddConstraint(op->b);
    return;
  }
  const auto* cmp = simplified.as<ir::BinaryNode>();
  NodeKind kind = simplified->kind();
  if (cmp == nullptr || kind < NodeKind::kPrimEQ || kind > NodeKind::kPrimGE) return;
  if (!detail::IsScalarInt(cmp->a->dtype)) return;
  impl_->AddComparisonFact(kind, cmp->a, cmp->b);
}

// Records what `a kind b` says when a - b is `coeff * atom + k`.
void Analyzer::Impl::AddComparisonFact(NodeKind kind, const PrimExpr& a, const PrimExpr& b) {
  Simplifier simplifier = NewSimplifier();
  SumForm diff;
  try {
    diff = simplifier.algebra().Sub(simplifier.ToSum(a), simplifier.ToSum(b));
    if (kind == NodeKind::kPrimGT || kind == NodeKind::kPrimGE) {
      diff = simplifier.algebra().Neg(diff);
      kind = kind == NodeKind::kPrimGT ? NodeKind::kPrimLT : NodeKind::kPrimLE;
    }
  } catch (const detail::OverflowError&) {
    return;
  }
  if (diff.terms.size() != 1 || diff.terms[0].atoms.size() != 1) return;
  if (kind == NodeKind::kPrimEQ) AddModularFact(diff.terms[0], diff.constant);
  AddLinearFact(kind, diff.terms[0], diff.constant);
}

// coeff * v + k (<, <=, ==) 0 for a variable v.
void Analyzer::Impl::AddLinearFact(NodeKind kind, const detail::Term& term, int64_t constant) {
  const auto* var = term.atoms[0].as<ir::VarNode>();
  if (var == nullptr || kind == NodeKind::kPrimNE) return;
  detail::int128 coeff = term.coeff;
  detail::int128 limit = -static_cast<detail::int128>(constant);  // coeff * v (kind) limit
  if (kind == NodeKind::kPrimLT) limit -= 1;
  ConstIntBound bound;
  if (kind == NodeKind::kPrimEQ) {
    if (limit % coeff != 0) return;  // no integer solution; record nothing
    bound.min_value = bound.max_value = detail::Saturate(limit / coeff);
  } else if (coeff > 0) {
    bound.max_value = detail::Saturate(detail::FloorDiv128(limit, coeff));
  } else {
    bound.min_value = detail::Saturate(-detail::FloorDiv128(-limit, coeff));  // ceil(limit / coeff)
  }
  detail::VarFact& fact = facts.Get(cast<ir::VarNode>(term.atoms[0]));
  fact.bound = detail::Intersect(fact.bound, bound);
}

// x % c == r (floormod, 0 <= r < c) or truncmod(x, c) == 0 for a variable x.
void Analyzer::Impl::AddModularFact(const detail::Term& term, int64_t constant) {
  if (term.coeff != 1 && term.coeff != -1) return;
  const auto* mod = term.atoms[0].as<ir::BinaryNode>();
  if (mod == nullptr || !mod->a.isa<ir::VarNode>()) return;
  std::optional<int64_t> c = ir::AsConstInt(mod->b);
  if (!c || *c <= 0 || *c == INT64_MIN) return;
  int64_t r = term.coeff == 1 ? -constant : constant;  // coeff * mod + constant == 0
  bool floor_mod = term.atoms[0]->kind() == NodeKind::kPrimFloorMod;
  bool trunc_zero = term.atoms[0]->kind() == NodeKind::kPrimMod && r == 0;
  if (!(floor_mod && r >= 0 && r < *c) && !trunc_zero) return;
  detail::VarFact& fact = facts.Get(cast<ir::VarNode>(mod->a));
  if (fact.modular.coeff != 0 && *c > fact.modular.coeff) fact.modular = ModularSet{*c, r};
}

PrimExpr Analyzer::Simplify(const PrimExpr& expr) {
  PrimExpr result = impl_->NewSimplifier().Simplify(expr);
  // Keep the caller's node when nothing changed structurally.
  return impl_->order.Equal(result, expr) ? expr : result;
}

bool Analyzer::CanProve(const PrimExpr& condition) {
  PrimExpr simplified = Simplify(condition);
  if (std::optional<int64_t> c = ir::AsConstInt(simplified)) return *c != 0;
  if (const auto* op = simplified.as<ir::AndNode>()) return CanProve(op->a) && CanProve(op->b);
  if (const auto* op = simplified.as<ir::OrNode>()) return CanProve(op->a) || CanProve(op->b);
  return false;
}

bool Analyzer::CanProveEqual(const PrimExpr& a, const PrimExpr& b) {
  if (detail::IsScalarInt(a->dtype) && detail::IsScalarInt(b->dtype)) {
    ConstIntBound diff = ConstBounds(ir::sub(a, b));
    return diff.min_value == 0 && diff.max_value == 0;
  }
  return impl_->order.Equal(Simplify(a), Simplify(b));
}

bool Analyzer::CanProveLess(const PrimExpr& a, const PrimExpr& b) { return CanProve(ir::lt(a, b)); }
bool Analyzer::CanProveLessEqual(const PrimExpr& a, const PrimExpr& b) { return CanProve(ir::le(a, b)); }
bool Analyzer::CanProveGreaterEqual(const PrimExpr& a, int64_t value) {
  return CanProve(ir::ge(a, ir::MakeInt(value, a->dtype)));
}

ConstIntBound Analyzer::ConstBounds(const PrimExpr& expr) {
  DataType t = expr->dtype;
  if (t.lanes() != 1 || !(t.is_integer() || t.is_bool())) return ConstIntBound{};
  Simplifier simplifier = impl_->NewSimplifier();
  detail::AnalysisCache cache;
  ConstIntBound raw = detail::ComputeConstIntBound(expr, impl_->facts, &cache);
  ConstIntBound simplified;
  if (detail::IsScalarInt(t)) {
    simplified = simplifier.DiffBounds(simplifier.ToSum(expr));
  } else {
    simplified = detail::ComputeConstIntBound(simplifier.Simplify(expr), impl_->facts);
  }
  ConstIntBound both = detail::Intersect(raw, simplified);
  return detail::IsEmpty(both) ? simplified : both;
}

ModularSet Analyzer::Modular(const PrimExpr& expr) {
  if (!detail::IsScalarInt(expr->dtype)) return ModularSet{};
  Simplifier simplifier = impl_->NewSimplifier();
  return simplifier.SumModular(simplifier.ToSum(expr));
}

}  // namespace rlx::arith
