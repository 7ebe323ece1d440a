// Accuracy of the inline float32 exp, tanh and erf of the LLVM codegen
// (src/codegen/llvm/codegen_llvm_fast_math.cc), scalar and vectorized, over
// a dense sweep of float32 bit patterns and the special values, against
// the double libm function rounded to float32. Bounds: exp 1 ulp, tanh 2 ulp,
// erf 1 ulp (whole range and a dense sweep of [-6, 6]). A legalized
// R.nn.gelu (which calls erf) must compile to vector code without erff.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "../op/legalize_test_util.h"
#include "jit_test_util.h"

namespace rlx::codegen_test {
namespace {

using runtime::NDArray;
using ::testing::HasSubstr;

// Y[i] = op(X[i]) over float32, as a scalar loop or blocks of 8 vector lanes.
std::vector<float> RunElementwise(const std::string& op, const std::vector<float>& xs, bool vectorized,
                                  std::string* llvm_ir = nullptr) {
  Var n = MakeVar("n"), io = MakeVar("io"), ii = MakeVar("ii");
  Buffer x = ir::MakeBuffer("X", {n, MakeInt(8)}, DataType::Float32());
  Buffer y = ir::MakeBuffer("Y", {n, MakeInt(8)}, DataType::Float32());
  Stmt body = Store(y, ir::call(DataType::Float32(), op, {Load(x, {io, ii})}), {io, ii});
  PrimFunc func =
      Func({x, y}, Loop(io, n, Loop(ii, MakeInt(8), body, vectorized ? ForKind::kVectorized : ForKind::kSerial)));
  auto jit = codegen::JitModule::Compile({{"kernel", func}});
  if (llvm_ir != nullptr) *llvm_ir = jit->GetLLVMIR();
  runtime::Module module = Compile(func);
  int64_t blocks = static_cast<int64_t>(xs.size() / 8);
  NDArray out = NDArray::Empty({blocks, 8}, runtime::DataType::Float(32));
  module.GetRequiredFunction("kernel")(NDArray::FromVector({blocks, 8}, xs), out);
  return out.ToVector<float>();
}

int64_t Ulps(float a, float b) {
  auto ordered = [](float f) {
    int32_t bits = std::bit_cast<int32_t>(f);
    return bits < 0 ? static_cast<int64_t>(INT32_MIN) - bits : static_cast<int64_t>(bits);
  };
  return std::llabs(ordered(a) - ordered(b));
}

// Every 4099th float32 bit pattern (both signs, all exponents) that is not NaN.
std::vector<float> Sweep() {
  std::vector<float> xs;
  for (uint64_t bits = 0; bits <= 0xffffffffull; bits += 4099) {
    float v = std::bit_cast<float>(static_cast<uint32_t>(bits));
    if (!std::isnan(v)) xs.push_back(v);
  }
  while (xs.size() % 8 != 0) xs.push_back(0.0f);
  return xs;
}

// The largest error in ulp of `op` over the sweep, scalar and vectorized.
void ExpectAccurateOverTheSweep(const std::string& op, double (*reference)(double), int64_t max_ulp,
                                std::vector<float> xs = Sweep()) {
  for (bool vectorized : {false, true}) {
    std::string ir;
    std::vector<float> got = RunElementwise(op, xs, vectorized, &ir);
    EXPECT_THAT(ir, ::testing::Not(HasSubstr("@" + op + "f"))) << op << " still calls libm";
    int64_t worst = 0;
    float worst_x = 0;
    for (size_t k = 0; k < xs.size(); ++k) {
      float want = static_cast<float>(reference(static_cast<double>(xs[k])));
      int64_t ulps = Ulps(got[k], want);
      if (ulps > worst) worst = ulps, worst_x = xs[k];
    }
    EXPECT_LE(worst, max_ulp) << op << (vectorized ? " vectorized" : " scalar") << " worst at x = " << worst_x;
    std::printf("%s (%s): %zu inputs, max error %lld ulp\n", op.c_str(), vectorized ? "vectorized" : "scalar",
                xs.size(), static_cast<long long>(worst));
  }
}

TEST(FastMathTest, ExpIsAccurateOverTheWholeRange) {
  ExpectAccurateOverTheSweep("exp", [](double v) { return std::exp(v); }, 1);
}

TEST(FastMathTest, TanhIsAccurateOverTheWholeRange) {
  ExpectAccurateOverTheSweep("tanh", [](double v) { return std::tanh(v); }, 2);
}

TEST(FastMathTest, TanhSpecialValuesAreExact) {
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> xs = {0.0f, -0.0f, inf, -inf, 20.0f, -20.0f, 1e30f, -1e30f,
                           std::numeric_limits<float>::quiet_NaN(), 1e-30f, -1e-30f, 1e-45f, 0.0f, 0.0f, 0.0f, 0.0f};
  for (bool vectorized : {false, true}) {
    std::vector<float> got = RunElementwise("tanh", xs, vectorized);
    for (size_t k = 0; k < xs.size(); ++k) {
      if (std::isnan(xs[k])) {
        EXPECT_TRUE(std::isnan(got[k]));
        continue;
      }
      EXPECT_EQ(got[k], static_cast<float>(std::tanh(static_cast<double>(xs[k])))) << "tanh(" << xs[k] << ")";
      EXPECT_EQ(std::signbit(got[k]), std::signbit(xs[k])) << "tanh(" << xs[k] << ")";
    }
  }
}

TEST(FastMathTest, ExpSpecialValuesAreExact) {
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> xs = {0.0f, -0.0f, inf, -inf, 88.73f, 1000.0f, -104.0f, -1000.0f,
                           std::numeric_limits<float>::quiet_NaN(), 89.0f, -105.0f, 3.0e38f, -3.0e38f, 0.0f, 0.0f, 0.0f};
  for (bool vectorized : {false, true}) {
    std::vector<float> got = RunElementwise("exp", xs, vectorized);
    for (size_t k = 0; k < xs.size(); ++k) {
      if (std::isnan(xs[k])) {
        EXPECT_TRUE(std::isnan(got[k]));
        continue;
      }
      float want = static_cast<float>(std::exp(static_cast<double>(xs[k])));
      EXPECT_EQ(got[k], want) << "exp(" << xs[k] << ")";
    }
  }
}

TEST(FastMathTest, FastExpIsTheSameFunction) {
  std::vector<float> xs;
  for (int k = -400; k < 400; ++k) xs.push_back(static_cast<float>(k) * 0.237f);
  EXPECT_EQ(RunElementwise("fast_exp", xs, true), RunElementwise("exp", xs, false));
}

double ReferenceErf(double v) { return std::erf(v); }

TEST(FastMathTest, ErfIsAccurateOverTheWholeRange) { ExpectAccurateOverTheSweep("erf", ReferenceErf, 1); }

// Every float32 step of 2^-17 in [-6, 6] (plus the largest float below 1 and
// above -1, where the two ranges of the approximation meet).
TEST(FastMathTest, ErfIsAccurateOnADenseSweepOfMinusSixToSix) {
  std::vector<float> xs;
  for (int64_t k = -6 * (1 << 17); k <= 6 * (1 << 17); ++k) xs.push_back(std::ldexp(static_cast<float>(k), -17));
  xs.push_back(std::nextafter(1.0f, 0.0f));
  xs.push_back(std::nextafter(-1.0f, 0.0f));
  while (xs.size() % 8 != 0) xs.push_back(0.0f);
  ExpectAccurateOverTheSweep("erf", ReferenceErf, 1, xs);
}

// Exact at +-0, +-inf and where erf rounds to +-1; tiny and subnormal inputs
// (erf(x) ~ 1.128 x) within an ulp with the sign of x; NaN stays NaN.
TEST(FastMathTest, ErfSpecialValues) {
  const float inf = std::numeric_limits<float>::infinity();
  const float denormal_min = std::numeric_limits<float>::denorm_min();
  std::vector<float> exact = {0.0f, -0.0f, inf, -inf, 4.0f, -4.0f, 10.0f, -1e30f, 3.9f, -3.95f, 1e30f, 100.0f};
  std::vector<float> tiny = {1e-30f, -1e-30f, denormal_min, -denormal_min, 1e-39f, -3e-39f, 1e-20f, -2e-10f};
  std::vector<float> xs = exact;
  xs.insert(xs.end(), tiny.begin(), tiny.end());
  xs.push_back(std::numeric_limits<float>::quiet_NaN());
  while (xs.size() % 8 != 0) xs.push_back(0.0f);
  for (bool vectorized : {false, true}) {
    std::vector<float> got = RunElementwise("erf", xs, vectorized);
    for (size_t k = 0; k < xs.size(); ++k) {
      if (std::isnan(xs[k])) {
        EXPECT_TRUE(std::isnan(got[k]));
        continue;
      }
      float want = static_cast<float>(std::erf(static_cast<double>(xs[k])));
      if (k < exact.size()) {
        EXPECT_EQ(got[k], want) << "erf(" << xs[k] << ")";
      } else {
        EXPECT_LE(Ulps(got[k], want), 1) << "erf(" << xs[k] << ") = " << got[k] << ", want " << want;
      }
      EXPECT_EQ(std::signbit(got[k]), std::signbit(xs[k])) << "erf(" << xs[k] << ")";
    }
  }
}

TEST(FastMathTest, FastErfIsTheSameFunction) {
  std::vector<float> xs;
  for (int k = -400; k < 400; ++k) xs.push_back(static_cast<float>(k) * 0.0137f);
  EXPECT_EQ(RunElementwise("fast_erf", xs, true), RunElementwise("erf", xs, false));
}

// gelu legalizes to 0.5 * x * (1 + erf(x / sqrt(2))); with the inline erf the
// default schedule's inner loop becomes vector arithmetic, and the results
// stay within a few ulp of gelu computed in double.
TEST(FastMathTest, GeluLoopVectorizes) {
  op_test::LegalizedOp op =
      op_test::LegalizeCall({{"x", "R.Tensor((\"n\",), dtype=\"float32\")"}}, "R.nn.gelu(x)");
  auto jit = codegen::JitModule::Compile({{"gelu", op.func}}, {});
  const std::string& ir = jit->GetLLVMIR();
  EXPECT_THAT(ir, ::testing::Not(HasSubstr("erff"))) << ir;
  EXPECT_THAT(ir, ::testing::ContainsRegex("fmul <[0-9]+ x float>")) << ir;
  runtime::Module module = Compile(op.func, "gelu");
  std::vector<float> xs;
  for (int k = -1000; k <= 1000; ++k) xs.push_back(static_cast<float>(k) * 0.0071f);
  int64_t n = static_cast<int64_t>(xs.size());
  NDArray out = NDArray::Empty({n}, runtime::DataType::Float(32));
  module.GetRequiredFunction("gelu")(NDArray::FromVector({n}, xs), out);
  std::vector<float> got = out.ToVector<float>();
  for (size_t k = 0; k < xs.size(); ++k) {
    double x = xs[k];
    double want = 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0)));
    EXPECT_NEAR(got[k], want, 4e-7 * std::max(1.0, std::fabs(want))) << "gelu(" << x << ")";
  }
}

}  // namespace
}  // namespace rlx::codegen_test
