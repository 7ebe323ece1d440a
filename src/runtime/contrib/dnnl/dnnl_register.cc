// Registration of the oneDNN functions (rlx/runtime/contrib/dnnl.h). Without
// oneDNN (CMake option RLX_USE_DNNL off or the library missing) nothing is
// registered and DnnlAvailable() is false, so dispatch-library stays out of
// the pipeline and the generated kernels run instead.
#include "rlx/runtime/contrib/dnnl.h"

#include <mutex>

#ifdef RLX_USE_DNNL
#include "dnnl_common.h"

namespace rlx::runtime::contrib::dnnl_impl {
void RegisterConv2d();
void RegisterMatmul();
void RegisterConv2dTranspose();
}  // namespace rlx::runtime::contrib::dnnl_impl
#endif

namespace rlx::runtime::contrib {

#ifdef RLX_USE_DNNL

bool DnnlAvailable() { return true; }

void RegisterDnnlFunctions() {
  static std::once_flag once;
  std::call_once(once, [] {
    dnnl_impl::RegisterConv2d();
    dnnl_impl::RegisterMatmul();
    dnnl_impl::RegisterConv2dTranspose();
  });
}

void ClearDnnlCache() { dnnl_impl::ClearCache(); }

#else

bool DnnlAvailable() { return false; }
void RegisterDnnlFunctions() {}
void ClearDnnlCache() {}

#endif

}  // namespace rlx::runtime::contrib
