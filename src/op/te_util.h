// Index and dtype helpers shared by the TE computations (private to src/op).
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "rlx/arith/analyzer.h"
#include "rlx/ir/expr.h"
#include "rlx/tir/te.h"

namespace rlx::op::compute {

using Shape = std::vector<ir::PrimExpr>;

// float16/bfloat16 accumulate in float32; other dtypes in themselves.
inline DataType AccumulationType(DataType dtype) {
  if (dtype.is_floating() && dtype.bits() < 32) return DataType::Float32();
  return dtype;
}

// `expr` simplified by the integer analyzer (index and shape arithmetic:
// `(h + 2 - 2 - 1) // 1 + 1` becomes `h`).
inline ir::PrimExpr Simplify(const ir::PrimExpr& expr) {
  arith::Analyzer analyzer;
  return analyzer.Simplify(expr);
}

inline Shape SimplifyShape(const Shape& shape) {
  Shape result;
  for (const ir::PrimExpr& dim : shape) result.push_back(Simplify(dim));
  return result;
}

inline ir::PrimExpr FloatConst(DataType dtype, double value) { return ir::MakeFloat(value, dtype); }

// Zero of any numeric dtype (an integer literal for integer dtypes).
inline ir::PrimExpr ZeroConst(DataType dtype) {
  if (dtype.is_floating()) return ir::MakeFloat(0.0, dtype);
  return ir::MakeInt(0, dtype);
}

// Float division (TIR's Div on floats is true division).
inline ir::PrimExpr Divide(ir::PrimExpr a, ir::PrimExpr b) { return ir::truncdiv(std::move(a), std::move(b)); }

inline bool Contains(const std::vector<int>& axes, int axis) {
  return std::find(axes.begin(), axes.end(), axis) != axes.end();
}

// `shape` without the dims in `axes`.
inline Shape DropAxes(const Shape& shape, const std::vector<int>& axes) {
  Shape result;
  for (int d = 0; d < static_cast<int>(shape.size()); ++d) {
    if (!Contains(axes, d)) result.push_back(shape[d]);
  }
  return result;
}

// `index` without the positions in `axes`.
template <typename T>
std::vector<ir::PrimExpr> DropIndices(const std::vector<T>& index, const std::vector<int>& axes) {
  std::vector<ir::PrimExpr> result;
  for (int d = 0; d < static_cast<int>(index.size()); ++d) {
    if (!Contains(axes, d)) result.push_back(index[d]);
  }
  return result;
}

// A full index from the kept indices `kept` and values for `axes`
// (values[j] goes to axes[j]).
template <typename T>
std::vector<ir::PrimExpr> InsertAxes(const std::vector<T>& kept, const std::vector<int>& axes,
                                     const std::vector<ir::PrimExpr>& values) {
  size_t ndim = kept.size() + axes.size();
  std::vector<ir::PrimExpr> result(ndim);
  for (size_t j = 0; j < axes.size(); ++j) result[axes[j]] = values[j];
  size_t next = 0;
  for (size_t d = 0; d < ndim; ++d) {
    if (!result[d].defined()) result[d] = kept[next++];
  }
  return result;
}

// The product of the dims of `shape` at `axes` (int64).
inline ir::PrimExpr ProductOf(const Shape& shape, const std::vector<int>& axes) {
  ir::PrimExpr product = ir::MakeInt(1);
  for (int axis : axes) product = product * shape[axis];
  return Simplify(product);
}

// One reduce axis per entry of `axes`, over that dim of `shape`.
inline std::vector<tir::IterVar> ReduceAxesFor(const Shape& shape, const std::vector<int>& axes) {
  std::vector<tir::IterVar> result;
  for (size_t j = 0; j < axes.size(); ++j) result.push_back(te::ReduceAxis(shape[axes[j]], "k" + std::to_string(j)));
  return result;
}

inline std::vector<ir::PrimExpr> VarsOf(const std::vector<tir::IterVar>& axes) {
  std::vector<ir::PrimExpr> result;
  for (const tir::IterVar& axis : axes) result.push_back(axis->var);
  return result;
}

// The row-major multi-index of `flat` in `shape`.
inline std::vector<ir::PrimExpr> Unravel(ir::PrimExpr flat, const Shape& shape) {
  std::vector<ir::PrimExpr> index(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    index[d] = d == 0 ? flat : ir::floormod(flat, shape[d]);
    flat = ir::floordiv(flat, shape[d]);
  }
  return index;
}

}  // namespace rlx::op::compute
