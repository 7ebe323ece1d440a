// CodeGenLLVM: parallel loops, outlined and run by the runtime.
//
//   for i in T.parallel(min, min + extent): body
//
// becomes, in the enclosing function,
//
//   closure = {captured values}                 (a struct on the stack)
//   rc = callbacks->parallel_for(extent, @f_compute_parallel_k, &closure)
//   if rc != 0: return rc                        (the message is already set)
//
// and a new internal function
//
//   i32 @f_compute_parallel_k(i64 begin, i64 end, ptr closure):
//     <load the captured values>
//     for i in [min + begin, min + end): body    (a serial loop)
//     ret 0
//
// The captured values are every variable of the loop's min and body that is
// bound where the loop appears (scalars, shape variables, buffer data
// pointers); the closure holds them by value, so the body sees exactly what
// the serial loop would. Errors inside the body (asserts, failed
// allocations) return nonzero from the chunk; the runtime finishes the other
// chunks and reports the message. A parallel loop nested in another runs
// serially inside it (the runtime would serialize it anyway).
#include <fmt/format.h>

#include <unordered_set>

#include "codegen/llvm/codegen_llvm.h"

namespace rlx::codegen {

namespace {

// The variables `op` (its min and body) refers to, in first-seen order,
// including the data variables of the buffers it accesses.
std::vector<ir::Var> ReferencedVars(const tir::ForNode* op) {
  std::vector<ir::Var> vars;
  std::unordered_set<const ir::VarNode*> seen;
  auto add = [&](const ir::Var& var) {
    if (seen.insert(var.get()).second) vars.push_back(var);
  };
  auto visit = [&](const ObjectRef& node) {
    if (const auto* var = node.as<ir::VarNode>()) add(Ref<ir::VarNode>(var));
    if (const auto* load = node.as<ir::BufferLoadNode>()) add(load->buffer->data);
    if (const auto* store = node.as<tir::BufferStoreNode>()) add(store->buffer->data);
    if (const auto* decl = node.as<tir::DeclBufferNode>()) add(decl->buffer->data);
  };
  ir::PostOrderVisit(op->min, [&](const ir::PrimExpr& e) { visit(e); });
  tir::PostOrderVisit(op->body, visit);
  return vars;
}

}  // namespace

void CodeGenLLVM::EmitParallelFor(const tir::ForNode* op) {
  std::vector<ir::Var> captured;
  std::vector<llvm::Type*> field_types;
  for (const ir::Var& var : ReferencedVars(op)) {
    auto it = vars_.find(var.get());
    if (it == vars_.end() || var.same_as(op->loop_var)) continue;
    captured.push_back(var);
    field_types.push_back(it->second->getType());
  }
  llvm::StructType* closure_type = llvm::StructType::get(*context_, field_types);
  llvm::Value* closure = AllocaInEntry(closure_type, 1, 8);
  for (size_t i = 0; i < captured.size(); ++i) {
    builder_->CreateStore(vars_.at(captured[i].get()), builder_->CreateStructGEP(closure_type, closure, i));
  }

  // The outlined body.
  auto* body_type = llvm::FunctionType::get(i32_ty_, {i64_ty_, i64_ty_, ptr_ty_}, false);
  llvm::Function* body =
      llvm::Function::Create(body_type, llvm::Function::InternalLinkage,
                             fmt::format("{}_compute_parallel_{}", func_name_, parallel_count_++), module_.get());
  SetTargetAttributes(body);
  FunctionState saved_state = state_;
  auto saved_vars = std::move(vars_);
  llvm::IRBuilderBase::InsertPoint saved_point = builder_->saveIP();
  state_ = FunctionState();
  state_.function = body;
  state_.in_parallel = true;
  vars_.clear();
  builder_->SetInsertPoint(llvm::BasicBlock::Create(*context_, "entry", body));
  for (size_t i = 0; i < captured.size(); ++i) {
    llvm::Value* slot = builder_->CreateStructGEP(closure_type, body->getArg(2), i);
    BindVar(captured[i], builder_->CreateLoad(field_types[i], slot));
  }
  ir::Var begin = ir::MakeVar("begin"), end = ir::MakeVar("end");
  BindVar(begin, body->getArg(0));
  BindVar(end, body->getArg(1));
  auto* chunk = new tir::ForNode();
  DataType dtype = op->loop_var->dtype;
  chunk->loop_var = op->loop_var;
  chunk->min = ir::add(op->min, ir::cast(dtype, begin));
  chunk->extent = ir::cast(dtype, ir::sub(end, begin));
  chunk->for_kind = tir::ForKind::kSerial;
  chunk->body = op->body;
  chunk->span = op->span;
  VisitStmt(tir::Stmt(chunk));
  builder_->CreateRet(llvm::ConstantInt::get(i32_ty_, 0));
  state_ = saved_state;
  vars_ = std::move(saved_vars);
  builder_->restoreIP(saved_point);

  // The call.
  llvm::Value* extent = EmitCast(op->extent->dtype, DataType::Int64(), VisitExpr(op->extent));
  auto* parallel_type = llvm::FunctionType::get(i32_ty_, {i64_ty_, ptr_ty_, ptr_ty_}, false);
  llvm::Value* parallel_for = RuntimeCallback(kParallelFor, parallel_type, "parallel_for");
  llvm::Value* rc = builder_->CreateCall(parallel_type, parallel_for, {extent, body, closure});
  auto* fail = llvm::BasicBlock::Create(*context_, "parallel_fail", state_.function);
  auto* next = llvm::BasicBlock::Create(*context_, "parallel_done", state_.function);
  builder_->CreateCondBr(builder_->CreateICmpEQ(rc, llvm::ConstantInt::get(i32_ty_, 0)), next, fail);
  builder_->SetInsertPoint(fail);
  EmitReturn(rc);
  builder_->SetInsertPoint(next);
}

}  // namespace rlx::codegen
