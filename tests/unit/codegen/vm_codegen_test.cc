// End to end: lowered modules (as the VM lowering pipeline produces them:
// shape-heap builtins, R.vm.alloc_storage / alloc_tensor, kernel calls by
// GlobalVar) -> VMCodeGen + LLVM kernels -> VirtualMachine. The PrimFuncs are
// TVMScript; the lowered graph functions are built with the IR constructors
// (the R.vm.* ops belong to the lowering branch). Covers a dynamic-batch MLP
// for several batch sizes against a naive reference, two symbolic
// dimensions with a shape function, a data-dependent shape re-entering
// through match_cast, If, run-time errors, and the shared-library export
// with its corruption checks.
#include "rlx/codegen/vm_codegen.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>

#include "rlx/graph/expr.h"
#include "rlx/op/op.h"
#include "rlx/runtime/vm/vm.h"
#include "rlx/support/diagnostic.h"
#include "rlx/text/parser.h"
#include "rlx/transform/pipeline.h"

namespace rlx::codegen {
namespace {

namespace rt = runtime;
namespace rvm = runtime::vm;
using ::testing::HasSubstr;
using graph::Expr;

template <typename F>
std::string RuntimeErrorOf(F&& action) {
  try {
    action();
  } catch (const rt::RuntimeError& error) {
    return error.what();
  }
  return "";
}

// Builds one lowered graph function binding by binding.
class LoweredFunctionBuilder {
 public:
  graph::Var Param(const std::string& name, graph::StructInfo sinfo) {
    params_.push_back(graph::MakeVar(name, std::move(sinfo)));
    return params_.back();
  }
  graph::Var Bind(const std::string& name, Expr value) {
    graph::Var var = graph::MakeVar(name, graph::ObjectSInfo());
    bindings_.push_back(make<graph::VarBindingNode>(var, std::move(value)));
    return var;
  }
  graph::Function Finish(Expr body) {
    auto seq = make<graph::SeqExprNode>(std::vector<graph::BindingBlock>{make<graph::BindingBlockNode>(bindings_)},
                                        std::move(body));
    return make<graph::FunctionNode>(params_, seq, graph::ObjectSInfo(), /*is_pure=*/false);
  }

 private:
  std::vector<graph::Var> params_;
  std::vector<graph::Binding> bindings_;
};

Expr Int(int64_t value) { return make<graph::PrimValueNode>(make<ir::IntImmNode>(DataType::Int64(), value)); }
Expr Str(const std::string& text) { return make<graph::StringImmNode>(text); }
Expr Packed(const std::string& name, std::vector<Expr> args) {
  return make<graph::CallNode>(make<graph::ExternFuncNode>(name), std::move(args));
}
Expr CallOp(const std::string& op, std::vector<Expr> args) {
  return make<graph::CallNode>(graph::GetOp(op), std::move(args));
}
Expr CallGlobal(const std::string& name, std::vector<Expr> args) {
  return make<graph::CallNode>(make<graph::GlobalVarNode>(name), std::move(args));
}
Expr Tuple(std::vector<Expr> fields) { return make<graph::TupleNode>(std::move(fields)); }

constexpr int64_t kAssertEqualToImm = 0, kStoreToHeap = 1, kAssertEqualToLoad = 3;
constexpr int64_t kUseImm = 0, kLoadShape = 1;

std::string ErrCtx(const std::string& fn, int index, const std::string& param, const std::string& annotation) {
  return "ErrorContext(fn=" + fn + ", loc=param[" + std::to_string(index) + "], param=" + param +
         ", annotation=" + annotation + ") ";
}

// check_tensor_info + match_shape of a parameter, as VMShapeLower emits them.
// `dims[i]` is {code, value}.
void CheckParam(LoweredFunctionBuilder& b, const graph::Var& param, const graph::Var& heap, const std::string& dtype,
                const std::vector<std::pair<int64_t, int64_t>>& dims, const std::string& err_ctx) {
  b.Bind("_", Packed("vm.builtin.check_tensor_info",
                     {param, Int(static_cast<int64_t>(dims.size())), Str(dtype), Str(err_ctx)}));
  std::vector<Expr> args{param, heap, Int(static_cast<int64_t>(dims.size()))};
  for (const auto& [code, value] : dims) {
    args.push_back(Int(code));
    args.push_back(Int(value));
  }
  args.push_back(Str(err_ctx));
  b.Bind("_", Packed("vm.builtin.match_shape", std::move(args)));
}

// alloc_storage + alloc_tensor for a float32 tensor of shape (heap[n_slot], cols).
graph::Var AllocRows(LoweredFunctionBuilder& b, const graph::Var& heap, int64_t n_slot, int64_t cols,
                     const std::string& name) {
  Expr bytes = b.Bind(name + "_bytes", Packed("vm.builtin.make_shape",
                                               {heap, Int(2), Int(kLoadShape), Int(n_slot), Int(kUseImm), Int(cols * 4)}));
  graph::Var storage = b.Bind(name + "_storage", CallOp("relax.vm.alloc_storage", {bytes, Int(0), Str("uint8"), Str("global")}));
  Expr shape = b.Bind(name + "_shape", Packed("vm.builtin.make_shape",
                                               {heap, Int(2), Int(kLoadShape), Int(n_slot), Int(kUseImm), Int(cols)}));
  return b.Bind(name, CallOp("relax.vm.alloc_tensor", {storage, Int(0), shape, Str("float32")}));
}

constexpr const char* kMlpKernels = R"(
from tvm.script import ir as I
from tvm.script import tir as T

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def matmul0(x: T.handle, w: T.handle, y: T.handle):
        n = T.int64()
        X = T.match_buffer(x, (n, T.int64(784)), "float32")
        W = T.match_buffer(w, (T.int64(784), T.int64(128)), "float32")
        Y = T.match_buffer(y, (n, T.int64(128)), "float32")
        for i, j, k in T.grid(n, T.int64(128), T.int64(784)):
            with T.block("matmul"):
                vi, vj, vk = T.axis.remap("SSR", [i, j, k])
                with T.init():
                    Y[vi, vj] = T.float32(0)
                Y[vi, vj] = Y[vi, vj] + X[vi, vk] * W[vk, vj]

    @T.prim_func(private=True)
    def bias_relu(x: T.handle, b: T.handle, y: T.handle):
        n = T.int64()
        X = T.match_buffer(x, (n, T.int64(128)), "float32")
        B = T.match_buffer(b, (T.int64(128),), "float32")
        Y = T.match_buffer(y, (n, T.int64(128)), "float32")
        for i, j in T.grid(n, T.int64(128)):
            with T.block("bias_relu"):
                vi, vj = T.axis.remap("SS", [i, j])
                Y[vi, vj] = T.max(X[vi, vj] + B[vj], T.float32(0))

    @T.prim_func(private=True)
    def matmul1(x: T.handle, w: T.handle, y: T.handle):
        n = T.int64()
        X = T.match_buffer(x, (n, T.int64(128)), "float32")
        W = T.match_buffer(w, (T.int64(128), T.int64(10)), "float32")
        Y = T.match_buffer(y, (n, T.int64(10)), "float32")
        for i, j, k in T.grid(n, T.int64(10), T.int64(128)):
            with T.block("matmul"):
                vi, vj, vk = T.axis.remap("SSR", [i, j, k])
                with T.init():
                    Y[vi, vj] = T.float32(0)
                Y[vi, vj] = Y[vi, vj] + X[vi, vk] * W[vk, vj]

    @T.prim_func(private=True)
    def bias(x: T.handle, b: T.handle, y: T.handle):
        n = T.int64()
        X = T.match_buffer(x, (n, T.int64(10)), "float32")
        B = T.match_buffer(b, (T.int64(10),), "float32")
        Y = T.match_buffer(y, (n, T.int64(10)), "float32")
        for i, j in T.grid(n, T.int64(10)):
            with T.block("bias"):
                vi, vj = T.axis.remap("SS", [i, j])
                Y[vi, vj] = X[vi, vj] + B[vj]
)";

graph::StructInfo F32(std::vector<int64_t> dims) {
  std::vector<ir::PrimExpr> shape;
  for (int64_t d : dims) shape.push_back(make<ir::IntImmNode>(DataType::Int64(), d));
  return graph::TensorSInfo(shape, DataType::Float32());
}

// main(x: (n, 784), w0, b0, w1, b1) -> (n, 10), lowered.
ir::IRModule LoweredMlp() {
  ir::IRModule mod = text::ParseModuleText(kMlpKernels);
  LoweredFunctionBuilder b;
  graph::Var x = b.Param("x", graph::TensorSInfo(DataType::Float32(), 2));
  graph::Var w0 = b.Param("w0", F32({784, 128}));
  graph::Var b0 = b.Param("b0", F32({128}));
  graph::Var w1 = b.Param("w1", F32({128, 10}));
  graph::Var b1 = b.Param("b1", F32({10}));
  graph::Var heap = b.Bind("shape_heap", CallOp("relax.call_builtin_with_ctx",
                                                 {make<graph::ExternFuncNode>("vm.builtin.alloc_shape_heap"), Tuple({Int(1)})}));
  CheckParam(b, x, heap, "float32", {{kStoreToHeap, 0}, {kAssertEqualToImm, 784}},
             ErrCtx("main", 0, "x", "R.Tensor((n, 784), dtype=\"float32\")"));
  CheckParam(b, w0, heap, "float32", {{kAssertEqualToImm, 784}, {kAssertEqualToImm, 128}},
             ErrCtx("main", 1, "w0", "R.Tensor((784, 128), dtype=\"float32\")"));
  CheckParam(b, b0, heap, "float32", {{kAssertEqualToImm, 128}}, ErrCtx("main", 2, "b0", "R.Tensor((128,), dtype=\"float32\")"));
  CheckParam(b, w1, heap, "float32", {{kAssertEqualToImm, 128}, {kAssertEqualToImm, 10}},
             ErrCtx("main", 3, "w1", "R.Tensor((128, 10), dtype=\"float32\")"));
  CheckParam(b, b1, heap, "float32", {{kAssertEqualToImm, 10}}, ErrCtx("main", 4, "b1", "R.Tensor((10,), dtype=\"float32\")"));
  graph::Var lv0 = AllocRows(b, heap, 0, 128, "lv0");
  b.Bind("_", CallGlobal("matmul0", {x, w0, lv0}));
  graph::Var lv1 = AllocRows(b, heap, 0, 128, "lv1");
  b.Bind("_", CallGlobal("bias_relu", {lv0, b0, lv1}));
  b.Bind("_", CallOp("relax.vm.kill_object", {lv0}));
  graph::Var lv2 = AllocRows(b, heap, 0, 10, "lv2");
  b.Bind("_", CallGlobal("matmul1", {lv1, w1, lv2}));
  b.Bind("_", CallOp("relax.vm.kill_object", {lv1}));
  graph::Var out = AllocRows(b, heap, 0, 10, "out");
  b.Bind("_", CallGlobal("bias", {lv2, b1, out}));
  return ir::WithFunction(mod, "main", b.Finish(out));
}

std::vector<float> RandomVector(size_t size, std::mt19937& rng) {
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> values(size);
  for (auto& v : values) v = dist(rng);
  return values;
}

std::vector<float> NaiveMlp(const std::vector<float>& x, int64_t n, const std::vector<float>& w0,
                            const std::vector<float>& b0, const std::vector<float>& w1, const std::vector<float>& b1) {
  std::vector<float> hidden(n * 128), out(n * 10);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < 128; ++j) {
      double acc = 0;
      for (int64_t k = 0; k < 784; ++k) acc += double{x[i * 784 + k]} * w0[k * 128 + j];
      hidden[i * 128 + j] = std::max(static_cast<float>(acc) + b0[j], 0.0f);
    }
    for (int64_t j = 0; j < 10; ++j) {
      double acc = 0;
      for (int64_t k = 0; k < 128; ++k) acc += double{hidden[i * 128 + k]} * w1[k * 10 + j];
      out[i * 10 + j] = static_cast<float>(acc) + b1[j];
    }
  }
  return out;
}

class VMCodeGenTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { op::RegisterAllOps(); }
};

struct MlpWeights {
  std::vector<float> w0, b0, w1, b1;
  std::vector<rt::Value> AsArgs(const rt::NDArray& x) const {
    return {rt::Value(x), rt::Value(rt::NDArray::FromVector<float>({784, 128}, w0)),
            rt::Value(rt::NDArray::FromVector<float>({128}, b0)), rt::Value(rt::NDArray::FromVector<float>({128, 10}, w1)),
            rt::Value(rt::NDArray::FromVector<float>({10}, b1))};
  }
};

MlpWeights RandomWeights(std::mt19937& rng) {
  return {RandomVector(784 * 128, rng), RandomVector(128, rng), RandomVector(128 * 10, rng), RandomVector(10, rng)};
}

void ExpectMlpCorrect(rvm::VirtualMachine& vm, const MlpWeights& weights, int64_t n, std::mt19937& rng) {
  std::vector<float> x = RandomVector(n * 784, rng);
  rt::Value result = vm.Invoke("main", weights.AsArgs(rt::NDArray::FromVector<float>({n, 784}, x)));
  const rt::NDArray& out = result.AsNDArray();
  ASSERT_EQ(out.shape(), (rt::ShapeTuple{n, 10}));
  std::vector<float> expected = NaiveMlp(x, n, weights.w0, weights.b0, weights.w1, weights.b1);
  std::vector<float> actual = out.ToVector<float>();
  for (size_t i = 0; i < expected.size(); ++i) {
    ASSERT_NEAR(actual[i], expected[i], 1e-3f * (1 + std::fabs(expected[i]))) << "n=" << n << " element " << i;
  }
}

TEST_F(VMCodeGenTest, DynamicBatchMlpIsCorrectForEveryBatchSize) {
  VMCompiled compiled = CompileForVM(LoweredMlp());
  rvm::VirtualMachine vm(compiled.exec, compiled.library);
  EXPECT_EQ(vm.GetParamNames("main"), (std::vector<std::string>{"x", "w0", "b0", "w1", "b1"}));
  std::mt19937 rng(42);
  MlpWeights weights = RandomWeights(rng);
  for (int64_t n : {1, 7, 64, 1000}) ExpectMlpCorrect(vm, weights, n, rng);
}

TEST_F(VMCodeGenTest, RunTimeMismatchesNameFunctionParameterAndShapes) {
  VMCompiled compiled = CompileForVM(LoweredMlp());
  rvm::VirtualMachine vm(compiled.exec, compiled.library);
  std::mt19937 rng(1);
  MlpWeights weights = RandomWeights(rng);
  auto args = weights.AsArgs(rt::NDArray::Empty({3, 784}, rt::DataType::Float(32)));

  auto wrong_rank = args;
  wrong_rank[0] = rt::Value(rt::NDArray::Empty({784}, rt::DataType::Float(32)));
  std::string error = RuntimeErrorOf([&] { vm.Invoke("main", wrong_rank); });
  EXPECT_THAT(error, HasSubstr("fn=main, loc=param[0], param=x, annotation=R.Tensor((n, 784), dtype=\"float32\")"));
  EXPECT_THAT(error, HasSubstr("expect Tensor with ndim 2 but get 1 (shape (784,))"));

  auto wrong_dtype = args;
  wrong_dtype[2] = rt::Value(rt::NDArray::Empty({128}, rt::DataType::Float(64)));
  error = RuntimeErrorOf([&] { vm.Invoke("main", wrong_dtype); });
  EXPECT_THAT(error, HasSubstr("param=b0"));
  EXPECT_THAT(error, HasSubstr("expect Tensor with dtype float32 but get float64"));

  auto wrong_dim = args;
  wrong_dim[0] = rt::Value(rt::NDArray::Empty({3, 785}, rt::DataType::Float(32)));
  error = RuntimeErrorOf([&] { vm.Invoke("main", wrong_dim); });
  EXPECT_THAT(error, HasSubstr("annotation=R.Tensor((n, 784), dtype=\"float32\")"));
  EXPECT_THAT(error, HasSubstr("shape[1] mismatch to specified constant: expected 784, got shape (3, 785)"));

  auto missing = args;
  missing.pop_back();
  EXPECT_THAT(RuntimeErrorOf([&] { vm.Invoke("main", missing); }), HasSubstr("expects 5 arguments (x, w0, b0, w1, b1), got 4"));
}

constexpr const char* kShapeFuncs = R"(
from tvm.script import ir as I
from tvm.script import tir as T

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def shape_func(h: T.handle):
        H = T.match_buffer(h, (T.int64(4),), "int64")
        H[2] = H[0] * H[1]
        H[3] = H[0] + H[1]
)";

// main(x: (n, m)) -> (reshape(x, (n * m,)), n + m): symbolic expressions of
// two dimensions computed by a shape function on the heap, as VMShapeLower does.
TEST_F(VMCodeGenTest, TwoSymbolicDimensionsThroughAShapeFunction) {
  ir::IRModule mod = text::ParseModuleText(kShapeFuncs);
  LoweredFunctionBuilder b;
  graph::Var x = b.Param("x", graph::TensorSInfo(DataType::Float32(), 2));
  graph::Var heap = b.Bind("shape_heap", CallOp("relax.call_builtin_with_ctx",
                                                 {make<graph::ExternFuncNode>("vm.builtin.alloc_shape_heap"), Tuple({Int(4)})}));
  CheckParam(b, x, heap, "float32", {{kStoreToHeap, 0}, {kStoreToHeap, 1}},
             ErrCtx("main", 0, "x", "R.Tensor((n, m), dtype=\"float32\")"));
  b.Bind("_", CallGlobal("shape_func", {heap}));
  graph::Var flat_shape = b.Bind("flat_shape", Packed("vm.builtin.make_shape", {heap, Int(1), Int(kLoadShape), Int(2)}));
  graph::Var flat = b.Bind("flat", Packed("vm.builtin.reshape", {x, flat_shape}));
  graph::Var sum = b.Bind("sum", Packed("vm.builtin.make_prim_value", {heap, Int(kLoadShape), Int(3)}));
  mod = ir::WithFunction(mod, "main", b.Finish(Tuple({flat, sum})));

  VMCompiled compiled = CompileForVM(mod);
  rvm::VirtualMachine vm(compiled.exec, compiled.library);
  for (auto [n, m] : {std::pair<int64_t, int64_t>{2, 3}, {5, 7}, {1, 1}}) {
    std::vector<float> data(n * m);
    for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<float>(i);
    rt::Value result = vm.Invoke("main", {rt::Value(rt::NDArray::FromVector<float>({n, m}, data))});
    EXPECT_EQ(result.AsArray()[0].AsNDArray().shape(), (rt::ShapeTuple{n * m}));
    EXPECT_EQ(result.AsArray()[0].AsNDArray().ToVector<float>(), data);
    EXPECT_EQ(result.AsArray()[1].AsInt(), n + m);
  }
}

constexpr const char* kDoubleKernel = R"(
from tvm.script import ir as I
from tvm.script import tir as T

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def double(x: T.handle, y: T.handle):
        k = T.int64()
        X = T.match_buffer(x, (k,), "float32")
        Y = T.match_buffer(y, (k,), "float32")
        for i in range(k):
            with T.block("double"):
                vi = T.axis.spatial(k, i)
                Y[vi] = X[vi] * T.float32(2)
)";

// The positive elements of a 1-d tensor: an output shape known only at run time.
void RegisterPositiveFilter() {
  rt::Registry::Register(
      "test.positive",
      [](const rt::Args& args) {
        std::vector<float> kept;
        for (float v : args.GetNDArray(0).ToVector<float>()) {
          if (v > 0) kept.push_back(v);
        }
        return rt::Value(rt::NDArray::FromVector<float>({static_cast<int64_t>(kept.size())}, kept));
      },
      true);
}

// main(x: (n,)): lv = test.positive(x); y = match_cast(lv, (k,)); double(y).
// strict(x: (n,)): the same, but match_cast(lv, (n,)) must fail unless all are positive.
ir::IRModule DataDependentModule() {
  ir::IRModule mod = text::ParseModuleText(kDoubleKernel);
  for (bool strict : {false, true}) {
    LoweredFunctionBuilder b;
    std::string fn = strict ? "strict" : "main";
    graph::Var x = b.Param("x", graph::TensorSInfo(DataType::Float32(), 1));
    graph::Var heap = b.Bind("shape_heap", CallOp("relax.call_builtin_with_ctx",
                                                   {make<graph::ExternFuncNode>("vm.builtin.alloc_shape_heap"), Tuple({Int(2)})}));
    CheckParam(b, x, heap, "float32", {{kStoreToHeap, 0}}, ErrCtx(fn, 0, "x", "R.Tensor((n,), dtype=\"float32\")"));
    graph::Var lv = b.Bind("lv", Packed("test.positive", {x}));
    std::string cast_ctx = "ErrorContext(match_cast, struct_info=R.Tensor((" + std::string(strict ? "n" : "k") +
                           ",), dtype=\"float32\")) ";
    b.Bind("_", Packed("vm.builtin.check_tensor_info", {lv, Int(1), Str("float32"), Str(cast_ctx)}));
    b.Bind("_", Packed("vm.builtin.match_shape", {lv, heap, Int(1), Int(strict ? kAssertEqualToLoad : kStoreToHeap),
                                                  Int(strict ? 0 : 1), Str(cast_ctx)}));
    int64_t out_slot = strict ? 0 : 1;
    Expr bytes = b.Bind("bytes", Packed("vm.builtin.make_shape",
                                        {heap, Int(2), Int(kLoadShape), Int(out_slot), Int(kUseImm), Int(4)}));
    graph::Var storage = b.Bind("storage", CallOp("relax.vm.alloc_storage", {bytes, Int(0), Str("uint8"), Str("global")}));
    Expr shape = b.Bind("shape", Packed("vm.builtin.make_shape", {heap, Int(1), Int(kLoadShape), Int(out_slot)}));
    graph::Var out = b.Bind("out", CallOp("relax.vm.alloc_tensor", {storage, Int(0), shape, Str("float32")}));
    b.Bind("_", CallGlobal("double", {lv, out}));
    mod = ir::WithFunction(mod, fn, b.Finish(out));
  }
  return mod;
}

TEST_F(VMCodeGenTest, DataDependentShapeReentersThroughMatchCast) {
  RegisterPositiveFilter();
  VMCompiled compiled = CompileForVM(DataDependentModule());
  rvm::VirtualMachine vm(compiled.exec, compiled.library);
  auto x = rt::NDArray::FromVector<float>({5}, {1, -2, 3, -4, 5});
  rt::Value result = vm.Invoke("main", {rt::Value(x)});
  EXPECT_EQ(result.AsNDArray().ToVector<float>(), (std::vector<float>{2, 6, 10}));
  auto all_positive = rt::NDArray::FromVector<float>({2}, {1, 2});
  EXPECT_EQ(vm.Invoke("strict", {rt::Value(all_positive)}).AsNDArray().ToVector<float>(), (std::vector<float>{2, 4}));
  std::string error = RuntimeErrorOf([&] { vm.Invoke("strict", {rt::Value(x)}); });
  EXPECT_THAT(error, HasSubstr("ErrorContext(match_cast, struct_info=R.Tensor((n,), dtype=\"float32\"))"));
  EXPECT_THAT(error, HasSubstr("shape[0] mismatch to a previous populated value: expected 5, got shape (3,)"));
}

// choose(c: bool tensor, a, b) -> a if c else b: If with a merge register.
TEST_F(VMCodeGenTest, IfSelectsABranch) {
  LoweredFunctionBuilder b;
  graph::Var c = b.Param("c", graph::TensorSInfo(DataType::Bool(), 0));
  graph::Var a = b.Param("a", graph::TensorSInfo(DataType::Float32(), 1));
  graph::Var bb = b.Param("b", graph::TensorSInfo(DataType::Float32(), 1));
  auto branch = [](Expr value) {
    return make<graph::SeqExprNode>(std::vector<graph::BindingBlock>{}, std::move(value));
  };
  graph::Var picked = b.Bind("picked", make<graph::IfNode>(c, branch(Tuple({a, Int(1)})), branch(Tuple({bb, Int(2)}))));
  ir::IRModule mod = make<ir::IRModuleNode>(std::vector<ir::IRModuleNode::Entry>{{"choose", b.Finish(picked)}}, nullptr);
  VMCompiled compiled = CompileForVM(mod);
  EXPECT_FALSE(compiled.library.defined());
  rvm::VirtualMachine vm(compiled.exec, compiled.library);
  auto av = rt::Value(rt::NDArray::FromVector<float>({1}, {1}));
  auto bv = rt::Value(rt::NDArray::FromVector<float>({1}, {2}));
  auto yes = rt::NDArray::Empty({}, rt::DataType::Bool());
  static_cast<uint8_t*>(yes.data())[0] = 1;
  auto no = rt::NDArray::Empty({}, rt::DataType::Bool());
  static_cast<uint8_t*>(no.data())[0] = 0;
  EXPECT_EQ(vm.Invoke("choose", {rt::Value(yes), av, bv}).AsArray()[1].AsInt(), 1);
  EXPECT_EQ(vm.Invoke("choose", {rt::Value(no), av, bv}).AsArray()[1].AsInt(), 2);
  EXPECT_EQ(compiled.exec->AsText(),
            "@choose(c, a, b) regs=7:\n"
            "  call  vm.builtin.read_if_cond in: %0 dst: %3\n"
            "  if    %3, 4\n"
            "  call  vm.builtin.make_tuple in: %1, i1 dst: %5\n"
            "  call  vm.builtin.copy in: %5 dst: %4\n"
            "  goto  3\n"
            "  call  vm.builtin.make_tuple in: %2, i2 dst: %6\n"
            "  call  vm.builtin.copy in: %6 dst: %4\n"
            "  ret   %4\n"
            "\n"
            "functions:\n"
            "  f[1] packed vm.builtin.read_if_cond\n"
            "  f[2] packed vm.builtin.make_tuple\n"
            "  f[3] packed vm.builtin.copy\n");
}

TEST_F(VMCodeGenTest, HighLevelOperatorsAreCompileErrors) {
  ir::IRModule mod = text::ParseModuleText(R"(
from tvm.script import ir as I
from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        y = R.add(x, x)
        return y
)");
  try {
    VMCodeGen(mod);
    FAIL() << "expected a CompileError";
  } catch (const CompileError& error) {
    EXPECT_THAT(error.what(), HasSubstr("operator R.add"));
    EXPECT_THAT(error.what(), HasSubstr("lowering pipeline"));
  }
}

class ExportedLibraryTest : public VMCodeGenTest {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::path(::testing::TempDir()) / ("vm_export_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string Path(const std::string& name) const { return (dir_ / name).string(); }
  std::filesystem::path dir_;
};

std::string ReadBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void WriteBytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

TEST_F(ExportedLibraryTest, SharedLibraryCarriesKernelsAndExecutable) {
  std::string so = Path("mlp.so");
  ExportVMLibrary(LoweredMlp(), so);
  rt::Module library;
  auto exec = rvm::Executable::LoadFromLibrary(so, &library);
  EXPECT_EQ(exec->AsText(), VMCodeGen(LoweredMlp())->AsText());
  rvm::VirtualMachine vm(exec, library);
  std::mt19937 rng(7);
  MlpWeights weights = RandomWeights(rng);
  for (int64_t n : {1, 33}) ExpectMlpCorrect(vm, weights, n, rng);

  // A truncated library does not load.
  std::string bytes = ReadBytes(so);
  WriteBytes(Path("truncated.so"), bytes.substr(0, bytes.size() / 2));
  EXPECT_NE(RuntimeErrorOf([&] { rvm::Executable::LoadFromLibrary(Path("truncated.so")); }), "");

  // A corrupted executable inside a well-formed library is a checksum error.
  size_t magic = bytes.find("RLXVMEXE");
  ASSERT_NE(magic, std::string::npos);
  std::string corrupt = bytes;
  corrupt[magic + 40] = static_cast<char>(corrupt[magic + 40] ^ 0x21);
  WriteBytes(Path("corrupt.so"), corrupt);
  EXPECT_THAT(RuntimeErrorOf([&] { rvm::Executable::LoadFromLibrary(Path("corrupt.so")); }), HasSubstr("checksum mismatch"));

  // A kernel missing from the library is an error when the VM is created.
  auto renamed = std::make_shared<rvm::Executable>(*exec);
  for (auto& info : renamed->func_table) {
    if (info.name == "matmul1") info.name = "matmul_missing";
  }
  renamed->func_map.clear();
  for (size_t i = 0; i < renamed->func_table.size(); ++i) renamed->func_map[renamed->func_table[i].name] = static_cast<int64_t>(i);
  EXPECT_THAT(RuntimeErrorOf([&] { rvm::VirtualMachine bad(renamed, library); }), HasSubstr("'matmul_missing'"));
}

// The kernels compiled as three LLVM modules on three threads (one kernel
// each) link into one library that runs like the single-module one.
TEST_F(ExportedLibraryTest, KernelsCompiledInShardsLinkIntoOneLibrary) {
  std::string so = Path("mlp_sharded.so");
  CodegenOptions options;
  options.compile_threads = 3;
  ExportVMLibrary(LoweredMlp(), so, options);
  rt::Module library;
  auto exec = rvm::Executable::LoadFromLibrary(so, &library);
  rvm::VirtualMachine vm(exec, library);
  std::mt19937 rng(11);
  MlpWeights weights = RandomWeights(rng);
  for (int64_t n : {1, 17, 64}) ExpectMlpCorrect(vm, weights, n, rng);
}

// High-level modules through the default pipeline (vm-lower) and VMCodeGen.
class PipelineToVMTest : public VMCodeGenTest {
 protected:
  static VMCompiled CompileHighLevel(const std::string& text) {
    return CompileForVM(transform::DefaultPipeline()(text::ParseModuleText(text)));
  }
};

std::string HighLevelMlp() {
  std::string kernels = kMlpKernels;
  return kernels + R"(
    @R.function
    def main(x: R.Tensor(("n", 784), dtype="float32"), w0: R.Tensor((784, 128), dtype="float32"),
             b0: R.Tensor((128,), dtype="float32"), w1: R.Tensor((128, 10), dtype="float32"),
             b1: R.Tensor((10,), dtype="float32")) -> R.Tensor(("n", 10), dtype="float32"):
        n = T.int64()
        cls = Module
        with R.dataflow():
            lv0 = R.call_tir(cls.matmul0, (x, w0), out_sinfo=R.Tensor((n, 128), dtype="float32"))
            lv1 = R.call_tir(cls.bias_relu, (lv0, b0), out_sinfo=R.Tensor((n, 128), dtype="float32"))
            lv2 = R.call_tir(cls.matmul1, (lv1, w1), out_sinfo=R.Tensor((n, 10), dtype="float32"))
            gv = R.call_tir(cls.bias, (lv2, b1), out_sinfo=R.Tensor((n, 10), dtype="float32"))
            R.output(gv)
        return gv
)";
}

TEST_F(PipelineToVMTest, HighLevelDynamicBatchMlp) {
  VMCompiled compiled = CompileHighLevel(HighLevelMlp());
  rvm::VirtualMachine vm(compiled.exec, compiled.library);
  std::mt19937 rng(3);
  MlpWeights weights = RandomWeights(rng);
  for (int64_t n : {1, 7, 64, 1000}) ExpectMlpCorrect(vm, weights, n, rng);
  auto args = weights.AsArgs(rt::NDArray::Empty({2, 783}, rt::DataType::Float(32)));
  std::string error = RuntimeErrorOf([&] { vm.Invoke("main", args); });
  EXPECT_THAT(error, HasSubstr("ErrorContext(fn=main, loc=param[0], param=x, annotation=R.Tensor((n, 784), dtype=\"float32\"))"));
  EXPECT_THAT(error, HasSubstr("got shape (2, 783)"));
  args = weights.AsArgs(rt::NDArray::Empty({2, 784}, rt::DataType::Int(32)));
  EXPECT_THAT(RuntimeErrorOf([&] { vm.Invoke("main", args); }), HasSubstr("expect Tensor with dtype float32 but get int32"));
}

TEST_F(PipelineToVMTest, HighLevelTwoSymbolicDims) {
  VMCompiled compiled = CompileHighLevel(R"(
from tvm.script import ir as I
from tvm.script import tir as T
from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def flatten(x: T.handle, y: T.handle):
        n = T.int64()
        m = T.int64()
        X = T.match_buffer(x, (n, m), "float32")
        Y = T.match_buffer(y, (n * m,), "float32")
        for i, j in T.grid(n, m):
            with T.block("flatten"):
                vi, vj = T.axis.remap("SS", [i, j])
                Y[vi * m + vj] = X[vi, vj]

    @R.function
    def main(x: R.Tensor(("n", "m"), dtype="float32")) -> R.Tuple(R.Tensor(("n * m",), dtype="float32"), R.Prim(value="n + m")):
        n = T.int64()
        m = T.int64()
        cls = Module
        y = R.call_tir(cls.flatten, (x,), out_sinfo=R.Tensor((n * m,), dtype="float32"))
        return (y, R.prim_value(n + m))
)");
  rvm::VirtualMachine vm(compiled.exec, compiled.library);
  for (auto [n, m] : {std::pair<int64_t, int64_t>{2, 3}, {4, 1}, {7, 5}}) {
    std::vector<float> data(n * m);
    for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<float>(i) * 0.5f;
    rt::Value result = vm.Invoke("main", {rt::Value(rt::NDArray::FromVector<float>({n, m}, data))});
    EXPECT_EQ(result.AsArray()[0].AsNDArray().shape(), (rt::ShapeTuple{n * m}));
    EXPECT_EQ(result.AsArray()[0].AsNDArray().ToVector<float>(), data);
    EXPECT_EQ(result.AsArray()[1].AsInt(), n + m);
  }
}

TEST_F(PipelineToVMTest, HighLevelDataDependentMatchCast) {
  RegisterPositiveFilter();
  std::string kernel = kDoubleKernel;
  VMCompiled compiled = CompileHighLevel(kernel + R"(
    @R.function
    def main(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(dtype="float32", ndim=1):
        n = T.int64()
        k = T.int64()
        cls = Module
        lv = R.call_pure_packed("test.positive", x, sinfo_args=(R.Tensor(dtype="float32", ndim=1),))
        y = R.match_cast(lv, R.Tensor((k,), dtype="float32"))
        z = R.call_tir(cls.double, (y,), out_sinfo=R.Tensor((k,), dtype="float32"))
        return z

    @R.function
    def strict(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        n = T.int64()
        cls = Module
        lv = R.call_pure_packed("test.positive", x, sinfo_args=(R.Tensor(dtype="float32", ndim=1),))
        y = R.match_cast(lv, R.Tensor((n,), dtype="float32"))
        z = R.call_tir(cls.double, (y,), out_sinfo=R.Tensor((n,), dtype="float32"))
        return z
)");
  rvm::VirtualMachine vm(compiled.exec, compiled.library);
  auto x = rt::NDArray::FromVector<float>({6}, {1, -2, 3, -4, 5, 0});
  EXPECT_EQ(vm.Invoke("main", {rt::Value(x)}).AsNDArray().ToVector<float>(), (std::vector<float>{2, 6, 10}));
  auto positive = rt::NDArray::FromVector<float>({2}, {0.5f, 2});
  EXPECT_EQ(vm.Invoke("strict", {rt::Value(positive)}).AsNDArray().ToVector<float>(), (std::vector<float>{1, 4}));
  std::string error = RuntimeErrorOf([&] { vm.Invoke("strict", {rt::Value(x)}); });
  EXPECT_THAT(error, HasSubstr("match_cast"));
  EXPECT_THAT(error, HasSubstr("got shape (3,)"));
}

// A kernel with a while loop (data-dependent trip count per element) through
// the default pipeline, LLVM and the VM.
TEST_F(PipelineToVMTest, WhileLoopKernel) {
  VMCompiled compiled = CompileHighLevel(R"(
from tvm.script import ir as I
from tvm.script import tir as T
from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def doublings(x: T.handle, y: T.handle):
        n = T.int64()
        X = T.match_buffer(x, (n,), "float32")
        Y = T.match_buffer(y, (n,), "int32")
        acc = T.decl_buffer((1,), "float32")
        for i in range(n):
            Y[i] = 0
            acc[0] = X[i]
            while acc[0] < T.float32(100):
                acc[0] = acc[0] * T.float32(2)
                Y[i] = Y[i] + 1

    @R.function
    def main(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="int32"):
        n = T.int64()
        cls = Module
        y = R.call_tir(cls.doublings, (x,), out_sinfo=R.Tensor((n,), dtype="int32"))
        return y
)");
  rvm::VirtualMachine vm(compiled.exec, compiled.library);
  std::vector<float> data = {1, 99, 100, 0.5f, 30, 250, 7};
  std::vector<int32_t> expected;
  for (float v : data) {
    int32_t steps = 0;
    for (; v < 100; v *= 2) ++steps;
    expected.push_back(steps);
  }
  EXPECT_EQ(expected, (std::vector<int32_t>{7, 1, 0, 8, 2, 0, 4}));
  auto x = rt::NDArray::FromVector<float>({7}, data);
  EXPECT_EQ(vm.Invoke("main", {rt::Value(x)}).AsNDArray().ToVector<int32_t>(), expected);
}

// `module` with function `name` exported as `symbol` (its global_symbol).
ir::IRModule WithSymbol(const ir::IRModule& mod, const std::string& name, const std::string& symbol) {
  ObjectRef func = mod->Lookup(name);
  if (const auto* graph_func = func.as<graph::FunctionNode>()) {
    auto* node = new graph::FunctionNode(graph_func->params, graph_func->body, graph_func->ret_struct_info,
                                         graph_func->is_pure,
                                         ir::DictWith(graph_func->attrs, "global_symbol", ir::MakeString(symbol)),
                                         graph_func->is_private);
    return ir::WithFunction(mod, name, ObjectRef(node));
  }
  const auto* prim_func = func.as<tir::PrimFuncNode>();
  auto* node = new tir::PrimFuncNode();
  node->params = prim_func->params;
  node->buffer_map = prim_func->buffer_map;
  node->body = prim_func->body;
  node->attrs = ir::DictWith(prim_func->attrs, "global_symbol", ir::MakeString(symbol));
  return ir::WithFunction(mod, name, ObjectRef(node));
}

// As TVM's VM codegen: functions are exported (and called) under their
// global_symbol, graph functions and kernels alike.
TEST_F(PipelineToVMTest, FunctionsAreNamedByTheirGlobalSymbol) {
  std::string kernel = kDoubleKernel;
  ir::IRModule mod = transform::DefaultPipeline()(text::ParseModuleText(kernel + R"(
    @R.function
    def main(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        n = T.int64()
        cls = Module
        y = cls.twice(x)
        return y

    @R.function
    def twice(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        n = T.int64()
        cls = Module
        z = R.call_tir(cls.double, (x,), out_sinfo=R.Tensor((n,), dtype="float32"))
        return z
)"));
  mod = WithSymbol(WithSymbol(WithSymbol(mod, "main", "forward"), "twice", "twice_impl"), "double", "k_double");
  std::shared_ptr<rvm::Executable> exec = VMCodeGen(mod);
  std::vector<std::string> names = exec->GetVMFunctionNames();
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"forward", "twice_impl"}));
  EXPECT_EQ(exec->FindFunction("main"), -1);
  EXPECT_EQ(exec->FindFunction("twice"), -1);
  EXPECT_THAT(exec->AsText(), HasSubstr("k_double"));
  std::vector<std::string> kernel_names;
  for (const auto& [symbol, func] : CollectPrimFuncs(mod)) kernel_names.push_back(symbol);
  EXPECT_THAT(kernel_names, ::testing::Contains("k_double"));
  EXPECT_THAT(kernel_names, ::testing::Not(::testing::Contains("double")));

  VMCompiled compiled = CompileForVM(mod);
  rvm::VirtualMachine vm(compiled.exec, compiled.library);
  auto x = rt::NDArray::FromVector<float>({3}, {1, -2, 3});
  EXPECT_EQ(vm.Invoke("forward", {rt::Value(x)}).AsNDArray().ToVector<float>(), (std::vector<float>{2, -4, 6}));
  EXPECT_THAT(RuntimeErrorOf([&] { vm.Invoke("main", {rt::Value(x)}); }), HasSubstr("no function 'main'"));
}

TEST_F(PipelineToVMTest, TwoFunctionsWithOneGlobalSymbolAreAnError) {
  std::string kernel = kDoubleKernel;
  ir::IRModule mod = transform::DefaultPipeline()(text::ParseModuleText(kernel + R"(
    @R.function
    def main(x: R.Tensor((2,), dtype="float32")) -> R.Tensor((2,), dtype="float32"):
        return x

    @R.function
    def other(x: R.Tensor((2,), dtype="float32")) -> R.Tensor((2,), dtype="float32"):
        return x
)"));
  mod = WithSymbol(mod, "other", "main");
  try {
    VMCodeGen(mod);
    FAIL() << "expected a CompileError";
  } catch (const CompileError& error) {
    EXPECT_THAT(error.what(), HasSubstr("functions 'main' and 'other' are both exported as global_symbol 'main'"));
  }
}

}  // namespace
}  // namespace rlx::codegen
