#include "rlx/support/diagnostic.h"

#include <algorithm>

namespace rlx {
namespace {

const char* SeverityName(Severity severity) {
  switch (severity) {
    case Severity::kError: return "error";
    case Severity::kWarning: return "warning";
    case Severity::kNote: return "note";
  }
  return "error";
}

// The header line, the source line and the caret line for one location.
std::string RenderOne(const Span& span, Severity severity, const std::string& message) {
  std::string out;
  if (span.defined()) out += span.ToString() + ": ";
  out += SeverityName(severity);
  out += ": " + message + "\n";
  if (!span.defined()) return out;
  std::string_view line = span.source->Line(span.line);
  if (line.empty()) return out;
  out += "    ";
  out += line;
  out += "\n    ";
  int col = std::max(span.column, 1);
  for (int i = 1; i < col && i <= static_cast<int>(line.size()); ++i) {
    out += line[i - 1] == '\t' ? '\t' : ' ';
  }
  out += '^';
  int end = (span.end_line == span.line) ? span.end_column : static_cast<int>(line.size()) + 1;
  for (int i = col + 1; i < end && i <= static_cast<int>(line.size()); ++i) out += '~';
  out += "\n";
  return out;
}

}  // namespace

std::string Diagnostic::Render() const {
  std::string out = RenderOne(span, severity, message);
  for (const DiagnosticNote& note : notes) out += RenderOne(note.span, Severity::kNote, note.message);
  return out;
}

CompileError::CompileError(Diagnostic diag) : std::runtime_error(diag.Render()), diag_(std::move(diag)) {}

CompileError::CompileError(Span span, const std::string& message)
    : CompileError(Diagnostic{Severity::kError, std::move(span), message, {}}) {}

void ThrowError(const Span& span, const std::string& message) { throw CompileError(span, message); }

}  // namespace rlx
