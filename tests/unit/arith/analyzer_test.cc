// Targeted tests of arith::Analyzer: one or a few per rule (canonical sums,
// division by constants with negative operands, min/max, comparisons, logic,
// casts, floats, facts, bounds, modular sets, CanProve soundness) and of the
// independent evaluator EvaluateInt.
#include "rlx/arith/analyzer.h"

#include <gtest/gtest.h>

#include <string>
#include <unordered_map>
#include <vector>

namespace rlx::arith {
namespace {

using namespace rlx::ir;  // NOLINT: expression builders read better unqualified

class AnalyzerTest : public ::testing::Test {
 protected:
  std::string S(const PrimExpr& e) { return ToString(ana.Simplify(e)); }
  static PrimExpr I(int64_t v) { return MakeInt(v); }

  Var n = MakeVar("n");
  Var m = MakeVar("m");
  Var k = MakeVar("k");
  Analyzer ana;
};

// ------------------------------------------------------------- canonical sums

TEST_F(AnalyzerTest, FoldsConstants) {
  EXPECT_EQ(S((I(3) + I(4)) * I(2) - I(1)), "13");
  EXPECT_EQ(S(min(I(3), I(5)) + max(I(-2), I(-7))), "1");
}

TEST_F(AnalyzerTest, CombinesLikeTerms) {
  EXPECT_EQ(S(n * 4 - n * 3), "n");
  EXPECT_EQ(S(n + m - n), "m");
  EXPECT_EQ(S(n * m + m * n), "m * n * 2");
  EXPECT_EQ(S((n + 1) * (n - 1) - n * n), "-1");
}

TEST_F(AnalyzerTest, CommutedProductsAreEqual) {
  EXPECT_TRUE(ana.CanProveEqual(n * 4, 4 * n));
  EXPECT_EQ(S(n * 4), S(4 * n));
  EXPECT_EQ(S(m + n), S(n + m));
  EXPECT_FALSE(ana.CanProveEqual(n * 4, m * 4));
}

TEST_F(AnalyzerTest, OrdersTermsReadably) {
  EXPECT_EQ(S(m + n * 4), "n * 4 + m");
  EXPECT_EQ(S(n - m * 2), "n - m * 2");
  EXPECT_EQ(S(I(1) - n), "1 - n");
  EXPECT_EQ(S(I(0) - n), "n * -1");
  EXPECT_EQ(S(k + m * 4 + n * 16 + 3), "n * 16 + m * 4 + k + 3");
  EXPECT_EQ(S(n - 5), "n - 5");
}

TEST_F(AnalyzerTest, KeepsDtype) {
  Var i = MakeVar("i", DataType::Int32());
  PrimExpr s = ana.Simplify(i * 4 - i * 3 + 2);
  EXPECT_EQ(s->dtype, DataType::Int32());
  EXPECT_EQ(ToString(s), "i + 2");
  EXPECT_EQ(ana.Simplify(cast(DataType::Int32(), I(5)) * 2)->dtype, DataType::Int32());
}

TEST_F(AnalyzerTest, ReturnsSameNodeWhenAlreadySimple) {
  PrimExpr e = n * 4 + m;
  EXPECT_TRUE(ana.Simplify(e).same_as(e));
  PrimExpr changed = m + n * 4;
  EXPECT_FALSE(ana.Simplify(changed).same_as(changed));
}

TEST_F(AnalyzerTest, CoefficientOverflowIsNotFolded) {
  PrimExpr e = n * INT64_MAX + n * INT64_MAX;
  PrimExpr s = ana.Simplify(e);  // must not wrap into a wrong coefficient
  std::unordered_map<const VarNode*, int64_t> at{{n.get(), 0}};
  EXPECT_EQ(EvaluateInt(s, at), 0);
  EXPECT_NE(ToString(s), "n * -2");
}

// ------------------------------------------------------------- division

TEST_F(AnalyzerTest, FloorDivSplitsDivisibleTerms) {
  EXPECT_EQ(S(floordiv(n * 4 + 2, 2)), "n * 2 + 1");
  EXPECT_EQ(S(floordiv(n * 4 + 1, 4)), "n");
  EXPECT_EQ(S(floordiv(n * 4 + m * 8 + 6, 4)), "m * 2 + n + 1");
  EXPECT_EQ(S(floordiv(n * 4 - 1, 4)), "n - 1");
}

TEST_F(AnalyzerTest, FloorDivUsesBoundsOfTheRest) {
  EXPECT_EQ(S(floordiv(n * 4 + m, 4)), "n + m // 4");  // exact for any m
  EXPECT_EQ(S(floordiv(n * 3 + m, 4)), "(n * 3 + m) // 4");
  ana.Bind(m, 0, 3);
  EXPECT_EQ(S(floordiv(n * 4 + m, 4)), "n");
  EXPECT_EQ(S(floordiv(n * 4 + m + 4, 4)), "n + 1");
}

TEST_F(AnalyzerTest, FloorDivReducesByCommonFactor) {
  EXPECT_EQ(S(floordiv(n * 2 + 1, 4)), "n // 2");
  EXPECT_EQ(S(floormod(n * 2 + 1, 4)), "n % 2 * 2 + 1");
}

TEST_F(AnalyzerTest, NestedFloorDivCombines) {
  EXPECT_EQ(S(floordiv(floordiv(n, 2), 4)), "n // 8");
  EXPECT_EQ(S(floordiv(floordiv(n, 3) + 1, 5)), "(n + 3) // 15");
}

TEST_F(AnalyzerTest, FloorModDropsMultiples) {
  EXPECT_EQ(S(floormod(n * 4 + 3, 4)), "3");
  EXPECT_EQ(S(floormod(n * 4 + m, 4)), "m % 4");
  ana.Bind(m, 0, 3);
  EXPECT_EQ(S(floormod(n * 4 + m, 4)), "m");
  EXPECT_EQ(S(floormod(floormod(k, 8), 4)), "k % 4");
}

TEST_F(AnalyzerTest, DivisionOfNegativeConstants) {
  EXPECT_EQ(S(floordiv(I(-7), I(2))), "-4");
  EXPECT_EQ(S(floormod(I(-7), I(2))), "1");
  EXPECT_EQ(S(floordiv(I(7), I(-2))), "-4");
  EXPECT_EQ(S(floormod(I(7), I(-2))), "-1");
  EXPECT_EQ(S(truncdiv(I(-7), I(2))), "-3");
  EXPECT_EQ(S(truncmod(I(-7), I(2))), "-1");
  EXPECT_EQ(S(truncmod(I(7), I(-2))), "1");
}

TEST_F(AnalyzerTest, NegativeDivisorIsExact) {
  PrimExpr div = ana.Simplify(floordiv(n + 1, -2));
  PrimExpr mod = ana.Simplify(floormod(n + 1, -2));
  for (int64_t v = -9; v <= 9; ++v) {
    std::unordered_map<const VarNode*, int64_t> at{{n.get(), v}};
    EXPECT_EQ(EvaluateInt(div, at), EvaluateInt(floordiv(n + 1, -2), at)) << v;
    EXPECT_EQ(EvaluateInt(mod, at), EvaluateInt(floormod(n + 1, -2), at)) << v;
  }
}

TEST_F(AnalyzerTest, DivisionByZeroOrVariableIsKept) {
  EXPECT_EQ(S(floordiv(n, I(0))), "n // 0");
  EXPECT_EQ(S(floordiv(I(5), I(0))), "5 // 0");
  EXPECT_EQ(S(truncmod(I(5), I(0))), "truncmod(5, 0)");
  EXPECT_EQ(S(floordiv(n * 2 + n, m)), "n * 3 // m");
  EXPECT_EQ(S(floormod(n, m + 0)), "n % m");
}

TEST_F(AnalyzerTest, TruncDivFoldsOnlyForKnownSigns) {
  EXPECT_EQ(S(truncdiv(n, I(4))), "truncdiv(n, 4)");
  EXPECT_EQ(S(truncmod(n, I(4))), "truncmod(n, 4)");
  ana.Bind(n, 0, 100);
  EXPECT_EQ(S(truncdiv(n, I(4))), "n // 4");
  EXPECT_EQ(S(truncmod(n * 4 + 3, I(4))), "3");
  ana.Bind(m, -100, 0);
  EXPECT_EQ(S(truncdiv(m, I(4))), "m * -1 // 4 * -1");
}

TEST_F(AnalyzerTest, DivModRecombine) {
  EXPECT_EQ(S(floordiv(n, 4) * 4 + floormod(n, 4)), "n");
  EXPECT_EQ(S(truncdiv(n, I(8)) * 8 + truncmod(n, I(8)) + 1), "n + 1");
  EXPECT_TRUE(ana.CanProve(le(floordiv(n, 4) * 4, n)));
  EXPECT_TRUE(ana.CanProve(lt(n, floordiv(n, 4) * 4 + 4)));
}

// ------------------------------------------------------------- min / max

TEST_F(AnalyzerTest, MinMaxFoldByDifference) {
  EXPECT_EQ(S(min(n, n + 1)), "n");
  EXPECT_EQ(S(max(n, n + 1)), "n + 1");
  EXPECT_EQ(S(min(n, n)), "n");
  EXPECT_EQ(S(max(n * 2 - 3, n * 2 + 4)), "n * 2 + 4");
}

TEST_F(AnalyzerTest, MinMaxFoldUnderBounds) {
  EXPECT_EQ(S(min(n, I(16))), "min(n, 16)");
  ana.Bind(n, 1, 8);
  EXPECT_EQ(S(min(n, I(16))), "n");
  EXPECT_EQ(S(max(n, I(0))), "n");
  EXPECT_EQ(S(max(n, I(8))), "8");
  EXPECT_EQ(S(min(n, I(4))), "min(n, 4)");
}

TEST_F(AnalyzerTest, MinMaxCanonicalAndAbsorbing) {
  EXPECT_EQ(S(min(n, m)), S(min(m, n)));
  EXPECT_EQ(S(min(min(n, m), n)), "min(m, n)");
  EXPECT_EQ(S(max(min(n, m), n)), "n");
  EXPECT_EQ(S(min(n + m, n + 4)), "n + min(m, 4)");
}

// ------------------------------------------------------------- comparisons

TEST_F(AnalyzerTest, ComparisonsFoldByDifference) {
  EXPECT_EQ(S(lt(n, n + 1)), "True");
  EXPECT_EQ(S(le(n + 1, n)), "False");
  EXPECT_EQ(S(eq(n * 4, 4 * n)), "True");
  EXPECT_EQ(S(ne(n + m, m + n)), "False");
}

TEST_F(AnalyzerTest, ComparisonsNormalize) {
  EXPECT_EQ(S(lt(n * 4 + 4, m * 8)), "n < m * 2 - 1");
  EXPECT_EQ(S(le(n + 2, I(5))), "n <= 3");
  EXPECT_EQ(S(lt(I(5), n)), "n > 5");
  EXPECT_EQ(S(ge(n, I(1))), "n >= 1");
  EXPECT_EQ(S(eq(n, m)), S(eq(m, n)));
  EXPECT_EQ(S(gt(m, n)), S(lt(n, m)));
}

TEST_F(AnalyzerTest, ComparisonsDecidedByBounds) {
  ana.Bind(n, 1, 2048);
  EXPECT_EQ(S(lt(n, I(4096))), "True");
  EXPECT_EQ(S(gt(n, I(2048))), "False");
  EXPECT_EQ(S(eq(n, I(0))), "False");
  EXPECT_EQ(S(lt(n, I(100))), "n < 100");
}

TEST_F(AnalyzerTest, EqualityDecidedByModularSets) {
  EXPECT_EQ(S(eq(n * 4 + 1, m * 2)), "False");
  EXPECT_EQ(S(ne(n * 6, m * 3 + 1)), "True");
  EXPECT_EQ(S(eq(n * 4 + 2, m * 2)), "m == n * 2 + 1");
  EXPECT_EQ(S(eq(n * 3, I(7))), "False");  // no integer solution
}

// ------------------------------------------------------------- logic, select, cast

TEST_F(AnalyzerTest, LogicFolds) {
  PrimExpr c = lt(n, I(5));
  EXPECT_EQ(S(logical_and(c, MakeBool(true))), "n < 5");
  EXPECT_EQ(S(logical_and(c, MakeBool(false))), "False");
  EXPECT_EQ(S(logical_or(c, MakeBool(true))), "True");
  EXPECT_EQ(S(logical_or(c, logical_not(c))), "True");
  EXPECT_EQ(S(logical_and(c, ge(n, I(5)))), "False");
  EXPECT_EQ(S(logical_and(c, c)), "n < 5");
  EXPECT_EQ(S(logical_not(c)), "n >= 5");
  Var b = MakeVar("b", DataType::Bool());
  EXPECT_EQ(S(logical_not(logical_not(b))), "b");
  EXPECT_EQ(S(eq(b, b)), "True");
}

TEST_F(AnalyzerTest, SelectFolds) {
  EXPECT_EQ(S(select(MakeBool(true), n, m)), "n");
  EXPECT_EQ(S(select(lt(n, n + 1), n, m)), "n");
  EXPECT_EQ(S(select(lt(n, m), n * 2, n + n)), "n * 2");
  EXPECT_EQ(S(select(lt(n, m), n + 1, n + 2)), "n + select(n < m, 1, 2)");
  EXPECT_EQ(S(call(DataType::Int64(), "if_then_else", {MakeBool(false), n, m})), "m");
}

TEST_F(AnalyzerTest, CastsFoldConstants) {
  PrimExpr c32 = ana.Simplify(cast(DataType::Int32(), n * 0 + 5));
  EXPECT_EQ(c32->dtype, DataType::Int32());
  EXPECT_EQ(ToString(c32), "5");
  EXPECT_EQ(S(cast(DataType::Int(8), n * 0 + 300)), "44");  // wraps like the IR
  PrimExpr f = ana.Simplify(cast(DataType::Float32(), n * 0 + 3));
  ASSERT_TRUE(f.isa<FloatImmNode>());
  EXPECT_EQ(f.as<FloatImmNode>()->value, 3.0);
  EXPECT_EQ(S(cast(DataType::Int32(), MakeFloat(-2.7))), "-2");
}

TEST_F(AnalyzerTest, FloatsOnlyFoldConstantsAndUnits) {
  Var x = MakeVar("x", DataType::Float32());
  EXPECT_EQ(S(x * MakeFloat(1.0)), "x");
  EXPECT_EQ(S(x + MakeFloat(0.0)), "x");
  EXPECT_EQ(S(MakeFloat(1.5) + MakeFloat(2.0)), "3.5");
  EXPECT_EQ(S((x + MakeFloat(1.0)) + MakeFloat(2.0)), "x + 1 + 2");  // no reassociation
  EXPECT_EQ(S(x - x), "x - x");
  EXPECT_EQ(S(truncdiv(x, MakeFloat(0.0))), "truncdiv(x, 0)");  // float Div by zero
}

TEST_F(AnalyzerTest, LetWithSimpleValueIsInlined) {
  Var x = MakeVar("x");
  EXPECT_EQ(S(make<LetNode>(x, I(3), x + n)), "n + 3");
}

// ------------------------------------------------------------- facts

TEST_F(AnalyzerTest, BindToExpressionSubstitutes) {
  ana.Bind(m, n * 2);
  EXPECT_EQ(S(m + n), "n * 3");
  ModularSet mod = ana.Modular(m + 1);
  EXPECT_EQ(mod.coeff, 2);
  EXPECT_EQ(mod.base, 1);
}

TEST_F(AnalyzerTest, ConstraintsGiveRanges) {
  ana.AddConstraint(ge(n, I(1)));
  ana.AddConstraint(lt(n, I(10)));
  ConstIntBound b = ana.ConstBounds(n);
  EXPECT_EQ(b.min_value, 1);
  EXPECT_EQ(b.max_value, 9);
  ana.AddConstraint(logical_and(gt(m, I(2)), le(m * 2, I(11))));
  b = ana.ConstBounds(m);
  EXPECT_EQ(b.min_value, 3);
  EXPECT_EQ(b.max_value, 5);
  ana.AddConstraint(eq(k, I(7)));
  EXPECT_EQ(S(k * 2), "14");
}

TEST_F(AnalyzerTest, ModularConstraint) {
  EXPECT_FALSE(ana.CanProve(eq(floormod(n, 4), I(0))));
  ana.AddConstraint(eq(floormod(n, 4), I(0)));
  ModularSet mod = ana.Modular(n);
  EXPECT_EQ(mod.coeff, 4);
  EXPECT_EQ(mod.base, 0);
  EXPECT_EQ(S(floormod(n, 4)), "0");
  EXPECT_EQ(S(floormod(n * 3 + 2, 4)), "2");
  EXPECT_TRUE(ana.CanProve(eq(floormod(n + 8, 2), I(0))));
  EXPECT_FALSE(ana.CanProve(eq(floormod(n, 8), I(0))));
}

TEST_F(AnalyzerTest, ModularTightensRange) {
  ana.Bind(n, 1, 10);
  ana.AddConstraint(eq(floormod(n, 4), I(0)));
  ConstIntBound b = ana.ConstBounds(n);
  EXPECT_EQ(b.min_value, 4);
  EXPECT_EQ(b.max_value, 8);
}

// ------------------------------------------------------------- bounds

TEST_F(AnalyzerTest, BoundsOfShapeExpressions) {
  ana.Bind(n, 1, 2048);
  ConstIntBound b = ana.ConstBounds(floordiv(n + 1, 2));
  EXPECT_EQ(b.min_value, 1);
  EXPECT_EQ(b.max_value, 1024);
  b = ana.ConstBounds(n * 4 - 4);
  EXPECT_EQ(b.min_value, 0);
  EXPECT_EQ(b.max_value, 8188);
  b = ana.ConstBounds(floormod(m, 8));
  EXPECT_EQ(b.min_value, 0);
  EXPECT_EQ(b.max_value, 7);
}

TEST_F(AnalyzerTest, BoundsOfProductsAndDtypes) {
  ana.Bind(n, 1, 4);
  ana.Bind(m, -2, 3);
  ConstIntBound b = ana.ConstBounds(n * m);
  EXPECT_EQ(b.min_value, -8);
  EXPECT_EQ(b.max_value, 12);
  b = ana.ConstBounds(k);
  EXPECT_EQ(b.min_value, ConstIntBound::kNegInf);
  EXPECT_EQ(b.max_value, ConstIntBound::kPosInf);
  b = ana.ConstBounds(MakeVar("u", DataType::UInt(32)));
  EXPECT_EQ(b.min_value, 0);
  EXPECT_EQ(b.max_value, 4294967295);
  b = ana.ConstBounds(MakeVar("i", DataType::Int32()));
  EXPECT_EQ(b.min_value, INT32_MIN);
  EXPECT_EQ(b.max_value, INT32_MAX);
}

TEST_F(AnalyzerTest, BoundsSaturate) {
  ana.Bind(n, 0, 4);
  ConstIntBound b = ana.ConstBounds(n * (int64_t{1} << 62));
  EXPECT_EQ(b.min_value, 0);
  EXPECT_EQ(b.max_value, ConstIntBound::kPosInf);
  b = ana.ConstBounds(k * k);  // a square is non-negative even when unbounded
  EXPECT_EQ(b.min_value, 0);
  EXPECT_EQ(b.max_value, ConstIntBound::kPosInf);
  b = ana.ConstBounds(floordiv(k, 4) - k);
  EXPECT_EQ(b.min_value, ConstIntBound::kNegInf);
}

TEST_F(AnalyzerTest, BoundsOfMinMaxSelect) {
  ana.Bind(n, 0, 10);
  ConstIntBound b = ana.ConstBounds(min(n, I(4)));
  EXPECT_EQ(b.min_value, 0);
  EXPECT_EQ(b.max_value, 4);
  b = ana.ConstBounds(select(lt(m, I(0)), n, n + 20));
  EXPECT_EQ(b.min_value, 0);
  EXPECT_EQ(b.max_value, 30);
}

// ------------------------------------------------------------- CanProve

TEST_F(AnalyzerTest, CanProveUnderBounds) {
  ana.Bind(n, 1, 2048);
  EXPECT_TRUE(ana.CanProve(lt(n, I(4096))));
  EXPECT_TRUE(ana.CanProveGreaterEqual(n, 1));
  EXPECT_TRUE(ana.CanProveLess(floordiv(n + 1, 2), n + 1));
  EXPECT_TRUE(ana.CanProveLessEqual(floordiv(n + 1, 2) * 2, n + 1));
  EXPECT_TRUE(ana.CanProve(logical_and(ge(n, I(1)), le(n, I(2048)))));
  EXPECT_TRUE(ana.CanProve(logical_or(lt(n, m), ge(n, I(0)))));
}

TEST_F(AnalyzerTest, CanProveDoesNotClaimUnprovableFacts) {
  EXPECT_FALSE(ana.CanProve(lt(n, m)));
  EXPECT_FALSE(ana.CanProve(ge(n, I(0))));  // int64 vars are unbounded
  EXPECT_FALSE(ana.CanProve(lt(floormod(n, 4), I(3))));
  EXPECT_FALSE(ana.CanProve(eq(n * 4, m * 4)));
  EXPECT_FALSE(ana.CanProveGreaterEqual(n - 1, 0));
  ana.Bind(n, 1, 2048);
  EXPECT_FALSE(ana.CanProve(lt(n, I(2048))));
  EXPECT_FALSE(ana.CanProve(logical_and(ge(n, I(1)), lt(n, I(5)))));
  EXPECT_FALSE(ana.CanProveEqual(floordiv(n, 2) * 2, n));
}

TEST_F(AnalyzerTest, CanProveWithSquaresAndMod) {
  EXPECT_TRUE(ana.CanProve(ge(n * n, I(0))));
  EXPECT_TRUE(ana.CanProve(lt(floormod(n, 4), I(4))));
  EXPECT_TRUE(ana.CanProve(ge(floormod(n, 4), I(0))));
  ana.Bind(n, 0, 2);
  EXPECT_TRUE(ana.CanProve(lt(floormod(n, 4), I(3))));
}

TEST_F(AnalyzerTest, ModularSetsOfArithmetic) {
  ModularSet a = ana.Modular(n * 4 + 2);
  EXPECT_EQ(a.coeff, 4);
  EXPECT_EQ(a.base, 2);
  ModularSet b = ana.Modular(n * 6 + m * 4 + 3);
  EXPECT_EQ(b.coeff, 2);
  EXPECT_EQ(b.base, 1);
  ModularSet c = ana.Modular(I(7));
  EXPECT_EQ(c.coeff, 0);
  EXPECT_EQ(c.base, 7);
  ModularSet d = ana.Modular((n * 2 + 1) * (m * 2 + 1));
  EXPECT_EQ(d.coeff, 2);
  EXPECT_EQ(d.base, 1);
}

// ------------------------------------------------------------- scale

// Rules re-canonicalize the operands of atoms (x in x // c) and analyses walk
// atoms: without memoization these cases are exponential and never finish.
TEST_F(AnalyzerTest, NestedAndSharedExpressionsStayLinear) {
  ana.Bind(n, 0, 1000);
  PrimExpr chain = n;
  for (int i = 0; i < 300; ++i) chain = max(floordiv(chain + 1, 2), n - i);
  EXPECT_GT(ToString(ana.Simplify(chain)).size(), 300u);
  PrimExpr dag = n;  // a tree of 2^60 nodes, a DAG of 60 levels
  for (int i = 0; i < 60; ++i) dag = max(floordiv(dag, 2), floordiv(dag + 1, 3)) + min(dag, n);
  ConstIntBound b = ana.ConstBounds(dag);
  EXPECT_EQ(b.min_value, 0);
  EXPECT_EQ(b.max_value, 1999);
  EXPECT_TRUE(ana.CanProve(ge(dag, I(0))));
  EXPECT_FALSE(ana.CanProve(ge(dag, I(1))));
  ana.Simplify(dag);
}

TEST_F(AnalyzerTest, LongSums) {
  PrimExpr sum = I(0);
  std::vector<Var> vars;
  for (int i = 0; i < 300; ++i) {
    vars.push_back(MakeVar("v" + std::to_string(i)));
    sum = sum + vars.back() * (i % 7 + 1);
  }
  for (int i = 299; i >= 0; --i) sum = sum - vars[i] * (i % 7 + 1);
  EXPECT_EQ(S(sum), "0");
}

// ------------------------------------------------------------- EvaluateInt

TEST_F(AnalyzerTest, EvaluateIntSemantics) {
  std::unordered_map<const VarNode*, int64_t> at{{n.get(), -7}, {m.get(), 2}};
  EXPECT_EQ(EvaluateInt(floordiv(n, m), at), -4);
  EXPECT_EQ(EvaluateInt(floormod(n, m), at), 1);
  EXPECT_EQ(EvaluateInt(truncdiv(n, m), at), -3);
  EXPECT_EQ(EvaluateInt(truncmod(n, m), at), -1);
  EXPECT_EQ(EvaluateInt(select(lt(n, m), n, m), at), -7);
  EXPECT_EQ(EvaluateInt(floordiv(n, m - 2), at), std::nullopt);
  EXPECT_EQ(EvaluateInt(n + k, at), std::nullopt);  // k unbound
  EXPECT_EQ(EvaluateInt(MakeFloat(1.0) + MakeFloat(2.0), at), std::nullopt);
  // Select evaluates both arms; if_then_else only the chosen one.
  EXPECT_EQ(EvaluateInt(select(MakeBool(true), n, floordiv(n, I(0))), at), std::nullopt);
  EXPECT_EQ(EvaluateInt(call(DataType::Int64(), "if_then_else", {MakeBool(true), n, floordiv(n, I(0))}), at), -7);
}

TEST_F(AnalyzerTest, EvaluateIntWrapsAndExactReportsOverflow) {
  PrimExpr big = MakeInt(INT32_MAX, DataType::Int32()) + MakeInt(1, DataType::Int32());
  EXPECT_EQ(EvaluateInt(big, {}), INT32_MIN);
  EXPECT_EQ(EvaluateIntExact(big, {}), std::nullopt);
  PrimExpr big64 = MakeInt(INT64_MAX) * 2;
  EXPECT_EQ(EvaluateInt(big64, {}), -2);
  EXPECT_EQ(EvaluateIntExact(big64, {}), std::nullopt);
  EXPECT_EQ(EvaluateInt(cast(DataType::Int(8), MakeInt(300)), {}), 44);
}

}  // namespace
}  // namespace rlx::arith
