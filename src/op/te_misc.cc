// TE computations of variance, std, argmax/argmin, cumsum, einsum and
// resize2d (see include/rlx/op/te_compute.h).
//
// - variance: the mean of squared deviations from the mean (population
//   variance, as TVM); std is its square root.
// - argmax/argmin: two reductions, the extreme value and then the smallest
//   index holding it, so ties give the first index (TVM's rule).
// - cumsum: a linear scan (TVM's topi.cumsum), written as a te::Extern
//   statement since a compute cannot read its own earlier elements. For
//   every position of the other axes (serial loops `ax<d>`), along the
//   scanned axis of length L:
//     out[..., 0, ...] = x[..., 0, ...]              (exclusive: 0)
//     for k in [0, L - 1):                           (serial: carries the sum)
//       out[..., k + 1, ...] = out[..., k, ...] + x[..., k + 1, ...]
//                                                    (exclusive: x[..., k, ...])
//   with x cast to the output dtype before adding. The whole nest is
//   guarded by `if L > 0` unless L is provably positive (the first store
//   would be out of bounds for an empty axis). Without an axis
//   the flattened tensor is scanned (x read at the unravelled index). The
//   block is opaque (no iteration variables): annotate-tir-op-pattern
//   classifies it as opaque, as TVM's extern cumsum.
// - einsum: output letters (and broadcast "..." dims) are spatial axes, the
//   other letters reduce axes; an operand's "..." dim of constant size 1
//   reads index 0 (broadcast).
// - resize2d: nearest_neighbor, linear (bilinear) and cubic (bicubic with
//   Keys' kernel of parameter cubic_alpha; cubic_exclude drops the points
//   outside the input and renormalizes) with the half_pixel, align_corners,
//   asymmetric, pytorch_half_pixel, tf_half_pixel_for_nn and
//   tf_crop_and_resize coordinate maps (the latter maps through `roi` and
//   gives extrapolation_value outside the input); source indices are
//   clamped to the input.
#include <fmt/format.h>

#include <functional>
#include <map>
#include <utility>

#include "einsum_subscripts.h"
#include "op/topi.h"
#include "rlx/arith/analyzer.h"
#include "rlx/op/te_compute.h"
#include "rlx/support/diagnostic.h"
#include "rlx/tir/stmt.h"
#include "te_util.h"

namespace rlx::op::compute {

using ir::PrimExpr;
using ir::Var;

namespace {

// Keeps the reduced axes as size-1 dims (keepdims) or drops them.
Shape ReducedShape(const Shape& shape, const std::vector<int>& axes, bool keepdims) {
  if (!keepdims) return DropAxes(shape, axes);
  Shape result = shape;
  for (int axis : axes) result[axis] = ir::MakeInt(1);
  return result;
}

// The kept indices of an output index of ReducedShape.
std::vector<PrimExpr> KeptIndices(const std::vector<Var>& i, const std::vector<int>& axes, bool keepdims) {
  std::vector<PrimExpr> index(i.begin(), i.end());
  return keepdims ? DropIndices(index, axes) : index;
}

}  // namespace

Tensor Variance(const Tensor& x, const std::vector<int>& axes, bool keepdims) {
  DataType acc = AccumulationType(x.dtype());
  PrimExpr count = ir::cast(acc, ProductOf(x.shape(), axes));
  Shape reduced = DropAxes(x.shape(), axes);
  Tensor sum = te::Compute(reduced, [&](const std::vector<Var>& i) {
    std::vector<tir::IterVar> ks = ReduceAxesFor(x.shape(), axes);
    return te::Sum(ir::cast(acc, x(InsertAxes(i, axes, VarsOf(ks)))), ks);
  }, "variance_sum");
  Tensor sq = te::Compute(reduced, [&](const std::vector<Var>& i) {
    std::vector<tir::IterVar> ks = ReduceAxesFor(x.shape(), axes);
    PrimExpr diff = ir::cast(acc, x(InsertAxes(i, axes, VarsOf(ks)))) - Divide(sum(i), count);
    return te::Sum(diff * diff, ks);
  }, "variance_sq_sum");
  return te::Compute(ReducedShape(x.shape(), axes, keepdims), [&](const std::vector<Var>& i) {
    return ir::cast(x.dtype(), Divide(sq(KeptIndices(i, axes, keepdims)), count));
  }, "variance");
}

Tensor Std(const Tensor& x, const std::vector<int>& axes, bool keepdims) {
  Tensor var = Variance(x, axes, keepdims);
  DataType acc = AccumulationType(x.dtype());
  return te::Compute(var.shape(), [&](const std::vector<Var>& i) {
    return ir::cast(x.dtype(), ir::call(acc, "sqrt", {ir::cast(acc, var(i))}));
  }, "std");
}

Tensor ArgReduce(const Tensor& x, std::optional<int> axis, bool keepdims, bool is_max) {
  std::vector<int> axes;
  if (axis) {
    axes.push_back(*axis);
  } else {
    for (int d = 0; d < x.ndim(); ++d) axes.push_back(d);
  }
  Shape reduced = DropAxes(x.shape(), axes);
  std::string name = is_max ? "argmax" : "argmin";
  Tensor extreme = te::Compute(reduced, [&](const std::vector<Var>& i) {
    std::vector<tir::IterVar> ks = ReduceAxesFor(x.shape(), axes);
    PrimExpr value = x(InsertAxes(i, axes, VarsOf(ks)));
    return is_max ? te::MaxReduce(value, ks) : te::MinReduce(value, ks);
  }, name + "_value");
  return te::Compute(ReducedShape(x.shape(), axes, keepdims), [&](const std::vector<Var>& i) {
    std::vector<PrimExpr> kept = KeptIndices(i, axes, keepdims);
    std::vector<tir::IterVar> ks = ReduceAxesFor(x.shape(), axes);
    PrimExpr flat = ks.empty() ? PrimExpr(ir::MakeInt(0)) : PrimExpr(ks[0]->var);
    for (size_t j = 1; j < axes.size(); ++j) flat = flat * x.shape()[axes[j]] + ks[j]->var;
    PrimExpr hit = ir::eq(x(InsertAxes(kept, axes, VarsOf(ks))), extreme(kept));
    return te::MinReduce(ir::select(hit, flat, te::MaxValue(DataType::Int64())), ks);
  }, name);
}

namespace {

tir::Stmt MakeLoop(const Var& var, PrimExpr min, PrimExpr extent, tir::Stmt body) {
  auto* loop = new tir::ForNode();
  loop->loop_var = var;
  loop->min = std::move(min);
  loop->extent = std::move(extent);
  loop->body = std::move(body);
  return tir::Stmt(loop);
}

PrimExpr ZeroOf(DataType dtype) {
  if (dtype.is_floating()) return ir::MakeFloat(0.0, dtype);
  if (dtype.is_bool()) return ir::MakeBool(false);
  return ir::MakeInt(0, dtype);
}

// The cumsum scan of `x` into `out` along `axis` of `out` (see the note at
// the top); `flat`: `out` is 1-D and x is read at the unravelled index.
tir::Stmt CumsumScan(const ir::Buffer& x, const ir::Buffer& out, int axis, bool flat, bool exclusive) {
  DataType dtype = out->dtype;
  const PrimExpr& length = out->shape[axis];
  std::vector<Var> loop_vars;
  std::vector<PrimExpr> index;
  for (size_t d = 0; d < out->shape.size(); ++d) {
    Var var = ir::MakeVar(static_cast<int>(d) == axis ? "k" : fmt::format("ax{}", d), out->shape[d]->dtype);
    loop_vars.push_back(var);
    index.push_back(var);
  }
  auto at = [&](PrimExpr position) {
    std::vector<PrimExpr> point = index;
    point[axis] = std::move(position);
    return point;
  };
  auto input = [&](PrimExpr position) {
    std::vector<PrimExpr> point = at(std::move(position));
    if (flat) point = Unravel(point[0], x->shape);
    return ir::cast(dtype, make<ir::BufferLoadNode>(x, point));
  };
  PrimExpr zero = ir::MakeInt(0, length->dtype), one = ir::MakeInt(1, length->dtype);
  const Var& k = loop_vars[axis];
  PrimExpr first = exclusive ? ZeroOf(dtype) : input(zero);
  PrimExpr previous = make<ir::BufferLoadNode>(out, at(k));
  PrimExpr step = ir::add(previous, input(exclusive ? PrimExpr(k) : k + one));
  tir::Stmt scan_loop = MakeLoop(k, zero, Simplify(length - one), make<tir::BufferStoreNode>(out, step, at(k + one)));
  tir::Stmt first_store = make<tir::BufferStoreNode>(out, first, at(zero));
  tir::Stmt body = tir::MakeSeq({first_store, scan_loop});
  for (size_t d = out->shape.size(); d-- > 0;) {
    if (static_cast<int>(d) != axis) body = MakeLoop(loop_vars[d], zero, out->shape[d], body);
  }
  arith::Analyzer analyzer;
  if (analyzer.CanProve(ir::ge(length, one))) return body;
  return make<tir::IfThenElseNode>(ir::gt(length, zero), body, tir::Stmt());
}

}  // namespace

Tensor Cumsum(const Tensor& x, std::optional<int> axis, DataType dtype, bool exclusive) {
  Shape out_shape = x.shape();
  if (!axis) {
    std::vector<int> all;
    for (int d = 0; d < x.ndim(); ++d) all.push_back(d);
    out_shape = {ProductOf(x.shape(), all)};
  }
  int scan_axis = axis.value_or(0);
  return te::Extern(out_shape, dtype, {x}, [&](const std::vector<ir::Buffer>& in, const ir::Buffer& out) {
    return CumsumScan(in[0], out, scan_axis, !axis, exclusive);
  }, "cumsum");
}

Tensor Einsum(const std::vector<Tensor>& operands, const std::string& subscripts) {
  std::string error;
  std::optional<detail::EinsumSpec> spec = detail::ParseEinsumSubscripts(subscripts, &error);
  RLX_ICHECK(spec.has_value()) << "einsum: " << error;
  // The extent of every letter, from the first operand naming it.
  std::map<char, PrimExpr> extent;
  for (size_t t = 0; t < operands.size(); ++t) {
    const detail::EinsumTerm& term = spec->inputs[t];
    size_t extra = static_cast<size_t>(operands[t].ndim()) - term.num_letters();
    for (size_t j = 0; j < term.letters_before.size(); ++j) extent.emplace(term.letters_before[j], operands[t].shape()[j]);
    for (size_t j = 0; j < term.letters_after.size(); ++j) {
      extent.emplace(term.letters_after[j], operands[t].shape()[term.letters_before.size() + extra + j]);
    }
  }
  // The output: letters before "...", the broadcast "..." dims, letters after.
  std::vector<Shape> ellipsis_shapes;
  for (size_t t = 0; t < operands.size(); ++t) {
    const detail::EinsumTerm& term = spec->inputs[t];
    auto first = operands[t].shape().begin() + static_cast<std::ptrdiff_t>(term.letters_before.size());
    ellipsis_shapes.emplace_back(first, first + static_cast<std::ptrdiff_t>(operands[t].shape().size() - term.num_letters()));
  }
  Shape ellipsis = spec->output.has_ellipsis ? topi::BroadcastShape(ellipsis_shapes) : Shape{};
  Shape out_shape;
  for (char c : spec->output.letters_before) out_shape.push_back(extent.at(c));
  out_shape.insert(out_shape.end(), ellipsis.begin(), ellipsis.end());
  for (char c : spec->output.letters_after) out_shape.push_back(extent.at(c));
  size_t ellipsis_rank = ellipsis.size();
  DataType dtype = operands[0].dtype();
  return te::Compute(out_shape, [&](const std::vector<Var>& i) {
    std::map<char, PrimExpr> value_of;
    size_t before = spec->output.letters_before.size();
    for (size_t j = 0; j < before; ++j) value_of[spec->output.letters_before[j]] = i[j];
    for (size_t j = 0; j < spec->output.letters_after.size(); ++j) {
      value_of[spec->output.letters_after[j]] = i[before + ellipsis_rank + j];
    }
    std::vector<tir::IterVar> ks;
    for (const auto& [letter, ext] : extent) {
      if (value_of.count(letter)) continue;
      ks.push_back(te::ReduceAxis(ext, std::string("r_") + letter));
      value_of[letter] = ks.back()->var;
    }
    PrimExpr product;
    for (size_t t = 0; t < operands.size(); ++t) {
      const detail::EinsumTerm& term = spec->inputs[t];
      size_t extra = static_cast<size_t>(operands[t].ndim()) - term.num_letters();
      std::vector<PrimExpr> index;
      for (char c : term.letters_before) index.push_back(value_of.at(c));
      for (size_t e = 0; e < extra; ++e) {
        size_t out_dim = before + ellipsis_rank - extra + e;
        const PrimExpr& dim = operands[t].shape()[term.letters_before.size() + e];
        bool broadcast = ir::IsConstInt(dim, 1) && !ir::IsConstInt(out_shape[out_dim], 1);
        index.push_back(broadcast ? PrimExpr(ir::MakeInt(0)) : PrimExpr(i[out_dim]));
      }
      for (char c : term.letters_after) index.push_back(value_of.at(c));
      PrimExpr value = ir::cast(dtype, operands[t](index));
      product = product.defined() ? product * value : value;
    }
    if (ks.empty()) return product;
    return te::Sum(product, ks);
  }, "einsum");
}

namespace {

// The source coordinate (float) of output index `o` along one dim; `roi`
// holds the dim's (start, end) for tf_crop_and_resize.
PrimExpr SourceCoordinate(const std::string& mode, const PrimExpr& o, const PrimExpr& in, const PrimExpr& out,
                          std::pair<double, double> roi) {
  DataType f = DataType::Float32();
  PrimExpr of = ir::cast(f, o);
  PrimExpr scale = Divide(ir::cast(f, in), ir::cast(f, out));
  if (mode == "align_corners") {
    PrimExpr ratio = Divide(ir::cast(f, in - 1), ir::cast(f, out - 1));
    return ir::select(ir::gt(out, ir::MakeInt(1)), of * ratio, FloatConst(f, 0.0));
  }
  if (mode == "asymmetric") return of * scale;
  if (mode == "tf_half_pixel_for_nn") return (of + FloatConst(f, 0.5)) * scale;
  if (mode == "tf_crop_and_resize") {
    PrimExpr last = ir::cast(f, in - 1);
    PrimExpr start = FloatConst(f, roi.first) * last, span = FloatConst(f, roi.second - roi.first) * last;
    PrimExpr stepped = start + of * Divide(span, ir::cast(f, out - 1));
    PrimExpr middle = FloatConst(f, 0.5 * (roi.first + roi.second)) * last;
    return ir::select(ir::gt(out, ir::MakeInt(1)), stepped, middle);
  }
  PrimExpr half = (of + FloatConst(f, 0.5)) * scale - FloatConst(f, 0.5);
  if (mode == "pytorch_half_pixel") return ir::select(ir::gt(out, ir::MakeInt(1)), half, FloatConst(f, 0.0));
  return half;  // half_pixel
}

// The cubic convolution weights of the 4 source points floor(c) - 1 ..
// floor(c) + 2 for the fraction t = c - floor(c): W(1 + t), W(t), W(1 - t),
// W(2 - t) with Keys' kernel of parameter `a`
//   W(x) = (a + 2)|x|^3 - (a + 3)|x|^2 + 1      for |x| <= 1
//   W(x) = a|x|^3 - 5a|x|^2 + 8a|x| - 4a        for 1 < |x| < 2.
std::vector<PrimExpr> CubicWeights(const PrimExpr& t, double a) {
  DataType f = DataType::Float32();
  auto c = [&](double value) { return FloatConst(f, value); };
  auto near = [&](const PrimExpr& x) { return ((c(a + 2) * x - c(a + 3)) * x) * x + c(1.0); };
  auto far = [&](const PrimExpr& x) { return ((c(a) * x - c(5 * a)) * x + c(8 * a)) * x - c(4 * a); };
  return {far(t + c(1.0)), near(t), near(c(1.0) - t), far(c(2.0) - t)};
}

PrimExpr Clamp(const PrimExpr& index, const PrimExpr& extent) {
  return ir::max(ir::min(index, extent - 1), ir::MakeInt(0));
}

// The nearest source index for a coordinate (TVM's rounding methods; ""
// means "round" for align_corners and "floor" otherwise).
PrimExpr NearestIndex(const std::string& rounding, const std::string& mode, const PrimExpr& coord) {
  DataType f = DataType::Float32();
  std::string method = rounding.empty() ? (mode == "align_corners" ? "round" : "floor") : rounding;
  PrimExpr value;
  if (method == "round" || method == "round_prefer_ceil") {
    value = ir::call(f, "floor", {coord + FloatConst(f, 0.5)});
  } else if (method == "round_prefer_floor") {
    value = ir::call(f, "ceil", {coord - FloatConst(f, 0.5)});
  } else if (method == "ceil") {
    value = ir::call(f, "ceil", {coord});
  } else {
    value = ir::call(f, "floor", {coord});
  }
  return ir::cast(DataType::Int64(), value);
}

}  // namespace

namespace {

// Bicubic interpolation at (cy, cx): 4 x 4 source points around the
// coordinate, clamped to the input (ONNX's edge padding); with `exclude`,
// points outside the input get weight 0 and the weights are renormalized.
PrimExpr Cubic2D(const PrimExpr& cy, const PrimExpr& cx, const Shape& in, const ResizeParams& p,
                 const std::function<PrimExpr(const PrimExpr&, const PrimExpr&)>& load) {
  DataType f = DataType::Float32();
  PrimExpr fy = ir::call(f, "floor", {cy}), fx = ir::call(f, "floor", {cx});
  PrimExpr y0 = ir::cast(DataType::Int64(), fy), x0 = ir::cast(DataType::Int64(), fx);
  std::vector<PrimExpr> wy = CubicWeights(cy - fy, p.cubic_alpha), wx = CubicWeights(cx - fx, p.cubic_alpha);
  auto inside = [](const PrimExpr& index, const PrimExpr& extent) {
    return ir::logical_and(ir::ge(index, ir::MakeInt(0)), ir::lt(index, extent));
  };
  if (p.cubic_exclude) {
    for (int k = 0; k < 4; ++k) {
      wy[k] = ir::select(inside(y0 + (k - 1), in[0]), wy[k], FloatConst(f, 0.0));
      wx[k] = ir::select(inside(x0 + (k - 1), in[1]), wx[k], FloatConst(f, 0.0));
    }
  }
  PrimExpr sum;
  for (int r = 0; r < 4; ++r) {
    PrimExpr row;
    for (int k = 0; k < 4; ++k) {
      PrimExpr term = load(y0 + (r - 1), x0 + (k - 1)) * wx[k];
      row = row.defined() ? row + term : term;
    }
    sum = sum.defined() ? sum + row * wy[r] : row * wy[r];
  }
  if (!p.cubic_exclude) return sum;
  PrimExpr total_y = wy[0] + wy[1] + wy[2] + wy[3], total_x = wx[0] + wx[1] + wx[2] + wx[3];
  return Divide(sum, total_y * total_x);
}

}  // namespace

Tensor Resize2D(const Tensor& data, const Shape& size, const ResizeParams& p) {
  Shape out_shape = data.shape();
  out_shape[p.pos[2]] = size[0];
  out_shape[p.pos[3]] = size[1];
  Shape in = {data.shape()[p.pos[2]], data.shape()[p.pos[3]]};
  DataType f = DataType::Float32();
  const std::string& mode = p.coordinate_transformation_mode;
  return te::Compute(out_shape, [&](const std::vector<Var>& i) {
    PrimExpr cy = SourceCoordinate(mode, i[p.pos[2]], in[0], size[0], {p.roi[0], p.roi[2]});
    PrimExpr cx = SourceCoordinate(mode, i[p.pos[3]], in[1], size[1], {p.roi[1], p.roi[3]});
    auto load = [&](const PrimExpr& y, const PrimExpr& x) {
      std::vector<PrimExpr> index(i.begin(), i.end());
      index[p.pos[2]] = Clamp(y, in[0]);
      index[p.pos[3]] = Clamp(x, in[1]);
      return ir::cast(f, data(index));
    };
    PrimExpr value;
    if (p.method == "nearest_neighbor") {
      value = load(NearestIndex(p.rounding_method, mode, cy), NearestIndex(p.rounding_method, mode, cx));
    } else if (p.method == "cubic") {
      value = Cubic2D(cy, cx, in, p, load);
    } else {
      PrimExpr fy = ir::call(f, "floor", {cy});
      PrimExpr fx = ir::call(f, "floor", {cx});
      PrimExpr y0 = ir::cast(DataType::Int64(), fy);
      PrimExpr x0 = ir::cast(DataType::Int64(), fx);
      PrimExpr wy = cy - fy;
      PrimExpr wx = cx - fx;
      PrimExpr one = FloatConst(f, 1.0);
      PrimExpr top = load(y0, x0) * (one - wx) + load(y0, x0 + 1) * wx;
      PrimExpr bottom = load(y0 + 1, x0) * (one - wx) + load(y0 + 1, x0 + 1) * wx;
      value = top * (one - wy) + bottom * wy;
    }
    if (mode == "tf_crop_and_resize") {
      // Coordinates outside the input take extrapolation_value.
      auto outside = [&](const PrimExpr& c, const PrimExpr& extent) {
        return ir::logical_or(ir::lt(c, FloatConst(f, 0.0)), ir::gt(c, ir::cast(f, extent - 1)));
      };
      value = ir::select(ir::logical_or(outside(cy, in[0]), outside(cx, in[1])), FloatConst(f, p.extrapolation_value),
                         value);
    }
    return ir::cast(p.out_dtype, value);
  }, "resize");
}

}  // namespace rlx::op::compute
