// `rlx import`, `rlx build MODEL.onnx` and `rlx run` with ONNX input names,
// through the built `rlx` binary: the printed TVMScript keeps symbolic dims
// and parses back (`rlx opt`), --input-shape pins or renames dims, the
// compiled library runs with the ONNX input name, and errors (unsupported
// operators, a bad --input-shape, a truncated model) exit non-zero with a
// message.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "onnx_test_util.h"
#include "rlx/runtime/ndarray.h"

namespace rlx::frontend {
namespace {

namespace fs = std::filesystem;
namespace rt = runtime;
using ::testing::HasSubstr;
using testing::OnnxModelBuilder;

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

class OnnxCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // y = relu(x.1 @ w) with x.1: (batch, 2).
    OnnxModelBuilder b;
    b.Input("x.1", {std::string("batch"), int64_t{2}});
    b.Initializer("w", {2, 3}, {1, -1, 2, 0.5f, 1, -3});
    b.Node("MatMul", {"x.1", "w"}, {"h"});
    b.Node("Relu", {"h"}, {"y"});
    b.Output("y");
    model_ = b.Write("cli_mlp");
    dir_ = fs::path(model_).parent_path();
  }

  RunResult Run(const std::string& args) const {
    std::string command = "cd '" + dir_.string() + "' && '" RLX_BIN "' " + args + " > cli_out.txt 2> cli_err.txt";
    int status = std::system(command.c_str());
    RunResult result;
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    result.out = ReadFile(dir_ / "cli_out.txt");
    result.err = ReadFile(dir_ / "cli_err.txt");
    return result;
  }

  std::string model_;
  fs::path dir_;
};

TEST_F(OnnxCliTest, ImportPrintsTVMScriptWithSymbolicDimsThatParsesBack) {
  RunResult result = Run("import cli_mlp.onnx -o cli_mlp.py");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  std::string text = ReadFile(dir_ / "cli_mlp.py");
  EXPECT_THAT(text, HasSubstr("def main(x_1: R.Tensor((\"batch\", 2), dtype=\"float32\"))"));
  EXPECT_THAT(text, HasSubstr("R.matmul(x_1"));
  RunResult reparsed = Run("opt cli_mlp.py");
  EXPECT_EQ(reparsed.exit_code, 0) << reparsed.err;
  EXPECT_EQ(reparsed.out, text);

  RunResult renamed = Run("import cli_mlp.onnx --input-shape x.1=n,2");
  ASSERT_EQ(renamed.exit_code, 0) << renamed.err;
  EXPECT_THAT(renamed.out, HasSubstr("R.Tensor((\"n\", 2), dtype=\"float32\")"));
  RunResult pinned = Run("import cli_mlp.onnx --input-shape x.1=4,2");
  ASSERT_EQ(pinned.exit_code, 0) << pinned.err;
  EXPECT_THAT(pinned.out, HasSubstr("R.Tensor((4, 2), dtype=\"float32\")"));
}

TEST_F(OnnxCliTest, BuildAndRunWithTheOnnxInputName) {
  RunResult build = Run("build cli_mlp.onnx -o cli_mlp.so");
  ASSERT_EQ(build.exit_code, 0) << build.err;
  rt::NDArray::FromVector<float>({3, 2}, {1, 2, -1, 0, 0.5f, 4}).SaveNpy((dir_ / "cli_x.npy").string());
  RunResult run = Run("run cli_mlp.so --input x.1=cli_x.npy --output cli_y.npy");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  std::vector<float> y = rt::NDArray::LoadNpy((dir_ / "cli_y.npy").string()).ToVector<float>();
  // rows of x @ [[1, -1, 2], [0.5, 1, -3]], then relu
  EXPECT_EQ(y, (std::vector<float>{2, 1, 0, 0, 1, 0, 2.5f, 3.5f, 0}));
}

TEST_F(OnnxCliTest, ErrorsExitNonZeroWithAMessage) {
  RunResult bad_shape = Run("import cli_mlp.onnx --input-shape x.1=1,2,3");
  EXPECT_NE(bad_shape.exit_code, 0);
  EXPECT_THAT(bad_shape.err, HasSubstr("gives 3 dimensions for input 'x.1' of rank 2"));

  OnnxModelBuilder b;
  b.Input("x", {int64_t{2}});
  b.Node("NoSuchOp", {"x"}, {"a"}, "n1");
  b.Node("OtherOp", {"a"}, {"y"}, "n2");
  b.Output("y");
  b.Write("cli_unsupported");
  RunResult unsupported = Run("import cli_unsupported.onnx");
  EXPECT_NE(unsupported.exit_code, 0);
  EXPECT_THAT(unsupported.err, HasSubstr("NoSuchOp (node n1)"));
  EXPECT_THAT(unsupported.err, HasSubstr("OtherOp (node n2)"));

  fs::copy_file(model_, dir_ / "cli_truncated.onnx", fs::copy_options::overwrite_existing);
  fs::resize_file(dir_ / "cli_truncated.onnx", 20);
  RunResult truncated = Run("build cli_truncated.onnx -o t.so");
  EXPECT_NE(truncated.exit_code, 0);
  EXPECT_THAT(truncated.err, HasSubstr("cli_truncated.onnx: not a valid ONNX model"));
}

}  // namespace
}  // namespace rlx::frontend
