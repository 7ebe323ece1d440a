// Helpers for the compiled-code checks of the nn / statistical / image /
// einsum legalizations (legalize_nn_codegen_test.cc), beside the shared
// ones (tests/unit/common: compiled_op.h compiles and runs a legalized
// one-call module, op_reference.h loads the PyTorch reference data): slices
// of that data, the sizes to run symbolic dimensions at, the comparison.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "../common/compiled_op.h"

namespace rlx::op_test {

// The first `rows` entries of `tensor` along its dimension 0.
inline tir::HostTensor LeadingRows(const tir::HostTensor& tensor, int64_t rows) {
  std::vector<int64_t> shape = tensor.shape;
  shape[0] = rows;
  tir::HostTensor result(tensor.dtype, shape);
  std::copy(tensor.data.begin(), tensor.data.begin() + static_cast<std::ptrdiff_t>(result.data.size()),
            result.data.begin());
  return result;
}

// Sizes 1, an odd middle one and `full` (deduplicated, ascending).
inline std::vector<int64_t> SizesUpTo(int64_t full) {
  std::vector<int64_t> sizes = {1, (full / 2) | 1, full};
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  return sizes;
}

// Expects every element of `actual` within abs_tol + rel * |expected| of
// `expected` (same shape); NaN matches NaN. Reports the worst element.
inline void ExpectAllClose(const tir::HostTensor& actual, const tir::HostTensor& expected, double rel, double abs_tol,
                           const std::string& what) {
  ASSERT_EQ(actual.shape, expected.shape) << what;
  ExpectTensorNear(actual, expected.shape, expected.ToDoubles(), rel, abs_tol, what);
}

}  // namespace rlx::op_test
