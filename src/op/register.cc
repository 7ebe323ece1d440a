// RegisterAllOps: puts every operator family of the op layer into the graph
// registry, exactly once per process.
#include <mutex>

#include "op_common.h"
#include "rlx/op/op.h"

namespace rlx::op {

void RegisterAllOps() {
  static std::once_flag once;
  std::call_once(once, [] {
    detail::RegisterBinaryOps();
    detail::RegisterUnaryOps();
    detail::RegisterLinearAlgebraOps();
    detail::RegisterManipulateOps();
    detail::RegisterStatisticalOps();
    detail::RegisterDatatypeOps();
    detail::RegisterMemoryOps();
  });
}

}  // namespace rlx::op
