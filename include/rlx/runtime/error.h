// Errors of the rlx runtime.
//
// The runtime stands alone (no compiler headers), so it has its own error
// type instead of rlx::CompileError:
// - RuntimeError is what a user or a deployed model can cause at run time: a
//   bad input shape, a missing file, a malformed .npy, a kernel that reported
//   failure. It is always thrown, never an abort, so a host process can catch
//   it and carry on.
// - RLX_RUNTIME_ICHECK(cond) << "context"; is for broken internal invariants
//   (a bug in rlx). It also throws (an InternalError, a RuntimeError whose
//   text says "internal error" with file and line) rather than aborting,
//   because the runtime lives inside someone else's process.
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>

namespace rlx::runtime {

class RuntimeError : public std::runtime_error {
 public:
  explicit RuntimeError(const std::string& message) : std::runtime_error(message) {}
};

class InternalError : public RuntimeError {
 public:
  using RuntimeError::RuntimeError;
};

// Concatenates the streamed text of every argument: StrCat("shape ", 3, "!").
template <typename... Args>
std::string StrCat(const Args&... args) {
  std::ostringstream out;
  (out << ... << args);
  return out.str();
}

namespace detail {

// Collects the streamed context of a failed check and throws InternalError
// when the full expression ends.
class InternalErrorThrower {
 public:
  InternalErrorThrower(const char* file, int line, const char* condition);
  [[noreturn]] ~InternalErrorThrower() noexcept(false);
  template <typename T>
  InternalErrorThrower& operator<<(const T& value) {
    stream_ << value;
    return *this;
  }

 private:
  std::ostringstream stream_;
};

struct ThrowerVoidify {
  void operator&(InternalErrorThrower&) {}
};

}  // namespace detail
}  // namespace rlx::runtime

#define RLX_RUNTIME_ICHECK(cond)                                       \
  (cond) ? (void)0                                                     \
         : ::rlx::runtime::detail::ThrowerVoidify() &                  \
               ::rlx::runtime::detail::InternalErrorThrower(__FILE__, __LINE__, #cond)
