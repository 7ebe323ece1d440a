// Converters of ONNX neural-network operators: Conv, ConvTranspose,
// BatchNormalization, InstanceNormalization, LayerNormalization (with its
// Mean / InvStdDev outputs), MeanVarianceNormalization, Gemm,
// MatMul, Softmax, LogSoftmax, MaxPool, AveragePool, GlobalAveragePool,
// GlobalMaxPool, Resize, Upsample, ConvInteger, MatMulInteger (int32
// arithmetic on zero-point-shifted operands). MaxPool's Indices output is composed
// from Relax ops (MaxPoolIndices).
//
// Opset differences: Softmax/LogSoftmax before 13 coerce the input to 2-D
// at `axis` (default 1) and normalize over the flattened inner part; from 13
// they normalize along `axis` (default -1). Resize takes (X, scales) in 10
// and (X, roi, scales, sizes) from 11, with half_pixel as the default
// coordinate mode from 11 (asymmetric before); a scale whose output size is
// not exact maps coordinates through a roi (ScaleExactRoi). Upsample is nearest or linear
// resizing with asymmetric coordinates, scales an attribute before 9.
//
// auto_pad SAME_UPPER / SAME_LOWER padding is computed from static input
// sizes (a symbolic spatial size with SAME padding is an error). 1-D pooling
// runs as 2-D pooling over a unit height, 3-D pooling as nn.max_pool3d /
// nn.avg_pool3d.
#include <algorithm>
#include <cmath>
#include <limits>

#include "frontend/onnx/converter.h"
#include "rlx/op/manipulate.h"
#include "rlx/op/nn.h"
#include "rlx/op/op.h"
#include "rlx/op/statistical.h"

namespace rlx::frontend::onnx_impl {
namespace {

using Out = std::vector<OnnxValue>;
using IntList = std::vector<int64_t>;

Out One(Expr expr) { return {OnnxValue::Tensor(std::move(expr))}; }

int64_t StaticDim(ConvertContext& ctx, const PrimExpr& dim, const std::string& what) {
  auto value = AsConstInt(dim);
  if (!value) ctx.Fail(what + " needs a static size, got a symbolic one");
  return *value;
}

// The ONNX `pads` (begin..., end...) of a windowed op over `spatial` dims.
IntList WindowPads(ConvertContext& ctx, const std::vector<PrimExpr>& spatial, const IntList& kernel,
                   const IntList& strides, const IntList& dilations) {
  size_t n = spatial.size();
  std::string auto_pad = ctx.AttrString("auto_pad", "NOTSET");
  if (auto_pad == "NOTSET") {
    IntList pads = ctx.AttrInts("pads").value_or(IntList(2 * n, 0));
    if (pads.size() != 2 * n) ctx.Fail("pads has " + std::to_string(pads.size()) + " values, expected " + std::to_string(2 * n));
    return pads;
  }
  IntList pads(2 * n, 0);
  if (auto_pad == "VALID") return pads;
  if (auto_pad != "SAME_UPPER" && auto_pad != "SAME_LOWER") ctx.Fail("auto_pad '" + auto_pad + "' is not supported");
  for (size_t i = 0; i < n; ++i) {
    int64_t in = StaticDim(ctx, spatial[i], "auto_pad " + auto_pad);
    int64_t out = (in + strides[i] - 1) / strides[i];
    int64_t total = std::max<int64_t>(0, (out - 1) * strides[i] + (kernel[i] - 1) * dilations[i] + 1 - in);
    int64_t small = total / 2, large = total - small;
    pads[i] = auto_pad == "SAME_UPPER" ? small : large;
    pads[i + n] = auto_pad == "SAME_UPPER" ? large : small;
  }
  return pads;
}

IntList AttrIntsOr(ConvertContext& ctx, const std::string& name, size_t n, int64_t fill) {
  IntList values = ctx.AttrInts(name).value_or(IntList(n, fill));
  if (values.size() != n) ctx.Fail(name + " has " + std::to_string(values.size()) + " values, expected " + std::to_string(n));
  return values;
}

// Adds a per-channel bias (C,) to an NC... tensor.
Expr AddChannelBias(ConvertContext& ctx, Expr out, size_t spatial) {
  if (!ctx.HasInput(2)) return out;
  IntList axes;
  for (size_t i = 0; i < spatial; ++i) axes.push_back(static_cast<int64_t>(i + 1));
  Expr bias = ctx.Emit(op::expand_dims(ctx.TensorInput(2), axes));
  return ctx.Emit(op::add(out, bias));
}

// The convolution of x and w with the node's attributes (no bias).
Expr ConvolutionOf(ConvertContext& ctx, const Expr& x, const Expr& w) {
  std::vector<PrimExpr> dims = ctx.InputShape(0), wdims = ctx.InputShape(1);
  size_t n = dims.size() - 2;
  if (n < 1 || n > 3) ctx.Fail(std::to_string(n) + "-D convolution is not supported (1-D, 2-D and 3-D are)");
  IntList kernel;
  for (size_t i = 0; i < n; ++i) kernel.push_back(StaticDim(ctx, wdims[i + 2], "the kernel"));
  op::nn::ConvAttrs attrs;
  attrs.strides = AttrIntsOr(ctx, "strides", n, 1);
  attrs.dilation = AttrIntsOr(ctx, "dilations", n, 1);
  attrs.padding = WindowPads(ctx, {dims.begin() + 2, dims.end()}, kernel, attrs.strides, attrs.dilation);
  attrs.groups = ctx.AttrInt("group", 1);
  if (n == 1) return ctx.Emit(op::nn::conv1d(x, w, attrs));
  return ctx.Emit(n == 2 ? op::nn::conv2d(x, w, attrs) : op::nn::conv3d(x, w, attrs));
}

Out ConvertConv(ConvertContext& ctx) {
  Expr out = ConvolutionOf(ctx, ctx.TensorInput(0), ctx.TensorInput(1));
  return One(AddChannelBias(ctx, out, static_cast<size_t>(RankOf(out) - 2)));
}

// Input `index` as int32 minus the zero point at `zero_index` (absent: 0).
// A 1-D zero point of a rank >= 2 operand applies along axis 0 when
// `along_axis0` (ConvInteger's w: per output channel; MatMulInteger's A:
// per row), else along the last axis (MatMulInteger's B: per column).
Expr ShiftedInt32(ConvertContext& ctx, size_t index, size_t zero_index, bool along_axis0) {
  Expr value = ctx.Emit(op::astype(ctx.TensorInput(index), DataType::Int32()));
  if (!ctx.HasInput(zero_index)) return value;
  Expr zero = ctx.Emit(op::astype(ctx.TensorInput(zero_index), DataType::Int32()));
  int rank = RankOf(value);
  if (along_axis0 && RankOf(zero) == 1 && rank >= 2) {
    std::vector<PrimExpr> dims = {ShapeOf(zero).value()[0]};
    dims.resize(static_cast<size_t>(rank), Int64(1));
    zero = ctx.Emit(op::reshape(zero, ShapeExprOf(dims)));
  }
  return ctx.Emit(op::subtract(value, zero));
}

// ConvInteger / MatMulInteger: int32 arithmetic on the zero-point-shifted
// operands (a 1-D zero point is per output channel of w, per row of A and
// per column of B).
Out ConvertConvInteger(ConvertContext& ctx) {
  return One(ConvolutionOf(ctx, ShiftedInt32(ctx, 0, 2, false), ShiftedInt32(ctx, 1, 3, true)));
}

Out ConvertMatMulInteger(ConvertContext& ctx) {
  return One(ctx.Emit(op::matmul(ShiftedInt32(ctx, 0, 2, true), ShiftedInt32(ctx, 1, 3, false))));
}

// 1-D transposed convolution runs as 2-D over a unit height (as 1-D
// pooling does): x and w get a height of 1, every attribute a leading
// neutral value.
op::nn::ConvAttrs LiftTo2D(op::nn::ConvAttrs attrs) {
  attrs.strides.insert(attrs.strides.begin(), 1);
  attrs.dilation.insert(attrs.dilation.begin(), 1);
  attrs.output_padding.insert(attrs.output_padding.begin(), 0);
  attrs.padding = {0, attrs.padding[0], 0, attrs.padding[1]};
  return attrs;
}

Out ConvertConvTranspose(ConvertContext& ctx) {
  Expr x = ctx.TensorInput(0), w = ctx.TensorInput(1);
  std::vector<PrimExpr> dims = ctx.InputShape(0), wdims = ctx.InputShape(1);
  size_t n = dims.size() - 2;
  if (dims.size() < 3 || n > 2) ctx.Fail("only 1-D and 2-D transposed convolution is supported");
  IntList kernel;
  for (size_t i = 0; i < n; ++i) kernel.push_back(StaticDim(ctx, wdims[i + 2], "the kernel"));
  op::nn::ConvAttrs attrs;
  attrs.strides = AttrIntsOr(ctx, "strides", n, 1);
  attrs.dilation = AttrIntsOr(ctx, "dilations", n, 1);
  attrs.output_padding = AttrIntsOr(ctx, "output_padding", n, 0);
  attrs.groups = ctx.AttrInt("group", 1);
  std::string auto_pad = ctx.AttrString("auto_pad", "NOTSET");
  auto output_shape = ctx.AttrInts("output_shape");
  if (output_shape || auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
    IntList pads(2 * n, 0);
    for (size_t i = 0; i < n; ++i) {
      int64_t in = StaticDim(ctx, dims[i + 2], "ConvTranspose with output_shape or SAME padding");
      int64_t out = output_shape ? (*output_shape)[output_shape->size() - n + i] : in * attrs.strides[i];
      int64_t total = attrs.strides[i] * (in - 1) + attrs.output_padding[i] + (kernel[i] - 1) * attrs.dilation[i] + 1 - out;
      if (total < 0) {  // the requested output is larger: extend the end
        attrs.output_padding[i] += -total;
        total = 0;
      }
      bool lower = auto_pad == "SAME_LOWER";
      pads[i] = lower ? total - total / 2 : total / 2;
      pads[i + n] = total - pads[i];
    }
    attrs.padding = pads;
  } else {
    attrs.padding = ctx.AttrInts("pads").value_or(IntList(2 * n, 0));
  }
  if (n == 1) {
    x = ctx.Emit(op::expand_dims(x, IntList{2}));
    w = ctx.Emit(op::expand_dims(w, IntList{2}));
    attrs = LiftTo2D(attrs);
  }
  Expr out = ctx.Emit(op::nn::conv2d_transpose(x, w, attrs));
  if (n == 1) out = ctx.Emit(op::squeeze(out, IntList{2}));
  return One(AddChannelBias(ctx, out, n));
}

// Training mode (training_mode=1, opset 14+) normalizes with the batch's
// statistics over every axis but the channel (population variance) and
// also returns the updated running statistics
// input * momentum + batch * (1 - momentum).
Out ConvertBatchNorm(ConvertContext& ctx) {
  double epsilon = ctx.AttrFloat("epsilon", 1e-5);
  bool training = ctx.AttrInt("training_mode", 0) != 0;
  if (!training) {
    Expr bn = ctx.Emit(op::nn::batch_norm(ctx.TensorInput(0), ctx.TensorInput(1), ctx.TensorInput(2),
                                          ctx.TensorInput(3), ctx.TensorInput(4), 1, epsilon));
    return One(ctx.Emit(make<graph::TupleGetItemNode>(bn, 0)));
  }
  Expr x = ctx.TensorInput(0);
  IntList axes = {0};
  for (int64_t i = 2; i < RankOf(x); ++i) axes.push_back(i);
  Expr batch_mean = ctx.Emit(op::mean(x, axes, false));
  Expr batch_var = ctx.Emit(op::variance(x, axes, false));
  Expr bn = ctx.Emit(op::nn::batch_norm(x, ctx.TensorInput(1), ctx.TensorInput(2), batch_mean, batch_var, 1, epsilon));
  double momentum = ctx.AttrFloat("momentum", 0.9);
  DataType dtype = DTypeOf(x);
  auto running = [&](const Expr& input, const Expr& batch) {
    Expr kept = ctx.Emit(op::multiply(input, ScalarConstant(dtype, momentum)));
    return ctx.Emit(op::add(kept, ctx.Emit(op::multiply(batch, ScalarConstant(dtype, 1.0 - momentum)))));
  };
  return {OnnxValue::Tensor(ctx.Emit(make<graph::TupleGetItemNode>(bn, 0))),
          OnnxValue::Tensor(running(ctx.TensorInput(3), batch_mean)),
          OnnxValue::Tensor(running(ctx.TensorInput(4), batch_var))};
}

Out ConvertInstanceNorm(ConvertContext& ctx) {
  std::vector<PrimExpr> dims = ctx.InputShape(0);
  int64_t channels = StaticDim(ctx, dims[1], "the channel dimension");
  IntList axes;
  for (size_t i = 2; i < dims.size(); ++i) axes.push_back(static_cast<int64_t>(i));
  return One(ctx.Emit(op::nn::group_norm(ctx.TensorInput(0), ctx.TensorInput(1), ctx.TensorInput(2), channels, 1, axes,
                                         ctx.AttrFloat("epsilon", 1e-5))));
}

Out ConvertLayerNorm(ConvertContext& ctx) {
  int64_t rank = ctx.InputRank(0);
  int64_t axis = NormalizeAxis(ctx, ctx.AttrInt("axis", -1), rank);
  IntList axes;
  for (int64_t i = axis; i < rank; ++i) axes.push_back(i);
  Expr scale = ctx.TensorInput(1);
  Expr bias = ctx.HasInput(2) ? ctx.TensorInput(2) : ctx.Emit(op::zeros_like(scale));
  double epsilon = ctx.AttrFloat("epsilon", 1e-5);
  Expr x = ctx.TensorInput(0);
  Out outputs = One(ctx.Emit(op::nn::layer_norm(x, scale, bias, axes, epsilon)));
  if (ctx.NumOutputs() > 1) {  // Mean and InvStdDev, reduced with keepdims
    outputs.push_back(OnnxValue::Tensor(ctx.Emit(op::mean(x, axes, true))));
    Expr variance = ctx.Emit(op::variance(x, axes, true));
    Expr shifted = ctx.Emit(op::add(variance, ScalarConstant(DTypeOf(x), epsilon)));
    outputs.push_back(OnnxValue::Tensor(ctx.Emit(op::rsqrt(shifted))));
  }
  return outputs;
}

// (x - mean) / (sqrt(variance) + 1e-9) over `axes` (default N, H, W), as
// ONNX's function body defines it.
Out ConvertMeanVarianceNormalization(ConvertContext& ctx) {
  Expr x = ctx.TensorInput(0);
  IntList axes = ctx.AttrInts("axes").value_or(IntList{0, 2, 3});
  for (int64_t& axis : axes) axis = NormalizeAxis(ctx, axis, RankOf(x));
  Expr centered = ctx.Emit(op::subtract(x, ctx.Emit(op::mean(x, axes, true))));
  Expr std_dev = ctx.Emit(op::sqrt(ctx.Emit(op::variance(x, axes, true))));
  Expr denominator = ctx.Emit(op::add(std_dev, ScalarConstant(DTypeOf(x), 1e-9)));
  return One(ctx.Emit(op::divide(centered, denominator)));
}

Out ConvertGemm(ConvertContext& ctx) {
  Expr a = ctx.TensorInput(0), b = ctx.TensorInput(1);
  if (ctx.AttrInt("transA", 0)) a = ctx.Emit(op::permute_dims(a, IntList{1, 0}));
  if (ctx.AttrInt("transB", 0)) b = ctx.Emit(op::permute_dims(b, IntList{1, 0}));
  Expr out = ctx.Emit(op::matmul(a, b));
  double alpha = ctx.AttrFloat("alpha", 1.0), beta = ctx.AttrFloat("beta", 1.0);
  if (alpha != 1.0) out = ctx.Emit(op::multiply(out, ScalarConstant(DTypeOf(out), alpha)));
  if (ctx.HasInput(2)) {
    Expr c = ctx.TensorInput(2);
    if (beta != 1.0) c = ctx.Emit(op::multiply(c, ScalarConstant(DTypeOf(c), beta)));
    out = ctx.Emit(op::add(out, c));
  }
  return One(out);
}

Out ConvertSoftmax(ConvertContext& ctx, bool log) {
  Expr x = ctx.TensorInput(0);
  int64_t rank = RankOf(x);
  auto normalize = [&](Expr v, int64_t axis) { return ctx.Emit(log ? op::nn::log_softmax(v, axis) : op::nn::softmax(v, axis)); };
  if (ctx.opset() >= 13) return One(normalize(x, NormalizeAxis(ctx, ctx.AttrInt("axis", -1), rank)));
  int64_t axis = ctx.AttrInt("axis", 1);
  if (axis < 0) axis += rank;
  if (axis < 0 || axis > rank) ctx.Fail("axis is out of range");
  std::vector<PrimExpr> dims = ctx.InputShape(0);
  if (axis == rank - 1) return One(normalize(x, -1));
  PrimExpr outer = ctx.Simplify(Product(dims, 0, static_cast<size_t>(axis)));
  PrimExpr inner = ctx.Simplify(Product(dims, static_cast<size_t>(axis), dims.size()));
  Expr flat = ctx.Emit(op::reshape(x, ShapeExprOf({outer, inner})));
  return One(ctx.Emit(op::reshape(normalize(flat, 1), ShapeExprOf(dims))));
}

// MaxPool's Indices output: the flat index (into the whole input, spatial
// dims row-major, or column-major with storage_order=1) of each window's
// maximum, the first in window order on ties. Built from Relax ops: an int64
// iota shaped like x, both padded (x with the lowest value, which never
// wins), then for every kernel offset the strided slice of the window points
// it covers; a running maximum keeps the index where a later point is
// strictly larger. Needs static spatial sizes (the padding ceil_mode adds at
// the end is computed at import time).
Expr MaxPoolIndices(ConvertContext& ctx, const Expr& x, const Expr& values, const IntList& kernel,
                    const IntList& strides, const IntList& dilations, const IntList& pads) {
  std::vector<PrimExpr> dims = ctx.InputShape(0), out = ShapeOf(values).value();
  size_t n = kernel.size();
  std::vector<PrimExpr> iota_dims = {dims[0], dims[1]};
  for (size_t i = 0; i < n; ++i) iota_dims.push_back(dims[2 + i]);
  bool column_major = ctx.AttrInt("storage_order", 0) != 0;
  if (column_major) std::reverse(iota_dims.begin() + 2, iota_dims.end());
  PrimExpr total = ctx.Simplify(Product(dims, 0, dims.size()));
  Expr iota = ctx.Emit(op::arange(make<graph::PrimValueNode>(Int64(0)), make<graph::PrimValueNode>(total),
                                  make<graph::PrimValueNode>(Int64(1)), DataType::Int64()));
  Expr index = ctx.Emit(op::reshape(iota, ShapeExprOf(iota_dims)));
  if (column_major) {
    IntList perm = {0, 1};
    for (size_t i = 0; i < n; ++i) perm.push_back(static_cast<int64_t>(dims.size() - 1 - i));
    index = ctx.Emit(op::permute_dims(index, perm));
  }
  IntList pad_width = {0, 0, 0, 0};
  for (size_t i = 0; i < n; ++i) {
    int64_t in = StaticDim(ctx, dims[2 + i], "MaxPool's Indices output");
    int64_t out_size = StaticDim(ctx, out[2 + i], "MaxPool's Indices output");
    int64_t reach = (out_size - 1) * strides[i] + (kernel[i] - 1) * dilations[i] + 1;
    pad_width.push_back(pads[i]);
    pad_width.push_back(std::max(pads[i + n], reach - in - pads[i]));
  }
  double lowest = DTypeOf(x).bits() == 16 ? -65504.0 : static_cast<double>(std::numeric_limits<float>::lowest());
  Expr padded = ctx.Emit(op::nn::pad(x, pad_width, lowest));
  Expr padded_index = ctx.Emit(op::nn::pad(index, pad_width, 0.0));
  IntList axes;
  for (size_t i = 0; i < n; ++i) axes.push_back(static_cast<int64_t>(2 + i));
  Expr best, best_index;
  size_t offsets = 1;
  for (int64_t k : kernel) offsets *= static_cast<size_t>(k);
  for (size_t flat = 0; flat < offsets; ++flat) {
    std::vector<PrimExpr> begin(n), end(n), step(n);
    size_t rest = flat;
    for (size_t i = n; i-- > 0;) {
      int64_t k = static_cast<int64_t>(rest % static_cast<size_t>(kernel[i]));
      rest /= static_cast<size_t>(kernel[i]);
      begin[i] = Int64(k * dilations[i]);
      end[i] = ctx.Simplify(begin[i] + (out[2 + i] - 1) * strides[i] + 1);
      step[i] = Int64(strides[i]);
    }
    Expr window = ctx.Emit(op::strided_slice(padded, axes, begin, end, step));
    Expr window_index = ctx.Emit(op::strided_slice(padded_index, axes, begin, end, step));
    if (flat == 0) {
      best = window, best_index = window_index;
      continue;
    }
    Expr larger = ctx.Emit(op::greater(window, best));
    best = ctx.Emit(op::where(larger, window, best));
    best_index = ctx.Emit(op::where(larger, window_index, best_index));
  }
  return best_index;
}

Out ConvertPool(ConvertContext& ctx, bool is_max) {
  Expr x = ctx.TensorInput(0);
  std::vector<PrimExpr> dims = ctx.InputShape(0);
  size_t n = dims.size() - 2;
  if (n < 1 || n > 3) ctx.Fail(std::to_string(n) + "-D pooling is not supported (1-D, 2-D and 3-D are)");
  IntList kernel = ctx.AttrInts("kernel_shape").value_or(IntList{});
  if (kernel.size() != n) ctx.Fail("kernel_shape must have " + std::to_string(n) + " values");
  IntList strides = AttrIntsOr(ctx, "strides", n, 1);
  IntList dilations = AttrIntsOr(ctx, "dilations", n, 1);
  IntList pads = WindowPads(ctx, {dims.begin() + 2, dims.end()}, kernel, strides, dilations);
  op::nn::Pool2DAttrs attrs;
  attrs.ceil_mode = ctx.AttrInt("ceil_mode", 0) != 0;
  attrs.count_include_pad = ctx.AttrInt("count_include_pad", 0) != 0;
  if (n == 1) {
    attrs.pool_size = {1, kernel[0]};
    attrs.strides = {1, strides[0]};
    attrs.dilation = {1, dilations[0]};
    attrs.padding = {0, pads[0], 0, pads[1]};
    x = ctx.Emit(op::expand_dims(x, IntList{2}));
  } else {
    attrs.pool_size = kernel;
    attrs.strides = strides;
    attrs.dilation = dilations;
    attrs.padding = pads;
  }
  Expr out;
  if (n == 3) {
    attrs.layout = "NCDHW";
    out = ctx.Emit(is_max ? op::nn::max_pool3d(x, attrs) : op::nn::avg_pool3d(x, attrs));
  } else {
    out = ctx.Emit(is_max ? op::nn::max_pool2d(x, attrs) : op::nn::avg_pool2d(x, attrs));
  }
  if (n == 1) out = ctx.Emit(op::squeeze(out, IntList{2}));
  if (!is_max || ctx.NumOutputs() < 2 || ctx.node().output(1).empty()) return One(out);
  Expr indices = MaxPoolIndices(ctx, ctx.TensorInput(0), out, kernel, strides, dilations, pads);
  return {OnnxValue::Tensor(out), OnnxValue::Tensor(indices)};
}

Out ConvertGlobalPool(ConvertContext& ctx, bool is_max) {
  Expr x = ctx.TensorInput(0);
  IntList axes;
  for (int64_t i = 2; i < RankOf(x); ++i) axes.push_back(i);
  return One(ctx.Emit(is_max ? op::max(x, axes, true) : op::mean(x, axes, true)));
}

// The output (height, width) of a 2-D resize from sizes or scales.
std::vector<PrimExpr> ResizeOutput(ConvertContext& ctx, const std::vector<PrimExpr>& dims,
                                   std::optional<std::vector<PrimExpr>> sizes, std::optional<std::vector<double>> scales) {
  if (sizes && sizes->size() == 4) return {(*sizes)[2], (*sizes)[3]};
  if (!scales || scales->size() != 4) ctx.Fail("needs 4 scales or 4 sizes known at import time");
  if ((*scales)[0] != 1.0 || (*scales)[1] != 1.0) ctx.Fail("resizing the batch or channel dimension is not supported");
  std::vector<PrimExpr> out;
  for (size_t i = 2; i < 4; ++i) {
    double scale = (*scales)[i];
    if (auto known = AsConstInt(dims[i])) {
      out.push_back(Int64(static_cast<int64_t>(std::floor(static_cast<double>(*known) * scale))));
    } else if (scale == std::floor(scale)) {
      out.push_back(ctx.Simplify(dims[i] * static_cast<int64_t>(scale)));
    } else {
      ctx.Fail("a non-integer scale of a symbolic dimension is not supported");
    }
  }
  return out;
}

// ONNX maps output coordinates with the given scale s (x = (o + 0.5) / s -
// 0.5 for half_pixel, o * (in - 1) / (in * s - 1) for align_corners, ...),
// resize2d with the ratio of the integer sizes; they differ when in * s is
// not an integer (a 4 -> 3 downsampling by 0.8). Every such map is affine,
// x = a + b * o, and so is tf_crop_and_resize's over a roi, so the exact
// map is the roi (start, end) with start * (in - 1) = a and
// (end - start) * (in - 1) / (out - 1) = b (start = end when out = 1).
// Returns that roi (start_h, start_w, end_h, end_w) when some dim needs it,
// the dims are constants above 1, and every coordinate lies inside
// [0, in - 1] with a margin (tf_crop_and_resize extrapolates outside it;
// true of downsampling); nullopt otherwise.
std::optional<std::vector<double>> ScaleExactRoi(const std::vector<PrimExpr>& dims, const std::vector<PrimExpr>& out,
                                                 const std::vector<double>& scales, const std::string& mode) {
  std::vector<double> start(2), end(2);
  bool needed = false;
  for (size_t d = 0; d < 2; ++d) {
    std::optional<int64_t> in_size = AsConstInt(dims[d + 2]), out_size = AsConstInt(out[d]);
    if (!in_size || !out_size || *in_size < 2 || *out_size < 1) return std::nullopt;
    double in = static_cast<double>(*in_size), n = static_cast<double>(*out_size), s = scales[d + 2];
    double resized = in * s;
    needed = needed || resized != n;
    double a = 0, b = 0;
    if (mode == "half_pixel" || (mode == "pytorch_half_pixel" && n > 1)) {
      a = 0.5 / s - 0.5, b = 1 / s;
    } else if (mode == "align_corners") {
      b = resized > 1 ? (in - 1) / (resized - 1) : 0;
    } else if (mode == "asymmetric") {
      b = 1 / s;
    } else if (mode == "tf_half_pixel_for_nn") {
      a = 0.5 / s, b = 1 / s;
    } else if (mode != "pytorch_half_pixel") {
      return std::nullopt;
    }
    double last = a + b * (n - 1), margin = 1e-3;
    bool inside = (a == 0 || a >= margin) && a <= in - 1 - margin && last >= margin && last <= in - 1 - margin;
    if (!inside && !(n == 1 && a == 0)) return std::nullopt;
    start[d] = a / (in - 1);
    end[d] = n > 1 ? start[d] + b * (n - 1) / (in - 1) : start[d];
  }
  if (!needed) return std::nullopt;
  return std::vector<double>{start[0], start[1], end[0], end[1]};
}

// tf_crop_and_resize's region: ONNX's roi input (starts then ends of the 4
// dims, normalized) as resize2d's (start_h, start_w, end_h, end_w).
std::vector<double> ResizeRoi(ConvertContext& ctx) {
  std::optional<std::vector<double>> roi = ctx.ConstDoubles(1);
  if (!roi || roi->size() != 8) ctx.Fail("tf_crop_and_resize needs a roi of 8 values known at import time");
  if ((*roi)[0] != 0.0 || (*roi)[1] != 0.0 || (*roi)[4] != 1.0 || (*roi)[5] != 1.0) {
    ctx.Fail("cropping the batch or channel dimension is not supported");
  }
  return {(*roi)[2], (*roi)[3], (*roi)[6], (*roi)[7]};
}

std::string ResizeMethod(ConvertContext& ctx, const std::string& mode) {
  if (mode == "nearest") return "nearest_neighbor";
  if (mode == "linear" || mode == "bilinear") return "linear";
  if (mode == "cubic") return "cubic";
  ctx.Fail("mode '" + mode + "' is not supported");
}

Out ConvertResize(ConvertContext& ctx) {
  std::vector<PrimExpr> dims = ctx.InputShape(0);
  if (dims.size() != 4) ctx.Fail("only 4-D (NCHW) resizing is supported");
  op::image::Resize2DAttrs attrs;
  attrs.method = ResizeMethod(ctx, ctx.AttrString("mode", "nearest"));
  std::optional<std::vector<PrimExpr>> sizes;
  std::optional<std::vector<double>> scales;
  if (ctx.opset() < 11) {
    scales = ctx.ConstDoubles(1);
    attrs.coordinate_transformation_mode = "asymmetric";
    attrs.rounding_method = "floor";
  } else {
    if (ctx.HasInput(3)) sizes = ctx.ShapeValues(3);
    if (ctx.HasInput(2)) scales = ctx.ConstDoubles(2);
    if (scales && scales->empty()) scales.reset();
    attrs.coordinate_transformation_mode = ctx.AttrString("coordinate_transformation_mode", "half_pixel");
    if (attrs.coordinate_transformation_mode == "tf_crop_and_resize") attrs.roi = ResizeRoi(ctx);
    attrs.rounding_method = ctx.AttrString("nearest_mode", "round_prefer_floor");
    attrs.cubic_alpha = ctx.AttrFloat("cubic_coeff_a", -0.75);
    attrs.cubic_exclude = ctx.AttrInt("exclude_outside", 0);
    attrs.extrapolation_value = ctx.AttrFloat("extrapolation_value", 0.0);
  }
  if (attrs.method != "nearest_neighbor") attrs.rounding_method = "";
  std::vector<PrimExpr> out = ResizeOutput(ctx, dims, sizes, scales);
  if (!sizes && scales && attrs.method != "nearest_neighbor") {
    if (auto roi = ScaleExactRoi(dims, out, *scales, attrs.coordinate_transformation_mode)) {
      attrs.coordinate_transformation_mode = "tf_crop_and_resize";
      attrs.roi = *roi;
    }
  }
  return One(ctx.Emit(op::image::resize2d(ctx.TensorInput(0), ShapeExprOf(out), attrs)));
}

Out ConvertUpsample(ConvertContext& ctx) {
  std::vector<PrimExpr> dims = ctx.InputShape(0);
  if (dims.size() != 4) ctx.Fail("only 4-D (NCHW) upsampling is supported");
  std::optional<std::vector<double>> scales = ctx.opset() < 9 ? ctx.AttrFloats("scales") : ctx.ConstDoubles(1);
  op::image::Resize2DAttrs attrs;
  attrs.method = ResizeMethod(ctx, ctx.AttrString("mode", "nearest"));
  attrs.coordinate_transformation_mode = "asymmetric";
  attrs.rounding_method = attrs.method == "nearest_neighbor" ? "floor" : "";
  std::vector<PrimExpr> out = ResizeOutput(ctx, dims, std::nullopt, scales);
  return One(ctx.Emit(op::image::resize2d(ctx.TensorInput(0), ShapeExprOf(out), attrs)));
}

}  // namespace

void RegisterNNConverters(ConverterTable& table) {
  table["Conv"].push_back({1, ConvertConv});
  table["ConvInteger"].push_back({10, ConvertConvInteger});
  table["MatMulInteger"].push_back({10, ConvertMatMulInteger});
  table["ConvTranspose"].push_back({1, ConvertConvTranspose});
  table["BatchNormalization"].push_back({1, ConvertBatchNorm});
  table["InstanceNormalization"].push_back({1, ConvertInstanceNorm});
  table["LayerNormalization"].push_back({17, ConvertLayerNorm});
  table["Gemm"].push_back({1, ConvertGemm});
  table["MeanVarianceNormalization"].push_back({9, ConvertMeanVarianceNormalization});
  table["MatMul"].push_back({1, [](ConvertContext& ctx) -> Out {
                               return One(ctx.Emit(op::matmul(ctx.TensorInput(0), ctx.TensorInput(1))));
                             }});
  table["Softmax"].push_back({1, [](ConvertContext& ctx) { return ConvertSoftmax(ctx, false); }});
  table["LogSoftmax"].push_back({1, [](ConvertContext& ctx) { return ConvertSoftmax(ctx, true); }});
  table["MaxPool"].push_back({1, [](ConvertContext& ctx) { return ConvertPool(ctx, true); }});
  table["AveragePool"].push_back({1, [](ConvertContext& ctx) { return ConvertPool(ctx, false); }});
  table["GlobalAveragePool"].push_back({1, [](ConvertContext& ctx) { return ConvertGlobalPool(ctx, false); }});
  table["GlobalMaxPool"].push_back({1, [](ConvertContext& ctx) { return ConvertGlobalPool(ctx, true); }});
  table["Resize"].push_back({10, ConvertResize});
  table["Upsample"].push_back({7, ConvertUpsample});
}

}  // namespace rlx::frontend::onnx_impl
