// CodeGenLLVM: the packed entry of a kernel, which turns the runtime's
// arguments (runtime/c_abi.h) into the variables of the PrimFunc and checks
// that they describe what the function expects.
//
//   int f(RLXValue* args, int* type_codes, int num_args, RLXValue* ret, int* ret_code)
//
// In order, every failure returning -1 after set_last_error("f: ..."):
//   1. num_args equals the number of parameters.
//   2. Scalar parameters (bound first): an integer or bool parameter takes
//      RLX_ARG_INT; a float parameter RLX_ARG_FLOAT or RLX_ARG_INT; a
//      handle parameter any pointer-carrying code.
//   3. Buffer parameters take RLX_ARG_TENSOR with a non-null DLTensor*; its
//      ndim, dtype (a bool buffer accepts DLPack bool or uint8) and device
//      (CPU) must match.
//   4. Shapes: a dimension that is a bare variable not yet bound binds it
//      (scalar parameters first, then buffers in parameter order, dimensions
//      left to right); every other dimension is evaluated and compared:
//        "f: buffer A: expected dimension 1 to be n * 4 (= 12), got 5".
//   5. Strides: a buffer without declared strides must be compact row-major
//      (a NULL strides array, or strides equal to the compact ones;
//      dimensions of size 1 may have any stride). Declared strides are bound
//      or checked like dimensions, against the actual strides or the compact
//      ones when the array is NULL.
//   6. Data: element [0, ..., 0] lives at data + byte_offset. With no
//      elem_offset (or 0) the data variable is that address; with an
//      elem_offset variable the data variable is `data` and the variable is
//      bound to byte_offset / element size (which must divide it); with any
//      other elem_offset expression byte_offset must equal it times the
//      element size.
// Then the compute function is called with every variable the entry bound,
// and its result (0 or an error code) is returned.
//
// A symbolic size that no argument binds (`n * m` where m appears nowhere
// alone) cannot be checked and is a CompileError at code generation.
#include <fmt/format.h>

#include <unordered_set>

#include "codegen/llvm/codegen_llvm.h"
#include "rlx/ir/functor.h"
#include "rlx/support/diagnostic.h"

namespace rlx::codegen {

namespace {

// Field indices of DLTensor (runtime/dlpack.h).
constexpr unsigned kData = 0;
constexpr unsigned kDevice = 1;
constexpr unsigned kNDim = 2;
constexpr unsigned kDType = 3;
constexpr unsigned kShape = 4;
constexpr unsigned kStrides = 5;
constexpr unsigned kByteOffset = 6;

// The DLPack type code of an rlx element type.
int DLPackCode(DataType dtype) {
  switch (dtype.code()) {
    case DataType::kInt:
      return kDLInt;
    case DataType::kUInt:
      return kDLUInt;
    case DataType::kFloat:
      return kDLFloat;
    case DataType::kBFloat:
      return kDLBfloat;
    case DataType::kBool:
      return kDLBool;
    case DataType::kHandle:
      return kDLOpaqueHandle;
  }
  return -1;
}

// `text` made safe as (part of) a printf format.
std::string EscapeFormat(const std::string& text) {
  std::string out;
  for (char c : text) {
    out += c;
    if (c == '%') out += '%';
  }
  return out;
}

std::vector<const ir::VarNode*> VarsOf(const ir::PrimExpr& expr) {
  std::vector<const ir::VarNode*> vars;
  ir::PostOrderVisit(expr, [&](const ir::PrimExpr& sub) {
    if (const auto* var = sub.as<ir::VarNode>()) vars.push_back(var);
  });
  return vars;
}

}  // namespace

std::vector<ir::Var> CodeGenLLVM::EntryDefinedVars(const tir::PrimFunc& func) {
  std::vector<ir::Var> vars;
  std::unordered_set<const ir::VarNode*> seen;
  auto add = [&](const ir::PrimExpr& expr) {
    if (const auto* var = expr.as<ir::VarNode>(); var && seen.insert(var).second)
      vars.push_back(cast<ir::VarNode>(expr));
  };
  for (const ir::Var& param : func->params) {
    ir::Buffer buffer = func->BufferFor(param);
    add(buffer.defined() ? ir::PrimExpr(buffer->data) : ir::PrimExpr(param));
  }
  for (const auto& [param, buffer] : func->buffer_map) {
    for (const ir::PrimExpr& dim : buffer->shape) add(dim);
    for (const ir::PrimExpr& stride : buffer->strides) add(stride);
    if (buffer->elem_offset.defined()) add(buffer->elem_offset);
  }
  return vars;
}

std::string CodeGenLLVM::Describe(const BufferArg& arg) const {
  return EscapeFormat(fmt::format("{}: buffer {}", func_name_, arg.buffer->name));
}

llvm::Value* CodeGenLLVM::TypeCodeName(llvm::Value* code) {
  static const std::pair<int, const char*> kNames[] = {{RLX_ARG_INT, "an int"},      {RLX_ARG_FLOAT, "a float"},
                                                       {RLX_ARG_HANDLE, "a handle"}, {RLX_ARG_NULL, "null"},
                                                       {RLX_ARG_TENSOR, "a tensor"}, {RLX_ARG_STRING, "a string"}};
  llvm::Value* name = StringConstant("an unknown type code");
  for (const auto& [value, text] : kNames) {
    name = builder_->CreateSelect(builder_->CreateICmpEQ(code, llvm::ConstantInt::get(i32_ty_, value)),
                                  StringConstant(text), name);
  }
  return name;
}

void CodeGenLLVM::UnpackScalar(const ir::Var& param, int index, llvm::Value* code, llvm::Value* slot) {
  DataType dtype = param->dtype;
  auto is_code = [&](int value) { return builder_->CreateICmpEQ(code, llvm::ConstantInt::get(i32_ty_, value)); };
  std::string prefix = EscapeFormat(fmt::format("{}: argument {} ({})", func_name_, index, param->name_hint));
  auto expect = [&](llvm::Value* ok, const char* wanted) {
    EmitCheck(ok, [&] { return FormatMessage(prefix + " expects " + wanted + ", got %s", {TypeCodeName(code)}); });
  };
  if (dtype.is_handle()) {
    BindVar(param, builder_->CreateLoad(ptr_ty_, slot));
  } else if (dtype.is_integer() || dtype.is_bool()) {
    expect(is_code(RLX_ARG_INT), "an int");
    BindVar(param, EmitCast(DataType::Int64(), dtype, builder_->CreateLoad(i64_ty_, slot)));
  } else if (dtype.is_floating()) {
    expect(builder_->CreateOr(is_code(RLX_ARG_FLOAT), is_code(RLX_ARG_INT)), "a float");
    llvm::Value* as_int = EmitCast(DataType::Int64(), DataType::Float(64), builder_->CreateLoad(i64_ty_, slot));
    llvm::Value* as_float = builder_->CreateLoad(f64_ty_, slot);
    llvm::Value* value = builder_->CreateSelect(is_code(RLX_ARG_INT), as_int, as_float);
    BindVar(param, EmitCast(DataType::Float(64), dtype, value));
  } else {
    ThrowError(param->span, fmt::format("codegen: function {}: parameter {} has type {}, which kernels cannot take",
                                        func_name_, param->name_hint, dtype.ToString()));
  }
}

void CodeGenLLVM::CheckBufferHeader(const BufferArg& arg) {
  const ir::Buffer& buffer = arg.buffer;
  std::string prefix = Describe(arg);
  llvm::Value* ndim = builder_->CreateLoad(i32_ty_, builder_->CreateStructGEP(dltensor_ty_, arg.dltensor, kNDim));
  int rank = static_cast<int>(buffer->shape.size());
  EmitCheck(builder_->CreateICmpEQ(ndim, llvm::ConstantInt::get(i32_ty_, rank)), [&] {
    return FormatMessage(prefix + fmt::format(": expected {} dimension{}, got %d", rank, rank == 1 ? "" : "s"), {ndim});
  });

  llvm::Value* dtype_ptr = builder_->CreateStructGEP(dltensor_ty_, arg.dltensor, kDType);
  llvm::Type* dtype_ty = dltensor_ty_->getElementType(kDType);
  llvm::Value* code = builder_->CreateLoad(i8_ty_, builder_->CreateStructGEP(dtype_ty, dtype_ptr, 0));
  llvm::Value* bits = builder_->CreateLoad(i8_ty_, builder_->CreateStructGEP(dtype_ty, dtype_ptr, 1));
  llvm::Value* lanes = builder_->CreateLoad(i16_ty_, builder_->CreateStructGEP(dtype_ty, dtype_ptr, 2));
  DataType dtype = buffer->dtype;
  auto i8 = [&](int v) { return llvm::ConstantInt::get(i8_ty_, v); };
  llvm::Value* code_ok = builder_->CreateICmpEQ(code, i8(DLPackCode(dtype)));
  if (dtype.is_bool()) code_ok = builder_->CreateOr(code_ok, builder_->CreateICmpEQ(code, i8(kDLUInt)));
  llvm::Value* ok = builder_->CreateAnd(code_ok, builder_->CreateICmpEQ(bits, i8(dtype.bits())));
  ok = builder_->CreateAnd(ok, builder_->CreateICmpEQ(lanes, llvm::ConstantInt::get(i16_ty_, dtype.lanes())));
  EmitCheck(ok, [&] {
    return FormatMessage(
        prefix + ": expected dtype " + dtype.ToString() + ", got DLDataType(code=%d, bits=%d, lanes=%d)",
        {builder_->CreateZExt(code, i32_ty_), builder_->CreateZExt(bits, i32_ty_),
         builder_->CreateZExt(lanes, i32_ty_)});
  });

  llvm::Value* device_ptr = builder_->CreateStructGEP(dltensor_ty_, arg.dltensor, kDevice);
  llvm::Value* device_type = builder_->CreateLoad(i32_ty_, device_ptr);
  EmitCheck(builder_->CreateICmpEQ(device_type, llvm::ConstantInt::get(i32_ty_, kDLCPU)),
            [&] { return FormatMessage(prefix + ": expected a CPU tensor, got device type %d", {device_type}); });
}

void CodeGenLLVM::BindOrCheck(const BufferArg& arg, const char* what, int dim, const ir::PrimExpr& expected,
                              llvm::Value* actual, bool bind) {
  if (bind) {
    ir::Var var = cast<ir::VarNode>(expected);
    BindVar(var, EmitCast(DataType::Int64(), var->dtype, actual));
    return;
  }
  for (const ir::VarNode* var : VarsOf(expected)) {
    if (!vars_.count(var)) {
      ThrowError(arg.buffer->span,
                 fmt::format("codegen: function {}: buffer {}: {} {} is {}, but {} is not defined by any argument (a "
                             "symbolic size must appear alone as some dimension, or be a scalar parameter)",
                             func_name_, arg.buffer->name, what, dim, ir::ToString(expected), var->name_hint));
    }
  }
  if (!expected->dtype.is_integer() || !expected->dtype.is_scalar()) {
    ThrowError(arg.buffer->span, fmt::format("codegen: function {}: buffer {}: {} {} has type {}, expected an integer",
                                             func_name_, arg.buffer->name, what, dim, expected->dtype.ToString()));
  }
  llvm::Value* value = EmitCast(expected->dtype, DataType::Int64(), VisitExpr(expected));
  std::string head = Describe(arg) + fmt::format(": expected {} {} to be ", what, dim);
  std::optional<int64_t> constant = ir::AsConstInt(expected);
  EmitCheck(builder_->CreateICmpEQ(actual, value), [&] {
    if (constant) return FormatMessage(head + std::to_string(*constant) + ", got %lld", {actual});
    return FormatMessage(head + EscapeFormat(ir::ToString(expected)) + " (= %lld), got %lld", {value, actual});
  });
}

void CodeGenLLVM::CheckCompactStrides(const BufferArg& arg, llvm::Value* strides) {
  int rank = static_cast<int>(arg.buffer->shape.size());
  if (rank == 0) return;
  llvm::Function* function = state_.function;
  auto* check = llvm::BasicBlock::Create(*context_, "strides_check", function);
  auto* done = llvm::BasicBlock::Create(*context_, "strides_done", function);
  builder_->CreateCondBr(builder_->CreateIsNull(strides), done, check);
  builder_->SetInsertPoint(check);
  llvm::Value* compact = llvm::ConstantInt::get(i64_ty_, 1);
  for (int d = rank - 1; d >= 0; --d) {
    llvm::Value* stride = builder_->CreateLoad(i64_ty_, builder_->CreateConstGEP1_64(i64_ty_, strides, d));
    llvm::Value* size = arg.dims[d];
    llvm::Value* ok = builder_->CreateOr(builder_->CreateICmpEQ(stride, compact),
                                         builder_->CreateICmpEQ(size, llvm::ConstantInt::get(i64_ty_, 1)));
    EmitCheck(ok, [&] {
      return FormatMessage(Describe(arg) + fmt::format(": expected a compact row-major tensor, but dimension {} has "
                                                       "stride %lld (compact: %lld)",
                                                       d),
                           {stride, compact});
    });
    compact = builder_->CreateMul(compact, size);
  }
  builder_->CreateBr(done);
  builder_->SetInsertPoint(done);
}

void CodeGenLLVM::BindExplicitStrides(const BufferArg& arg, llvm::Value* strides) {
  const ir::Buffer& buffer = arg.buffer;
  int rank = static_cast<int>(buffer->shape.size());
  if (static_cast<int>(buffer->strides.size()) != rank) {
    ThrowError(buffer->span, fmt::format("codegen: function {}: buffer {} has {} dimensions but {} strides", func_name_,
                                         buffer->name, rank, buffer->strides.size()));
  }
  llvm::Function* function = state_.function;
  auto* given = llvm::BasicBlock::Create(*context_, "strides_given", function);
  auto* compact = llvm::BasicBlock::Create(*context_, "strides_compact", function);
  auto* merge = llvm::BasicBlock::Create(*context_, "strides_merge", function);
  builder_->CreateCondBr(builder_->CreateIsNull(strides), compact, given);
  std::vector<llvm::Value*> given_values(rank), compact_values(rank);
  builder_->SetInsertPoint(given);
  for (int d = 0; d < rank; ++d) {
    given_values[d] = builder_->CreateLoad(i64_ty_, builder_->CreateConstGEP1_64(i64_ty_, strides, d));
  }
  builder_->CreateBr(merge);
  builder_->SetInsertPoint(compact);
  llvm::Value* product = llvm::ConstantInt::get(i64_ty_, 1);
  for (int d = rank - 1; d >= 0; --d) {
    compact_values[d] = product;
    product = builder_->CreateMul(product, arg.dims[d]);
  }
  builder_->CreateBr(merge);
  builder_->SetInsertPoint(merge);
  std::vector<llvm::Value*> strides_values(rank);
  for (int d = 0; d < rank; ++d) {  // all phis first: the checks below add blocks
    llvm::PHINode* phi = builder_->CreatePHI(i64_ty_, 2);
    phi->addIncoming(given_values[d], given);
    phi->addIncoming(compact_values[d], compact);
    strides_values[d] = phi;
  }
  for (int d = 0; d < rank; ++d) {
    llvm::Value* stride = strides_values[d];
    const ir::PrimExpr& expected = buffer->strides[d];
    bool binds = expected.isa<ir::VarNode>() && !vars_.count(expected.as<ir::VarNode>());
    BindOrCheck(arg, "stride", d, expected, stride, binds);
  }
}

void CodeGenLLVM::BindData(const BufferArg& arg) {
  const ir::Buffer& buffer = arg.buffer;
  llvm::Value* data = builder_->CreateLoad(ptr_ty_, builder_->CreateStructGEP(dltensor_ty_, arg.dltensor, kData));
  llvm::Value* byte_offset =
      builder_->CreateLoad(i64_ty_, builder_->CreateStructGEP(dltensor_ty_, arg.dltensor, kByteOffset));
  const ir::PrimExpr& offset = buffer->elem_offset;
  if (!offset.defined() || ir::IsConstInt(offset, 0)) {
    BindVar(buffer->data, builder_->CreateInBoundsGEP(i8_ty_, data, byte_offset));
    return;
  }
  llvm::Value* element_bytes = llvm::ConstantInt::get(i64_ty_, buffer->dtype.bytes());
  if (const auto* var = offset.as<ir::VarNode>(); var && !vars_.count(var)) {
    llvm::Value* remainder = builder_->CreateURem(byte_offset, element_bytes);
    EmitCheck(builder_->CreateICmpEQ(remainder, llvm::ConstantInt::get(i64_ty_, 0)), [&] {
      return FormatMessage(Describe(arg) + fmt::format(": byte_offset %lld is not a multiple of the element size {}",
                                                       buffer->dtype.bytes()),
                           {byte_offset});
    });
    ir::Var offset_var = cast<ir::VarNode>(offset);
    BindVar(offset_var,
            EmitCast(DataType::Int64(), offset_var->dtype, builder_->CreateUDiv(byte_offset, element_bytes)));
  } else {
    llvm::Value* expected =
        builder_->CreateMul(EmitCast(offset->dtype, DataType::Int64(), VisitExpr(offset)), element_bytes);
    EmitCheck(builder_->CreateICmpEQ(byte_offset, expected), [&] {
      return FormatMessage(Describe(arg) + ": expected byte_offset " + EscapeFormat(ir::ToString(offset)) +
                               " * element size (= %lld), got %lld",
                           {expected, byte_offset});
    });
  }
  BindVar(buffer->data, data);
}

std::vector<CodeGenLLVM::BufferArg> CodeGenLLVM::UnpackArguments(const tir::PrimFunc& func, llvm::Value* args,
                                                                 llvm::Value* type_codes) {
  std::vector<BufferArg> buffers;
  for (int i = 0; i < static_cast<int>(func->params.size()); ++i) {
    const ir::Var& param = func->params[i];
    llvm::Value* code = builder_->CreateLoad(i32_ty_, builder_->CreateConstGEP1_64(i32_ty_, type_codes, i));
    llvm::Value* slot = builder_->CreateConstGEP1_64(i64_ty_, args, i);
    ir::Buffer buffer = func->BufferFor(param);
    if (!buffer.defined()) {
      UnpackScalar(param, i, code, slot);
      continue;
    }
    BufferArg arg;
    arg.buffer = buffer;
    std::string prefix = fmt::format("{}: argument {} ({})", func_name_, i, buffer->name);
    EmitCheck(builder_->CreateICmpEQ(code, llvm::ConstantInt::get(i32_ty_, RLX_ARG_TENSOR)),
              [&] { return FormatMessage(EscapeFormat(prefix) + " expects a tensor, got %s", {TypeCodeName(code)}); });
    arg.dltensor = builder_->CreateLoad(ptr_ty_, slot, buffer->name + "_dltensor");
    EmitCheck(builder_->CreateIsNotNull(arg.dltensor), prefix + " is a null DLTensor pointer");
    buffers.push_back(arg);
  }
  return buffers;
}

void CodeGenLLVM::BindShapes(std::vector<BufferArg>& buffers) {
  for (BufferArg& arg : buffers) {
    arg.shape = builder_->CreateLoad(ptr_ty_, builder_->CreateStructGEP(dltensor_ty_, arg.dltensor, kShape));
    for (size_t d = 0; d < arg.buffer->shape.size(); ++d) {
      arg.dims.push_back(builder_->CreateLoad(i64_ty_, builder_->CreateConstGEP1_64(i64_ty_, arg.shape, d)));
    }
  }
  // Binding occurrences first, so that `n * 4` may precede the bare `n`.
  std::unordered_set<const ir::PrimExprNode*> binding_dims;
  for (BufferArg& arg : buffers) {
    for (size_t d = 0; d < arg.buffer->shape.size(); ++d) {
      const ir::PrimExpr& dim = arg.buffer->shape[d];
      const auto* var = dim.as<ir::VarNode>();
      if (var == nullptr || vars_.count(var)) continue;
      BindOrCheck(arg, "dimension", static_cast<int>(d), dim, arg.dims[d], /*bind=*/true);
      binding_dims.insert(dim.get());
    }
  }
  for (BufferArg& arg : buffers) {
    for (size_t d = 0; d < arg.buffer->shape.size(); ++d) {
      const ir::PrimExpr& dim = arg.buffer->shape[d];
      if (binding_dims.erase(dim.get())) continue;  // its own binding occurrence
      BindOrCheck(arg, "dimension", static_cast<int>(d), dim, arg.dims[d], /*bind=*/false);
    }
  }
}

llvm::Function* CodeGenLLVM::EmitEntry(const std::string& name, const tir::PrimFunc& func, llvm::Function* compute,
                                       const std::vector<ir::Var>& compute_params) {
  auto* type = llvm::FunctionType::get(i32_ty_, {ptr_ty_, ptr_ty_, i32_ty_, ptr_ty_, ptr_ty_}, false);
  llvm::Function* entry = llvm::Function::Create(type, llvm::Function::ExternalLinkage, name, module_.get());
  SetTargetAttributes(entry);
  state_ = FunctionState();
  state_.function = entry;
  builder_->SetInsertPoint(llvm::BasicBlock::Create(*context_, "entry", entry));
  llvm::Value* num_args = entry->getArg(2);
  num_args->setName("num_args");
  int count = static_cast<int>(func->params.size());
  EmitCheck(builder_->CreateICmpEQ(num_args, llvm::ConstantInt::get(i32_ty_, count)), [&] {
    return FormatMessage(
        EscapeFormat(func_name_) + fmt::format(": expected {} argument{}, got %d", count, count == 1 ? "" : "s"),
        {num_args});
  });

  std::vector<BufferArg> buffers = UnpackArguments(func, entry->getArg(0), entry->getArg(1));
  for (const BufferArg& arg : buffers) CheckBufferHeader(arg);
  BindShapes(buffers);
  for (const BufferArg& arg : buffers) {
    llvm::Value* strides =
        builder_->CreateLoad(ptr_ty_, builder_->CreateStructGEP(dltensor_ty_, arg.dltensor, kStrides));
    if (arg.buffer->strides.empty()) {
      CheckCompactStrides(arg, strides);
    } else {
      BindExplicitStrides(arg, strides);
    }
    BindData(arg);
  }

  std::vector<llvm::Value*> call_args;
  for (const ir::Var& var : compute_params) call_args.push_back(GetVar(var.get()));
  if (!func->ret_type.is_void()) call_args.insert(call_args.end(), {entry->getArg(3), entry->getArg(4)});
  builder_->CreateRet(builder_->CreateCall(compute, call_args));
  return entry;
}

}  // namespace rlx::codegen
