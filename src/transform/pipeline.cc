// The default pipeline (see rlx/transform/pipeline.h): the passes are looked
// up by flag name in the registry, so that a pass another branch registers
// (legalize-ops) joins the pipeline as soon as it exists.
#include "rlx/transform/pipeline.h"

#include <algorithm>

namespace rlx::transform {
namespace {

bool IsRegistered(const std::string& name) {
  std::vector<PassInfo> passes = ListPasses();
  return std::any_of(passes.begin(), passes.end(), [&](const PassInfo& info) { return info.name == name; });
}

}  // namespace

std::vector<std::string> DefaultPipelinePassNames() {
  std::vector<std::string> names = {"normalize", "canonicalize-bindings", "dead-code-elimination"};
#ifdef RLX_USE_DNNL
  // Library dispatch before legalization (DESIGN.md step 3): only when the
  // runtime has the oneDNN functions it calls. convert-layout first turns
  // the convolutions to NHWC / OHWI, which oneDNN runs with its fast
  // channels-last kernels and no activation reorders; dead-code-elimination
  // drops the reshapes of constants it folded.
  names.push_back("convert-layout");
  names.push_back("dead-code-elimination");
  names.push_back("dispatch-library");
#endif
  if (IsRegistered("legalize-ops")) names.push_back("legalize-ops");
  // Graph clean-ups and cross-level fusion after legalization, as in TVM's
  // default pipeline: constants folded, common subexpressions merged, op
  // patterns read off the PrimFuncs, groups outlined and each group's
  // PrimFuncs merged into one; dead-code-elimination then drops the PrimFuncs
  // that folding and fusion left unreachable.
  for (const char* name : {"fold-constant", "eliminate-common-subexpr", "annotate-tir-op-pattern", "fuse-ops",
                           "fuse-tir", "dead-code-elimination"}) {
    if (IsRegistered(name)) names.push_back(name);
  }
  for (const char* name : {"rewrite-dataflow-reshape", "to-non-dataflow", "remove-purity-checking", "call-tir-rewrite",
                           "static-plan-block-memory", "lower-alloc-tensor",
                           "kill-after-last-use", "vm-builtin-lower", "vm-shape-lower", "attach-global-symbol"}) {
    names.push_back(name);
  }
  return names;
}

Pass DefaultPipeline() {
  std::vector<Pass> passes;
  for (const std::string& name : DefaultPipelinePassNames()) passes.push_back(LookupPass(name));
  return Sequential(std::move(passes), PassInfo{"default-pipeline", "graph clean-ups and lowering to the VM", 0, {}});
}

}  // namespace rlx::transform
