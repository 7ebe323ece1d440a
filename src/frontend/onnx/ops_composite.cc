// Converters of ONNX's loss and index-encoding operators, composed from
// existing Relax operators:
//
//   NegativeLogLikelihoodLoss(input (N, C, d1..dk), target (N, d1..dk),
//                             weight (C)?; reduction, ignore_index?)
//     mask   = target == ignore_index           (all false without ignore_index)
//     t      = where(mask, 0, target)            (an index that is in range)
//     picked = squeeze(gather_elements(input, expand_dims(t, 1), axis=1), 1)
//     w      = where(mask, 0, weight ? take(weight, t) : 1)
//     loss   = -picked * w
//     "none": loss; "sum": sum(loss); "mean": sum(loss) / sum(w)
//   SoftmaxCrossEntropyLoss(scores, labels, weights?)
//     log_prob = log_softmax(scores, axis=1), then the loss above on it; the
//     optional second output is log_prob.
//   Hardmax(x; axis)          (opset 13: along one axis)
//     astype(argmax(x, axis, keepdims) == arange(dim) laid along axis, dtype)
//   OneHot(indices, depth, values=[off, on]; axis)
//     i = astype(indices, int64), negative ones + depth;
//     where(expand_dims(i, axis) == arange(depth) laid along axis, on, off)
//   IsNaN(x) = x != x;  IsInf(x) = (x == +inf) | (x == -inf) (either side
//     selectable with detect_positive / detect_negative).
//   Asin, Acos, Atan, Asinh, Acosh, Atanh: the Relax ops of the same names.
//   LRN(x (N, C, ...); size, alpha, beta, bias)
//     sq = x * x padded along C by (size - 1) // 2 before and the rest after;
//     window = sum over k < size of sq[:, k : k + C]  (size shifted slices);
//     x / (bias + alpha / size * window) ^ beta
//   Celu(x; alpha) = max(x, 0) + min(alpha * (exp(x / alpha) - 1), 0)
//   EyeLike(x (n, m); dtype, k) = astype(arange(m) - arange(n)[:, None] == k)
//   HannWindow / HammingWindow / BlackmanWindow(size; periodic): host data
//     (size must be known at import time), with N = size (periodic) or
//     size - 1, of a0 - a1 cos(2 pi i / N) + a2 cos(4 pi i / N).
//   GatherND(data, indices (..., k), batch_dims b): the first b + k dims of
//     data are flattened, each index row becomes a linear index
//     sum(where(i < 0, i + dims, i) * strides, axis=-1) (plus its flattened
//     batch position times prod(dims[b:b + k])), and take(flat, linear,
//     axis=0) gives indices.shape[:-1] + data.shape[b + k:].
//   ReverseSequence: gather_elements along the time axis at
//     where(t < len, len - 1 - t, t).
//   QuantizeLinear / DequantizeLinear (uint8 / int8, per-tensor or per-axis
//     scale and zero point), DynamicQuantizeLinear (uint8 with the scale
//     and zero point of x's range widened to 0): arithmetic, ONNX's
//     round-half-to-even and a clip to the quantized range.
//   ScatterND(data, indices, updates; reduction): the same linear indices,
//     broadcast over the slice dims, scatter_elements the flattened
//     updates into the flattened data along axis 0.
#include <cmath>
#include <limits>

#include "frontend/onnx/converter.h"
#include "rlx/op/manipulate.h"
#include "rlx/op/nn.h"
#include "rlx/op/op.h"
#include "rlx/op/statistical.h"

namespace rlx::frontend::onnx_impl {
namespace {

using graph::Call;
using Out = std::vector<OnnxValue>;

Out One(Expr expr) { return {OnnxValue::Tensor(std::move(expr))}; }

// arange(0, extent) of int64 reshaped so that its elements lie along `axis`
// of a tensor of rank `rank` (every other dim 1).
Expr ArangeAlongAxis(ConvertContext& ctx, const PrimExpr& extent, int64_t axis, int64_t rank) {
  Expr range = ctx.Emit(op::arange(make<graph::PrimValueNode>(Int64(0)), make<graph::PrimValueNode>(extent),
                                   make<graph::PrimValueNode>(Int64(1)), DataType::Int64()));
  std::vector<PrimExpr> dims{extent};
  for (int64_t i = axis + 1; i < rank; ++i) dims.push_back(Int64(1));
  if (dims.size() == 1) return range;
  return ctx.Emit(op::reshape(range, ShapeExprOf(dims)));
}

// The negative log-likelihood loss of `log_prob` (N, C, d...) at `target`.
Expr NegativeLogLikelihood(ConvertContext& ctx, const Expr& log_prob, Expr target, const std::optional<Expr>& weight) {
  DataType dtype = DTypeOf(log_prob);
  DataType target_dtype = DTypeOf(target);
  if (!target_dtype.is_int()) ctx.Fail("target must be an integer tensor, got " + target_dtype.ToString());
  if (RankOf(log_prob) < 2) ctx.Fail("input must have rank >= 2 (N, C, ...)");
  std::optional<Expr> mask;
  if (ctx.HasAttr("ignore_index")) {
    auto ignore_index = static_cast<double>(ctx.AttrInt("ignore_index", 0));
    mask = ctx.Emit(op::equal(target, ScalarConstant(target_dtype, ignore_index)));
    target = ctx.Emit(op::where(*mask, ScalarConstant(target_dtype, 0), target));
  }
  Expr index = ctx.Emit(op::expand_dims(target, {1}));
  Expr picked = ctx.Emit(op::squeeze(ctx.Emit(op::gather_elements(log_prob, index, 1)), std::vector<int64_t>{1}));
  Expr w = weight ? ctx.Emit(op::take(*weight, target, 0)) : ctx.Emit(op::ones_like(picked));
  if (mask) w = ctx.Emit(op::where(*mask, ScalarConstant(dtype, 0), w));
  Expr loss = ctx.Emit(op::multiply(ctx.Emit(op::negative(picked)), w));
  std::string reduction = ctx.AttrString("reduction", "mean");
  if (reduction == "none") return loss;
  Expr total = ctx.Emit(op::sum(loss, std::nullopt, false));
  if (reduction == "sum") return total;
  if (reduction != "mean") ctx.Fail("unknown reduction '" + reduction + "'");
  return ctx.Emit(op::divide(total, ctx.Emit(op::sum(w, std::nullopt, false))));
}

std::optional<Expr> OptionalInput(ConvertContext& ctx, size_t index) {
  if (!ctx.HasInput(index)) return std::nullopt;
  return ctx.TensorInput(index);
}

Out ConvertNegativeLogLikelihoodLoss(ConvertContext& ctx) {
  return One(NegativeLogLikelihood(ctx, ctx.TensorInput(0), ctx.TensorInput(1), OptionalInput(ctx, 2)));
}

Out ConvertSoftmaxCrossEntropyLoss(ConvertContext& ctx) {
  Expr scores = ctx.TensorInput(0);
  if (RankOf(scores) < 2) ctx.Fail("scores must have rank >= 2 (N, C, ...)");
  Expr log_prob = ctx.Emit(op::nn::log_softmax(scores, 1));
  Expr loss = NegativeLogLikelihood(ctx, log_prob, ctx.TensorInput(1), OptionalInput(ctx, 2));
  Out out = One(loss);
  if (ctx.NumOutputs() > 1) out.push_back(OnnxValue::Tensor(log_prob));
  return out;
}

Out ConvertHardmax(ConvertContext& ctx) {
  Expr x = ctx.TensorInput(0);
  int64_t rank = RankOf(x);
  int64_t axis = NormalizeAxis(ctx, ctx.AttrInt("axis", -1), rank);
  std::vector<PrimExpr> dims = ctx.InputShape(0);
  Expr index = ctx.Emit(op::argmax(x, axis, true));
  Expr positions = ArangeAlongAxis(ctx, dims[static_cast<size_t>(axis)], axis, rank);
  return One(ctx.Emit(op::astype(ctx.Emit(op::equal(index, positions)), DTypeOf(x))));
}

Out ConvertOneHot(ConvertContext& ctx) {
  auto depth_values = ctx.ConstDoubles(1);
  if (!depth_values || depth_values->size() != 1) ctx.Fail("depth must be a scalar known at import time");
  auto depth = static_cast<int64_t>((*depth_values)[0]);
  if (depth < 1) ctx.Fail("depth must be positive, got " + std::to_string(depth));
  Expr indices = ctx.TensorInput(0);
  if (DTypeOf(indices) != DataType::Int64()) indices = ctx.Emit(op::astype(indices, DataType::Int64()));
  Expr depth_scalar = ScalarConstant(DataType::Int64(), static_cast<double>(depth));
  Expr wrapped = ctx.Emit(op::add(indices, depth_scalar));
  indices = ctx.Emit(op::where(ctx.Emit(op::less(indices, ScalarConstant(DataType::Int64(), 0))), wrapped, indices));
  int64_t out_rank = RankOf(indices) + 1;
  int64_t axis = NormalizeAxis(ctx, ctx.AttrInt("axis", -1), out_rank);
  Expr positions = ArangeAlongAxis(ctx, Int64(depth), axis, out_rank);
  Expr hot = ctx.Emit(op::equal(ctx.Emit(op::expand_dims(indices, {axis})), positions));
  Expr values = ctx.TensorInput(2);
  auto pick = [&](int64_t i) { return ctx.Emit(op::take(values, ScalarConstant(DataType::Int64(), static_cast<double>(i)), 0)); };
  return One(ctx.Emit(op::where(hot, pick(1), pick(0))));
}

Out ConvertIsInf(ConvertContext& ctx) {
  Expr x = ctx.TensorInput(0);
  DataType dtype = DTypeOf(x);
  double inf = std::numeric_limits<double>::infinity();
  bool positive = ctx.AttrInt("detect_positive", 1) != 0;
  bool negative = ctx.AttrInt("detect_negative", 1) != 0;
  Expr is_positive = ctx.Emit(op::equal(x, ScalarConstant(dtype, inf)));
  Expr is_negative = ctx.Emit(op::equal(x, ScalarConstant(dtype, -inf)));
  if (positive && negative) return One(ctx.Emit(op::logical_or(is_positive, is_negative)));
  if (positive) return One(is_positive);
  if (negative) return One(is_negative);
  return One(ctx.Emit(op::zeros_like(x, DataType::Bool())));
}

Out ConvertLRN(ConvertContext& ctx) {
  Expr x = ctx.TensorInput(0);
  int64_t rank = RankOf(x);
  if (rank < 3) ctx.Fail("input must have rank >= 3 (N, C, d1, ...)");
  int64_t size = ctx.AttrInt("size", 0);
  if (size < 1) ctx.Fail("size must be a positive integer");
  DataType dtype = DTypeOf(x);
  double alpha = ctx.AttrFloat("alpha", 1e-4), beta = ctx.AttrFloat("beta", 0.75), bias = ctx.AttrFloat("bias", 1.0);
  PrimExpr channels = ctx.InputShape(0)[1];
  std::vector<int64_t> pad_width(static_cast<size_t>(2 * rank), 0);
  pad_width[2] = (size - 1) / 2;
  pad_width[3] = size - 1 - (size - 1) / 2;
  Expr padded = ctx.Emit(op::nn::pad(ctx.Emit(op::multiply(x, x)), pad_width));
  Expr window;
  for (int64_t k = 0; k < size; ++k) {
    Expr slice = ctx.Emit(op::strided_slice(padded, {1}, {Int64(k)}, {ctx.Simplify(channels + Int64(k))}));
    window = k == 0 ? slice : ctx.Emit(op::add(window, slice));
  }
  Expr scaled = ctx.Emit(op::add(ScalarConstant(dtype, bias), ctx.Emit(op::multiply(window, ScalarConstant(dtype, alpha / static_cast<double>(size))))));
  return One(ctx.Emit(op::divide(x, ctx.Emit(op::power(scaled, ScalarConstant(dtype, beta))))));
}

Out ConvertCelu(ConvertContext& ctx) {
  Expr x = ctx.TensorInput(0);
  DataType dtype = DTypeOf(x);
  double alpha = ctx.AttrFloat("alpha", 1.0);
  Expr zero = ScalarConstant(dtype, 0.0);
  Expr scaled = ctx.Emit(op::divide(x, ScalarConstant(dtype, alpha)));
  Expr expm1 = ctx.Emit(op::subtract(ctx.Emit(op::exp(scaled)), ScalarConstant(dtype, 1.0)));
  Expr negative_part = ctx.Emit(op::minimum(ctx.Emit(op::multiply(ScalarConstant(dtype, alpha), expm1)), zero));
  return One(ctx.Emit(op::add(ctx.Emit(op::maximum(x, zero)), negative_part)));
}

Out ConvertEyeLike(ConvertContext& ctx) {
  if (ctx.InputRank(0) != 2) ctx.Fail("input must be 2-D");
  std::vector<PrimExpr> dims = ctx.InputShape(0);
  DataType dtype = ctx.HasAttr("dtype") ? DataTypeFromOnnx(static_cast<int>(ctx.AttrInt("dtype", 1)), "EyeLike")
                                        : ctx.InputDType(0);
  Expr rows = ArangeAlongAxis(ctx, dims[0], 0, 2);
  Expr cols = ArangeAlongAxis(ctx, dims[1], 1, 2);
  Expr diagonal = ScalarConstant(DataType::Int64(), static_cast<double>(ctx.AttrInt("k", 0)));
  Expr on_diagonal = ctx.Emit(op::equal(ctx.Emit(op::subtract(cols, rows)), diagonal));
  return One(ctx.Emit(op::astype(on_diagonal, dtype)));
}

// a0 - a1 cos(2 pi i / N) + a2 cos(4 pi i / N) for i < size.
Out ConvertWindow(ConvertContext& ctx, double a0, double a1, double a2) {
  auto size_values = ctx.ConstInts(0);
  if (!size_values || size_values->size() != 1) ctx.Fail("size must be a scalar known at import time");
  int64_t size = (*size_values)[0];
  if (size < 0) ctx.Fail("size must not be negative, got " + std::to_string(size));
  DataType dtype = DataTypeFromOnnx(static_cast<int>(ctx.AttrInt("output_datatype", 1)), "window");
  double period = static_cast<double>(ctx.AttrInt("periodic", 1) != 0 ? size : size - 1);
  std::vector<double> values;
  for (int64_t i = 0; i < size; ++i) {
    double phase = 2.0 * M_PI * static_cast<double>(i) / period;
    values.push_back(a0 - a1 * std::cos(phase) + a2 * std::cos(2.0 * phase));
  }
  return {OnnxValue::Host(MakeHost(dtype, {size}, values))};
}

// The linear index into data's first b + k dims (flattened) of every index
// row of `indices` (..., k), negative indices counted from the end; with b
// batch dims (GatherND's batch_dims) the row's batch position, flattened,
// counts in units of prod(dims[b:b + k]).
struct LinearIndex {
  Expr linear;                   // indices.shape[:-1], int64
  int64_t k;                     // index row length + batch dims: the flattened dims of data
  std::vector<PrimExpr> dims;    // data's dims
};

LinearIndex LinearIndexOf(ConvertContext& ctx, int64_t batch_dims = 0) {
  std::vector<PrimExpr> dims = ctx.InputShape(0);
  std::vector<PrimExpr> index_dims = ctx.InputShape(1);
  if (index_dims.empty()) ctx.Fail("indices must have rank >= 1");
  int64_t b = batch_dims;
  if (b < 0 || b >= static_cast<int64_t>(index_dims.size())) ctx.Fail("batch_dims must be in [0, rank of indices)");
  auto k = AsConstInt(index_dims.back());
  if (!k || *k < 1 || b + *k > static_cast<int64_t>(dims.size())) {
    ctx.Fail("the last dim of indices must be a constant in [1, rank of data - batch_dims]");
  }
  auto first = dims.begin() + b;
  std::vector<PrimExpr> extents(first, first + *k), strides;
  for (int64_t i = 0; i < *k; ++i) {
    strides.push_back(ctx.Simplify(Product(dims, static_cast<size_t>(b + i + 1), static_cast<size_t>(b + *k))));
  }
  Expr indices = ctx.TensorInput(1);
  if (DTypeOf(indices) != DataType::Int64()) indices = ctx.Emit(op::astype(indices, DataType::Int64()));
  Expr extent_tensor = ctx.Materialize(OnnxValue::ShapeValues(extents));
  Expr stride_tensor = ctx.Materialize(OnnxValue::ShapeValues(strides));
  Expr negative = ctx.Emit(op::less(indices, ScalarConstant(DataType::Int64(), 0)));
  indices = ctx.Emit(op::where(negative, ctx.Emit(op::add(indices, extent_tensor)), indices));
  Expr linear = ctx.Emit(op::sum(ctx.Emit(op::multiply(indices, stride_tensor)), std::vector<int64_t>{-1}, false));
  if (b > 0) {
    // The flattened batch position, laid along indices' batch dims.
    PrimExpr batches = ctx.Simplify(Product(dims, 0, static_cast<size_t>(b)));
    Expr position = ctx.Emit(op::arange(make<graph::PrimValueNode>(Int64(0)), make<graph::PrimValueNode>(batches),
                                        make<graph::PrimValueNode>(Int64(1)), DataType::Int64()));
    std::vector<PrimExpr> position_dims(dims.begin(), dims.begin() + b);
    position_dims.resize(index_dims.size() - 1, Int64(1));
    position = ctx.Emit(op::reshape(position, ShapeExprOf(position_dims)));
    PrimExpr block = ctx.Simplify(Product(dims, static_cast<size_t>(b), static_cast<size_t>(b + *k)));
    Expr offset = ctx.Emit(op::multiply(position, ctx.Materialize(OnnxValue::ShapeValues({block}, true))));
    linear = ctx.Emit(op::add(linear, offset));
  }
  return {linear, b + *k, dims};
}

// data reshaped to (prod(dims[:k]), dims[k:]...).
Expr FlattenLeading(ConvertContext& ctx, const Expr& data, const std::vector<PrimExpr>& dims, int64_t k) {
  std::vector<PrimExpr> flat{ctx.Simplify(Product(dims, 0, static_cast<size_t>(k)))};
  flat.insert(flat.end(), dims.begin() + k, dims.end());
  return ctx.Emit(op::reshape(data, ShapeExprOf(flat)));
}

Out ConvertGatherND(ConvertContext& ctx) {
  LinearIndex index = LinearIndexOf(ctx, ctx.AttrInt("batch_dims", 0));
  Expr flat = FlattenLeading(ctx, ctx.TensorInput(0), index.dims, index.k);
  return One(ctx.Emit(op::take(flat, index.linear, 0)));
}

Out ConvertScatterND(ConvertContext& ctx) {
  LinearIndex index = LinearIndexOf(ctx);
  std::string reduction = ctx.AttrString("reduction", "none");
  if (reduction == "none") reduction = "update";
  if (reduction != "update" && reduction != "add" && reduction != "mul") ctx.Fail("unknown reduction '" + reduction + "'");
  const std::vector<PrimExpr>& dims = index.dims;
  std::vector<PrimExpr> row_dims = *ShapeOf(index.linear);
  PrimExpr rows = ctx.Simplify(Product(row_dims, 0, row_dims.size()));
  std::vector<PrimExpr> slice_dims(dims.begin() + index.k, dims.end());
  std::vector<PrimExpr> update_dims{rows}, index_dims{rows};
  update_dims.insert(update_dims.end(), slice_dims.begin(), slice_dims.end());
  for (size_t i = 0; i < slice_dims.size(); ++i) index_dims.push_back(Int64(1));
  Expr updates = ctx.Emit(op::reshape(ctx.TensorInput(2), ShapeExprOf(update_dims)));
  Expr positions = ctx.Emit(op::reshape(index.linear, ShapeExprOf(index_dims)));
  if (!slice_dims.empty()) positions = ctx.Emit(op::broadcast_to(positions, ShapeExprOf(update_dims)));
  Expr flat = FlattenLeading(ctx, ctx.TensorInput(0), dims, index.k);
  Expr scattered = ctx.Emit(op::scatter_elements(flat, positions, updates, 0, reduction));
  return One(ctx.Emit(op::reshape(scattered, ShapeExprOf(dims))));
}

// A per-axis quantization parameter (scale or zero point, 1-D of the axis
// length) reshaped to broadcast along the node's `axis` (default 1) of a
// rank-`rank` tensor; a scalar stays as it is.
Expr AlongAxis(ConvertContext& ctx, const Expr& param, int64_t rank) {
  if (RankOf(param) != 1 || rank <= 1) return param;
  int64_t axis = NormalizeAxis(ctx, ctx.AttrInt("axis", 1), rank);
  std::vector<PrimExpr> dims = {ShapeOf(param).value()[0]};
  for (int64_t i = axis + 1; i < rank; ++i) dims.push_back(Int64(1));
  return ctx.Emit(op::reshape(param, ShapeExprOf(dims)));
}

Expr ClipTo(ConvertContext& ctx, const Expr& x, double lo, double hi) {
  auto bound = [](double v) { return make<graph::PrimValueNode>(ir::MakeFloat(v, DataType::Float(64))); };
  return ctx.Emit(op::clip(x, bound(lo), bound(hi)));
}

// The range of an 8-bit quantized dtype.
std::pair<double, double> QuantizedRange(ConvertContext& ctx, DataType dtype) {
  if (dtype == DataType::UInt(8)) return {0.0, 255.0};
  if (dtype == DataType::Int(8)) return {-128.0, 127.0};
  ctx.Fail("quantized values must be uint8 or int8, got " + dtype.ToString());
}

// y = saturate(round_half_even(x / scale) + zero_point), zero_point uint8 0
// when absent; per-axis scale and zero point along `axis` (default 1).
Out ConvertQuantizeLinear(ConvertContext& ctx) {
  Expr x = ctx.TensorInput(0);
  int64_t rank = RankOf(x);
  Expr scale = AlongAxis(ctx, ctx.TensorInput(1), rank);
  Expr zero_point = ctx.HasInput(2) ? ctx.TensorInput(2) : ScalarConstant(DataType::UInt(8), 0);
  DataType out_dtype = DTypeOf(zero_point);
  auto [lo, hi] = QuantizedRange(ctx, out_dtype);
  zero_point = ctx.Emit(op::astype(AlongAxis(ctx, zero_point, rank), DTypeOf(x)));
  Expr scaled = RoundHalfToEven(ctx, ctx.Emit(op::divide(x, scale)));
  Expr shifted = ctx.Emit(op::add(scaled, zero_point));
  return One(ctx.Emit(op::astype(ClipTo(ctx, shifted, lo, hi), out_dtype)));
}

// y = (float(x) - float(zero_point)) * scale, per axis as QuantizeLinear.
Out ConvertDequantizeLinear(ConvertContext& ctx) {
  Expr x = ctx.TensorInput(0);
  int64_t rank = RankOf(x);
  Expr scale = AlongAxis(ctx, ctx.TensorInput(1), rank);
  DataType dtype = DTypeOf(scale);
  Expr value = ctx.Emit(op::astype(x, dtype));
  if (ctx.HasInput(2)) {
    Expr zero_point = ctx.Emit(op::astype(AlongAxis(ctx, ctx.TensorInput(2), rank), dtype));
    value = ctx.Emit(op::subtract(value, zero_point));
  }
  return One(ctx.Emit(op::multiply(value, scale)));
}

// uint8 quantization with a scale and zero point from x's range (which is
// widened to include 0): scale = (max - min) / 255, zero_point =
// saturate(round_half_even(-min / scale)); outputs y, scale, zero_point.
Out ConvertDynamicQuantizeLinear(ConvertContext& ctx) {
  Expr x = ctx.TensorInput(0);
  DataType dtype = DTypeOf(x);
  Expr zero = ScalarConstant(dtype, 0.0);
  Expr low = ctx.Emit(op::minimum(ctx.Emit(op::min(x)), zero));
  Expr high = ctx.Emit(op::maximum(ctx.Emit(op::max(x)), zero));
  Expr scale = ctx.Emit(op::divide(ctx.Emit(op::subtract(high, low)), ScalarConstant(dtype, 255.0)));
  Expr zero_point = ClipTo(ctx, RoundHalfToEven(ctx, ctx.Emit(op::subtract(zero, ctx.Emit(op::divide(low, scale))))), 0, 255);
  Expr y = ctx.Emit(op::add(RoundHalfToEven(ctx, ctx.Emit(op::divide(x, scale))), zero_point));
  return {OnnxValue::Tensor(ctx.Emit(op::astype(ClipTo(ctx, y, 0, 255), DataType::UInt(8)))), OnnxValue::Tensor(scale),
          OnnxValue::Tensor(ctx.Emit(op::astype(zero_point, DataType::UInt(8))))};
}

// ReverseSequence: out[t, b] = x[len[b] - 1 - t, b] for t < len[b], else
// x[t, b] (time and batch axes 0/1 either way round): the source time index
// where(t < len, len - 1 - t, t), broadcast to x's shape, feeds
// gather_elements along the time axis.
Out ConvertReverseSequence(ConvertContext& ctx) {
  Expr x = ctx.TensorInput(0);
  std::vector<PrimExpr> dims = ctx.InputShape(0);
  int64_t rank = static_cast<int64_t>(dims.size());
  if (rank < 2) ctx.Fail("input must have rank >= 2");
  int64_t time_axis = NormalizeAxis(ctx, ctx.AttrInt("time_axis", 0), rank);
  int64_t batch_axis = NormalizeAxis(ctx, ctx.AttrInt("batch_axis", 1), rank);
  if (time_axis + batch_axis != 1) ctx.Fail("time_axis and batch_axis must be 0 and 1");
  Expr time = ArangeAlongAxis(ctx, dims[static_cast<size_t>(time_axis)], time_axis, rank);
  Expr lens = ctx.TensorInput(1);
  if (DTypeOf(lens) != DataType::Int64()) lens = ctx.Emit(op::astype(lens, DataType::Int64()));
  std::vector<PrimExpr> lens_dims(static_cast<size_t>(rank), Int64(1));
  lens_dims[static_cast<size_t>(batch_axis)] = dims[static_cast<size_t>(batch_axis)];
  lens = ctx.Emit(op::reshape(lens, ShapeExprOf(lens_dims)));
  Expr reversed = ctx.Emit(op::subtract(ctx.Emit(op::subtract(lens, ScalarConstant(DataType::Int64(), 1))), time));
  Expr source = ctx.Emit(op::where(ctx.Emit(op::less(time, lens)), reversed, time));
  source = ctx.Emit(op::broadcast_to(source, ShapeExprOf(dims)));
  return One(ctx.Emit(op::gather_elements(x, source, time_axis)));
}

}  // namespace

void RegisterCompositeConverters(ConverterTable& table) {
  table["QuantizeLinear"].push_back({10, ConvertQuantizeLinear});
  table["ReverseSequence"].push_back({10, ConvertReverseSequence});
  table["DequantizeLinear"].push_back({10, ConvertDequantizeLinear});
  table["DynamicQuantizeLinear"].push_back({11, ConvertDynamicQuantizeLinear});
  table["NegativeLogLikelihoodLoss"].push_back({12, ConvertNegativeLogLikelihoodLoss});
  table["SoftmaxCrossEntropyLoss"].push_back({12, ConvertSoftmaxCrossEntropyLoss});
  table["Hardmax"].push_back({13, ConvertHardmax});
  table["OneHot"].push_back({9, ConvertOneHot});
  table["LRN"].push_back({1, ConvertLRN});
  table["Celu"].push_back({12, ConvertCelu});
  table["EyeLike"].push_back({9, ConvertEyeLike});
  table["HannWindow"].push_back({17, [](ConvertContext& ctx) { return ConvertWindow(ctx, 0.5, 0.5, 0.0); }});
  table["HammingWindow"].push_back(
      {17, [](ConvertContext& ctx) { return ConvertWindow(ctx, 25.0 / 46.0, 21.0 / 46.0, 0.0); }});
  table["BlackmanWindow"].push_back({17, [](ConvertContext& ctx) { return ConvertWindow(ctx, 0.42, 0.5, 0.08); }});
  table["GatherND"].push_back({11, ConvertGatherND});
  table["ScatterND"].push_back({11, ConvertScatterND});
  table["IsInf"].push_back({10, ConvertIsInf});
  table["IsNaN"].push_back({9, [](ConvertContext& ctx) -> Out {
                              Expr x = ctx.TensorInput(0);
                              return One(ctx.Emit(op::not_equal(x, x)));
                            }});
  using UnaryMaker = Call (*)(Expr);
  for (auto [name, maker] : std::vector<std::pair<const char*, UnaryMaker>>{{"Asin", op::asin},
                                                                            {"Acos", op::acos},
                                                                            {"Atan", op::atan},
                                                                            {"Asinh", op::asinh},
                                                                            {"Acosh", op::acosh},
                                                                            {"Atanh", op::atanh}}) {
    table[name].push_back({7, [maker](ConvertContext& ctx) -> Out { return One(ctx.Emit(maker(ctx.TensorInput(0)))); }});
  }
}

}  // namespace rlx::frontend::onnx_impl
