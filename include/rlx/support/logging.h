// Internal invariant checks.
//
// RLX_ICHECK(cond) << "context"; aborts with file, line, the failed condition
// and the streamed context. It is for bugs in rlx only: anything a user can
// trigger must be a CompileError (support/diagnostic.h) instead.
#pragma once

#include <sstream>
#include <string>

namespace rlx::detail {

class FatalMessage {
 public:
  FatalMessage(const char* file, int line, const char* condition);
  [[noreturn]] ~FatalMessage();
  template <typename T>
  FatalMessage& operator<<(const T& value) {
    stream_ << value;
    return *this;
  }

 private:
  std::ostringstream stream_;
};

// Lets `RLX_ICHECK(c) << x;` parse as a void expression.
struct Voidify {
  void operator&(FatalMessage&) {}
};

}  // namespace rlx::detail

#define RLX_ICHECK(cond)                                                    \
  (cond) ? (void)0                                                          \
         : ::rlx::detail::Voidify() &                                       \
               ::rlx::detail::FatalMessage(__FILE__, __LINE__, #cond)

#define RLX_UNREACHABLE() \
  ::rlx::detail::FatalMessage(__FILE__, __LINE__, "unreachable")
