// User-facing errors.
//
// A Diagnostic is a value: a severity, a message, a primary Span and notes at
// other spans. Errors the user can cause (bad text, mismatched shapes, bad
// run-time inputs) are thrown as CompileError carrying diagnostics; they are
// kept apart from internal invariant checks (support/logging.h), which mean a
// bug in rlx.
//
// Rendering follows compilers' habit:
//   file.py:3:12: error: matmul: cannot multiply (n, 4) by (5, 3)
//       lv0 = R.matmul(x, w)
//             ^~~~~~~~~~~~~~
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "rlx/support/source.h"

namespace rlx {

enum class Severity { kError, kWarning, kNote };

struct DiagnosticNote {
  Span span;
  std::string message;
};

struct Diagnostic {
  Severity severity = Severity::kError;
  Span span;
  std::string message;
  std::vector<DiagnosticNote> notes;

  // Renders "file:line:col: error: message", the source line and a caret
  // (with ~ under the rest of the span on that line), then the notes.
  std::string Render() const;
};

// The exception every user error travels as. what() is the rendered text.
class CompileError : public std::runtime_error {
 public:
  explicit CompileError(Diagnostic diag);
  CompileError(Span span, const std::string& message);

  const Diagnostic& diagnostic() const { return diag_; }

 private:
  Diagnostic diag_;
};

// Throws CompileError(span, message).
[[noreturn]] void ThrowError(const Span& span, const std::string& message);

}  // namespace rlx
