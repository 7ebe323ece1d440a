// Legalizations of the broadcasting binary operators (TVM's
// legalize_ops/binary.py over topi's broadcast ops): one PrimFunc computing
// out[i] = f(x1[i1], x2[i2]) with numpy broadcasting, named after the op
// ("add"), whose output tensor is named as topi's ("T_add").
#include "op/topi.h"
#include "op_common.h"
#include "rlx/op/legalize.h"

namespace rlx::op::detail {
namespace {

void RegisterBroadcastLegalize(const std::string& name, const topi::FBinaryElem& f) {
  graph::SetOpLegalize("relax." + name, [name, f](BlockBuilder& builder, const Call& call) -> Expr {
    return CallTE(builder, call, name, [&](const TEArgs& args) {
      return topi::Broadcast(args[0].tensor(), args[1].tensor(), f, "T_" + name);
    });
  });
}

}  // namespace

void RegisterBinaryLegalizations() {
  RegisterBroadcastLegalize("add", [](const PrimExpr& a, const PrimExpr& b) { return a + b; });
}

}  // namespace rlx::op::detail
