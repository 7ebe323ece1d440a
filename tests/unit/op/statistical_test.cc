// Struct-info deduction of the reductions sum, mean, max, min and prod.
#include <gtest/gtest.h>

#include "op_test_util.h"

namespace rlx::op::testing {
namespace {

using ReductionTest = OpTest;
using Axes = std::vector<int64_t>;

TEST_F(ReductionTest, ReducesListedAxes) {
  ExpectTensor(Infer(sum(TensorVar("x", {n, Int(4), m}), Axes{1})), {n, m}, kF32);
  ExpectTensor(Infer(mean(TensorVar("x", {n, Int(4), m}), Axes{0, 2})), {Int(4)}, kF32);
}

TEST_F(ReductionTest, KeepdimsKeepsOnes) {
  ExpectTensor(Infer(max(TensorVar("x", {n, Int(4), m}), Axes{1}, true)), {n, Int(1), m}, kF32);
}

TEST_F(ReductionTest, NegativeAxesCountFromTheEnd) {
  ExpectTensor(Infer(min(TensorVar("x", {n, Int(4), m}), Axes{-1})), {n, Int(4)}, kF32);
  ExpectTensor(Infer(prod(TensorVar("x", {n, Int(4), m}, kI32), Axes{-3, -1}, true)), {Int(1), Int(4), Int(1)},
               kI32);
}

TEST_F(ReductionTest, NoAxisReducesEverything) {
  ExpectTensor(Infer(sum(TensorVar("x", {n, Int(4)}))), {}, kF32);
  ExpectTensor(Infer(sum(TensorVar("x", {n, Int(4)}), std::nullopt, true)), {Int(1), Int(1)}, kF32);
}

TEST_F(ReductionTest, AxisOutOfRangeIsAnError) {
  EXPECT_EQ(InferError(sum(TensorVar("x", {n, Int(4)}), Axes{3})),
            "sum: axis 3 is out of range for a tensor of rank 2");
  EXPECT_EQ(InferError(mean(TensorVar("x", {n, Int(4)}), Axes{-3})),
            "mean: axis -3 is out of range for a tensor of rank 2");
}

TEST_F(ReductionTest, RepeatedAxisIsAnError) {
  EXPECT_EQ(InferError(sum(TensorVar("x", {n, Int(4)}), Axes{1, -1})), "sum: axis 1 appears more than once in [1, -1]");
}

TEST_F(ReductionTest, UnknownRank) {
  ExpectTensor(Infer(sum(TensorVar("x", -1))), {}, kF32);
  ExpectTensorRank(Infer(sum(TensorVar("x", -1), std::nullopt, true)), -1, kF32);
  ExpectTensorRank(Infer(sum(TensorVar("x", -1), Axes{0})), -1, kF32);
}

TEST_F(ReductionTest, UnknownShapeKnownRank) {
  ExpectTensorRank(Infer(sum(TensorVar("x", 3), Axes{0})), 2, kF32);
  ExpectTensorRank(Infer(sum(TensorVar("x", 3), Axes{0}, true)), 3, kF32);
  EXPECT_EQ(InferError(sum(TensorVar("x", 3), Axes{5})), "sum: axis 5 is out of range for a tensor of rank 3");
}

TEST_F(ReductionTest, AttributesFollowTheConvention) {
  Call all_axes = sum(TensorVar("x", {n}));
  ASSERT_TRUE(all_axes->attrs.defined());
  EXPECT_FALSE(all_axes->attrs->Contains("axis"));  // None: absent
  const auto* keepdims = all_axes->attrs->Get("keepdims").as<ir::IntImmNode>();
  ASSERT_NE(keepdims, nullptr);
  EXPECT_TRUE(keepdims->dtype.is_bool());
  EXPECT_EQ(keepdims->value, 0);

  Call one_axis = sum(TensorVar("x", {n}), Axes{0});
  const auto* axis = one_axis->attrs->Get("axis").as<ir::ArrayNode>();
  ASSERT_NE(axis, nullptr);
  ASSERT_EQ(axis->elements.size(), 1u);
  EXPECT_EQ(cast<ir::IntImmNode>(axis->elements[0])->dtype, DataType::Int64());
}

TEST_F(ReductionTest, ScalarAxisAttributeIsAccepted) {
  // The parser may store `axis=1` as a single IntImm.
  ir::Dict attrs = ir::DictWith(nullptr, "axis", ir::MakeInt(1));
  Call call = graph::MakeCall("relax.sum", {TensorVar("x", {n, Int(4)})}, attrs);
  ExpectTensor(Infer(call), {n}, kF32);
}

TEST_F(ReductionTest, BadAttributeTypesAreErrors) {
  graph::Var x = TensorVar("x", {n, Int(4)});
  Call bad_keepdims = graph::MakeCall("relax.sum", {x}, ir::DictWith(nullptr, "keepdims", ir::MakeString("yes")));
  EXPECT_EQ(InferError(bad_keepdims), "sum: attribute 'keepdims' expects a bool, got \"yes\"");
  Call bad_axis = graph::MakeCall("relax.sum", {x}, ir::DictWith(nullptr, "axis", ir::MakeFloat(1.5)));
  EXPECT_EQ(InferError(bad_axis), "sum: attribute 'axis' expects a list of integers, got " +
                                      ir::ToString(ir::MakeFloat(1.5)));
}

TEST_F(ReductionTest, RegisteredWithAttributeSpecs) {
  for (const char* name : {"sum", "mean", "max", "min", "prod"}) {
    const graph::OpInfo* info = graph::FindOpByScriptName(std::string("R.") + name);
    ASSERT_NE(info, nullptr) << name;
    EXPECT_EQ(info->pattern, graph::OpPatternKind::kCommReduce) << name;
    ASSERT_EQ(info->attrs.size(), 2u) << name;
    EXPECT_EQ(info->attrs[0].name, "axis");
    EXPECT_EQ(info->attrs[0].kind, graph::AttrKind::kOptionalIntList);
    EXPECT_FALSE(info->attrs[0].default_value.defined());  // defaults to None
    EXPECT_EQ(info->attrs[1].name, "keepdims");
    EXPECT_EQ(info->attrs[1].kind, graph::AttrKind::kBool);
    EXPECT_TRUE(ir::IsConstInt(cast<ir::PrimExprNode>(info->attrs[1].default_value), 0));
  }
}

TEST_F(ReductionTest, RegisterAllOpsIsIdempotent) {
  size_t before = graph::ListOps().size();
  RegisterAllOps();
  RegisterAllOps();
  EXPECT_EQ(graph::ListOps().size(), before);
  EXPECT_NE(graph::FindOp("relax.sum"), nullptr);
}

TEST_F(ReductionTest, BlockBuilderSoftmaxLikeChain) {
  graph::Var x = TensorVar("x", {b, n, Int(64)});
  graph::BlockBuilder builder;
  builder.BeginScope({x});
  builder.BeginDataflowBlock();
  graph::Var row_max = builder.Emit(max(x, Axes{-1}, true), "lv0");
  graph::Var shifted = builder.Emit(subtract(x, row_max), "lv1");
  graph::Var exps = builder.Emit(exp(shifted), "lv2");
  graph::Var total = builder.Emit(sum(exps, Axes{-1}, true), "lv3");
  graph::Var probs = builder.Emit(divide(exps, total), "lv4");
  builder.EndBlock();
  builder.EndScope();
  ExpectTensor(graph::GetStructInfo(row_max), {b, n, Int(1)}, kF32);
  ExpectTensor(graph::GetStructInfo(total), {b, n, Int(1)}, kF32);
  ExpectTensor(graph::GetStructInfo(probs), {b, n, Int(64)}, kF32);
}

}  // namespace
}  // namespace rlx::op::testing
