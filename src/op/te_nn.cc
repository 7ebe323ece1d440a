// TE computations of softmax, log_softmax, the normalizations, batch_norm,
// pad and attention (see include/rlx/op/te_compute.h).
//
// Every reduction is written as its own compute (max, sum, mean, variance),
// and elementwise steps read them back, as TVM's topi does; float16 inputs
// are accumulated in float32. layer_norm computes the variance as the mean
// of squared deviations from the mean (two passes), which stays accurate
// when the mean is large compared with the spread.
#include <fmt/format.h>

#include "rlx/op/te_compute.h"
#include "rlx/support/diagnostic.h"
#include "te_util.h"

namespace rlx::op::compute {

using ir::PrimExpr;
using ir::Var;

Tensor Softmax(const Tensor& x, int axis) {
  DataType acc = AccumulationType(x.dtype());
  Shape reduced = DropAxes(x.shape(), {axis});
  Tensor max_value = te::Compute(reduced, [&](const std::vector<Var>& i) {
    tir::IterVar k = te::ReduceAxis(x.shape()[axis], "k");
    return te::MaxReduce(ir::cast(acc, x(InsertAxes(i, {axis}, {k->var}))), {k});
  }, "softmax_maxelem");
  Tensor exp_value = te::Compute(x.shape(), [&](const std::vector<Var>& i) {
    return ir::call(acc, "exp", {ir::cast(acc, x(i)) - max_value(DropIndices(i, {axis}))});
  }, "softmax_exp");
  Tensor sum_value = te::Compute(reduced, [&](const std::vector<Var>& i) {
    tir::IterVar k = te::ReduceAxis(x.shape()[axis], "k");
    return te::Sum(exp_value(InsertAxes(i, {axis}, {k->var})), {k});
  }, "softmax_expsum");
  return te::Compute(x.shape(), [&](const std::vector<Var>& i) {
    return ir::cast(x.dtype(), Divide(exp_value(i), sum_value(DropIndices(i, {axis}))));
  }, "softmax");
}

Tensor LogSoftmax(const Tensor& x, int axis) {
  DataType acc = AccumulationType(x.dtype());
  Shape reduced = DropAxes(x.shape(), {axis});
  Tensor max_value = te::Compute(reduced, [&](const std::vector<Var>& i) {
    tir::IterVar k = te::ReduceAxis(x.shape()[axis], "k");
    return te::MaxReduce(ir::cast(acc, x(InsertAxes(i, {axis}, {k->var}))), {k});
  }, "log_softmax_maxelem");
  Tensor sum_value = te::Compute(reduced, [&](const std::vector<Var>& i) {
    tir::IterVar k = te::ReduceAxis(x.shape()[axis], "k");
    return te::Sum(ir::call(acc, "exp", {ir::cast(acc, x(InsertAxes(i, {axis}, {k->var}))) - max_value(i)}), {k});
  }, "log_softmax_expsum");
  return te::Compute(x.shape(), [&](const std::vector<Var>& i) {
    std::vector<PrimExpr> r = DropIndices(i, {axis});
    return ir::cast(x.dtype(), ir::cast(acc, x(i)) - max_value(r) - ir::call(acc, "log", {sum_value(r)}));
  }, "log_softmax");
}

namespace {

// mean over `axes` (kept dims indexed like DropAxes), accumulated in `acc`;
// `square` sums x*x instead of x.
Tensor MeanOver(const Tensor& x, const std::vector<int>& axes, bool square, const std::string& name) {
  DataType acc = AccumulationType(x.dtype());
  PrimExpr count = ir::cast(acc, ProductOf(x.shape(), axes));
  Tensor sum_value = te::Compute(DropAxes(x.shape(), axes), [&](const std::vector<Var>& i) {
    std::vector<tir::IterVar> ks = ReduceAxesFor(x.shape(), axes);
    PrimExpr value = ir::cast(acc, x(InsertAxes(i, axes, VarsOf(ks))));
    return te::Sum(square ? value * value : value, ks);
  }, name + "_sum");
  return te::Compute(DropAxes(x.shape(), axes), [&](const std::vector<Var>& i) {
    return Divide(sum_value(i), count);
  }, name);
}

// Mean of (x - mean)^2 over `axes`.
Tensor VarianceOver(const Tensor& x, const Tensor& mean, const std::vector<int>& axes, const std::string& name) {
  DataType acc = AccumulationType(x.dtype());
  PrimExpr count = ir::cast(acc, ProductOf(x.shape(), axes));
  Tensor sum_value = te::Compute(DropAxes(x.shape(), axes), [&](const std::vector<Var>& i) {
    std::vector<tir::IterVar> ks = ReduceAxesFor(x.shape(), axes);
    PrimExpr diff = ir::cast(acc, x(InsertAxes(i, axes, VarsOf(ks)))) - mean(i);
    return te::Sum(diff * diff, ks);
  }, name + "_sum");
  return te::Compute(DropAxes(x.shape(), axes), [&](const std::vector<Var>& i) {
    return Divide(sum_value(i), count);
  }, name);
}

// The indices of x at `axes` (to index a parameter of x's shape at axes).
std::vector<PrimExpr> IndicesAt(const std::vector<Var>& i, const std::vector<int>& axes) {
  std::vector<PrimExpr> result;
  for (int axis : axes) result.push_back(i[axis]);
  return result;
}

}  // namespace

Tensor LayerNorm(const Tensor& x, const Tensor& gamma, const Tensor& beta, const std::vector<int>& axes,
                 double epsilon) {
  DataType acc = AccumulationType(x.dtype());
  Tensor mean = MeanOver(x, axes, false, "layer_norm_mean");
  Tensor var = VarianceOver(x, mean, axes, "layer_norm_var");
  return te::Compute(x.shape(), [&](const std::vector<Var>& i) {
    std::vector<PrimExpr> r = DropIndices(i, axes);
    PrimExpr value = (ir::cast(acc, x(i)) - mean(r)) * ir::call(acc, "rsqrt", {var(r) + FloatConst(acc, epsilon)});
    if (gamma.defined()) value = value * ir::cast(acc, gamma(IndicesAt(i, axes)));
    if (beta.defined()) value = value + ir::cast(acc, beta(IndicesAt(i, axes)));
    return ir::cast(x.dtype(), value);
  }, "layer_norm");
}

Tensor RmsNorm(const Tensor& x, const Tensor& weight, const std::vector<int>& axes, double epsilon) {
  DataType acc = AccumulationType(x.dtype());
  Tensor mean_square = MeanOver(x, axes, true, "rms_norm_mean_square");
  return te::Compute(x.shape(), [&](const std::vector<Var>& i) {
    std::vector<PrimExpr> r = DropIndices(i, axes);
    PrimExpr value = ir::cast(acc, x(i)) * ir::call(acc, "rsqrt", {mean_square(r) + FloatConst(acc, epsilon)});
    return ir::cast(x.dtype(), value * ir::cast(acc, weight(IndicesAt(i, axes))));
  }, "rms_norm");
}

namespace {

// Group statistics of group_norm: shape (kept dims..., num_groups), where
// kept dims are neither the channel axis nor in `axes`.
struct GroupLayout {
  std::vector<int> kept;
  PrimExpr group_size;  // channels per group
};

std::vector<PrimExpr> GroupStatIndex(const GroupLayout& layout, const std::vector<PrimExpr>& x_index, int channel_axis) {
  std::vector<PrimExpr> index;
  for (int d : layout.kept) index.push_back(x_index[d]);
  index.push_back(ir::floordiv(x_index[channel_axis], layout.group_size));
  return index;
}

}  // namespace

Tensor GroupNorm(const Tensor& x, const Tensor& gamma, const Tensor& beta, int64_t num_groups, int channel_axis,
                 const std::vector<int>& axes, double epsilon) {
  DataType acc = AccumulationType(x.dtype());
  GroupLayout layout;
  for (int d = 0; d < x.ndim(); ++d) {
    if (d != channel_axis && std::find(axes.begin(), axes.end(), d) == axes.end()) layout.kept.push_back(d);
  }
  layout.group_size = Simplify(ir::floordiv(x.shape()[channel_axis], ir::MakeInt(num_groups)));
  Shape stat_shape;
  for (int d : layout.kept) stat_shape.push_back(x.shape()[d]);
  stat_shape.push_back(ir::MakeInt(num_groups));
  PrimExpr count = ir::cast(acc, Simplify(layout.group_size * ProductOf(x.shape(), axes)));
  // x's index for stats index `i` and reduce vars (channel in group, axes...).
  auto x_index = [&](const std::vector<Var>& i, const std::vector<tir::IterVar>& ks) {
    std::vector<PrimExpr> index(static_cast<size_t>(x.ndim()));
    for (size_t j = 0; j < layout.kept.size(); ++j) index[layout.kept[j]] = i[j];
    index[channel_axis] = i.back() * layout.group_size + ks[0]->var;
    for (size_t j = 0; j < axes.size(); ++j) index[axes[j]] = ks[j + 1]->var;
    return index;
  };
  auto reduce_axes = [&]() {
    std::vector<tir::IterVar> ks = {te::ReduceAxis(layout.group_size, "rc")};
    for (tir::IterVar k : ReduceAxesFor(x.shape(), axes)) ks.push_back(k);
    return ks;
  };
  Tensor sum = te::Compute(stat_shape, [&](const std::vector<Var>& i) {
    std::vector<tir::IterVar> ks = reduce_axes();
    return te::Sum(ir::cast(acc, x(x_index(i, ks))), ks);
  }, "group_norm_sum");
  Tensor mean = te::Compute(stat_shape, [&](const std::vector<Var>& i) { return Divide(sum(i), count); },
                            "group_norm_mean");
  Tensor sq = te::Compute(stat_shape, [&](const std::vector<Var>& i) {
    std::vector<tir::IterVar> ks = reduce_axes();
    PrimExpr diff = ir::cast(acc, x(x_index(i, ks))) - mean(i);
    return te::Sum(diff * diff, ks);
  }, "group_norm_sq_sum");
  return te::Compute(x.shape(), [&](const std::vector<Var>& i) {
    std::vector<PrimExpr> xi(i.begin(), i.end());
    std::vector<PrimExpr> s = GroupStatIndex(layout, xi, channel_axis);
    PrimExpr var = Divide(sq(s), count);
    PrimExpr value = (ir::cast(acc, x(i)) - mean(s)) * ir::call(acc, "rsqrt", {var + FloatConst(acc, epsilon)});
    if (gamma.defined()) value = value * ir::cast(acc, gamma(i[channel_axis]));
    if (beta.defined()) value = value + ir::cast(acc, beta(i[channel_axis]));
    return ir::cast(x.dtype(), value);
  }, "group_norm");
}

std::vector<Tensor> BatchNorm(const Tensor& x, const Tensor& gamma, const Tensor& beta, const Tensor& mean,
                              const Tensor& var, int axis, double epsilon) {
  DataType acc = AccumulationType(x.dtype());
  Tensor out = te::Compute(x.shape(), [&](const std::vector<Var>& i) {
    PrimExpr c = i[axis];
    PrimExpr value = (ir::cast(acc, x(i)) - ir::cast(acc, mean(c))) *
                     ir::call(acc, "rsqrt", {ir::cast(acc, var(c)) + FloatConst(acc, epsilon)});
    if (gamma.defined()) value = value * ir::cast(acc, gamma(c));
    if (beta.defined()) value = value + ir::cast(acc, beta(c));
    return ir::cast(x.dtype(), value);
  }, "batch_norm");
  Tensor mean_out = te::Compute(mean.shape(), [&](const std::vector<Var>& i) { return mean(i); }, "batch_norm_mean");
  Tensor var_out = te::Compute(var.shape(), [&](const std::vector<Var>& i) { return var(i); }, "batch_norm_var");
  return {out, mean_out, var_out};
}

Tensor Pad(const Tensor& data, const std::vector<int64_t>& pad_width, double pad_value, const std::string& mode) {
  Shape out_shape;
  for (int d = 0; d < data.ndim(); ++d) {
    out_shape.push_back(Simplify(data.shape()[d] + (pad_width[2 * d] + pad_width[2 * d + 1])));
  }
  return te::Compute(out_shape, [&](const std::vector<Var>& i) {
    std::vector<PrimExpr> index;
    PrimExpr inside;
    for (int d = 0; d < data.ndim(); ++d) {
      PrimExpr source = Simplify(i[d] - pad_width[2 * d]);
      PrimExpr extent = data.shape()[d];
      if (mode == "edge") {
        source = ir::max(ir::min(source, extent - 1), ir::MakeInt(0));
      } else if (mode == "reflect") {
        source = ir::select(ir::lt(source, ir::MakeInt(0)), ir::MakeInt(0) - source,
                            ir::select(ir::ge(source, extent), (extent - 1) * 2 - source, source));
      } else if (pad_width[2 * d] != 0 || pad_width[2 * d + 1] != 0) {
        PrimExpr in_range = ir::logical_and(ir::ge(source, ir::MakeInt(0)), ir::lt(source, extent));
        inside = inside.defined() ? ir::logical_and(inside, in_range) : in_range;
      }
      index.push_back(source);
    }
    if (mode != "constant" || !inside.defined()) return data(index);
    return te::IfThenElse(inside, data(index), FloatConst(data.dtype(), pad_value));
  }, "pad");
}

std::vector<Tensor> DropoutInference(const Tensor& data) {
  Tensor out = te::Compute(data.shape(), [&](const std::vector<Var>& i) { return data(i); }, "dropout");
  Tensor mask = te::Compute(data.shape(), [&](const std::vector<Var>&) { return FloatConst(data.dtype(), 1.0); },
                            "dropout_mask");
  return {out, mask};
}

namespace {

// The bias index for scores (b, h, s, t): dims of size 1 broadcast.
std::vector<PrimExpr> BiasIndex(const Tensor& bias, const std::vector<Var>& i) {
  std::vector<PrimExpr> index;
  for (size_t d = 0; d < 4; ++d) {
    index.push_back(ir::IsConstInt(bias.shape()[d], 1) ? PrimExpr(ir::MakeInt(0)) : PrimExpr(i[d]));
  }
  return index;
}

}  // namespace

Tensor Attention(const Tensor& q, const Tensor& k, const Tensor& v, const Tensor& bias, std::optional<double> scale,
                 std::optional<std::string> causal_mask) {
  DataType acc = AccumulationType(q.dtype());
  const Shape& qs = q.shape();
  const Shape& ks = k.shape();
  PrimExpr scale_value = scale ? FloatConst(acc, *scale) : ir::call(acc, "rsqrt", {ir::cast(acc, qs[3])});
  Shape score_shape = {qs[0], qs[2], qs[1], ks[1]};  // b, h, s, t
  Tensor scores = te::Compute(score_shape, [&](const std::vector<Var>& i) {
    tir::IterVar d = te::ReduceAxis(qs[3], "d");
    return te::Sum(ir::cast(acc, q(i[0], i[2], i[1], d->var)) * ir::cast(acc, k(i[0], i[3], i[1], d->var)), {d});
  }, "attention_scores");
  auto valid = [&](const std::vector<Var>& i) -> PrimExpr {
    if (!causal_mask) return PrimExpr();
    PrimExpr limit = *causal_mask == "TopLeft" ? PrimExpr(i[2]) : i[2] + (ks[1] - qs[1]);
    return ir::le(i[3], limit);
  };
  Tensor logits = te::Compute(score_shape, [&](const std::vector<Var>& i) {
    PrimExpr value = scores(i) * scale_value;
    if (bias.defined()) value = value + ir::cast(acc, bias(BiasIndex(bias, i)));
    PrimExpr ok = valid(i);
    return ok.defined() ? ir::select(ok, value, te::MinValue(acc)) : value;
  }, "attention_logits");
  Tensor probs = Softmax(logits, 3);
  Tensor out = te::Compute({qs[0], qs[1], qs[2], v.shape()[3]}, [&](const std::vector<Var>& i) {
    tir::IterVar t = te::ReduceAxis(ks[1], "t");
    return te::Sum(probs(i[0], i[2], i[1], t->var) * ir::cast(acc, v(i[0], t->var, i[2], i[3])), {t});
  }, "attention_sum");
  if (acc == q.dtype()) return out;
  return te::Compute(out.shape(), [&](const std::vector<Var>& i) { return ir::cast(q.dtype(), out(i)); },
                     "attention");
}

}  // namespace rlx::op::compute
