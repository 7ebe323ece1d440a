// Numerical tests of the reshape and permute_dims legalizations: the
// generated PrimFunc runs in the TIR interpreter at several symbolic sizes
// and must move every element where numpy's row-major reshape / transpose
// puts it.
#include <gtest/gtest.h>

#include "legalize_test_util.h"

namespace rlx::op_test {
namespace {

const DataType kF32 = DataType::Float32();

std::string TensorType(const std::string& shape) { return "R.Tensor(" + shape + ", dtype=\"float32\")"; }

// Reshape keeps the row-major order: the output is the input's elements in
// the same flat order.
void ExpectReshaped(const LegalizedOp& op, const std::vector<int64_t>& in_shape, const std::vector<int64_t>& out_shape,
                    const std::map<std::string, int64_t>& sizes) {
  tir::HostTensor x = RandomTensor(kF32, in_shape, 5);
  ExpectTensorNear(RunLegalized(op, {x}, sizes), out_shape, x.ToDoubles(), 0, 0, "reshape");
}

TEST(LegalizeManipulateTest, ReshapeStaticAndSymbolic) {
  LegalizedOp fixed = LegalizeCall({{"x", TensorType("(2, 3, 4)")}}, "R.reshape(x, R.shape([4, -1]))");
  ExpectReshaped(fixed, {2, 3, 4}, {4, 6}, {});
  LegalizedOp merge = LegalizeCall({{"x", TensorType("(\"n\", 3, 4)")}}, "R.reshape(x, R.shape([n * 3, 4]))", {"n"});
  LegalizedOp split = LegalizeCall({{"x", TensorType("(\"n\", 6)")}}, "R.reshape(x, R.shape([n, 2, 3]))", {"n"});
  LegalizedOp flatten = LegalizeCall({{"x", TensorType("(\"n\", \"m\")")}}, "R.reshape(x, R.shape([-1]))");
  for (int64_t n : {1, 3, 8}) {
    ExpectReshaped(merge, {n, 3, 4}, {n * 3, 4}, {{"n", n}});
    ExpectReshaped(split, {n, 6}, {n, 2, 3}, {{"n", n}});
    ExpectReshaped(flatten, {n, 5}, {n * 5}, {{"n", n}, {"m", 5}});
  }
}

TEST(LegalizeManipulateTest, PermuteDims) {
  LegalizedOp swap = LegalizeCall({{"x", TensorType("(\"n\", 3, 4)")}}, "R.permute_dims(x, axes=[2, 0, 1])");
  LegalizedOp reverse = LegalizeCall({{"x", TensorType("(\"n\", 3, 4)")}}, "R.permute_dims(x)");
  for (int64_t n : {1, 2, 7}) {
    tir::HostTensor x = RandomTensor(kF32, {n, 3, 4}, 6);
    std::vector<double> swapped, reversed;
    for (int64_t c = 0; c < 4; ++c) {
      for (int64_t a = 0; a < n; ++a) {
        for (int64_t b = 0; b < 3; ++b) swapped.push_back(x.At({a, b, c}));
      }
    }
    for (int64_t c = 0; c < 4; ++c) {
      for (int64_t b = 0; b < 3; ++b) {
        for (int64_t a = 0; a < n; ++a) reversed.push_back(x.At({a, b, c}));
      }
    }
    ExpectTensorNear(RunLegalized(swap, {x}, {{"n", n}}), {4, n, 3}, swapped, 0, 0, "permute_dims [2, 0, 1]");
    ExpectTensorNear(RunLegalized(reverse, {x}, {{"n", n}}), {4, 3, n}, reversed, 0, 0, "permute_dims reversed");
  }
}

}  // namespace
}  // namespace rlx::op_test
