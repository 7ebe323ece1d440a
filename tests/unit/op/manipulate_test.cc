// Struct-info deduction of reshape and permute_dims.
#include <gtest/gtest.h>

#include "op_test_util.h"

namespace rlx::op::testing {
namespace {

using ManipulateTest = OpTest;

graph::Expr ShapeOf(Shape values) { return make<graph::ShapeExprNode>(std::move(values)); }

// ---------------------------------------------------------------------------
// reshape

TEST_F(ManipulateTest, ReshapeStatic) {
  ExpectTensor(Infer(reshape(TensorVar("x", {Int(2), Int(3), Int(4)}), ShapeOf({Int(6), Int(4)}))),
               {Int(6), Int(4)}, kF32);
}

TEST_F(ManipulateTest, ReshapeInfersMinusOneStatic) {
  ExpectTensor(Infer(reshape(TensorVar("x", {Int(2), Int(3), Int(4)}), ShapeOf({Int(3), Int(-1), Int(8)}))),
               {Int(3), Int(1), Int(8)}, kF32);
  ExpectTensor(Infer(reshape(TensorVar("x", {Int(2), Int(3), Int(4)}), ShapeOf({Int(-1)}))), {Int(24)}, kF32);
}

TEST_F(ManipulateTest, ReshapeInfersMinusOneSymbolic) {
  StructInfo flat = Infer(reshape(TensorVar("x", {n, Int(4)}), ShapeOf({Int(-1)})));
  ExpectTensor(flat, {n * 4}, kF32);
  // The inferred dim is simplified: no division is left in it.
  std::string dim = ir::ToString((*flat.as<graph::TensorStructInfoNode>()->GetShape())[0]);
  EXPECT_EQ(dim.find("//"), std::string::npos) << dim;
  ExpectTensor(Infer(reshape(TensorVar("x", {n, Int(4)}), ShapeOf({Int(2), Int(-1)}))), {Int(2), n * 2}, kF32);
  ExpectTensor(Infer(reshape(TensorVar("x", {b, n, Int(32)}), ShapeOf({b, n, Int(4), Int(-1)}))),
               {b, n, Int(4), Int(8)}, kF32);
}

TEST_F(ManipulateTest, ReshapeSymbolicWithoutMinusOne) {
  ExpectTensor(Infer(reshape(TensorVar("x", {n, Int(4)}), ShapeOf({n * 4}))), {n * 4}, kF32);
  ExpectTensor(Infer(reshape(TensorVar("x", {n * 2, Int(2)}), ShapeOf({n, Int(4)}))), {n, Int(4)}, kF32);
}

TEST_F(ManipulateTest, ReshapeElementCountMismatchIsAnError) {
  EXPECT_EQ(InferError(reshape(TensorVar("x", {n, Int(4)}), ShapeOf({n, Int(5)}))),
            "reshape: cannot reshape a tensor of shape (n, 4) into shape (n, 5)");
  EXPECT_EQ(InferError(reshape(TensorVar("x", {Int(2), Int(3)}), ShapeOf({Int(7)}))),
            "reshape: cannot reshape a tensor of shape (2, 3) into shape (7,)");
}

TEST_F(ManipulateTest, ReshapeUndecidableCountIsAccepted) {
  ExpectTensor(Infer(reshape(TensorVar("x", {n, Int(4)}), ShapeOf({m, Int(4)}))), {m, Int(4)}, kF32);
}

TEST_F(ManipulateTest, ReshapeIndivisibleMinusOneIsAnError) {
  EXPECT_EQ(InferError(reshape(TensorVar("x", {Int(6)}), ShapeOf({Int(-1), Int(4)}))),
            "reshape: cannot reshape a tensor of shape (6,) into shape (-1, 4)");
}

TEST_F(ManipulateTest, ReshapeBadNewShapes) {
  graph::Var x = TensorVar("x", {Int(2), Int(3)});
  EXPECT_EQ(InferError(reshape(x, ShapeOf({Int(-1), Int(-1)}))),
            "reshape: the new shape (-1, -1) has more than one -1 dimension");
  EXPECT_EQ(InferError(reshape(x, ShapeOf({Int(-2), Int(-3)}))),
            "reshape: the new shape (-2, -3) has a negative dimension -2");
}

TEST_F(ManipulateTest, ReshapeWithUnknownInputShape) {
  ExpectTensorRank(Infer(reshape(TensorVar("x", 2), ShapeOf({Int(-1)}))), 1, kF32);
  ExpectTensor(Infer(reshape(TensorVar("x", -1), ShapeOf({n, Int(4)}))), {n, Int(4)}, kF32);
}

TEST_F(ManipulateTest, ReshapeToAShapeVar) {
  graph::Var shape = graph::MakeVar("s", graph::ShapeSInfo(3));
  StructInfo sinfo = Infer(reshape(TensorVar("x", {n, Int(4)}, kF16), shape));
  const auto* tensor = sinfo.as<graph::TensorStructInfoNode>();
  ASSERT_NE(tensor, nullptr);
  EXPECT_TRUE(tensor->shape.same_as(shape));
  EXPECT_EQ(tensor->ndim, 3);
  EXPECT_EQ(tensor->dtype, kF16);

  graph::Var known = graph::MakeVar("t", graph::ShapeSInfo({m, Int(2)}));
  ExpectTensor(Infer(reshape(TensorVar("x", {m * 2}), known)), {m, Int(2)}, kF32);
}

TEST_F(ManipulateTest, ReshapeRequiresAShape) {
  EXPECT_EQ(InferError(reshape(TensorVar("x", {n}), TensorVar("y", {n}))),
            "reshape: expected a Shape for argument 'shape', got Tensor((n,), float32)");
}

// ---------------------------------------------------------------------------
// permute_dims

TEST_F(ManipulateTest, PermuteDimsDefaultReverses) {
  ExpectTensor(Infer(permute_dims(TensorVar("x", {n, Int(4), m}))), {m, Int(4), n}, kF32);
}

TEST_F(ManipulateTest, PermuteDimsWithAxes) {
  graph::Var x = TensorVar("x", {b, n, Int(8)});
  ExpectTensor(Infer(permute_dims(x, std::vector<int64_t>{0, 2, 1})), {b, Int(8), n}, kF32);
  ExpectTensor(Infer(permute_dims(x, std::vector<int64_t>{-1, 0, 1})), {Int(8), b, n}, kF32);
}

TEST_F(ManipulateTest, PermuteDimsBadAxes) {
  graph::Var x = TensorVar("x", {n, Int(4)});
  EXPECT_EQ(InferError(permute_dims(x, std::vector<int64_t>{0, 1, 2})),
            "permute_dims: expected 2 axes for a tensor of rank 2, got [0, 1, 2]");
  EXPECT_EQ(InferError(permute_dims(x, std::vector<int64_t>{0, -2})),
            "permute_dims: axis 0 appears more than once in [0, -2]");
  EXPECT_EQ(InferError(permute_dims(x, std::vector<int64_t>{0, 2})),
            "permute_dims: axis 2 is out of range for a tensor of rank 2");
}

TEST_F(ManipulateTest, PermuteDimsUnknownShapeOrRank) {
  ExpectTensorRank(Infer(permute_dims(TensorVar("x", 3))), 3, kF32);
  ExpectTensorRank(Infer(permute_dims(TensorVar("x", -1))), -1, kF32);
  ExpectTensorRank(Infer(permute_dims(TensorVar("x", -1), std::vector<int64_t>{1, 0})), 2, kF32);
}

TEST_F(ManipulateTest, PermuteDimsAttributeConvention) {
  Call reversed = permute_dims(TensorVar("x", {n}));
  EXPECT_TRUE(!reversed->attrs.defined() || !reversed->attrs->Contains("axes"));
  Call explicit_axes = permute_dims(TensorVar("x", {n, m}), std::vector<int64_t>{1, 0});
  const auto* axes = explicit_axes->attrs->Get("axes").as<ir::ArrayNode>();
  ASSERT_NE(axes, nullptr);
  ASSERT_EQ(axes->elements.size(), 2u);
  EXPECT_EQ(ir::AsConstInt(cast<ir::PrimExprNode>(axes->elements[0])), 1);
  const graph::OpInfo* info = graph::FindOp("relax.permute_dims");
  ASSERT_NE(info, nullptr);
  ASSERT_EQ(info->attrs.size(), 1u);
  EXPECT_EQ(info->attrs[0].name, "axes");
  EXPECT_EQ(info->attrs[0].kind, graph::AttrKind::kOptionalIntList);
  EXPECT_EQ(info->pattern, graph::OpPatternKind::kInjective);
  EXPECT_EQ(graph::FindOp("relax.reshape")->args, (std::vector<std::string>{"x", "shape"}));
}

TEST_F(ManipulateTest, BlockBuilderReshapeChain) {
  graph::Var x = TensorVar("x", {n, Int(4)});
  graph::BlockBuilder builder;
  builder.BeginScope({x});
  builder.BeginDataflowBlock();
  graph::Var flat = builder.Emit(reshape(x, ShapeOf({Int(-1)})), "lv0");
  graph::Var back = builder.Emit(reshape(flat, ShapeOf({n, Int(2), Int(2)})), "lv1");
  graph::Var moved = builder.Emit(permute_dims(back, std::vector<int64_t>{2, 0, 1}), "lv2");
  builder.EndBlock();
  builder.EndScope();
  ExpectTensor(graph::GetStructInfo(flat), {n * 4}, kF32);
  ExpectTensor(graph::GetStructInfo(back), {n, Int(2), Int(2)}, kF32);
  ExpectTensor(graph::GetStructInfo(moved), {Int(2), n, Int(2)}, kF32);
}

}  // namespace
}  // namespace rlx::op::testing
