// End to end: `rlx build` compiles a TVMScript module with a symbolic batch
// size (call_tir kernels, an If, a match_cast) through the default pipeline,
// VM code generation and LLVM into one .so; `rlx run` then runs it at two
// sizes. Errors (bad source, shape mismatch at run time, missing options)
// are messages on stderr with exit code 1.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "rlx/runtime/ndarray.h"

namespace rlx {
namespace {

namespace fs = std::filesystem;

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

// y = relu(x * 2 + 1) when flag, else x * 2 + 1; x: (n, 4).
constexpr const char* kModel = R"(# A symbolic batch size through call_tir, If and match_cast.
@I.ir_module
class Module:
    @T.prim_func(private=True)
    def scale_shift(var_x: T.handle, var_y: T.handle):
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(4)), "float32")
        y = T.match_buffer(var_y, (n, T.int64(4)), "float32")
        for i, j in T.grid(n, T.int64(4)):
            with T.block("scale_shift"):
                vi, vj = T.axis.remap("SS", [i, j])
                y[vi, vj] = x[vi, vj] * T.float32(2) + T.float32(1)

    @T.prim_func(private=True)
    def relu(var_x: T.handle, var_y: T.handle):
        m = T.int64()
        x = T.match_buffer(var_x, (m,), "float32")
        y = T.match_buffer(var_y, (m,), "float32")
        for i in range(m):
            with T.block("relu"):
                vi = T.axis.spatial(m, i)
                y[vi] = T.max(x[vi], T.float32(0))

    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), flag: R.Tensor((), dtype="bool")) -> R.Tensor(("n", 4), dtype="float32"):
        n = T.int64()
        cls = Module
        with R.dataflow():
            h = R.call_tir(cls.scale_shift, (x,), out_sinfo=R.Tensor((n, 4), dtype="float32"))
            R.output(h)
        if flag:
            flat = R.reshape(h, R.shape([n * 4]))
            r = R.call_tir(cls.relu, (flat,), out_sinfo=R.Tensor((n * 4,), dtype="float32"))
            out = R.reshape(r, R.shape([n, 4]))
        else:
            out = h
        return out
)";

class RlxBuildTest : public testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = fs::temp_directory_path() / ("rlx_build_test_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    std::ofstream(dir_ / "model.py") << kModel;
    for (auto [name, value] : {std::pair<const char*, uint8_t>{"on.npy", 1}, {"off.npy", 0}}) {
      runtime::NDArray flag = runtime::NDArray::Empty({}, runtime::DataType::Bool());
      flag.CopyFrom(&value, 1);
      flag.SaveNpy((dir_ / name).string());
    }
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

  // Runs model.so on x of shape (rows, 4) holding 0, -1, 2, -3, ...
  std::vector<float> RunModel(int64_t rows, const std::string& flag) const {
    std::vector<float> values;
    for (int64_t i = 0; i < rows * 4; ++i) values.push_back(static_cast<float>(i % 2 == 0 ? i : -i));
    runtime::NDArray::FromVector<float>({rows, 4}, values).SaveNpy((dir_ / "x.npy").string());
    RunResult run = Run("run model.so --input x=x.npy --input flag=" + flag + " --output y.npy");
    EXPECT_EQ(run.exit_code, 0) << run.err;
    if (run.exit_code != 0) return {};
    runtime::NDArray y = runtime::NDArray::LoadNpy((dir_ / "y.npy").string());
    EXPECT_EQ(y.shape(), (runtime::ShapeTuple{rows, 4}));
    return y.ToVector<float>();
  }

  static std::vector<float> Expected(int64_t rows, bool relu) {
    std::vector<float> values;
    for (int64_t i = 0; i < rows * 4; ++i) {
      float y = static_cast<float>(i % 2 == 0 ? i : -i) * 2 + 1;
      values.push_back(relu && y < 0 ? 0 : y);
    }
    return values;
  }

  static fs::path dir_;
};

fs::path RlxBuildTest::dir_;

TEST_F(RlxBuildTest, BuildsOnceAndRunsAtTwoSizes) {
  RunResult build = Run("build model.py -o model.so");
  ASSERT_EQ(build.exit_code, 0) << build.err;
  ASSERT_TRUE(fs::exists(dir_ / "model.so"));
  EXPECT_EQ(RunModel(3, "on.npy"), Expected(3, true));
  EXPECT_EQ(RunModel(7, "on.npy"), Expected(7, true));
  EXPECT_EQ(RunModel(5, "off.npy"), Expected(5, false));
}

TEST_F(RlxBuildTest, VerifiedMemoryPlanRunsUnderTheRunTimeVerifier) {
  RunResult build = Run("build model.py -o verified.so --verify-memory-plan --print-ir-after-all");
  ASSERT_EQ(build.exit_code, 0) << build.err;
  EXPECT_NE(build.err.find("R.memory.alloc_storage"), std::string::npos);
  std::vector<float> values = {1, -2, 3, -4, 5, -6, 7, -8};
  runtime::NDArray::FromVector<float>({2, 4}, values).SaveNpy((dir_ / "x2.npy").string());
  RunResult run = Run("run verified.so --input x=x2.npy --input flag=on.npy --output y2.npy --debug-memory");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(runtime::NDArray::LoadNpy((dir_ / "y2.npy").string()).ToVector<float>(),
            (std::vector<float>{3, 0, 7, 0, 11, 0, 15, 0}));
}

TEST_F(RlxBuildTest, OptionsAndPassInstruments) {
  RunResult build = Run("build model.py -o generic.so --target generic --opt-level 0 --time-passes");
  ASSERT_EQ(build.exit_code, 0) << build.err;
  EXPECT_NE(build.err.find("vm-shape-lower"), std::string::npos) << build.err;
  RunResult run = Run("run generic.so --input x=on.npy --input flag=on.npy");
  EXPECT_EQ(run.exit_code, 1);  // a 0-d tensor where (n, 4) is expected
  EXPECT_NE(run.err.find("ErrorContext(fn=main, loc=param[0], param=x"), std::string::npos) << run.err;
}

TEST_F(RlxBuildTest, ErrorsAreMessagesAndExitCodeOne) {
  std::ofstream(dir_ / "bad.py") << "@I.ir_module\nclass Module:\n    @R.function\n"
                                    "    def main(x: R.Tensor((2,), dtype=\"float32\")):\n        return y\n";
  RunResult bad = Run("build bad.py -o bad.so");
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("bad.py:5"), std::string::npos) << bad.err;
  EXPECT_FALSE(fs::exists(dir_ / "bad.so"));

  RunResult missing = Run("build no_such_model.py -o x.so");
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("no_such_model.py"), std::string::npos) << missing.err;

  RunResult bad_cpu = Run("build model.py -o cpu.so --target no-such-cpu");
  EXPECT_EQ(bad_cpu.exit_code, 1);
  EXPECT_NE(bad_cpu.err.find("unknown CPU 'no-such-cpu'"), std::string::npos) << bad_cpu.err;

  RunResult no_output = Run("build model.py");
  EXPECT_NE(no_output.exit_code, 0);
  EXPECT_NE(no_output.err.find("--output"), std::string::npos) << no_output.err;
}

}  // namespace
}  // namespace rlx
