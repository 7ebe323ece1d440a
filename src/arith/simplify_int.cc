// Canonical simplification of integer expressions (see simplifier.h).
//
// ToSum maps each node to a SumForm. The rules beyond polynomial arithmetic,
// each an exact identity over the integers (c, c2 positive constants):
//
//   x // c     x = c*q + r (q from the terms and constant divisible by c):
//              x // c = q + r // c; then r // c is
//                k                   when r's bounds lie within [k*c, k*c + c)
//                (r/g) // (c/g)      when g = gcd(r's coefficients, c) > 1
//                (y + r0*c2) // (c2*c) for r = y // c2 + r0
//   x % c      x % c = r % c; then r % c is
//                r - k*c             when r's bounds lie within [k*c, k*c + c)
//                b % c               when r is always b modulo a multiple of c
//                g * ((r/g) % (c/g)) + r0 % g  for g = gcd(...) as above
//                (y + r0) % c        for r = y % c2 + r0 and c | c2
//   x // -c = (-x) // c,  x % -c = -((-x) % c)
//   truncdiv/truncmod: constants fold (C semantics); otherwise they become
//              floordiv/floormod when x is provably >= 0 (or <= 0, negated)
//   c*(x // c) + x % c = x  (also for truncdiv/truncmod), found in sums
//   min/max    decided when the bounds of a - b have a sign; absorption
//              min(min(x, y), x) = min(x, y), min(max(x, y), x) = x; terms
//              common to both sides are pulled out: min(n + a, n + b) =
//              n + min(a, b). Operands are sorted, so min(a, b) == min(b, a).
//   select     constant conditions pick an arm; equal arms merge; common
//              terms are pulled out like min/max
//   atoms      whose bounds are a single value become that constant
// Division or modulo by zero, or by a non-constant, is never folded (it stays
// an atom of simplified operands); 0 // y and 0 % y are 0.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "arith/int_math.h"
#include "arith/simplifier.h"
#include "rlx/ir/functor.h"

namespace rlx::arith::detail {

using ir::PrimExpr;

namespace {

// The constant divisor of `e` if it is `x // c`-like of `kind` with c > 0.
const ir::BinaryNode* AsDivByPositiveConst(const PrimExpr& e, NodeKind kind) {
  if (!e.defined() || e->kind() != kind) return nullptr;
  const auto* op = e.as<ir::BinaryNode>();
  std::optional<int64_t> c = ir::AsConstInt(op->b);
  return c && *c > 0 ? op : nullptr;
}

int64_t ConstOf(const PrimExpr& e) { return *ir::AsConstInt(e); }

}  // namespace

namespace {

// Whether ToSum results for `e` are worth remembering: nodes shared in a DAG
// (otherwise each path redoes them). Atoms the simplifier creates are seeded
// into the memo by AtomOf, which covers the rules that re-canonicalize an
// atom's operand (x in x // c): without it nested atoms would be redone at
// every level.
bool ShouldMemoize(const PrimExpr& e) {
  switch (e->kind()) {
    case NodeKind::kPrimIntImm:
    case NodeKind::kPrimVar: return false;
    default: return e->use_count() > 1;
  }
}

}  // namespace

SumForm Simplifier::ToSum(const PrimExpr& e) {
  // Inside a bound variable's value no further substitution happens, so
  // results there may differ: never memoized.
  bool memoize = substitution_depth_ == 0 && ShouldMemoize(e);
  if (memoize) {
    auto it = sum_cache_.find(e.get());
    if (it != sum_cache_.end()) return it->second.second;
  }
  SumForm result;
  try {
    result = ToSumUnchecked(e);
  } catch (const OverflowError&) {
    // Coefficients would overflow: keep this node, with simplified operands.
    result = alg_.Atom(MapChildren(e));
  }
  if (memoize) sum_cache_.emplace(e.get(), std::make_pair(e, result));
  return result;
}

SumForm Simplifier::ToSumUnchecked(const PrimExpr& e) {
  RLX_ICHECK(IsScalarInt(e->dtype)) << "ToSum on a non-integer expression " << ir::ToString(e);
  const auto* bin = e.as<ir::BinaryNode>();
  switch (e->kind()) {
    case NodeKind::kPrimIntImm: return alg_.Const(e->dtype, e.as<ir::IntImmNode>()->value);
    case NodeKind::kPrimVar: return VarToSum(e);
    case NodeKind::kPrimAdd: return MergeDivMod(alg_.Add(ToSum(bin->a), ToSum(bin->b)));
    case NodeKind::kPrimSub: return MergeDivMod(alg_.Sub(ToSum(bin->a), ToSum(bin->b)));
    case NodeKind::kPrimMul: return alg_.Mul(ToSum(bin->a), ToSum(bin->b));
    case NodeKind::kPrimDiv:
    case NodeKind::kPrimMod:
    case NodeKind::kPrimFloorDiv:
    case NodeKind::kPrimFloorMod: return DivisionToSum(e->kind(), ToSum(bin->a), ToSum(bin->b));
    case NodeKind::kPrimMin:
    case NodeKind::kPrimMax: return MinMaxToSum(e->kind(), ToSum(bin->a), ToSum(bin->b));
    case NodeKind::kPrimSelect: return SelectToSum(e.as<ir::SelectNode>());
    case NodeKind::kPrimCast: return CastToSum(e.as<ir::CastNode>());
    case NodeKind::kPrimLet: return LetToSum(e.as<ir::LetNode>());
    case NodeKind::kPrimCall: return CallToSum(e.as<ir::CallNode>(), e);
    default: return AtomOf(MapChildren(e));
  }
}

SumForm Simplifier::VarToSum(const PrimExpr& e) {
  const auto* var = e.as<ir::VarNode>();
  const VarFact* fact = facts_.Find(var);
  if (fact && fact->value.defined() && substitution_depth_ == 0) {
    ++substitution_depth_;
    SumForm value = ToSum(fact->value);
    --substitution_depth_;
    return value;
  }
  ConstIntBound bound = facts_.VarBound(var);
  if (bound.is_const() && !IsInf(bound.min_value)) return alg_.Const(e->dtype, bound.min_value);
  return alg_.Atom(e);
}

ConstIntBound Simplifier::AtomBound(const PrimExpr& atom) {
  if (const auto* var = atom.as<ir::VarNode>()) return facts_.VarBound(var);
  return ComputeConstIntBound(atom, facts_, &analysis_cache_);
}

SumForm Simplifier::AtomOf(const PrimExpr& atom) {
  if (std::optional<int64_t> c = ir::AsConstInt(atom)) return alg_.Const(atom->dtype, *c);
  ConstIntBound bound = AtomBound(atom);
  if (bound.is_const() && !IsInf(bound.min_value)) return alg_.Const(atom->dtype, bound.min_value);
  SumForm form = alg_.Atom(atom);
  // A fresh atom is canonical: rules that re-canonicalize it (as an operand
  // of an outer atom) must not redo the work below it.
  if (substitution_depth_ == 0) sum_cache_.emplace(atom.get(), std::make_pair(atom, form));
  return form;
}

// ---------------------------------------------------------------- analyses

ConstIntBound Simplifier::SumBounds(const SumForm& form) {
  ConstIntBound total = MakeBound(form.constant, form.constant);
  for (const Term& term : form.terms) {
    ConstIntBound product = MakeBound(term.coeff, term.coeff);
    for (size_t i = 0; i < term.atoms.size();) {
      size_t j = i + 1;
      while (j < term.atoms.size() && alg_.order().Equal(term.atoms[j], term.atoms[i])) ++j;
      product = BoundsMul(product, BoundsPower(AtomBound(term.atoms[i]), static_cast<int>(j - i)));
      i = j;
    }
    total = BoundsAdd(total, product);
  }
  return total;
}

ModularSet Simplifier::SumModular(const SumForm& form) {
  ModularSet total = ModularConst(form.constant);
  for (const Term& term : form.terms) {
    ModularSet product = ModularConst(term.coeff);
    for (const PrimExpr& atom : term.atoms) product = ModularMul(product, ComputeModularSet(atom, facts_, &analysis_cache_));
    total = ModularAdd(total, product);
  }
  return total;
}

ConstIntBound Simplifier::DiffBounds(const SumForm& diff) {
  ConstIntBound bound = SumBounds(diff);
  // Terms k * (x // c) correlate with x, which interval arithmetic misses.
  // Scale the form by s > 0 so each such coefficient is a multiple of its c,
  // rewrite s*k*(x // c) as (s*k/c) * (x - x % c) (x often cancels), and
  // divide the bounds back: s * diff in [lo, hi] gives diff in
  // [ceil(lo / s), floor(hi / s)].
  constexpr int64_t kMaxScale = int64_t{1} << 20;
  int64_t scale = 1;
  for (const Term& term : diff.terms) {
    if (term.atoms.size() != 1) continue;
    if (const ir::BinaryNode* div = AsDivByPositiveConst(term.atoms[0], NodeKind::kPrimFloorDiv)) {
      int64_t c = ConstOf(div->b);
      int64_t need = c / Gcd(term.coeff, c);
      scale = std::lcm(scale, need);
      if (scale > kMaxScale) return bound;
    }
  }
  try {
    SumForm scaled = alg_.Scale(diff, scale);
    SumForm rewritten = scaled;
    bool changed = false;
    for (const Term& term : scaled.terms) {
      if (term.atoms.size() != 1) continue;
      const ir::BinaryNode* div = AsDivByPositiveConst(term.atoms[0], NodeKind::kPrimFloorDiv);
      if (div == nullptr) continue;
      int64_t c = ConstOf(div->b);
      SumForm x = ToSum(div->a);
      SumForm replacement = alg_.Scale(alg_.Sub(x, FloorModConst(x, c)), term.coeff / c);
      SumForm single = alg_.Const(diff.dtype, 0);
      single.terms.push_back(term);
      rewritten = alg_.Add(alg_.Sub(rewritten, single), replacement);
      changed = true;
    }
    if (!changed) return bound;
    ConstIntBound alt = SumBounds(rewritten);
    if (!IsNegInf(alt.min_value)) alt.min_value = -FloorDivInt(-alt.min_value, scale);  // ceil
    if (!IsPosInf(alt.max_value)) alt.max_value = FloorDivInt(alt.max_value, scale);
    return Intersect(bound, alt);
  } catch (const OverflowError&) {
    return bound;
  }
}

// ---------------------------------------------------------------- sums

SumForm Simplifier::MergeDivMod(const SumForm& form) {
  for (size_t i = 0; i < form.terms.size(); ++i) {
    const Term& mod_term = form.terms[i];
    if (mod_term.atoms.size() != 1) continue;
    const PrimExpr& mod = mod_term.atoms[0];
    NodeKind div_kind = mod->kind() == NodeKind::kPrimFloorMod ? NodeKind::kPrimFloorDiv : NodeKind::kPrimDiv;
    const ir::BinaryNode* mod_op = AsDivByPositiveConst(mod, mod->kind() == NodeKind::kPrimMod
                                                                 ? NodeKind::kPrimMod
                                                                 : NodeKind::kPrimFloorMod);
    if (mod_op == nullptr) continue;
    int64_t c = ConstOf(mod_op->b), div_coeff;
    if (__builtin_mul_overflow(mod_term.coeff, c, &div_coeff)) continue;
    for (size_t j = 0; j < form.terms.size(); ++j) {
      const Term& div_term = form.terms[j];
      if (div_term.atoms.size() != 1 || div_term.coeff != div_coeff) continue;
      const ir::BinaryNode* div_op = AsDivByPositiveConst(div_term.atoms[0], div_kind);
      if (div_op == nullptr || ConstOf(div_op->b) != c || !alg_.order().Equal(div_op->a, mod_op->a)) continue;
      // c*k*(x // c) + k*(x % c) == k*x
      SumForm rest = form;
      rest.terms.erase(rest.terms.begin() + static_cast<std::ptrdiff_t>(std::max(i, j)));
      rest.terms.erase(rest.terms.begin() + static_cast<std::ptrdiff_t>(std::min(i, j)));
      return MergeDivMod(alg_.Add(rest, alg_.Scale(ToSum(mod_op->a), mod_term.coeff)));
    }
  }
  return form;
}

SumForm Simplifier::SplitByDivisor(const SumForm& x, int64_t c, SumForm* rest) {
  SumForm quotient = alg_.Const(x.dtype, FloorDivInt(x.constant, c));
  *rest = alg_.Const(x.dtype, FloorModInt(x.constant, c));
  for (const Term& term : x.terms) {
    if (term.coeff % c == 0) {
      quotient.terms.push_back(Term{term.atoms, term.coeff / c});
    } else {
      rest->terms.push_back(term);
    }
  }
  return quotient;
}

// ---------------------------------------------------------------- division

SumForm Simplifier::DivisionToSum(NodeKind kind, const SumForm& x, const SumForm& y) {
  if (y.IsConst() && y.constant != 0) {
    int64_t c = y.constant;
    switch (kind) {
      case NodeKind::kPrimFloorDiv: return FloorDivConst(x, c);
      case NodeKind::kPrimFloorMod: return FloorModConst(x, c);
      case NodeKind::kPrimDiv: return TruncDivConst(x, c);
      default: return TruncModConst(x, c);
    }
  }
  if (x.IsConst() && x.constant == 0) return x;  // 0 // y == 0 wherever defined
  return AtomOf(ir::MakeBinary(kind, alg_.Rebuild(x), alg_.Rebuild(y)));
}

SumForm Simplifier::FloorDivConst(const SumForm& x, int64_t c) {
  if (x.IsConst()) {
    if (c == -1) return alg_.Const(x.dtype, CheckedNeg(x.constant));
    return alg_.Const(x.dtype, FloorDivInt(x.constant, c));
  }
  if (c < 0) {
    if (c == INT64_MIN) return AtomOf(ir::floordiv(alg_.Rebuild(x), SumAlgebra::MakeConst(c, x.dtype)));
    return FloorDivConst(alg_.Neg(x), -c);  // x // c == (-x) // (-c)
  }
  if (c == 1) return x;
  SumForm rest;
  SumForm quotient = SplitByDivisor(x, c, &rest);
  return alg_.Add(quotient, FloorDivRest(rest, c));
}

SumForm Simplifier::FloorDivRest(const SumForm& rest, int64_t c) {
  if (rest.IsConst()) return alg_.Const(rest.dtype, FloorDivInt(rest.constant, c));
  ConstIntBound bound = SumBounds(rest);
  if (!IsInf(bound.min_value) && !IsInf(bound.max_value)) {
    int64_t k = FloorDivInt(bound.min_value, c);
    if (k == FloorDivInt(bound.max_value, c)) return alg_.Const(rest.dtype, k);
  }
  int64_t g = c;
  for (const Term& term : rest.terms) g = Gcd(g, term.coeff);
  if (g > 1) {
    // (g*y + r) // (g*k) == (y + r // g) // k
    SumForm reduced = alg_.Const(rest.dtype, rest.constant / g);
    for (const Term& term : rest.terms) reduced.terms.push_back(Term{term.atoms, term.coeff / g});
    return c / g == 1 ? reduced : FloorDivRest(reduced, c / g);
  }
  if (rest.terms.size() == 1 && rest.terms[0].coeff == 1 && rest.terms[0].atoms.size() == 1) {
    if (const ir::BinaryNode* inner = AsDivByPositiveConst(rest.terms[0].atoms[0], NodeKind::kPrimFloorDiv)) {
      // (y // c2 + r) // c == (y + r*c2) // (c2*c)
      int64_t c2 = ConstOf(inner->b);
      int64_t product;
      if (!__builtin_mul_overflow(c2, c, &product)) {
        SumForm y = alg_.Add(ToSum(inner->a), alg_.Const(rest.dtype, CheckedMul(rest.constant, c2)));
        return FloorDivConst(y, product);
      }
    }
  }
  return AtomOf(ir::floordiv(alg_.Rebuild(rest), SumAlgebra::MakeConst(c, rest.dtype)));
}

SumForm Simplifier::FloorModConst(const SumForm& x, int64_t c) {
  if (x.IsConst()) return alg_.Const(x.dtype, c == -1 ? 0 : FloorModInt(x.constant, c));
  if (c < 0) {
    if (c == INT64_MIN) return AtomOf(ir::floormod(alg_.Rebuild(x), SumAlgebra::MakeConst(c, x.dtype)));
    return alg_.Neg(FloorModConst(alg_.Neg(x), -c));  // x % c == -((-x) % (-c))
  }
  if (c == 1) return alg_.Const(x.dtype, 0);
  SumForm rest;
  SplitByDivisor(x, c, &rest);
  return FloorModRest(rest, c);
}

SumForm Simplifier::FloorModRest(const SumForm& rest, int64_t c) {
  if (rest.IsConst()) return alg_.Const(rest.dtype, FloorModInt(rest.constant, c));
  ConstIntBound bound = SumBounds(rest);
  if (!IsInf(bound.min_value) && !IsInf(bound.max_value)) {
    int64_t k = FloorDivInt(bound.min_value, c);
    if (k == FloorDivInt(bound.max_value, c)) return alg_.Sub(rest, alg_.Const(rest.dtype, CheckedMul(k, c)));
  }
  ModularSet modular = SumModular(rest);
  if (modular.coeff % c == 0) return alg_.Const(rest.dtype, FloorModInt(modular.base, c));
  int64_t g = c;
  for (const Term& term : rest.terms) g = Gcd(g, term.coeff);
  if (g > 1) {
    // (g*y + r) % (g*k) == g * ((y + r // g) % k) + r % g
    SumForm reduced = alg_.Const(rest.dtype, rest.constant / g);
    for (const Term& term : rest.terms) reduced.terms.push_back(Term{term.atoms, term.coeff / g});
    SumForm inner = c / g == 1 ? alg_.Const(rest.dtype, 0) : FloorModRest(reduced, c / g);
    return alg_.Add(alg_.Scale(inner, g), alg_.Const(rest.dtype, rest.constant % g));
  }
  if (rest.terms.size() == 1 && rest.terms[0].coeff == 1 && rest.terms[0].atoms.size() == 1) {
    const ir::BinaryNode* inner = AsDivByPositiveConst(rest.terms[0].atoms[0], NodeKind::kPrimFloorMod);
    if (inner != nullptr && ConstOf(inner->b) % c == 0) {
      // (y % c2 + r) % c == (y + r) % c when c divides c2
      return FloorModConst(alg_.Add(ToSum(inner->a), alg_.Const(rest.dtype, rest.constant)), c);
    }
  }
  return AtomOf(ir::floormod(alg_.Rebuild(rest), SumAlgebra::MakeConst(c, rest.dtype)));
}

SumForm Simplifier::TruncDivConst(const SumForm& x, int64_t c) {
  if (x.IsConst()) {
    if (c == -1) return alg_.Const(x.dtype, CheckedNeg(x.constant));
    return alg_.Const(x.dtype, x.constant / c);
  }
  if (c == 1) return x;
  if (c == -1) return alg_.Neg(x);
  if (c != INT64_MIN) {
    ConstIntBound bound = SumBounds(x);
    int64_t abs_c = c < 0 ? -c : c;
    // truncdiv(x, c) == sign(c) * truncdiv(x, |c|); for x >= 0 that is x // |c|.
    SumForm sign = alg_.Const(x.dtype, c < 0 ? -1 : 1);
    if (bound.min_value >= 0) return alg_.Mul(sign, FloorDivConst(x, abs_c));
    if (bound.max_value <= 0) return alg_.Mul(sign, alg_.Neg(FloorDivConst(alg_.Neg(x), abs_c)));
    if (ModularIsMultipleOf(SumModular(x), c)) return alg_.Mul(sign, FloorDivConst(x, abs_c));
  }
  return AtomOf(ir::truncdiv(alg_.Rebuild(x), SumAlgebra::MakeConst(c, x.dtype)));
}

SumForm Simplifier::TruncModConst(const SumForm& x, int64_t c) {
  if (c == 1 || c == -1) return alg_.Const(x.dtype, 0);
  if (x.IsConst()) return alg_.Const(x.dtype, x.constant % c);
  if (c != INT64_MIN) {
    // truncmod(x, c) == truncmod(x, |c|): the sign follows x.
    int64_t abs_c = c < 0 ? -c : c;
    ConstIntBound bound = SumBounds(x);
    if (bound.min_value >= 0) return FloorModConst(x, abs_c);
    if (bound.max_value <= 0) return alg_.Neg(FloorModConst(alg_.Neg(x), abs_c));
    if (ModularIsMultipleOf(SumModular(x), c)) return alg_.Const(x.dtype, 0);
  }
  return AtomOf(ir::truncmod(alg_.Rebuild(x), SumAlgebra::MakeConst(c, x.dtype)));
}

// ---------------------------------------------------------------- min / max

std::optional<SumForm> Simplifier::MinMaxAbsorb(NodeKind kind, const SumForm& a, const SumForm& b) {
  const ir::PrimExprNode* atom = a.AsAtom();
  if (atom == nullptr || !(atom->kind() == NodeKind::kPrimMin || atom->kind() == NodeKind::kPrimMax)) {
    return std::nullopt;
  }
  const auto* inner = static_cast<const ir::BinaryNode*>(atom);
  PrimExpr other = alg_.Rebuild(b);
  if (!alg_.order().Equal(inner->a, other) && !alg_.order().Equal(inner->b, other)) return std::nullopt;
  // min(min(x, y), x) == min(x, y); min(max(x, y), x) == x (and dually).
  return atom->kind() == kind ? a : b;
}

SumForm Simplifier::MinMaxToSum(NodeKind kind, const SumForm& a, const SumForm& b) {
  bool is_min = kind == NodeKind::kPrimMin;
  ConstIntBound diff = DiffBounds(alg_.Sub(a, b));
  if (diff.max_value <= 0) return is_min ? a : b;  // a <= b
  if (diff.min_value >= 0) return is_min ? b : a;  // a >= b
  if (std::optional<SumForm> absorbed = MinMaxAbsorb(kind, a, b)) return *absorbed;
  if (std::optional<SumForm> absorbed = MinMaxAbsorb(kind, b, a)) return *absorbed;
  SumForm common = alg_.Common(a, b);
  PrimExpr x = alg_.Rebuild(alg_.Sub(a, common));
  PrimExpr y = alg_.Rebuild(alg_.Sub(b, common));
  // Canonical operand order, constants last: min(n, 16).
  bool x_const = x.isa<ir::IntImmNode>(), y_const = y.isa<ir::IntImmNode>();
  if (x_const != y_const ? x_const : alg_.order().Less(y, x)) std::swap(x, y);
  return alg_.Add(common, AtomOf(ir::MakeBinary(kind, x, y)));
}

// ---------------------------------------------------------------- other nodes

SumForm Simplifier::SelectToSum(const ir::SelectNode* op) {
  PrimExpr cond = Simplify(op->condition);
  if (std::optional<int64_t> c = ir::AsConstInt(cond)) return ToSum(*c != 0 ? op->true_value : op->false_value);
  SumForm t = ToSum(op->true_value), f = ToSum(op->false_value);
  if (alg_.Equal(t, f)) return t;
  SumForm common = alg_.Common(t, f);
  PrimExpr arm_t = alg_.Rebuild(alg_.Sub(t, common));
  PrimExpr arm_f = alg_.Rebuild(alg_.Sub(f, common));
  return alg_.Add(common, AtomOf(ir::select(cond, arm_t, arm_f)));
}

SumForm Simplifier::CastToSum(const ir::CastNode* op) {
  PrimExpr value = Simplify(op->value);
  DataType to = op->dtype;
  if (value->dtype == to) return ToSum(value);
  if (const auto* imm = value.as<ir::IntImmNode>()) {
    int128 v = value->dtype.is_uint() && value->dtype.bits() >= 64
                   ? static_cast<int128>(static_cast<uint64_t>(imm->value))
                   : static_cast<int128>(imm->value);
    return alg_.Const(to, WrapToDtype(v, to));
  }
  if (const auto* imm = value.as<ir::FloatImmNode>()) {
    double t = std::trunc(imm->value);
    if (std::isfinite(t) && t >= -9.2e18 && t <= 9.2e18 && FitsDtype(static_cast<int128>(t), to)) {
      return alg_.Const(to, static_cast<int64_t>(t));
    }
  }
  return AtomOf(make<ir::CastNode>(to, value));
}

SumForm Simplifier::LetToSum(const ir::LetNode* op) {
  PrimExpr value = Simplify(op->value);
  if (value.isa<ir::IntImmNode>() || value.isa<ir::VarNode>()) {
    const ir::VarNode* var = op->var.get();
    PrimExpr body = ir::Substitute(op->body, [&](const ir::Var& v) { return v.get() == var ? value : PrimExpr(); });
    return ToSum(body);
  }
  return AtomOf(make<ir::LetNode>(op->var, value, Simplify(op->body)));
}

SumForm Simplifier::CallToSum(const ir::CallNode* op, const PrimExpr& self) {
  if (op->op == "if_then_else" && op->args.size() == 3) {
    PrimExpr cond = Simplify(op->args[0]);
    if (std::optional<int64_t> c = ir::AsConstInt(cond)) return ToSum(*c != 0 ? op->args[1] : op->args[2]);
  }
  return AtomOf(MapChildren(self));
}

}  // namespace rlx::arith::detail
