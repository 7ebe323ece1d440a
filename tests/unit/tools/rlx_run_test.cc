// `rlx run` on a shared library exported by ExportVMLibrary (a lowered
// module: shape checks, an allocation and one kernel): inputs and outputs as
// .npy, the printed summary, --bench, --profile, and the errors (missing or unknown
// input, wrong shape, corrupt library, unlowered .py), each a message on
// stderr and exit code 1. Non-tensor parameters (R.Shape, R.Prim, tuples of
// tensors) on a model built by `rlx build`, with their malformed values.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "rlx/codegen/vm_codegen.h"
#include "rlx/graph/expr.h"
#include "rlx/op/op.h"
#include "rlx/runtime/ndarray.h"
#include "rlx/text/parser.h"

namespace rlx {
namespace {

namespace fs = std::filesystem;
using graph::Expr;

struct RunResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

std::string ReadFile(const fs::path& path) {
  std::ifstream file(path, std::ios::binary);
  std::ostringstream content;
  content << file.rdbuf();
  return content.str();
}

constexpr const char* kKernel = R"(
from tvm.script import ir as I
from tvm.script import tir as T

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def double(x: T.handle, y: T.handle):
        n = T.int64()
        X = T.match_buffer(x, (n, T.int64(2)), "float32")
        Y = T.match_buffer(y, (n, T.int64(2)), "float32")
        for i, j in T.grid(n, T.int64(2)):
            with T.block("double"):
                vi, vj = T.axis.remap("SS", [i, j])
                Y[vi, vj] = X[vi, vj] * T.float32(2)
)";

Expr Int(int64_t value) { return make<graph::PrimValueNode>(make<ir::IntImmNode>(DataType::Int64(), value)); }
Expr Str(const std::string& text) { return make<graph::StringImmNode>(text); }
Expr Packed(const std::string& name, std::vector<Expr> args) {
  return make<graph::CallNode>(make<graph::ExternFuncNode>(name), std::move(args));
}

// main(x: (n, 2)) -> x * 2, lowered for the VM (MatchShapeCode: 1 stores to
// the heap, 0 asserts an immediate; MakeShapeCode: 1 loads, 0 is immediate).
ir::IRModule LoweredDouble() {
  ir::IRModule mod = text::ParseModuleText(kKernel);
  graph::Var x = graph::MakeVar("x", graph::TensorSInfo(DataType::Float32(), 2));
  std::vector<graph::Binding> bindings;
  auto bind = [&](const std::string& name, Expr value) {
    graph::Var var = graph::MakeVar(name, graph::ObjectSInfo());
    bindings.push_back(make<graph::VarBindingNode>(var, std::move(value)));
    return var;
  };
  std::string ctx = "ErrorContext(fn=main, loc=param[0], param=x, annotation=R.Tensor((n, 2), dtype=\"float32\")) ";
  graph::Var heap = bind("heap", make<graph::CallNode>(graph::GetOp("relax.call_builtin_with_ctx"),
                                                        std::vector<Expr>{make<graph::ExternFuncNode>("vm.builtin.alloc_shape_heap"),
                                                                          make<graph::TupleNode>(std::vector<Expr>{Int(1)})}));
  bind("_", Packed("vm.builtin.check_tensor_info", {x, Int(2), Str("float32"), Str(ctx)}));
  bind("_", Packed("vm.builtin.match_shape", {x, heap, Int(2), Int(1), Int(0), Int(0), Int(2), Str(ctx)}));
  graph::Var bytes = bind("bytes", Packed("vm.builtin.make_shape", {heap, Int(2), Int(1), Int(0), Int(0), Int(8)}));
  graph::Var storage = bind("storage", make<graph::CallNode>(graph::GetOp("relax.vm.alloc_storage"),
                                                              std::vector<Expr>{bytes, Int(0), Str("uint8"), Str("global")}));
  graph::Var shape = bind("shape", Packed("vm.builtin.make_shape", {heap, Int(2), Int(1), Int(0), Int(0), Int(2)}));
  graph::Var out = bind("out", make<graph::CallNode>(graph::GetOp("relax.vm.alloc_tensor"),
                                                      std::vector<Expr>{storage, Int(0), shape, Str("float32")}));
  bind("_", make<graph::CallNode>(make<graph::GlobalVarNode>("double"), std::vector<Expr>{x, out}));
  auto body = make<graph::SeqExprNode>(std::vector<graph::BindingBlock>{make<graph::BindingBlockNode>(bindings)}, out);
  return ir::WithFunction(mod, "main", make<graph::FunctionNode>(std::vector<graph::Var>{x}, body, graph::ObjectSInfo(), false));
}

// `mod` with graph function `name` exported under `symbol`.
ir::IRModule ExportedAs(const ir::IRModule& mod, const std::string& name, const std::string& symbol) {
  const auto* func = mod->Lookup(name).as<graph::FunctionNode>();
  auto* node = new graph::FunctionNode(func->params, func->body, func->ret_struct_info, func->is_pure,
                                       ir::DictWith(func->attrs, "global_symbol", ir::MakeString(symbol)),
                                       func->is_private);
  return ir::WithFunction(mod, name, ObjectRef(node));
}

class RlxRunTest : public testing::Test {
 protected:
  static void SetUpTestSuite() {
    op::RegisterAllOps();
    dir_ = fs::temp_directory_path() / ("rlx_run_test_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    codegen::ExportVMLibrary(LoweredDouble(), (dir_ / "double.so").string());
    codegen::ExportVMLibrary(ExportedAs(LoweredDouble(), "main", "forward"), (dir_ / "forward.so").string());
    runtime::NDArray::FromVector<float>({3, 2}, {1, 2, 3, 4, 5, -6}).SaveNpy((dir_ / "x.npy").string());
    runtime::NDArray::FromVector<float>({3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9}).SaveNpy((dir_ / "bad.npy").string());
  }
  static void TearDownTestSuite() { fs::remove_all(dir_); }

  RunResult Run(const std::string& args) const {
    std::string command = "cd '" + dir_.string() + "' && '" RLX_BIN "' " + args + " > out.txt 2> err.txt";
    int status = std::system(command.c_str());
    RunResult result;
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    result.out = ReadFile(dir_ / "out.txt");
    result.err = ReadFile(dir_ / "err.txt");
    return result;
  }

  static fs::path dir_;
};

fs::path RlxRunTest::dir_;

TEST_F(RlxRunTest, WritesOutputsAsNpy) {
  RunResult result = Run("run double.so --input x=x.npy --output y.npy");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  runtime::NDArray y = runtime::NDArray::LoadNpy((dir_ / "y.npy").string());
  EXPECT_EQ(y.shape(), (runtime::ShapeTuple{3, 2}));
  EXPECT_EQ(y.ToVector<float>(), (std::vector<float>{2, 4, 6, 8, 10, -12}));
}

TEST_F(RlxRunTest, PrintsASummaryAndBenchmarks) {
  RunResult result = Run("run double.so --entry main --input x=x.npy --bench 5");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find("output[0]: (3, 2) float32 min -12 max 10"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("bench: 5 runs of 'main', median"), std::string::npos) << result.out;
}

// --profile: one line per callee with its calls per run; the kernel and the
// shape builtins of the lowered function are all there.
TEST_F(RlxRunTest, ProfilesTheCallsOfTheBenchmarkRuns) {
  RunResult result = Run("run double.so --input x=x.npy --bench 4 --profile");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find("profile: 4 run(s)"), std::string::npos) << result.out;
  std::istringstream lines(result.out);
  std::string line;
  int kernel_lines = 0;
  while (std::getline(lines, line)) {
    std::istringstream fields(line);
    double total_ms = -1, calls_per_run = -1, us_per_call = -1;
    std::string share, callee;
    if (!(fields >> total_ms >> share >> calls_per_run >> us_per_call >> callee)) continue;
    if (callee == "double") {
      ++kernel_lines;
      EXPECT_EQ(calls_per_run, 1.0) << line;
      EXPECT_GE(total_ms, 0.0) << line;
    }
    if (callee == "vm.builtin.make_shape") {
      EXPECT_EQ(calls_per_run, 2.0) << line;
    }
  }
  EXPECT_EQ(kernel_lines, 1) << result.out;

  RunResult once = Run("run double.so --input x=x.npy --profile");
  ASSERT_EQ(once.exit_code, 0) << once.err;
  EXPECT_NE(once.out.find("profile: 1 run(s)"), std::string::npos) << once.out;
  EXPECT_NE(once.out.find("  double\n"), std::string::npos) << once.out;
}

TEST_F(RlxRunTest, ErrorsAreMessagesAndExitCodeOne) {
  RunResult missing = Run("run double.so");
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("missing input for parameter 'x'"), std::string::npos) << missing.err;

  RunResult unknown = Run("run double.so --input y=x.npy");
  EXPECT_EQ(unknown.exit_code, 1);
  EXPECT_NE(unknown.err.find("no parameter 'y' (parameters: x)"), std::string::npos) << unknown.err;

  RunResult wrong_shape = Run("run double.so --input x=bad.npy");
  EXPECT_EQ(wrong_shape.exit_code, 1);
  EXPECT_NE(wrong_shape.err.find("param=x, annotation=R.Tensor((n, 2), dtype=\"float32\")"), std::string::npos)
      << wrong_shape.err;
  EXPECT_NE(wrong_shape.err.find("got shape (3, 3)"), std::string::npos) << wrong_shape.err;

  RunResult bad_entry = Run("run double.so --entry nope --input x=x.npy");
  EXPECT_EQ(bad_entry.exit_code, 1);
  EXPECT_NE(bad_entry.err.find("no function 'nope'"), std::string::npos) << bad_entry.err;

  std::string so = ReadFile(dir_ / "double.so");
  std::ofstream(dir_ / "truncated.so", std::ios::binary) << so.substr(0, so.size() / 3);
  RunResult truncated = Run("run truncated.so --input x=x.npy");
  EXPECT_EQ(truncated.exit_code, 1);
  EXPECT_NE(truncated.err.find("truncated.so"), std::string::npos) << truncated.err;

  RunResult no_file = Run("run missing.so");
  EXPECT_EQ(no_file.exit_code, 1);
  EXPECT_NE(no_file.err.find("missing.so"), std::string::npos) << no_file.err;

  std::ofstream(dir_ / "high_level.py") << R"(@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(dtype="float32")) -> R.Tensor(dtype="float32"):
        y = R.add(x, x)
        return y
)";
  // An operand of unknown rank: legalize-ops cannot lower the call.
  RunResult high_level = Run("run high_level.py");
  EXPECT_EQ(high_level.exit_code, 1);
  EXPECT_NE(high_level.err.find("high_level.py:5:13: error"), std::string::npos) << high_level.err;
  EXPECT_NE(high_level.err.find("operator R.add could not be lowered"), std::string::npos) << high_level.err;
}

// The VM function is named by its global_symbol; --entry finds it by that
// name, and the error for the module name lists the functions there are.
TEST_F(RlxRunTest, EntryIsFoundByGlobalSymbol) {
  RunResult result = Run("run forward.so --entry forward --input x=x.npy --output y.npy");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(runtime::NDArray::LoadNpy((dir_ / "y.npy").string()).ToVector<float>(),
            (std::vector<float>{2, 4, 6, 8, 10, -12}));
  RunResult by_name = Run("run forward.so --input x=x.npy");
  EXPECT_EQ(by_name.exit_code, 1);
  EXPECT_NE(by_name.err.find("no function 'main' (functions: forward;"), std::string::npos) << by_name.err;
}

// A high-level .py goes through the default pipeline and runs in process.
TEST_F(RlxRunTest, CompilesAHighLevelModuleInProcess) {
  std::string kernel = kKernel;
  std::ofstream(dir_ / "model.py") << kernel + R"(
    @R.function
    def main(x: R.Tensor(("n", 2), dtype="float32")) -> R.Tensor(("n", 2), dtype="float32"):
        n = T.int64()
        cls = Module
        with R.dataflow():
            y = R.call_tir(cls.double, (x,), out_sinfo=R.Tensor((n, 2), dtype="float32"))
            z = R.call_tir(cls.double, (y,), out_sinfo=R.Tensor((n, 2), dtype="float32"))
            R.output(z)
        return z
)";
  RunResult result = Run("run model.py --input x=x.npy --output z.npy");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(runtime::NDArray::LoadNpy((dir_ / "z.npy").string()).ToVector<float>(),
            (std::vector<float>{4, 8, 12, 16, 20, -24}));
  RunResult wrong = Run("run model.py --input x=bad.npy");
  EXPECT_EQ(wrong.exit_code, 1);
  EXPECT_NE(wrong.err.find("param=x"), std::string::npos) << wrong.err;
}

// Functions whose parameters are a shape, prim values and a tuple of tensors.
constexpr const char* kNonTensorModel = R"(@I.ir_module
class Module:
    @R.function
    def reshape_to(x: R.Tensor(("n",), dtype="float32"), s: R.Shape(["a", "b"])) -> R.Tensor(("a", "b"), dtype="float32"):
        a = T.int64()
        b = T.int64()
        y = R.reshape(x, s)
        return y

    @R.function
    def repeat_rows(x: R.Tensor((1, 2), dtype="float32"), rows: R.Prim(value="m")) -> R.Tensor(("m", 2), dtype="float32"):
        m = T.int64()
        y = R.broadcast_to(x, R.shape([m, 2]))
        return y

    @R.function
    def sum_pair(pair: R.Tuple(R.Tensor(("n",), dtype="float32"), R.Tensor(("n",), dtype="float32")), k: R.Prim("int64")) -> R.Tuple(R.Tensor(("n",), dtype="float32"), R.Prim("int64")):
        n = T.int64()
        a = pair[0]
        b = pair[1]
        c = R.add(a, b)
        return (c, k)

    @R.function
    def scale_shift(A: R.Tensor(("n", 2), dtype="float32"), scale: R.Prim("float32")) -> R.Tensor(("n", 2), dtype="float32"):
        n = T.int64()
        with R.dataflow():
            b = A * scale
            c = R.add(b, R.prim_value(T.float32(1)))
            d = R.subtract(c, scale)
            R.output(d)
        return d
)";

class RlxRunNonTensorTest : public RlxRunTest {
 protected:
  static void SetUpTestSuite() {
    RlxRunTest::SetUpTestSuite();
    std::ofstream(dir_ / "params.py") << kNonTensorModel;
    runtime::NDArray::FromVector<float>({6}, {1, 2, 3, 4, 5, 6}).SaveNpy((dir_ / "six.npy").string());
    runtime::NDArray::FromVector<float>({1, 2}, {7, -8}).SaveNpy((dir_ / "row.npy").string());
    runtime::NDArray::FromVector<float>({3}, {1, 2, 3}).SaveNpy((dir_ / "a.npy").string());
    runtime::NDArray::FromVector<float>({3}, {10, 20, 30}).SaveNpy((dir_ / "b.npy").string());
  }

  void SetUp() override {
    if (!fs::exists(dir_ / "params.so")) {
      RunResult build = Run("build params.py -o params.so");
      ASSERT_EQ(build.exit_code, 0) << build.err;
    }
  }

  runtime::NDArray Output(const std::string& name) const { return runtime::NDArray::LoadNpy((dir_ / name).string()); }
};

TEST_F(RlxRunNonTensorTest, ShapeParameter) {
  for (const char* shape : {"2,3", "shape:2,3"}) {
    RunResult result = Run(std::string("run params.so --entry reshape_to --input x=six.npy --input s=") + shape +
                           " --output y.npy");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(Output("y.npy").shape(), (runtime::ShapeTuple{2, 3}));
    EXPECT_EQ(Output("y.npy").ToVector<float>(), (std::vector<float>{1, 2, 3, 4, 5, 6}));
  }
  RunResult three_by_two = Run("run params.so --entry reshape_to --input x=six.npy --input s=3,2 --output y.npy");
  ASSERT_EQ(three_by_two.exit_code, 0) << three_by_two.err;
  EXPECT_EQ(Output("y.npy").shape(), (runtime::ShapeTuple{3, 2}));
}

TEST_F(RlxRunNonTensorTest, PrimIntParameterDefinesASymbolicSize) {
  for (const char* rows : {"3", "int:3"}) {
    RunResult result = Run(std::string("run params.so --entry repeat_rows --input x=row.npy --input rows=") + rows +
                           " --output y.npy");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(Output("y.npy").shape(), (runtime::ShapeTuple{3, 2}));
    EXPECT_EQ(Output("y.npy").ToVector<float>(), (std::vector<float>{7, -8, 7, -8, 7, -8}));
  }
}

TEST_F(RlxRunNonTensorTest, TupleOfTensorsAndPrimInt) {
  for (const char* pair : {"a.npy,b.npy", "tuple:a.npy,b.npy"}) {
    RunResult result =
        Run(std::string("run params.so --entry sum_pair --input pair=") + pair + " --input k=-4");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.out.find("output[0]: (3,) float32 min 11 max 33"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("output[1]: -4"), std::string::npos) << result.out;
  }
}

// Binary ops with an R.Prim operand, compiled by `rlx build` (legalized with
// the prim as a scalar kernel parameter, fused) and run on the VM.
TEST_F(RlxRunNonTensorTest, PrimFloatOperandOfBinaryOps) {
  for (const char* scale : {"2.5", "float:2.5"}) {
    RunResult result = Run(std::string("run params.so --entry scale_shift --input A=row.npy --input scale=") + scale +
                           " --output y.npy");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(Output("y.npy").ToVector<float>(), (std::vector<float>{7 * 2.5f + 1 - 2.5f, -8 * 2.5f + 1 - 2.5f}));
  }
  // An integer is accepted for a float prim (as TVM's check_prim_value_info).
  RunResult integer = Run("run params.so --entry scale_shift --input A=six.npy --input scale=3");
  EXPECT_EQ(integer.exit_code, 1);  // six.npy has shape (6,), not (n, 2)
  EXPECT_NE(integer.err.find("param=A"), std::string::npos) << integer.err;
  runtime::NDArray::FromVector<float>({3, 2}, {1, 2, 3, 4, 5, 6}).SaveNpy((dir_ / "m32.npy").string());
  RunResult three = Run("run params.so --entry scale_shift --input A=m32.npy --input scale=3 --output y.npy");
  ASSERT_EQ(three.exit_code, 0) << three.err;
  EXPECT_EQ(Output("y.npy").ToVector<float>(), (std::vector<float>{1, 4, 7, 10, 13, 16}));
}

TEST_F(RlxRunNonTensorTest, BadValuesAreErrors) {
  auto expect_error = [&](const std::string& args, const std::string& message) {
    RunResult result = Run("run params.so " + args);
    EXPECT_EQ(result.exit_code, 1) << args;
    EXPECT_NE(result.err.find(message), std::string::npos) << args << "\n" << result.err;
  };
  // Malformed values, caught while reading the inputs.
  expect_error("--entry reshape_to --input x=six.npy --input s=2,x", "--input s=2,x: 'x' is not an integer");
  expect_error("--entry reshape_to --input x=six.npy --input s=2,-3", "--input s=2,-3: shape dimension -3 is negative");
  expect_error("--entry reshape_to --input x=six.npy --input s=2,1.5", "'1.5' is not an integer");
  expect_error("--entry repeat_rows --input x=row.npy --input rows=int:2.5", "--input rows=int:2.5: '2.5' is not an integer");
  expect_error("--entry repeat_rows --input x=row.npy --input rows=abc", "--input rows=abc: not a value");
  expect_error("--entry sum_pair --input pair=a.npy,b.txt --input k=1", "tuple field 'b.txt' is not a .npy file");
  // Values of the wrong kind or count, caught by the function's parameter checks.
  expect_error("--entry reshape_to --input x=six.npy --input s=2,3,1", "expect Shape with ndim 2 but get 3");
  expect_error("--entry reshape_to --input x=six.npy --input s=6", "param=s");
  // A target shape with another element count than the input is an error, not
  // a view or copy that reads past the input's 6 elements.
  expect_error("--entry reshape_to --input x=six.npy --input s=4,2", "cannot reshape (6,) to (4, 2)");
  expect_error("--entry reshape_to --input x=six.npy --input s=1,5", "cannot reshape (6,) to (1, 5)");
  expect_error("--entry repeat_rows --input x=row.npy --input rows=2,2", "param=rows");
  expect_error("--entry sum_pair --input pair=a.npy --input k=1", "param=pair");
  expect_error("--entry sum_pair --input pair=a.npy,b.npy,a.npy --input k=1", "expect a Tuple with 2 elements");
  expect_error("--entry sum_pair --input pair=a.npy,b.npy --input k=1.5", "expected a int64 value, but received float");
}

TEST_F(RlxRunNonTensorTest, HelpDescribesTheInputSyntax) {
  RunResult help = Run("run --help");
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("shape:2,3"), std::string::npos) << help.out;
  EXPECT_NE(help.out.find("tuple:A.npy,B.npy"), std::string::npos) << help.out;
  EXPECT_NE(help.out.find("int:5"), std::string::npos) << help.out;
}

}  // namespace
}  // namespace rlx
