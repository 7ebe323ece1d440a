// Modular set analysis: for an integer expression, (coeff, base) such that
// every value it takes is coeff * k + base for some integer k.
//
//   constants       c                    -> (0, c)
//   x + y, x - y    (gcd(c1, c2), b1 +- b2)
//   x * y           (gcd(c1*c2, c1*b2, c2*b1), b1*b2)
//   x // k          (c1 / k, b1 // k)        when k > 0 divides c1
//   x % k           (0, b1 % k)              when k > 0 divides c1
//                   (gcd(c1, k), b1)         otherwise
//   min, max, select: the union (gcd(c1, c2, |b1 - b2|), b1)
//   variables       facts (v % c == r), or (0, v) when bound to one value
// Everything else is (1, 0). Arithmetic is done in 128 bits; a coefficient
// or constant that does not fit int64 gives (1, 0).
#include "arith/facts.h"
#include "arith/int_math.h"
#include "rlx/ir/functor.h"

namespace rlx::arith::detail {
namespace {

int128 Abs128(int128 v) { return v < 0 ? -v : v; }

int128 Gcd128(int128 a, int128 b) {
  a = Abs128(a);
  b = Abs128(b);
  while (b != 0) {
    int128 t = a % b;
    a = b;
    b = t;
  }
  return a;
}

// (1, 0): any integer.
ModularSet Unknown() { return ModularSet{1, 0}; }

// Normalizes (coeff, base); (1, 0) when it does not fit int64.
ModularSet MakeModular(int128 coeff, int128 base) {
  coeff = Abs128(coeff);
  if (coeff > INT64_MAX) return Unknown();
  if (coeff > 0) base = FloorMod128(base, coeff);
  if (base > INT64_MAX || base < INT64_MIN) return Unknown();
  return ModularSet{static_cast<int64_t>(coeff), static_cast<int64_t>(base)};
}

}  // namespace

ModularSet ModularConst(int64_t value) { return ModularSet{0, value}; }

ModularSet ModularAdd(const ModularSet& a, const ModularSet& b) {
  return MakeModular(Gcd128(a.coeff, b.coeff), static_cast<int128>(a.base) + b.base);
}

ModularSet ModularMul(const ModularSet& a, const ModularSet& b) {
  int128 c1 = a.coeff, c2 = b.coeff, b1 = a.base, b2 = b.base;
  int128 coeff = Gcd128(Gcd128(c1 * c2, c1 * b2), c2 * b1);
  return MakeModular(coeff, b1 * b2);
}

ModularSet ModularUnion(const ModularSet& a, const ModularSet& b) {
  int128 diff = static_cast<int128>(a.base) - b.base;
  return MakeModular(Gcd128(Gcd128(a.coeff, b.coeff), diff), a.base);
}

ModularSet ModularFloorDiv(const ModularSet& a, int64_t divisor) {
  if (divisor <= 0 || a.coeff % divisor != 0) return Unknown();
  return MakeModular(a.coeff / divisor, FloorDivInt(a.base, divisor));
}

ModularSet ModularFloorMod(const ModularSet& a, int64_t divisor) {
  if (divisor <= 0) return Unknown();
  if (a.coeff % divisor == 0) return MakeModular(0, FloorModInt(a.base, divisor));
  return MakeModular(Gcd128(a.coeff, divisor), a.base);
}

bool ModularIsMultipleOf(const ModularSet& a, int64_t divisor) {
  int128 d = Abs128(divisor);
  return d != 0 && static_cast<int128>(a.coeff) % d == 0 && static_cast<int128>(a.base) % d == 0;
}

namespace {

class ModularAnalyzer {
 public:
  ModularAnalyzer(const Facts& facts, AnalysisCache* cache) : facts_(facts), cache_(cache) {}

  ModularSet Visit(const ir::PrimExpr& e) {
    if (cache_ == nullptr || !IsCachedInAnalysis(e)) return Compute(e);
    auto it = cache_->modular.find(e.get());
    if (it != cache_->modular.end()) return it->second.second;
    ModularSet m = Compute(e);
    cache_->modular.emplace(e.get(), std::make_pair(e, m));
    return m;
  }

 private:
  ModularSet Compute(const ir::PrimExpr& e) {
    if (!IsScalarInt(e->dtype)) return Unknown();
    switch (e->kind()) {
      case NodeKind::kPrimIntImm: return ModularConst(e.as<ir::IntImmNode>()->value);
      case NodeKind::kPrimVar: return facts_.VarModular(e.as<ir::VarNode>());
      case NodeKind::kPrimAdd: return ModularAdd(Visit(A(e)), Visit(B(e)));
      case NodeKind::kPrimSub: return ModularAdd(Visit(A(e)), ModularMul(Visit(B(e)), ModularConst(-1)));
      case NodeKind::kPrimMul: return ModularMul(Visit(A(e)), Visit(B(e)));
      case NodeKind::kPrimFloorDiv: return DivLike(e, ModularFloorDiv);
      case NodeKind::kPrimFloorMod: return DivLike(e, ModularFloorMod);
      case NodeKind::kPrimMod: return TruncMod(e);
      case NodeKind::kPrimMin:
      case NodeKind::kPrimMax: return ModularUnion(Visit(A(e)), Visit(B(e)));
      case NodeKind::kPrimSelect: {
        const auto* op = e.as<ir::SelectNode>();
        return ModularUnion(Visit(op->true_value), Visit(op->false_value));
      }
      default: return Unknown();
    }
  }

  static const ir::PrimExpr& A(const ir::PrimExpr& e) { return e.as<ir::BinaryNode>()->a; }
  static const ir::PrimExpr& B(const ir::PrimExpr& e) { return e.as<ir::BinaryNode>()->b; }

  ModularSet DivLike(const ir::PrimExpr& e, ModularSet (*rule)(const ModularSet&, int64_t)) {
    std::optional<int64_t> divisor = ir::AsConstInt(B(e));
    if (!divisor) return Unknown();
    return rule(Visit(A(e)), *divisor);
  }

  // truncmod(x, k) is 0 when k divides x; nothing else is known without signs.
  ModularSet TruncMod(const ir::PrimExpr& e) {
    std::optional<int64_t> divisor = ir::AsConstInt(B(e));
    if (divisor && ModularIsMultipleOf(Visit(A(e)), *divisor)) return ModularConst(0);
    return Unknown();
  }

  const Facts& facts_;
  AnalysisCache* cache_;
};

}  // namespace

ModularSet ComputeModularSet(const ir::PrimExpr& expr, const Facts& facts, AnalysisCache* cache) {
  return ModularAnalyzer(facts, cache).Visit(expr);
}

}  // namespace rlx::arith::detail
