// Property tests of arith::Analyzer against the independent evaluator.
//
// Random expressions (10,000; 4,000 under AddressSanitizer) of depth <= 5
// over four int64 variables and constants in [-8, 8], using + - * floordiv
// floormod truncdiv truncmod min max select, comparisons and and/or/not, are
// simplified under two analyzers: one with no facts (points anywhere in
// [-12, 12]) and one with ranges and a modular constraint (points drawn
// inside them). At each point where the original evaluates without overflow
// or division by zero:
//   - the simplified expression evaluates to the same value;
//   - the value lies within ConstBounds(original) and in Modular(original);
//   - whatever CanProve claims (e < f, e <= f, e == f, a bool e, not e) holds.
// The seed is fixed, so a failure reproduces; the message prints the
// expression, its simplified form and the point.
#include "rlx/arith/analyzer.h"

#include <gtest/gtest.h>

#include <random>
#include <sstream>
#include <unordered_map>
#include <vector>

namespace rlx::arith {
namespace {

using namespace rlx::ir;  // NOLINT
using Point = std::unordered_map<const VarNode*, int64_t>;

#if defined(__SANITIZE_ADDRESS__)
constexpr int kExpressions = 4000;  // ASan records a stack per allocation: ~50x slower
#else
constexpr int kExpressions = 10000;
#endif
constexpr int kPointsPerExpression = 8;
constexpr int kMaxDepth = 5;

class ExprGenerator {
 public:
  ExprGenerator(uint64_t seed, std::vector<Var> vars) : rng_(seed), vars_(std::move(vars)) {}

  PrimExpr Int(int depth) {
    if (depth == 0 || Chance(0.2)) return Leaf();
    switch (Uniform(0, 10)) {
      case 0: return add(Int(depth - 1), Int(depth - 1));
      case 1: return sub(Int(depth - 1), Int(depth - 1));
      case 2: return mul(Int(depth - 1), Chance(0.6) ? Const() : Int(depth - 1));
      case 3: return floordiv(Int(depth - 1), Divisor(depth));
      case 4: return floormod(Int(depth - 1), Divisor(depth));
      case 5: return truncdiv(Int(depth - 1), Divisor(depth));
      case 6: return truncmod(Int(depth - 1), Divisor(depth));
      case 7: return min(Int(depth - 1), Int(depth - 1));
      case 8: return max(Int(depth - 1), Int(depth - 1));
      case 9: return select(Bool(depth - 1), Int(depth - 1), Int(depth - 1));
      default: return add(mul(Int(depth - 1), Const()), Const());  // affine: index-like
    }
  }

  PrimExpr Bool(int depth) {
    if (depth <= 1 || Chance(0.5)) return Compare(Int(depth > 0 ? depth - 1 : 0), Int(depth > 0 ? depth - 1 : 0));
    switch (Uniform(0, 2)) {
      case 0: return logical_and(Bool(depth - 1), Bool(depth - 1));
      case 1: return logical_or(Bool(depth - 1), Bool(depth - 1));
      default: return logical_not(Bool(depth - 1));
    }
  }

  PrimExpr Compare(PrimExpr a, PrimExpr b) {
    switch (Uniform(0, 5)) {
      case 0: return lt(a, b);
      case 1: return le(a, b);
      case 2: return gt(a, b);
      case 3: return ge(a, b);
      case 4: return eq(a, b);
      default: return ne(a, b);
    }
  }

  int64_t Uniform(int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng_); }
  bool Chance(double p) { return std::bernoulli_distribution(p)(rng_); }

 private:
  PrimExpr Leaf() { return Chance(0.6) ? PrimExpr(vars_[Uniform(0, vars_.size() - 1)]) : Const(); }
  PrimExpr Const() { return MakeInt(Uniform(-8, 8)); }
  // Mostly constants (the rules the simplifier applies), sometimes anything.
  PrimExpr Divisor(int depth) { return Chance(0.7) ? Const() : Int(depth - 1); }

  std::mt19937_64 rng_;
  std::vector<Var> vars_;
};

// One analyzer with its facts and a way to draw points satisfying them.
struct Scenario {
  std::string name;
  Analyzer* analyzer;
  std::function<Point(ExprGenerator&)> draw;
};

struct Stats {
  int64_t points = 0;
  int64_t proofs = 0;
  int64_t bounded = 0;
  int failures = 0;
};

std::string Describe(const PrimExpr& e, const PrimExpr& s, const Point& p, const std::vector<Var>& vars) {
  std::ostringstream os;
  os << "\n  expr:       " << ToString(e) << "\n  simplified: " << ToString(s) << "\n  at:";
  for (const Var& v : vars) os << ' ' << v->name_hint << '=' << p.at(v.get());
  return os.str();
}

class PropertyChecker {
 public:
  PropertyChecker(const Scenario& scenario, const std::vector<Var>& vars, Stats* stats)
      : sc_(scenario), vars_(vars), stats_(stats) {}

  void Check(const PrimExpr& e, const PrimExpr& other, ExprGenerator& gen) {
    Analyzer& ana = *sc_.analyzer;
    PrimExpr s = ana.Simplify(e);
    bool is_int = e->dtype.is_int();
    ConstIntBound bound = ana.ConstBounds(e);
    ModularSet modular = is_int ? ana.Modular(e) : ModularSet{};
    if (bound.min_value != ConstIntBound::kNegInf || bound.max_value != ConstIntBound::kPosInf) ++stats_->bounded;
    // Claims to verify at every point: (condition, what was claimed).
    std::vector<std::pair<PrimExpr, std::string>> claims;
    auto claim = [&](const PrimExpr& cond, const char* what) {
      if (ana.CanProve(cond)) {
        claims.emplace_back(cond, what);
        ++stats_->proofs;
      }
    };
    if (is_int) {
      claim(lt(e, other), "CanProve(e < f)");
      claim(le(e, other), "CanProve(e <= f)");
      claim(eq(e, other), "CanProve(e == f)");
      if (ana.CanProveEqual(e, other)) claims.emplace_back(eq(e, other), "CanProveEqual(e, f)");
    } else {
      claim(e, "CanProve(e)");
      claim(logical_not(e), "CanProve(not e)");
    }
    for (int i = 0; i < kPointsPerExpression; ++i) CheckPoint(e, s, bound, modular, claims, sc_.draw(gen));
  }

 private:
  void CheckPoint(const PrimExpr& e, const PrimExpr& s, const ConstIntBound& bound, const ModularSet& modular,
                  const std::vector<std::pair<PrimExpr, std::string>>& claims, const Point& p) {
    std::optional<int64_t> original = EvaluateIntExact(e, p);
    if (!original) return;  // division by zero or overflow: undefined here
    ++stats_->points;
    std::optional<int64_t> simplified = EvaluateInt(s, p);
    Expect(simplified == original, e, s, p, [&] {
      return "value changed: " + std::to_string(*original) + " vs " +
             (simplified ? std::to_string(*simplified) : std::string("undefined"));
    });
    Expect(*original >= bound.min_value && *original <= bound.max_value, e, s, p, [&] {
      return "value " + std::to_string(*original) + " outside ConstBounds [" + std::to_string(bound.min_value) +
             ", " + std::to_string(bound.max_value) + "]";
    });
    bool in_modular = modular.coeff == 0 ? *original == modular.base
                                         : ((*original - modular.base) % modular.coeff) == 0;
    Expect(in_modular, e, s, p, [&] {
      return "value " + std::to_string(*original) + " not in Modular (" + std::to_string(modular.coeff) + ", " +
             std::to_string(modular.base) + ")";
    });
    for (const auto& claim : claims) {
      // Named members, not a structured binding: clang 14 cannot capture those.
      const auto& cond = claim.first;
      const auto& what = claim.second;
      std::optional<int64_t> holds = EvaluateIntExact(cond, p);
      if (!holds) continue;
      Expect(*holds == 1, e, s, p, [&] { return what + " but false: " + ToString(cond); });
    }
  }

  template <typename F>
  void Expect(bool ok, const PrimExpr& e, const PrimExpr& s, const Point& p, F message) {
    if (ok) return;
    if (++stats_->failures <= 10) {
      ADD_FAILURE() << "[" << sc_.name << "] " << message() << Describe(e, s, p, vars_);
    }
  }

  const Scenario& sc_;
  const std::vector<Var>& vars_;
  Stats* stats_;
};

TEST(ArithPropertyTest, SimplifyBoundsModularAndProofsAreSound) {
  Var x = MakeVar("x"), y = MakeVar("y"), z = MakeVar("z"), w = MakeVar("w");
  std::vector<Var> vars = {x, y, z, w};
  ExprGenerator gen(20261122, vars);

  Analyzer free_ana;
  Scenario free{"no facts", &free_ana, [&](ExprGenerator& g) {
                  Point p;
                  for (const Var& v : vars) p[v.get()] = g.Uniform(-12, 12);
                  return p;
                }};

  Analyzer bound_ana;
  bound_ana.Bind(x, -6, 6);
  bound_ana.Bind(y, 0, 12);
  bound_ana.AddConstraint(logical_and(ge(z, MakeInt(1)), lt(z, MakeInt(10))));
  bound_ana.AddConstraint(eq(floormod(w, 3), MakeInt(1)));
  bound_ana.AddConstraint(le(w, MakeInt(22)));
  bound_ana.AddConstraint(ge(w, MakeInt(-20)));
  Scenario bounded{"bounded", &bound_ana, [&](ExprGenerator& g) {
                     Point p;
                     p[x.get()] = g.Uniform(-6, 6);
                     p[y.get()] = g.Uniform(0, 12);
                     p[z.get()] = g.Uniform(1, 9);
                     p[w.get()] = 3 * g.Uniform(-6, 7) + 1;  // -17 .. 22, w % 3 == 1
                     return p;
                   }};

  Stats stats;
  for (int i = 0; i < kExpressions; ++i) {
    bool boolean = i % 4 == 3;
    PrimExpr e = boolean ? gen.Bool(kMaxDepth) : gen.Int(kMaxDepth);
    PrimExpr other = gen.Int(2);
    PropertyChecker(free, vars, &stats).Check(e, other, gen);
    PropertyChecker(bounded, vars, &stats).Check(e, other, gen);
  }
  EXPECT_EQ(stats.failures, 0);
  // The test is not vacuous: most points evaluate, and the analyzer proves
  // and bounds a good share of what it sees.
  EXPECT_GT(stats.points, kExpressions * kPointsPerExpression);
  EXPECT_GT(stats.proofs, kExpressions / 10);
  EXPECT_GT(stats.bounded, kExpressions / 2);
  std::printf("points checked: %lld, proofs checked: %lld, finite bounds: %lld\n",
              static_cast<long long>(stats.points), static_cast<long long>(stats.proofs),
              static_cast<long long>(stats.bounded));
}

// Simplify is canonical on its own output for the common case: applying it
// twice changes nothing for most expressions (reported, and required for
// affine ones, where the canonical form is exact).
TEST(ArithPropertyTest, AffineSimplifyIsIdempotentAndCanonical) {
  Var x = MakeVar("x"), y = MakeVar("y"), z = MakeVar("z");
  std::vector<Var> vars = {x, y, z};
  std::mt19937_64 rng(7);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  Analyzer ana;
  for (int i = 0; i < 2000; ++i) {
    // Two random spellings of the same affine form.
    int64_t coeffs[3] = {pick(-5, 5), pick(-5, 5), pick(-5, 5)};
    int64_t constant = pick(-20, 20);
    PrimExpr a = MakeInt(constant), b = MakeInt(0);
    for (int j = 0; j < 3; ++j) a = a + vars[j] * coeffs[j];
    for (int j = 2; j >= 0; --j) b = coeffs[j] * vars[j] + b;
    b = b + constant;
    PrimExpr sa = ana.Simplify(a), sb = ana.Simplify(b);
    ASSERT_EQ(ToString(sa), ToString(sb)) << ToString(a) << " vs " << ToString(b);
    ASSERT_TRUE(ana.Simplify(sa).same_as(sa)) << ToString(sa);
    ASSERT_TRUE(ana.CanProveEqual(a, b));
  }
}

}  // namespace
}  // namespace rlx::arith
