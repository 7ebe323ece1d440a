// CodeGenLLVM: lowered PrimFuncs -> one llvm::Module (private to codegen).
//
// Each PrimFunc `f` becomes two LLVM functions:
//
//   i32 @f(ptr args, ptr type_codes, i32 num_args, ptr ret, ptr ret_code)
//       The exported packed entry (runtime/c_abi.h). It unpacks and checks
//       the arguments against the buffer_map (codegen_llvm_entry.cc), binds
//       every variable the signature defines (data pointers, shape, stride
//       and offset variables, scalar parameters), then calls:
//   i32 @f_compute(<those variables>)            (internal)
//       The body (statements in codegen_llvm.cc, expressions in
//       codegen_llvm_expr.cc, intrinsics in codegen_llvm_intrin.cc). Data
//       pointers are `noalias` when the function has {"tir.noalias": True};
//       after inlining into the entry that becomes alias scopes the
//       vectorizer can use.
//
// Parallel loops are outlined into `i32 @f_compute_parallel_<k>(i64 begin,
// i64 end, ptr closure)` and run through the runtime's parallel_for
// (codegen_llvm_parallel.cc). Every function returns 0 on success, or
// nonzero after the runtime's set_last_error; generated code reaches the
// runtime only through the module global `rlx_runtime_callbacks`
// (a pointer to RLXRuntimeCallbacks), so the same code works in the JIT and
// in a shared library.
//
// Value representation: integers are iN, bool is i1 (i8 in memory), float16
// is LLVM `half` (LLVM promotes each operation to float and rounds back,
// i.e. float16 computed in float32 with per-operation rounding), bfloat16 is
// a `float` holding a bfloat16-representable value (rounded to nearest even
// after every operation; i16 in memory), handles are `ptr`. Vector dtypes
// are fixed vectors of the same.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "codegen/llvm/llvm_headers.h"
#include "rlx/codegen/options.h"
#include "rlx/ir/functor.h"
#include "rlx/runtime/c_abi.h"
#include "rlx/tir/function.h"
#include "rlx/tir/stmt_functor.h"

namespace rlx::codegen {

class CodeGenLLVM : public ir::PrimExprFunctor<llvm::Value*(const ir::PrimExpr&)>,
                    public tir::StmtFunctor<void(const tir::Stmt&)> {
 public:
  CodeGenLLVM(llvm::LLVMContext* context, llvm::TargetMachine* target, const CodegenOptions& options,
              const std::string& module_name);
  ~CodeGenLLVM() override;

  // Adds the entry and compute functions of `func` (already lowered by
  // tir::LowerForCodegen) exported as `name`.
  void AddFunction(const std::string& name, const tir::PrimFunc& func);
  // Verifies the module (if options.verify) and hands it over; optimizing it
  // is OptimizeModule's job (llvm_target.h).
  std::unique_ptr<llvm::Module> Finish();

  using ir::PrimExprFunctor<llvm::Value*(const ir::PrimExpr&)>::VisitExpr;
  using tir::StmtFunctor<void(const tir::Stmt&)>::VisitStmt;

 protected:
  // ---------------------------------------------------------------- expressions
#define RLX_DECLARE_VISIT(Name) llvm::Value* VisitExpr_(const ir::Name##Node* op, const ir::PrimExpr& self) override;
  RLX_PRIM_EXPR_NODES(RLX_DECLARE_VISIT)
#undef RLX_DECLARE_VISIT

  // ---------------------------------------------------------------- statements
#define RLX_DECLARE_VISIT(Name) void VisitStmt_(const tir::Name##Node* op, const tir::Stmt& self) override;
  RLX_STMT_NODES(RLX_DECLARE_VISIT)
#undef RLX_DECLARE_VISIT

 private:
  // Field indices of RLXRuntimeCallbacks (runtime/c_abi.h).
  static constexpr int kParallelFor = 0;
  static constexpr int kSetLastError = 1;
  static constexpr int kAllocWorkspace = 2;
  static constexpr int kFreeWorkspace = 3;

  // Per-function state, saved and restored around outlined functions.
  struct FunctionState {
    llvm::Function* function = nullptr;
    // Workspace pointers live at the current point, freed on every return.
    std::vector<llvm::Value*> live_workspaces;
    // The ret/ret_code pointers of a function with a return value.
    llvm::Value* ret_value = nullptr;
    llvm::Value* ret_code = nullptr;
    bool in_parallel = false;
    // The stack buffer formatted error messages are written to (one per
    // function, created on first use).
    llvm::Value* message_buffer = nullptr;
  };

  // ---- module setup (codegen_llvm.cc)
  void DeclareRuntimeInterface();
  void SetTargetAttributes(llvm::Function* function);

  // ---- types (codegen_llvm_expr.cc)
  // The register type of values of `dtype`.
  llvm::Type* LLVMType(DataType dtype);
  // The in-memory element type of buffers of `dtype`.
  llvm::Type* MemoryType(DataType dtype);

  // ---- expression helpers (codegen_llvm_expr.cc)
  llvm::Value* EmitCast(DataType from, DataType to, llvm::Value* value);
  llvm::Value* RoundToBFloat16(llvm::Value* value);
  // Rounds float results of a bfloat16 dtype; other values pass through.
  llvm::Value* FinishFloat(DataType dtype, llvm::Value* value);
  llvm::Value* EmitFloorDivMod(bool is_div, DataType dtype, llvm::Value* a, llvm::Value* b);
  llvm::Value* EmitMinMax(bool is_max, DataType dtype, llvm::Value* a, llvm::Value* b);
  llvm::Value* EmitCompare(NodeKind kind, DataType dtype, llvm::Value* a, llvm::Value* b);
  // The address of element `index` (scalar) of the buffer whose data is `data`.
  llvm::Value* ElementAddress(const ir::Buffer& buffer, llvm::Value* index);
  llvm::Value* EmitBufferLoad(const ir::Buffer& buffer, const ir::PrimExpr& index, DataType value_dtype);
  void EmitBufferStore(const ir::Buffer& buffer, const ir::PrimExpr& index, llvm::Value* value, DataType dtype);
  llvm::Value* FromMemory(DataType dtype, llvm::Value* raw);
  llvm::Value* ToMemory(DataType dtype, llvm::Value* value);
  llvm::Value* Splat(llvm::Value* scalar, int lanes);
  llvm::Value* BufferData(const ir::Buffer& buffer);

  // ---- intrinsics (codegen_llvm_intrin.cc)
  llvm::Value* EmitIfThenElse(const ir::CallNode* op);
  llvm::Value* EmitMathCall(const ir::CallNode* op, const std::string& name);
  llvm::Value* EmitUnaryMath(const std::string& name, DataType dtype, llvm::Value* x);
  llvm::Value* EmitBinaryMath(const std::string& name, DataType dtype, llvm::Value* x, llvm::Value* y);
  llvm::Value* EmitIntegerIntrinsic(const ir::CallNode* op, const std::string& name);
  // ---- inline vectorizable float math (codegen_llvm_fast_math.cc)
  // Whether `name` on `dtype` has an inline implementation (exp and tanh on float32 and narrower).
  bool HasFastMath(const std::string& name, DataType dtype);
  llvm::Value* EmitFastMath(const std::string& name, DataType dtype, llvm::Value* x);
  llvm::Value* EmitFastExpF32(llvm::Value* x);
  llvm::Value* EmitFastTanhF32(llvm::Value* x);
  llvm::Value* EmitFastErfF32(llvm::Value* x);
  llvm::Value* CallLibm(const std::string& base_name, DataType dtype, const std::vector<llvm::Value*>& args);
  llvm::Value* CallIntrinsic(llvm::Intrinsic::ID id, const std::vector<llvm::Type*>& overloads,
                             const std::vector<llvm::Value*>& args);
  // T.call_llvm_intrin / T.call_llvm_pure_intrin (codegen_llvm_intrin.cc).
  llvm::Value* EmitLLVMIntrinsicCall(const ir::CallNode* op, const std::string& name);

  // ---- statements (codegen_llvm.cc)
  void EmitSerialFor(const tir::ForNode* op);
  // `access_group`: the group of the loop's memory accesses, declared
  // parallel (llvm.loop.parallel_accesses) on vectorized loops.
  llvm::MDNode* LoopMetadata(const tir::ForNode* op, llvm::MDNode* access_group);
  // Adds `group` to the llvm.access.group of every memory access in the
  // blocks [first, end of function) other than `skip`.
  void AddToAccessGroup(llvm::MDNode* group, llvm::BasicBlock* first, llvm::BasicBlock* skip);
  void EmitAllocation(const ir::Var& buffer_var, DataType dtype, const std::vector<ir::PrimExpr>& extents,
                      const tir::Stmt& body, const Span& span);
  llvm::Value* AllocaInEntry(llvm::Type* type, int64_t count, int alignment);
  void EmitReturnValue(const ir::PrimExpr& value);

  // ---- errors and runtime calls (codegen_llvm.cc)
  // Branches to a block that reports the message (a ptr to a C string,
  // emitted by `make_message` inside that block) and returns -1 when `ok` is
  // false; continues after it otherwise.
  void EmitCheck(llvm::Value* ok, const std::function<llvm::Value*()>& make_message);
  void EmitCheck(llvm::Value* ok, const std::string& message);
  // In the current block: frees live workspaces and returns `code`.
  void EmitReturn(llvm::Value* code);
  llvm::Value* RuntimeCallback(int index, llvm::FunctionType* type, const char* name);
  llvm::Value* CallSetLastError(llvm::Value* message);
  llvm::Value* StringConstant(const std::string& text);
  // snprintf into a stack buffer: a ptr to the formatted message.
  llvm::Value* FormatMessage(const std::string& format, const std::vector<llvm::Value*>& args);

  // ---- the packed entry (codegen_llvm_entry.cc)
  struct BufferArg {
    ir::Buffer buffer;
    llvm::Value* dltensor = nullptr;
    llvm::Value* shape = nullptr;    // the int64_t* shape array
    std::vector<llvm::Value*> dims;  // its entries, loaded once
  };
  // The variables the entry defines, in the order they become the compute
  // function's parameters.
  std::vector<ir::Var> EntryDefinedVars(const tir::PrimFunc& func);
  llvm::Function* EmitEntry(const std::string& name, const tir::PrimFunc& func, llvm::Function* compute,
                            const std::vector<ir::Var>& compute_params);
  // Checks the type codes, binds scalar parameters, returns the buffers.
  std::vector<BufferArg> UnpackArguments(const tir::PrimFunc& func, llvm::Value* args, llvm::Value* type_codes);
  void UnpackScalar(const ir::Var& param, int index, llvm::Value* code, llvm::Value* slot);
  // Loads every dimension, binds first appearances, checks the rest.
  void BindShapes(std::vector<BufferArg>& buffers);
  llvm::Value* TypeCodeName(llvm::Value* code);
  void CheckBufferHeader(const BufferArg& arg);
  // A dimension or stride: binds a bare variable at its first appearance
  // (`bind`), checks it against its expected value otherwise.
  void BindOrCheck(const BufferArg& arg, const char* what, int dim, const ir::PrimExpr& expected, llvm::Value* actual,
                   bool bind);
  void CheckCompactStrides(const BufferArg& arg, llvm::Value* strides);
  void BindExplicitStrides(const BufferArg& arg, llvm::Value* strides);
  void BindData(const BufferArg& arg);
  std::string Describe(const BufferArg& arg) const;

  // ---- parallel loops (codegen_llvm_parallel.cc)
  void EmitParallelFor(const tir::ForNode* op);

  // ---- variables
  llvm::Value* GetVar(const ir::VarNode* var);
  void BindVar(const ir::Var& var, llvm::Value* value);
  void UnbindVar(const ir::Var& var);

  llvm::LLVMContext* context_;
  llvm::TargetMachine* target_;
  CodegenOptions options_;
  std::unique_ptr<llvm::Module> module_;
  std::unique_ptr<llvm::IRBuilder<>> builder_;

  // Types used everywhere.
  llvm::Type* void_ty_;
  llvm::IntegerType* i1_ty_;
  llvm::IntegerType* i8_ty_;
  llvm::IntegerType* i16_ty_;
  llvm::IntegerType* i32_ty_;
  llvm::IntegerType* i64_ty_;
  llvm::Type* f32_ty_;
  llvm::Type* f64_ty_;
  llvm::PointerType* ptr_ty_;
  llvm::StructType* dltensor_ty_ = nullptr;
  llvm::StructType* callbacks_ty_ = nullptr;
  llvm::GlobalVariable* callbacks_var_ = nullptr;

  // The function being generated.
  std::string func_name_;
  FunctionState state_;
  std::unordered_map<const ir::VarNode*, llvm::Value*> vars_;
  int parallel_count_ = 0;
};

}  // namespace rlx::codegen
