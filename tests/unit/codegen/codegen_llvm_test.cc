// Numerical tests of the LLVM backend: PrimFuncs (hand-built or from the TE
// builder) compiled with the JIT and run on NDArrays, against naive C++
// loops and against the reference interpreter. Covers symbolic sizes (1, odd,
// large), reductions with init, parallel and vectorized loops, explicit
// vector expressions, integer division semantics on negative numbers, math
// intrinsics' accuracy, float16/bfloat16, allocations on the stack and in
// the workspace, scalar parameters and return values, and the LLVM IR text.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "jit_test_util.h"
#include "rlx/codegen/jit.h"
#include "rlx/runtime/threading.h"
#include "rlx/tir/te.h"

namespace rlx::codegen_test {
namespace {

using runtime::NDArray;
using ::testing::HasSubstr;
using tir::HostTensor;

std::vector<float> PatternFloats(int64_t count, int seed = 0) {
  std::vector<float> values(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i) values[i] = static_cast<float>(PatternValue(i, seed));
  return values;
}

// C[i, j] = A[i, j] + B[i, j] over (n, 4), as a TE compute.
PrimFunc TeAdd() {
  Var n = MakeVar("n");
  te::Tensor a = te::Placeholder({n, MakeInt(4)}, DataType::Float32(), "A");
  te::Tensor b = te::Placeholder({n, MakeInt(4)}, DataType::Float32(), "B");
  te::Tensor c = te::Compute(
      {n, MakeInt(4)}, [&](const std::vector<Var>& i) { return a(i[0], i[1]) + b(i[0], i[1]); }, "C");
  return te::CreatePrimFunc({a, b, c});
}

TEST(CodegenLLVMTest, ElementwiseAddAtSymbolicSizes) {
  runtime::Module module = Compile(TeAdd(), "add");
  runtime::PackedFunc add = module.GetRequiredFunction("add");
  for (int64_t n : {1, 7, 1000}) {
    std::vector<float> a = PatternFloats(n * 4, 1), b = PatternFloats(n * 4, 2);
    NDArray c = NDArray::Empty({n, 4}, runtime::DataType::Float(32));
    add(NDArray::FromVector({n, 4}, a), NDArray::FromVector({n, 4}, b), c);
    std::vector<float> result = c.ToVector<float>();
    for (int64_t i = 0; i < n * 4; ++i) ASSERT_EQ(result[i], a[i] + b[i]) << "n = " << n << ", element " << i;
  }
}

// matmul(A (n, k), W (k, m)) with a reduction block (init + update).
PrimFunc TeMatmul() {
  Var n = MakeVar("n"), k = MakeVar("k"), m = MakeVar("m");
  te::Tensor a = te::Placeholder({n, k}, DataType::Float32(), "A");
  te::Tensor w = te::Placeholder({k, m}, DataType::Float32(), "W");
  IterVar r = te::ReduceAxis(k, "r");
  te::Tensor c = te::Compute(
      {n, m}, [&](const std::vector<Var>& i) { return te::Sum(a(i[0], r->var) * w(r->var, i[1]), {r}); }, "matmul");
  return te::CreatePrimFunc({a, w, c});
}

TEST(CodegenLLVMTest, MatmulWithReductionAtOddSizes) {
  PrimFunc func = TeMatmul();
  runtime::PackedFunc matmul = Compile(func, "matmul").GetRequiredFunction("matmul");
  for (auto [n, k, m] : {std::tuple<int64_t, int64_t, int64_t>{1, 1, 1}, {7, 5, 3}, {33, 17, 9}}) {
    std::vector<float> a = PatternFloats(n * k, 3), w = PatternFloats(k * m, 4);
    NDArray c = NDArray::Empty({n, m}, runtime::DataType::Float(32));
    c.CopyFrom(std::vector<float>(n * m, NAN).data(), n * m * sizeof(float));  // init must overwrite
    matmul(NDArray::FromVector({n, k}, a), NDArray::FromVector({k, m}, w), c);
    std::vector<float> result = c.ToVector<float>();
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = 0; j < m; ++j) {
        float expected = 0;
        for (int64_t p = 0; p < k; ++p) expected += a[i * k + p] * w[p * m + j];
        ASSERT_EQ(result[i * m + j], expected) << n << "x" << k << "x" << m << " at " << i << ", " << j;
      }
    }
  }
  ExpectJitMatchesInterpreter(func, {Pattern(DataType::Float32(), {6, 5}), Pattern(DataType::Float32(), {5, 4}, 1)},
                              {HostTensor(DataType::Float32(), {6, 4})});
}

// Y[i] = X[i] * 2 + i over a loop of `kind`.
PrimFunc ScaleLoop(ForKind kind, PrimExpr extent) {
  Var i = MakeVar("i");
  Buffer x = ir::MakeBuffer("X", {extent}, DataType::Float32());
  Buffer y = ir::MakeBuffer("Y", {extent}, DataType::Float32());
  Stmt body = Store(y, Load(x, {i}) * MakeFloat(2.0) + ir::cast(DataType::Float32(), i), {i});
  return Func({x, y}, Loop(i, extent, body, kind));
}

TEST(CodegenLLVMTest, ParallelLoopUsesTheRuntimeAndComputesEveryElement) {
  PrimFunc func = ScaleLoop(ForKind::kParallel, MakeVar("n"));
  auto jit = codegen::JitModule::Compile({{"scale", func}});
  EXPECT_THAT(jit->GetLLVMIR(), HasSubstr("scale_compute_parallel_0"));
  runtime::Module module = Compile(func, "scale");
  for (int threads : {1, 2, 4}) {
    runtime::SetNumThreads(threads);
    for (int64_t n : {1, 3, 10000}) {
      std::vector<float> x = PatternFloats(n);
      NDArray y = NDArray::Empty({n}, runtime::DataType::Float(32));
      module.GetRequiredFunction("scale")(NDArray::FromVector({n}, x), y);
      std::vector<float> result = y.ToVector<float>();
      for (int64_t i = 0; i < n; ++i) {
        ASSERT_EQ(result[i], x[i] * 2.0f + static_cast<float>(i)) << threads << " threads, n = " << n << ", i = " << i;
      }
    }
  }
  runtime::SetNumThreads(0);
}

TEST(CodegenLLVMTest, ParallelLoopReportsAnAssertionFailureFromItsBody) {
  // for i in parallel(n): assert X[i] >= 0, "negative input"; Y[i] = X[i]
  Var n = MakeVar("n"), i = MakeVar("i");
  Buffer x = ir::MakeBuffer("X", {n}, DataType::Float32());
  Buffer y = ir::MakeBuffer("Y", {n}, DataType::Float32());
  Stmt body = make<tir::AssertStmtNode>(ir::ge(Load(x, {i}), MakeFloat(0.0)), ir::MakeString("negative input"),
                                        Store(y, Load(x, {i}), {i}));
  runtime::PackedFunc kernel =
      Compile(Func({x, y}, Loop(i, n, body, ForKind::kParallel))).GetRequiredFunction("kernel");
  std::vector<float> values(100, 1.0f);
  NDArray out = NDArray::Empty({100}, runtime::DataType::Float(32));
  EXPECT_EQ(RuntimeErrorOf(kernel, NDArray::FromVector({100}, values), out), "<no error>");
  values[77] = -1.0f;
  EXPECT_THAT(RuntimeErrorOf(kernel, NDArray::FromVector({100}, values), out), HasSubstr("negative input"));
}

TEST(CodegenLLVMTest, VectorizedLoopBecomesVectorCode) {
  // for io in n: for ii in vectorized(8): Y[io, ii] = X[io, ii] * 2 + (io * 8 + ii)
  Var n = MakeVar("n"), io = MakeVar("io"), ii = MakeVar("ii");
  Buffer x = ir::MakeBuffer("X", {n, MakeInt(8)}, DataType::Float32());
  Buffer y = ir::MakeBuffer("Y", {n, MakeInt(8)}, DataType::Float32());
  Stmt body = Store(y, Load(x, {io, ii}) * MakeFloat(2.0) + ir::cast(DataType::Float32(), io * 8 + ii), {io, ii});
  PrimFunc func = Func({x, y}, Loop(io, n, Loop(ii, MakeInt(8), body, ForKind::kVectorized)));
  auto jit = codegen::JitModule::Compile({{"scale", func}});
  EXPECT_THAT(jit->GetLLVMIR(), HasSubstr("x float>")) << "no vector instructions in\n" << jit->GetLLVMIR();
  for (int64_t blocks : {1, 5}) {
    ExpectJitMatchesInterpreter(func, {Pattern(DataType::Float32(), {blocks, 8})},
                                {HostTensor(DataType::Float32(), {blocks, 8})});
  }
}

TEST(CodegenLLVMTest, ExplicitRampBroadcastAndGather) {
  // Y[i, 0:8] = X[i, 0:8] + 1; Z[i, 0:4] = X[i, 0:8:2] (a strided gather)
  Var n = MakeVar("n"), i = MakeVar("i");
  Buffer x = ir::MakeBuffer("X", {n, MakeInt(8)}, DataType::Float32());
  Buffer y = ir::MakeBuffer("Y", {n, MakeInt(8)}, DataType::Float32());
  Buffer z = ir::MakeBuffer("Z", {n, MakeInt(4)}, DataType::Float32());
  PrimExpr lanes8 = make<ir::RampNode>(MakeInt(0), MakeInt(1), 8);
  PrimExpr even4 = make<ir::RampNode>(MakeInt(0), MakeInt(2), 4);
  PrimExpr lanes4 = make<ir::RampNode>(MakeInt(0), MakeInt(1), 4);
  Stmt body = tir::MakeSeq({Store(y, Load(x, {i, lanes8}) + make<ir::BroadcastNode>(MakeFloat(1.0), 8), {i, lanes8}),
                            Store(z, Load(x, {i, even4}), {i, lanes4})});
  PrimFunc func = Func({x, y, z}, Loop(i, n, body));
  auto jit = codegen::JitModule::Compile({{"vec", func}});
  EXPECT_THAT(jit->GetLLVMIR(), HasSubstr("<8 x float>"));
  runtime::Module module = Compile(func, "vec");
  int64_t rows = 3;
  std::vector<float> xs = PatternFloats(rows * 8);
  NDArray yv = NDArray::Empty({rows, 8}, runtime::DataType::Float(32));
  NDArray zv = NDArray::Empty({rows, 4}, runtime::DataType::Float(32));
  module.GetRequiredFunction("vec")(NDArray::FromVector({rows, 8}, xs), yv, zv);
  std::vector<float> ys = yv.ToVector<float>(), zs = zv.ToVector<float>();
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t c = 0; c < 8; ++c) EXPECT_EQ(ys[r * 8 + c], xs[r * 8 + c] + 1.0f);
    for (int64_t c = 0; c < 4; ++c) EXPECT_EQ(zs[r * 4 + c], xs[r * 8 + 2 * c]);
  }
}

TEST(CodegenLLVMTest, UnrolledLoopsWithConstantAndSymbolicExtents) {
  for (PrimExpr extent : {PrimExpr(MakeInt(6)), PrimExpr(MakeVar("n"))}) {
    ExpectJitMatchesInterpreter(ScaleLoop(ForKind::kUnrolled, extent), {Pattern(DataType::Float32(), {6})},
                                {HostTensor(DataType::Float32(), {6})});
  }
}

TEST(CodegenLLVMTest, UnsignedArithmeticAndBoolMasks) {
  // D[i] = M[i] ? (A[i] / B[i]) + (A[i] % B[i]) : A[i] >> 1, E[i] = A[i] < B[i], all uint32 but M (bool).
  Var n = MakeVar("n"), i = MakeVar("i");
  DataType u32 = DataType::UInt(32);
  Buffer a = ir::MakeBuffer("A", {n}, u32), b = ir::MakeBuffer("B", {n}, u32),
         m = ir::MakeBuffer("M", {n}, DataType::Bool());
  Buffer d = ir::MakeBuffer("D", {n}, u32), e = ir::MakeBuffer("E", {n}, DataType::Bool());
  PrimExpr x = Load(a, {i}), y = Load(b, {i});
  PrimExpr value = ir::select(Load(m, {i}), ir::truncdiv(x, y) + ir::truncmod(x, y),
                              ir::call(u32, "shift_right", {x, ir::MakeInt(1, u32)}));
  Stmt body = tir::MakeSeq({Store(d, value, {i}), Store(e, ir::lt(x, y), {i})});
  HostTensor as = HostTensor::FromDoubles(u32, {5}, {4000000000.0, 7, 100, 3, 0});
  HostTensor bs = HostTensor::FromDoubles(u32, {5}, {3, 2, 4000000000.0, 3, 9});
  HostTensor ms = HostTensor::FromDoubles(DataType::Bool(), {5}, {1, 0, 1, 1, 0});
  ExpectJitMatchesInterpreter(Func({a, b, m, d, e}, Loop(i, n, body)), {as, bs, ms},
                              {HostTensor(u32, {5}), HostTensor(DataType::Bool(), {5})});
}

int64_t RefFloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
int64_t RefFloorMod(int64_t a, int64_t b) { return a - RefFloorDiv(a, b) * b; }

TEST(CodegenLLVMTest, IntegerDivisionOnNegativeNumbers) {
  for (DataType dtype : {DataType::Int(32), DataType::Int(64)}) {
    Var n = MakeVar("n"), i = MakeVar("i");
    Buffer a = ir::MakeBuffer("A", {n}, dtype), b = ir::MakeBuffer("B", {n}, dtype);
    std::vector<Buffer> outs;
    for (const char* name : {"FD", "FM", "TD", "TM"}) outs.push_back(ir::MakeBuffer(name, {n}, dtype));
    PrimExpr x = Load(a, {i}), y = Load(b, {i});
    Stmt body = tir::MakeSeq({Store(outs[0], ir::floordiv(x, y), {i}), Store(outs[1], ir::floormod(x, y), {i}),
                              Store(outs[2], ir::truncdiv(x, y), {i}), Store(outs[3], ir::truncmod(x, y), {i})});
    runtime::PackedFunc kernel =
        Compile(Func({a, b, outs[0], outs[1], outs[2], outs[3]}, Loop(i, n, body))).GetRequiredFunction("kernel");
    std::vector<int64_t> xs, ys;
    for (int64_t p = -9; p <= 9; ++p) {
      for (int64_t q : {-7, -4, -3, -1, 1, 2, 3, 4, 7}) {
        xs.push_back(p);
        ys.push_back(q);
      }
    }
    int64_t count = static_cast<int64_t>(xs.size());
    runtime::DataType rt = ToRuntimeType(dtype);
    auto to_array = [&](const std::vector<int64_t>& v) {
      HostTensor t(dtype, {count});
      for (int64_t k = 0; k < count; ++k) t.SetInt(k, v[k]);
      return ToNDArray(t);
    };
    std::vector<NDArray> results;
    for (int o = 0; o < 4; ++o) results.push_back(NDArray::Empty({count}, rt));
    kernel(to_array(xs), to_array(ys), results[0], results[1], results[2], results[3]);
    std::vector<HostTensor> got;
    for (const NDArray& r : results) got.push_back(ToHostTensor(r, dtype));
    for (int64_t k = 0; k < count; ++k) {
      int64_t p = xs[k], q = ys[k];
      EXPECT_EQ(got[0].GetInt(k), RefFloorDiv(p, q)) << dtype.ToString() << " floordiv(" << p << ", " << q << ")";
      EXPECT_EQ(got[1].GetInt(k), RefFloorMod(p, q)) << dtype.ToString() << " floormod(" << p << ", " << q << ")";
      EXPECT_EQ(got[2].GetInt(k), p / q) << "truncdiv(" << p << ", " << q << ")";
      EXPECT_EQ(got[3].GetInt(k), p % q) << "truncmod(" << p << ", " << q << ")";
    }
  }
}

// Distance in units in the last place between two finite floats.
int64_t UlpDistance(float a, float b) {
  auto ordered = [](float f) {
    int32_t bits = std::bit_cast<int32_t>(f);
    return bits < 0 ? static_cast<int64_t>(INT32_MIN) - bits : static_cast<int64_t>(bits);
  };
  return std::llabs(ordered(a) - ordered(b));
}

// Y[i] = op(X[i]) for a float32 intrinsic.
std::vector<float> RunUnary(const std::string& op, const std::vector<float>& xs) {
  Var n = MakeVar("n"), i = MakeVar("i");
  Buffer x = ir::MakeBuffer("X", {n}, DataType::Float32()), y = ir::MakeBuffer("Y", {n}, DataType::Float32());
  Stmt body = Store(y, ir::call(DataType::Float32(), op, {Load(x, {i})}), {i});
  runtime::PackedFunc kernel = Compile(Func({x, y}, Loop(i, n, body))).GetRequiredFunction("kernel");
  int64_t count = static_cast<int64_t>(xs.size());
  NDArray out = NDArray::Empty({count}, runtime::DataType::Float(32));
  kernel(NDArray::FromVector({count}, xs), out);
  return out.ToVector<float>();
}

TEST(CodegenLLVMTest, MathIntrinsicsAreAccurate) {
  std::vector<float> xs;
  for (int k = -400; k <= 400; ++k) xs.push_back(static_cast<float>(k) * 0.0217f);
  struct Case {
    const char* op;
    double (*reference)(double);
    int max_ulp;
  };
  const Case cases[] = {
      {"exp", [](double v) { return std::exp(v); }, 2},
      {"tanh", [](double v) { return std::tanh(v); }, 2},
      {"erf", [](double v) { return std::erf(v); }, 2},
      {"sigmoid", [](double v) { return 1.0 / (1.0 + std::exp(-v)); }, 4},
      {"sin", [](double v) { return std::sin(v); }, 2},
      {"cos", [](double v) { return std::cos(v); }, 2},
      {"exp2", [](double v) { return std::exp2(v); }, 2},
      {"floor", [](double v) { return std::floor(v); }, 0},
      {"ceil", [](double v) { return std::ceil(v); }, 0},
      {"round", [](double v) { return std::round(v); }, 0},
      {"fabs", [](double v) { return std::fabs(v); }, 0},
  };
  for (const Case& c : cases) {
    std::vector<float> got = RunUnary(c.op, xs);
    for (size_t k = 0; k < xs.size(); ++k) {
      float want = static_cast<float>(c.reference(xs[k]));
      EXPECT_LE(UlpDistance(got[k], want), c.max_ulp) << c.op << "(" << xs[k] << ") = " << got[k] << ", want " << want;
    }
  }
  std::vector<float> positive;
  for (int k = 1; k <= 500; ++k) positive.push_back(static_cast<float>(k) * 0.173f);
  const Case positive_cases[] = {
      {"log", [](double v) { return std::log(v); }, 2},
      {"log2", [](double v) { return std::log2(v); }, 2},
      {"sqrt", [](double v) { return std::sqrt(v); }, 0},
      {"rsqrt", [](double v) { return 1.0 / std::sqrt(v); }, 2},
  };
  for (const Case& c : positive_cases) {
    std::vector<float> got = RunUnary(c.op, positive);
    for (size_t k = 0; k < positive.size(); ++k) {
      float want = static_cast<float>(c.reference(positive[k]));
      EXPECT_LE(UlpDistance(got[k], want), c.max_ulp) << c.op << "(" << positive[k] << ")";
    }
  }
}

TEST(CodegenLLVMTest, MathOnFloat64AndPowAgreeWithTheInterpreter) {
  Var n = MakeVar("n"), i = MakeVar("i");
  Buffer x = ir::MakeBuffer("X", {n}, DataType::Float(64));
  Buffer y = ir::MakeBuffer("Y", {n}, DataType::Float(64));
  PrimExpr v = Load(x, {i});
  PrimExpr value = ir::call(DataType::Float(64), "tanh", {v}) + ir::call(DataType::Float(64), "erf", {v}) +
                   ir::call(DataType::Float(64), "pow",
                            {ir::call(DataType::Float(64), "fabs", {v}), MakeFloat(1.5, DataType::Float(64))});
  PrimFunc func = Func({x, y}, Loop(i, n, Store(y, value, {i})));
  ExpectJitMatchesInterpreter(func, {Pattern(DataType::Float(64), {57})}, {HostTensor(DataType::Float(64), {57})},
                              1e-15);
}

// C = A * B + A - select(A < B, A, B), in `dtype`.
PrimFunc HalfPrecisionKernel(DataType dtype) {
  Var n = MakeVar("n"), i = MakeVar("i");
  Buffer a = ir::MakeBuffer("A", {n}, dtype), b = ir::MakeBuffer("B", {n}, dtype), c = ir::MakeBuffer("C", {n}, dtype);
  PrimExpr x = Load(a, {i}), y = Load(b, {i});
  PrimExpr value = x * y + x - ir::min(x, y) + ir::call(dtype, "exp", {x});
  return Func({a, b, c}, Loop(i, n, Store(c, value, {i})));
}

TEST(CodegenLLVMTest, Float16AndBFloat16RoundAfterEveryOperationLikeTheInterpreter) {
  for (DataType dtype : {DataType::Float(16), DataType::BFloat16()}) {
    SCOPED_TRACE(dtype.ToString());
    ExpectJitMatchesInterpreter(HalfPrecisionKernel(dtype), {Pattern(dtype, {45}, 1), Pattern(dtype, {45}, 2)},
                                {HostTensor(dtype, {45})});
  }
}

TEST(CodegenLLVMTest, Float16InputsConvertedToFloat32) {
  // Y (float32) = float32(X (float16)) * 3
  Var n = MakeVar("n"), i = MakeVar("i");
  Buffer x = ir::MakeBuffer("X", {n}, DataType::Float(16)), y = ir::MakeBuffer("Y", {n}, DataType::Float32());
  PrimFunc func = Func({x, y}, Loop(i, n, Store(y, ir::cast(DataType::Float32(), Load(x, {i})) * MakeFloat(3.0), {i})));
  HostTensor input = Pattern(DataType::Float(16), {19});
  runtime::Module module = Compile(func);
  NDArray out = NDArray::Empty({19}, runtime::DataType::Float(32));
  module.GetRequiredFunction("kernel")(ToNDArray(input), out);
  std::vector<float> result = out.ToVector<float>();
  for (int64_t k = 0; k < 19; ++k) EXPECT_EQ(result[k], static_cast<float>(input.GetFloat(k)) * 3.0f) << k;
}

TEST(CodegenLLVMTest, CastsSaturateLikeTheInterpreter) {
  // I (int32) = int32(F), B (bool) = F != 0, U (uint8) = uint8(F + 300)
  Var n = MakeVar("n"), i = MakeVar("i");
  Buffer f = ir::MakeBuffer("F", {n}, DataType::Float32());
  Buffer out_i = ir::MakeBuffer("I", {n}, DataType::Int32());
  Buffer out_b = ir::MakeBuffer("Bo", {n}, DataType::Bool());
  Buffer out_u = ir::MakeBuffer("U", {n}, DataType::UInt(8));
  PrimExpr v = Load(f, {i});
  Stmt body =
      tir::MakeSeq({Store(out_i, ir::cast(DataType::Int32(), v), {i}), Store(out_b, ir::cast(DataType::Bool(), v), {i}),
                    Store(out_u, ir::cast(DataType::UInt(8), v + MakeFloat(300.0)), {i})});
  HostTensor input = HostTensor::FromDoubles(DataType::Float32(), {6}, {-2.75, 0.0, 1.5, 3e9, -3e9, NAN});
  ExpectJitMatchesInterpreter(
      Func({f, out_i, out_b, out_u}, Loop(i, n, body)), {input},
      {HostTensor(DataType::Int32(), {6}), HostTensor(DataType::Bool(), {6}), HostTensor(DataType::UInt(8), {6})});
}

TEST(CodegenLLVMTest, IntermediateBuffersOnStackAndInWorkspace) {
  // T = exp(A) (an intermediate of symbolic size: workspace); B = T + 1.
  // The constant-size case (n fixed to 16) lives on the stack.
  for (bool symbolic : {true, false}) {
    PrimExpr n = symbolic ? PrimExpr(MakeVar("n")) : PrimExpr(MakeInt(16));
    te::Tensor a = te::Placeholder({n}, DataType::Float32(), "A");
    te::Tensor t = te::Compute(
        {n}, [&](const std::vector<Var>& i) { return ir::call(DataType::Float32(), "exp", {a(i[0])}); }, "T");
    te::Tensor b = te::Compute(
        {n}, [&](const std::vector<Var>& i) { return t(i[0]) + MakeFloat(1.0); }, "B");
    PrimFunc func = te::CreatePrimFunc({a, b});
    auto jit = codegen::JitModule::Compile({{"kernel", func}});
    EXPECT_EQ(jit->GetLLVMIR().find("alloc_workspace") != std::string::npos, symbolic) << jit->GetLLVMIR();
    ExpectJitMatchesInterpreter(func, {Pattern(DataType::Float32(), {16})}, {HostTensor(DataType::Float32(), {16})});
  }
}

TEST(CodegenLLVMTest, ScalarParametersAndLet) {
  // Y[i] = X[i] * alpha + float32(offset) with alpha float32 and offset int64 scalars.
  Var n = MakeVar("n"), i = MakeVar("i"), alpha = MakeVar("alpha", DataType::Float32()), offset = MakeVar("offset");
  Var t = MakeVar("t", DataType::Float32());
  Buffer x = ir::MakeBuffer("X", {n}, DataType::Float32()), y = ir::MakeBuffer("Y", {n}, DataType::Float32());
  Stmt body = make<tir::LetStmtNode>(t, Load(x, {i}) * alpha, Store(y, t + ir::cast(DataType::Float32(), offset), {i}));
  PrimFunc func = Func({x, y}, Loop(i, n, body), {alpha, offset});
  ExpectJitMatchesInterpreter(func, {Pattern(DataType::Float32(), {9})}, {HostTensor(DataType::Float32(), {9})}, 0.0,
                              {0.5, int64_t{-3}});
}

TEST(CodegenLLVMTest, IfThenElseAndGuardedLoads) {
  // Y[i] = if_then_else(i > 0, X[i - 1], 0) (the load at -1 must not run), and
  // a statement-level if/else on parity.
  Var n = MakeVar("n"), i = MakeVar("i");
  Buffer x = ir::MakeBuffer("X", {n}, DataType::Float32());
  Buffer y = ir::MakeBuffer("Y", {n}, DataType::Float32()), z = ir::MakeBuffer("Z", {n}, DataType::Float32());
  Stmt shift = Store(y, te::IfThenElse(ir::gt(i, MakeInt(0)), Load(x, {i - 1}), MakeFloat(0.0)), {i});
  Stmt parity = make<tir::IfThenElseNode>(ir::eq(ir::floormod(i, 2), MakeInt(0)), Store(z, Load(x, {i}), {i}),
                                          Store(z, MakeFloat(0.0) - Load(x, {i}), {i}));
  PrimFunc func = Func({x, y, z}, Loop(i, n, tir::MakeSeq({shift, parity})));
  ExpectJitMatchesInterpreter(func, {Pattern(DataType::Float32(), {11})},
                              {HostTensor(DataType::Float32(), {11}), HostTensor(DataType::Float32(), {11})});
}

TEST(CodegenLLVMTest, ReturnValue) {
  // def f(A: (n,)): T.ret(n * 2 + 1) -- a function with an int64 result.
  Var n = MakeVar("n");
  Buffer a = ir::MakeBuffer("A", {n}, DataType::Float32());
  PrimFunc func = Func({a}, make<tir::EvaluateNode>(ir::call(DataType::Int64(), "ret", {n * 2 + 1})));
  const_cast<tir::PrimFuncNode*>(func.get())->ret_type = DataType::Int64();
  runtime::Value result =
      Compile(func).GetRequiredFunction("kernel")(NDArray::Empty({20}, runtime::DataType::Float(32)));
  EXPECT_EQ(result.AsInt(), 41);
}

TEST(CodegenLLVMTest, SeveralFunctionsInOneModule) {
  auto jit = codegen::JitModule::Compile({{"add", TeAdd()}, {"matmul", TeMatmul()}});
  EXPECT_NE(jit->GetFunction("add"), nullptr);
  EXPECT_NE(jit->GetFunction("matmul"), nullptr);
  EXPECT_EQ(jit->GetFunction("add_compute"), nullptr);  // internal, not a kernel
  EXPECT_EQ(jit->GetFunction("missing"), nullptr);
  std::string ir = jit->GetLLVMIR();
  EXPECT_THAT(ir, HasSubstr("i32 @add(ptr"));
  EXPECT_THAT(ir, HasSubstr("i32 @matmul(ptr"));
  EXPECT_THAT(ir, HasSubstr("@rlx_runtime_callbacks = weak"));
  EXPECT_THAT(ir, HasSubstr("@rlx_module_abi_version = weak"));
  codegen::HostTargetInfo host = codegen::DescribeHostTarget();
  EXPECT_THAT(ir, HasSubstr("\"target-cpu\"=\"" + host.cpu + "\""));
}

TEST(CodegenLLVMTest, DuplicateNamesAndUnsupportedIntrinsicsAreCompileErrors) {
  EXPECT_THAT(CompileErrorOf([] {
                codegen::JitModule::Compile({{"f", TeAdd()}, {"f", TeAdd()}});
              }),
              HasSubstr("two functions are named f"));
  Var n = MakeVar("n"), i = MakeVar("i");
  Buffer x = ir::MakeBuffer("X", {n}, DataType::Float32());
  PrimFunc func = Func({x}, Loop(i, n, Store(x, ir::call(DataType::Float32(), "frobnicate", {Load(x, {i})}), {i})));
  EXPECT_THAT(CompileErrorOf([&] {
                codegen::JitModule::Compile({{"f", func}});
              }),
              HasSubstr("intrinsic frobnicate is not supported"));
}

TEST(CodegenLLVMTest, AttrStmtHintsPassThroughAndThreadBindingsAreCompileErrors) {
  Var i = MakeVar("i");
  Buffer x = ir::MakeBuffer("X", {MakeInt(8)}, DataType::Float32());
  Buffer y = ir::MakeBuffer("Y", {MakeInt(8)}, DataType::Float32());
  Stmt loop = Loop(i, MakeInt(8), Store(y, Load(x, {i}) * MakeFloat(2.0), {i}));
  PrimFunc hinted = Func({x, y}, make<tir::AttrStmtNode>(ir::MakeString("default"), "pragma_unroll",
                                                          MakeInt(4, DataType::Int32()), loop));
  ExpectJitMatchesInterpreter(hinted, {Pattern(DataType::Float32(), {8})}, {HostTensor(DataType::Float32(), {8})});

  Var tx = MakeVar("tx", DataType::Int32());
  IterVar thread = make<tir::IterVarNode>(tx, tir::Range{MakeInt(0, DataType::Int32()), MakeInt(8, DataType::Int32())},
                                          tir::IterKind::kThreadIndex, "threadIdx.x");
  PrimFunc gpu = Func({x, y}, make<tir::AttrStmtNode>(thread, "thread_extent", MakeInt(8, DataType::Int32()),
                                                       Store(y, Load(x, {tx}), {tx})));
  EXPECT_THAT(CompileErrorOf([&] {
                codegen::JitModule::Compile({{"gpu", gpu}});
              }),
              HasSubstr("thread_extent binds thread threadIdx.x, which the CPU target cannot run"));
}

}  // namespace
}  // namespace rlx::codegen_test
