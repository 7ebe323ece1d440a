// Legalized PrimFuncs compiled through LLVM (JitModule) and checked against
// the same naive references as the interpreter tests (tests/unit/op), at
// several values of the symbolic sizes. Lives here because only the codegen
// tests may link LLVM.
#include <gtest/gtest.h>

#include <cmath>

#include "../common/compiled_op.h"

namespace rlx::op_test {
namespace {

const DataType kF32 = DataType::Float32();
const DataType kF16 = DataType::Float(16);
const DataType kI32 = DataType::Int32();

std::string TensorType(const std::string& shape, DataType dtype) {
  return "R.Tensor(" + shape + ", dtype=\"" + dtype.ToString() + "\")";
}

struct UnaryCase {
  std::string call;
  std::function<double(double)> reference;
  double lo, hi;
};

double Sigmoid(double v) { return 1.0 / (1.0 + std::exp(-v)); }

TEST(LegalizeCodegenTest, UnaryOpsMatchReference) {
  const std::vector<UnaryCase> cases = {
      {"R.abs(x)", [](double v) { return std::fabs(v); }, -3, 3},
      {"R.exp(x)", [](double v) { return std::exp(v); }, -3, 3},
      {"R.log(x)", [](double v) { return std::log(v); }, 0.05, 6},
      {"R.rsqrt(x)", [](double v) { return 1.0 / std::sqrt(v); }, 0.05, 6},
      {"R.tanh(x)", [](double v) { return std::tanh(v); }, -4, 4},
      {"R.sigmoid(x)", Sigmoid, -6, 6},
      {"R.erf(x)", [](double v) { return std::erf(v); }, -3, 3},
      {"R.round(x)", [](double v) { return std::round(v); }, -3, 3},
      {"R.sign(x)", [](double v) { return v > 0 ? 1.0 : (v < 0 ? -1.0 : 0.0); }, -3, 3},
      {"R.clip(x, R.prim_value(T.float32(-1)), R.prim_value(T.float32(1.5)))",
       [](double v) { return std::min(std::max(v, -1.0), 1.5); }, -3, 3},
      {"R.nn.gelu(x)", [](double v) { return 0.5 * v * (1 + std::erf(v / std::sqrt(2.0))); }, -4, 4},
      {"R.nn.gelu_tanh(x)",
       [](double v) { return 0.5 * v * (1 + std::tanh(std::sqrt(2 / M_PI) * (v + 0.044715 * v * v * v))); }, -4, 4},
      {"R.nn.silu(x)", [](double v) { return v * Sigmoid(v); }, -6, 6},
  };
  for (DataType dtype : {kF32, kF16}) {
    double rel = dtype == kF32 ? 1e-5 : 4e-3, abs_tol = dtype == kF32 ? 1e-6 : 2e-3;
    for (const UnaryCase& c : cases) {
      SCOPED_TRACE(c.call + " " + dtype.ToString());
      CompiledOp op = LegalizeAndCompile({{"x", TensorType("(\"n\", 3)", dtype)}}, c.call);
      for (int64_t n : {1, 7, 33}) {
        tir::HostTensor x = RandomTensor(dtype, {n, 3}, static_cast<unsigned>(n), c.lo, c.hi);
        std::vector<double> expected;
        for (double v : x.ToDoubles()) expected.push_back(c.reference(v));
        ExpectTensorNear(RunCompiledAt(op, {x}, {{"n", n}})[0], {n, 3}, RoundedTo(dtype, {n, 3}, expected), rel, abs_tol,
                         c.call);
      }
    }
  }
}

TEST(LegalizeCodegenTest, BinaryBroadcastMatchesReference) {
  struct Case {
    std::string op;
    DataType dtype;
    std::function<double(double, double)> reference;
    double lo2, hi2;
  };
  const std::vector<Case> cases = {
      {"add", kF32, [](double a, double b) { return a + b; }, -3, 3},
      {"divide", kF32, [](double a, double b) { return a / b; }, 0.5, 3},
      {"power", kF32, [](double a, double b) { return std::pow(std::fabs(a), b); }, -2, 2},
      {"floor_divide", kI32, [](double a, double b) { return std::floor(a / b); }, -5, -1},
      {"floor_mod", kI32, [](double a, double b) { return a - std::floor(a / b) * b; }, 1, 5},
      {"maximum", kF16, [](double a, double b) { return std::max(a, b); }, -3, 3},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.op + " " + c.dtype.ToString());
    CompiledOp op = LegalizeAndCompile(
        {{"x1", TensorType("(\"n\", 1, 4)", c.dtype)}, {"x2", TensorType("(3, 1)", c.dtype)}}, "R." + c.op + "(x1, x2)");
    for (int64_t n : {1, 5, 12}) {
      double lo1 = c.op == "power" ? 0.1 : -20, hi1 = c.op == "power" ? 3 : 20;
      tir::HostTensor x1 = RandomTensor(c.dtype, {n, 1, 4}, static_cast<unsigned>(n), lo1, hi1);
      tir::HostTensor x2 = RandomTensor(c.dtype, {3, 1}, static_cast<unsigned>(n + 50), c.lo2, c.hi2);
      std::vector<int64_t> shape = {n, 3, 4};
      std::vector<double> expected;
      for (int64_t i = 0; i < n * 12; ++i) {
        std::vector<int64_t> index = Unflatten(i, shape);
        expected.push_back(c.reference(BroadcastAt(x1, index), BroadcastAt(x2, index)));
      }
      ExpectTensorNear(RunCompiledAt(op, {x1, x2}, {{"n", n}})[0], shape, RoundedTo(c.dtype, shape, expected),
                       c.dtype == kF16 ? 4e-3 : 1e-5, 1e-6, c.op);
    }
  }
}

// The bitwise operators on signed and unsigned integers of several widths
// (right_shift is arithmetic for signed, logical for unsigned types; the
// values stay in range so no shift overflows).
TEST(LegalizeCodegenTest, BitwiseBroadcastMatchesReference) {
  struct Case {
    std::string op;
    DataType dtype;
    std::function<int64_t(int64_t, int64_t)> reference;
    double lo1, hi1, lo2, hi2;
  };
  const DataType kU8 = DataType::UInt(8), kU32 = DataType::UInt(32), kI64 = DataType::Int64();
  const std::vector<Case> cases = {
      {"bitwise_and", kI32, [](int64_t a, int64_t b) { return a & b; }, -100, 100, -100, 100},
      {"bitwise_or", kU8, [](int64_t a, int64_t b) { return a | b; }, 0, 255, 0, 255},
      {"bitwise_xor", kI64, [](int64_t a, int64_t b) { return a ^ b; }, -1000, 1000, -1000, 1000},
      {"left_shift", kU32, [](int64_t a, int64_t b) { return a << b; }, 0, 1000, 0, 8},
      {"right_shift", kI32, [](int64_t a, int64_t b) { return a >> b; }, -1000, 1000, 0, 6},
      {"right_shift", kU8, [](int64_t a, int64_t b) { return a >> b; }, 0, 255, 0, 8},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.op + " " + c.dtype.ToString());
    CompiledOp op = LegalizeAndCompile(
        {{"x1", TensorType("(\"n\", 1, 4)", c.dtype)}, {"x2", TensorType("(3, 1)", c.dtype)}}, "R." + c.op + "(x1, x2)");
    for (int64_t n : {1, 5, 64}) {
      tir::HostTensor x1 = RandomTensor(c.dtype, {n, 1, 4}, static_cast<unsigned>(n), c.lo1, c.hi1);
      tir::HostTensor x2 = RandomTensor(c.dtype, {3, 1}, static_cast<unsigned>(n + 50), c.lo2, c.hi2);
      std::vector<int64_t> shape = {n, 3, 4};
      std::vector<double> expected;
      for (int64_t i = 0; i < n * 12; ++i) {
        std::vector<int64_t> index = Unflatten(i, shape);
        auto a = static_cast<int64_t>(BroadcastAt(x1, index)), b = static_cast<int64_t>(BroadcastAt(x2, index));
        expected.push_back(static_cast<double>(c.reference(a, b)));
      }
      ExpectTensorNear(RunCompiledAt(op, {x1, x2}, {{"n", n}})[0], shape, expected, 0, 0, c.op);
    }
  }
}

TEST(LegalizeCodegenTest, ReductionsAndMatmulMatchReference) {
  CompiledOp sum = LegalizeAndCompile({{"x", TensorType("(\"n\", 6)", kF32)}}, "R.sum(x, axis=[1], keepdims=True)");
  CompiledOp max = LegalizeAndCompile({{"x", TensorType("(\"n\", 6)", kF32)}}, "R.max(x, axis=[0])");
  CompiledOp mean = LegalizeAndCompile({{"x", TensorType("(\"n\", 6)", kF32)}}, "R.mean(x)");
  CompiledOp matmul = LegalizeAndCompile({{"a", TensorType("(2, \"n\", 5)", kF32)}, {"b", TensorType("(5, 3)", kF32)}},
                                    "R.matmul(a, b)");
  for (int64_t n : {1, 6, 19}) {
    tir::HostTensor x = RandomTensor(kF32, {n, 6}, static_cast<unsigned>(n));
    std::vector<double> row_sum(n, 0), col_max(6, -1e30);
    double total = 0;
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = 0; j < 6; ++j) {
        double v = x.At({i, j});
        row_sum[i] += v;
        col_max[j] = std::max(col_max[j], v);
        total += v;
      }
    }
    ExpectTensorNear(RunCompiledAt(sum, {x}, {{"n", n}})[0], {n, 1}, RoundedTo(kF32, {n, 1}, row_sum), 1e-5, 1e-5, "sum");
    ExpectTensorNear(RunCompiledAt(max, {x}, {{"n", n}})[0], {6}, col_max, 0, 0, "max");
    ExpectTensorNear(RunCompiledAt(mean, {x}, {{"n", n}})[0], {}, RoundedTo(kF32, {}, {total / (n * 6)}), 1e-5, 1e-5,
                     "mean");
    tir::HostTensor a = RandomTensor(kF32, {2, n, 5}, 3), b = RandomTensor(kF32, {5, 3}, 4);
    std::vector<double> expected;
    for (int64_t bi = 0; bi < 2; ++bi) {
      for (int64_t i = 0; i < n; ++i) {
        for (int64_t j = 0; j < 3; ++j) {
          double acc = 0;
          for (int64_t k = 0; k < 5; ++k) acc += a.At({bi, i, k}) * b.At({k, j});
          expected.push_back(acc);
        }
      }
    }
    ExpectTensorNear(RunCompiledAt(matmul, {a, b}, {{"n", n}})[0], {2, n, 3}, RoundedTo(kF32, {2, n, 3}, expected), 1e-5,
                     1e-5, "matmul");
  }
}

TEST(LegalizeCodegenTest, TirVarsAndCreation) {
  CompiledOp arange = LegalizeAndCompile({{"s", "R.Shape([\"n\"])"}},
                                    "R.arange(R.prim_value(1), R.prim_value(n * 2), R.prim_value(2))", {"n"});
  CompiledOp tril = LegalizeAndCompile({{"x", TensorType("(\"n\", \"n\")", kF32)}}, "R.tril(x, R.prim_value(0))");
  for (int64_t n : {1, 4, 9}) {
    std::vector<double> expected;
    for (int64_t v = 1; v < 2 * n; v += 2) expected.push_back(static_cast<double>(v));
    ExpectTensorNear(RunCompiledAt(arange, {}, {{"n", n}})[0], {n}, expected, 0, 0, "arange");
    tir::HostTensor x = RandomTensor(kF32, {n, n}, 8);
    std::vector<double> lower;
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = 0; j < n; ++j) lower.push_back(j <= i ? x.At({i, j}) : 0.0);
    }
    ExpectTensorNear(RunCompiledAt(tril, {x}, {{"n", n}})[0], {n, n}, lower, 0, 0, "tril");
  }
}

}  // namespace
}  // namespace rlx::op_test
