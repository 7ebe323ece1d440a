// Constant integer bounds: interval arithmetic over an expression tree.
//
// Every integer or bool node gets an inclusive [min, max]; kNegInf/kPosInf
// are unbounded ends and all arithmetic saturates to them (int_math.h), so a
// finite end is always a true bound. Rules:
//   x + y, x - y, x * y   corners (a square x * x is >= 0)
//   x // y, truncdiv      monotone in x; for a divisor range of one sign the
//                         extremes are at the corners (an unbounded divisor
//                         sends a/b to 0, or to -1 under floor for a < 0)
//   x % y (floor)         [0, max(y) - 1] for y > 0, tightened by x when x is
//                         non-negative or lies within one period of y
//   truncmod              |result| < |y| with the sign of x
//   min, max, select      from the operands; comparisons and logic [0, 1]
//   cast                  the source range if it fits the target, else the
//                         target's range; variables: facts, else the dtype
// A divisor range that touches zero is shrunk away from zero (division by
// zero is undefined, so bounds need only hold where the expression is
// defined); one that spans both signs gives |result| <= |x|.
#include <algorithm>
#include <vector>

#include "arith/facts.h"
#include "arith/int_math.h"

namespace rlx::arith::detail {
namespace {

using Bound = ConstIntBound;

int64_t AbsBound(int64_t v) { return v < 0 ? BoundNeg(v) : v; }
int64_t MaxAbs(const Bound& b) { return std::max(AbsBound(b.min_value), AbsBound(b.max_value)); }
Bound Negate(const Bound& b) { return MakeBound(BoundNeg(b.max_value), BoundNeg(b.min_value)); }

Bound AddBounds(const Bound& a, const Bound& b) {
  return MakeBound(BoundAdd(a.min_value, b.min_value), BoundAdd(a.max_value, b.max_value));
}

Bound MulBounds(const Bound& a, const Bound& b) {
  int64_t corners[4] = {BoundMul(a.min_value, b.min_value), BoundMul(a.min_value, b.max_value),
                        BoundMul(a.max_value, b.min_value), BoundMul(a.max_value, b.max_value)};
  return MakeBound(*std::min_element(corners, corners + 4), *std::max_element(corners, corners + 4));
}

Bound SquareBound(const Bound& a) {
  Bound b = MulBounds(a, a);
  if (a.min_value <= 0 && a.max_value >= 0) b.min_value = 0;
  else b.min_value = std::min(BoundMul(a.min_value, a.min_value), BoundMul(a.max_value, a.max_value));
  return b;
}

// Floor or trunc division of a by b where b >= 1.
Bound DivPositive(const Bound& a, const Bound& b, bool floor) {
  auto div = [floor](int64_t x, int64_t y) { return floor ? FloorDivInt(x, y) : x / y; };
  bool b_unbounded = IsPosInf(b.max_value);
  Bound out;
  if (IsNegInf(a.min_value)) out.min_value = ConstIntBound::kNegInf;
  else if (a.min_value >= 0) out.min_value = b_unbounded ? 0 : div(a.min_value, b.max_value);
  else out.min_value = div(a.min_value, b.min_value);
  if (IsPosInf(a.max_value)) out.max_value = ConstIntBound::kPosInf;
  else if (a.max_value >= 0) out.max_value = div(a.max_value, b.min_value);
  else out.max_value = b_unbounded ? (floor ? -1 : 0) : div(a.max_value, b.max_value);
  return out;
}

// Divisor range with zero removed from its ends; nullopt if it spans both
// signs or is only zero.
std::optional<Bound> NonZeroDivisor(const Bound& b) {
  if (b.min_value == 0 && b.max_value == 0) return std::nullopt;
  Bound d = b;
  if (d.min_value == 0) d.min_value = 1;
  if (d.max_value == 0) d.max_value = -1;
  if (d.min_value > 0 || d.max_value < 0) return d;
  return std::nullopt;
}

Bound DivBounds(const Bound& a, const Bound& b, bool floor) {
  std::optional<Bound> d = NonZeroDivisor(b);
  if (!d) {
    int64_t m = MaxAbs(a);
    return MakeBound(BoundNeg(m), m);
  }
  if (d->min_value > 0) return DivPositive(a, *d, floor);
  // floordiv(x, y) == floordiv(-x, -y); truncdiv(x, y) == -truncdiv(x, -y).
  if (floor) return DivPositive(Negate(a), Negate(*d), true);
  return Negate(DivPositive(a, Negate(*d), false));
}

Bound FloorModBounds(const Bound& a, const Bound& b) {
  std::optional<Bound> d = NonZeroDivisor(b);
  if (!d) {
    int64_t m = MaxAbs(b);
    if (m == 0) return Everything();  // always division by zero
    int64_t limit = IsInf(m) ? m : m - 1;
    return MakeBound(BoundNeg(limit), limit);
  }
  if (d->max_value < 0) return Negate(FloorModBounds(Negate(a), Negate(*d)));
  if (d->is_const() && !IsInf(a.min_value) && !IsInf(a.max_value)) {
    int64_t c = d->min_value;
    int64_t k = FloorDivInt(a.min_value, c);
    if (k == FloorDivInt(a.max_value, c)) {
      int128 shift = static_cast<int128>(k) * c;
      return MakeBound(Saturate(a.min_value - shift), Saturate(a.max_value - shift));
    }
  }
  Bound out = MakeBound(0, IsPosInf(d->max_value) ? d->max_value : d->max_value - 1);
  if (a.min_value >= 0) out.max_value = std::min(out.max_value, a.max_value);
  return out;
}

Bound TruncModBounds(const Bound& a, const Bound& b) {
  int64_t m = MaxAbs(b);
  if (m == 0) return Everything();  // always division by zero
  int64_t limit = IsInf(m) ? m : m - 1;
  Bound out;
  out.min_value = a.min_value >= 0 ? 0 : std::max(BoundNeg(limit), a.min_value);
  out.max_value = a.max_value <= 0 ? 0 : std::min(limit, a.max_value);
  return out;
}

class BoundAnalyzer {
 public:
  BoundAnalyzer(const Facts& facts, AnalysisCache* cache) : facts_(facts), cache_(cache) {}

  Bound Visit(const ir::PrimExpr& e) {
    // Let-bound variables make results context dependent: no caching inside.
    if (cache_ == nullptr || !let_bounds_.empty() || !IsCachedInAnalysis(e)) return Compute(e);
    auto it = cache_->bounds.find(e.get());
    if (it != cache_->bounds.end()) return it->second.second;
    Bound b = Compute(e);
    cache_->bounds.emplace(e.get(), std::make_pair(e, b));
    return b;
  }

 private:
  Bound Compute(const ir::PrimExpr& e) {
    DataType t = e->dtype;
    if (t.lanes() != 1 || !(t.is_integer() || t.is_bool())) return Everything();
    if (const auto* bin = e.as<ir::BinaryNode>()) return VisitBinary(e->kind(), bin);
    switch (e->kind()) {
      case NodeKind::kPrimIntImm: {
        int64_t v = e.as<ir::IntImmNode>()->value;
        return MakeBound(v, v);
      }
      case NodeKind::kPrimVar: return VarBound(e.as<ir::VarNode>());
      case NodeKind::kPrimNot: return MakeBound(0, 1);
      case NodeKind::kPrimSelect: return SelectBound(e.as<ir::SelectNode>());
      case NodeKind::kPrimCast: return CastBound(e.as<ir::CastNode>());
      case NodeKind::kPrimLet: return LetBound(e.as<ir::LetNode>());
      case NodeKind::kPrimCall: return CallBound(e.as<ir::CallNode>());
      default: return DtypeRange(t);
    }
  }

  Bound VisitBinary(NodeKind kind, const ir::BinaryNode* op) {
    switch (kind) {
      case NodeKind::kPrimEQ: case NodeKind::kPrimNE: case NodeKind::kPrimLT: case NodeKind::kPrimLE:
      case NodeKind::kPrimGT: case NodeKind::kPrimGE: case NodeKind::kPrimAnd: case NodeKind::kPrimOr:
        return MakeBound(0, 1);
      default: break;
    }
    Bound a = Visit(op->a);
    if (kind == NodeKind::kPrimMul && op->a.same_as(op->b)) return SquareBound(a);
    Bound b = Visit(op->b);
    switch (kind) {
      case NodeKind::kPrimAdd: return AddBounds(a, b);
      case NodeKind::kPrimSub: return AddBounds(a, Negate(b));
      case NodeKind::kPrimMul: return MulBounds(a, b);
      case NodeKind::kPrimFloorDiv: return DivBounds(a, b, /*floor=*/true);
      case NodeKind::kPrimDiv: return DivBounds(a, b, /*floor=*/false);
      case NodeKind::kPrimFloorMod: return FloorModBounds(a, b);
      case NodeKind::kPrimMod: return TruncModBounds(a, b);
      case NodeKind::kPrimMin:
        return MakeBound(std::min(a.min_value, b.min_value), std::min(a.max_value, b.max_value));
      case NodeKind::kPrimMax:
        return MakeBound(std::max(a.min_value, b.min_value), std::max(a.max_value, b.max_value));
      default: return DtypeRange(op->dtype);
    }
  }

  Bound VarBound(const ir::VarNode* var) {
    for (auto it = let_bounds_.rbegin(); it != let_bounds_.rend(); ++it) {
      if (it->first == var) return it->second;
    }
    return facts_.VarBound(var);
  }

  Bound SelectBound(const ir::SelectNode* op) {
    if (std::optional<int64_t> c = ir::AsConstInt(op->condition)) {
      return Visit(*c != 0 ? op->true_value : op->false_value);
    }
    return Union(Visit(op->true_value), Visit(op->false_value));
  }

  Bound CastBound(const ir::CastNode* op) {
    Bound target = DtypeRange(op->dtype);
    DataType from = op->value->dtype;
    if (!(from.is_integer() || from.is_bool())) return target;
    Bound source = Visit(op->value);
    if (op->dtype.is_bool()) {
      if (source.min_value > 0 || source.max_value < 0) return MakeBound(1, 1);
      return source.min_value == 0 && source.max_value == 0 ? MakeBound(0, 0) : target;
    }
    bool fits = source.min_value >= target.min_value && source.max_value <= target.max_value;
    return fits ? source : target;
  }

  Bound LetBound(const ir::LetNode* op) {
    let_bounds_.emplace_back(op->var.get(), Visit(op->value));
    Bound body = Visit(op->body);
    let_bounds_.pop_back();
    return body;
  }

  Bound CallBound(const ir::CallNode* op) {
    if (op->op == "if_then_else" && op->args.size() == 3) return Union(Visit(op->args[1]), Visit(op->args[2]));
    return DtypeRange(op->dtype);
  }

  const Facts& facts_;
  AnalysisCache* cache_;
  std::vector<std::pair<const ir::VarNode*, Bound>> let_bounds_;
};

}  // namespace

ConstIntBound BoundsAdd(const ConstIntBound& a, const ConstIntBound& b) { return AddBounds(a, b); }
ConstIntBound BoundsMul(const ConstIntBound& a, const ConstIntBound& b) { return MulBounds(a, b); }
ConstIntBound BoundsNegate(const ConstIntBound& a) { return Negate(a); }

ConstIntBound BoundsPower(const ConstIntBound& a, int power) {
  if (power == 1) return a;
  ConstIntBound half = BoundsPower(a, power / 2);
  ConstIntBound even = SquareBound(half);
  return power % 2 == 0 ? even : MulBounds(even, a);
}

ConstIntBound ComputeConstIntBound(const ir::PrimExpr& expr, const Facts& facts, AnalysisCache* cache) {
  return BoundAnalyzer(facts, cache).Visit(expr);
}

}  // namespace rlx::arith::detail
