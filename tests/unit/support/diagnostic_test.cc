#include "rlx/support/diagnostic.h"

#include <gtest/gtest.h>

namespace rlx {
namespace {

SourceFilePtr Source(std::string text) { return std::make_shared<SourceFile>("model.py", std::move(text)); }

TEST(SourceFileTest, LinesAreOneBased) {
  SourceFilePtr src = Source("first\nsecond\r\nthird");
  EXPECT_EQ(src->num_lines(), 3);
  EXPECT_EQ(src->Line(1), "first");
  EXPECT_EQ(src->Line(2), "second");
  EXPECT_EQ(src->Line(3), "third");
  EXPECT_EQ(src->Line(4), "");
  EXPECT_EQ(src->Line(0), "");
}

TEST(DiagnosticTest, RendersLocationLineAndCaret) {
  SourceFilePtr src = Source("x = 1\n    lv0 = R.matmul(x, w)\n");
  Span span{src, 2, 11, 2, 25};
  CompileError error(span, "matmul: cannot multiply (n, 4) by (5, 3)");
  std::string text = error.what();
  EXPECT_EQ(text,
            "model.py:2:11: error: matmul: cannot multiply (n, 4) by (5, 3)\n"
            "        lv0 = R.matmul(x, w)\n"
            "              ^~~~~~~~~~~~~~\n");
}

TEST(DiagnosticTest, UnknownSpanRendersMessageOnly) {
  CompileError error(Span{}, "something failed");
  EXPECT_EQ(std::string(error.what()), "error: something failed\n");
}

TEST(DiagnosticTest, NotesFollowTheError) {
  SourceFilePtr src = Source("a = (\nb\n");
  Diagnostic diag{Severity::kError, Span{src, 2, 1, 2, 2}, "expected ')'", {{Span{src, 1, 5, 1, 6}, "to match this '('"}}};
  std::string text = diag.Render();
  EXPECT_NE(text.find("model.py:2:1: error: expected ')'"), std::string::npos);
  EXPECT_NE(text.find("model.py:1:5: note: to match this '('"), std::string::npos);
}

TEST(SpanTest, MergeCoversBoth) {
  SourceFilePtr src = Source("abc def\n");
  Span merged = Span::Merge(Span{src, 1, 5, 1, 8}, Span{src, 1, 1, 1, 4});
  EXPECT_EQ(merged.column, 1);
  EXPECT_EQ(merged.end_column, 8);
  EXPECT_EQ(Span::Merge(Span{}, Span{src, 1, 2, 1, 3}).column, 2);
}

}  // namespace
}  // namespace rlx
