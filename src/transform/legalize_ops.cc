// LegalizeOps: replaces every call of an operator that has a legalization
// by what the legalization returns (after TVM's relax.transform.LegalizeOps).
//
// Algorithm. One graph::ExprMutator walks every graph function of the
// module; its BlockBuilder's context module is the module itself, so the
// PrimFuncs the legalizations add (op::CallTE) accumulate there and
// structurally equal ones are shared across calls and functions. At each
// call (arguments already rewritten, the call normalized so its struct info
// is deduced):
//
//     op has FLegalize?  no  -> keep the call
//                        yes -> r = legalize(builder, call)
//                               r is `call` itself -> keep it (cannot be
//                                                     lowered statically)
//                               otherwise -> normalize r; if r is again a call
//                                            of a legalizable op, legalize it
//                                            too (bounded depth)
//
// The bindings a legalization emits land in the block being rebuilt, ahead
// of the rewritten binding. A call whose callee is not an Op (a GlobalVar,
// an ExternFunc) is left alone. Afterwards the rewritten graph functions are
// put into the builder's module, which then holds exactly the original
// functions (rewritten) plus the PrimFuncs some call refers to: a PrimFunc
// is added only when a call uses it, so nothing unreachable is left behind.
#include "rlx/graph/expr_functor.h"
#include "rlx/graph/op_registry.h"
#include "rlx/support/logging.h"
#include "rlx/transform/passes.h"

namespace rlx::transform {
namespace {

using graph::Call;
using graph::Expr;

constexpr const char* kPassName = "legalize-ops";
// A legalization may return a call of another legalizable op (e.g. one op
// expressed through another); this bounds accidental cycles.
constexpr int kMaxLegalizeDepth = 16;

// The legalization of `expr`'s operator when it is a call of one.
const graph::FLegalize* LegalizationOf(const Expr& expr) {
  const auto* call = expr.as<graph::CallNode>();
  if (call == nullptr) return nullptr;
  const auto* op = call->op.as<graph::OpNode>();
  if (op == nullptr) return nullptr;
  const graph::OpInfo* info = graph::FindOp(op->name);
  return info != nullptr && info->legalize ? &info->legalize : nullptr;
}

class OpLegalizer : public graph::ExprMutator {
 public:
  explicit OpLegalizer(const ir::IRModule& mod) : ExprMutator(mod) {}

 protected:
  using ExprMutator::VisitExpr_;

  Expr VisitExpr_(const graph::CallNode* op, const Expr& self) override {
    Expr visited = ExprMutator::VisitExpr_(op, self);
    if (LegalizationOf(visited) == nullptr) return visited;
    Expr current = builder().Normalize(visited);
    for (int depth = 0; depth < kMaxLegalizeDepth; ++depth) {
      const graph::FLegalize* legalize = LegalizationOf(current);
      if (legalize == nullptr) return current;
      Expr replaced = (*legalize)(builder(), cast<graph::CallNode>(current));
      if (replaced.same_as(current)) return current;
      current = builder().Normalize(replaced);
    }
    RLX_ICHECK(false) << "legalize-ops: legalizations of " << cast<graph::CallNode>(current)->op.as<graph::OpNode>()->name
                      << " do not terminate";
    return current;
  }
};

ir::IRModule LegalizeModule(const ir::IRModule& mod) {
  OpLegalizer legalizer(mod);
  std::vector<std::pair<std::string, ObjectRef>> rewritten;
  for (const auto& [name, func] : mod->functions) {
    if (!func.isa<graph::FunctionNode>()) continue;
    Expr updated = legalizer.VisitExpr(cast<graph::FunctionNode>(func));
    if (!updated.same_as(func)) rewritten.emplace_back(name, updated);
  }
  ir::IRModule result = legalizer.builder().GetContextModule();
  for (const auto& [name, func] : rewritten) result = ir::WithFunction(result, name, func);
  return result;
}

}  // namespace

Pass LegalizeOps() {
  return CreateModulePass([](ir::IRModule mod, const PassContext&) { return LegalizeModule(mod); },
                          PassInfo{kPassName,
                                   "Lowers operator calls that have a legalization to call_tir of generated "
                                   "PrimFuncs (shared when structurally equal)",
                                   0, {}});
}

}  // namespace rlx::transform
