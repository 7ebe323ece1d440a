// CodeGenLLVM: types, expressions, buffer loads and stores.
//
// Arithmetic follows include/rlx/ir/expr.h:
// - integers wrap (no nsw/nuw flags on + - *); signedness picks sdiv/udiv,
//   srem/urem, signed/unsigned comparisons and extensions;
// - floordiv/floormod round towards negative infinity:
//     q = a sdiv b, r = a srem b, adjust = r != 0 && (r < 0) != (b < 0)
//     floordiv = q - adjust,  floormod = r + (adjust ? b : 0)
//   (for a positive constant b LLVM folds the sign test of b away);
//   on floats they are floor(a / b) and a - floor(a / b) * b;
// - float-to-integer casts saturate to int64 (llvm.fptosi.sat, NaN -> 0)
//   and then wrap to the target width, as the interpreter does;
// - min/max are `select(a < b, a, b)`, which x86 turns into minps/maxps.
// bfloat16 values are floats rounded to bfloat16 after every operation
// (RoundToBFloat16: round to nearest even on the bit pattern, NaNs kept
// quiet); float16 uses LLVM's half type (see codegen_llvm.h).
//
// Vector accesses: a load or store whose (flattened) index is
// Ramp(base, 1, n) is one contiguous vector access; Broadcast(i) is a
// scalar access splat; any other vector index is a masked gather/scatter.
#include <fmt/format.h>

#include <cmath>
#include <cstring>

#include "codegen/llvm/codegen_llvm.h"
#include "rlx/support/diagnostic.h"

namespace rlx::codegen {

namespace {

// The bfloat16 rounding of a float value, on the host (for constants).
float RoundToBFloat16Host(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  if (std::isnan(value)) {
    bits = (bits | 0x00400000u) & 0xFFFF0000u;
  } else {
    bits = (bits + 0x7FFFu + ((bits >> 16) & 1u)) & 0xFFFF0000u;
  }
  std::memcpy(&value, &bits, sizeof(bits));
  return value;
}

}  // namespace

// ---------------------------------------------------------------- types

llvm::Type* CodeGenLLVM::LLVMType(DataType dtype) {
  llvm::Type* scalar = nullptr;
  switch (dtype.code()) {
    case DataType::kInt:
    case DataType::kUInt:
      scalar = llvm::IntegerType::get(*context_, dtype.bits());
      break;
    case DataType::kBool:
      scalar = i1_ty_;
      break;
    case DataType::kBFloat:
      scalar = f32_ty_;
      break;
    case DataType::kFloat:
      if (dtype.bits() == 16) scalar = llvm::Type::getHalfTy(*context_);
      if (dtype.bits() == 32) scalar = f32_ty_;
      if (dtype.bits() == 64) scalar = f64_ty_;
      break;
    case DataType::kHandle:
      scalar = dtype.is_void() ? void_ty_ : ptr_ty_;
      break;
  }
  if (scalar == nullptr) {
    ThrowError(Span(), fmt::format("codegen: function {}: type {} is not supported", func_name_, dtype.ToString()));
  }
  return dtype.lanes() > 1 ? llvm::FixedVectorType::get(scalar, dtype.lanes()) : scalar;
}

llvm::Type* CodeGenLLVM::MemoryType(DataType dtype) {
  llvm::Type* scalar = nullptr;
  if (dtype.is_bool()) scalar = i8_ty_;
  if (dtype.is_bfloat16()) scalar = i16_ty_;
  if (scalar == nullptr) return LLVMType(dtype);
  return dtype.lanes() > 1 ? llvm::FixedVectorType::get(scalar, dtype.lanes()) : scalar;
}

llvm::Value* CodeGenLLVM::Splat(llvm::Value* scalar, int lanes) {
  return lanes == 1 ? scalar : builder_->CreateVectorSplat(lanes, scalar);
}

// ---------------------------------------------------------------- conversions

llvm::Value* CodeGenLLVM::RoundToBFloat16(llvm::Value* value) {
  llvm::Type* int_ty = value->getType()->isVectorTy()
                           ? static_cast<llvm::Type*>(llvm::VectorType::get(
                                 i32_ty_, llvm::cast<llvm::VectorType>(value->getType())->getElementCount()))
                           : i32_ty_;
  auto constant = [&](uint32_t c) { return llvm::ConstantInt::get(int_ty, c); };
  llvm::Value* bits = builder_->CreateBitCast(value, int_ty);
  llvm::Value* lsb = builder_->CreateAnd(builder_->CreateLShr(bits, constant(16)), constant(1));
  llvm::Value* rounded =
      builder_->CreateAnd(builder_->CreateAdd(builder_->CreateAdd(bits, constant(0x7FFF)), lsb), constant(0xFFFF0000u));
  llvm::Value* quiet_nan = builder_->CreateAnd(builder_->CreateOr(bits, constant(0x00400000u)), constant(0xFFFF0000u));
  llvm::Value* is_nan = builder_->CreateFCmpUNO(value, value);
  return builder_->CreateBitCast(builder_->CreateSelect(is_nan, quiet_nan, rounded), value->getType());
}

llvm::Value* CodeGenLLVM::FinishFloat(DataType dtype, llvm::Value* value) {
  return dtype.is_bfloat16() ? RoundToBFloat16(value) : value;
}

llvm::Value* CodeGenLLVM::EmitCast(DataType from, DataType to, llvm::Value* value) {
  if (from == to) return value;
  if (from.lanes() != to.lanes()) {
    ThrowError(Span(), fmt::format("codegen: cannot cast {} to {} (different lanes)", from.ToString(), to.ToString()));
  }
  llvm::Type* target = LLVMType(to);
  if (to.is_bool()) {
    if (from.is_floating()) return builder_->CreateFCmpUNE(value, llvm::Constant::getNullValue(value->getType()));
    if (from.is_handle()) return builder_->CreateIsNotNull(value);
    return builder_->CreateICmpNE(value, llvm::Constant::getNullValue(value->getType()));
  }
  if (from.is_handle() && to.is_integer()) return builder_->CreatePtrToInt(value, target);
  if (from.is_integer() && to.is_handle()) return builder_->CreateIntToPtr(value, target);
  bool from_signed = from.is_int();
  if ((from.is_integer() || from.is_bool()) && to.is_integer())
    return builder_->CreateIntCast(value, target, from_signed);
  if ((from.is_integer() || from.is_bool()) && to.is_floating()) {
    llvm::Value* result = from_signed ? builder_->CreateSIToFP(value, target) : builder_->CreateUIToFP(value, target);
    return FinishFloat(to, result);
  }
  if (from.is_floating() && to.is_integer()) {
    llvm::Type* wide = LLVMType(DataType::Int64().with_lanes(to.lanes()));
    llvm::Value* saturated = CallIntrinsic(llvm::Intrinsic::fptosi_sat, {wide, value->getType()}, {value});
    return builder_->CreateIntCast(saturated, target, /*isSigned=*/true);
  }
  if (from.is_floating() && to.is_floating()) return FinishFloat(to, builder_->CreateFPCast(value, target));
  ThrowError(Span(), fmt::format("codegen: cannot cast {} to {}", from.ToString(), to.ToString()));
}

// ---------------------------------------------------------------- leaves

llvm::Value* CodeGenLLVM::VisitExpr_(const ir::IntImmNode* op, const ir::PrimExpr&) {
  if (op->dtype.is_floating()) return VisitExpr(ir::MakeFloat(static_cast<double>(op->value), op->dtype));
  llvm::Type* type = LLVMType(op->dtype);
  if (op->dtype.is_bool()) return llvm::ConstantInt::get(type, op->value != 0 ? 1 : 0);
  return llvm::ConstantInt::get(type, static_cast<uint64_t>(op->value), /*IsSigned=*/true);
}

llvm::Value* CodeGenLLVM::VisitExpr_(const ir::FloatImmNode* op, const ir::PrimExpr&) {
  if (!op->dtype.is_floating()) {
    ThrowError(op->span, fmt::format("codegen: float literal of type {}", op->dtype.ToString()));
  }
  double value = op->dtype.is_bfloat16() ? RoundToBFloat16Host(static_cast<float>(op->value)) : op->value;
  return llvm::ConstantFP::get(LLVMType(op->dtype), value);
}

llvm::Value* CodeGenLLVM::VisitExpr_(const ir::StringImmNode* op, const ir::PrimExpr&) {
  return StringConstant(op->value);
}

llvm::Value* CodeGenLLVM::VisitExpr_(const ir::VarNode* op, const ir::PrimExpr&) { return GetVar(op); }

// ---------------------------------------------------------------- arithmetic

llvm::Value* CodeGenLLVM::VisitExpr_(const ir::AddNode* op, const ir::PrimExpr&) {
  llvm::Value* a = VisitExpr(op->a);
  llvm::Value* b = VisitExpr(op->b);
  return op->dtype.is_floating() ? FinishFloat(op->dtype, builder_->CreateFAdd(a, b)) : builder_->CreateAdd(a, b);
}

llvm::Value* CodeGenLLVM::VisitExpr_(const ir::SubNode* op, const ir::PrimExpr&) {
  llvm::Value* a = VisitExpr(op->a);
  llvm::Value* b = VisitExpr(op->b);
  return op->dtype.is_floating() ? FinishFloat(op->dtype, builder_->CreateFSub(a, b)) : builder_->CreateSub(a, b);
}

llvm::Value* CodeGenLLVM::VisitExpr_(const ir::MulNode* op, const ir::PrimExpr&) {
  llvm::Value* a = VisitExpr(op->a);
  llvm::Value* b = VisitExpr(op->b);
  return op->dtype.is_floating() ? FinishFloat(op->dtype, builder_->CreateFMul(a, b)) : builder_->CreateMul(a, b);
}

llvm::Value* CodeGenLLVM::VisitExpr_(const ir::DivNode* op, const ir::PrimExpr&) {
  llvm::Value* a = VisitExpr(op->a);
  llvm::Value* b = VisitExpr(op->b);
  if (op->dtype.is_floating()) return FinishFloat(op->dtype, builder_->CreateFDiv(a, b));
  return op->dtype.is_uint() ? builder_->CreateUDiv(a, b) : builder_->CreateSDiv(a, b);
}

llvm::Value* CodeGenLLVM::VisitExpr_(const ir::ModNode* op, const ir::PrimExpr&) {
  llvm::Value* a = VisitExpr(op->a);
  llvm::Value* b = VisitExpr(op->b);
  if (op->dtype.is_floating()) return FinishFloat(op->dtype, builder_->CreateFRem(a, b));
  return op->dtype.is_uint() ? builder_->CreateURem(a, b) : builder_->CreateSRem(a, b);
}

llvm::Value* CodeGenLLVM::EmitFloorDivMod(bool is_div, DataType dtype, llvm::Value* a, llvm::Value* b) {
  if (dtype.is_floating()) {
    llvm::Value* quotient = CallIntrinsic(llvm::Intrinsic::floor, {a->getType()}, {builder_->CreateFDiv(a, b)});
    if (is_div) return FinishFloat(dtype, quotient);
    return FinishFloat(dtype, builder_->CreateFSub(a, builder_->CreateFMul(quotient, b)));
  }
  if (dtype.is_uint() || dtype.is_bool()) return is_div ? builder_->CreateUDiv(a, b) : builder_->CreateURem(a, b);
  llvm::Value* zero = llvm::Constant::getNullValue(a->getType());
  llvm::Value* quotient = builder_->CreateSDiv(a, b);
  llvm::Value* remainder = builder_->CreateSRem(a, b);
  llvm::Value* signs_differ =
      builder_->CreateICmpNE(builder_->CreateICmpSLT(remainder, zero), builder_->CreateICmpSLT(b, zero));
  llvm::Value* adjust = builder_->CreateAnd(builder_->CreateICmpNE(remainder, zero), signs_differ);
  if (is_div) return builder_->CreateSub(quotient, builder_->CreateZExt(adjust, a->getType()));
  return builder_->CreateAdd(remainder, builder_->CreateSelect(adjust, b, zero));
}

llvm::Value* CodeGenLLVM::VisitExpr_(const ir::FloorDivNode* op, const ir::PrimExpr&) {
  return EmitFloorDivMod(true, op->dtype, VisitExpr(op->a), VisitExpr(op->b));
}

llvm::Value* CodeGenLLVM::VisitExpr_(const ir::FloorModNode* op, const ir::PrimExpr&) {
  return EmitFloorDivMod(false, op->dtype, VisitExpr(op->a), VisitExpr(op->b));
}

llvm::Value* CodeGenLLVM::EmitMinMax(bool is_max, DataType dtype, llvm::Value* a, llvm::Value* b) {
  llvm::Value* a_wins = EmitCompare(is_max ? NodeKind::kPrimGT : NodeKind::kPrimLT, dtype, a, b);
  return builder_->CreateSelect(a_wins, a, b);
}

llvm::Value* CodeGenLLVM::VisitExpr_(const ir::MinNode* op, const ir::PrimExpr&) {
  return EmitMinMax(false, op->dtype, VisitExpr(op->a), VisitExpr(op->b));
}

llvm::Value* CodeGenLLVM::VisitExpr_(const ir::MaxNode* op, const ir::PrimExpr&) {
  return EmitMinMax(true, op->dtype, VisitExpr(op->a), VisitExpr(op->b));
}

// ---------------------------------------------------------------- comparisons, logic

llvm::Value* CodeGenLLVM::EmitCompare(NodeKind kind, DataType dtype, llvm::Value* a, llvm::Value* b) {
  using P = llvm::CmpInst::Predicate;
  if (dtype.is_floating()) {
    switch (kind) {
      case NodeKind::kPrimEQ:
        return builder_->CreateFCmp(P::FCMP_OEQ, a, b);
      case NodeKind::kPrimNE:
        return builder_->CreateFCmp(P::FCMP_UNE, a, b);
      case NodeKind::kPrimLT:
        return builder_->CreateFCmp(P::FCMP_OLT, a, b);
      case NodeKind::kPrimLE:
        return builder_->CreateFCmp(P::FCMP_OLE, a, b);
      case NodeKind::kPrimGT:
        return builder_->CreateFCmp(P::FCMP_OGT, a, b);
      case NodeKind::kPrimGE:
        return builder_->CreateFCmp(P::FCMP_OGE, a, b);
      default:
        break;
    }
  } else {
    bool is_signed = dtype.is_int();
    switch (kind) {
      case NodeKind::kPrimEQ:
        return builder_->CreateICmp(P::ICMP_EQ, a, b);
      case NodeKind::kPrimNE:
        return builder_->CreateICmp(P::ICMP_NE, a, b);
      case NodeKind::kPrimLT:
        return builder_->CreateICmp(is_signed ? P::ICMP_SLT : P::ICMP_ULT, a, b);
      case NodeKind::kPrimLE:
        return builder_->CreateICmp(is_signed ? P::ICMP_SLE : P::ICMP_ULE, a, b);
      case NodeKind::kPrimGT:
        return builder_->CreateICmp(is_signed ? P::ICMP_SGT : P::ICMP_UGT, a, b);
      case NodeKind::kPrimGE:
        return builder_->CreateICmp(is_signed ? P::ICMP_SGE : P::ICMP_UGE, a, b);
      default:
        break;
    }
  }
  RLX_UNREACHABLE() << "not a comparison: " << NodeKindName(kind);
}

#define RLX_DEFINE_COMPARE(Name)                                                        \
  llvm::Value* CodeGenLLVM::VisitExpr_(const ir::Name##Node* op, const ir::PrimExpr&) { \
    return EmitCompare(op->kind(), op->a->dtype, VisitExpr(op->a), VisitExpr(op->b));   \
  }
RLX_DEFINE_COMPARE(EQ)
RLX_DEFINE_COMPARE(NE)
RLX_DEFINE_COMPARE(LT)
RLX_DEFINE_COMPARE(LE)
RLX_DEFINE_COMPARE(GT)
RLX_DEFINE_COMPARE(GE)
#undef RLX_DEFINE_COMPARE

llvm::Value* CodeGenLLVM::VisitExpr_(const ir::AndNode* op, const ir::PrimExpr&) {
  return builder_->CreateAnd(VisitExpr(op->a), VisitExpr(op->b));
}

llvm::Value* CodeGenLLVM::VisitExpr_(const ir::OrNode* op, const ir::PrimExpr&) {
  return builder_->CreateOr(VisitExpr(op->a), VisitExpr(op->b));
}

llvm::Value* CodeGenLLVM::VisitExpr_(const ir::NotNode* op, const ir::PrimExpr&) {
  return builder_->CreateNot(VisitExpr(op->a));
}

llvm::Value* CodeGenLLVM::VisitExpr_(const ir::SelectNode* op, const ir::PrimExpr&) {
  llvm::Value* condition = VisitExpr(op->condition);
  return builder_->CreateSelect(condition, VisitExpr(op->true_value), VisitExpr(op->false_value));
}

llvm::Value* CodeGenLLVM::VisitExpr_(const ir::CastNode* op, const ir::PrimExpr&) {
  return EmitCast(op->value->dtype, op->dtype, VisitExpr(op->value));
}

llvm::Value* CodeGenLLVM::VisitExpr_(const ir::LetNode* op, const ir::PrimExpr&) {
  BindVar(op->var, VisitExpr(op->value));
  llvm::Value* body = VisitExpr(op->body);
  UnbindVar(op->var);
  return body;
}

// ---------------------------------------------------------------- vectors

llvm::Value* CodeGenLLVM::VisitExpr_(const ir::RampNode* op, const ir::PrimExpr&) {
  llvm::Value* base = Splat(VisitExpr(op->base), op->lanes);
  llvm::Value* stride = Splat(VisitExpr(op->stride), op->lanes);
  std::vector<llvm::Constant*> offsets;
  llvm::Type* element = LLVMType(op->base->dtype);
  for (int lane = 0; lane < op->lanes; ++lane) {
    offsets.push_back(op->base->dtype.is_floating() ? llvm::ConstantFP::get(element, lane)
                                                    : llvm::ConstantInt::get(element, lane));
  }
  llvm::Value* lanes = llvm::ConstantVector::get(offsets);
  if (op->base->dtype.is_floating()) return builder_->CreateFAdd(base, builder_->CreateFMul(stride, lanes));
  return builder_->CreateAdd(base, builder_->CreateMul(stride, lanes));
}

llvm::Value* CodeGenLLVM::VisitExpr_(const ir::BroadcastNode* op, const ir::PrimExpr&) {
  return Splat(VisitExpr(op->value), op->lanes);
}

// ---------------------------------------------------------------- memory

llvm::Value* CodeGenLLVM::BufferData(const ir::Buffer& buffer) { return GetVar(buffer->data.get()); }

llvm::Value* CodeGenLLVM::ElementAddress(const ir::Buffer& buffer, llvm::Value* index) {
  return builder_->CreateInBoundsGEP(MemoryType(buffer->dtype), BufferData(buffer), index);
}

llvm::Value* CodeGenLLVM::FromMemory(DataType dtype, llvm::Value* raw) {
  if (dtype.is_bool()) return builder_->CreateICmpNE(raw, llvm::Constant::getNullValue(raw->getType()));
  if (dtype.is_bfloat16()) {
    llvm::Type* wide = LLVMType(DataType::Int(32, dtype.lanes()));
    llvm::Value* bits = builder_->CreateShl(builder_->CreateZExt(raw, wide), llvm::ConstantInt::get(wide, 16));
    return builder_->CreateBitCast(bits, LLVMType(dtype));
  }
  return raw;
}

llvm::Value* CodeGenLLVM::ToMemory(DataType dtype, llvm::Value* value) {
  if (dtype.is_bool()) return builder_->CreateZExt(value, MemoryType(dtype));
  if (dtype.is_bfloat16()) {
    llvm::Type* wide = LLVMType(DataType::Int(32, dtype.lanes()));
    llvm::Value* bits = builder_->CreateBitCast(RoundToBFloat16(value), wide);
    return builder_->CreateTrunc(builder_->CreateLShr(bits, llvm::ConstantInt::get(wide, 16)), MemoryType(dtype));
  }
  return value;
}

namespace {

// The base of a contiguous (stride 1) Ramp index, or null.
const ir::PrimExprNode* ContiguousBase(const ir::PrimExpr& index) {
  const auto* ramp = index.as<ir::RampNode>();
  return ramp && ir::IsConstInt(ramp->stride, 1) ? ramp->base.get() : nullptr;
}

void CheckScalarElements(const ir::Buffer& buffer, const std::string& func_name) {
  if (buffer->dtype.is_vector() || buffer->dtype.is_void() || buffer->dtype.is_handle()) {
    ThrowError(buffer->span, fmt::format("codegen: function {}: buffer {} has element type {}, which codegen does "
                                         "not support",
                                         func_name, buffer->name, buffer->dtype.ToString()));
  }
}

}  // namespace

llvm::Value* CodeGenLLVM::EmitBufferLoad(const ir::Buffer& buffer, const ir::PrimExpr& index, DataType value_dtype) {
  CheckScalarElements(buffer, func_name_);
  DataType element = buffer->dtype;
  llvm::Align align(element.bytes());
  int lanes = index->dtype.lanes();
  if (lanes == 1) {
    llvm::Value* address = ElementAddress(buffer, VisitExpr(index));
    return FromMemory(element, builder_->CreateAlignedLoad(MemoryType(element), address, align));
  }
  DataType vector = element.with_lanes(lanes);
  RLX_ICHECK(vector == value_dtype) << "a load of " << value_dtype.ToString() << " from a " << element.ToString()
                                    << " buffer";
  if (const ir::PrimExprNode* base = ContiguousBase(index)) {
    llvm::Value* address = ElementAddress(buffer, VisitExpr(ir::PrimExpr(base)));
    return FromMemory(vector, builder_->CreateAlignedLoad(MemoryType(vector), address, align));
  }
  if (const auto* bcast = index.as<ir::BroadcastNode>()) {
    llvm::Value* address = ElementAddress(buffer, VisitExpr(bcast->value));
    return Splat(FromMemory(element, builder_->CreateAlignedLoad(MemoryType(element), address, align)), lanes);
  }
  llvm::Value* addresses = ElementAddress(buffer, VisitExpr(index));
  return FromMemory(vector, builder_->CreateMaskedGather(MemoryType(vector), addresses, align));
}

void CodeGenLLVM::EmitBufferStore(const ir::Buffer& buffer, const ir::PrimExpr& index, llvm::Value* value,
                                  DataType dtype) {
  CheckScalarElements(buffer, func_name_);
  DataType element = buffer->dtype;
  if (dtype.element_of() != element || dtype.lanes() != index->dtype.lanes()) {
    ThrowError(buffer->span,
               fmt::format("codegen: function {}: storing a {} value at a {} index of buffer {} of {}", func_name_,
                           dtype.ToString(), index->dtype.ToString(), buffer->name, element.ToString()));
  }
  llvm::Align align(element.bytes());
  llvm::Value* raw = ToMemory(dtype, value);
  if (dtype.lanes() == 1) {
    builder_->CreateAlignedStore(raw, ElementAddress(buffer, VisitExpr(index)), align);
  } else if (const ir::PrimExprNode* base = ContiguousBase(index)) {
    builder_->CreateAlignedStore(raw, ElementAddress(buffer, VisitExpr(ir::PrimExpr(base))), align);
  } else {
    builder_->CreateMaskedScatter(raw, ElementAddress(buffer, VisitExpr(index)), align);
  }
}

llvm::Value* CodeGenLLVM::VisitExpr_(const ir::BufferLoadNode* op, const ir::PrimExpr&) {
  if (op->indices.size() != 1) {
    ThrowError(op->span, fmt::format("codegen: load from buffer {} has {} indices; run LowerForCodegen first",
                                     op->buffer->name, op->indices.size()));
  }
  return EmitBufferLoad(op->buffer, op->indices[0], op->dtype);
}

}  // namespace rlx::codegen
