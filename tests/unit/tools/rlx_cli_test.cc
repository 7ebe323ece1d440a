// Tests of the `rlx` command line, running the built binary (RLX_BIN) through
// the shell on small files in a scratch directory: exit codes, what goes to
// stdout and what to stderr.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

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

void WriteFile(const fs::path& path, const std::string& text) {
  std::ofstream file(path, std::ios::binary);
  file << text;
}

const char* const kGoodModule = R"(@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        with R.dataflow():
            lv0 = R.add(x, x)
            unused = R.multiply(lv0, lv0)
            alias = lv0
            gv = R.nn.relu(alias)
            R.output(gv)
        return gv
)";

// Line 5 calls an operator that does not exist.
const char* const kBadModule = R"(@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32")):
        y = R.no_such_op(x)
        return y
)";

class RlxCliTest : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("rlx_cli_test_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    WriteFile(dir_ / "good.py", kGoodModule);
    WriteFile(dir_ / "bad.py", kBadModule);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Runs `rlx <args>` in the scratch directory; `stdin_file` feeds stdin.
  RunResult Run(const std::string& args, const std::string& stdin_file = "") const {
    std::string command = "cd '" + dir_.string() + "' && '" RLX_BIN "' " + args + " > out.txt 2> err.txt";
    if (!stdin_file.empty()) command += " < '" + stdin_file + "'";
    int status = std::system(command.c_str());
    RunResult result;
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    result.out = ReadFile(dir_ / "out.txt");
    result.err = ReadFile(dir_ / "err.txt");
    return result;
  }

  fs::path dir_;
};

TEST_F(RlxCliTest, VersionAndHelp) {
  RunResult version = Run("--version");
  EXPECT_EQ(version.exit_code, 0);
  EXPECT_NE(version.out.find("rlx "), std::string::npos) << version.out;

  RunResult help = Run("--help");
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("opt"), std::string::npos) << help.out;

  RunResult opt_help = Run("opt --help");
  EXPECT_EQ(opt_help.exit_code, 0);
  EXPECT_NE(opt_help.out.find("--passes"), std::string::npos) << opt_help.out;
  EXPECT_NE(opt_help.out.find("dead-code-elimination"), std::string::npos) << opt_help.out;
}

TEST_F(RlxCliTest, ListsPasses) {
  RunResult result = Run("opt --list-passes");
  EXPECT_EQ(result.exit_code, 0) << result.err;
  size_t canonicalize = result.out.find("canonicalize-bindings");
  size_t dce = result.out.find("dead-code-elimination");
  size_t normalize = result.out.find("normalize ");
  ASSERT_NE(canonicalize, std::string::npos) << result.out;
  ASSERT_NE(dce, std::string::npos) << result.out;
  ASSERT_NE(normalize, std::string::npos) << result.out;
  EXPECT_LT(canonicalize, dce);
  EXPECT_LT(dce, normalize);
}

TEST_F(RlxCliTest, UsageErrorsExitWithOne) {
  EXPECT_EQ(Run("").exit_code, 1);
  RunResult no_input = Run("opt");
  EXPECT_EQ(no_input.exit_code, 1);
  EXPECT_NE(no_input.err.find("input file is required"), std::string::npos) << no_input.err;
  EXPECT_EQ(Run("opt good.py --no-such-flag").exit_code, 1);
}

TEST_F(RlxCliTest, RoundTripsWithoutPasses) {
  RunResult result = Run("opt good.py");
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find("@I.ir_module"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("R.multiply"), std::string::npos) << result.out;
  EXPECT_TRUE(result.err.empty()) << result.err;
}

TEST_F(RlxCliTest, RunsPassesInOrder) {
  RunResult result = Run("opt good.py --passes=canonicalize-bindings,dead-code-elimination");
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out.find("R.multiply"), std::string::npos) << result.out;
  EXPECT_EQ(result.out.find("alias"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("R.nn.relu(lv0)"), std::string::npos) << result.out;

  RunResult unverified = Run("opt good.py --no-verify-each --passes=normalize");
  EXPECT_EQ(unverified.exit_code, 0) << unverified.err;
  EXPECT_NE(unverified.out.find("R.multiply"), std::string::npos) << unverified.out;
}

TEST_F(RlxCliTest, ReadsStdinAndWritesOutputFile) {
  RunResult result = Run("opt - --passes=dead-code-elimination -o result.py", (dir_ / "good.py").string());
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_TRUE(result.out.empty()) << result.out;
  std::string written = ReadFile(dir_ / "result.py");
  EXPECT_NE(written.find("R.nn.relu"), std::string::npos) << written;
  EXPECT_EQ(written.find("R.multiply"), std::string::npos) << written;
}

TEST_F(RlxCliTest, PrintIRAfterAllAndTimePassesGoToStderr) {
  RunResult result = Run("opt good.py --passes=normalize,dead-code-elimination --print-ir-after-all --time-passes");
  EXPECT_EQ(result.exit_code, 0) << result.err;
  size_t after_normalize = result.err.find("// IR after normalize");
  size_t after_dce = result.err.find("// IR after dead-code-elimination");
  EXPECT_NE(after_normalize, std::string::npos) << result.err;
  EXPECT_NE(after_dce, std::string::npos) << result.err;
  EXPECT_LT(after_normalize, after_dce);
  EXPECT_NE(result.err.find("Pass execution timing report"), std::string::npos) << result.err;
  EXPECT_NE(result.out.find("@I.ir_module"), std::string::npos) << result.out;
}

TEST_F(RlxCliTest, BadInputReportsLocationAndExitsWithOne) {
  RunResult result = Run("opt bad.py");
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.err.find("bad.py:5:"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("error:"), std::string::npos) << result.err;
  EXPECT_TRUE(result.out.empty()) << result.out;
}

TEST_F(RlxCliTest, UnknownPassAndMissingFileAreErrors) {
  RunResult unknown = Run("opt good.py --passes=normalize,foo");
  EXPECT_EQ(unknown.exit_code, 1);
  EXPECT_NE(unknown.err.find("unknown pass 'foo'; known passes: "), std::string::npos) << unknown.err;
  EXPECT_NE(unknown.err.find("canonicalize-bindings, dead-code-elimination"), std::string::npos) << unknown.err;

  RunResult missing = Run("opt no_such_file.py");
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("no_such_file.py"), std::string::npos) << missing.err;
}

}  // namespace
