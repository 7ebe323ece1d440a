// RegisterAllOps: puts every operator family of the op layer into the graph
// registry, exactly once per process.
#include <mutex>

#include "manipulate_common.h"
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
    detail::RegisterManipulateShapeOps();
    detail::RegisterManipulateJoinOps();
    detail::RegisterManipulateReplicateOps();
    detail::RegisterIndexOps();
    detail::RegisterGatherScatterOps();
    detail::RegisterLayoutTransformOp();
    detail::RegisterNNOps();
    detail::RegisterConvolutionOps();
    detail::RegisterPoolingOps();
    detail::RegisterImageOps();
    detail::RegisterSearchScanOps();
    detail::RegisterEinsumOps();
    detail::RegisterCreateOps();
    detail::RegisterSortingOps();
    detail::RegisterBinaryLegalizations();
    detail::RegisterNNLegalizations();
    detail::RegisterUnaryLegalizations();
    detail::RegisterReduceLegalizations();
    detail::RegisterCreateLegalizations();
    detail::RegisterManipulateLegalizations();
    detail::RegisterMemoryOps();
  });
}

}  // namespace rlx::op
