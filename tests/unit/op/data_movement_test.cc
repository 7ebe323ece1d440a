// Struct-info deduction of the data-movement operators of
// include/rlx/op/manipulate.h: static and symbolic shapes, provable
// mismatches (errors naming the operator and both shapes) and undecidable
// cases (only rank and dtype kept).
#include <gtest/gtest.h>

#include "op_test_util.h"
#include "rlx/op/manipulate.h"

namespace rlx::op::testing {
namespace {

class DataMovementTest : public OpTest {
 protected:
  void SetUp() override {
    for (const ir::Var& var : {n, m, k, b}) builder_.analyzer().Bind(var, 0, arith::ConstIntBound::kPosInf);
  }

  // Deduces after normalizing the arguments (tuples get their struct info).
  StructInfo InferNormalized(const Call& call) { return Infer(NormalizeArgs(call)); }
  std::string InferNormalizedError(const Call& call) { return InferError(NormalizeArgs(call)); }

  Call NormalizeArgs(const Call& call) {
    std::vector<graph::Expr> args;
    for (const graph::Expr& arg : call->args) args.push_back(builder_.Normalize(arg));
    return Call(new graph::CallNode(call->op, args, call->attrs, call->sinfo_args));
  }

  graph::Var TupleVar(std::vector<StructInfo> fields) { return graph::MakeVar("t", graph::TupleSInfo(fields)); }

  // Expects a tuple whose fields are tensors of `shapes`.
  void ExpectTensorTuple(const StructInfo& sinfo, const std::vector<Shape>& shapes, DataType dtype) {
    const auto* tuple = sinfo.as<graph::TupleStructInfoNode>();
    ASSERT_NE(tuple, nullptr) << graph::ToString(sinfo);
    ASSERT_EQ(tuple->fields.size(), shapes.size()) << graph::ToString(sinfo);
    for (size_t i = 0; i < shapes.size(); ++i) ExpectTensor(tuple->fields[i], shapes[i], dtype);
  }
};

graph::Expr ShapeExpr(Shape values) { return make<graph::ShapeExprNode>(std::move(values)); }

// ---------------------------------------------------------------------------
// expand_dims, squeeze, flatten

TEST_F(DataMovementTest, ExpandDims) {
  ExpectTensor(Infer(expand_dims(TensorVar("x", {n, Int(4)}), {0, -1})), {Int(1), n, Int(4), Int(1)}, kF32);
  ExpectTensor(Infer(expand_dims(TensorVar("x", {n, Int(4)}), {1})), {n, Int(1), Int(4)}, kF32);
  ExpectTensorRank(Infer(expand_dims(TensorVar("x", 2), {1})), 3, kF32);
  ExpectTensorRank(Infer(expand_dims(TensorVar("x", -1), {1})), -1, kF32);
  EXPECT_EQ(InferError(expand_dims(TensorVar("x", {n}), {3})),
            "expand_dims: axis 3 is out of range for a tensor of rank 2");
  EXPECT_EQ(InferError(expand_dims(TensorVar("x", {n}), {0, -3})),
            "expand_dims: axis 0 appears more than once in [0, -3]");
}

TEST_F(DataMovementTest, Squeeze) {
  ExpectTensor(Infer(squeeze(TensorVar("x", {Int(1), n, Int(1)}), std::vector<int64_t>{0})), {n, Int(1)}, kF32);
  ExpectTensor(Infer(squeeze(TensorVar("x", {Int(1), n + 2, Int(1)}, kI32))), {n + 2}, kI32);
  ExpectTensor(Infer(squeeze(TensorVar("x", {Int(1), Int(3), Int(1)}))), {Int(3)}, kF32);
  // An undecidable dim named by axis is assumed to be 1.
  ExpectTensor(Infer(squeeze(TensorVar("x", {n, Int(3)}), std::vector<int64_t>{0})), {Int(3)}, kF32);
  // Without axes an undecidable dim makes the rank unknowable.
  ExpectTensorRank(Infer(squeeze(TensorVar("x", {n, Int(1)}))), -1, kF32);
  EXPECT_EQ(InferError(squeeze(TensorVar("x", {n, Int(3)}), std::vector<int64_t>{1})),
            "squeeze: cannot squeeze axis 1 of a tensor of shape (n, 3): its size is 3, not 1");
  EXPECT_EQ(InferError(squeeze(TensorVar("x", {n + 2, Int(3)}), std::vector<int64_t>{0})),
            "squeeze: cannot squeeze axis 0 of a tensor of shape (n + 2, 3): its size is n + 2, not 1");
}

TEST_F(DataMovementTest, Flatten) {
  ExpectTensor(Infer(flatten(TensorVar("x", {n, Int(4), m}))), {n * m * 4}, kF32);
  ExpectTensor(Infer(flatten(TensorVar("x", Shape{}))), {Int(1)}, kF32);
  ExpectTensorRank(Infer(flatten(TensorVar("x", -1))), 1, kF32);
}

// ---------------------------------------------------------------------------
// broadcast_to, shape_of

TEST_F(DataMovementTest, BroadcastTo) {
  ExpectTensor(Infer(broadcast_to(TensorVar("x", {Int(1), Int(4)}), ShapeExpr({m, n, Int(4)}))), {m, n, Int(4)},
               kF32);
  ExpectTensor(Infer(broadcast_to(TensorVar("x", {n, Int(1)}), ShapeExpr({n, Int(3)}))), {n, Int(3)}, kF32);
  // n against m is undecidable: accepted.
  ExpectTensor(Infer(broadcast_to(TensorVar("x", {n}), ShapeExpr({m}))), {m}, kF32);
  EXPECT_EQ(InferError(broadcast_to(TensorVar("x", {Int(3), Int(4)}), ShapeExpr({Int(2), Int(4)}))),
            "broadcast_to: cannot broadcast a tensor of shape (3, 4) to shape (2, 4)");
  EXPECT_EQ(InferError(broadcast_to(TensorVar("x", {n + 2}), ShapeExpr({n}))),
            "broadcast_to: cannot broadcast a tensor of shape (n + 2,) to shape (n,)");
  // n + 1 may be 1 (n = 0): accepted.
  ExpectTensor(Infer(broadcast_to(TensorVar("x", {n + 1}), ShapeExpr({n}))), {n}, kF32);
  EXPECT_EQ(InferError(broadcast_to(TensorVar("x", {n, Int(4)}), ShapeExpr({Int(4)}))),
            "broadcast_to: cannot broadcast a tensor of rank 2 to a shape of rank 1");
  graph::Var shape = graph::MakeVar("s", graph::ShapeSInfo(3));
  StructInfo sinfo = Infer(broadcast_to(TensorVar("x", {Int(4)}), shape));
  EXPECT_TRUE(sinfo.as<graph::TensorStructInfoNode>()->shape.same_as(shape));
}

TEST_F(DataMovementTest, ShapeOf) {
  StructInfo sinfo = Infer(shape_of(TensorVar("x", {n, Int(4)})));
  const auto* shape = sinfo.as<graph::ShapeStructInfoNode>();
  ASSERT_NE(shape, nullptr);
  ASSERT_TRUE(shape->values.has_value());
  EXPECT_TRUE((*shape->values)[0].same_as(n));
  EXPECT_EQ(Infer(shape_of(TensorVar("x", 3))).as<graph::ShapeStructInfoNode>()->ndim, 3);
}

// ---------------------------------------------------------------------------
// concat, split

TEST_F(DataMovementTest, ConcatSymbolic) {
  graph::Var x = TensorVar("x", {n, Int(4)});
  graph::Var y = TensorVar("y", {m, Int(4)});
  ExpectTensor(InferNormalized(concat(make<graph::TupleNode>(std::vector<graph::Expr>{x, y}), 0)), {n + m, Int(4)},
               kF32);
  ExpectTensor(InferNormalized(concat(make<graph::TupleNode>(std::vector<graph::Expr>{x, y, x}), -2)),
               {n * 2 + m, Int(4)}, kF32);
  ExpectTensor(Infer(concat(TupleVar({graph::TensorSInfo({Int(2), n}, kF32), graph::TensorSInfo({Int(2), Int(3)}, kF32)}),
                            1)),
               {Int(2), n + 3}, kF32);
}

TEST_F(DataMovementTest, ConcatErrorsAndUndecidable) {
  auto pair = [&](Shape a, Shape b) {
    return TupleVar({graph::TensorSInfo(std::move(a), kF32), graph::TensorSInfo(std::move(b), kF32)});
  };
  EXPECT_EQ(InferError(concat(pair({n, Int(4)}, {n, Int(5)}), 0)),
            "concat: cannot concatenate tensors of shapes (n, 4) and (n, 5) along axis 0");
  EXPECT_EQ(InferError(concat(pair({n, Int(4)}, {Int(4)}), 0)), "concat: cannot concatenate tensors of ranks 2 and 1");
  EXPECT_EQ(InferError(concat(pair({n, Int(4)}, {n, Int(4)}), std::nullopt)),
            "concat: axis=None requires 1-D tensors, got tensors of rank 2");
  ExpectTensor(Infer(concat(pair({n}, {m}), std::nullopt)), {n + m}, kF32);
  // k against 4 is undecidable: only the rank is kept.
  ExpectTensorRank(Infer(concat(pair({n, Int(4)}, {m, k}), 0)), 2, kF32);
  graph::Var mixed = TupleVar({graph::TensorSInfo({n}, kF32), graph::TensorSInfo({n}, kF16)});
  EXPECT_EQ(InferError(concat(mixed, 0)), "concat: cannot concatenate tensors of dtypes float32 and float16");
}

TEST_F(DataMovementTest, SplitSections) {
  ExpectTensorTuple(Infer(split(TensorVar("x", {Int(10), n}), 3, 0)), {{Int(4), n}, {Int(4), n}, {Int(2), n}}, kF32);
  ExpectTensorTuple(Infer(split(TensorVar("x", {n * 4}), 2, 0)), {{n * 2}, {n * 2}}, kF32);
  ExpectTensorTuple(Infer(split(TensorVar("x", {Int(3), Int(7)}), 1, -1)), {{Int(3), Int(7)}}, kF32);
  EXPECT_EQ(InferError(split(TensorVar("x", {Int(2)}), 4, 0)),
            "split: cannot split a dimension of size 2 into 4 sections");
  EXPECT_EQ(InferError(split(TensorVar("x", {Int(2)}), 0, 0)), "split: the number of sections must be positive, got 0");
  StructInfo unknown_sinfo = Infer(split(TensorVar("x", 2), 3, 1));
  const auto* unknown = unknown_sinfo.as<graph::TupleStructInfoNode>();
  ASSERT_NE(unknown, nullptr);
  ASSERT_EQ(unknown->fields.size(), 3u);
  ExpectTensorRank(unknown->fields[2], 2, kF32);
}

TEST_F(DataMovementTest, SplitIndices) {
  ExpectTensorTuple(Infer(split(TensorVar("x", {Int(4), Int(10)}), std::vector<PrimExpr>{Int(2), Int(5)}, 1)),
                    {{Int(4), Int(2)}, {Int(4), Int(3)}, {Int(4), Int(5)}}, kF32);
  ExpectTensorTuple(Infer(split(TensorVar("x", {n + m}), std::vector<PrimExpr>{n}, 0)), {{n}, {m}}, kF32);
  // Indices are clamped to the axis: one past the end gives an empty piece.
  ExpectTensorTuple(Infer(split(TensorVar("x", {Int(4)}), std::vector<PrimExpr>{Int(6)}, 0)), {{Int(4)}, {Int(0)}},
                    kF32);
}

// ---------------------------------------------------------------------------
// take, strided_slice

TEST_F(DataMovementTest, Take) {
  ExpectTensor(Infer(take(TensorVar("x", {n, Int(8)}, kF16), TensorVar("i", {m, k}, kI32), 0)), {m, k, Int(8)}, kF16);
  ExpectTensor(Infer(take(TensorVar("x", {n, Int(8)}), TensorVar("i", {m}, kI32), -1)), {n, m}, kF32);
  ExpectTensor(Infer(take(TensorVar("x", {n}), TensorVar("i", Shape{}, kI32))), Shape{}, kF32);
  ExpectTensorRank(Infer(take(TensorVar("x", 3), TensorVar("i", 2, kI32), 1)), 4, kF32);
  EXPECT_EQ(InferError(take(TensorVar("x", {n, Int(8)}), TensorVar("i", {m}, kI32))),
            "take: axis=None requires a 1-D tensor, got a tensor of rank 2");
  EXPECT_EQ(InferError(take(TensorVar("x", {n}), TensorVar("i", {m}, kF32), 0)),
            "take: argument 'indices' must have an integer dtype, got float32");
  EXPECT_EQ(InferError(take(TensorVar("x", {n}), TensorVar("i", {m}, kI32), 0, "raise")),
            "take: mode must be one of \"fast\", \"nan\", \"wrap\", \"clip\"; got \"raise\"");
}

TEST_F(DataMovementTest, StridedSliceStatic) {
  graph::Var x = TensorVar("x", {Int(10), Int(8)});
  ExpectTensor(InferNormalized(strided_slice(x, {0}, {Int(1)}, {Int(8)}, {Int(2)})), {Int(4), Int(8)}, kF32);
  ExpectTensor(InferNormalized(strided_slice(x, {1}, {Int(-3)}, {Int(100)})), {Int(10), Int(3)}, kF32);
  ExpectTensor(InferNormalized(strided_slice(x, {0, 1}, {Int(9), Int(0)}, {Int(-100), Int(8)}, {Int(-3), Int(1)})),
               {Int(4), Int(8)}, kF32);
  ExpectTensor(InferNormalized(strided_slice(x, {0}, {Int(5)}, {Int(2)})), {Int(0), Int(8)}, kF32);
  EXPECT_EQ(InferNormalizedError(strided_slice(x, {0}, {Int(0)}, {Int(2)}, {Int(0)})),
            "strided_slice: the stride of axis 0 is 0");
  EXPECT_EQ(InferNormalizedError(strided_slice(x, {2}, {Int(0)}, {Int(2)})),
            "strided_slice: axis 2 is out of range for a tensor of rank 2");
}

TEST_F(DataMovementTest, StridedSliceSymbolic) {
  graph::Var x = TensorVar("x", {n, Int(8)});
  ExpectTensor(InferNormalized(strided_slice(x, {0}, {Int(0)}, {n})), {n, Int(8)}, kF32);
  ExpectTensor(InferNormalized(strided_slice(x, {0}, {Int(1)}, {n}, {}, /*assume_inbound=*/true)), {n - 1, Int(8)},
               kF32);
  ExpectTensor(InferNormalized(strided_slice(x, {1}, {m}, {m + 4}, {}, /*assume_inbound=*/true)), {n, Int(4)}, kF32);
  // A symbolic stride keeps only the rank.
  ExpectTensorRank(InferNormalized(strided_slice(x, {1}, {Int(0)}, {Int(8)}, {k})), 2, kF32);
}

// ---------------------------------------------------------------------------
// gather_elements, scatter_elements

TEST_F(DataMovementTest, GatherElements) {
  ExpectTensor(Infer(gather_elements(TensorVar("d", {n, Int(4)}, kF16), TensorVar("i", {m, Int(4)}, kI32), 1)),
               {m, Int(4)}, kF16);
  EXPECT_EQ(InferError(gather_elements(TensorVar("d", {n, Int(4)}), TensorVar("i", {m}, kI32))),
            "gather_elements: 'data' has rank 2 but 'indices' has rank 1");
  EXPECT_EQ(InferError(gather_elements(TensorVar("d", {n}), TensorVar("i", {m}, kI32), 1)),
            "gather_elements: axis 1 is out of range for a tensor of rank 1");
}

TEST_F(DataMovementTest, ScatterElements) {
  graph::Var data = TensorVar("d", {n, Int(4)});
  ExpectTensor(Infer(scatter_elements(data, TensorVar("i", {m, Int(2)}, kI32), TensorVar("u", {m, Int(2)}), 1, "add")),
               {n, Int(4)}, kF32);
  EXPECT_EQ(InferError(scatter_elements(data, TensorVar("i", {m, Int(2)}, kI32), TensorVar("u", {m, Int(3)}))),
            "scatter_elements: 'indices' of shape (m, 2) and 'updates' of shape (m, 3) must have the same shape");
  EXPECT_EQ(InferError(scatter_elements(data, TensorVar("i", {m, Int(2)}, kI32), TensorVar("u", {m, Int(2)}, kF16))),
            "scatter_elements: 'updates' has dtype float16 but 'data' has dtype float32");
  EXPECT_EQ(InferError(scatter_elements(data, TensorVar("i", {m, Int(2)}, kI32), TensorVar("u", {m, Int(2)}), 0,
                                        "none")),
            "scatter_elements: reduction must be one of \"update\", \"add\", \"mul\", \"mean\", \"max\", \"min\"; "
            "got \"none\"");
}

// ---------------------------------------------------------------------------
// repeat, tile, flip

TEST_F(DataMovementTest, Repeat) {
  ExpectTensor(Infer(repeat(TensorVar("x", {n, Int(3)}), 2, 1)), {n, Int(6)}, kF32);
  ExpectTensor(Infer(repeat(TensorVar("x", {n, Int(3)}), 2, 0)), {n * 2, Int(3)}, kF32);
  ExpectTensor(Infer(repeat(TensorVar("x", {n, Int(3)}), 2)), {n * 6}, kF32);
  EXPECT_EQ(InferError(repeat(TensorVar("x", {n}), 0, 0)), "repeat: repeats must be positive, got 0");
}

TEST_F(DataMovementTest, Tile) {
  ExpectTensor(Infer(tile(TensorVar("x", {n, Int(3)}), {2, 3})), {n * 2, Int(9)}, kF32);
  ExpectTensor(Infer(tile(TensorVar("x", {n}), {2, 3})), {Int(2), n * 3}, kF32);
  ExpectTensor(Infer(tile(TensorVar("x", {Int(2), n, Int(3)}), {2})), {Int(2), n, Int(6)}, kF32);
  EXPECT_EQ(InferError(tile(TensorVar("x", {n}), {-1})), "tile: repeats must be non-negative, got [-1]");
}

TEST_F(DataMovementTest, Flip) {
  ExpectTensor(Infer(flip(TensorVar("x", {n, Int(3)}), -1)), {n, Int(3)}, kF32);
  EXPECT_EQ(InferError(flip(TensorVar("x", {n, Int(3)}), 2)), "flip: axis 2 is out of range for a tensor of rank 2");
}

// ---------------------------------------------------------------------------
// layout_transform

TEST_F(DataMovementTest, LayoutTransform) {
  ir::Var i = ir::MakeVar("i"), j = ir::MakeVar("j");
  // (i, j) -> (j // 4, i, j % 4): 14 columns pad to 4 x 4.
  ExpectTensor(Infer(layout_transform(TensorVar("x", {n, Int(14)}), {i, j}, {ir::floordiv(j, 4), i, ir::floormod(j, 4)})),
               {Int(4), n, Int(4)}, kF32);
  ExpectTensor(Infer(layout_transform(TensorVar("x", {n, m}), {i, j}, {j, i})), {m, n}, kF32);
  ExpectTensor(Infer(layout_transform(TensorVar("x", {n}), {i}, {ir::floordiv(i, 8), ir::floormod(i, 8)})),
               {ir::floordiv(n + 7, 8), Int(8)}, kF32);
  // A form whose range is not derived keeps the rank.
  ExpectTensorRank(Infer(layout_transform(TensorVar("x", {n}), {i}, {i - 1})), 1, kF32);
  EXPECT_EQ(InferError(layout_transform(TensorVar("x", {n, m}), {i}, {i})),
            "layout_transform: the index map takes 1 indices but the tensor has rank 2");
}

TEST_F(DataMovementTest, ErrorsCarryTheCallSpan) {
  try {
    Infer(WithSpan(flip(TensorVar("x", {n}), 3), 2));
    FAIL() << "expected an error";
  } catch (const CompileError& error) {
    EXPECT_EQ(error.diagnostic().span.line, 2);
  }
}

}  // namespace
}  // namespace rlx::op::testing
