// Normalize: puts every graph function into the normal form that
// graph::BlockBuilder owns (after TVM's relax.transform.Normalize).
//
// IR built by hand or by a pass may have nested calls as arguments, a body
// that is not a SeqExpr, a SeqExpr whose result is a call, expressions
// without struct info, empty or fragmented binding blocks. The builder's
// normalizer is the one definition of the normal form (the parser uses it
// too), so this pass is a thin driver: each function is normalized by a
// builder whose context is the module (for calls to module functions):
//
//   nested calls           -> each in a binding of its own (A-normal form)
//   body / If branches     -> SeqExprs whose result is a leaf
//   struct info            -> deduced where missing (a binding variable
//                             without any receives its value's)
//   blocks                 -> empty ones dropped, adjacent ones of the same
//                             kind merged:
//       [dataflow{a, b}] [dataflow{c}] [bindings{}] [bindings{d}]
//         => [dataflow{a, b, c}] [bindings{d}]
//
// Variables keep their identity and normalized IR comes back as the very
// same nodes, so on a normalized module the pass changes nothing (and the
// module is not rebuilt). PrimFuncs are not touched.
#include "rlx/graph/block_builder.h"
#include "rlx/transform/passes.h"

namespace rlx::transform {

Pass Normalize() {
  return CreateFunctionPass(
      [](graph::Function func, ir::IRModule mod, const PassContext&) {
        graph::BlockBuilder builder(mod);
        return cast<graph::FunctionNode>(builder.Normalize(func));
      },
      PassInfo{"normalize",
               "Puts graph functions in A-normal form with struct info deduced (BlockBuilder's normal form)", 1, {}});
}

}  // namespace rlx::transform
