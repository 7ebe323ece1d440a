// Internal-check failures become InternalError exceptions (see error.h for why
// the runtime never aborts).
#include "rlx/runtime/error.h"

namespace rlx::runtime::detail {

InternalErrorThrower::InternalErrorThrower(const char* file, int line, const char* condition) {
  stream_ << "internal error at " << file << ":" << line << ": check '" << condition << "' failed";
  stream_ << ": ";
}

InternalErrorThrower::~InternalErrorThrower() noexcept(false) { throw InternalError(stream_.str()); }

}  // namespace rlx::runtime::detail
