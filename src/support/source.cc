#include "rlx/support/source.h"

#include <algorithm>

namespace rlx {

SourceFile::SourceFile(std::string name, std::string text)
    : name_(std::move(name)), text_(std::move(text)) {
  line_starts_.push_back(0);
  for (size_t i = 0; i < text_.size(); ++i) {
    if (text_[i] == '\n' && i + 1 < text_.size()) line_starts_.push_back(i + 1);
  }
}

std::string_view SourceFile::Line(int line) const {
  if (line < 1 || line > num_lines()) return {};
  size_t start = line_starts_[line - 1];
  size_t end = text_.find('\n', start);
  if (end == std::string::npos) end = text_.size();
  std::string_view view(text_.data() + start, end - start);
  if (!view.empty() && view.back() == '\r') view.remove_suffix(1);
  return view;
}

std::string Span::ToString() const {
  if (!defined()) return "<unknown>";
  return source->name() + ":" + std::to_string(line) + ":" + std::to_string(column);
}

Span Span::Merge(const Span& a, const Span& b) {
  if (!a.defined()) return b;
  if (!b.defined() || a.source != b.source) return a;
  Span out = a;
  if (std::pair(b.line, b.column) < std::pair(a.line, a.column)) {
    out.line = b.line;
    out.column = b.column;
  }
  if (std::pair(b.end_line, b.end_column) > std::pair(a.end_line, a.end_column)) {
    out.end_line = b.end_line;
    out.end_column = b.end_column;
  }
  return out;
}

}  // namespace rlx
