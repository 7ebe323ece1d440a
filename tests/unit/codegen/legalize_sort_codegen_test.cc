// R.topk, R.argsort and R.sort legalized with symbolic dimensions, run with
// the TIR interpreter and compiled through LLVM (with and without the
// default CPU schedule) at sizes 1, odd and large, against a naive reference
// (std::stable_sort of each row). The data hold many ties (small integers as
// floats), so the order of equal elements (lower index first) is checked.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "legalize_jit_util.h"

namespace rlx::op_test {
namespace {

const DataType kF32 = DataType::Float32();
const DataType kI32 = DataType::Int32();
const DataType kI64 = DataType::Int64();

std::string F32Tensor(const std::string& shape) { return "R.Tensor(" + shape + ", dtype=\"float32\")"; }

// Floats in {-4, ..., 3}: many ties.
tir::HostTensor TieHeavyData(const Index& shape, unsigned seed) {
  tir::HostTensor integers = RandomTensor(kI64, shape, seed, -4, 4);
  tir::HostTensor data(kF32, shape);
  for (int64_t i = 0; i < data.num_elements(); ++i) data.SetFloat(i, static_cast<double>(integers.GetInt(i)));
  return data;
}

// The best `k` elements of every row along `axis` (stable order: ties by the
// lower index): {values, indices}.
std::vector<ExpectedTensor> TopKReference(const tir::HostTensor& x, int axis, int64_t k, bool largest) {
  Index out_shape = x.shape;
  int64_t length = x.shape[axis];
  out_shape[axis] = k;
  ExpectedTensor values{out_shape, std::vector<double>(NumElements(out_shape))};
  ExpectedTensor indices{out_shape, std::vector<double>(NumElements(out_shape))};
  for (int64_t flat = 0; flat < NumElements(out_shape); ++flat) {
    Index at = Unflatten(flat, out_shape);
    if (at[axis] != 0) continue;
    std::vector<int64_t> order(length);
    std::iota(order.begin(), order.end(), 0);
    auto value = [&](int64_t j) {
      Index point = at;
      point[axis] = j;
      return x.At(point);
    };
    std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
      return largest ? value(a) > value(b) : value(a) < value(b);
    });
    for (int64_t j = 0; j < k; ++j) {
      Index point = at;
      point[axis] = j;
      values.values[Ravel(point, out_shape)] = value(order[j]);
      indices.values[Ravel(point, out_shape)] = static_cast<double>(order[j]);
    }
  }
  return {values, indices};
}

const std::vector<int64_t> kSizes = {1, 7, 64};

TEST(LegalizeSortCodegenTest, TopKAlongASymbolicAxis) {
  Compiled largest = LegalizeAndCompile(F32Tensor("(3, \"m\")"), "R.topk(x, k=1, axis=-1, dtype=\"int64\")");
  Compiled whole = LegalizeAndCompile(F32Tensor("(\"n\", 6)"), "R.topk(x, k=6, axis=1, largest=False)");
  for (int64_t m : kSizes) {
    tir::HostTensor x = TieHeavyData({3, m}, 1);
    ExpectAllRuns(largest, x, {{"m", m}}, TopKReference(x, 1, 1, true), {kF32, kI64}, "topk k=1 largest");
    tir::HostTensor y = TieHeavyData({m, 6}, 2);
    ExpectAllRuns(whole, y, {{"n", m}}, TopKReference(y, 1, 6, false), {kF32, kI32}, "topk k=6 smallest");
  }
}

TEST(LegalizeSortCodegenTest, TopKAcrossRowsWithSymbolicOuterDims) {
  Compiled values = LegalizeAndCompile(F32Tensor("(\"n\", 9, \"m\")"), "R.topk(x, k=4, axis=1, ret_type=\"values\")");
  Compiled indices = LegalizeAndCompile(F32Tensor("(\"n\", 9, \"m\")"),
                                        "R.topk(x, k=3, axis=-2, ret_type=\"indices\", largest=False, dtype=\"int64\")");
  for (int64_t n : kSizes) {
    for (int64_t m : {1, 5}) {
      tir::HostTensor x = TieHeavyData({n, 9, m}, 3);
      ExpectAllRuns(values, x, {{"n", n}, {"m", m}}, {TopKReference(x, 1, 4, true)[0]}, {kF32}, "topk values");
      ExpectAllRuns(indices, x, {{"n", n}, {"m", m}}, {TopKReference(x, 1, 3, false)[1]}, {kI64}, "topk indices");
    }
  }
}

TEST(LegalizeSortCodegenTest, ArgsortAndSortAreStable) {
  Compiled argsort = LegalizeAndCompile(F32Tensor("(2, \"m\")"), "R.argsort(x, axis=-1, descending=True)");
  Compiled sort = LegalizeAndCompile(F32Tensor("(\"n\", 4)"), "R.sort(x, axis=0)");
  for (int64_t m : kSizes) {
    tir::HostTensor x = TieHeavyData({2, m}, 4);
    ExpectAllRuns(argsort, x, {{"m", m}}, {TopKReference(x, 1, m, true)[1]}, {kI32}, "argsort descending");
    tir::HostTensor y = TieHeavyData({m, 4}, 5);
    ExpectAllRuns(sort, y, {{"n", m}}, {TopKReference(y, 0, m, false)[0]}, {kF32}, "sort ascending");
  }
}

}  // namespace
}  // namespace rlx::op_test
