// IsPureFunction (see include/rlx/tir/analysis.h), after TVM's
// tir::IsPureFunction.
//
// One walk over the body. Every buffer the function allocates itself (a
// block's alloc_buffers, an Allocate's data variable; a DeclBuffer of fresh
// memory sits inside an Allocate) is recorded as it is reached; a
// BufferStore whose buffer's data is not one of them writes memory the
// caller can see, so the function is impure. A call to a builtin that
// updates state or whose effect TVM does not know (kUpdateState / kOpaque in
// TVM's CallEffectKind: packed calls, tvm_struct_set, call_extern, ...)
// makes it impure as well; reading state (tvm_struct_get) and arithmetic
// intrinsics do not. Statements are walked in order, so an allocation is
// always seen before the stores into it.
#include <unordered_set>

#include "rlx/ir/functor.h"
#include "rlx/tir/analysis.h"
#include "rlx/tir/stmt_functor.h"

namespace rlx::tir {
namespace {

// TVM builtins whose CallEffectKind is kUpdateState or kOpaque.
bool UpdatesState(const std::string& op) {
  static const std::unordered_set<std::string> kImpure = {
      "tvm_struct_set", "tvm_stack_alloca", "tvm_stack_make_shape", "tvm_stack_make_array", "tvm_call_packed",
      "tvm_call_cpacked", "tvm_call_trace_packed", "tvm_call_packed_lowered", "tvm_call_cpacked_lowered",
      "tvm_throw_last_error", "tvm_storage_sync", "tvm_thread_allreduce", "tvm_load_matrix_sync",
      "tvm_store_matrix_sync", "tvm_mma_sync", "tvm_bmma_sync", "tvm_fill_fragment", "tvm_warp_shuffle",
      "tvm_warp_shuffle_up", "tvm_warp_shuffle_down", "TVMBackendAllocWorkspace", "TVMBackendFreeWorkspace",
      "call_extern", "call_llvm_intrin", "call_packed", "call_cpacked",
  };
  std::string name = op.rfind("tir.", 0) == 0 ? op.substr(4) : op;
  return kImpure.count(name) != 0;
}

class PurityChecker : public StmtVisitor {
 public:
  bool pure() const { return pure_; }

  void VisitPrimExpr(const PrimExpr& expr) override {
    if (!pure_ || !expr.defined()) return;
    ir::PostOrderVisit(expr, [&](const PrimExpr& sub) {
      if (const auto* call = sub.as<ir::CallNode>(); call && UpdatesState(call->op)) pure_ = false;
    });
  }

 protected:
  using StmtVisitor::VisitStmt_;

  void VisitStmt_(const BufferStoreNode* op, const Stmt& self) override {
    if (internal_data_.count(op->buffer->data.get()) == 0) pure_ = false;
    StmtVisitor::VisitStmt_(op, self);
  }
  void VisitStmt_(const BlockNode* op, const Stmt& self) override {
    for (const Buffer& buffer : op->alloc_buffers) internal_data_.insert(buffer->data.get());
    StmtVisitor::VisitStmt_(op, self);
  }
  void VisitStmt_(const AllocateNode* op, const Stmt& self) override {
    internal_data_.insert(op->buffer_var.get());
    StmtVisitor::VisitStmt_(op, self);
  }

 private:
  std::unordered_set<const ir::VarNode*> internal_data_;
  bool pure_ = true;
};

}  // namespace

bool IsPureFunction(const PrimFunc& func) {
  if (!func->body.defined()) return false;
  PurityChecker checker;
  checker.VisitStmt(func->body);
  return checker.pure();
}

}  // namespace rlx::tir
