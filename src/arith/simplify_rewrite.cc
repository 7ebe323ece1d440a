// Simplification of everything that is not an integer scalar: comparisons,
// logic, floats, vectors, casts to non-integers (see simplifier.h).
//
// Integer comparisons go through the difference of their sides:
//   a < b   <=>  d = a - b < 0        (a > b, a >= b flip d's sign)
// and are decided when d's bounds (or, for == and !=, its modular set) settle
// them. Undecided ones are rebuilt in a normal form: d's coefficients divided
// by their gcd g (the constant rounded the right way), positive terms on the
// left, the rest on the right:
//   n * 4 + 4 < m * 8  ->  n < m * 2 - 1,    x + 2 <= 5  ->  x <= 3,
//   5 < n  ->  n > 5,    m == n and n == m  ->  the same `m == n`.
// Logic: constants fold, x and x == x, x and not x == False (x or not x ==
// True), not not x == x, not (a < b) == a >= b for integers.
// Floats fold constants and x + 0, x - 0, x * 1, 1 * x, x / 1; nothing is
// reassociated. Division by a zero constant is never folded.
#include <cmath>

#include "arith/int_math.h"
#include "arith/simplifier.h"
#include "rlx/ir/functor.h"

namespace rlx::arith::detail {

using ir::PrimExpr;

namespace {

// Re-dispatches a node's children to the simplifier and rebuilds the node
// only when a child changed.
class ChildMapper : public ir::PrimExprMutator {
 public:
  explicit ChildMapper(Simplifier& simplifier) : simplifier_(simplifier) {}
  PrimExpr MapChildren(const PrimExpr& e) { return PrimExprFunctor::VisitExpr(e); }
  PrimExpr VisitExpr(const PrimExpr& e) override { return simplifier_.Simplify(e); }

 private:
  Simplifier& simplifier_;
};

bool IsComparison(NodeKind kind) { return kind >= NodeKind::kPrimEQ && kind <= NodeKind::kPrimGE; }

NodeKind NegateComparison(NodeKind kind) {
  switch (kind) {
    case NodeKind::kPrimEQ: return NodeKind::kPrimNE;
    case NodeKind::kPrimNE: return NodeKind::kPrimEQ;
    case NodeKind::kPrimLT: return NodeKind::kPrimGE;
    case NodeKind::kPrimLE: return NodeKind::kPrimGT;
    case NodeKind::kPrimGT: return NodeKind::kPrimLE;
    default: return NodeKind::kPrimLT;  // GE
  }
}

// The comparison with its operands swapped: a < b  <=>  b > a.
NodeKind MirrorComparison(NodeKind kind) {
  switch (kind) {
    case NodeKind::kPrimLT: return NodeKind::kPrimGT;
    case NodeKind::kPrimLE: return NodeKind::kPrimGE;
    case NodeKind::kPrimGT: return NodeKind::kPrimLT;
    case NodeKind::kPrimGE: return NodeKind::kPrimLE;
    default: return kind;
  }
}

template <typename T>
bool CompareValues(NodeKind kind, T a, T b) {
  switch (kind) {
    case NodeKind::kPrimEQ: return a == b;
    case NodeKind::kPrimNE: return a != b;
    case NodeKind::kPrimLT: return a < b;
    case NodeKind::kPrimLE: return a <= b;
    case NodeKind::kPrimGT: return a > b;
    default: return a >= b;
  }
}

std::optional<double> AsFloat(const PrimExpr& e) {
  if (const auto* imm = e.as<ir::FloatImmNode>()) return imm->value;
  return std::nullopt;
}

// A float constant of `dtype`, rounded to single precision for float32.
PrimExpr MakeFloatOf(double value, DataType dtype) {
  if (dtype.is_float() && dtype.bits() == 32) value = static_cast<double>(static_cast<float>(value));
  return ir::MakeFloat(value, dtype);
}

std::optional<double> FoldFloat(NodeKind kind, double a, double b) {
  switch (kind) {
    case NodeKind::kPrimAdd: return a + b;
    case NodeKind::kPrimSub: return a - b;
    case NodeKind::kPrimMul: return a * b;
    case NodeKind::kPrimDiv: return b == 0 ? std::nullopt : std::optional<double>(a / b);
    case NodeKind::kPrimFloorDiv: return b == 0 ? std::nullopt : std::optional<double>(std::floor(a / b));
    case NodeKind::kPrimMin: return std::fmin(a, b);
    case NodeKind::kPrimMax: return std::fmax(a, b);
    default: return std::nullopt;
  }
}

}  // namespace

PrimExpr Simplifier::Simplify(const PrimExpr& e) {
  if (IsScalarInt(e->dtype)) return alg_.Rebuild(ToSum(e));
  return Rewrite(e);
}

PrimExpr Simplifier::MapChildren(const PrimExpr& e) { return ChildMapper(*this).MapChildren(e); }

PrimExpr Simplifier::Rewrite(const PrimExpr& e) {
  NodeKind kind = e->kind();
  if (IsComparison(kind)) return RewriteCompare(e.as<ir::BinaryNode>(), e);
  if (kind == NodeKind::kPrimAnd || kind == NodeKind::kPrimOr) return RewriteAndOr(e.as<ir::BinaryNode>(), e);
  if (const auto* bin = e.as<ir::BinaryNode>()) return RewriteArith(bin, e);
  switch (kind) {
    case NodeKind::kPrimVar: return VarValue(e);
    case NodeKind::kPrimNot: return RewriteNot(e.as<ir::NotNode>(), e);
    case NodeKind::kPrimSelect: return RewriteSelect(e.as<ir::SelectNode>(), e);
    case NodeKind::kPrimCast: return RewriteCast(e.as<ir::CastNode>(), e);
    case NodeKind::kPrimCall: return RewriteCall(e.as<ir::CallNode>(), e);
    default: return MapChildren(e);
  }
}

PrimExpr Simplifier::VarValue(const PrimExpr& e) {
  const VarFact* fact = facts_.Find(e.as<ir::VarNode>());
  if (fact == nullptr || !fact->value.defined() || substitution_depth_ > 0) return e;
  ++substitution_depth_;
  PrimExpr value = Simplify(fact->value);
  --substitution_depth_;
  return value;
}

// Float and vector arithmetic: fold constants and the unit identities only.
PrimExpr Simplifier::RewriteArith(const ir::BinaryNode* op, const PrimExpr& self) {
  PrimExpr a = Simplify(op->a), b = Simplify(op->b);
  NodeKind kind = self->kind();
  std::optional<double> fa = AsFloat(a), fb = AsFloat(b);
  if (fa && fb) {
    if (std::optional<double> v = FoldFloat(kind, *fa, *fb)) return MakeFloatOf(*v, self->dtype);
  }
  bool b_zero = fb && *fb == 0, b_one = fb && *fb == 1, a_zero = fa && *fa == 0, a_one = fa && *fa == 1;
  if ((kind == NodeKind::kPrimAdd || kind == NodeKind::kPrimSub) && b_zero) return a;
  if (kind == NodeKind::kPrimAdd && a_zero) return b;
  if ((kind == NodeKind::kPrimMul || kind == NodeKind::kPrimDiv) && b_one) return a;
  if (kind == NodeKind::kPrimMul && a_one) return b;
  if (a.same_as(op->a) && b.same_as(op->b)) return self;
  return ir::MakeBinary(kind, a, b);
}

// ---------------------------------------------------------------- comparisons

PrimExpr Simplifier::RewriteCompare(const ir::BinaryNode* op, const PrimExpr& self) {
  NodeKind kind = self->kind();
  if (IsScalarInt(op->a->dtype)) return CompareInt(kind, ToSum(op->a), ToSum(op->b));
  PrimExpr a = Simplify(op->a), b = Simplify(op->b);
  std::optional<int64_t> ia = ir::AsConstInt(a), ib = ir::AsConstInt(b);
  if (ia && ib) return ir::MakeBool(CompareValues(kind, *ia, *ib));
  std::optional<double> fa = AsFloat(a), fb = AsFloat(b);
  if (fa && fb) return ir::MakeBool(CompareValues(kind, *fa, *fb));
  // x == x holds for bools (not for floats: NaN).
  if (a->dtype.is_bool() && alg_.order().Equal(a, b)) {
    return ir::MakeBool(kind == NodeKind::kPrimEQ || kind == NodeKind::kPrimLE || kind == NodeKind::kPrimGE);
  }
  if (a.same_as(op->a) && b.same_as(op->b)) return self;
  return ir::MakeBinary(kind, a, b);
}

PrimExpr Simplifier::CompareInt(NodeKind kind, const SumForm& a, const SumForm& b) {
  try {
    SumForm diff = alg_.Sub(a, b);
    if (kind == NodeKind::kPrimGT || kind == NodeKind::kPrimGE) {
      kind = kind == NodeKind::kPrimGT ? NodeKind::kPrimLT : NodeKind::kPrimLE;
      diff = alg_.Neg(diff);
    }
    if (std::optional<bool> decided = DecideInt(kind, diff)) return ir::MakeBool(*decided);
    return BuildComparison(kind, diff);
  } catch (const OverflowError&) {
    return ir::MakeBinary(kind, alg_.Rebuild(a), alg_.Rebuild(b));
  }
}

// Decides `diff kind 0` (kind is EQ, NE, LT or LE) when bounds or modular
// sets allow.
std::optional<bool> Simplifier::DecideInt(NodeKind kind, const SumForm& diff) {
  if (diff.IsConst()) return CompareValues(kind, diff.constant, int64_t{0});
  ConstIntBound bound = DiffBounds(diff);
  switch (kind) {
    case NodeKind::kPrimLT:
      if (bound.max_value < 0) return true;
      if (bound.min_value >= 0) return false;
      return std::nullopt;
    case NodeKind::kPrimLE:
      if (bound.max_value <= 0) return true;
      if (bound.min_value > 0) return false;
      return std::nullopt;
    default: break;
  }
  bool is_eq = kind == NodeKind::kPrimEQ;
  if (bound.min_value > 0 || bound.max_value < 0) return !is_eq;
  if (bound.min_value == 0 && bound.max_value == 0) return is_eq;
  ModularSet modular = SumModular(diff);
  if (modular.coeff > 0 && modular.base != 0) return !is_eq;  // never a multiple of coeff, so never 0
  return std::nullopt;
}

// `diff kind 0` (kind is EQ, NE, LT or LE) in normal form; see the file comment.
PrimExpr Simplifier::BuildComparison(NodeKind kind, const SumForm& diff) {
  int64_t g = 0;
  for (const Term& term : diff.terms) g = Gcd(g, term.coeff);
  int128 bound = -static_cast<int128>(diff.constant);  // terms kind bound
  int128 limit;
  if (kind == NodeKind::kPrimLT) {
    limit = -FloorDiv128(-bound, g);  // ceil(bound / g)
  } else if (kind == NodeKind::kPrimLE) {
    limit = FloorDiv128(bound, g);
  } else {
    if (bound % g != 0) return ir::MakeBool(kind == NodeKind::kPrimNE);
    limit = bound / g;
  }
  SumForm lhs = alg_.Const(diff.dtype, 0), rhs = alg_.Const(diff.dtype, 0);
  // == and != are symmetric: orient them so the first term is positive.
  bool flip = (kind == NodeKind::kPrimEQ || kind == NodeKind::kPrimNE) && diff.terms[0].coeff < 0;
  if (flip) limit = -limit;
  for (const Term& term : diff.terms) {
    int64_t coeff = (flip ? -term.coeff : term.coeff) / g;
    if (coeff > 0) lhs.terms.push_back(Term{term.atoms, coeff});
    else rhs.terms.push_back(Term{term.atoms, -coeff});
  }
  if (limit > INT64_MAX || limit < INT64_MIN) throw OverflowError{};
  if (lhs.terms.empty()) {
    // 0 < rhs + limit  <=>  rhs > -limit
    rhs.constant = 0;
    return ir::MakeBinary(MirrorComparison(kind), alg_.Rebuild(rhs),
                          SumAlgebra::MakeConst(CheckedNeg(static_cast<int64_t>(limit)), diff.dtype));
  }
  rhs.constant = static_cast<int64_t>(limit);
  return ir::MakeBinary(kind, alg_.Rebuild(lhs), alg_.Rebuild(rhs));
}

// ---------------------------------------------------------------- logic

bool Simplifier::IsNegation(const PrimExpr& a, const PrimExpr& b) {
  if (const auto* n = b.as<ir::NotNode>(); n && alg_.order().Equal(n->a, a)) return true;
  if (const auto* n = a.as<ir::NotNode>(); n && alg_.order().Equal(n->a, b)) return true;
  if (IsComparison(a->kind()) && IsComparison(b->kind())) {
    return alg_.order().Equal(Simplify(ir::logical_not(a)), b);
  }
  return false;
}

PrimExpr Simplifier::RewriteAndOr(const ir::BinaryNode* op, const PrimExpr& self) {
  bool is_and = self->kind() == NodeKind::kPrimAnd;
  PrimExpr a = Simplify(op->a), b = Simplify(op->b);
  std::optional<int64_t> ca = ir::AsConstInt(a), cb = ir::AsConstInt(b);
  // The absorbing value (False for and, True for or) wins; the other drops out.
  if (ca) return (*ca != 0) == is_and ? b : ir::MakeBool(!is_and);
  if (cb) return (*cb != 0) == is_and ? a : ir::MakeBool(!is_and);
  if (alg_.order().Equal(a, b)) return a;
  if (IsNegation(a, b)) return ir::MakeBool(!is_and);
  if (a.same_as(op->a) && b.same_as(op->b)) return self;
  return is_and ? ir::logical_and(a, b) : ir::logical_or(a, b);
}

PrimExpr Simplifier::RewriteNot(const ir::NotNode* op, const PrimExpr& self) {
  PrimExpr a = Simplify(op->a);
  if (std::optional<int64_t> c = ir::AsConstInt(a)) return ir::MakeBool(*c == 0);
  if (const auto* inner = a.as<ir::NotNode>()) return inner->a;
  if (IsComparison(a->kind())) {
    const auto* cmp = a.as<ir::BinaryNode>();
    NodeKind negated = NegateComparison(a->kind());
    if (IsScalarInt(cmp->a->dtype)) return CompareInt(negated, ToSum(cmp->a), ToSum(cmp->b));
    // For bools the negated comparison is exact too; floats have NaN.
    if (cmp->a->dtype.is_bool()) return ir::MakeBinary(negated, cmp->a, cmp->b);
  }
  if (a.same_as(op->a)) return self;
  return ir::logical_not(a);
}

// ---------------------------------------------------------------- others

PrimExpr Simplifier::RewriteSelect(const ir::SelectNode* op, const PrimExpr& self) {
  PrimExpr cond = Simplify(op->condition);
  if (std::optional<int64_t> c = ir::AsConstInt(cond)) return Simplify(*c != 0 ? op->true_value : op->false_value);
  PrimExpr t = Simplify(op->true_value), f = Simplify(op->false_value);
  if (alg_.order().Equal(t, f)) return t;
  if (cond.same_as(op->condition) && t.same_as(op->true_value) && f.same_as(op->false_value)) return self;
  return ir::select(cond, t, f);
}

// Casts to bool, floats and other non-integer types.
PrimExpr Simplifier::RewriteCast(const ir::CastNode* op, const PrimExpr& self) {
  PrimExpr value = Simplify(op->value);
  DataType to = op->dtype;
  if (value->dtype == to) return value;
  if (to.lanes() == 1) {
    if (const auto* imm = value.as<ir::IntImmNode>()) {
      if (to.is_bool()) return ir::MakeBool(imm->value != 0);
      if (to.is_floating()) return MakeFloatOf(static_cast<double>(imm->value), to);
    }
    if (const auto* imm = value.as<ir::FloatImmNode>()) {
      if (to.is_bool()) return ir::MakeBool(imm->value != 0);
      if (to.is_floating()) return MakeFloatOf(imm->value, to);
    }
  }
  if (value.same_as(op->value)) return self;
  return make<ir::CastNode>(to, value);
}

PrimExpr Simplifier::RewriteCall(const ir::CallNode* op, const PrimExpr& self) {
  if (op->op == "if_then_else" && op->args.size() == 3) {
    PrimExpr cond = Simplify(op->args[0]);
    if (std::optional<int64_t> c = ir::AsConstInt(cond)) return Simplify(*c != 0 ? op->args[1] : op->args[2]);
  }
  return MapChildren(self);
}

}  // namespace rlx::arith::detail
