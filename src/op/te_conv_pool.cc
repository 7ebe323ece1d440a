// TE computations of convolutions, pooling and adaptive pooling (see
// include/rlx/op/te_compute.h).
//
// Layouts: the output is computed in the out layout; its indices are mapped
// to canonical (N, C, spatial...) positions, and data/kernel indices are
// assembled in their own layouts from the canonical ones. Padding is
// implicit: loads outside the input are guarded by T.if_then_else (0 for
// convolution and average pooling, the dtype's lowest value for max
// pooling), so no padded copy is materialized.
//
// Average pooling divides by the window's element count: with
// count_include_pad, the window clipped to the padded input; without, the
// number of in-bounds elements (counted by a second reduction, so dilation
// is handled exactly).
#include "rlx/op/te_compute.h"
#include "rlx/tir/te.h"
#include "te_util.h"

namespace rlx::op::compute {

using ir::PrimExpr;
using ir::Var;

namespace {

// Canonical (N, C, spatial...) indices from out-layout indices.
std::vector<PrimExpr> Canonical(const std::vector<Var>& i, const std::vector<int>& out_pos) {
  std::vector<PrimExpr> result;
  for (int p : out_pos) result.push_back(i[p]);
  return result;
}

// An index in a layout from canonical values.
std::vector<PrimExpr> InLayout(const std::vector<PrimExpr>& canonical, const std::vector<int>& pos) {
  std::vector<PrimExpr> result(canonical.size());
  for (size_t j = 0; j < canonical.size(); ++j) result[pos[j]] = canonical[j];
  return result;
}

// A shape in a layout from canonical dims.
Shape ShapeInLayout(const Shape& canonical, const std::vector<int>& pos) { return InLayout(canonical, pos); }

PrimExpr InRange(const PrimExpr& index, const PrimExpr& extent) {
  return ir::logical_and(ir::ge(index, ir::MakeInt(0)), ir::lt(index, extent));
}

// The conjunction of `conditions` (true when empty).
PrimExpr AllOf(const std::vector<PrimExpr>& conditions) {
  PrimExpr result;
  for (const PrimExpr& c : conditions) result = result.defined() ? ir::logical_and(result, c) : c;
  return result.defined() ? result : PrimExpr(ir::MakeBool(true));
}

// `value` where `inside` holds and `outside` elsewhere (no guard when every
// access is in bounds).
PrimExpr Guarded(const std::vector<PrimExpr>& inside, const PrimExpr& value, const PrimExpr& outside) {
  if (inside.empty()) return value;
  return te::IfThenElse(AllOf(inside), value, outside);
}

}  // namespace

Tensor Conv(const Tensor& data, const Tensor& weight, const ConvParams& p) {
  size_t spatial = static_cast<size_t>(data.ndim() - 2);
  auto dim = [&](const Tensor& t, const std::vector<int>& pos, size_t j) { return t.shape()[pos[j]]; };
  PrimExpr in_per_group = dim(weight, p.kernel_pos, 1);
  PrimExpr out_per_group = Simplify(ir::floordiv(dim(weight, p.kernel_pos, 0), ir::MakeInt(p.groups)));
  Shape canonical_shape = {dim(data, p.data_pos, 0), dim(weight, p.kernel_pos, 0)};
  for (size_t s = 0; s < spatial; ++s) {
    PrimExpr k = dim(weight, p.kernel_pos, 2 + s);
    canonical_shape.push_back(ir::floordiv(dim(data, p.data_pos, 2 + s) + (p.padding[s] + p.padding[s + spatial]) -
                                               (k - 1) * p.dilation[s] - 1,
                                           ir::MakeInt(p.strides[s])) + 1);
  }
  return te::Compute(SimplifyShape(ShapeInLayout(canonical_shape, p.out_pos)), [&](const std::vector<Var>& i) {
    std::vector<PrimExpr> out = Canonical(i, p.out_pos);
    std::vector<tir::IterVar> ks = {te::ReduceAxis(in_per_group, "rc")};
    for (size_t s = 0; s < spatial; ++s) ks.push_back(te::ReduceAxis(dim(weight, p.kernel_pos, 2 + s), "r" + std::to_string(s)));
    PrimExpr channel = ks[0]->var;
    if (p.groups != 1) channel = ir::floordiv(out[1], out_per_group) * in_per_group + ks[0]->var;
    std::vector<PrimExpr> data_index = {out[0], channel};
    std::vector<PrimExpr> kernel_index = {out[1], ks[0]->var};
    std::vector<PrimExpr> inside;
    for (size_t s = 0; s < spatial; ++s) {
      PrimExpr coord = Simplify(out[2 + s] * p.strides[s] - p.padding[s] + ks[1 + s]->var * p.dilation[s]);
      if (p.padding[s] != 0 || p.padding[s + spatial] != 0) inside.push_back(InRange(coord, dim(data, p.data_pos, 2 + s)));
      data_index.push_back(coord);
      kernel_index.push_back(ks[1 + s]->var);
    }
    PrimExpr product = ir::cast(p.out_dtype, data(InLayout(data_index, p.data_pos))) *
                       ir::cast(p.out_dtype, weight(InLayout(kernel_index, p.kernel_pos)));
    return te::Sum(Guarded(inside, product, ZeroConst(p.out_dtype)), ks);
  }, "conv");
}

Tensor ConvTranspose(const Tensor& data, const Tensor& weight, const ConvParams& p) {
  size_t spatial = static_cast<size_t>(data.ndim() - 2);
  auto dim = [&](const Tensor& t, const std::vector<int>& pos, size_t j) { return t.shape()[pos[j]]; };
  PrimExpr out_per_group = dim(weight, p.kernel_pos, 0);
  PrimExpr in_per_group = Simplify(ir::floordiv(dim(data, p.data_pos, 1), ir::MakeInt(p.groups)));
  Shape canonical_shape = {dim(data, p.data_pos, 0), out_per_group * p.groups};
  for (size_t s = 0; s < spatial; ++s) {
    PrimExpr k = dim(weight, p.kernel_pos, 2 + s);
    canonical_shape.push_back((dim(data, p.data_pos, 2 + s) - 1) * p.strides[s] - (p.padding[s] + p.padding[s + spatial]) +
                              (k - 1) * p.dilation[s] + (p.output_padding[s] + 1));
  }
  return te::Compute(SimplifyShape(ShapeInLayout(canonical_shape, p.out_pos)), [&](const std::vector<Var>& i) {
    std::vector<PrimExpr> out = Canonical(i, p.out_pos);
    std::vector<tir::IterVar> ks = {te::ReduceAxis(in_per_group, "rc")};
    for (size_t s = 0; s < spatial; ++s) ks.push_back(te::ReduceAxis(dim(weight, p.kernel_pos, 2 + s), "r" + std::to_string(s)));
    PrimExpr channel = ks[0]->var;
    PrimExpr out_in_group = out[1];
    if (p.groups != 1) {
      channel = ir::floordiv(out[1], out_per_group) * in_per_group + ks[0]->var;
      out_in_group = ir::floormod(out[1], out_per_group);
    }
    std::vector<PrimExpr> data_index = {out[0], channel};
    std::vector<PrimExpr> kernel_index = {out_in_group, channel};
    std::vector<PrimExpr> inside;
    for (size_t s = 0; s < spatial; ++s) {
      PrimExpr numerator = Simplify(out[2 + s] + p.padding[s] - ks[1 + s]->var * p.dilation[s]);
      PrimExpr source = ir::floordiv(numerator, ir::MakeInt(p.strides[s]));
      inside.push_back(ir::ge(numerator, ir::MakeInt(0)));
      inside.push_back(ir::eq(ir::floormod(numerator, ir::MakeInt(p.strides[s])), ir::MakeInt(0)));
      inside.push_back(ir::lt(source, dim(data, p.data_pos, 2 + s)));
      data_index.push_back(source);
      kernel_index.push_back(ks[1 + s]->var);
    }
    PrimExpr product = ir::cast(p.out_dtype, data(InLayout(data_index, p.data_pos))) *
                       ir::cast(p.out_dtype, weight(InLayout(kernel_index, p.kernel_pos)));
    return te::Sum(Guarded(inside, product, ZeroConst(p.out_dtype)), ks);
  }, "conv_transpose");
}

namespace {

Shape PoolOutputShape(const Tensor& data, const PoolParams& p) {
  Shape canonical = {data.shape()[p.pos[0]], data.shape()[p.pos[1]]};
  size_t spatial = p.pool_size.size();
  for (size_t s = 0; s < spatial; ++s) {
    int64_t extra = p.padding[s] + p.padding[s + spatial] - p.dilation[s] * (p.pool_size[s] - 1) - 1 +
                    (p.ceil_mode ? p.strides[s] - 1 : 0);
    canonical.push_back(ir::floordiv(data.shape()[p.pos[2 + s]] + extra, ir::MakeInt(p.strides[s])) + 1);
  }
  return SimplifyShape(ShapeInLayout(canonical, p.out_pos));
}

// The window of output `out` (canonical): data index and in-bounds test.
struct Window {
  std::vector<tir::IterVar> axes;
  std::vector<PrimExpr> data_index;
  std::vector<PrimExpr> inside;  // in-bounds conditions (empty: always)
};

Window PoolWindow(const Tensor& data, const PoolParams& p, const std::vector<PrimExpr>& out) {
  Window w;
  std::vector<PrimExpr> canonical = {out[0], out[1]};
  std::vector<PrimExpr> inside;
  size_t spatial = p.pool_size.size();
  const char* const names[] = {"rd", "rh", "rw"};
  for (size_t s = 0; s < spatial; ++s) {
    w.axes.push_back(te::ReduceAxis(ir::MakeInt(p.pool_size[s]), names[3 - spatial + s]));
    PrimExpr coord = Simplify(out[2 + s] * p.strides[s] - p.padding[s] + w.axes[s]->var * p.dilation[s]);
    // Windows reach outside the input only through padding or ceil_mode.
    if (p.padding[s] != 0 || p.padding[s + spatial] != 0 || p.ceil_mode) {
      inside.push_back(InRange(coord, data.shape()[p.pos[2 + s]]));
    }
    canonical.push_back(coord);
  }
  w.data_index = InLayout(canonical, p.pos);
  w.inside = inside;
  return w;
}

}  // namespace

Tensor MaxPool2D(const Tensor& data, const PoolParams& p) {
  return te::Compute(PoolOutputShape(data, p), [&](const std::vector<Var>& i) {
    Window w = PoolWindow(data, p, Canonical(i, p.out_pos));
    return te::MaxReduce(Guarded(w.inside, data(w.data_index), te::MinValue(data.dtype())), w.axes);
  }, "pool_max");
}

Tensor AvgPool2D(const Tensor& data, const PoolParams& p) {
  DataType acc = AccumulationType(data.dtype());
  Shape out_shape = PoolOutputShape(data, p);
  Tensor sum = te::Compute(out_shape, [&](const std::vector<Var>& i) {
    Window w = PoolWindow(data, p, Canonical(i, p.out_pos));
    return te::Sum(Guarded(w.inside, ir::cast(acc, data(w.data_index)), FloatConst(acc, 0.0)), w.axes);
  }, "pool_sum");
  Tensor count;
  if (!p.count_include_pad) {
    count = te::Compute(out_shape, [&](const std::vector<Var>& i) {
      Window w = PoolWindow(data, p, Canonical(i, p.out_pos));
      return te::Sum(ir::select(AllOf(w.inside), ir::MakeInt(1), ir::MakeInt(0)), w.axes);
    }, "pool_count");
  }
  return te::Compute(out_shape, [&](const std::vector<Var>& i) {
    std::vector<PrimExpr> out = Canonical(i, p.out_pos);
    PrimExpr divisor;
    if (p.count_include_pad) {
      divisor = ir::MakeInt(1);
      size_t spatial = p.pool_size.size();
      for (size_t s = 0; s < spatial; ++s) {
        PrimExpr start = out[2 + s] * p.strides[s] - p.padding[s];
        PrimExpr end = ir::min(start + (p.pool_size[s] - 1) * p.dilation[s],
                               data.shape()[p.pos[2 + s]] + (p.padding[s + spatial] - 1));
        divisor = divisor * (ir::floordiv(end - start, ir::MakeInt(p.dilation[s])) + 1);
      }
      divisor = Simplify(divisor);
    } else {
      divisor = ir::max(count(i), ir::MakeInt(1));
    }
    return ir::cast(data.dtype(), Divide(sum(i), ir::cast(acc, divisor)));
  }, "pool_avg");
}

Tensor AdaptiveAvgPool2D(const Tensor& data, std::optional<std::vector<int64_t>> output_size,
                         const std::vector<int>& pos, const std::vector<int>& out_pos) {
  DataType acc = AccumulationType(data.dtype());
  Shape in = {data.shape()[pos[2]], data.shape()[pos[3]]};
  Shape out_hw = output_size ? Shape{ir::MakeInt((*output_size)[0]), ir::MakeInt((*output_size)[1])} : in;
  auto start = [&](const PrimExpr& o, size_t s) { return Simplify(ir::floordiv(o * in[s], out_hw[s])); };
  auto end = [&](const PrimExpr& o, size_t s) {
    return Simplify(ir::floordiv((o + 1) * in[s] + out_hw[s] - 1, out_hw[s]));
  };
  Shape out_shape = ShapeInLayout({data.shape()[pos[0]], data.shape()[pos[1]], out_hw[0], out_hw[1]}, out_pos);
  // The widest window: the whole input for one output, else ceil(in / out) + 1.
  Shape window;
  for (size_t s = 0; s < 2; ++s) {
    window.push_back(ir::IsConstInt(out_hw[s], 1) ? in[s]
                                                  : Simplify(ir::floordiv(in[s] + out_hw[s] - 1, out_hw[s]) + 1));
  }
  Tensor sum = te::Compute(out_shape, [&](const std::vector<Var>& i) {
    std::vector<PrimExpr> out = Canonical(i, out_pos);
    std::vector<tir::IterVar> axes;
    std::vector<PrimExpr> canonical = {out[0], out[1]};
    std::vector<PrimExpr> inside;
    for (size_t s = 0; s < 2; ++s) {
      axes.push_back(te::ReduceAxis(window[s], s == 0 ? "rh" : "rw"));
      canonical.push_back(start(out[2 + s], s) + axes[s]->var);
      if (!ir::IsConstInt(out_hw[s], 1)) inside.push_back(ir::lt(axes[s]->var, Simplify(end(out[2 + s], s) - start(out[2 + s], s))));
    }
    return te::Sum(Guarded(inside, ir::cast(acc, data(InLayout(canonical, pos))), FloatConst(acc, 0.0)), axes);
  }, "adaptive_pool_sum");
  return te::Compute(out_shape, [&](const std::vector<Var>& i) {
    std::vector<PrimExpr> out = Canonical(i, out_pos);
    PrimExpr count = Simplify((end(out[2], 0) - start(out[2], 0)) * (end(out[3], 1) - start(out[3], 1)));
    return ir::cast(data.dtype(), Divide(sum(i), ir::cast(acc, count)));
  }, "adaptive_pool_avg");
}

}  // namespace rlx::op::compute
