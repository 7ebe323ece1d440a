// Negative tests of the TVMScript parser: every tests/text/errors/*.py opens
// with `# ERROR: <line>:<col>: <text>` (col may be `*`). Parsing the file
// must throw a CompileError (never crash) whose primary location is that
// line and column, whose message contains <text>, and whose rendering
// starts with `file:line:col: error:`.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "rlx/support/diagnostic.h"
#include "rlx/text/parser.h"

namespace rlx::text {
namespace {

namespace fs = std::filesystem;

const char* const kCases = RLX_SOURCE_DIR "/tests/text/errors";

std::vector<std::string> CaseFiles() {
  std::vector<std::string> files;
  for (const fs::directory_entry& entry : fs::directory_iterator(kCases)) {
    if (entry.path().extension() == ".py") files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

struct Expectation {
  int line = 0;
  std::optional<int> column;  // nullopt: `*`
  std::string message;
};

std::optional<Expectation> ReadExpectation(const std::string& path) {
  std::ifstream file(path);
  std::string first;
  std::getline(file, first);
  static const std::regex kHeader(R"(^# ERROR: (\d+):(\d+|\*): (.+)$)");
  std::smatch match;
  if (!std::regex_match(first, match, kHeader)) return std::nullopt;
  Expectation e;
  e.line = std::stoi(match[1]);
  if (match[2] != "*") e.column = std::stoi(match[2]);
  e.message = match[3];
  return e;
}

class ParseErrorTest : public testing::TestWithParam<std::string> {};

TEST_P(ParseErrorTest, ReportsTheExpectedError) {
  const std::string& path = GetParam();
  std::optional<Expectation> expected = ReadExpectation(path);
  ASSERT_TRUE(expected) << path << ": the first line must be `# ERROR: <line>:<col>: <message>`";
  try {
    ParseModule(ReadSourceFile(path));
  } catch (const CompileError& error) {
    const Diagnostic& diag = error.diagnostic();
    EXPECT_NE(diag.message.find(expected->message), std::string::npos)
        << "message: " << diag.message << "\nexpected to contain: " << expected->message;
    EXPECT_EQ(diag.span.line, expected->line) << error.what();
    if (expected->column) {
      EXPECT_EQ(diag.span.column, *expected->column) << error.what();
    }
    std::string location = fmt::format("{}:{}:{}: error:", path, diag.span.line, diag.span.column);
    EXPECT_EQ(std::string(error.what()).rfind(location, 0), 0u) << error.what();
    return;
  }
  FAIL() << path << ": parsing succeeded, expected an error";
}

std::string TestName(const testing::TestParamInfo<std::string>& info) {
  std::string name = fs::path(info.param).stem().string();
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(Cases, ParseErrorTest, testing::ValuesIn(CaseFiles()), TestName);

TEST(ParseErrorCases, HasAtLeastThirtyFiles) { EXPECT_GE(CaseFiles().size(), 30u); }

}  // namespace
}  // namespace rlx::text
