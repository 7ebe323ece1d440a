// Tensor-expression definitions of the data-movement operators (see
// manipulate_te.h). Every compute maps an output index to the input element
// it copies; the only non-TE kernel is scatter_elements, whose sequential
// update order is written as plain TIR loops.
#include "manipulate_te.h"

#include <fmt/format.h>

#include <cmath>
#include <functional>

#include "rlx/arith/analyzer.h"
#include "rlx/ir/attrs.h"
#include "rlx/tir/stmt.h"

namespace rlx::op::detail {

using ir::PrimExpr;
using ir::Var;

namespace {

PrimExpr Int64(const PrimExpr& expr) {
  if (expr->dtype == DataType::Int64()) return expr;
  return ir::cast(DataType::Int64(), expr);
}

std::vector<PrimExpr> AsExprs(const std::vector<Var>& vars) { return {vars.begin(), vars.end()}; }

// `index` of an axis of length `length` with negative values counted from
// the end.
PrimExpr WrapNegative(const PrimExpr& index, const PrimExpr& length) {
  return ir::select(ir::lt(index, ir::MakeInt(0)), index + Int64(length), index);
}

}  // namespace

PrimExpr RavelIndex(const std::vector<PrimExpr>& index, const Shape& shape) {
  PrimExpr flat = ir::MakeInt(0);
  for (size_t i = 0; i < index.size(); ++i) flat = i == 0 ? Int64(index[0]) : flat * Int64(shape[i]) + Int64(index[i]);
  return flat;
}

std::vector<PrimExpr> UnravelIndex(const PrimExpr& flat, const Shape& shape) {
  // index[d] = flat // stride[d] % shape[d] (no modulo for d = 0), stride[d]
  // the product of the later dims; simplified (so `// 4 // 3` is `// 12`).
  arith::Analyzer analyzer;
  std::vector<PrimExpr> index(shape.size());
  PrimExpr stride = ir::MakeInt(1);
  for (size_t i = shape.size(); i-- > 0;) {
    PrimExpr quotient = ir::IsConstInt(stride, 1) ? flat : ir::floordiv(flat, stride);
    index[i] = analyzer.Simplify(i == 0 ? quotient : ir::floormod(quotient, Int64(shape[i])));
    stride = analyzer.Simplify(stride * Int64(shape[i]));
  }
  return index;
}

te::Tensor ReshapeTE(const te::Tensor& x, const Shape& new_shape) {
  return te::Compute(
      new_shape,
      [&](const std::vector<Var>& i) {
        if (x.ndim() == 0) return x(std::vector<PrimExpr>{});
        return x(UnravelIndex(RavelIndex(AsExprs(i), new_shape), x.shape()));
      },
      "T_reshape");
}

te::Tensor PermuteDimsTE(const te::Tensor& x, const std::vector<int>& axes) {
  Shape out_shape;
  for (int axis : axes) out_shape.push_back(x.shape()[axis]);
  return te::Compute(
      out_shape,
      [&](const std::vector<Var>& i) {
        std::vector<PrimExpr> index(axes.size());
        for (size_t o = 0; o < axes.size(); ++o) index[axes[o]] = i[o];
        return x(index);
      },
      "T_transpose");
}

te::Tensor ExpandDimsTE(const te::Tensor& x, const Shape& out_shape, const std::vector<bool>& is_new) {
  return te::Compute(
      out_shape,
      [&](const std::vector<Var>& i) {
        std::vector<PrimExpr> index;
        for (size_t o = 0; o < i.size(); ++o) {
          if (!is_new[o]) index.push_back(i[o]);
        }
        return x(index);
      },
      "T_expand_dims");
}

te::Tensor SqueezeTE(const te::Tensor& x, const std::vector<bool>& removed, const Shape& out_shape) {
  return te::Compute(
      out_shape,
      [&](const std::vector<Var>& i) {
        std::vector<PrimExpr> index;
        size_t next = 0;
        for (bool is_removed : removed) index.push_back(is_removed ? ir::MakeInt(0) : PrimExpr(i[next++]));
        return x(index);
      },
      "T_squeeze");
}

te::Tensor BroadcastToTE(const te::Tensor& x, const Shape& out_shape) {
  size_t offset = out_shape.size() - static_cast<size_t>(x.ndim());
  return te::Compute(
      out_shape,
      [&](const std::vector<Var>& i) {
        std::vector<PrimExpr> index;
        for (int d = 0; d < x.ndim(); ++d) {
          bool unit = ir::IsConstInt(x.shape()[d], 1) && !ir::IsConstInt(out_shape[offset + d], 1);
          index.push_back(unit ? ir::MakeInt(0) : PrimExpr(i[offset + d]));
        }
        return x(index);
      },
      "T_broadcast_to");
}

te::Tensor ConcatTE(const std::vector<te::Tensor>& inputs, int axis, const Shape& out_shape) {
  return te::Compute(
      out_shape,
      [&](const std::vector<Var>& i) {
        // Offsets of the inputs along the axis; the last input needs no test.
        arith::Analyzer analyzer;
        std::vector<PrimExpr> offsets = {ir::MakeInt(0)};
        for (size_t t = 0; t + 1 < inputs.size(); ++t) {
          offsets.push_back(analyzer.Simplify(offsets.back() + Int64(inputs[t].shape()[axis])));
        }
        auto element_of = [&](size_t t) {
          std::vector<PrimExpr> index = AsExprs(i);
          if (t > 0) index[axis] = i[axis] - offsets[t];
          return inputs[t](index);
        };
        PrimExpr value = element_of(inputs.size() - 1);
        for (size_t t = inputs.size() - 1; t-- > 0;) {
          value = te::IfThenElse(ir::lt(i[axis], offsets[t + 1]), element_of(t), value);
        }
        return value;
      },
      "T_concat");
}

te::Tensor SliceAlongTE(const te::Tensor& x, int axis, const PrimExpr& begin, const Shape& piece_shape,
                        const std::string& name) {
  return te::Compute(
      piece_shape,
      [&](const std::vector<Var>& i) {
        std::vector<PrimExpr> index = AsExprs(i);
        if (!ir::IsConstInt(begin, 0)) index[axis] = i[axis] + Int64(begin);
        return x(index);
      },
      name);
}

te::Tensor StridedSliceTE(const te::Tensor& x, const std::vector<int>& axes, const std::vector<PrimExpr>& begins,
                          const std::vector<int64_t>& strides, const Shape& out_shape) {
  return te::Compute(
      out_shape,
      [&](const std::vector<Var>& i) {
        arith::Analyzer analyzer;
        std::vector<PrimExpr> index = AsExprs(i);
        for (size_t s = 0; s < axes.size(); ++s) {
          index[axes[s]] = analyzer.Simplify(Int64(begins[s]) + i[axes[s]] * strides[s]);
        }
        return x(index);
      },
      "T_strided_slice_with_axes");
}

te::Tensor TakeTE(const te::Tensor& x, const te::Tensor& indices, int axis, const std::string& mode) {
  Shape out_shape(x.shape().begin(), x.shape().begin() + axis);
  out_shape.insert(out_shape.end(), indices.shape().begin(), indices.shape().end());
  out_shape.insert(out_shape.end(), x.shape().begin() + axis + 1, x.shape().end());
  PrimExpr length = Int64(x.shape()[axis]);
  arith::Analyzer analyzer;
  PrimExpr last = analyzer.Simplify(length - 1);
  return te::Compute(
      out_shape,
      [&](const std::vector<Var>& i) {
        std::vector<PrimExpr> index_index(i.begin() + axis, i.begin() + axis + indices.ndim());
        PrimExpr raw = Int64(indices(index_index));
        PrimExpr taken = raw;
        if (mode == "wrap") taken = ir::floormod(raw, length);
        if (mode == "clip") taken = ir::min(ir::max(raw, ir::MakeInt(0)), last);
        std::vector<PrimExpr> index(i.begin(), i.begin() + axis);
        index.push_back(taken);
        index.insert(index.end(), i.begin() + axis + indices.ndim(), i.end());
        PrimExpr value = x(index);
        if (mode != "nan") return value;
        PrimExpr in_range = ir::logical_and(ir::ge(raw, ir::MakeInt(0)), ir::lt(raw, length));
        PrimExpr fill = x.dtype().is_floating() ? PrimExpr(ir::MakeFloat(std::nan(""), x.dtype()))
                                                 : PrimExpr(ir::MakeInt(0, x.dtype()));
        return te::IfThenElse(in_range, value, fill);
      },
      "T_take");
}

te::Tensor GatherElementsTE(const te::Tensor& data, const te::Tensor& indices, int axis) {
  return te::Compute(
      indices.shape(),
      [&](const std::vector<Var>& i) {
        std::vector<PrimExpr> index = AsExprs(i);
        index[axis] = WrapNegative(Int64(indices(i)), data.shape()[axis]);
        return data(index);
      },
      "T_gather_elements");
}

te::Tensor RepeatTE(const te::Tensor& data, int64_t repeats, std::optional<int> axis, const Shape& out_shape) {
  return te::Compute(
      out_shape,
      [&](const std::vector<Var>& i) {
        if (!axis) {
          PrimExpr flat = ir::floordiv(PrimExpr(i[0]), repeats);
          if (data.ndim() == 0) return data(std::vector<PrimExpr>{});
          return data(UnravelIndex(flat, data.shape()));
        }
        std::vector<PrimExpr> index = AsExprs(i);
        index[*axis] = ir::floordiv(PrimExpr(i[*axis]), repeats);
        return data(index);
      },
      "T_repeat");
}

te::Tensor TileTE(const te::Tensor& data, const Shape& out_shape) {
  size_t offset = out_shape.size() - static_cast<size_t>(data.ndim());
  return te::Compute(
      out_shape,
      [&](const std::vector<Var>& i) {
        std::vector<PrimExpr> index;
        for (int d = 0; d < data.ndim(); ++d) index.push_back(ir::floormod(PrimExpr(i[offset + d]), Int64(data.shape()[d])));
        return data(index);
      },
      "T_tile");
}

te::Tensor FlipTE(const te::Tensor& data, int axis) {
  arith::Analyzer analyzer;
  PrimExpr last = analyzer.Simplify(Int64(data.shape()[axis]) - 1);
  return te::Compute(
      data.shape(),
      [&](const std::vector<Var>& i) {
        std::vector<PrimExpr> index = AsExprs(i);
        index[axis] = last - i[axis];
        return data(index);
      },
      "T_reverse_sequence");
}

// ---------------------------------------------------------------------------
// scatter_elements

namespace {

tir::Stmt Loop(const Var& var, const PrimExpr& extent, tir::Stmt body) {
  auto* loop = new tir::ForNode();
  loop->loop_var = var;
  loop->min = ir::MakeInt(0);
  loop->extent = Int64(extent);
  loop->body = std::move(body);
  return tir::Stmt(loop);
}

// A loop nest over `shape` around the statement `body(index)`.
tir::Stmt LoopNest(const Shape& shape, const std::string& prefix,
                   const std::function<tir::Stmt(const std::vector<PrimExpr>&)>& body) {
  std::vector<Var> vars;
  for (size_t d = 0; d < shape.size(); ++d) vars.push_back(ir::MakeVar(fmt::format("{}{}", prefix, d)));
  tir::Stmt stmt = body(AsExprs(vars));
  for (size_t d = shape.size(); d-- > 0;) stmt = Loop(vars[d], shape[d], stmt);
  return stmt;
}

PrimExpr Load(const ir::Buffer& buffer, std::vector<PrimExpr> index) {
  return make<ir::BufferLoadNode>(buffer, std::move(index));
}

PrimExpr Combine(const std::string& reduction, const PrimExpr& current, const PrimExpr& update) {
  if (reduction == "add") return current + update;
  if (reduction == "mul") return current * update;
  if (reduction == "max") return ir::max(current, update);
  if (reduction == "min") return ir::min(current, update);
  if (reduction == "mean") {
    // Div is true division for floats; integers round down, as TVM's `/`.
    if (update->dtype.is_floating()) return ir::truncdiv(current + update, ir::MakeFloat(2.0, update->dtype));
    return ir::floordiv(current + update, ir::MakeInt(2, update->dtype));
  }
  return update;  // "update"
}

}  // namespace

tir::PrimFunc ScatterElementsPrimFunc(const Shape& data_shape, DataType dtype, const Shape& indices_shape,
                                      DataType index_dtype, int axis, const std::string& reduction,
                                      const std::vector<ir::Var>& scalar_params) {
  ir::Buffer data = ir::MakeBuffer("data", data_shape, dtype);
  ir::Buffer indices = ir::MakeBuffer("indices", indices_shape, index_dtype);
  ir::Buffer updates = ir::MakeBuffer("updates", indices_shape, dtype);
  ir::Buffer out = ir::MakeBuffer("out", data_shape, dtype);
  tir::Stmt copy = LoopNest(data_shape, "i", [&](const std::vector<PrimExpr>& index) {
    return tir::Stmt(make<tir::BufferStoreNode>(out, Load(data, index), index));
  });
  tir::Stmt scatter = LoopNest(indices_shape, "j", [&](const std::vector<PrimExpr>& index) {
    std::vector<PrimExpr> target = index;
    target[axis] = WrapNegative(Int64(Load(indices, index)), data_shape[axis]);
    PrimExpr value = Combine(reduction, Load(out, target), Load(updates, index));
    return tir::Stmt(make<tir::BufferStoreNode>(out, value, target));
  });
  auto* func = new tir::PrimFuncNode();
  for (const ir::Buffer& buffer : {data, indices, updates, out}) {
    Var handle = ir::MakeVar("var_" + buffer->name, DataType::Handle());
    func->params.push_back(handle);
    func->buffer_map.emplace_back(handle, buffer);
  }
  for (const ir::Var& scalar : scalar_params) func->params.push_back(scalar);
  func->body = tir::MakeSeq({copy, scatter});
  func->attrs = ir::DictWith(nullptr, "tir.noalias", ir::MakeBool(true));
  func->is_private = true;
  return tir::PrimFunc(func);
}

}  // namespace rlx::op::detail
