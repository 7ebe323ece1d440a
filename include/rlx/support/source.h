// Source files and spans.
//
// A SourceFile owns the text of one input (a file or standard input); a Span
// points into it by 1-based line and column. Nodes built from text carry a
// Span so that any later error about them can show where they came from.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace rlx {

class SourceFile {
 public:
  SourceFile(std::string name, std::string text);

  const std::string& name() const { return name_; }
  const std::string& text() const { return text_; }
  // The text of 1-based line `line`, without its newline; empty if out of range.
  std::string_view Line(int line) const;
  int num_lines() const { return static_cast<int>(line_starts_.size()); }

 private:
  std::string name_;
  std::string text_;
  std::vector<size_t> line_starts_;
};

using SourceFilePtr = std::shared_ptr<const SourceFile>;

// A location in a SourceFile. Lines and columns are 1-based; a default Span is
// "unknown" and prints as nothing.
struct Span {
  SourceFilePtr source;
  int line = 0;
  int column = 0;
  int end_line = 0;
  int end_column = 0;

  bool defined() const { return source != nullptr && line > 0; }
  // "file:line:col", or "<unknown>" when undefined.
  std::string ToString() const;
  // A span covering both `a` and `b` (same file), or whichever is defined.
  static Span Merge(const Span& a, const Span& b);
};

}  // namespace rlx
