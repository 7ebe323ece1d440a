// Tests for the struct-info lattice: base checks at each level, least upper
// bounds, erasure, symbolic var collection, substitution and call deduction.
#include "rlx/graph/struct_info_analysis.h"

#include <gtest/gtest.h>

#include "rlx/graph/block_builder.h"
#include "rlx/support/diagnostic.h"

namespace rlx::graph {
namespace {

using ir::MakeInt;

const DataType kF32 = DataType::Float32();
const DataType kF16 = DataType::Float(16);

StructInfo Tensor(std::vector<PrimExpr> dims, DataType dtype = kF32) { return TensorSInfo(std::move(dims), dtype); }

class StructInfoAnalysisTest : public ::testing::Test {
 protected:
  arith::Analyzer ana;
  ir::Var n = ir::MakeVar("n");
  ir::Var m = ir::MakeVar("m");
  ir::Var k = ir::MakeVar("k");

  BaseCheckResult Check(const StructInfo& base, const StructInfo& derived) {
    return StructInfoBaseCheck(base, derived, ana);
  }
};

// ---------------------------------------------------------------------------
// Base check.

TEST_F(StructInfoAnalysisTest, BaseCheckPassesForEqualAndLessPreciseBases) {
  StructInfo precise = Tensor({n, MakeInt(4)});
  EXPECT_EQ(Check(Tensor({n, MakeInt(4)}), precise), BaseCheckResult::kPass);
  EXPECT_EQ(Check(TensorSInfo(kF32, 2), precise), BaseCheckResult::kPass);
  EXPECT_EQ(Check(TensorSInfo(DataType::Void(), -1), precise), BaseCheckResult::kPass);
  EXPECT_EQ(Check(ObjectSInfo(), precise), BaseCheckResult::kPass);
  EXPECT_TRUE(IsBaseOf(TensorSInfo(kF32, 2), precise, ana));
  EXPECT_FALSE(IsBaseOf(precise, TensorSInfo(kF32, 2), ana));
}

TEST_F(StructInfoAnalysisTest, BaseCheckFailsL2OnUnprovenSymbolicValues) {
  EXPECT_EQ(Check(Tensor({n, MakeInt(4)}), Tensor({m, MakeInt(4)})), BaseCheckResult::kFailL2);
  EXPECT_EQ(Check(Tensor({n, MakeInt(4)}), TensorSInfo(kF32, 2)), BaseCheckResult::kFailL2);
  EXPECT_EQ(Check(ShapeSInfo({n, MakeInt(4)}), ShapeSInfo(2)), BaseCheckResult::kFailL2);
  EXPECT_EQ(Check(PrimValueSInfo(n), PrimSInfo(DataType::Int64())), BaseCheckResult::kFailL2);
}

TEST_F(StructInfoAnalysisTest, BaseCheckFailsL1WhenDerivedIsLessSpecific) {
  EXPECT_EQ(Check(TensorSInfo(kF32, 2), TensorSInfo(kF32, -1)), BaseCheckResult::kFailL1);
  EXPECT_EQ(Check(TensorSInfo(kF32, 2), TensorSInfo(DataType::Void(), 2)), BaseCheckResult::kFailL1);
  EXPECT_EQ(Check(Tensor({n}), ObjectSInfo()), BaseCheckResult::kFailL1);
  EXPECT_EQ(Check(ShapeSInfo(3), ShapeSInfo(-1)), BaseCheckResult::kFailL1);
}

TEST_F(StructInfoAnalysisTest, BaseCheckFailsL0OnProvableMismatch) {
  EXPECT_EQ(Check(TensorSInfo(kF32, 2), TensorSInfo(kF32, 3)), BaseCheckResult::kFailL0);
  EXPECT_EQ(Check(TensorSInfo(kF32, 2), TensorSInfo(kF16, 2)), BaseCheckResult::kFailL0);
  EXPECT_EQ(Check(Tensor({MakeInt(3), MakeInt(4)}), Tensor({MakeInt(3), MakeInt(5)})), BaseCheckResult::kFailL0);
  EXPECT_EQ(Check(Tensor({n}), ShapeSInfo({n})), BaseCheckResult::kFailL0);
  EXPECT_EQ(Check(ShapeSInfo(3), ShapeSInfo(2)), BaseCheckResult::kFailL0);
  EXPECT_EQ(Check(PrimSInfo(DataType::Int64()), PrimSInfo(kF32)), BaseCheckResult::kFailL0);
}

TEST_F(StructInfoAnalysisTest, BaseCheckOfTuplesTakesTheWeakestField) {
  StructInfo base = TupleSInfo({Tensor({n}), TensorSInfo(kF32, 2)});
  EXPECT_EQ(Check(base, TupleSInfo({Tensor({n}), Tensor({m, n})})), BaseCheckResult::kPass);
  EXPECT_EQ(Check(base, TupleSInfo({Tensor({m}), Tensor({m, n})})), BaseCheckResult::kFailL2);
  EXPECT_EQ(Check(base, TupleSInfo({Tensor({m}), TensorSInfo(kF32, 3)})), BaseCheckResult::kFailL0);
  EXPECT_EQ(Check(base, TupleSInfo({Tensor({n})})), BaseCheckResult::kFailL0);
}

TEST_F(StructInfoAnalysisTest, BaseCheckOfCallablesIsContravariantInParameters) {
  StructInfo base = make<FuncStructInfoNode>(std::vector<StructInfo>{Tensor({n})}, TensorSInfo(kF32, 1));
  StructInfo accepts_more = make<FuncStructInfoNode>(std::vector<StructInfo>{ObjectSInfo()}, Tensor({n}));
  StructInfo accepts_less = make<FuncStructInfoNode>(std::vector<StructInfo>{TensorSInfo(kF32, 2)}, Tensor({n}));
  StructInfo impure = make<FuncStructInfoNode>(std::vector<StructInfo>{Tensor({n})}, Tensor({n}), false);
  EXPECT_EQ(Check(base, accepts_more), BaseCheckResult::kPass);
  EXPECT_EQ(Check(base, accepts_less), BaseCheckResult::kFailL0);
  EXPECT_EQ(Check(base, impure), BaseCheckResult::kFailL0);
  EXPECT_EQ(Check(FuncStructInfoNode::Opaque(ObjectSInfo()), accepts_more), BaseCheckResult::kPass);
}

TEST_F(StructInfoAnalysisTest, BaseCheckUsesTheAnalyzerForEquality) {
  // n * 2 vs n * 2 built separately: provably equal, not the same node.
  EXPECT_EQ(Check(Tensor({n * 2}), Tensor({n * 2})), BaseCheckResult::kPass);
  EXPECT_STREQ(BaseCheckResultName(BaseCheckResult::kFailL1), "fail-L1");
}

// ---------------------------------------------------------------------------
// Least upper bound.

TEST_F(StructInfoAnalysisTest, LCAOfTensorsKeepsOnlyWhatBothAgreeOn) {
  StructInfo lca = StructInfoLCA(Tensor({n, MakeInt(4)}), Tensor({m, MakeInt(4)}), ana);
  EXPECT_EQ(ToString(lca), "Tensor(ndim=2, float32)");
  StructInfo same = StructInfoLCA(Tensor({n, MakeInt(4)}), Tensor({n, MakeInt(4)}), ana);
  EXPECT_EQ(ToString(same), "Tensor((n, 4), float32)");
  EXPECT_EQ(ToString(StructInfoLCA(Tensor({n}), Tensor({n}, kF16), ana)), "Tensor((n,))");
  EXPECT_EQ(ToString(StructInfoLCA(Tensor({n}), Tensor({n, m}), ana)), "Tensor(ndim=-1, float32)");
}

TEST_F(StructInfoAnalysisTest, LCAOfDifferentKindsIsObject) {
  EXPECT_TRUE(StructInfoLCA(Tensor({n}), ShapeSInfo({n}), ana).isa<ObjectStructInfoNode>());
  EXPECT_TRUE(StructInfoLCA(PrimSInfo(kF32), PrimSInfo(DataType::Int64()), ana).isa<ObjectStructInfoNode>());
  StructInfo tuples = StructInfoLCA(TupleSInfo({Tensor({n})}), TupleSInfo({Tensor({n}), Tensor({n})}), ana);
  EXPECT_TRUE(tuples.isa<ObjectStructInfoNode>());
}

TEST_F(StructInfoAnalysisTest, LCAOfTuplesPrimsAndShapesIsFieldwise) {
  StructInfo tuple = StructInfoLCA(TupleSInfo({Tensor({n}), PrimValueSInfo(n)}),
                                   TupleSInfo({Tensor({n}), PrimValueSInfo(m)}), ana);
  EXPECT_EQ(ToString(tuple), "Tuple(Tensor((n,), float32), Prim(int64))");
  EXPECT_EQ(ToString(StructInfoLCA(ShapeSInfo({n, m}), ShapeSInfo({n, k}), ana)), "Shape(ndim=2)");
  EXPECT_EQ(ToString(StructInfoLCA(ShapeSInfo({n}), ShapeSInfo({n, k}), ana)), "Shape(ndim=-1)");
}

TEST_F(StructInfoAnalysisTest, LCAReturnsTheFirstOperandWhenItIsAlreadyTheBound) {
  StructInfo coarse = TensorSInfo(kF32, 2);
  EXPECT_TRUE(StructInfoLCA(coarse, Tensor({n, m}), ana).same_as(coarse));
  StructInfo tuple = TupleSInfo({coarse, ObjectSInfo()});
  EXPECT_TRUE(StructInfoLCA(tuple, TupleSInfo({Tensor({n, m}), Tensor({n})}), ana).same_as(tuple));
}

// ---------------------------------------------------------------------------
// Erasure.

TEST_F(StructInfoAnalysisTest, EraseDropsExpressionsOverUndefinedVars) {
  auto only_n = [this](const ir::Var& var) { return var.same_as(n); };
  EXPECT_EQ(ToString(EraseToWellDefined(Tensor({n, m}), only_n)), "Tensor(ndim=2, float32)");
  EXPECT_EQ(ToString(EraseToWellDefined(ShapeSInfo({n, m * 2}), only_n)), "Shape(ndim=2)");
  EXPECT_EQ(ToString(EraseToWellDefined(PrimValueSInfo(m), only_n)), "Prim(int64)");
  EXPECT_EQ(ToString(EraseToWellDefined(TupleSInfo({Tensor({n * 4}), Tensor({k})}), only_n)),
            "Tuple(Tensor((n * 4,), float32), Tensor(ndim=1, float32))");
}

TEST_F(StructInfoAnalysisTest, EraseKeepsTheSameNodeWhenAllIsDefined) {
  StructInfo sinfo = TupleSInfo({Tensor({n, m}), PrimValueSInfo(n)});
  EXPECT_TRUE(EraseToWellDefined(sinfo, [](const ir::Var&) { return true; }).same_as(sinfo));
  EXPECT_TRUE(EraseToWellDefined(sinfo, nullptr).same_as(sinfo));
}

TEST_F(StructInfoAnalysisTest, EraseReplacesAnOutOfScopeShapeVarByItsValues) {
  Var shape_var = MakeVar("s", ShapeSInfo({n, MakeInt(4)}));
  StructInfo sinfo = make<TensorStructInfoNode>(Expr(shape_var), kF32);
  auto all_sym = [](const ir::Var&) { return true; };
  auto no_relax = [](const Var&) { return false; };
  StructInfo erased = EraseToWellDefined(sinfo, all_sym, no_relax);
  ASSERT_FALSE(erased.same_as(sinfo));
  EXPECT_EQ(ToString(erased), "Tensor((n, 4), float32)");
  EXPECT_TRUE(erased.as<TensorStructInfoNode>()->shape.isa<ShapeExprNode>());
  auto no_sym = [](const ir::Var&) { return false; };
  EXPECT_EQ(ToString(EraseToWellDefined(sinfo, no_sym, no_relax)), "Tensor(ndim=2, float32)");
  EXPECT_TRUE(EraseToWellDefined(sinfo, no_sym, [](const Var&) { return true; }).same_as(sinfo));
}

TEST_F(StructInfoAnalysisTest, EraseKeepsVarsBoundByACallablesOwnParameters) {
  StructInfo func = make<FuncStructInfoNode>(std::vector<StructInfo>{Tensor({n})}, Tensor({n * 2, m}));
  StructInfo erased = EraseToWellDefined(func, [](const ir::Var&) { return false; });
  EXPECT_EQ(ToString(erased), "Callable((Tensor((n,), float32)), Tensor(ndim=2, float32))");
}

// ---------------------------------------------------------------------------
// Var collection and substitution.

TEST_F(StructInfoAnalysisTest, DefinableVarsAreBareDimensionsInOrder) {
  StructInfo sinfo = TupleSInfo({Tensor({n, m * 2, n}), PrimValueSInfo(k), ShapeSInfo({k + 1, m})});
  std::vector<ir::Var> definable = DefinableTIRVarsInStructInfo(sinfo);
  ASSERT_EQ(definable.size(), 3u);
  EXPECT_TRUE(definable[0].same_as(n));
  EXPECT_TRUE(definable[1].same_as(k));
  EXPECT_TRUE(definable[2].same_as(m));
  std::vector<ir::Var> used = TIRVarsInStructInfo(sinfo);
  ASSERT_EQ(used.size(), 3u);
  EXPECT_TRUE(used[0].same_as(n));
  EXPECT_TRUE(used[1].same_as(m));
  EXPECT_TRUE(used[2].same_as(k));
  // A callable value defines nothing, but uses its vars.
  StructInfo func = make<FuncStructInfoNode>(std::vector<StructInfo>{Tensor({n})}, Tensor({n}));
  EXPECT_TRUE(DefinableTIRVarsInStructInfo(func).empty());
  EXPECT_EQ(TIRVarsInStructInfo(func).size(), 1u);
}

TEST_F(StructInfoAnalysisTest, SubstituteReplacesAndSimplifies) {
  StructInfo sinfo = TupleSInfo({Tensor({n, m * 2}), PrimValueSInfo(n)});
  auto fmap = [this](const ir::Var& var) -> PrimExpr {
    if (var.same_as(n)) return MakeInt(3);
    if (var.same_as(m)) return MakeInt(5);
    return nullptr;
  };
  StructInfo result = SubstituteStructInfo(sinfo, fmap, &ana);
  EXPECT_EQ(ToString(result), "Tuple(Tensor((3, 10), float32), Prim(value=3, int64))");
  auto none = [](const ir::Var&) -> PrimExpr { return nullptr; };
  EXPECT_TRUE(SubstituteStructInfo(sinfo, none).same_as(sinfo));
}

// ---------------------------------------------------------------------------
// Call deduction.

class DeriveCallTest : public StructInfoAnalysisTest {
 protected:
  // f(x: Tensor((n, m), f32)) -> Tensor((n * m,), f32)
  FuncStructInfo Signature(std::vector<StructInfo> params, StructInfo ret) {
    return make<FuncStructInfoNode>(std::move(params), std::move(ret));
  }
  Call CallF(std::vector<StructInfo> arg_sinfo) {
    std::vector<Expr> args;
    for (size_t i = 0; i < arg_sinfo.size(); ++i) args.push_back(MakeVar("a" + std::to_string(i), arg_sinfo[i]));
    return make<CallNode>(make<GlobalVarNode>("f"), std::move(args));
  }
  std::string ErrorOf(const FuncStructInfo& finfo, const Call& call) {
    try {
      DeriveCallRetStructInfo(finfo, call, bb);
    } catch (const CompileError& error) {
      return error.diagnostic().message;
    }
    return "<no error>";
  }
  BlockBuilder bb;
};

TEST_F(DeriveCallTest, BindsSymbolicParametersAndSubstitutesTheReturn) {
  FuncStructInfo f = Signature({Tensor({n, m})}, Tensor({n * m}));
  StructInfo ret = DeriveCallRetStructInfo(f, CallF({Tensor({MakeInt(2), k})}), bb);
  auto dims = ret.as<TensorStructInfoNode>()->GetShape();
  ASSERT_TRUE(dims.has_value());
  ASSERT_EQ(dims->size(), 1u);
  EXPECT_TRUE(ana.CanProveEqual((*dims)[0], MakeInt(2) * k)) << ToString(ret);
}

TEST_F(DeriveCallTest, ProvableMismatchNamesBothShapes) {
  FuncStructInfo f = Signature({Tensor({n, n})}, Tensor({n}));
  EXPECT_EQ(ErrorOf(f, CallF({Tensor({MakeInt(3), MakeInt(4)})})),
            "argument 0 of 'f': expected Tensor((n, n), float32), got Tensor((3, 4), float32)");
  EXPECT_EQ(ErrorOf(f, CallF({TensorSInfo(kF32, 3)})),
            "argument 0 of 'f': expected Tensor((n, n), float32), got Tensor(ndim=3, float32)");
}

TEST_F(DeriveCallTest, CompoundDimensionsAreCheckedAfterBinding) {
  // The compound dim comes first; `n` is bound by the second parameter.
  FuncStructInfo f = Signature({Tensor({n * 2}), Tensor({n})}, Tensor({n}));
  EXPECT_EQ(ErrorOf(f, CallF({Tensor({MakeInt(7)}), Tensor({MakeInt(3)})})),
            "argument 0 of 'f': expected Tensor((n * 2,), float32), got Tensor((7,), float32)");
  StructInfo ok = DeriveCallRetStructInfo(f, CallF({Tensor({MakeInt(6)}), Tensor({MakeInt(3)})}), bb);
  EXPECT_EQ(ToString(ok), "Tensor((3,), float32)");
}

TEST_F(DeriveCallTest, UndecidableArgumentsAreAcceptedAndUnboundVarsErased) {
  FuncStructInfo f = Signature({Tensor({n, n})}, TupleSInfo({Tensor({n}), Tensor({m})}));
  ir::Var j = ir::MakeVar("j");
  StructInfo ret = DeriveCallRetStructInfo(f, CallF({Tensor({k, j})}), bb);
  EXPECT_EQ(ToString(ret), "Tuple(Tensor((k,), float32), Tensor(ndim=1, float32))");
}

TEST_F(DeriveCallTest, ArgumentCountAndOpaqueCallees) {
  FuncStructInfo f = Signature({Tensor({n})}, Tensor({n}));
  EXPECT_EQ(ErrorOf(f, CallF({Tensor({n}), Tensor({n})})), "'f' expects 1 argument, got 2");
  FuncStructInfo opaque = FuncStructInfoNode::Opaque(TensorSInfo(kF32, 1));
  EXPECT_EQ(ToString(DeriveCallRetStructInfo(opaque, CallF({}), bb)), "Tensor(ndim=1, float32)");
}

}  // namespace
}  // namespace rlx::graph
