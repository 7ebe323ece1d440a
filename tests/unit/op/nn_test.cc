// Struct-info deduction of the nn operators: softmax, normalizations,
// dropout, pad, attention.
#include <gtest/gtest.h>

#include "op_test_util.h"
#include "rlx/op/nn.h"

namespace rlx::op::testing {
namespace {

using NNTest = OpTest;

TEST_F(NNTest, SoftmaxKeepsTheInput) {
  ExpectTensor(Infer(nn::softmax(TensorVar("x", {n, Int(16)}))), {n, Int(16)}, kF32);
  ExpectTensor(Infer(nn::log_softmax(TensorVar("x", {n, Int(16)}, kF16), 0)), {n, Int(16)}, kF16);
  ExpectTensorRank(Infer(nn::softmax(TensorVar("x", 3))), 3, kF32);
}

TEST_F(NNTest, SoftmaxErrors) {
  EXPECT_EQ(InferError(nn::softmax(TensorVar("x", {n, Int(16)}), 2)),
            "nn.softmax: axis 2 is out of range for a tensor of rank 2");
  EXPECT_EQ(InferError(nn::softmax(TensorVar("x", {n}, kI32))), "nn.softmax: expected a tensor of float dtype, got int32");
}

TEST_F(NNTest, LayerNormChecksParameters) {
  graph::Var x = TensorVar("x", {b, n, Int(64)});
  ExpectTensor(Infer(nn::layer_norm(x, TensorVar("g", {Int(64)}), TensorVar("b", {Int(64)}), {-1})),
               {b, n, Int(64)}, kF32);
  ExpectTensor(Infer(nn::layer_norm(x, TensorVar("g", {n, Int(64)}), TensorVar("b", {n, Int(64)}), {1, 2})),
               {b, n, Int(64)}, kF32);
  EXPECT_EQ(InferError(nn::layer_norm(x, TensorVar("g", {Int(32)}), TensorVar("b", {Int(64)}), {-1})),
            "nn.layer_norm: argument 'gamma' of shape (32,) does not match the data of shape (b, n, 64)");
  EXPECT_EQ(InferError(nn::layer_norm(x, TensorVar("g", {Int(64)}), TensorVar("b", {Int(64)}), {1, 2})),
            "nn.layer_norm: expected argument 'gamma' to have rank 2, got shape (64,) for data of shape (b, n, 64)");
  // Undecidable: m may equal 64.
  ExpectTensor(Infer(nn::layer_norm(x, TensorVar("g", {m}), TensorVar("b", {m}), {-1})), {b, n, Int(64)}, kF32);
}

TEST_F(NNTest, RmsNormAndGroupNorm) {
  ExpectTensor(Infer(nn::rms_norm(TensorVar("x", {n, Int(8)}, kF16), TensorVar("w", {Int(8)}, kF16))), {n, Int(8)},
               kF16);
  EXPECT_EQ(InferError(nn::rms_norm(TensorVar("x", {n, Int(8)}), TensorVar("w", {Int(8)}, kF16))),
            "nn.rms_norm: argument 'weight' has dtype float16, but the data has dtype float32");
  graph::Var x = TensorVar("x", {n, Int(6), Int(5), Int(5)});
  ExpectTensor(Infer(nn::group_norm(x, TensorVar("g", {Int(6)}), TensorVar("b", {Int(6)}), 3, 1, {2, 3})),
               {n, Int(6), Int(5), Int(5)}, kF32);
  EXPECT_EQ(InferError(nn::group_norm(x, TensorVar("g", {Int(6)}), TensorVar("b", {Int(6)}), 4, 1, {2, 3})),
            "nn.group_norm: the channel count 6 of data shape (n, 6, 5, 5) is not divisible by num_groups 4");
}

TEST_F(NNTest, BatchNormReturnsATuple) {
  graph::Var x = TensorVar("x", {n, Int(3), m, m});
  graph::Var c = TensorVar("c", {Int(3)});
  StructInfo sinfo = Infer(nn::batch_norm(x, c, c, c, c, 1));
  const auto* tuple = sinfo.as<graph::TupleStructInfoNode>();
  ASSERT_NE(tuple, nullptr) << graph::ToString(sinfo);
  ASSERT_EQ(tuple->fields.size(), 3u);
  ExpectTensor(tuple->fields[0], {n, Int(3), m, m}, kF32);
  ExpectTensor(tuple->fields[1], {Int(3)}, kF32);
  ExpectTensor(tuple->fields[2], {Int(3)}, kF32);
  EXPECT_EQ(InferError(nn::batch_norm(x, c, c, TensorVar("mean", {Int(4)}), c, 1)),
            "nn.batch_norm: argument 'moving_mean' of shape (4,) does not match the data of shape (n, 3, m, m)");
}

TEST_F(NNTest, DropoutReturnsDataAndMask) {
  StructInfo sinfo = Infer(nn::dropout(TensorVar("x", {n, Int(4)}), 0.1));
  const auto* tuple = sinfo.as<graph::TupleStructInfoNode>();
  ASSERT_NE(tuple, nullptr);
  ASSERT_EQ(tuple->fields.size(), 2u);
  ExpectTensor(tuple->fields[0], {n, Int(4)}, kF32);
  ExpectTensor(tuple->fields[1], {n, Int(4)}, kF32);
  EXPECT_EQ(InferError(nn::dropout(TensorVar("x", {n}), 1.5)), "nn.dropout: rate must be in [0, 1), got 1.5");
}

TEST_F(NNTest, PadGrowsEachDim) {
  ExpectTensor(Infer(nn::pad(TensorVar("x", {n, Int(3), m}), {0, 0, 1, 2, 3, 3})), {n, Int(6), m + 6}, kF32);
  EXPECT_EQ(InferError(nn::pad(TensorVar("x", {n, Int(3)}), {1, 1})),
            "nn.pad: pad_width [1, 1] must hold 2 values per dimension of data shape (n, 3)");
  EXPECT_EQ(InferError(nn::pad(TensorVar("x", {n}), {1, 1}, 0.0, "wrap")),
            "nn.pad: unsupported pad_mode \"wrap\": expected \"constant\", \"edge\" or \"reflect\"");
}

TEST_F(NNTest, Attention) {
  graph::Var q = TensorVar("q", {b, n, Int(8), Int(64)});
  graph::Var k = TensorVar("k", {b, m, Int(8), Int(64)});
  graph::Var v = TensorVar("v", {b, m, Int(8), Int(32)});
  ExpectTensor(Infer(nn::attention(q, k, v)), {b, n, Int(8), Int(32)}, kF32);
  ExpectTensor(Infer(nn::attention(q, k, v, TensorVar("bias", {b, Int(8), n, m}), 0.125, "TopLeft")),
               {b, n, Int(8), Int(32)}, kF32);
  ExpectTensor(Infer(nn::attention(q, k, v, TensorVar("bias", {Int(1), Int(1), n, m}))), {b, n, Int(8), Int(32)},
               kF32);
  EXPECT_EQ(InferError(nn::attention(q, TensorVar("k", {b, m, Int(8), Int(32)}), v)),
            "nn.attention: head dims differ: query and key have shapes (b, n, 8, 64) and (b, m, 8, 32)");
  EXPECT_EQ(InferError(nn::attention(q, k, TensorVar("v", {b, m + 1, Int(8), Int(32)}))),
            "nn.attention: sequence lengths differ: key and value have shapes (b, m, 8, 64) and (b, m + 1, 8, 32)");
  EXPECT_EQ(InferError(nn::attention(q, k, v, TensorVar("bias", {b, Int(4), n, m}))),
            "nn.attention: bias of shape (b, 4, n, m) does not broadcast to (b, 8, n, m)");
  EXPECT_EQ(InferError(nn::attention(q, k, v, Expr(), std::nullopt, "Left")),
            "nn.attention: causal_mask must be \"TopLeft\" or \"BottomRight\", got \"Left\"");
  ExpectTensorRank(Infer(nn::attention(TensorVar("q", 4), k, v)), 4, kF32);
}

}  // namespace
}  // namespace rlx::op::testing
