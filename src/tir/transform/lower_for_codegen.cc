// LowerForCodegen: the TIR lowering pipeline run before machine-code
// generation (see rlx/tir/transform.h for what each step does). Straight-line
// on purpose: each step's output is a valid, printable PrimFunc.
#include "rlx/tir/transform.h"

namespace rlx::tir {

PrimFunc LowerForCodegen(const PrimFunc& func) {
  PrimFunc lowered = LowerInitBlock(func);
  lowered = ConvertBlocksToLoops(lowered);
  lowered = FlattenBuffer(lowered);
  return Simplify(lowered);
}

}  // namespace rlx::tir
