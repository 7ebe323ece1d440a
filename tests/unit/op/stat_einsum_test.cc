// Struct-info deduction of variance, std, argmax, argmin, cumsum and einsum.
#include <gtest/gtest.h>

#include "op_test_util.h"
#include "rlx/op/statistical.h"

namespace rlx::op::testing {
namespace {

using Axes = std::vector<int64_t>;
const DataType kI64 = DataType::Int64();

class StatEinsumTest : public OpTest {
 protected:
  // einsum's operand tuple, with its struct info.
  graph::Expr Operands(std::vector<graph::Expr> fields) {
    return builder_.Normalize(make<graph::TupleNode>(std::move(fields)));
  }
};

TEST_F(StatEinsumTest, VarianceAndStdReduce) {
  ExpectTensor(Infer(variance(TensorVar("x", {n, Int(4), m}), Axes{1})), {n, m}, kF32);
  ExpectTensor(Infer(op::std(TensorVar("x", {n, Int(4)}), std::nullopt, true)), {Int(1), Int(1)}, kF32);
  EXPECT_EQ(InferError(variance(TensorVar("x", {n}), Axes{2})), "variance: axis 2 is out of range for a tensor of rank 1");
}

TEST_F(StatEinsumTest, ArgmaxArgmin) {
  ExpectTensor(Infer(argmax(TensorVar("x", {n, Int(4), m}), 1)), {n, m}, kI64);
  ExpectTensor(Infer(argmin(TensorVar("x", {n, Int(4)}), -1, true)), {n, Int(1)}, kI64);
  ExpectTensor(Infer(argmax(TensorVar("x", {n, Int(4)}))), {}, kI64);
  ExpectTensor(Infer(argmax(TensorVar("x", {n, Int(4)}), std::nullopt, true)), {Int(1), Int(1)}, kI64);
  ExpectTensorRank(Infer(argmin(TensorVar("x", 3), 0)), 2, kI64);
  EXPECT_EQ(InferError(argmax(TensorVar("x", {n}), 1)), "argmax: axis 1 is out of range for a tensor of rank 1");
}

TEST_F(StatEinsumTest, Cumsum) {
  ExpectTensor(Infer(cumsum(TensorVar("x", {n, Int(4)}), 1)), {n, Int(4)}, kF32);
  ExpectTensor(Infer(cumsum(TensorVar("x", {n, Int(4)}, kI32), 0, kI64, true)), {n, Int(4)}, kI64);
  ExpectTensor(Infer(cumsum(TensorVar("x", {n, Int(4)}))), {n * 4}, kF32);
  EXPECT_EQ(InferError(cumsum(TensorVar("x", {n}), -2)), "cumsum: axis -2 is out of range for a tensor of rank 1");
}

TEST_F(StatEinsumTest, EinsumExplicitAndImplicit) {
  graph::Var a = TensorVar("a", {n, k});
  graph::Var c = TensorVar("c", {k, m});
  ExpectTensor(Infer(einsum(Operands({a, c}), "ij,jk->ik")), {n, m}, kF32);
  ExpectTensor(Infer(einsum(Operands({a, c}), "ij,jk")), {n, m}, kF32);
  ExpectTensor(Infer(einsum(Operands({TensorVar("s", {n, n})}), "ii")), {}, kF32);
  ExpectTensor(Infer(einsum(Operands({a}), "ij->ji")), {k, n}, kF32);
}

TEST_F(StatEinsumTest, EinsumEllipsisBroadcasts) {
  graph::Var a = TensorVar("a", {b, Int(1), n, k});
  graph::Var c = TensorVar("c", {Int(3), k, m});
  ExpectTensor(Infer(einsum(Operands({a, c}), "...ij,...jk->...ik")), {b, Int(3), n, m}, kF32);
}

TEST_F(StatEinsumTest, EinsumErrors) {
  graph::Var a = TensorVar("a", {Int(2), Int(3)});
  EXPECT_EQ(InferError(einsum(Operands({a, TensorVar("c", {Int(4), Int(5)})}), "ij,jk->ik")),
            "einsum: subscript 'j' has different sizes 3 and 4; operand shapes are (2, 3), (4, 5)");
  EXPECT_EQ(InferError(einsum(Operands({a}), "ij,jk->ik")), "einsum: subscripts name 2 operands, got 1");
  EXPECT_EQ(InferError(einsum(Operands({a}), "ijk->i")),
            "einsum: operand 0 has rank 2, but its subscripts name 3 dims; operand shapes are (2, 3)");
  EXPECT_EQ(InferError(einsum(Operands({a}), "ij->q")), "einsum: output subscript 'q' does not appear in the inputs");
}

}  // namespace
}  // namespace rlx::op::testing
