// TE computations of topk, argsort and sort (see include/rlx/op/te_compute.h).
//
// One kernel serves all three: a te::Extern statement that keeps, for every
// position of the other axes, the indices of the best K elements seen so far
// along the axis (L long), in order, in the output buffer itself, and inserts
// each element i in turn:
//
//   for i in [0, L):                                  (serial)
//     if i < K: idx[i] = i                            (append at the end)
//     for t in [0, min(i, K)):                        (p = min(i, K) - 1 - t)
//       if x[i] better than x[idx[p]]:                (largest: >, else <)
//         if p + 1 < K: idx[p + 1] = idx[p]           (move it one down)
//         idx[p] = i
//
// The list stays sorted, so once x[i] is not strictly better than x[idx[p]]
// it is not better than anything above either, and i stops where it belongs.
// Strict comparison keeps equal elements in index order: ties give the lower
// index first, as ONNX's TopK requires, and argsort/sort are stable. The cost
// is O(L * K) comparisons per row (O(L^2) for argsort/sort, which take K = L):
// meant for the moderate axis lengths of classification heads and tests,
// not for sorting millions of elements. The caller guarantees K <= L (ONNX
// and TVM require it; struct info makes K the axis dim when k is larger).
//
// The values are then gathered by a compute, x[..., idx[..., j, ...], ...];
// sort is the gather of argsort's indices (an intermediate buffer).
#include <fmt/format.h>

#include "rlx/op/te_compute.h"
#include "rlx/tir/stmt.h"
#include "te_util.h"

namespace rlx::op::compute {

using ir::PrimExpr;
using ir::Var;

namespace {

tir::Stmt Loop(const Var& var, PrimExpr extent, tir::Stmt body) {
  auto* loop = new tir::ForNode();
  loop->loop_var = var;
  loop->min = ir::MakeInt(0, extent->dtype);
  loop->extent = std::move(extent);
  loop->body = std::move(body);
  return tir::Stmt(loop);
}

tir::Stmt Store(const ir::Buffer& buffer, PrimExpr value, std::vector<PrimExpr> index) {
  return make<tir::BufferStoreNode>(buffer, std::move(value), std::move(index));
}

tir::Stmt If(PrimExpr condition, tir::Stmt then_case) {
  return make<tir::IfThenElseNode>(std::move(condition), std::move(then_case), tir::Stmt());
}

// The insertion selection of the note above, writing `idx` (its `axis` dim
// is K) from `x` (its `axis` dim is L).
tir::Stmt SelectBest(const ir::Buffer& x, const ir::Buffer& idx, int axis, bool largest) {
  const PrimExpr& length = x->shape[axis];
  const PrimExpr& count = idx->shape[axis];
  DataType index_type = length->dtype;
  std::vector<PrimExpr> point;
  std::vector<Var> outer;
  for (size_t d = 0; d < x->shape.size(); ++d) {
    Var var = ir::MakeVar(fmt::format("ax{}", d), x->shape[d]->dtype);
    if (static_cast<int>(d) != axis) outer.push_back(var);
    point.push_back(var);
  }
  auto at = [&](PrimExpr position) {
    std::vector<PrimExpr> index = point;
    index[axis] = std::move(position);
    return index;
  };
  auto load_idx = [&](PrimExpr position) { return make<ir::BufferLoadNode>(idx, at(std::move(position))); };
  auto load_x = [&](PrimExpr position) { return make<ir::BufferLoadNode>(x, at(std::move(position))); };
  Var i = ir::MakeVar("i", index_type), t = ir::MakeVar("t", index_type);
  PrimExpr one = ir::MakeInt(1, index_type);
  PrimExpr filled = ir::min(i, count);
  PrimExpr p = Simplify(filled - one - t);
  PrimExpr candidate = load_x(i), incumbent = load_x(ir::cast(index_type, load_idx(p)));
  PrimExpr better = largest ? ir::gt(candidate, incumbent) : ir::lt(candidate, incumbent);
  PrimExpr below = Simplify(p + one);
  tir::Stmt move_down = If(ir::lt(below, count), Store(idx, load_idx(p), at(below)));
  tir::Stmt insert = If(better, tir::MakeSeq({move_down, Store(idx, ir::cast(idx->dtype, i), at(p))}));
  tir::Stmt append = If(ir::lt(i, count), Store(idx, ir::cast(idx->dtype, i), at(i)));
  tir::Stmt body = Loop(i, length, tir::MakeSeq({append, Loop(t, filled, insert)}));
  for (size_t d = outer.size(); d-- > 0;) {
    const Var& var = outer[d];
    size_t dim = d < static_cast<size_t>(axis) ? d : d + 1;
    body = Loop(var, idx->shape[dim], body);
  }
  return body;
}

// The indices of the best `count` elements along `axis`, in order.
Tensor BestIndices(const Tensor& x, PrimExpr count, int axis, bool largest, DataType index_dtype,
                   const std::string& name) {
  Shape shape = x.shape();
  shape[axis] = std::move(count);
  return te::Extern(shape, index_dtype, {x}, [&](const std::vector<ir::Buffer>& in, const ir::Buffer& out) {
    return SelectBest(in[0], out, axis, largest);
  }, name);
}

// x gathered along `axis` at `indices`.
Tensor GatherAlong(const Tensor& x, const Tensor& indices, int axis, const std::string& name) {
  return te::Compute(indices.shape(), [&](const std::vector<Var>& i) {
    std::vector<PrimExpr> index(i.begin(), i.end());
    index[axis] = ir::cast(x.shape()[axis]->dtype, indices(i));
    return x(index);
  }, name);
}

}  // namespace

std::vector<Tensor> TopK(const Tensor& x, PrimExpr k, int axis, bool largest, DataType index_dtype) {
  Tensor indices = BestIndices(x, std::move(k), axis, largest, index_dtype, "topk_indices");
  return {GatherAlong(x, indices, axis, "topk_values"), indices};
}

Tensor Argsort(const Tensor& x, int axis, bool descending, DataType index_dtype) {
  return BestIndices(x, x.shape()[axis], axis, descending, index_dtype, "argsort");
}

Tensor Sort(const Tensor& x, int axis, bool descending) {
  Tensor indices = BestIndices(x, x.shape()[axis], axis, descending, DataType::Int64(), "sort_indices");
  return GatherAlong(x, indices, axis, "sort");
}

}  // namespace rlx::op::compute
