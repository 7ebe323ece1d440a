// Text tests for passes: every tests/text/passes/<pass>/<case>.py.
//
// A case file opens with header comment lines, then TVMScript:
//
//   # PASSES: dead-code-elimination            (a pipeline, as for rlx opt --passes)
//   # CHECKS: an unused binding is removed      (what the case is about; required)
//   @I.ir_module
//   class Before: ...
//   @I.ir_module
//   class Expected: ...
//
// The runner parses the modules, runs the passes on Before and compares the
// result with Expected by structural equality (alpha-equivalence); a failure
// prints the file, the first mismatch and both modules. A case may instead
// say `# ERROR: <text>` and hold only Before: parsing and running must then
// throw a CompileError whose message contains <text>.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "rlx/graph/structural_equal.h"
#include "rlx/graph/well_formed.h"
#include "rlx/op/op.h"
#include "rlx/support/diagnostic.h"
#include "rlx/text/parser.h"
#include "rlx/text/printer.h"
#include "rlx/transform/pass.h"

namespace rlx::transform {
namespace {

namespace fs = std::filesystem;

const char* const kCaseRoot = RLX_SOURCE_DIR "/tests/text/passes";

struct CaseHeader {
  std::string passes;
  std::string checks;
  std::optional<std::string> error;
};

std::string Trim(const std::string& text) {
  size_t first = text.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  size_t last = text.find_last_not_of(" \t\r");
  return text.substr(first, last - first + 1);
}

// Reads the `# KEY: value` lines at the top of the file (up to the first
// line that is neither blank nor a comment).
CaseHeader ReadHeader(const std::string& text) {
  CaseHeader header;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    std::string trimmed = Trim(line);
    if (trimmed.empty()) continue;
    if (trimmed[0] != '#') break;
    std::string body = Trim(trimmed.substr(1));
    auto value_of = [&](const std::string& key) -> std::optional<std::string> {
      if (body.rfind(key, 0) != 0) return std::nullopt;
      return Trim(body.substr(key.size()));
    };
    if (auto value = value_of("PASSES:")) header.passes = *value;
    if (auto value = value_of("CHECKS:")) header.checks = *value;
    if (auto value = value_of("ERROR:")) header.error = *value;
  }
  return header;
}

std::string ReadFile(const fs::path& path) {
  std::ifstream file(path, std::ios::binary);
  std::ostringstream content;
  content << file.rdbuf();
  return content.str();
}

ir::IRModule FindModule(const std::vector<std::pair<std::string, ir::IRModule>>& modules, const std::string& name) {
  for (const auto& [class_name, mod] : modules) {
    if (class_name == name) return mod;
  }
  return nullptr;
}

ir::IRModule RunPasses(const std::string& pipeline, ir::IRModule mod) {
  PassContext ctx;
  for (const Pass& pass : ParsePassPipeline(pipeline)) mod = pass(mod, ctx);
  return mod;
}

std::vector<std::string> CollectCases() {
  std::vector<std::string> cases;
  if (!fs::is_directory(kCaseRoot)) return cases;
  for (const auto& entry : fs::recursive_directory_iterator(kCaseRoot)) {
    if (entry.is_regular_file() && entry.path().extension() == ".py") {
      cases.push_back(fs::relative(entry.path(), kCaseRoot).generic_string());
    }
  }
  std::sort(cases.begin(), cases.end());
  return cases;
}

// "dead-code-elimination/unused_binding.py" -> "dead_code_elimination_unused_binding".
std::string CaseName(const testing::TestParamInfo<std::string>& info) {
  std::string name = info.param.substr(0, info.param.size() - 3);
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

class PassTextTest : public testing::TestWithParam<std::string> {
 protected:
  static void SetUpTestSuite() { op::RegisterAllOps(); }
};

void ExpectError(const SourceFilePtr& source, const CaseHeader& header) {
  try {
    auto modules = text::ParseModules(source);
    ir::IRModule before = FindModule(modules, "Before");
    ASSERT_TRUE(before.defined()) << "no `class Before` in " << source->name();
    RunPasses(header.passes, before);
  } catch (const CompileError& error) {
    EXPECT_NE(std::string(error.what()).find(*header.error), std::string::npos)
        << "expected an error containing '" << *header.error << "', got:\n"
        << error.what();
    return;
  }
  ADD_FAILURE() << source->name() << ": expected an error containing '" << *header.error << "', got none";
}

void ExpectTransformed(const SourceFilePtr& source, const CaseHeader& header) {
  auto modules = text::ParseModules(source);
  ir::IRModule before = FindModule(modules, "Before");
  ir::IRModule expected = FindModule(modules, "Expected");
  ASSERT_TRUE(before.defined()) << "no `class Before` in " << source->name();
  ASSERT_TRUE(expected.defined()) << "no `class Expected` in " << source->name();
  ir::IRModule after = RunPasses(header.passes, before);
  graph::CheckWellFormed(after);
  std::optional<std::string> mismatch = graph::StructuralMismatch(after, expected);
  EXPECT_FALSE(mismatch.has_value()) << source->name() << " (" << header.checks << ")\n"
                                     << "first mismatch (lhs: after the passes, rhs: Expected): "
                                     << mismatch.value_or("") << "\n"
                                     << "--- after " << header.passes << ":\n"
                                     << text::PrintModule(after) << "--- Expected:\n"
                                     << text::PrintModule(expected);
}

TEST_P(PassTextTest, Case) {
  fs::path path = fs::path(kCaseRoot) / GetParam();
  std::string content = ReadFile(path);
  CaseHeader header = ReadHeader(content);
  ASSERT_FALSE(header.passes.empty()) << path << ": missing `# PASSES:` line";
  ASSERT_FALSE(header.checks.empty()) << path << ": missing `# CHECKS:` line";
  auto source = std::make_shared<SourceFile>(path.string(), content);
  try {
    if (header.error) {
      ExpectError(source, header);
    } else {
      ExpectTransformed(source, header);
    }
  } catch (const CompileError& error) {
    FAIL() << "unexpected error:\n" << error.what();
  }
}

INSTANTIATE_TEST_SUITE_P(Passes, PassTextTest, testing::ValuesIn(CollectCases()), CaseName);

// The runner must not pass vacuously: every pass has its folder of cases.
TEST(PassTextCases, EveryRegisteredPassHasCases) {
  std::vector<std::string> cases = CollectCases();
  for (const PassInfo& info : ListPasses()) {
    size_t count = std::count_if(cases.begin(), cases.end(),
                                 [&](const std::string& c) { return c.rfind(info.name + "/", 0) == 0; });
    EXPECT_GE(count, 6u) << "tests/text/passes/" << info.name << " has " << count << " cases";
  }
}

}  // namespace
}  // namespace rlx::transform
