// Converters of the ONNX operators that compute on shapes: Shape, Size,
// Constant, Gather, Slice, Concat, Unsqueeze, Squeeze, Range,
// ConstantOfShape, Expand, Reshape.
//
// Each first tries to stay at import time: on shape values (converter.h) it
// produces shape values (Gather of Shape(x) with constant indices is the
// dimension itself, Concat of shape vectors a longer vector), so a Reshape,
// Expand or ConstantOfShape fed by them receives PrimExprs and emits a
// ShapeExpr whose dims the analyzer simplified (n * 768 // 768 is n). Only
// otherwise does it emit the Relax operator on tensors. A shape that is
// only known at run time (a Reshape whose target is a computed tensor) is
// data-dependent: Reshape, Expand and ConstantOfShape then turn the run-time
// tensor into a shape (vm.builtin.tensor_to_shape) and match_cast it to
// fresh symbolic variables, after resolving Reshape's 0 / -1 and Expand's
// broadcasting with tensor ops.
#include <algorithm>
#include <cmath>
#include <limits>

#include "frontend/onnx/converter.h"
#include "rlx/op/manipulate.h"
#include "rlx/op/op.h"

namespace rlx::frontend::onnx_impl {
namespace {

using Out = std::vector<OnnxValue>;

Out One(Expr expr) { return {OnnxValue::Tensor(std::move(expr))}; }

bool IsShapeVector(const ConvertContext& ctx, size_t index) {
  if (!ctx.HasInput(index)) return false;
  const OnnxValue& value = ctx.Input(index);
  if (value.kind == OnnxValue::Kind::kShape) return true;
  return value.kind == OnnxValue::Kind::kHost && value.host->dtype == DataType::Int64() && value.host->shape.size() <= 1;
}

bool IsScalarValue(const ConvertContext& ctx, size_t index) {
  const OnnxValue& value = ctx.Input(index);
  if (value.kind == OnnxValue::Kind::kShape) return value.shape_is_scalar;
  if (value.kind == OnnxValue::Kind::kHost) return value.host->shape.empty();
  return RankOf(value.expr) == 0;
}

// Python slicing of [0, length) for one axis, with ONNX's clamping.
std::vector<int64_t> SliceIndices(int64_t length, int64_t start, int64_t end, int64_t step) {
  auto clamp = [&](int64_t v, int64_t lo, int64_t hi) { return std::min(std::max(v, lo), hi); };
  if (start < 0) start += length;
  if (end < 0) end += length;
  std::vector<int64_t> indices;
  if (step > 0) {
    start = clamp(start, 0, length);
    end = clamp(end, 0, length);
    for (int64_t i = start; i < end; i += step) indices.push_back(i);
  } else {
    start = clamp(start, -1, length - 1);
    end = clamp(end, -1, length - 1);
    for (int64_t i = start; i > end; i += step) indices.push_back(i);
  }
  return indices;
}

Out ConvertShape(ConvertContext& ctx) {
  std::vector<PrimExpr> dims = ctx.InputShape(0);
  int64_t rank = static_cast<int64_t>(dims.size());
  int64_t start = ctx.AttrInt("start", 0), end = ctx.AttrInt("end", rank);
  std::vector<PrimExpr> out;
  for (int64_t i : SliceIndices(rank, start, end, 1)) out.push_back(dims[static_cast<size_t>(i)]);
  return {OnnxValue::ShapeValues(out)};
}

Out ConvertSize(ConvertContext& ctx) {
  std::vector<PrimExpr> dims = ctx.InputShape(0);
  return {OnnxValue::ShapeValues({ctx.Simplify(Product(dims, 0, dims.size()))}, true)};
}

Out ConvertConstant(ConvertContext& ctx) {
  if (auto data = ctx.AttrTensorData("value")) return {OnnxValue::Host(data)};
  if (ctx.HasAttr("value_float")) return {OnnxValue::Host(MakeHost(DataType::Float32(), {}, {ctx.AttrFloat("value_float", 0)}))};
  if (auto floats = ctx.AttrFloats("value_floats")) {
    return {OnnxValue::Host(MakeHost(DataType::Float32(), {static_cast<int64_t>(floats->size())}, *floats))};
  }
  if (ctx.HasAttr("value_int")) return {OnnxValue::Host(MakeHostInts(DataType::Int64(), {}, {ctx.AttrInt("value_int", 0)}))};
  if (auto ints = ctx.AttrInts("value_ints")) {
    return {OnnxValue::Host(MakeHostInts(DataType::Int64(), {static_cast<int64_t>(ints->size())}, *ints))};
  }
  ctx.Fail("only the value, value_float(s) and value_int(s) forms are supported");
}

Out ConvertGather(ConvertContext& ctx) {
  int64_t axis = ctx.AttrInt("axis", 0);
  auto indices = ctx.ConstInts(1);
  if (IsShapeVector(ctx, 0) && indices && !IsScalarValue(ctx, 0)) {
    std::vector<PrimExpr> values = *ctx.ShapeValues(0);
    int64_t length = static_cast<int64_t>(values.size());
    std::vector<PrimExpr> out;
    for (int64_t index : *indices) {
      if (index < -length || index >= length) ctx.Fail("index " + std::to_string(index) + " is out of range");
      out.push_back(values[static_cast<size_t>(index < 0 ? index + length : index)]);
    }
    return {OnnxValue::ShapeValues(out, ctx.InputRank(1) == 0)};
  }
  Expr data = ctx.TensorInput(0);
  int64_t rank = RankOf(data);
  axis = NormalizeAxis(ctx, axis, rank);
  bool non_negative = indices && std::all_of(indices->begin(), indices->end(), [](int64_t i) { return i >= 0; });
  return One(ctx.Emit(op::take(data, ctx.TensorInput(1), axis, non_negative ? "fast" : "wrap")));
}

struct SliceParams {
  std::vector<int64_t> starts, ends, axes, steps;
};

SliceParams ReadSliceParams(ConvertContext& ctx, int64_t rank) {
  SliceParams p;
  if (ctx.opset() < 10) {
    p.starts = ctx.AttrInts("starts").value_or(std::vector<int64_t>{});
    p.ends = ctx.AttrInts("ends").value_or(std::vector<int64_t>{});
    p.axes = ctx.AttrInts("axes").value_or(std::vector<int64_t>{});
  } else {
    p.starts = ctx.RequireInts(1, "Slice's starts");
    p.ends = ctx.RequireInts(2, "Slice's ends");
    if (ctx.HasInput(3)) p.axes = ctx.RequireInts(3, "Slice's axes");
    if (ctx.HasInput(4)) p.steps = ctx.RequireInts(4, "Slice's steps");
  }
  if (p.starts.size() != p.ends.size()) ctx.Fail("starts and ends differ in length");
  if (p.axes.empty()) {
    for (size_t i = 0; i < p.starts.size(); ++i) p.axes.push_back(static_cast<int64_t>(i));
  }
  if (p.steps.empty()) p.steps.assign(p.starts.size(), 1);
  for (int64_t& axis : p.axes) axis = NormalizeAxis(ctx, axis, rank);
  for (int64_t step : p.steps) {
    if (step == 0) ctx.Fail("a step is 0");
  }
  return p;
}

Out ConvertSlice(ConvertContext& ctx) {
  int64_t rank = ctx.InputRank(0);
  SliceParams p = ReadSliceParams(ctx, rank);
  if (IsShapeVector(ctx, 0) && rank == 1) {
    std::vector<PrimExpr> values = *ctx.ShapeValues(0);
    std::vector<PrimExpr> out;
    for (int64_t i : SliceIndices(static_cast<int64_t>(values.size()), p.starts[0], p.ends[0], p.steps[0])) {
      out.push_back(values[static_cast<size_t>(i)]);
    }
    return {OnnxValue::ShapeValues(out)};
  }
  Expr data = ctx.TensorInput(0);
  std::vector<PrimExpr> dims = ctx.InputShape(0);
  std::vector<PrimExpr> begin, end, strides;
  constexpr int64_t kHuge = std::numeric_limits<int32_t>::max();
  for (size_t i = 0; i < p.axes.size(); ++i) {
    const PrimExpr& dim = dims[static_cast<size_t>(p.axes[i])];
    int64_t s = p.starts[i], e = p.ends[i];
    if (p.steps[i] > 0) {
      begin.push_back(s >= kHuge ? dim : Int64(s));
      end.push_back(e >= kHuge ? dim : Int64(e));
    } else {
      begin.push_back(s >= kHuge ? ctx.Simplify(dim - 1) : Int64(s));
      end.push_back(Int64(e <= -kHuge ? -(kHuge) : e));
    }
    strides.push_back(Int64(p.steps[i]));
  }
  bool unit = std::all_of(p.steps.begin(), p.steps.end(), [](int64_t s) { return s == 1; });
  return One(ctx.Emit(op::strided_slice(data, p.axes, begin, end, unit ? std::vector<PrimExpr>{} : strides)));
}

// Concat requires every dim but the axis to be equal; a symbolic one the
// analyzer cannot prove equal to the first tensor's (FPN maps upsampled to
// one size along different paths) would make the result's shape unknown, so
// the tensor is match_cast to the first one's dims (checked at run time).
Expr AlignConcatOperand(ConvertContext& ctx, const Expr& first, const Expr& tensor, int64_t axis) {
  auto first_dims = ShapeOf(first);
  auto dims = ShapeOf(tensor);
  if (!first_dims || !dims || first_dims->size() != dims->size()) return tensor;
  std::vector<PrimExpr> aligned = *dims;
  bool changed = false;
  for (size_t i = 0; i < aligned.size(); ++i) {
    if (static_cast<int64_t>(i) == axis || ctx.analyzer().CanProveEqual((*first_dims)[i], aligned[i])) continue;
    if (AsConstInt((*first_dims)[i]) && AsConstInt(aligned[i])) continue;  // the operator's own error
    aligned[i] = (*first_dims)[i];
    changed = true;
  }
  if (!changed) return tensor;
  return ctx.MatchCastToDims(tensor, std::move(aligned));
}

Out ConvertConcat(ConvertContext& ctx) {
  bool all_shapes = true;
  for (size_t i = 0; i < ctx.NumInputs(); ++i) all_shapes = all_shapes && IsShapeVector(ctx, i) && !IsScalarValue(ctx, i);
  if (all_shapes) {
    std::vector<PrimExpr> out;
    for (size_t i = 0; i < ctx.NumInputs(); ++i) {
      std::vector<PrimExpr> values = *ctx.ShapeValues(i);
      out.insert(out.end(), values.begin(), values.end());
    }
    return {OnnxValue::ShapeValues(out)};
  }
  std::vector<Expr> tensors;
  for (size_t i = 0; i < ctx.NumInputs(); ++i) tensors.push_back(ctx.TensorInput(i));
  int64_t axis = NormalizeAxis(ctx, ctx.AttrInt("axis", 0), RankOf(tensors[0]));
  for (size_t i = 1; i < tensors.size(); ++i) tensors[i] = AlignConcatOperand(ctx, tensors[0], tensors[i], axis);
  return One(ctx.Emit(op::concat(make<graph::TupleNode>(tensors), axis)));
}

std::vector<int64_t> AxesOf(ConvertContext& ctx, int since_input_opset) {
  if (ctx.opset() < since_input_opset) return ctx.AttrInts("axes").value_or(std::vector<int64_t>{});
  if (!ctx.HasInput(1)) return {};
  return ctx.RequireInts(1, "axes");
}

Out ConvertUnsqueeze(ConvertContext& ctx) {
  std::vector<int64_t> axes = AxesOf(ctx, 13);
  const OnnxValue& input = ctx.Input(0);
  if (input.kind == OnnxValue::Kind::kShape && input.shape_is_scalar && axes.size() == 1 && (axes[0] == 0 || axes[0] == -1)) {
    return {OnnxValue::ShapeValues(input.shape)};
  }
  int64_t out_rank = ctx.InputRank(0) + static_cast<int64_t>(axes.size());
  for (int64_t& axis : axes) axis = NormalizeAxis(ctx, axis, out_rank);
  std::sort(axes.begin(), axes.end());
  return One(ctx.Emit(op::expand_dims(ctx.TensorInput(0), axes)));
}

Out ConvertSqueeze(ConvertContext& ctx) {
  std::vector<int64_t> axes = AxesOf(ctx, 13);
  const OnnxValue& input = ctx.Input(0);
  if (input.kind == OnnxValue::Kind::kShape && !input.shape_is_scalar && input.shape.size() == 1) {
    return {OnnxValue::ShapeValues(input.shape, true)};
  }
  int64_t rank = ctx.InputRank(0);
  if (axes.empty()) return One(ctx.Emit(op::squeeze(ctx.TensorInput(0))));
  for (int64_t& axis : axes) axis = NormalizeAxis(ctx, axis, rank);
  return One(ctx.Emit(op::squeeze(ctx.TensorInput(0), axes)));
}

Out ConvertRange(ConvertContext& ctx) {
  DataType dtype = ctx.InputDType(0);
  auto start = ctx.ConstDoubles(0), limit = ctx.ConstDoubles(1), delta = ctx.ConstDoubles(2);
  if (start && limit && delta) {
    if ((*delta)[0] == 0) ctx.Fail("delta is 0");
    std::vector<double> values;
    int64_t count = std::max<int64_t>(0, static_cast<int64_t>(std::ceil(((*limit)[0] - (*start)[0]) / (*delta)[0])));
    for (int64_t i = 0; i < count; ++i) values.push_back((*start)[0] + static_cast<double>(i) * (*delta)[0]);
    return {OnnxValue::Host(MakeHost(dtype, {count}, values))};
  }
  auto bound = [&](size_t index) -> Expr {
    auto values = ctx.ShapeValues(index);
    if (!values || values->size() != 1) ctx.Fail("Range's bounds must be scalars known at import time or shape values");
    return make<graph::PrimValueNode>((*values)[0]);
  };
  if (!dtype.is_int()) {
    ctx.Fail("the bounds of a Range of " + dtype.ToString() +
             " must be known at import time (only integer bounds may be symbolic)");
  }
  Expr out = ctx.Emit(op::arange(bound(0), bound(1), bound(2), DataType::Int64()));
  if (dtype != DataType::Int64()) out = ctx.Emit(op::astype(out, dtype));
  return One(out);
}

Out ConvertConstantOfShape(ConvertContext& ctx) {
  graph::TensorDataPtr value = ctx.AttrTensorData("value");
  if (!value) value = MakeHost(DataType::Float32(), {}, {0.0});
  auto dims = ctx.ShapeValues(0);
  if (!dims) dims = ctx.ShapeFromTensor(ctx.TensorInput(0));
  auto ints = ctx.ConstInts(0);
  if (ints && (value->dtype.is_int() || value->dtype.is_bool())) {
    int64_t count = 1;
    for (int64_t d : *ints) count *= d;
    if (count <= 1024) {
      std::vector<int64_t> fill(static_cast<size_t>(count), HostAsInts(*value)[0]);
      return {OnnxValue::Host(MakeHostInts(value->dtype, *ints, fill))};
    }
  }
  auto scalar = std::make_shared<graph::TensorData>(*value);
  scalar->shape = {};
  return One(ctx.Emit(op::full(ShapeExprOf(*dims), ConvertContext::ConstantOf(scalar), value->dtype)));
}

Expr Int64Const(int64_t value) { return ScalarConstant(DataType::Int64(), static_cast<double>(value)); }

// An int64 tensor of `values` (the input's dims, padded with `pad` on the
// left up to `length` or cut to the first `length`).
Expr DimsTensor(ConvertContext& ctx, std::vector<PrimExpr> values, size_t length, bool pad_left, int64_t pad) {
  if (values.size() > length) values.resize(length);
  while (values.size() < length) {
    if (pad_left) values.insert(values.begin(), Int64(pad));
    else values.push_back(Int64(pad));
  }
  return ctx.Materialize(OnnxValue::ShapeValues(values));
}

// ONNX bidirectional broadcast of `x` against `target`.
std::vector<PrimExpr> BroadcastShapes(ConvertContext& ctx, const std::vector<PrimExpr>& x, const std::vector<PrimExpr>& target) {
  size_t rank = std::max(x.size(), target.size());
  std::vector<PrimExpr> out(rank);
  for (size_t i = 0; i < rank; ++i) {
    std::optional<PrimExpr> a, b;
    if (i + x.size() >= rank) a = x[i + x.size() - rank];
    if (i + target.size() >= rank) b = target[i + target.size() - rank];
    if (!a) out[i] = *b;
    else if (!b) out[i] = *a;
    else if (AsConstInt(*b) == 1) out[i] = *a;
    else if (AsConstInt(*a) == 1) out[i] = *b;
    else if (ctx.analyzer().CanProveEqual(*a, *b)) out[i] = *a;
    else out[i] = *b;
  }
  return out;
}

Out ConvertExpand(ConvertContext& ctx) {
  auto target = ctx.ShapeValues(1);
  Expr x = ctx.TensorInput(0);
  if (!target) {  // data-dependent: broadcast max(target, dims) at run time
    std::vector<PrimExpr> in = ctx.InputShape(0);
    auto length = AsConstInt(ctx.InputShape(1).at(0));
    if (!length) ctx.Fail("a target shape computed at run time must have a static length");
    size_t rank = std::max(in.size(), static_cast<size_t>(*length));
    Expr t = ctx.TensorInput(1);
    if (static_cast<size_t>(*length) < rank) {
      Expr ones = DimsTensor(ctx, {}, rank - static_cast<size_t>(*length), true, 1);
      t = ctx.Emit(op::concat(make<graph::TupleNode>(std::vector<Expr>{ones, t}), 0));
    }
    Expr broadcast = ctx.Emit(op::maximum(t, DimsTensor(ctx, in, rank, true, 1)));
    return One(ctx.Emit(op::broadcast_to(x, ShapeExprOf(ctx.ShapeFromTensor(broadcast)))));
  }
  std::vector<PrimExpr> out = BroadcastShapes(ctx, ctx.InputShape(0), *target);
  return One(ctx.Emit(op::broadcast_to(x, ShapeExprOf(out))));
}

// product(in) / product(known) with the factors both sides share cancelled
// first (structurally, so (n, 12, 64) -> (n, -1) gives 768 even though the
// analyzer cannot divide by a dimension that might be 0).
PrimExpr InferredDim(ConvertContext& ctx, std::vector<PrimExpr> in, std::vector<PrimExpr> known) {
  int64_t in_const = 1, known_const = 1;
  std::vector<PrimExpr> in_rest, known_rest;
  for (const PrimExpr& d : in) {
    if (auto v = AsConstInt(d)) in_const *= *v;
    else in_rest.push_back(d);
  }
  for (const PrimExpr& d : known) {
    if (auto v = AsConstInt(d)) {
      known_const *= *v;
      continue;
    }
    auto same = std::find_if(in_rest.begin(), in_rest.end(),
                             [&](const PrimExpr& e) { return ctx.analyzer().CanProveEqual(e, d); });
    if (same != in_rest.end()) in_rest.erase(same);
    else known_rest.push_back(d);
  }
  if (known_const != 0 && in_const % known_const == 0) {
    in_const /= known_const;
    known_const = 1;
  }
  PrimExpr numerator = Int64(in_const) * Product(in_rest, 0, in_rest.size());
  PrimExpr denominator = Int64(known_const) * Product(known_rest, 0, known_rest.size());
  return ctx.Simplify(ir::floordiv(ctx.Simplify(numerator), ctx.Simplify(denominator)));
}

// The target dims of Reshape: 0 copies the input dim (unless allowzero), one
// -1 takes what is left.
std::vector<PrimExpr> ReshapeTarget(ConvertContext& ctx, const std::vector<PrimExpr>& in, std::vector<PrimExpr> target,
                                    bool allow_zero) {
  std::optional<size_t> infer;
  std::vector<PrimExpr> known;
  for (size_t i = 0; i < target.size(); ++i) {
    auto value = AsConstInt(target[i]);
    if (value == 0 && !allow_zero) {
      if (i >= in.size()) ctx.Fail("a 0 in the target shape has no input dimension to copy");
      target[i] = in[i];
    }
    if (value == -1) {
      if (infer) ctx.Fail("the target shape has more than one -1");
      infer = i;
      continue;
    }
    known.push_back(target[i]);
  }
  if (infer) target[*infer] = InferredDim(ctx, in, known);
  for (PrimExpr& dim : target) dim = ctx.Simplify(dim);
  return target;
}

// A Reshape target computed at run time: 0 copies the input's dim (unless
// allowzero), -1 becomes numel / product of the others, both with tensor ops
// on the small int64 target before it becomes a shape (ShapeFromTensor).
Expr ResolveRuntimeTarget(ConvertContext& ctx, Expr target, const std::vector<PrimExpr>& in, bool allow_zero) {
  if (DTypeOf(target) != DataType::Int64()) target = ctx.Emit(op::astype(target, DataType::Int64()));
  auto length = AsConstInt(ctx.InputShape(1).at(0));
  if (!length) ctx.Fail("a target shape computed at run time must have a static length");
  if (!allow_zero) {
    Expr dims = DimsTensor(ctx, in, static_cast<size_t>(*length), false, 0);
    target = ctx.Emit(op::where(ctx.Emit(op::equal(target, Int64Const(0))), dims, target));
  }
  Expr is_inferred = ctx.Emit(op::equal(target, Int64Const(-1)));
  Expr known = ctx.Emit(op::prod(ctx.Emit(op::where(is_inferred, Int64Const(1), target))));
  Expr total = ctx.Materialize(OnnxValue::ShapeValues({ctx.Simplify(Product(in, 0, in.size()))}, true));
  Expr inferred = ctx.Emit(op::floor_divide(total, known));
  return ctx.Emit(op::where(is_inferred, inferred, target));
}

Out ConvertReshape(ConvertContext& ctx) {
  std::optional<std::vector<PrimExpr>> target;
  if (ctx.opset() < 5) {
    auto shape = ctx.AttrInts("shape").value_or(std::vector<int64_t>{});
    target.emplace();
    for (int64_t d : shape) target->push_back(Int64(d));
  } else {
    target = ctx.ShapeValues(1);
  }
  bool allow_zero = ctx.AttrInt("allowzero", 0) != 0;
  std::vector<PrimExpr> in = ctx.InputShape(0);
  if (!target) {  // data-dependent: fresh symbolic dims through match_cast
    std::vector<PrimExpr> dims = ctx.ShapeFromTensor(ResolveRuntimeTarget(ctx, ctx.TensorInput(1), in, allow_zero));
    return One(ctx.Emit(op::reshape(ctx.TensorInput(0), ShapeExprOf(dims))));
  }
  std::vector<PrimExpr> dims = ReshapeTarget(ctx, in, *target, allow_zero);
  const OnnxValue& input = ctx.Input(0);
  if (input.kind == OnnxValue::Kind::kShape && dims.size() <= 1) {
    return {OnnxValue::ShapeValues(input.shape, dims.empty())};
  }
  return One(ctx.Emit(op::reshape(ctx.TensorInput(0), ShapeExprOf(dims))));
}

}  // namespace

void RegisterShapeConverters(ConverterTable& table) {
  table["Shape"].push_back({1, ConvertShape});
  table["Size"].push_back({1, ConvertSize});
  table["Constant"].push_back({1, ConvertConstant});
  table["Gather"].push_back({1, ConvertGather});
  table["Slice"].push_back({1, ConvertSlice});
  table["Slice"].push_back({10, ConvertSlice});
  table["Concat"].push_back({1, ConvertConcat});
  table["Unsqueeze"].push_back({1, ConvertUnsqueeze});
  table["Squeeze"].push_back({1, ConvertSqueeze});
  table["Range"].push_back({11, ConvertRange});
  table["ConstantOfShape"].push_back({9, ConvertConstantOfShape});
  table["Expand"].push_back({8, ConvertExpand});
  table["Reshape"].push_back({1, ConvertReshape});
}

}  // namespace rlx::frontend::onnx_impl
