// Tests for tir/interpreter.h: hand-built PrimFuncs (relu, a reduction with
// init, symbolic shapes at several sizes, if/else, LetStmt, Allocate and
// DeclBuffer, match_buffer views, scalar parameters) checked against plain
// C++ loops, the arithmetic semantics of ir/expr.h (floor and trunc
// division, wrapping, float16/bfloat16 rounding, intrinsics), and every
// error path (out of bounds, shape/dtype/rank mismatch, failed assert,
// division by zero, unbound variables, iteration domains).
#include "rlx/tir/interpreter.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "rlx/support/diagnostic.h"

namespace rlx::tir {
namespace {

using ir::MakeFloat;
using ir::MakeInt;
using ir::MakeVar;
using ::testing::HasSubstr;

// ---------------------------------------------------------------- builders

PrimExpr Load(const Buffer& buffer, std::vector<PrimExpr> indices) {
  return make<ir::BufferLoadNode>(buffer, std::move(indices));
}

Stmt Store(const Buffer& buffer, PrimExpr value, std::vector<PrimExpr> indices) {
  return make<BufferStoreNode>(buffer, std::move(value), std::move(indices));
}

Stmt Loop(const Var& var, PrimExpr extent, Stmt body, ForKind kind = ForKind::kSerial) {
  auto* loop = new ForNode();
  loop->loop_var = var;
  loop->min = MakeInt(0, var->dtype);
  loop->extent = std::move(extent);
  loop->for_kind = kind;
  loop->body = std::move(body);
  return Stmt(loop);
}

struct BlockSpec {
  BlockSpec(std::string name, std::vector<IterVar> iter_vars, std::vector<PrimExpr> values, Stmt body,
            Stmt init = Stmt(), std::vector<Buffer> allocs = {})
      : name(std::move(name)),
        iter_vars(std::move(iter_vars)),
        values(std::move(values)),
        body(std::move(body)),
        init(std::move(init)),
        allocs(std::move(allocs)) {}

  std::string name;
  std::vector<IterVar> iter_vars;
  std::vector<PrimExpr> values;
  Stmt body;
  Stmt init;
  std::vector<Buffer> allocs;
  PrimExpr predicate;
  std::vector<MatchBufferRegion> matches;
};

Stmt Realize(const BlockSpec& spec) {
  auto* block = new BlockNode();
  block->name = spec.name;
  block->iter_vars = spec.iter_vars;
  block->body = spec.body;
  block->init = spec.init;
  block->alloc_buffers = spec.allocs;
  block->match_buffers = spec.matches;
  auto* realize = new BlockRealizeNode();
  realize->iter_values = spec.values;
  realize->predicate = spec.predicate.defined() ? spec.predicate : ir::MakeBool(true);
  realize->block = Block(block);
  return Stmt(realize);
}

IterVar Spatial(const Var& var, PrimExpr extent) {
  return make<IterVarNode>(var, Range{MakeInt(0, var->dtype), std::move(extent)}, IterKind::kSpatial);
}
IterVar Reduce(const Var& var, PrimExpr extent) {
  return make<IterVarNode>(var, Range{MakeInt(0, var->dtype), std::move(extent)}, IterKind::kReduce);
}

// A function over `buffers` (one handle parameter each), then `scalars`.
PrimFunc Func(const std::vector<Buffer>& buffers, Stmt body, const std::vector<Var>& scalars = {}) {
  auto* func = new PrimFuncNode();
  for (const Buffer& buffer : buffers) {
    Var param = MakeVar("var_" + buffer->name, DataType::Handle());
    func->params.push_back(param);
    func->buffer_map.emplace_back(param, buffer);
  }
  for (const Var& scalar : scalars) func->params.push_back(scalar);
  func->body = std::move(body);
  return PrimFunc(func);
}

// Fills with a deterministic pattern of positive and negative values.
HostTensor Pattern(DataType dtype, std::vector<int64_t> shape, int seed = 0) {
  HostTensor tensor(dtype, std::move(shape));
  for (int64_t i = 0; i < tensor.num_elements(); ++i) {
    tensor.SetFloat(i, static_cast<double>((i * 7 + seed * 3) % 11) - 5.0 + 0.25);
  }
  return tensor;
}

std::string ErrorOf(const std::function<void()>& run) {
  try {
    run();
  } catch (const CompileError& error) {
    return error.diagnostic().message;
  }
  return "<no error>";
}

// ---------------------------------------------------------------- programs

// relu over (n, 4): Y[vi, vj] = max(X[vi, vj], 0).
struct Relu {
  Var n = MakeVar("n");
  Buffer x = ir::MakeBuffer("X", {n, MakeInt(4)}, DataType::Float32());
  Buffer y = ir::MakeBuffer("Y", {n, MakeInt(4)}, DataType::Float32());
  PrimFunc func;

  Relu() {
    Var i = MakeVar("i"), j = MakeVar("j"), vi = MakeVar("vi"), vj = MakeVar("vj");
    Stmt body = Store(y, ir::max(Load(x, {vi, vj}), MakeFloat(0.0)), {vi, vj});
    Stmt block = Realize({"relu", {Spatial(vi, n), Spatial(vj, MakeInt(4))}, {i, j}, body});
    func = Func({x, y}, Loop(i, n, Loop(j, MakeInt(4), block)));
  }
};

TEST(InterpreterTest, ReluAtSeveralSymbolicSizes) {
  Relu relu;
  Interpreter interpreter(relu.func);
  for (int64_t n : {1, 7, 64}) {
    HostTensor x = Pattern(DataType::Float32(), {n, 4});
    HostTensor y(DataType::Float32(), {n, 4});
    y.Fill(NAN);
    interpreter.Run({&x, &y});
    for (int64_t i = 0; i < n * 4; ++i) {
      EXPECT_EQ(y.GetFloat(i), std::max(x.GetFloat(i), 0.0)) << "n = " << n << ", element " << i;
    }
  }
}

// B[vi] = sum_k A[vi, vk] with init B[vi] = 0, A of shape (m, k).
struct RowSum {
  Var m = MakeVar("m"), k = MakeVar("k");
  Buffer a = ir::MakeBuffer("A", {m, k}, DataType::Float32());
  Buffer b = ir::MakeBuffer("B", {m}, DataType::Float32());
  PrimFunc func;

  explicit RowSum(bool with_init = true) {
    Var i = MakeVar("i"), r = MakeVar("r"), vi = MakeVar("vi"), vr = MakeVar("vr");
    Stmt update = Store(b, Load(b, {vi}) + Load(a, {vi, vr}), {vi});
    Stmt init = with_init ? Store(b, MakeFloat(0.0), {vi}) : Stmt();
    Stmt block = Realize({"sum", {Spatial(vi, m), Reduce(vr, k)}, {i, r}, update, init});
    func = Func({a, b}, Loop(i, m, Loop(r, k, block)));
  }
};

TEST(InterpreterTest, ReductionRunsInitOncePerOutput) {
  RowSum sum;
  HostTensor a = Pattern(DataType::Float32(), {5, 3});
  HostTensor b(DataType::Float32(), {5});
  b.Fill(NAN);  // init must overwrite this
  RunPrimFunc(sum.func, {&a, &b});
  for (int64_t i = 0; i < 5; ++i) {
    double expected = 0;
    for (int64_t r = 0; r < 3; ++r) expected += a.At({i, r});
    EXPECT_FLOAT_EQ(b.At({i}), expected) << "row " << i;
  }
}

TEST(InterpreterTest, ReductionWithoutInitShowsTheMissingInit) {
  RowSum sum(/*with_init=*/false);
  HostTensor a = Pattern(DataType::Float32(), {2, 3});
  HostTensor b(DataType::Float32(), {2});
  b.Fill(NAN);
  RunPrimFunc(sum.func, {&a, &b});
  EXPECT_TRUE(std::isnan(b.At({0})));
}

TEST(InterpreterTest, IfThenElseStatement) {
  Var n = MakeVar("n"), i = MakeVar("i");
  Buffer x = ir::MakeBuffer("X", {n}, DataType::Float32());
  Buffer y = ir::MakeBuffer("Y", {n}, DataType::Float32());
  Stmt then_case = Store(y, Load(x, {i}) * MakeFloat(2.0), {i});
  Stmt else_case = Store(y, MakeFloat(0.0) - Load(x, {i}), {i});
  Stmt body = make<IfThenElseNode>(ir::eq(ir::floormod(i, 2), MakeInt(0)), then_case, else_case);
  PrimFunc func = Func({x, y}, Loop(i, n, body));
  HostTensor xs = Pattern(DataType::Float32(), {9});
  HostTensor ys(DataType::Float32(), {9});
  RunPrimFunc(func, {&xs, &ys});
  for (int64_t k = 0; k < 9; ++k) {
    double expected = k % 2 == 0 ? xs.At({k}) * 2 : -xs.At({k});
    EXPECT_EQ(ys.At({k}), expected) << k;
  }
}

TEST(InterpreterTest, LetStmtBindsItsVariable) {
  Var n = MakeVar("n"), i = MakeVar("i"), t = MakeVar("t", DataType::Float32());
  Buffer x = ir::MakeBuffer("X", {n}, DataType::Float32());
  Buffer y = ir::MakeBuffer("Y", {n}, DataType::Float32());
  Stmt body = make<LetStmtNode>(t, Load(x, {i}) + MakeFloat(1.0), Store(y, t * t, {i}));
  PrimFunc func = Func({x, y}, Loop(i, n, body));
  HostTensor xs = Pattern(DataType::Float32(), {6});
  HostTensor ys(DataType::Float32(), {6});
  RunPrimFunc(func, {&xs, &ys});
  for (int64_t k = 0; k < 6; ++k) {
    double t_value = xs.At({k}) + 1;
    EXPECT_FLOAT_EQ(ys.At({k}), t_value * t_value);
  }
}

TEST(InterpreterTest, AttrStmtHintRunsItsBody) {
  Var n = MakeVar("n"), i = MakeVar("i");
  Buffer x = ir::MakeBuffer("X", {n}, DataType::Float32());
  Buffer y = ir::MakeBuffer("Y", {n}, DataType::Float32());
  Stmt loop = Loop(i, n, Store(y, Load(x, {i}) * MakeFloat(2.0), {i}));
  Stmt body = make<AttrStmtNode>(x->data, "storage_alignment", MakeInt(64, DataType::Int32()),
                                 make<AttrStmtNode>(ir::MakeString("default"), "pragma_unroll",
                                                    MakeInt(4, DataType::Int32()), loop));
  PrimFunc func = Func({x, y}, body);
  HostTensor xs = Pattern(DataType::Float32(), {5});
  HostTensor ys(DataType::Float32(), {5});
  RunPrimFunc(func, {&xs, &ys});
  for (int64_t k = 0; k < 5; ++k) EXPECT_FLOAT_EQ(ys.At({k}), xs.At({k}) * 2);
}

TEST(InterpreterTest, ThreadBindingIsAnError) {
  Var n = MakeVar("n"), tx = MakeVar("tx", DataType::Int32());
  Buffer y = ir::MakeBuffer("Y", {n}, DataType::Float32());
  IterVar thread = make<IterVarNode>(tx, Range{MakeInt(0, DataType::Int32()), MakeInt(4, DataType::Int32())},
                                     IterKind::kThreadIndex, "threadIdx.x");
  Stmt body = make<AttrStmtNode>(thread, "thread_extent", MakeInt(4, DataType::Int32()),
                                 Store(y, MakeFloat(1.0), {ir::cast(n->dtype, tx)}));
  PrimFunc func = Func({y}, body);
  HostTensor ys(DataType::Float32(), {4});
  EXPECT_THAT(ErrorOf([&] { RunPrimFunc(func, {&ys}); }),
              HasSubstr("cannot run a GPU thread binding (thread_extent of threadIdx.x)"));
}

TEST(InterpreterTest, ScalarParameterAndLetExpression) {
  // Y[i] = let s = X[i] * alpha in s + shift, with alpha a float parameter
  // and shift an int parameter cast to float.
  Var n = MakeVar("n"), i = MakeVar("i"), s = MakeVar("s", DataType::Float32());
  Var alpha = MakeVar("alpha", DataType::Float32()), shift = MakeVar("shift", DataType::Int32());
  Buffer x = ir::MakeBuffer("X", {n}, DataType::Float32());
  Buffer y = ir::MakeBuffer("Y", {n}, DataType::Float32());
  PrimExpr value = make<ir::LetNode>(s, Load(x, {i}) * alpha, s + ir::cast(DataType::Float32(), shift));
  PrimFunc func = Func({x, y}, Loop(i, n, Store(y, value, {i})), {alpha, shift});
  HostTensor xs = Pattern(DataType::Float32(), {4});
  HostTensor ys(DataType::Float32(), {4});
  RunPrimFunc(func, {&xs, &ys, 0.5, 3});
  for (int64_t k = 0; k < 4; ++k) EXPECT_FLOAT_EQ(ys.At({k}), xs.At({k}) * 0.5 + 3);
}

// A two-stage program with an intermediate buffer allocated by the root
// block: T = X * 2; Y = T + 1.
TEST(InterpreterTest, RootBlockAllocatesIntermediate) {
  Var n = MakeVar("n"), i = MakeVar("i"), j = MakeVar("j"), vi = MakeVar("vi"), vj = MakeVar("vj");
  Buffer x = ir::MakeBuffer("X", {n}, DataType::Float32());
  Buffer t = ir::MakeBuffer("T", {n}, DataType::Float32());
  Buffer y = ir::MakeBuffer("Y", {n}, DataType::Float32());
  Stmt first = Loop(i, n, Realize({"T", {Spatial(vi, n)}, {i}, Store(t, Load(x, {vi}) * MakeFloat(2.0), {vi})}));
  Stmt second = Loop(j, n, Realize({"Y", {Spatial(vj, n)}, {j}, Store(y, Load(t, {vj}) + MakeFloat(1.0), {vj})}));
  Stmt root = Realize({"root", {}, {}, MakeSeq({first, second}), Stmt(), {t}});
  PrimFunc func = Func({x, y}, root);
  HostTensor xs = Pattern(DataType::Float32(), {5});
  HostTensor ys(DataType::Float32(), {5});
  RunPrimFunc(func, {&xs, &ys});
  for (int64_t k = 0; k < 5; ++k) EXPECT_FLOAT_EQ(ys.At({k}), xs.At({k}) * 2 + 1);
}

TEST(InterpreterTest, AllocateDeclBufferAndLoopKinds) {
  // tmp = allocate(4 * n); Tmp = decl_buffer(tmp, (n, 4)); Tmp = X; Y = Tmp[.., ::-1]
  Var n = MakeVar("n"), i = MakeVar("i"), j = MakeVar("j");
  Buffer x = ir::MakeBuffer("X", {n, MakeInt(4)}, DataType::Int32());
  Buffer y = ir::MakeBuffer("Y", {n, MakeInt(4)}, DataType::Int32());
  Buffer tmp = ir::MakeBuffer("Tmp", {n, MakeInt(4)}, DataType::Int32());
  Stmt copy_in = Loop(i, n, Loop(j, MakeInt(4), Store(tmp, Load(x, {i, j}), {i, j}), ForKind::kVectorized),
                      ForKind::kParallel);
  Var i2 = MakeVar("i2"), j2 = MakeVar("j2");
  Stmt copy_out = Loop(i2, n, Loop(j2, MakeInt(4), Store(y, Load(tmp, {i2, MakeInt(3) - j2}), {i2, j2}),
                                   ForKind::kUnrolled));
  Stmt decl = make<DeclBufferNode>(tmp, MakeSeq({copy_in, copy_out}));
  auto* alloc = new AllocateNode();
  alloc->buffer_var = tmp->data;
  alloc->dtype = DataType::Int32();
  alloc->extents = {n * 4};
  alloc->condition = ir::MakeBool(true);
  alloc->body = decl;
  PrimFunc func = Func({x, y}, Stmt(alloc));
  HostTensor xs(DataType::Int32(), {3, 4});
  for (int64_t k = 0; k < 12; ++k) xs.SetInt(k, k * 10);
  HostTensor ys(DataType::Int32(), {3, 4});
  RunPrimFunc(func, {&xs, &ys});
  for (int64_t r = 0; r < 3; ++r) {
    for (int64_t c = 0; c < 4; ++c) EXPECT_EQ(ys.GetInt(ys.FlatIndex({r, c})), (r * 4 + 3 - c) * 10);
  }
}

TEST(InterpreterTest, MatchBufferViewsARegion) {
  // For each row i: a block matches R = X[i, 0:4] and writes Y[i] = R[1] + R[3].
  Var i = MakeVar("i"), vi = MakeVar("vi");
  Buffer x = ir::MakeBuffer("X", {MakeInt(3), MakeInt(4)}, DataType::Float32());
  Buffer y = ir::MakeBuffer("Y", {MakeInt(3)}, DataType::Float32());
  Var len = MakeVar("len");
  Buffer row = ir::MakeBuffer("R", {MakeInt(1), len}, DataType::Float32());
  BufferRegion source = make<BufferRegionNode>(x, std::vector<Range>{{vi, MakeInt(1)}, {MakeInt(0), MakeInt(4)}});
  MatchBufferRegion match = make<MatchBufferRegionNode>(row, source);
  Stmt body = Store(y, Load(row, {MakeInt(0), MakeInt(1)}) + Load(row, {MakeInt(0), len - 1}), {vi});
  BlockSpec spec{"rows", {Spatial(vi, MakeInt(3))}, {i}, body};
  spec.matches = {match};
  PrimFunc func = Func({x, y}, Loop(i, MakeInt(3), Realize(spec)));
  HostTensor xs = Pattern(DataType::Float32(), {3, 4});
  HostTensor ys(DataType::Float32(), {3});
  RunPrimFunc(func, {&xs, &ys});
  for (int64_t r = 0; r < 3; ++r) EXPECT_FLOAT_EQ(ys.At({r}), xs.At({r, 1}) + xs.At({r, 3}));
}

// ---------------------------------------------------------------- semantics

// Evaluates `value` (of any dtype) by storing it into a one-element buffer.
double EvalScalar(const PrimExpr& value) {
  Buffer out = ir::MakeBuffer("out", {MakeInt(1)}, value->dtype);
  PrimFunc func = Func({out}, Store(out, value, {MakeInt(0)}));
  HostTensor result(value->dtype, {1});
  RunPrimFunc(func, {&result});
  return result.GetFloat(0);
}

TEST(InterpreterTest, IntegerDivisionSemantics) {
  auto i64 = [](int64_t v) { return MakeInt(v); };
  EXPECT_EQ(EvalScalar(ir::floordiv(i64(-7), i64(2))), -4);
  EXPECT_EQ(EvalScalar(ir::floormod(i64(-7), i64(2))), 1);
  EXPECT_EQ(EvalScalar(ir::floormod(i64(7), i64(-2))), -1);
  EXPECT_EQ(EvalScalar(ir::truncdiv(i64(-7), i64(2))), -3);
  EXPECT_EQ(EvalScalar(ir::truncmod(i64(-7), i64(2))), -1);
  EXPECT_EQ(EvalScalar(ir::floordiv(i64(INT64_MIN), i64(-1))), static_cast<double>(INT64_MIN));  // wraps
}

TEST(InterpreterTest, IntegersWrapInTheirDtype) {
  PrimExpr big = MakeInt(127, DataType::Int(8));
  EXPECT_EQ(EvalScalar(big + MakeInt(1, DataType::Int(8))), -128);
  PrimExpr u8 = MakeInt(250, DataType::UInt(8));
  EXPECT_EQ(EvalScalar(u8 + MakeInt(10, DataType::UInt(8))), 4);
  EXPECT_EQ(EvalScalar(ir::cast(DataType::Int(8), MakeInt(300, DataType::Int32()))), 44);
  EXPECT_EQ(EvalScalar(ir::cast(DataType::Int32(), MakeFloat(-2.75))), -2);  // truncates
}

TEST(InterpreterTest, HalfAndBFloat16RoundToTheirFormat) {
  DataType f16 = DataType::Float(16), bf16 = DataType::BFloat16();
  // 1 + 2^-11 is a tie between 1 and 1 + 2^-10 in float16: ties to even.
  EXPECT_EQ(EvalScalar(MakeFloat(1.0, f16) + MakeFloat(std::ldexp(1.0, -11), f16)), 1.0);
  EXPECT_EQ(EvalScalar(MakeFloat(1.0, f16) + MakeFloat(3 * std::ldexp(1.0, -11), f16)), 1.0 + std::ldexp(1.0, -9));
  EXPECT_EQ(EvalScalar(MakeFloat(60000.0, f16) + MakeFloat(10000.0, f16)), INFINITY);  // overflow
  EXPECT_EQ(EvalScalar(MakeFloat(std::ldexp(1.0, -24), f16)), std::ldexp(1.0, -24));   // subnormal
  EXPECT_EQ(EvalScalar(MakeFloat(1.0, bf16) + MakeFloat(std::ldexp(1.0, -9), bf16)), 1.0);
  // 3/7 = 0.4285714... = 219.43 * 2^-9: eight significant bits give 219 * 2^-9.
  EXPECT_EQ(EvalScalar(ir::truncdiv(MakeFloat(3.0, bf16), MakeFloat(7.0, bf16))), 0.427734375);
  EXPECT_EQ(EvalScalar(MakeFloat(0.1, DataType::Float32())), static_cast<double>(0.1f));
}

TEST(InterpreterTest, IntrinsicCalls) {
  DataType f64 = DataType::Float(64);
  auto x = MakeFloat(0.75, f64);
  auto call = [&](const char* name, std::vector<PrimExpr> args) { return ir::call(f64, name, std::move(args)); };
  EXPECT_DOUBLE_EQ(EvalScalar(call("exp", {x})), std::exp(0.75));
  EXPECT_DOUBLE_EQ(EvalScalar(call("tir.log", {x})), std::log(0.75));
  EXPECT_DOUBLE_EQ(EvalScalar(call("sigmoid", {x})), 1 / (1 + std::exp(-0.75)));
  EXPECT_DOUBLE_EQ(EvalScalar(call("rsqrt", {x})), 1 / std::sqrt(0.75));
  EXPECT_DOUBLE_EQ(EvalScalar(call("erf", {x})), std::erf(0.75));
  EXPECT_DOUBLE_EQ(EvalScalar(call("tanh", {x})), std::tanh(0.75));
  EXPECT_DOUBLE_EQ(EvalScalar(call("pow", {x, MakeFloat(3.0, f64)})), std::pow(0.75, 3));
  EXPECT_DOUBLE_EQ(EvalScalar(call("round", {MakeFloat(2.5, f64)})), 3.0);
  EXPECT_DOUBLE_EQ(EvalScalar(call("floor", {MakeFloat(-2.5, f64)})), -3.0);
  EXPECT_DOUBLE_EQ(EvalScalar(call("fabs", {MakeFloat(-2.5, f64)})), 2.5);
  EXPECT_EQ(EvalScalar(ir::call(DataType::Int64(), "abs", {MakeInt(-5)})), 5);
  EXPECT_EQ(EvalScalar(ir::call(DataType::Int64(), "shift_left", {MakeInt(3), MakeInt(4)})), 48);
}

TEST(InterpreterTest, IfThenElseIsLazyButSelectIsNot) {
  // out[0] = if_then_else(i < 2, X[i], 0) for i = 5 does not touch X[5];
  // the same with select reads X[5] and fails.
  Buffer x = ir::MakeBuffer("X", {MakeInt(2)}, DataType::Float32());
  Buffer out = ir::MakeBuffer("out", {MakeInt(1)}, DataType::Float32());
  Var i = MakeVar("i");
  PrimExpr guard = ir::lt(i, MakeInt(2));
  PrimExpr lazy = ir::call(DataType::Float32(), "if_then_else", {guard, Load(x, {i}), MakeFloat(0.0)});
  PrimExpr eager = ir::select(guard, Load(x, {i}), MakeFloat(0.0));
  HostTensor xs = Pattern(DataType::Float32(), {2});
  HostTensor result(DataType::Float32(), {1});
  auto run = [&](const PrimExpr& value) {
    RunPrimFunc(Func({x, out}, make<LetStmtNode>(i, MakeInt(5), Store(out, value, {MakeInt(0)}))), {&xs, &result});
  };
  run(lazy);
  EXPECT_EQ(result.GetFloat(0), 0.0);
  EXPECT_THAT(ErrorOf([&] { run(eager); }), HasSubstr("buffer X: index (5,) is out of bounds for shape (2,)"));
}

// ---------------------------------------------------------------- errors

TEST(InterpreterTest, OutOfBoundsAccessIsAnError) {
  Var n = MakeVar("n"), i = MakeVar("i");
  Buffer x = ir::MakeBuffer("X", {n}, DataType::Float32());
  Buffer y = ir::MakeBuffer("Y", {n}, DataType::Float32());
  PrimFunc func = Func({x, y}, Loop(i, n, Store(y, Load(x, {i + 1}), {i})));
  HostTensor xs = Pattern(DataType::Float32(), {7});
  HostTensor ys(DataType::Float32(), {7});
  EXPECT_EQ(ErrorOf([&] { RunPrimFunc(func, {&xs, &ys}); }), "buffer X: index (7,) is out of bounds for shape (7,)");
}

TEST(InterpreterTest, ComputedDimensionMismatchNamesTheExpression) {
  Var n = MakeVar("n");
  Buffer a = ir::MakeBuffer("A", {n, n * 4}, DataType::Float32());
  PrimFunc func = Func({a}, make<EvaluateNode>(MakeInt(0, DataType::Int32())));
  HostTensor bad(DataType::Float32(), {1, 5});
  EXPECT_EQ(ErrorOf([&] { RunPrimFunc(func, {&bad}); }),
            "buffer A: expected dimension 1 to be 4 (n * 4 with n = 1), got 5");
  HostTensor good(DataType::Float32(), {2, 8});
  RunPrimFunc(func, {&good});
}

TEST(InterpreterTest, SymbolicDimensionMismatchNamesWhereItWasDefined) {
  Relu relu;
  HostTensor x(DataType::Float32(), {3, 4});
  HostTensor y(DataType::Float32(), {5, 4});
  EXPECT_EQ(ErrorOf([&] { RunPrimFunc(relu.func, {&x, &y}); }),
            "buffer Y: expected dimension 0 to be 3 (n, from buffer X dimension 0), got 5");
  HostTensor y_cols(DataType::Float32(), {3, 5});
  EXPECT_EQ(ErrorOf([&] { RunPrimFunc(relu.func, {&x, &y_cols}); }), "buffer Y: expected dimension 1 to be 4, got 5");
}

TEST(InterpreterTest, DimensionDefinedByALaterBuffer) {
  // A's shape (n * 2,) is checked once B's bare n is known.
  Var n = MakeVar("n");
  Buffer a = ir::MakeBuffer("A", {n * 2}, DataType::Float32());
  Buffer b = ir::MakeBuffer("B", {n}, DataType::Float32());
  PrimFunc func = Func({a, b}, make<EvaluateNode>(MakeInt(0, DataType::Int32())));
  HostTensor a6(DataType::Float32(), {6}), b3(DataType::Float32(), {3}), b4(DataType::Float32(), {4});
  RunPrimFunc(func, {&a6, &b3});
  EXPECT_EQ(ErrorOf([&] { RunPrimFunc(func, {&a6, &b4}); }),
            "buffer A: expected dimension 0 to be 8 (n * 2 with n = 4), got 6");
}

TEST(InterpreterTest, DtypeRankAndArgumentCountAreChecked) {
  Relu relu;
  HostTensor x_int(DataType::Int32(), {3, 4}), y(DataType::Float32(), {3, 4}), x_rank3(DataType::Float32(), {3, 4, 1});
  EXPECT_THAT(ErrorOf([&] { RunPrimFunc(relu.func, {&x_int, &y}); }),
              HasSubstr("buffer X): expected dtype float32, got int32"));
  EXPECT_THAT(ErrorOf([&] { RunPrimFunc(relu.func, {&x_rank3, &y}); }),
              HasSubstr("expected 2 dimensions (n, 4), got 3 dimensions (3, 4, 1)"));
  EXPECT_THAT(ErrorOf([&] { RunPrimFunc(relu.func, {&y}); }), HasSubstr("takes 2 arguments, got 1"));
  EXPECT_THAT(ErrorOf([&] { RunPrimFunc(relu.func, {&y, 3}); }), HasSubstr("expected a tensor, got a scalar"));
}

TEST(InterpreterTest, FailedAssertReportsItsMessage) {
  Var n = MakeVar("n");
  Buffer a = ir::MakeBuffer("A", {n}, DataType::Float32());
  Stmt check = make<AssertStmtNode>(ir::eq(ir::floormod(n, 2), MakeInt(0)), ir::MakeString("n must be even"), Stmt());
  PrimFunc func = Func({a}, check);
  HostTensor even(DataType::Float32(), {4}), odd(DataType::Float32(), {3});
  RunPrimFunc(func, {&even});
  EXPECT_EQ(ErrorOf([&] { RunPrimFunc(func, {&odd}); }), "n must be even");
}

TEST(InterpreterTest, IntegerDivisionByZeroIsAnError) {
  Var d = MakeVar("d");
  Buffer out = ir::MakeBuffer("out", {MakeInt(1)}, DataType::Int64());
  PrimFunc func = Func({out}, Store(out, ir::floordiv(MakeInt(7), d), {MakeInt(0)}), {d});
  HostTensor result(DataType::Int64(), {1});
  RunPrimFunc(func, {&result, 2});
  EXPECT_EQ(result.GetInt(0), 3);
  EXPECT_EQ(ErrorOf([&] { RunPrimFunc(func, {&result, 0}); }), "integer division by zero in `7 // d`");
}

TEST(InterpreterTest, UnboundVariableIsRejectedBeforeRunning) {
  Var n = MakeVar("n"), stray = MakeVar("stray");
  Buffer a = ir::MakeBuffer("A", {n}, DataType::Int64());
  PrimFunc func = Func({a}, Store(a, stray, {MakeInt(0)}));
  EXPECT_EQ(ErrorOf([&] { Interpreter interpreter(func); }),
            "interpreter: variable stray is used where nothing defines it");
}

TEST(InterpreterTest, BlockPredicateAndIterationDomain) {
  // A loop of 8 over a block whose domain is n = 6, guarded by i < 6.
  Var n = MakeVar("n"), i = MakeVar("i"), vi = MakeVar("vi");
  Buffer y = ir::MakeBuffer("Y", {n}, DataType::Int64());
  BlockSpec spec{"fill", {Spatial(vi, n)}, {i}, Store(y, vi * 10, {vi})};
  spec.predicate = ir::lt(i, n);
  PrimFunc guarded = Func({y}, Loop(i, MakeInt(8), Realize(spec)));
  HostTensor ys(DataType::Int64(), {6});
  RunPrimFunc(guarded, {&ys});
  for (int64_t k = 0; k < 6; ++k) EXPECT_EQ(ys.GetInt(k), k * 10);

  spec.predicate = PrimExpr();
  PrimFunc unguarded = Func({y}, Loop(i, MakeInt(8), Realize(spec)));
  EXPECT_EQ(ErrorOf([&] { RunPrimFunc(unguarded, {&ys}); }),
            "block fill: iteration variable vi = 6 is outside its domain [0, 6)");
}

TEST(InterpreterTest, VectorExpressionsAreReportedAsUnsupported) {
  Buffer a = ir::MakeBuffer("A", {MakeInt(4)}, DataType::Float32());
  PrimExpr ramp = make<ir::RampNode>(MakeInt(0), MakeInt(1), 4);
  PrimFunc func = Func({a}, Store(a, make<ir::BroadcastNode>(MakeFloat(1.0), 4), {ramp}));
  EXPECT_THAT(ErrorOf([&] { Interpreter interpreter(func); }), HasSubstr("vector expressions are not supported"));
}

}  // namespace
}  // namespace rlx::tir
