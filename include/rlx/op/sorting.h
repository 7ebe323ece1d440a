// Sorting operators: R.sort, R.argsort, R.topk (TVM's names, attributes and
// defaults; see op.h for the conventions shared by every constructor).
#pragma once

#include <cstdint>
#include <string>

#include "rlx/graph/expr.h"

namespace rlx::op {

using graph::Call;
using graph::Expr;

// `data` sorted along `axis` (ascending, or descending); equal elements keep
// their order (stable).
Call sort(Expr data, int64_t axis = -1, bool descending = false);

// The indices that sort `data` along `axis` (stable: equal elements in index
// order), of `dtype` (void: the input's dtype, as TVM's rule).
Call argsort(Expr data, int64_t axis = -1, bool descending = false, DataType dtype = DataType::Int32());

// The `k` largest (or smallest) elements along `axis` and their indices, in
// order (ties: the lower index first). k <= 0 means the whole axis.
// ret_type "both" gives the tuple (values, indices), "values" or "indices"
// one tensor; indices are of `dtype` (void: the input's dtype).
Call topk(Expr data, int64_t k = 1, int64_t axis = -1, std::string ret_type = "both", bool largest = true,
          DataType dtype = DataType::Int32());

}  // namespace rlx::op
