// Tensor-expression computations of the nn, statistical, image and einsum
// operators (the counterparts of TVM's topi functions that its
// legalizations call). Each takes te placeholders or computed tensors and
// the operator's normalized attributes and returns the computed tensor(s);
// legalization turns them into a PrimFunc (te::CreatePrimFunc) called with
// R.call_tir, and tests run them with the TIR interpreter.
//
// Conventions: axes are normalized (0 <= axis < ndim); layouts are given as
// positions of the canonical letters (conv: data N, C, spatial...; kernel
// O, I, spatial...). float16 inputs of softmax and the normalizations are
// accumulated in float32 and the result is cast back.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "rlx/tir/te.h"

namespace rlx::op::compute {

using te::Tensor;

// ---------------------------------------------------------------- nn
Tensor Softmax(const Tensor& x, int axis);
Tensor LogSoftmax(const Tensor& x, int axis);
// gamma/beta have the shape of x at `axes` (undefined when !scale / !center).
Tensor LayerNorm(const Tensor& x, const Tensor& gamma, const Tensor& beta, const std::vector<int>& axes,
                 double epsilon);
Tensor RmsNorm(const Tensor& x, const Tensor& weight, const std::vector<int>& axes, double epsilon);
Tensor GroupNorm(const Tensor& x, const Tensor& gamma, const Tensor& beta, int64_t num_groups, int channel_axis,
                 const std::vector<int>& axes, double epsilon);
// Inference batch norm: (x - mean) / sqrt(var + eps) * gamma + beta, then
// the moving statistics passed through (TVM's inference outputs).
std::vector<Tensor> BatchNorm(const Tensor& x, const Tensor& gamma, const Tensor& beta, const Tensor& mean,
                              const Tensor& var, int axis, double epsilon);

struct ConvParams {
  std::vector<int64_t> strides, padding, dilation, output_padding;  // padding: begin..., end...
  int64_t groups = 1;
  std::vector<int> data_pos, kernel_pos, out_pos;  // positions of canonical letters
  DataType out_dtype;
};
// conv1d / conv2d (spatial = rank - 2) and conv2d_transpose.
Tensor Conv(const Tensor& data, const Tensor& weight, const ConvParams& params);
Tensor ConvTranspose(const Tensor& data, const Tensor& weight, const ConvParams& params);

struct PoolParams {
  // One value per spatial dim (2 or 3); padding: the begins, then the ends
  // (top, left, bottom, right in 2-D).
  std::vector<int64_t> pool_size, strides, dilation, padding;
  bool ceil_mode = false;
  bool count_include_pad = false;
  std::vector<int> pos, out_pos;  // positions of N, C, (D,) H, W
};
// 2-D or 3-D by the number of spatial dims in `params`.
Tensor MaxPool2D(const Tensor& data, const PoolParams& params);
Tensor AvgPool2D(const Tensor& data, const PoolParams& params);
Tensor AdaptiveAvgPool2D(const Tensor& data, std::optional<std::vector<int64_t>> output_size,
                         const std::vector<int>& pos, const std::vector<int>& out_pos);

Tensor Pad(const Tensor& data, const std::vector<int64_t>& pad_width, double pad_value, const std::string& mode);

// attention on (b, s, h, d) tensors; bias may be undefined.
Tensor Attention(const Tensor& q, const Tensor& k, const Tensor& v, const Tensor& bias, std::optional<double> scale,
                 std::optional<std::string> causal_mask);

// Inference dropout: (data, mask) with the data unchanged and a mask of ones.
std::vector<Tensor> DropoutInference(const Tensor& data);

// ---------------------------------------------------------------- statistical
Tensor Variance(const Tensor& x, const std::vector<int>& axes, bool keepdims);
Tensor Std(const Tensor& x, const std::vector<int>& axes, bool keepdims);
// axis nullopt: of the flattened tensor.
Tensor ArgReduce(const Tensor& x, std::optional<int> axis, bool keepdims, bool is_max);
Tensor Cumsum(const Tensor& x, std::optional<int> axis, DataType dtype, bool exclusive);
// Einsum of `operands` with numpy subscripts (already checked by the
// struct-info rule).
Tensor Einsum(const std::vector<Tensor>& operands, const std::string& subscripts);

// ---------------------------------------------------------------- sorting
// topk along `axis`: {values, indices} of the best `k` elements (k <= the
// axis dim), in order, ties by the lower index; argsort / sort are stable.
std::vector<Tensor> TopK(const Tensor& x, ir::PrimExpr k, int axis, bool largest, DataType index_dtype);
Tensor Argsort(const Tensor& x, int axis, bool descending, DataType index_dtype);
Tensor Sort(const Tensor& x, int axis, bool descending);

// ---------------------------------------------------------------- image
struct ResizeParams {
  std::vector<int> pos;  // positions of N, C, H, W
  std::string method, coordinate_transformation_mode, rounding_method;
  DataType out_dtype;
  double cubic_alpha = -0.5;
  bool cubic_exclude = false;
  std::vector<double> roi = {0.0, 0.0, 0.0, 0.0};  // tf_crop_and_resize: start_h, start_w, end_h, end_w
  double extrapolation_value = 0.0;
};
Tensor Resize2D(const Tensor& data, const std::vector<ir::PrimExpr>& size, const ResizeParams& params);

}  // namespace rlx::op::compute
