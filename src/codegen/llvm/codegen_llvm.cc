// CodeGenLLVM: module setup, functions and statements (see codegen_llvm.h
// for the overall design).
//
// Statements map onto LLVM control flow directly:
// - For (serial, unrolled, vectorized): a header/body/latch loop over the
//   loop variable's type; unrolled and vectorized loops carry
//   llvm.loop.unroll.* / llvm.loop.vectorize.* metadata and leave the
//   transformation to LLVM's loop passes. A vectorized loop's iterations are
//   independent by definition (TIR's contract, which ScheduleInjectiveCPU
//   proves before it vectorizes), so every memory access in its body joins
//   an access group the loop declares parallel (llvm.access.group +
//   llvm.loop.parallel_accesses). Without that, the loop vectorizer must
//   prove the output does not alias the inputs, and for any non-affine
//   address (a gather: x[(i * 3 + j) // 6], take, flip, ...) it cannot
//   ("cannot identify array bounds") and leaves the loop scalar. Parallel
//   loops are outlined (codegen_llvm_parallel.cc).
// - A loop with a step counts k from 0 with a unit step and binds its
//   variable to min + k * step (WithUnitStep).
// - IfThenElse: then/else/merge blocks. While: a header testing the
//   condition, the body branching back to it, an exit block. LetStmt: the value is computed once
//   and the variable bound for the body.
// - Allocate (and a DeclBuffer whose data nothing has bound yet): a constant
//   size of at most options.max_stack_alloca_bytes is a 64-byte aligned
//   alloca in the function's entry block (so loops do not grow the stack);
//   anything else comes from the runtime's workspace pool and is freed at the
//   end of the scope and on every return path inside it.
// - AssertStmt: a failed condition reports its message through
//   set_last_error and returns -1. Evaluate: the expression for its effect
//   (`T.ret(v)` stores the function's return value and returns).
// Blocks are not accepted: LowerForCodegen removes them.
#include "codegen/llvm/codegen_llvm.h"

#include <fmt/format.h>

#include "rlx/support/diagnostic.h"

namespace rlx::codegen {

CodeGenLLVM::CodeGenLLVM(llvm::LLVMContext* context, llvm::TargetMachine* target, const CodegenOptions& options,
                         const std::string& module_name)
    : context_(context),
      target_(target),
      options_(options),
      module_(std::make_unique<llvm::Module>(module_name, *context)),
      builder_(std::make_unique<llvm::IRBuilder<>>(*context)) {
  void_ty_ = llvm::Type::getVoidTy(*context);
  i1_ty_ = llvm::Type::getInt1Ty(*context);
  i8_ty_ = llvm::Type::getInt8Ty(*context);
  i16_ty_ = llvm::Type::getInt16Ty(*context);
  i32_ty_ = llvm::Type::getInt32Ty(*context);
  i64_ty_ = llvm::Type::getInt64Ty(*context);
  f32_ty_ = llvm::Type::getFloatTy(*context);
  f64_ty_ = llvm::Type::getDoubleTy(*context);
  ptr_ty_ = llvm::PointerType::get(*context, 0);
  module_->setTargetTriple(target_->getTargetTriple().str());
  module_->setDataLayout(target_->createDataLayout());
  DeclareRuntimeInterface();
}

CodeGenLLVM::~CodeGenLLVM() = default;

// DLTensor, RLXRuntimeCallbacks and the module symbols of runtime/c_abi.h.
void CodeGenLLVM::DeclareRuntimeInterface() {
  llvm::StructType* device_ty = llvm::StructType::get(*context_, {i32_ty_, i32_ty_});
  llvm::StructType* dtype_ty = llvm::StructType::get(*context_, {i8_ty_, i8_ty_, i16_ty_});
  dltensor_ty_ = llvm::StructType::create(*context_, {ptr_ty_, device_ty, i32_ty_, dtype_ty, ptr_ty_, ptr_ty_, i64_ty_},
                                          "DLTensor");
  callbacks_ty_ = llvm::StructType::create(*context_, {ptr_ty_, ptr_ty_, ptr_ty_, ptr_ty_}, "RLXRuntimeCallbacks");
  // Weak: several rlx objects may be linked into one library. Not constant:
  // the loader (or the JIT) stores the runtime's table here.
  callbacks_var_ = new llvm::GlobalVariable(*module_, ptr_ty_, /*isConstant=*/false, llvm::GlobalValue::WeakAnyLinkage,
                                            llvm::ConstantPointerNull::get(ptr_ty_), RLX_RUNTIME_CALLBACKS_SYMBOL);
  new llvm::GlobalVariable(*module_, i32_ty_, /*isConstant=*/true, llvm::GlobalValue::WeakAnyLinkage,
                           llvm::ConstantInt::get(i32_ty_, RLX_C_ABI_VERSION), RLX_MODULE_ABI_VERSION_SYMBOL);
}

void CodeGenLLVM::SetTargetAttributes(llvm::Function* function) {
  function->addFnAttr("target-cpu", target_->getTargetCPU());
  if (!target_->getTargetFeatureString().empty()) {
    function->addFnAttr("target-features", target_->getTargetFeatureString());
  }
  function->addFnAttr(llvm::Attribute::NoUnwind);
}

std::unique_ptr<llvm::Module> CodeGenLLVM::Finish() {
  if (options_.verify) {
    std::string problems;
    llvm::raw_string_ostream out(problems);
    RLX_ICHECK(!llvm::verifyModule(*module_, &out)) << "LLVM rejected the generated module: " << out.str();
  }
  return std::move(module_);
}

// ---------------------------------------------------------------- functions

namespace {

bool HasNoAliasAttr(const tir::PrimFunc& func) {
  if (!func->attrs.defined()) return false;
  ObjectRef value = func->attrs->Get("tir.noalias");
  return value.defined() && value.isa<ir::IntImmNode>() && value.as<ir::IntImmNode>()->value != 0;
}

}  // namespace

void CodeGenLLVM::AddFunction(const std::string& name, const tir::PrimFunc& func) {
  func_name_ = name;
  vars_.clear();
  parallel_count_ = 0;
  std::vector<ir::Var> params = EntryDefinedVars(func);
  std::vector<llvm::Type*> param_types;
  for (const ir::Var& var : params) param_types.push_back(LLVMType(var->dtype));
  bool returns_value = !func->ret_type.is_void();
  if (returns_value) param_types.insert(param_types.end(), {ptr_ty_, ptr_ty_});
  auto* compute_type = llvm::FunctionType::get(i32_ty_, param_types, false);
  llvm::Function* compute =
      llvm::Function::Create(compute_type, llvm::Function::InternalLinkage, name + "_compute", module_.get());
  SetTargetAttributes(compute);
  bool noalias = HasNoAliasAttr(func);
  for (size_t i = 0; i < params.size(); ++i) {
    if (noalias && params[i]->dtype.is_handle())
      compute->addParamAttr(static_cast<unsigned>(i), llvm::Attribute::NoAlias);
  }

  EmitEntry(name, func, compute, params);

  vars_.clear();
  state_ = FunctionState();
  state_.function = compute;
  builder_->SetInsertPoint(llvm::BasicBlock::Create(*context_, "entry", compute));
  for (size_t i = 0; i < params.size(); ++i) BindVar(params[i], compute->getArg(static_cast<unsigned>(i)));
  if (returns_value) {
    state_.ret_value = compute->getArg(static_cast<unsigned>(params.size()));
    state_.ret_code = compute->getArg(static_cast<unsigned>(params.size() + 1));
  }
  VisitStmt(func->body);
  builder_->CreateRet(llvm::ConstantInt::get(i32_ty_, 0));
  vars_.clear();
}

// ---------------------------------------------------------------- variables

llvm::Value* CodeGenLLVM::GetVar(const ir::VarNode* var) {
  auto it = vars_.find(var);
  if (it == vars_.end()) {
    ThrowError(var->span, fmt::format("codegen: function {} uses variable {}, which nothing defines here", func_name_,
                                      var->name_hint));
  }
  return it->second;
}

void CodeGenLLVM::BindVar(const ir::Var& var, llvm::Value* value) {
  if (llvm::isa<llvm::Instruction>(value) && !value->hasName()) value->setName(var->name_hint);
  vars_[var.get()] = value;
}

void CodeGenLLVM::UnbindVar(const ir::Var& var) { vars_.erase(var.get()); }

// ---------------------------------------------------------------- errors

llvm::Value* CodeGenLLVM::StringConstant(const std::string& text) {
  return builder_->CreateGlobalStringPtr(text, ".str", 0, module_.get());
}

llvm::Value* CodeGenLLVM::RuntimeCallback(int index, llvm::FunctionType* /*type*/, const char* name) {
  llvm::Value* table = builder_->CreateLoad(ptr_ty_, callbacks_var_, "callbacks");
  llvm::Value* slot = builder_->CreateStructGEP(callbacks_ty_, table, index);
  return builder_->CreateLoad(ptr_ty_, slot, name);
}

llvm::Value* CodeGenLLVM::CallSetLastError(llvm::Value* message) {
  auto* type = llvm::FunctionType::get(void_ty_, {ptr_ty_}, false);
  llvm::Value* fn = RuntimeCallback(kSetLastError, type, "set_last_error");
  return builder_->CreateCall(type, fn, {message});
}

llvm::Value* CodeGenLLVM::FormatMessage(const std::string& format, const std::vector<llvm::Value*>& args) {
  constexpr int64_t kMessageBytes = 1024;
  if (state_.message_buffer == nullptr) state_.message_buffer = AllocaInEntry(i8_ty_, kMessageBytes, 1);
  llvm::Value* buffer = state_.message_buffer;
  llvm::FunctionCallee snprintf = module_->getOrInsertFunction(
      "snprintf", llvm::FunctionType::get(i32_ty_, {ptr_ty_, i64_ty_, ptr_ty_}, /*isVarArg=*/true));
  std::vector<llvm::Value*> call_args = {buffer, llvm::ConstantInt::get(i64_ty_, kMessageBytes),
                                         StringConstant(format)};
  call_args.insert(call_args.end(), args.begin(), args.end());
  builder_->CreateCall(snprintf, call_args);
  return buffer;
}

void CodeGenLLVM::EmitReturn(llvm::Value* code) {
  for (auto it = state_.live_workspaces.rbegin(); it != state_.live_workspaces.rend(); ++it) {
    auto* type = llvm::FunctionType::get(void_ty_, {ptr_ty_}, false);
    builder_->CreateCall(type, RuntimeCallback(kFreeWorkspace, type, "free_workspace"), {*it});
  }
  builder_->CreateRet(code);
}

void CodeGenLLVM::EmitCheck(llvm::Value* ok, const std::string& message) {
  EmitCheck(ok, [&] { return StringConstant(message); });
}

void CodeGenLLVM::EmitCheck(llvm::Value* ok, const std::function<llvm::Value*()>& make_message) {
  llvm::Function* function = state_.function;
  auto* fail = llvm::BasicBlock::Create(*context_, "check_fail", function);
  auto* next = llvm::BasicBlock::Create(*context_, "check_ok", function);
  llvm::MDBuilder md(*context_);
  builder_->CreateCondBr(ok, next, fail, md.createBranchWeights(1 << 20, 1));
  builder_->SetInsertPoint(fail);
  CallSetLastError(make_message());
  EmitReturn(llvm::ConstantInt::get(i32_ty_, -1));
  builder_->SetInsertPoint(next);
}

llvm::Value* CodeGenLLVM::AllocaInEntry(llvm::Type* type, int64_t count, int alignment) {
  llvm::BasicBlock& entry = state_.function->getEntryBlock();
  llvm::IRBuilder<> entry_builder(&entry, entry.getFirstInsertionPt());
  llvm::AllocaInst* alloca = entry_builder.CreateAlloca(type, llvm::ConstantInt::get(i64_ty_, count));
  alloca->setAlignment(llvm::Align(alignment));
  return alloca;
}

// ---------------------------------------------------------------- statements

namespace {

// A loop with a step s counts k over [0, ceil(extent / s)) and binds the
// original variable to min + k * s (the step must be positive).
tir::Stmt WithUnitStep(const tir::ForNode* op) {
  DataType dtype = op->loop_var->dtype;
  ir::PrimExpr step = ir::cast(dtype, op->step);
  auto* loop = new tir::ForNode();
  loop->loop_var = ir::MakeVar(op->loop_var->name_hint + "_k", dtype);
  loop->min = ir::MakeInt(0, dtype);
  loop->extent = ir::floordiv(ir::sub(ir::add(ir::cast(dtype, op->extent), step), ir::MakeInt(1, dtype)), step);
  loop->for_kind = op->for_kind;
  loop->thread_tag = op->thread_tag;
  loop->annotations = op->annotations;
  loop->span = op->span;
  ir::PrimExpr value = ir::add(ir::cast(dtype, op->min), ir::mul(loop->loop_var, step));
  loop->body = make<tir::LetStmtNode>(op->loop_var, value, op->body);
  return tir::Stmt(loop);
}

}  // namespace

void CodeGenLLVM::VisitStmt_(const tir::ForNode* op, const tir::Stmt&) {
  if (!op->HasUnitStep()) {
    VisitStmt(WithUnitStep(op));
  } else if (op->for_kind == tir::ForKind::kParallel && !state_.in_parallel) {
    EmitParallelFor(op);
  } else if (op->for_kind == tir::ForKind::kThreadBinding) {
    ThrowError(op->span, fmt::format("codegen: function {}: loop over {} is bound to thread {}, which the CPU "
                                     "backend cannot run",
                                     func_name_, op->loop_var->name_hint, op->thread_tag));
  } else {
    EmitSerialFor(op);
  }
}

llvm::MDNode* CodeGenLLVM::LoopMetadata(const tir::ForNode* op, llvm::MDNode* access_group) {
  std::vector<llvm::Metadata*> properties;
  auto flag = [&](const char* name, llvm::Metadata* value = nullptr) {
    std::vector<llvm::Metadata*> operands = {llvm::MDString::get(*context_, name)};
    if (value) operands.push_back(value);
    properties.push_back(llvm::MDNode::get(*context_, operands));
  };
  auto const_md = [&](llvm::Type* type, int64_t value) {
    return llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(type, value));
  };
  std::optional<int64_t> extent = ir::AsConstInt(op->extent);
  if (op->for_kind == tir::ForKind::kUnrolled) {
    flag(extent ? "llvm.loop.unroll.full" : "llvm.loop.unroll.enable");
  } else if (op->for_kind == tir::ForKind::kVectorized) {
    flag("llvm.loop.vectorize.enable", const_md(i1_ty_, 1));
    if (access_group) flag("llvm.loop.parallel_accesses", access_group);
    if (extent && *extent > 1 && *extent <= 64 && (*extent & (*extent - 1)) == 0) {
      flag("llvm.loop.vectorize.width", const_md(i32_ty_, *extent));
      // Otherwise the full-unroll pass, which runs before the loop
      // vectorizer, turns the lanes into scalars, and the vectorizer then
      // widens the enclosing loop with strided gathers and scatters instead.
      flag("llvm.loop.unroll.disable");
    }
  } else {
    return nullptr;
  }
  std::vector<llvm::Metadata*> operands = {nullptr};
  operands.insert(operands.end(), properties.begin(), properties.end());
  llvm::MDNode* loop_id = llvm::MDNode::getDistinct(*context_, operands);
  loop_id->replaceOperandWith(0, loop_id);
  return loop_id;
}

void CodeGenLLVM::EmitSerialFor(const tir::ForNode* op) {
  DataType dtype = op->loop_var->dtype;
  if (!dtype.is_integer() || !dtype.is_scalar()) {
    ThrowError(op->span, fmt::format("codegen: loop variable {} has type {}, expected a scalar integer",
                                     op->loop_var->name_hint, dtype.ToString()));
  }
  llvm::Value* begin = EmitCast(op->min->dtype, dtype, VisitExpr(op->min));
  llvm::Value* extent = EmitCast(op->extent->dtype, dtype, VisitExpr(op->extent));
  llvm::Value* end = builder_->CreateAdd(begin, extent, "loop_end");
  llvm::Function* function = state_.function;
  llvm::BasicBlock* preheader = builder_->GetInsertBlock();
  auto* header = llvm::BasicBlock::Create(*context_, "for_header", function);
  auto* body = llvm::BasicBlock::Create(*context_, "for_body", function);
  auto* exit = llvm::BasicBlock::Create(*context_, "for_exit", function);
  builder_->CreateBr(header);

  builder_->SetInsertPoint(header);
  llvm::PHINode* index = builder_->CreatePHI(LLVMType(dtype), 2);
  index->addIncoming(begin, preheader);
  llvm::Value* in_range = dtype.is_uint() ? builder_->CreateICmpULT(index, end) : builder_->CreateICmpSLT(index, end);
  builder_->CreateCondBr(in_range, body, exit);

  builder_->SetInsertPoint(body);
  BindVar(op->loop_var, index);
  VisitStmt(op->body);
  UnbindVar(op->loop_var);
  llvm::MDNode* access_group = nullptr;
  if (op->for_kind == tir::ForKind::kVectorized) {
    access_group = llvm::MDNode::getDistinct(*context_, {});
    AddToAccessGroup(access_group, body, exit);
  }
  llvm::Value* next = builder_->CreateAdd(index, llvm::ConstantInt::get(LLVMType(dtype), 1), "", false,
                                          /*HasNSW=*/dtype.is_int());
  llvm::BranchInst* back_edge = builder_->CreateBr(header);
  if (llvm::MDNode* metadata = LoopMetadata(op, access_group)) {
    back_edge->setMetadata(llvm::LLVMContext::MD_loop, metadata);
  }
  index->addIncoming(next, builder_->GetInsertBlock());
  builder_->SetInsertPoint(exit);
}

void CodeGenLLVM::AddToAccessGroup(llvm::MDNode* group, llvm::BasicBlock* first, llvm::BasicBlock* skip) {
  llvm::Function* function = first->getParent();
  for (auto block = first->getIterator(); block != function->end(); ++block) {
    if (&*block == skip) continue;
    for (llvm::Instruction& instruction : *block) {
      if (!instruction.mayReadOrWriteMemory()) continue;
      // An access inside nested vectorized loops belongs to each loop's
      // group: the metadata is then the list of groups.
      std::vector<llvm::Metadata*> groups;
      if (llvm::MDNode* existing = instruction.getMetadata(llvm::LLVMContext::MD_access_group)) {
        if (existing->getNumOperands() == 0) {
          groups.push_back(existing);
        } else {
          groups.insert(groups.end(), existing->op_begin(), existing->op_end());
        }
      }
      groups.push_back(group);
      llvm::MDNode* node = groups.size() == 1 ? group : llvm::MDNode::get(*context_, groups);
      instruction.setMetadata(llvm::LLVMContext::MD_access_group, node);
    }
  }
}

void CodeGenLLVM::VisitStmt_(const tir::IfThenElseNode* op, const tir::Stmt&) {
  llvm::Value* condition = VisitExpr(op->condition);
  if (!op->condition->dtype.is_scalar()) {
    ThrowError(op->span, fmt::format("codegen: if condition has vector type {}", op->condition->dtype.ToString()));
  }
  if (!op->condition->dtype.is_bool()) condition = EmitCast(op->condition->dtype, DataType::Bool(), condition);
  llvm::Function* function = state_.function;
  auto* then_block = llvm::BasicBlock::Create(*context_, "if_then", function);
  auto* merge = llvm::BasicBlock::Create(*context_, "if_end", function);
  auto* else_block = op->else_case.defined() ? llvm::BasicBlock::Create(*context_, "if_else", function) : merge;
  builder_->CreateCondBr(condition, then_block, else_block);
  builder_->SetInsertPoint(then_block);
  VisitStmt(op->then_case);
  builder_->CreateBr(merge);
  if (op->else_case.defined()) {
    builder_->SetInsertPoint(else_block);
    VisitStmt(op->else_case);
    builder_->CreateBr(merge);
  }
  builder_->SetInsertPoint(merge);
}

// while: a header block tests the condition before every iteration and
// branches to the body (which jumps back to the header) or past the loop.
void CodeGenLLVM::VisitStmt_(const tir::WhileNode* op, const tir::Stmt&) {
  if (!op->condition->dtype.is_scalar()) {
    ThrowError(op->span, fmt::format("codegen: while condition has vector type {}", op->condition->dtype.ToString()));
  }
  llvm::Function* function = state_.function;
  auto* header = llvm::BasicBlock::Create(*context_, "while_header", function);
  auto* body = llvm::BasicBlock::Create(*context_, "while_body", function);
  auto* exit = llvm::BasicBlock::Create(*context_, "while_exit", function);
  builder_->CreateBr(header);
  builder_->SetInsertPoint(header);
  llvm::Value* condition = VisitExpr(op->condition);
  if (!op->condition->dtype.is_bool()) condition = EmitCast(op->condition->dtype, DataType::Bool(), condition);
  builder_->CreateCondBr(condition, body, exit);
  builder_->SetInsertPoint(body);
  VisitStmt(op->body);
  builder_->CreateBr(header);
  builder_->SetInsertPoint(exit);
}

void CodeGenLLVM::VisitStmt_(const tir::LetStmtNode* op, const tir::Stmt&) {
  BindVar(op->var, VisitExpr(op->value));
  VisitStmt(op->body);
  UnbindVar(op->var);
}

// Attributes are hints with no CPU meaning (pragma_*, storage_alignment,
// ...): the body is generated as is. A GPU thread binding cannot run here.
void CodeGenLLVM::VisitStmt_(const tir::AttrStmtNode* op, const tir::Stmt&) {
  if (tir::IsThreadBindingAttr(op->attr_key)) {
    const auto* iter_var = op->node.as<tir::IterVarNode>();
    ThrowError(op->span, fmt::format("codegen: function {}: {} binds thread {}, which the CPU target cannot run",
                                     func_name_, op->attr_key, iter_var != nullptr ? iter_var->thread_tag : "?"));
  }
  VisitStmt(op->body);
}

void CodeGenLLVM::VisitStmt_(const tir::SeqStmtNode* op, const tir::Stmt&) {
  for (const tir::Stmt& stmt : op->seq) VisitStmt(stmt);
}

void CodeGenLLVM::VisitStmt_(const tir::EvaluateNode* op, const tir::Stmt&) {
  if (const auto* call = op->value.as<ir::CallNode>(); call && (call->op == "ret" || call->op == "tir.ret")) {
    if (call->args.size() != 1) ThrowError(op->span, "codegen: T.ret takes one value");
    EmitReturnValue(call->args[0]);
    return;
  }
  if (op->value.isa<ir::IntImmNode>()) return;  // the no-op statement
  VisitExpr(op->value);
}

void CodeGenLLVM::EmitReturnValue(const ir::PrimExpr& value) {
  if (state_.ret_value == nullptr) {
    ThrowError(value->span, fmt::format("codegen: function {} returns a value but declares no return type{}",
                                        func_name_, state_.in_parallel ? " (or returns inside a parallel loop)" : ""));
  }
  DataType dtype = value->dtype;
  llvm::Value* v = VisitExpr(value);
  int code;
  if (dtype.is_floating()) {
    builder_->CreateStore(EmitCast(dtype, DataType::Float(64), v), state_.ret_value);
    code = RLX_ARG_FLOAT;
  } else if (dtype.is_integer() || dtype.is_bool()) {
    builder_->CreateStore(EmitCast(dtype, DataType::Int64(), v), state_.ret_value);
    code = RLX_ARG_INT;
  } else {
    ThrowError(value->span, fmt::format("codegen: cannot return a value of type {}", dtype.ToString()));
  }
  builder_->CreateStore(llvm::ConstantInt::get(i32_ty_, code), state_.ret_code);
  EmitReturn(llvm::ConstantInt::get(i32_ty_, 0));
  // Anything after the return is unreachable; give it a block of its own.
  builder_->SetInsertPoint(llvm::BasicBlock::Create(*context_, "after_ret", state_.function));
}

void CodeGenLLVM::VisitStmt_(const tir::AssertStmtNode* op, const tir::Stmt&) {
  llvm::Value* condition = VisitExpr(op->condition);
  if (!op->condition->dtype.is_bool()) condition = EmitCast(op->condition->dtype, DataType::Bool(), condition);
  std::string message = "assertion failed";
  if (const auto* text = op->message.as<ir::StringImmNode>()) message = text->value;
  EmitCheck(condition, message);
  if (op->body.defined()) VisitStmt(op->body);
}

void CodeGenLLVM::VisitStmt_(const tir::BufferStoreNode* op, const tir::Stmt&) {
  if (op->indices.size() != 1) {
    ThrowError(op->span, fmt::format("codegen: store to buffer {} has {} indices; run LowerForCodegen first",
                                     op->buffer->name, op->indices.size()));
  }
  EmitBufferStore(op->buffer, op->indices[0], VisitExpr(op->value), op->value->dtype);
}

void CodeGenLLVM::VisitStmt_(const tir::AllocateNode* op, const tir::Stmt&) {
  EmitAllocation(op->buffer_var, op->dtype, op->extents, op->body, op->span);
}

void CodeGenLLVM::VisitStmt_(const tir::DeclBufferNode* op, const tir::Stmt&) {
  if (vars_.count(op->buffer->data.get())) {
    VisitStmt(op->body);
    return;
  }
  // A DeclBuffer that owns its memory (nothing bound the data yet).
  EmitAllocation(op->buffer->data, op->buffer->dtype, op->buffer->shape, op->body, op->span);
}

void CodeGenLLVM::EmitAllocation(const ir::Var& buffer_var, DataType dtype, const std::vector<ir::PrimExpr>& extents,
                                 const tir::Stmt& body, const Span& span) {
  if (dtype.is_vector() || dtype.is_void()) {
    ThrowError(span, fmt::format("codegen: cannot allocate elements of type {}", dtype.ToString()));
  }
  llvm::Type* element = MemoryType(dtype);
  int64_t element_bytes = dtype.bytes();
  std::optional<int64_t> count = 1;
  for (const ir::PrimExpr& extent : extents) {
    std::optional<int64_t> value = ir::AsConstInt(extent);
    count = (count && value) ? std::optional<int64_t>(*count * *value) : std::nullopt;
  }
  if (count && *count * element_bytes <= options_.max_stack_alloca_bytes) {
    BindVar(buffer_var, AllocaInEntry(element, std::max<int64_t>(*count, 1), 64));
    VisitStmt(body);
    UnbindVar(buffer_var);
    return;
  }
  llvm::Value* elements = llvm::ConstantInt::get(i64_ty_, 1);
  for (const ir::PrimExpr& extent : extents) {
    elements = builder_->CreateMul(elements, EmitCast(extent->dtype, DataType::Int64(), VisitExpr(extent)));
  }
  llvm::Value* bytes = builder_->CreateMul(elements, llvm::ConstantInt::get(i64_ty_, element_bytes));
  auto* alloc_type = llvm::FunctionType::get(ptr_ty_, {i64_ty_}, false);
  llvm::Value* data =
      builder_->CreateCall(alloc_type, RuntimeCallback(kAllocWorkspace, alloc_type, "alloc_workspace"), {bytes});
  // On failure the runtime has set the error message already.
  llvm::Function* function = state_.function;
  auto* fail = llvm::BasicBlock::Create(*context_, "alloc_fail", function);
  auto* next = llvm::BasicBlock::Create(*context_, "alloc_ok", function);
  builder_->CreateCondBr(builder_->CreateIsNull(data), fail, next);
  builder_->SetInsertPoint(fail);
  EmitReturn(llvm::ConstantInt::get(i32_ty_, -1));
  builder_->SetInsertPoint(next);

  BindVar(buffer_var, data);
  state_.live_workspaces.push_back(data);
  VisitStmt(body);
  state_.live_workspaces.pop_back();
  UnbindVar(buffer_var);
  auto* free_type = llvm::FunctionType::get(void_ty_, {ptr_ty_}, false);
  builder_->CreateCall(free_type, RuntimeCallback(kFreeWorkspace, free_type, "free_workspace"), {data});
}

void CodeGenLLVM::VisitStmt_(const tir::BlockNode* op, const tir::Stmt&) {
  ThrowError(op->span, fmt::format("codegen: block {} must be lowered first (tir::LowerForCodegen)", op->name));
}

void CodeGenLLVM::VisitStmt_(const tir::BlockRealizeNode* op, const tir::Stmt&) {
  ThrowError(op->span, fmt::format("codegen: block {} must be lowered first (tir::LowerForCodegen)", op->block->name));
}

}  // namespace rlx::codegen
