// Struct-info deduction of the creation operators (full, full_like, zeros,
// ones, zeros_like, ones_like, arange, tril, triu) and where.
#include <gtest/gtest.h>

#include "op_test_util.h"

namespace rlx::op::testing {
namespace {

using CreateTest = OpTest;

graph::Expr ShapeOf(Shape dims) { return make<graph::ShapeExprNode>(std::move(dims)); }
graph::Expr Prim(PrimExpr value) { return make<graph::PrimValueNode>(std::move(value)); }

TEST_F(CreateTest, FullTakesShapeAndFillDtype) {
  graph::Var v = TensorVar("v", Shape{}, kI32);
  ExpectTensor(Infer(full(ShapeOf({n, Int(3)}), v)), {n, Int(3)}, kI32);
  ExpectTensor(Infer(full(ShapeOf({n, Int(3)}), v, kF16)), {n, Int(3)}, kF16);
  graph::Var s = graph::MakeVar("s", graph::ShapeSInfo(2));
  ExpectTensorRank(Infer(full(s, v, kF32)), 2, kF32);
}

TEST_F(CreateTest, FullRejectsNonScalarFillAndNonShape) {
  EXPECT_EQ(InferError(full(ShapeOf({n}), TensorVar("v", {Int(2)}))),
            "full: expected a 0-d tensor for argument 'fill_value', got Tensor((2,), float32)");
  EXPECT_EQ(InferError(full(TensorVar("x", {n}), TensorVar("v", Shape{}))),
            "full: expected a Shape for argument 'shape', got Tensor((n,), float32)");
}

TEST_F(CreateTest, LikeOpsKeepTheShape) {
  graph::Var x = TensorVar("x", {n, Int(3)}, kF16);
  ExpectTensor(Infer(zeros_like(x)), {n, Int(3)}, kF16);
  ExpectTensor(Infer(ones_like(x, kI32)), {n, Int(3)}, kI32);
  ExpectTensor(Infer(full_like(x, TensorVar("v", Shape{}, kI32))), {n, Int(3)}, kF16);
  ExpectTensor(Infer(zeros(ShapeOf({Int(2), m}), kBool)), {Int(2), m}, kBool);
  ExpectTensor(Infer(ones(ShapeOf({m}), kF32)), {m}, kF32);
}

TEST_F(CreateTest, ArangeLength) {
  ExpectTensor(Infer(arange(Prim(Int(0)), Prim(n), Prim(Int(2)))), {ir::floordiv(n + 1, 2)}, DataType::Int64());
  ExpectTensor(Infer(arange(Prim(Int(3)), Prim(Int(10)), Prim(Int(3)), kI32)), {Int(3)}, kI32);
  StructInfo floats = Infer(arange(Prim(ir::MakeFloat(0.5)), Prim(ir::MakeFloat(3)), Prim(ir::MakeFloat(0.75))));
  const auto* tensor = floats.as<graph::TensorStructInfoNode>();
  ASSERT_NE(tensor, nullptr);
  EXPECT_EQ(tensor->dtype, kF32);
  EXPECT_EQ(tensor->ndim, 1);
  EXPECT_EQ(InferError(arange(Prim(Int(0)), Prim(Int(4)), Prim(Int(0)))), "arange: step must not be zero");
}

TEST_F(CreateTest, TrilTriuNeedRankTwo) {
  ExpectTensor(Infer(tril(TensorVar("x", {n, m}), Prim(Int(0)))), {n, m}, kF32);
  ExpectTensor(Infer(triu(TensorVar("x", {b, n, m}), Prim(Int(-1)))), {b, n, m}, kF32);
  EXPECT_EQ(InferError(tril(TensorVar("x", {n}), Prim(Int(0)))),
            "tril: expected a tensor of rank at least 2, got Tensor((n,), float32)");
  EXPECT_EQ(InferError(triu(TensorVar("x", {n, m}), TensorVar("k", Shape{}))),
            "triu: expected a PrimValue for argument 'k', got Tensor((), float32)");
}

TEST_F(CreateTest, WhereBroadcastsThree) {
  ExpectTensor(Infer(where(TensorVar("c", {n, Int(1)}, kBool), TensorVar("x", {n, Int(4)}), TensorVar("y", {Int(4)}))),
               {n, Int(4)}, kF32);
  ExpectTensorRank(Infer(where(TensorVar("c", {m}, kBool), TensorVar("x", {n}), TensorVar("y", {n}))), 1, kF32);
}

TEST_F(CreateTest, WhereErrorsNameTheShapes) {
  EXPECT_EQ(InferError(where(TensorVar("c", {n, Int(2)}, kBool), TensorVar("x", {n, Int(4)}), TensorVar("y", {Int(4)}))),
            "where: cannot broadcast shapes (n, 2), (n, 4) and (4,)");
  EXPECT_EQ(InferError(where(TensorVar("c", {n}), TensorVar("x", {n}), TensorVar("y", {n}))),
            "where: expected a bool condition, got Tensor((n,), float32)");
  EXPECT_EQ(InferError(where(TensorVar("c", {n}, kBool), TensorVar("x", {n}), TensorVar("y", {n}, kI32))),
            "where: operands have different dtypes float32 and int32");
}

}  // namespace
}  // namespace rlx::op::testing
