// Struct-info deduction of matmul: static and symbolic shapes, reduction
// checks, batch broadcasting, vector operands and out_dtype.
#include <gtest/gtest.h>

#include "op_test_util.h"

namespace rlx::op::testing {
namespace {

using MatmulTest = OpTest;

TEST_F(MatmulTest, StaticMatrices) {
  ExpectTensor(Infer(matmul(TensorVar("x", {Int(2), Int(3)}), TensorVar("w", {Int(3), Int(4)}))), {Int(2), Int(4)},
               kF32);
}

TEST_F(MatmulTest, SymbolicMatrices) {
  ExpectTensor(Infer(matmul(TensorVar("x", {n, Int(4)}), TensorVar("w", {Int(4), m}))), {n, m}, kF32);
  ExpectTensor(Infer(matmul(TensorVar("x", {n, k * 2}), TensorVar("w", {2 * k, m}))), {n, m}, kF32);
}

TEST_F(MatmulTest, ProvablyDifferentReductionIsAnError) {
  EXPECT_EQ(InferError(matmul(TensorVar("x", {n, Int(4)}), TensorVar("w", {Int(5), Int(3)}))),
            "matmul: reduction dimensions differ: x1 has shape (n, 4), x2 has shape (5, 3)");
}

TEST_F(MatmulTest, UndecidableReductionIsAccepted) {
  ExpectTensor(Infer(matmul(TensorVar("x", {n, k}), TensorVar("w", {m, Int(3)}))), {n, Int(3)}, kF32);
}

TEST_F(MatmulTest, BatchDimsBroadcast) {
  StructInfo sinfo =
      Infer(matmul(TensorVar("x", {b, Int(1), n, Int(4)}), TensorVar("w", {Int(3), Int(4), Int(5)})));
  ExpectTensor(sinfo, {b, Int(3), n, Int(5)}, kF32);
}

TEST_F(MatmulTest, BatchMismatchIsAnError) {
  EXPECT_EQ(InferError(matmul(TensorVar("x", {Int(2), n, Int(4)}), TensorVar("w", {Int(3), Int(4), Int(5)}))),
            "matmul: cannot broadcast the batch dimensions of shapes (2, n, 4) and (3, 4, 5)");
}

TEST_F(MatmulTest, UndecidableBatchKeepsRank) {
  ExpectTensorRank(Infer(matmul(TensorVar("x", {b, n, Int(4)}), TensorVar("w", {k, Int(4), Int(5)}))), 3, kF32);
}

TEST_F(MatmulTest, VectorTimesMatrix) {
  ExpectTensor(Infer(matmul(TensorVar("x", {Int(4)}), TensorVar("w", {Int(4), m}))), {m}, kF32);
  ExpectTensor(Infer(matmul(TensorVar("x", {Int(4)}), TensorVar("w", {b, Int(4), Int(5)}))), {b, Int(5)}, kF32);
}

TEST_F(MatmulTest, MatrixTimesVector) {
  ExpectTensor(Infer(matmul(TensorVar("x", {n, Int(4)}), TensorVar("v", {Int(4)}))), {n}, kF32);
}

TEST_F(MatmulTest, VectorTimesVectorIsAScalar) {
  ExpectTensor(Infer(matmul(TensorVar("x", {k}), TensorVar("v", {k}))), {}, kF32);
  EXPECT_EQ(InferError(matmul(TensorVar("x", {Int(3)}), TensorVar("v", {Int(4)}))),
            "matmul: reduction dimensions differ: x1 has shape (3,), x2 has shape (4,)");
}

TEST_F(MatmulTest, UnknownShapesKeepResultRank) {
  ExpectTensorRank(Infer(matmul(TensorVar("x", 3), TensorVar("w", {Int(4), Int(5)}))), 3, kF32);
  ExpectTensorRank(Infer(matmul(TensorVar("x", 1), TensorVar("w", 2))), 1, kF32);
  ExpectTensorRank(Infer(matmul(TensorVar("x", -1), TensorVar("w", {Int(4), Int(5)}))), -1, kF32);
}

TEST_F(MatmulTest, ScalarOperandIsAnError) {
  EXPECT_EQ(InferError(matmul(TensorVar("x", Shape{}), TensorVar("w", {Int(4), Int(5)}))),
            "matmul: expected argument 'x1' to have rank at least 1, got Tensor((), float32)");
}

TEST_F(MatmulTest, OutDtype) {
  StructInfo sinfo = Infer(matmul(TensorVar("x", {n, Int(4)}, DataType::Int(8)),
                                  TensorVar("w", {Int(4), Int(4)}, DataType::Int(8)), kI32));
  ExpectTensor(sinfo, {n, Int(4)}, kI32);
  sinfo = Infer(matmul(TensorVar("x", {n, Int(4)}, kF16), TensorVar("w", {Int(4), Int(4)}, kF32), kF32));
  ExpectTensor(sinfo, {n, Int(4)}, kF32);
}

TEST_F(MatmulTest, MixedDtypesWithoutOutDtypeAreAnError) {
  EXPECT_EQ(InferError(matmul(TensorVar("x", {n, Int(4)}, kF16), TensorVar("w", {Int(4), Int(4)}, kF32))),
            "matmul: operands have different dtypes float16 and float32");
}

TEST_F(MatmulTest, UnknownDtypeGivesUnknownDtype) {
  ExpectTensor(Infer(matmul(TensorVar("x", {n, Int(4)}, DataType::Void()), TensorVar("w", {Int(4), Int(2)}))),
               {n, Int(2)}, DataType::Void());
}

TEST_F(MatmulTest, RegistryAndAttributes) {
  const graph::OpInfo* info = graph::FindOpByScriptName("R.matmul");
  ASSERT_NE(info, nullptr);
  EXPECT_EQ(info->pattern, graph::OpPatternKind::kOutEWiseFusable);
  EXPECT_EQ(info->args, (std::vector<std::string>{"x1", "x2"}));
  ASSERT_EQ(info->attrs.size(), 1u);
  EXPECT_EQ(info->attrs[0].name, "out_dtype");
  EXPECT_EQ(info->attrs[0].kind, graph::AttrKind::kDataType);
  const auto* default_dtype = info->attrs[0].default_value.as<ir::StringImmNode>();
  ASSERT_NE(default_dtype, nullptr);
  EXPECT_EQ(default_dtype->value, "void");

  Call call = matmul(TensorVar("x", {n, Int(4)}), TensorVar("w", {Int(4), Int(4)}));
  const auto* stored = call->attrs->Get("out_dtype").as<ir::StringImmNode>();
  ASSERT_NE(stored, nullptr);
  EXPECT_EQ(stored->value, "void");
}

TEST_F(MatmulTest, MissingOutDtypeAttributeMeansVoid) {
  Call call = graph::MakeCall("relax.matmul", {TensorVar("x", {n, Int(4)}), TensorVar("w", {Int(4), Int(2)})});
  ExpectTensor(Infer(call), {n, Int(2)}, kF32);
}

TEST_F(MatmulTest, BlockBuilderChain) {
  graph::Var x = TensorVar("x", {b, n, Int(16)});
  graph::Var w = TensorVar("w", {Int(16), Int(32)});
  graph::BlockBuilder builder;
  builder.BeginScope({x, w});
  builder.BeginDataflowBlock();
  graph::Var proj = builder.Emit(matmul(x, w), "lv0");
  graph::Var act = builder.Emit(nn::gelu(proj), "lv1");
  graph::Var down = builder.Emit(matmul(act, permute_dims(w)), "lv2");
  builder.EndBlock();
  builder.EndScope();
  ExpectTensor(graph::GetStructInfo(proj), {b, n, Int(32)}, kF32);
  ExpectTensor(graph::GetStructInfo(act), {b, n, Int(32)}, kF32);
  ExpectTensor(graph::GetStructInfo(down), {b, n, Int(16)}, kF32);
}

}  // namespace
}  // namespace rlx::op::testing
