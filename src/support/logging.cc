#include "rlx/support/logging.h"

#include <cstdio>
#include <cstdlib>

namespace rlx::detail {

FatalMessage::FatalMessage(const char* file, int line, const char* condition) {
  stream_ << "rlx internal error at " << file << ":" << line << ": check failed: " << condition << ": ";
}

FatalMessage::~FatalMessage() {
  std::string text = stream_.str();
  std::fprintf(stderr, "%s\n(this is a bug in rlx; please report it)\n", text.c_str());
  std::fflush(stderr);
  std::abort();
}

}  // namespace rlx::detail
