// Struct-info deduction of convolutions, pooling and image.resize2d,
// symbolic spatial sizes included.
#include <gtest/gtest.h>

#include "op_test_util.h"
#include "rlx/op/nn.h"

namespace rlx::op::testing {
namespace {

using ConvPoolTest = OpTest;
using ir::floordiv;

TEST_F(ConvPoolTest, Conv2dStaticAndSymbolic) {
  graph::Var w = TensorVar("w", {Int(16), Int(3), Int(3), Int(3)});
  ExpectTensor(Infer(nn::conv2d(TensorVar("x", {Int(2), Int(3), Int(28), Int(28)}), w)),
               {Int(2), Int(16), Int(26), Int(26)}, kF32);
  nn::ConvAttrs attrs;
  attrs.strides = {2};
  attrs.padding = {1};
  attrs.dilation = {2};
  ir::Var h = ir::MakeVar("h");
  ir::Var wd = ir::MakeVar("w");
  ExpectTensor(Infer(nn::conv2d(TensorVar("x", {b, Int(3), h, wd}), w, attrs)),
               {b, Int(16), floordiv(h - 3, 2) + 1, floordiv(wd - 3, 2) + 1}, kF32);
}

TEST_F(ConvPoolTest, Conv2dLayoutsGroupsAndDtype) {
  nn::ConvAttrs nhwc;
  nhwc.data_layout = "NHWC";
  nhwc.kernel_layout = "HWIO";
  nhwc.padding = {1, 1};
  nhwc.out_dtype = kF16;
  ExpectTensor(Infer(nn::conv2d(TensorVar("x", {n, Int(10), Int(12), Int(4)}), TensorVar("w", {Int(3), Int(3), Int(4), Int(8)}), nhwc)),
               {n, Int(10), Int(12), Int(8)}, kF16);
  nn::ConvAttrs grouped;
  grouped.groups = 2;
  ExpectTensor(Infer(nn::conv2d(TensorVar("x", {n, Int(4), Int(5), Int(5)}), TensorVar("w", {Int(6), Int(2), Int(1), Int(1)}), grouped)),
               {n, Int(6), Int(5), Int(5)}, kF32);
  EXPECT_EQ(InferError(nn::conv2d(TensorVar("x", {n, Int(4), Int(5), Int(5)}), TensorVar("w", {Int(6), Int(3), Int(1), Int(1)}))),
            "nn.conv2d: the data's 4 input channels do not match the weight (1 groups): data has shape (n, 4, 5, 5), "
            "weight has shape (6, 3, 1, 1)");
  EXPECT_EQ(InferError(nn::conv2d(TensorVar("x", {n, Int(4), Int(5), Int(5)}), TensorVar("w", {Int(5), Int(2), Int(1), Int(1)}), grouped)),
            "nn.conv2d: the weight's 5 output channels are not divisible by groups 2: weight has shape (5, 2, 1, 1)");
  nn::ConvAttrs bad_layout;
  bad_layout.data_layout = "NCHW16c";
  EXPECT_EQ(InferError(nn::conv2d(TensorVar("x", 4), TensorVar("w", 4), bad_layout)),
            "nn.conv2d: unsupported data_layout \"NCHW16c\": expected a permutation of \"NCHW\"");
  ExpectTensorRank(Infer(nn::conv2d(TensorVar("x", 4), TensorVar("w", 4))), 4, kF32);
}

TEST_F(ConvPoolTest, Conv1dAndTranspose) {
  nn::ConvAttrs attrs;
  attrs.padding = {2, 1};
  ExpectTensor(Infer(nn::conv1d(TensorVar("x", {n, Int(3), m}), TensorVar("w", {Int(5), Int(3), Int(4)}), attrs)),
               {n, Int(5), m}, kF32);
  nn::ConvAttrs up;
  up.strides = {2};
  up.padding = {1};
  up.output_padding = {1};
  ExpectTensor(Infer(nn::conv2d_transpose(TensorVar("x", {n, Int(4), m, Int(7)}), TensorVar("w", {Int(4), Int(3), Int(3), Int(3)}), up)),
               {n, Int(3), m * 2, Int(14)}, kF32);
  EXPECT_NE(InferError(nn::conv1d(TensorVar("x", {n, Int(3), m}), TensorVar("w", {Int(5), Int(3), Int(4), Int(4)})))
                .find("nn.conv1d: expected data and weight of rank 3"),
            std::string::npos);
}

TEST_F(ConvPoolTest, Conv3dOverSymbolicDepthAndHeight) {
  nn::ConvAttrs attrs;
  attrs.strides = {1, 2, 1};
  attrs.padding = {1, 1, 0, 1, 1, 0};
  attrs.groups = 2;
  ExpectTensor(Infer(nn::conv3d(TensorVar("x", {n, Int(4), m, m, Int(6)}), TensorVar("w", {Int(8), Int(2), Int(3), Int(3), Int(3)}), attrs)),
               {n, Int(8), m, floordiv(m - 1, 2) + 1, Int(4)}, kF32);
  EXPECT_EQ(InferError(nn::conv3d(TensorVar("x", {n, Int(4), m, m, m}), TensorVar("w", {Int(8), Int(3), Int(1), Int(1), Int(1)}))),
            "nn.conv3d: the data's 4 input channels do not match the weight (1 groups): data has shape (n, 4, m, m, m), "
            "weight has shape (8, 3, 1, 1, 1)");
  EXPECT_NE(InferError(nn::conv3d(TensorVar("x", {n, Int(3), m, m}), TensorVar("w", {Int(5), Int(3), Int(1), Int(1), Int(1)})))
                .find("nn.conv3d: expected data and weight of rank 5"),
            std::string::npos);
}

TEST_F(ConvPoolTest, Pool2d) {
  nn::Pool2DAttrs attrs;
  attrs.pool_size = {3, 3};
  attrs.strides = {2, 2};
  attrs.padding = {1, 1};
  ir::Var h = ir::MakeVar("h");
  ExpectTensor(Infer(nn::max_pool2d(TensorVar("x", {n, Int(64), h, Int(112)}), attrs)),
               {n, Int(64), floordiv(h - 1, 2) + 1, Int(56)}, kF32);
  attrs.ceil_mode = true;
  attrs.padding = {0};
  ExpectTensor(Infer(nn::avg_pool2d(TensorVar("x", {n, Int(8), h, Int(6)}), attrs)),
               {n, Int(8), floordiv(h - 2, 2) + 1, Int(3)}, kF32);
  nn::Pool2DAttrs nhwc;
  nhwc.pool_size = {2, 2};
  nhwc.strides = {2, 2};
  nhwc.layout = "NHWC";
  ExpectTensor(Infer(nn::max_pool2d(TensorVar("x", {n, Int(9), Int(8), Int(3)}), nhwc)), {n, Int(4), Int(4), Int(3)},
               kF32);
  nn::Pool2DAttrs too_big;
  too_big.pool_size = {5, 5};
  EXPECT_EQ(InferError(nn::max_pool2d(TensorVar("x", {n, Int(3), Int(4), Int(4)}), too_big)),
            "nn.max_pool2d: the pooling window [5, 5] does not fit the data of shape (n, 3, 4, 4) (padding [0, 0, 0, 0])");
}

TEST_F(ConvPoolTest, AdaptiveAvgPool2d) {
  ExpectTensor(Infer(nn::adaptive_avg_pool2d(TensorVar("x", {n, Int(3), m, m}), std::vector<int64_t>{1})),
               {n, Int(3), Int(1), Int(1)}, kF32);
  ExpectTensor(Infer(nn::adaptive_avg_pool2d(TensorVar("x", {n, Int(3), m, k}))), {n, Int(3), m, k}, kF32);
  ExpectTensor(Infer(nn::adaptive_avg_pool2d(TensorVar("x", {n, m, k, Int(3)}), std::vector<int64_t>{2, 3}, "NHWC")),
               {n, Int(2), Int(3), Int(3)}, kF32);
}

TEST_F(ConvPoolTest, Resize2d) {
  graph::Expr size = make<graph::ShapeExprNode>(std::vector<PrimExpr>{m, Int(32)});
  ExpectTensor(Infer(image::resize2d(TensorVar("x", {n, Int(3), Int(16), Int(16)}), size)), {n, Int(3), m, Int(32)},
               kF32);
  image::Resize2DAttrs attrs;
  attrs.layout = "NHWC";
  attrs.method = "nearest_neighbor";
  attrs.out_dtype = kF16;
  ExpectTensor(Infer(image::resize2d(TensorVar("x", {n, Int(16), Int(16), Int(3)}), size, attrs)),
               {n, m, Int(32), Int(3)}, kF16);
  attrs.method = "bicubic";
  EXPECT_EQ(InferError(image::resize2d(TensorVar("x", {n, Int(16), Int(16), Int(3)}), size, attrs)),
            "image.resize2d: unsupported method \"bicubic\"; expected one of: \"nearest_neighbor\", \"linear\", \"cubic\"");
}

}  // namespace
}  // namespace rlx::op::testing
