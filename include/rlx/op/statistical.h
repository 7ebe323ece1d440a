// Statistical, search, scan and einsum operators: R.variance, R.std,
// R.argmax, R.argmin, R.cumsum, R.einsum (TVM's names and attributes; see
// op.h for the conventions shared by every constructor).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "rlx/graph/expr.h"

namespace rlx::op {

using graph::Call;
using graph::Expr;

// Reductions like R.mean (axis None: every axis).
Call variance(Expr x, std::optional<std::vector<int64_t>> axis = std::nullopt, bool keepdims = false);
Call std(Expr x, std::optional<std::vector<int64_t>> axis = std::nullopt, bool keepdims = false);

// Index of the largest / smallest element along `axis` (None: of the
// flattened tensor), int64; ties give the first index.
Call argmax(Expr x, std::optional<int64_t> axis = std::nullopt, bool keepdims = false);
Call argmin(Expr x, std::optional<int64_t> axis = std::nullopt, bool keepdims = false);

// Inclusive (or exclusive) prefix sum along `axis` (None: of the flattened
// tensor); dtype void means the input's.
Call cumsum(Expr data, std::optional<int64_t> axis = std::nullopt, DataType dtype = DataType::Void(),
            bool exclusive = false);

// Einstein summation: `operands` is a Tuple expression (or a tuple-valued
// var), subscripts as numpy ("ij,jk->ik", "...ij->...ji", "ii").
Call einsum(Expr operands, std::string subscripts);

}  // namespace rlx::op
