// Numerical tests of the reduction, matmul, astype and creation
// legalizations, run with the TIR interpreter at several values of the
// symbolic sizes against naive C++ references.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "legalize_test_util.h"

namespace rlx::op_test {
namespace {

const DataType kF32 = DataType::Float32();
const DataType kF16 = DataType::Float(16);
const DataType kI32 = DataType::Int32();
const DataType kI64 = DataType::Int64();

std::string TensorType(const std::string& shape, DataType dtype) {
  return "R.Tensor(" + shape + ", dtype=\"" + dtype.ToString() + "\")";
}

// ---------------------------------------------------------------------------
// Reductions of x (n, 4, 5).

enum class Reduction { kSum, kMean, kMax, kMin, kProd };

struct ReduceCase {
  std::string attrs;               // ", axis=[1], keepdims=True"
  std::vector<int> axes;           // reduced axes (normalized); empty: all
  bool keepdims;
};

std::vector<double> ReferenceReduce(const tir::HostTensor& x, Reduction kind, const ReduceCase& c,
                                    std::vector<int64_t>* out_shape) {
  std::vector<bool> reduced(x.shape.size(), c.axes.empty());
  for (int a : c.axes) reduced[a] = true;
  out_shape->clear();
  std::vector<int64_t> kept_shape;
  for (size_t d = 0; d < x.shape.size(); ++d) {
    if (!reduced[d]) {
      out_shape->push_back(x.shape[d]);
      kept_shape.push_back(x.shape[d]);
    } else if (c.keepdims) {
      out_shape->push_back(1);
    }
  }
  int64_t out_size = 1;
  for (int64_t d : kept_shape) out_size *= d;
  std::vector<double> acc(out_size), count(out_size, 0);
  double init = kind == Reduction::kMax   ? -std::numeric_limits<double>::infinity()
                : kind == Reduction::kMin ? std::numeric_limits<double>::infinity()
                : kind == Reduction::kProd ? 1.0
                                           : 0.0;
  std::fill(acc.begin(), acc.end(), init);
  for (int64_t i = 0; i < x.num_elements(); ++i) {
    std::vector<int64_t> index = Unflatten(i, x.shape);
    int64_t flat = 0;
    for (size_t d = 0; d < x.shape.size(); ++d) {
      if (!reduced[d]) flat = flat * x.shape[d] + index[d];
    }
    double v = x.GetFloat(i);
    switch (kind) {
      case Reduction::kSum:
      case Reduction::kMean: acc[flat] += v; break;
      case Reduction::kMax: acc[flat] = std::max(acc[flat], v); break;
      case Reduction::kMin: acc[flat] = std::min(acc[flat], v); break;
      case Reduction::kProd: acc[flat] *= v; break;
    }
    count[flat] += 1;
  }
  if (kind == Reduction::kMean) {
    for (int64_t i = 0; i < out_size; ++i) acc[i] /= count[i];
  }
  return acc;
}

TEST(LegalizeReduceTest, AxesAndKeepdimsMatchReference) {
  const std::vector<std::pair<std::string, Reduction>> ops = {
      {"sum", Reduction::kSum}, {"mean", Reduction::kMean}, {"max", Reduction::kMax},
      {"min", Reduction::kMin}, {"prod", Reduction::kProd}};
  const std::vector<ReduceCase> cases = {
      {"", {}, false},
      {", axis=[1]", {1}, false},
      {", axis=[-1, 0], keepdims=True", {0, 2}, true},
      {", axis=[0], keepdims=False", {0}, false},
      {", keepdims=True", {}, true},
  };
  for (const auto& [name, kind] : ops) {
    for (const ReduceCase& c : cases) {
      std::string call = "R." + name + "(x" + c.attrs + ")";
      SCOPED_TRACE(call);
      LegalizedOp op = LegalizeCall({{"x", TensorType("(\"n\", 4, 5)", kF32)}}, call);
      for (int64_t n : {1, 3, 8}) {
        double lo = kind == Reduction::kProd ? 0.7 : -2, hi = kind == Reduction::kProd ? 1.3 : 2;
        tir::HostTensor x = RandomTensor(kF32, {n, 4, 5}, static_cast<unsigned>(n), lo, hi);
        std::vector<int64_t> shape;
        std::vector<double> expected = ReferenceReduce(x, kind, c, &shape);
        ExpectTensorNear(RunLegalized(op, {x}, {{"n", n}}), shape, RoundedTo(kF32, shape, expected), 1e-5, 1e-5, call);
      }
    }
  }
}

TEST(LegalizeReduceTest, IntegerSumAndHalfMean) {
  LegalizedOp sum = LegalizeCall({{"x", TensorType("(\"n\", 6)", kI32)}}, "R.sum(x, axis=[1])");
  LegalizedOp mean = LegalizeCall({{"x", TensorType("(\"n\", 6)", kF16)}}, "R.mean(x, axis=[1])");
  for (int64_t n : {1, 4}) {
    tir::HostTensor xi = RandomTensor(kI32, {n, 6}, 9, -100, 100);
    tir::HostTensor xh = RandomTensor(kF16, {n, 6}, 10);
    std::vector<int64_t> shape;
    ExpectTensorNear(RunLegalized(sum, {xi}, {{"n", n}}), {n},
                     ReferenceReduce(xi, Reduction::kSum, {"", {1}, false}, &shape), 0, 0, "int sum");
    std::vector<double> expected = ReferenceReduce(xh, Reduction::kMean, {"", {1}, false}, &shape);
    ExpectTensorNear(RunLegalized(mean, {xh}, {{"n", n}}), {n}, RoundedTo(kF16, {n}, expected), 1e-3, 1e-3,
                     "half mean");
  }
}

// ---------------------------------------------------------------------------
// matmul

// numpy matmul of a (.., n, k) and b (.., k, m) with 1-D operands promoted.
std::vector<double> ReferenceMatmul(const tir::HostTensor& a, const tir::HostTensor& b,
                                    const std::vector<int64_t>& out_shape) {
  std::vector<int64_t> as = a.shape, bs = b.shape;
  bool a_vec = as.size() == 1, b_vec = bs.size() == 1;
  if (a_vec) as.insert(as.begin(), 1);
  if (b_vec) bs.push_back(1);
  int64_t k = as.back();
  std::vector<int64_t> full_shape(out_shape.begin(), out_shape.end());
  if (a_vec) full_shape.insert(full_shape.end() - (b_vec ? 0 : 1), 1);
  if (b_vec) full_shape.push_back(1);
  int64_t total = 1;
  for (int64_t d : full_shape) total *= d;
  std::vector<double> out;
  for (int64_t flat = 0; flat < total; ++flat) {
    std::vector<int64_t> idx = Unflatten(flat, full_shape);
    size_t nb = full_shape.size() - 2;
    auto element = [&](const tir::HostTensor& t, const std::vector<int64_t>& shape, int64_t r, int64_t c) {
      std::vector<int64_t> index;
      size_t offset = nb - (shape.size() - 2);
      for (size_t d = 0; d + 2 < shape.size(); ++d) index.push_back(shape[d] == 1 ? 0 : idx[offset + d]);
      index.push_back(r);
      index.push_back(c);
      std::vector<int64_t> real_index;  // drop the promoted dimension
      if (&t == &a && a_vec) real_index = {index.back()};
      else if (&t == &b && b_vec) real_index = {index[index.size() - 2]};
      else real_index = index;
      return t.At(real_index);
    };
    double sum = 0;
    for (int64_t kk = 0; kk < k; ++kk) sum += element(a, as, idx[nb], kk) * element(b, bs, kk, idx[nb + 1]);
    out.push_back(sum);
  }
  return out;
}

struct MatmulCase {
  std::string a_type, b_type;
  std::function<std::vector<int64_t>(int64_t)> a_shape, b_shape, out_shape;
};

TEST(LegalizeMatmulTest, ShapesMatchReference) {
  const std::vector<MatmulCase> cases = {
      {"(\"n\", 4)", "(4, 3)", [](int64_t n) { return std::vector<int64_t>{n, 4}; },
       [](int64_t) { return std::vector<int64_t>{4, 3}; }, [](int64_t n) { return std::vector<int64_t>{n, 3}; }},
      {"(2, 1, \"n\", 5)", "(3, 5, 2)", [](int64_t n) { return std::vector<int64_t>{2, 1, n, 5}; },
       [](int64_t) { return std::vector<int64_t>{3, 5, 2}; },
       [](int64_t n) { return std::vector<int64_t>{2, 3, n, 2}; }},
      {"(\"n\",)", "(\"n\", 3)", [](int64_t n) { return std::vector<int64_t>{n}; },
       [](int64_t n) { return std::vector<int64_t>{n, 3}; }, [](int64_t) { return std::vector<int64_t>{3}; }},
      {"(2, \"n\", 6)", "(6,)", [](int64_t n) { return std::vector<int64_t>{2, n, 6}; },
       [](int64_t) { return std::vector<int64_t>{6}; }, [](int64_t n) { return std::vector<int64_t>{2, n}; }},
      {"(\"n\",)", "(\"n\",)", [](int64_t n) { return std::vector<int64_t>{n}; },
       [](int64_t n) { return std::vector<int64_t>{n}; }, [](int64_t) { return std::vector<int64_t>{}; }},
  };
  for (const MatmulCase& c : cases) {
    SCOPED_TRACE(c.a_type + " @ " + c.b_type);
    LegalizedOp op = LegalizeCall({{"a", TensorType(c.a_type, kF32)}, {"b", TensorType(c.b_type, kF32)}},
                                  "R.matmul(a, b)");
    for (int64_t n : {1, 3, 17}) {
      tir::HostTensor a = RandomTensor(kF32, c.a_shape(n), 11), b = RandomTensor(kF32, c.b_shape(n), 12);
      std::vector<int64_t> shape = c.out_shape(n);
      ExpectTensorNear(RunLegalized(op, {a, b}, {{"n", n}}), shape,
                       RoundedTo(kF32, shape, ReferenceMatmul(a, b, shape)), 1e-5, 1e-5, "matmul");
    }
  }
}

TEST(LegalizeMatmulTest, OutDtypeCastsOperands) {
  LegalizedOp op = LegalizeCall({{"a", TensorType("(\"n\", 8)", kF16)}, {"b", TensorType("(8, 2)", kF16)}},
                                "R.matmul(a, b, out_dtype=\"float32\")");
  for (int64_t n : {1, 5}) {
    tir::HostTensor a = RandomTensor(kF16, {n, 8}, 13), b = RandomTensor(kF16, {8, 2}, 14);
    ExpectTensorNear(RunLegalized(op, {a, b}, {{"n", n}}), {n, 2}, ReferenceMatmul(a, b, {n, 2}), 1e-6, 1e-6,
                     "matmul f16->f32");
  }
}

// ---------------------------------------------------------------------------
// astype and creation

TEST(LegalizeCreateTest, Astype) {
  LegalizedOp op = LegalizeCall({{"x", TensorType("(\"n\",)", kF32)}}, "R.astype(x, dtype=\"int32\")");
  tir::HostTensor x = tir::HostTensor::FromDoubles(kF32, {4}, {-2.7, -0.5, 0.5, 3.9});
  ExpectTensorNear(RunLegalized(op, {x}, {{"n", 4}}), {4}, {-2, 0, 0, 3}, 0, 0, "astype");
  // Casting to bool tests for nonzero (as TVM's cast lowers), 0.5 included.
  LegalizedOp to_bool = LegalizeCall({{"x", TensorType("(\"n\",)", kF32)}}, "R.astype(x, dtype=\"bool\")");
  tir::HostTensor y = tir::HostTensor::FromDoubles(kF32, {4}, {0.0, 0.5, -2.0, 0.0});
  ExpectTensorNear(RunLegalized(to_bool, {y}, {{"n", 4}}), {4}, {0, 1, 1, 0}, 0, 0, "astype bool");
  LegalizedOp to_half = LegalizeCall({{"x", TensorType("(\"n\",)", kI32)}}, "R.astype(x, dtype=\"float16\")");
  tir::HostTensor z = tir::HostTensor::FromDoubles(kI32, {3}, {-7, 0, 2049});
  ExpectTensorNear(RunLegalized(to_half, {z}, {{"n", 3}}), {3}, {-7, 0, 2048}, 0, 0, "astype float16");
}

TEST(LegalizeCreateTest, FullZerosOnes) {
  LegalizedOp full = LegalizeCall({{"v", TensorType("()", kI32)}, {"s", "R.Shape([\"n\", 3])"}},
                                  "R.full(R.shape([n, 3]), v, dtype=\"float32\")", {"n"});
  LegalizedOp zeros = LegalizeCall({{"s", "R.Shape([\"n\", 3])"}}, "R.zeros(R.shape([n, 3]), dtype=\"float32\")", {"n"});
  LegalizedOp ones_like = LegalizeCall({{"x", TensorType("(\"n\", 3)", kI32)}}, "R.ones_like(x)");
  LegalizedOp full_like =
      LegalizeCall({{"x", TensorType("(\"n\", 3)", kF32)}, {"v", TensorType("()", kF32)}}, "R.full_like(x, v)");
  for (int64_t n : {1, 4}) {
    std::vector<int64_t> shape = {n, 3};
    tir::HostTensor v = tir::HostTensor::FromDoubles(kI32, {}, {7});
    ExpectTensorNear(RunLegalized(full, {v}, {{"n", n}}), shape, std::vector<double>(n * 3, 7), 0, 0, "full");
    ExpectTensorNear(RunLegalized(zeros, {}, {{"n", n}}), shape, std::vector<double>(n * 3, 0), 0, 0, "zeros");
    ExpectTensorNear(RunLegalized(ones_like, {}, {{"n", n}}), shape, std::vector<double>(n * 3, 1), 0, 0,
                     "ones_like");
    tir::HostTensor vf = tir::HostTensor::FromDoubles(kF32, {}, {-1.5});
    ExpectTensorNear(RunLegalized(full_like, {vf}, {{"n", n}}), shape, std::vector<double>(n * 3, -1.5), 0, 0,
                     "full_like");
  }
}

TEST(LegalizeCreateTest, Arange) {
  LegalizedOp ints = LegalizeCall({{"s", "R.Shape([\"n\"])"}}, "R.arange(R.prim_value(2), R.prim_value(n), R.prim_value(3))",
                                  {"n"});
  for (int64_t n : {3, 4, 11, 20}) {
    std::vector<double> expected;
    for (int64_t v = 2; v < n; v += 3) expected.push_back(static_cast<double>(v));
    ExpectTensorNear(RunLegalized(ints, {}, {{"n", n}}), {static_cast<int64_t>(expected.size())}, expected, 0, 0,
                     "arange int");
  }
  LegalizedOp floats = LegalizeCall({}, "R.arange(R.prim_value(T.float32(0.5)), R.prim_value(T.float32(3)), "
                                        "R.prim_value(T.float32(0.75)), dtype=\"float32\")");
  ExpectTensorNear(RunLegalized(floats, {}), {4}, {0.5, 1.25, 2.0, 2.75}, 0, 0, "arange float");
}

TEST(LegalizeCreateTest, TrilTriu) {
  for (int64_t k : {-1, 0, 2}) {
    for (bool upper : {false, true}) {
      std::string call = std::string(upper ? "R.triu" : "R.tril") + "(x, R.prim_value(" + std::to_string(k) + "))";
      SCOPED_TRACE(call);
      LegalizedOp op = LegalizeCall({{"x", TensorType("(2, \"n\", \"m\")", kF32)}}, call);
      for (auto [n, m] : std::vector<std::pair<int64_t, int64_t>>{{1, 1}, {3, 5}, {6, 4}}) {
        std::vector<int64_t> shape = {2, n, m};
        tir::HostTensor x = RandomTensor(kF32, shape, 21);
        std::vector<double> expected;
        for (int64_t i = 0; i < x.num_elements(); ++i) {
          std::vector<int64_t> idx = Unflatten(i, shape);
          bool keep = upper ? idx[2] - idx[1] >= k : idx[2] - idx[1] <= k;
          expected.push_back(keep ? x.GetFloat(i) : 0.0);
        }
        ExpectTensorNear(RunLegalized(op, {x}, {{"n", n}, {"m", m}}), shape, expected, 0, 0, call);
      }
    }
  }
}

}  // namespace
}  // namespace rlx::op_test
