// Neural-network and image operators: R.nn.* (softmax, normalizations,
// convolutions, pooling, pad, dropout, attention) and R.image.resize2d.
//
// Each constructor builds an un-normalized graph::Call with TVM's name and
// attributes (stored as op_common.h describes; a BlockBuilder deduces the
// struct info). Defaults, attribute names and their printing order follow
// TVM's Relax (python/tvm/relax/op/nn/nn.py, image/image.py), and the
// constructors store attributes in TVM's normalized form: conv2d's padding
// as 4 values (top, left, bottom, right), out_layout resolved to the data
// layout.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "rlx/graph/expr.h"

namespace rlx::op {

using graph::Call;
using graph::Expr;

namespace nn {

using IntList = std::vector<int64_t>;

// softmax / log_softmax along `axis` (float input).
Call softmax(Expr data, int64_t axis = -1);
Call log_softmax(Expr data, int64_t axis = -1);

// Normalizations. `axes` are the normalized axes (negative count from the end).
Call layer_norm(Expr data, Expr gamma, Expr beta, IntList axes, double epsilon = 1e-5, bool center = true,
                bool scale = true);
Call rms_norm(Expr data, Expr weight, IntList axes = {-1}, double epsilon = 1e-5);
Call group_norm(Expr data, Expr gamma, Expr beta, int64_t num_groups, int64_t channel_axis, IntList axes,
                double epsilon = 1e-5, bool center = true, bool scale = true);
// Inference form: (normalized data, moving_mean, moving_var) as a tuple.
Call batch_norm(Expr data, Expr gamma, Expr beta, Expr moving_mean, Expr moving_var, int64_t axis,
                double epsilon = 1e-5, bool center = true, bool scale = true, double momentum = 0.1);

// Convolutions. Spatial attributes take 1 value (every dim) or one per dim;
// padding also (begin..., end...). out_layout nullopt means data_layout;
// out_dtype void means the data's dtype.
struct ConvAttrs {
  IntList strides = {1};
  IntList padding = {0};
  IntList dilation = {1};
  int64_t groups = 1;
  std::optional<std::string> data_layout;    // default NCW / NCHW
  std::optional<std::string> kernel_layout;  // default OIW / OIHW (IOHW for conv2d_transpose)
  std::optional<std::string> out_layout;
  DataType out_dtype = DataType::Void();
  IntList output_padding = {0};  // conv2d_transpose only
};
Call conv1d(Expr data, Expr weight, const ConvAttrs& attrs = {});
Call conv2d(Expr data, Expr weight, const ConvAttrs& attrs = {});
Call conv3d(Expr data, Expr weight, const ConvAttrs& attrs = {});
Call conv2d_transpose(Expr data, Expr weight, const ConvAttrs& attrs = {});

// 2-D pooling.
struct Pool2DAttrs {
  IntList pool_size = {1, 1};
  IntList strides = {1, 1};
  IntList padding = {0, 0};
  IntList dilation = {1, 1};
  bool ceil_mode = false;
  bool count_include_pad = false;
  std::string layout = "NCHW";
  std::optional<std::string> out_layout;
};
Call max_pool2d(Expr data, const Pool2DAttrs& attrs = {});
Call avg_pool2d(Expr data, const Pool2DAttrs& attrs = {});
// 3-D pooling (TVM's nn.max_pool3d / nn.avg_pool3d) with the same attributes
// over D, H, W; `layout` must then be a permutation of "NCDHW" and padding
// holds 1, 3 or 6 values (front, top, left, back, bottom, right).
Call max_pool3d(Expr data, const Pool2DAttrs& attrs);
Call avg_pool3d(Expr data, const Pool2DAttrs& attrs);
// output_size nullopt keeps the input's spatial size.
Call adaptive_avg_pool2d(Expr data, std::optional<IntList> output_size = std::nullopt, std::string layout = "NCHW",
                         std::optional<std::string> out_layout = std::nullopt);

// pad_width holds (before, after) per dimension: [b0, a0, b1, a1, ...].
// pad_mode is "constant", "edge" or "reflect".
Call pad(Expr data, IntList pad_width, double pad_value = 0.0, std::string pad_mode = "constant");

// Inference dropout: (data, mask) as a tuple; the data passes unchanged.
Call dropout(Expr data, double rate = 0.5);

// Multi-head attention on (batch, seq, heads, head_dim) tensors; bias
// (batch, heads, seq_q, seq_kv) may be undefined. causal_mask is "TopLeft"
// or "BottomRight".
Call attention(Expr query, Expr key, Expr value, Expr bias = Expr(), std::optional<double> scale = std::nullopt,
               std::optional<std::string> causal_mask = std::nullopt,
               std::optional<int64_t> window_size = std::nullopt);

}  // namespace nn

namespace image {

struct Resize2DAttrs {
  std::vector<double> roi = {0.0, 0.0, 0.0, 0.0};
  std::string layout = "NCHW";
  std::string method = "linear";  // nearest_neighbor, linear, cubic
  std::string coordinate_transformation_mode = "half_pixel";  // align_corners, asymmetric, ...
  std::string rounding_method = "round";
  double cubic_alpha = -0.5;
  int64_t cubic_exclude = 0;
  double extrapolation_value = 0.0;
  DataType out_dtype = DataType::Void();
};
// `size` is a ShapeExpr of the output (height, width).
Call resize2d(Expr data, Expr size, const Resize2DAttrs& attrs = {});

}  // namespace image
}  // namespace rlx::op
