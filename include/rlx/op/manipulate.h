// Data-movement operators beyond reshape and permute_dims (declared in
// op.h): shape edits, joining and splitting, indexing, gather/scatter,
// replication and layout changes. Names, argument order and attributes are
// TVM Relax's (python/tvm/relax/op/manipulate.py and index.py), so
//   R.concat((x, y), axis=0)
//   R.split(x, indices_or_sections=2, axis=0)
//   R.strided_slice(x, (0,), (1,), (n,), (2,), assume_inbound=False)
//   R.take(x, indices, axis=0, mode="fast")
// mean here what they mean in TVM. Every operator accepts any dtype.
//
// The constructors build un-normalized calls; a BlockBuilder deduces their
// struct info (src/op/manipulate_*.cc, index.cc, gather_scatter.cc hold the
// rules and explain them).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "rlx/graph/expr.h"

namespace rlx::op {

using graph::Call;
using graph::Expr;

// ---------------------------------------------------------------------------
// Shape edits (pattern kInjective; broadcast_to kBroadcast).

// Inserts a dimension of size 1 at every position of `axis`, positions
// counted in the result (in [-ndim - 1, ndim]).
Call expand_dims(Expr x, std::vector<int64_t> axis);
// Removes the size-1 dimensions named by `axis` (each must be 1), or every
// dimension that is 1 when `axis` is nullopt.
Call squeeze(Expr x, std::optional<std::vector<int64_t>> axis = std::nullopt);
// The tensor as one dimension (a scalar becomes (1,)).
Call flatten(Expr x);
// numpy broadcasting of `x` to `shape` (a ShapeExpr or a Shape var).
Call broadcast_to(Expr x, Expr shape);
// The shape of `x` as a Shape value (the graph layer's builtin
// relax.shape_of, deduced there).
Call shape_of(Expr x);

// ---------------------------------------------------------------------------
// Joining and splitting.

// `tensors` is a Tuple expression (or a tuple-valued var); `axis` nullopt
// requires 1-D tensors.
Call concat(Expr tensors, std::optional<int64_t> axis = 0);
// Splits into `sections` pieces along `axis`: the first ones of
// ceildiv(dim, sections), the last one the rest.
Call split(Expr x, int64_t sections, int64_t axis = 0);
// Splits at the given indices along `axis` (indices may be symbolic).
Call split(Expr x, std::vector<ir::PrimExpr> indices, int64_t axis = 0);

// ---------------------------------------------------------------------------
// Indexing.

// numpy.take; `axis` nullopt requires a 1-D `x`. mode: "fast", "nan",
// "wrap" or "clip".
Call take(Expr x, Expr indices, std::optional<int64_t> axis = std::nullopt, std::string mode = "fast");
// Slices `x` along `axes`; begin/end/strides may be symbolic. An empty
// `strides` means all ones (the argument is left out, as TVM does).
Call strided_slice(Expr x, std::vector<int64_t> axes, std::vector<ir::PrimExpr> begin, std::vector<ir::PrimExpr> end,
                   std::vector<ir::PrimExpr> strides = {}, bool assume_inbound = false);
// ONNX GatherElements / ScatterElements. reduction: "update", "add", "mul",
// "mean", "max" or "min".
Call gather_elements(Expr data, Expr indices, int64_t axis = 0);
Call scatter_elements(Expr data, Expr indices, Expr updates, int64_t axis = 0, std::string reduction = "update");

// ---------------------------------------------------------------------------
// Layout.

// Moves x[i] to out[f(i)] where f maps `index_params` to `index_results`
// (TVM's IndexMap, printed `T.index_map(lambda i, j: (i // 4, j, i % 4))`);
// positions no element reaches (padding) hold `pad_value` (pattern
// kInjective).
Call layout_transform(Expr x, std::vector<ir::Var> index_params, std::vector<ir::PrimExpr> index_results,
                      std::optional<ir::PrimExpr> pad_value = std::nullopt, std::vector<int64_t> axis_separators = {});

// ---------------------------------------------------------------------------
// Replication and reversal.

// Repeats each element `repeats` times along `axis` (nullopt: of the
// flattened tensor).
Call repeat(Expr data, int64_t repeats, std::optional<int64_t> axis = std::nullopt);
// numpy.tile.
Call tile(Expr data, std::vector<int64_t> repeats);
// Reverses the elements along `axis`.
Call flip(Expr data, int64_t axis);

}  // namespace rlx::op
