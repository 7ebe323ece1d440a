// Round trip of the TVMScript corpus: every tests/text/roundtrip/*.py is
// parsed (m1), checked well formed, printed (t1), parsed again (m2); m1 and
// m2 must be structurally equal and printing m2 must give t1 again (the
// printer's output is a fixed point). A failure shows the first structural
// mismatch and the printed text.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "rlx/graph/structural_equal.h"
#include "rlx/graph/well_formed.h"
#include "rlx/support/diagnostic.h"
#include "rlx/text/parser.h"
#include "rlx/text/printer.h"

namespace rlx::text {
namespace {

namespace fs = std::filesystem;

const char* const kCorpus = RLX_SOURCE_DIR "/tests/text/roundtrip";

std::vector<std::string> CorpusFiles() {
  std::vector<std::string> files;
  for (const fs::directory_entry& entry : fs::directory_iterator(kCorpus)) {
    if (entry.path().extension() == ".py") files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

class RoundTripTest : public testing::TestWithParam<std::string> {};

TEST_P(RoundTripTest, ParsePrintParseIsStable) {
  const std::string& path = GetParam();
  ir::IRModule m1;
  try {
    m1 = ParseModule(ReadSourceFile(path));
  } catch (const CompileError& error) {
    FAIL() << "parsing the corpus file failed:\n" << error.what();
  }
  try {
    graph::CheckWellFormed(m1);
  } catch (const CompileError& error) {
    FAIL() << "the parsed module is not well formed:\n" << error.what() << "\n--- printed:\n" << PrintModule(m1);
  }
  std::string t1 = PrintModule(m1);
  ir::IRModule m2;
  try {
    m2 = ParseModuleText(t1, path + " (printed)");
  } catch (const CompileError& error) {
    FAIL() << "parsing the printed module failed:\n" << error.what() << "\n--- printed:\n" << t1;
  }
  std::optional<std::string> mismatch = graph::StructuralMismatch(m1, m2);
  EXPECT_FALSE(mismatch.has_value()) << *mismatch << "\n--- printed:\n" << t1;
  EXPECT_EQ(PrintModule(m2), t1);
}

std::string TestName(const testing::TestParamInfo<std::string>& info) {
  std::string name = fs::path(info.param).stem().string();
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(Corpus, RoundTripTest, testing::ValuesIn(CorpusFiles()), TestName);

TEST(RoundTripCorpus, HasAtLeastFortyModules) { EXPECT_GE(CorpusFiles().size(), 40u); }

}  // namespace
}  // namespace rlx::text
