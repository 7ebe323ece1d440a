// Numerical tests of the unary, binary and `where` legalizations: each op is
// legalized for a symbolic and a static shape, and the generated PrimFunc
// runs in the TIR interpreter at several sizes (1, odd, larger) against a
// naive C++ reference.
#include <gtest/gtest.h>

#include <cmath>

#include "legalize_test_util.h"

namespace rlx::op_test {
namespace {

const DataType kF32 = DataType::Float32();
const DataType kF16 = DataType::Float(16);
const DataType kI32 = DataType::Int32();
const DataType kBool = DataType::Bool();

std::string TensorType(const std::string& shape, DataType dtype) {
  return "R.Tensor(" + shape + ", dtype=\"" + dtype.ToString() + "\")";
}

double Sigmoid(double v) { return 1.0 / (1.0 + std::exp(-v)); }

struct UnaryCase {
  std::string call;  // with `x` as the operand
  std::function<double(double)> reference;
  double lo, hi;  // input range
};

const std::vector<UnaryCase>& FloatUnaryCases() {
  static const std::vector<UnaryCase> cases = {
      {"R.abs(x)", [](double v) { return std::fabs(v); }, -3, 3},
      {"R.negative(x)", [](double v) { return -v; }, -3, 3},
      {"R.exp(x)", [](double v) { return std::exp(v); }, -3, 3},
      {"R.log(x)", [](double v) { return std::log(v); }, 0.05, 6},
      {"R.sqrt(x)", [](double v) { return std::sqrt(v); }, 0, 6},
      {"R.rsqrt(x)", [](double v) { return 1.0 / std::sqrt(v); }, 0.05, 6},
      {"R.sin(x)", [](double v) { return std::sin(v); }, -4, 4},
      {"R.cos(x)", [](double v) { return std::cos(v); }, -4, 4},
      {"R.tanh(x)", [](double v) { return std::tanh(v); }, -4, 4},
      {"R.sigmoid(x)", Sigmoid, -6, 6},
      {"R.erf(x)", [](double v) { return std::erf(v); }, -3, 3},
      {"R.floor(x)", [](double v) { return std::floor(v); }, -3, 3},
      {"R.ceil(x)", [](double v) { return std::ceil(v); }, -3, 3},
      {"R.round(x)", [](double v) { return std::round(v); }, -3, 3},
      {"R.sign(x)", [](double v) { return v > 0 ? 1.0 : (v < 0 ? -1.0 : 0.0); }, -3, 3},
      {"R.square(x)", [](double v) { return v * v; }, -3, 3},
      {"R.clip(x, R.prim_value(T.float32(-1)), R.prim_value(T.float32(1.5)))",
       [](double v) { return std::min(std::max(v, -1.0), 1.5); }, -3, 3},
      {"R.nn.relu(x)", [](double v) { return std::max(v, 0.0); }, -3, 3},
      {"R.nn.gelu(x)", [](double v) { return 0.5 * v * (1 + std::erf(v / std::sqrt(2.0))); }, -4, 4},
      {"R.nn.gelu_tanh(x)",
       [](double v) { return 0.5 * v * (1 + std::tanh(std::sqrt(2 / M_PI) * (v + 0.044715 * v * v * v))); }, -4, 4},
      {"R.nn.silu(x)", [](double v) { return v * Sigmoid(v); }, -6, 6},
  };
  return cases;
}

void CheckUnary(const UnaryCase& c, DataType dtype, double rel, double abs_tol) {
  SCOPED_TRACE(c.call + " " + dtype.ToString());
  LegalizedOp symbolic = LegalizeCall({{"x", TensorType("(\"n\", 3)", dtype)}}, c.call);
  LegalizedOp fixed = LegalizeCall({{"x", TensorType("(2, 5)", dtype)}}, c.call);
  auto check = [&](const LegalizedOp& op, std::vector<int64_t> shape, const std::map<std::string, int64_t>& sizes) {
    tir::HostTensor x = RandomTensor(dtype, shape, static_cast<unsigned>(shape[0] * 7 + 1), c.lo, c.hi);
    std::vector<double> expected;
    for (double v : x.ToDoubles()) expected.push_back(c.reference(v));
    tir::HostTensor y = RunLegalized(op, {x}, sizes);
    ExpectTensorNear(y, shape, RoundedTo(dtype, shape, expected), rel, abs_tol, c.call);
  };
  for (int64_t n : {1, 7, 33}) check(symbolic, {n, 3}, {{"n", n}});
  check(fixed, {2, 5}, {});
}

TEST(LegalizeUnaryTest, Float32MatchesReference) {
  for (const UnaryCase& c : FloatUnaryCases()) CheckUnary(c, kF32, 1e-5, 1e-6);
}

TEST(LegalizeUnaryTest, Float16MatchesReference) {
  for (const UnaryCase& c : FloatUnaryCases()) CheckUnary(c, kF16, 4e-3, 2e-3);
}

TEST(LegalizeUnaryTest, BFloat16MatchesReference) {
  for (const UnaryCase& c : FloatUnaryCases()) CheckUnary(c, DataType(DataType::kBFloat, 16), 2e-2, 1e-2);
}

TEST(LegalizeUnaryTest, RoundIsHalfAwayFromZero) {
  LegalizedOp op = LegalizeCall({{"x", TensorType("(6,)", kF32)}}, "R.round(x)");
  tir::HostTensor x = tir::HostTensor::FromDoubles(kF32, {6}, {-2.5, -1.5, -0.5, 0.5, 1.5, 2.5});
  ExpectTensorNear(RunLegalized(op, {x}), {6}, {-3, -2, -1, 1, 2, 3}, 0, 0, "round");
}

TEST(LegalizeUnaryTest, IntegerOps) {
  const std::vector<UnaryCase> cases = {
      {"R.abs(x)", [](double v) { return std::fabs(v); }, -9, 9},
      {"R.negative(x)", [](double v) { return -v; }, -9, 9},
      {"R.sign(x)", [](double v) { return v > 0 ? 1.0 : (v < 0 ? -1.0 : 0.0); }, -3, 3},
      {"R.square(x)", [](double v) { return v * v; }, -9, 9},
      {"R.floor(x)", [](double v) { return v; }, -9, 9},
      {"R.round(x)", [](double v) { return v; }, -9, 9},
      {"R.nn.relu(x)", [](double v) { return std::max(v, 0.0); }, -9, 9},
      {"R.clip(x, R.prim_value(-2), R.prim_value(3))", [](double v) { return std::min(std::max(v, -2.0), 3.0); },
       -9, 9},
  };
  for (const UnaryCase& c : cases) CheckUnary(c, kI32, 0, 0);
}

TEST(LegalizeUnaryTest, LogicalNotOnBool) {
  LegalizedOp op = LegalizeCall({{"x", TensorType("(\"n\",)", kBool)}}, "R.logical_not(x)");
  for (int64_t n : {1, 5, 16}) {
    tir::HostTensor x = RandomTensor(kBool, {n}, static_cast<unsigned>(n));
    std::vector<double> expected;
    for (double v : x.ToDoubles()) expected.push_back(v == 0 ? 1 : 0);
    ExpectTensorNear(RunLegalized(op, {x}, {{"n", n}}), {n}, expected, 0, 0, "logical_not");
  }
}

// ---------------------------------------------------------------------------
// Binary operators with broadcasting: x1 (n, 1, 4) and x2 (3, 1) -> (n, 3, 4).

struct BinaryCase {
  std::string op;
  std::function<double(double, double)> reference;
  DataType dtype;
  double lo1, hi1, lo2, hi2;
  bool bool_result = false;
};

double FloorDiv(double a, double b) { return std::floor(a / b); }

const std::vector<BinaryCase>& BinaryCases() {
  static const std::vector<BinaryCase> cases = {
      {"add", [](double a, double b) { return a + b; }, kF32, -3, 3, -3, 3},
      {"subtract", [](double a, double b) { return a - b; }, kF32, -3, 3, -3, 3},
      {"multiply", [](double a, double b) { return a * b; }, kF32, -3, 3, -3, 3},
      {"divide", [](double a, double b) { return a / b; }, kF32, -3, 3, 0.5, 3},
      {"floor_divide", FloorDiv, kF32, -6, 6, 0.5, 3},
      {"floor_mod", [](double a, double b) { return a - std::floor(a / b) * b; }, kF32, -6, 6, 0.5, 3},
      {"power", [](double a, double b) { return std::pow(a, b); }, kF32, 0.1, 3, -2, 2},
      {"maximum", [](double a, double b) { return std::max(a, b); }, kF32, -3, 3, -3, 3},
      {"minimum", [](double a, double b) { return std::min(a, b); }, kF32, -3, 3, -3, 3},
      {"add", [](double a, double b) { return a + b; }, kI32, -50, 50, -50, 50},
      {"divide", [](double a, double b) { return std::trunc(a / b); }, kI32, -20, 20, 1, 5},
      {"floor_divide", FloorDiv, kI32, -20, 20, 1, 5},
      {"floor_mod", [](double a, double b) { return a - std::floor(a / b) * b; }, kI32, -20, 20, 1, 5},
      {"floor_divide", FloorDiv, kI32, -20, 20, -5, -1},
      {"floor_mod", [](double a, double b) { return a - std::floor(a / b) * b; }, kI32, -20, 20, -5, -1},
      {"power", [](double a, double b) { return std::pow(a, b); }, kI32, -3, 4, 0, 4},
      {"equal", [](double a, double b) { return a == b ? 1 : 0; }, kF32, -2, 2, -2, 2, true},
      {"not_equal", [](double a, double b) { return a != b ? 1 : 0; }, kF32, -2, 2, -2, 2, true},
      {"less", [](double a, double b) { return a < b ? 1 : 0; }, kI32, -2, 2, -2, 2, true},
      {"less_equal", [](double a, double b) { return a <= b ? 1 : 0; }, kI32, -2, 2, -2, 2, true},
      {"greater", [](double a, double b) { return a > b ? 1 : 0; }, kF32, -2, 2, -2, 2, true},
      {"greater_equal", [](double a, double b) { return a >= b ? 1 : 0; }, kF32, -2, 2, -2, 2, true},
      {"logical_and", [](double a, double b) { return a != 0 && b != 0 ? 1 : 0; }, kBool, 0, 1, 0, 1},
      {"logical_or", [](double a, double b) { return a != 0 || b != 0 ? 1 : 0; }, kBool, 0, 1, 0, 1},
      {"add", [](double a, double b) { return a + b; }, kF16, -3, 3, -3, 3},
      {"subtract", [](double a, double b) { return a - b; }, DataType(DataType::kBFloat, 16), -3, 3, -3, 3},
      {"multiply", [](double a, double b) { return a * b; }, kF16, -3, 3, -3, 3},
  };
  return cases;
}

// Integer-valued inputs for comparisons so that equal values occur.
tir::HostTensor BinaryInput(const BinaryCase& c, DataType dtype, std::vector<int64_t> shape, unsigned seed,
                            double lo, double hi) {
  if (c.bool_result && dtype.is_floating()) {
    tir::HostTensor t = RandomTensor(DataType::Int32(), shape, seed, lo, hi);
    return tir::HostTensor::FromDoubles(dtype, shape, t.ToDoubles());
  }
  return RandomTensor(dtype, std::move(shape), seed, lo, hi);
}

TEST(LegalizeBinaryTest, BroadcastMatchesReference) {
  for (const BinaryCase& c : BinaryCases()) {
    SCOPED_TRACE(c.op + " " + c.dtype.ToString());
    std::string call = "R." + c.op + "(x1, x2)";
    LegalizedOp op = LegalizeCall(
        {{"x1", TensorType("(\"n\", 1, 4)", c.dtype)}, {"x2", TensorType("(3, 1)", c.dtype)}}, call);
    DataType out_dtype = c.bool_result ? kBool : c.dtype;
    double rel = c.dtype == kF16 ? 4e-3 : (c.dtype.is_bfloat16() ? 2e-2 : 1e-5);
    for (int64_t n : {1, 5, 12}) {
      tir::HostTensor x1 = BinaryInput(c, c.dtype, {n, 1, 4}, static_cast<unsigned>(n), c.lo1, c.hi1);
      tir::HostTensor x2 = BinaryInput(c, c.dtype, {3, 1}, static_cast<unsigned>(n + 100), c.lo2, c.hi2);
      std::vector<int64_t> shape = {n, 3, 4};
      std::vector<double> expected;
      for (int64_t i = 0; i < n * 12; ++i) {
        std::vector<int64_t> index = Unflatten(i, shape);
        expected.push_back(c.reference(BroadcastAt(x1, index), BroadcastAt(x2, index)));
      }
      ExpectTensorNear(RunLegalized(op, {x1, x2}, {{"n", n}}), shape, RoundedTo(out_dtype, shape, expected), rel,
                       1e-6, call);
    }
  }
}

TEST(LegalizeBinaryTest, SameSymbolicShapes) {
  LegalizedOp op = LegalizeCall(
      {{"x1", TensorType("(\"n\", \"m\")", kF32)}, {"x2", TensorType("(\"n\", \"m\")", kF32)}}, "R.subtract(x1, x2)");
  for (auto [n, m] : std::vector<std::pair<int64_t, int64_t>>{{1, 1}, {3, 7}, {16, 9}}) {
    tir::HostTensor x1 = RandomTensor(kF32, {n, m}, 1), x2 = RandomTensor(kF32, {n, m}, 2);
    std::vector<double> expected;
    for (int64_t i = 0; i < n * m; ++i) expected.push_back(x1.GetFloat(i) - x2.GetFloat(i));
    ExpectTensorNear(RunLegalized(op, {x1, x2}, {{"n", n}, {"m", m}}), {n, m}, RoundedTo(kF32, {n, m}, expected), 0,
                     0, "subtract");
  }
}

TEST(LegalizeBinaryTest, ScalarConstantOperandIsInlined) {
  LegalizedOp op = LegalizeCall({{"x", TensorType("(\"n\", 2)", kF32)}}, "R.subtract(R.const(2.5, \"float32\"), x)");
  ASSERT_EQ(op.func->params.size(), 2u) << "the constant should not be a buffer parameter";
  for (int64_t n : {1, 6}) {
    tir::HostTensor x = RandomTensor(kF32, {n, 2}, 8);
    std::vector<double> expected;
    for (double v : x.ToDoubles()) expected.push_back(2.5 - v);
    ExpectTensorNear(RunLegalized(op, {x}, {{"n", n}}), {n, 2}, RoundedTo(kF32, {n, 2}, expected), 0, 0,
                     "subtract");
  }
}

TEST(LegalizeBinaryTest, WhereBroadcastsThreeOperands) {
  LegalizedOp op = LegalizeCall({{"c", TensorType("(\"n\", 1)", kBool)},
                                 {"x1", TensorType("(\"n\", 4)", kF32)},
                                 {"x2", TensorType("(4,)", kF32)}},
                                "R.where(c, x1, x2)");
  for (int64_t n : {1, 3, 10}) {
    tir::HostTensor c = RandomTensor(kBool, {n, 1}, 3), x1 = RandomTensor(kF32, {n, 4}, 4),
                    x2 = RandomTensor(kF32, {4}, 5);
    ExpectTensorEq(RunLegalized(op, {c, x1, x2}, {{"n", n}}), WhereReference(c, x1, x2), "where");
  }
}

TEST(LegalizeBinaryTest, AstypeAcrossDtypes) {
  const DataType kI64 = DataType::Int64(), kBF16 = DataType(DataType::kBFloat, 16);
  const std::vector<std::pair<DataType, DataType>> casts = {
      {kF32, kI32}, {kF32, kF16}, {kF16, kF32}, {kI32, kF32}, {kI64, kI32}, {kF32, kBool},
      {kBool, kF32}, {kI32, kBool}, {kF32, kBF16}, {kBF16, kF16}, {kF16, kI64}};
  for (auto [from, to] : casts) {
    std::string what = "astype " + from.ToString() + " -> " + to.ToString();
    LegalizedOp op = LegalizeCall({{"x", TensorType("(\"n\", 3)", from)}}, "R.astype(x, dtype=\"" + to.ToString() + "\")");
    for (int64_t n : {1, 5, 16}) {
      tir::HostTensor x = RandomTensor(from, {n, 3}, static_cast<unsigned>(n), -100, 100);
      ExpectTensorEq(RunLegalized(op, {x}, {{"n", n}}), AstypeReference(x, to), what);
    }
  }
}

}  // namespace
}  // namespace rlx::op_test
