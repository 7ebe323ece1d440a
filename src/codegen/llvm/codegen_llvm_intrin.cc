// CodeGenLLVM: intrinsic calls (`T.exp(x)`, `T.if_then_else(c, a, b)`, ...).
//
// Names are those of the interpreter and the TVMScript parser (an optional
// "tir." prefix is ignored). How each is emitted:
// - LLVM intrinsics, which LLVM can vectorize and constant-fold: exp, exp2,
//   exp10, log, log2, log10, sqrt, sin, cos, tan, floor, ceil, trunc, round
//   (half away from zero, like std::round), nearbyint, fabs, pow, copysign,
//   ldexp; fmod is `frem`.
// - Compositions: sigmoid(x) = 1 / (1 + exp(-x)), rsqrt(x) = 1 / sqrt(x).
// - libm calls for the rest (tanh, erf, expm1, log1p, the inverse and
//   hyperbolic trigonometric functions, atan2, hypot, nextafter): `tanhf`
//   for float16/bfloat16/float32 (computed in float32), `tanh` for float64;
//   vector operands are scalarized lane by lane. They are declared
//   `memory(none)` (errno is never read), so LLVM may hoist them.
// - exp, fast_exp, tanh, fast_tanh, erf, fast_erf on float32 (and
//   float16/bfloat16) are inline IR that vectorizes
//   (codegen_llvm_fast_math.cc); float64 keeps llvm.exp / tanh / erf.
// - Integer helpers: clz, popcount, bitwise_and/or/xor/not, shift_left,
//   shift_right (arithmetic for signed types), abs; isnan/isinf/isfinite.
// - if_then_else(c, a, b) evaluates only the chosen arm (a branch and a phi)
//   when c is a scalar; with a vector condition both arms are evaluated and
//   selected lane-wise. likely(x) is x; assume(x) is dropped.
// - call_llvm_intrin / call_llvm_pure_intrin(dtype, id, args...): TVM's
//   direct call of an LLVM intrinsic, named by
//   T.llvm_lookup_intrinsic_id("llvm.ctpop.i8") or by a string; the
//   overload types follow from the result and argument types. TVM's numeric
//   ids depend on the LLVM version and are rejected.
// Anything else is a CompileError naming the intrinsic.
#include <fmt/format.h>

#include <unordered_map>

#include "codegen/llvm/codegen_llvm.h"
#include "rlx/support/diagnostic.h"

namespace rlx::codegen {

namespace {

std::string IntrinsicName(const std::string& op) { return op.rfind("tir.", 0) == 0 ? op.substr(4) : op; }

const std::unordered_map<std::string, llvm::Intrinsic::ID>& UnaryLLVMIntrinsics() {
  static const std::unordered_map<std::string, llvm::Intrinsic::ID> table = {
      {"exp", llvm::Intrinsic::exp},     {"fast_exp", llvm::Intrinsic::exp},
      {"exp2", llvm::Intrinsic::exp2},   {"exp10", llvm::Intrinsic::exp10},
      {"log", llvm::Intrinsic::log},     {"log2", llvm::Intrinsic::log2},
      {"log10", llvm::Intrinsic::log10}, {"sqrt", llvm::Intrinsic::sqrt},
      {"sin", llvm::Intrinsic::sin},     {"cos", llvm::Intrinsic::cos},
      {"tan", llvm::Intrinsic::tan},     {"floor", llvm::Intrinsic::floor},
      {"ceil", llvm::Intrinsic::ceil},   {"trunc", llvm::Intrinsic::trunc},
      {"round", llvm::Intrinsic::round}, {"nearbyint", llvm::Intrinsic::nearbyint},
      {"fabs", llvm::Intrinsic::fabs},
  };
  return table;
}

// Unary functions called in libm, by rlx name -> double-precision C name.
const std::unordered_map<std::string, std::string>& UnaryLibmFunctions() {
  static const std::unordered_map<std::string, std::string> table = {
      {"tanh", "tanh"},   {"fast_tanh", "tanh"}, {"erf", "erf"},     {"fast_erf", "erf"}, {"expm1", "expm1"},
      {"log1p", "log1p"}, {"asin", "asin"},      {"acos", "acos"},   {"atan", "atan"},    {"sinh", "sinh"},
      {"cosh", "cosh"},   {"asinh", "asinh"},    {"acosh", "acosh"}, {"atanh", "atanh"},
  };
  return table;
}

const std::unordered_map<std::string, std::string>& BinaryLibmFunctions() {
  static const std::unordered_map<std::string, std::string> table = {
      {"atan2", "atan2"}, {"hypot", "hypot"}, {"nextafter", "nextafter"}};
  return table;
}

bool IsUnaryMath(const std::string& name) {
  return UnaryLLVMIntrinsics().count(name) || UnaryLibmFunctions().count(name) || name == "sigmoid" || name == "rsqrt";
}

bool IsBinaryMath(const std::string& name) {
  return BinaryLibmFunctions().count(name) || name == "pow" || name == "fmod" || name == "copysign";
}

}  // namespace

llvm::Value* CodeGenLLVM::CallIntrinsic(llvm::Intrinsic::ID id, const std::vector<llvm::Type*>& overloads,
                                        const std::vector<llvm::Value*>& args) {
  return builder_->CreateIntrinsic(id, overloads, args);
}

llvm::Value* CodeGenLLVM::VisitExpr_(const ir::CallNode* op, const ir::PrimExpr&) {
  std::string name = IntrinsicName(op->op);
  if (name == "if_then_else") return EmitIfThenElse(op);
  if (name == "likely" && op->args.size() == 1) return VisitExpr(op->args[0]);
  if (name == "assume") return llvm::ConstantInt::getTrue(*context_);
  if (name == "call_llvm_intrin" || name == "call_llvm_pure_intrin") return EmitLLVMIntrinsicCall(op, name);
  if (IsUnaryMath(name) || IsBinaryMath(name) || name == "ldexp") return EmitMathCall(op, name);
  return EmitIntegerIntrinsic(op, name);
}

namespace {

// The intrinsic named by the first argument of call_llvm_(pure_)intrin:
// T.llvm_lookup_intrinsic_id("llvm.x") or "llvm.x"; "" for anything else.
std::string LLVMIntrinsicNameOf(const ir::PrimExpr& arg) {
  if (const auto* name = arg.as<ir::StringImmNode>()) return name->value;
  const auto* lookup = arg.as<ir::CallNode>();
  if (lookup != nullptr && IntrinsicName(lookup->op) == "llvm_lookup_intrinsic_id" && lookup->args.size() == 1) {
    if (const auto* name = lookup->args[0].as<ir::StringImmNode>()) return name->value;
  }
  return "";
}

}  // namespace

llvm::Value* CodeGenLLVM::EmitLLVMIntrinsicCall(const ir::CallNode* op, const std::string& name) {
  std::string intrinsic = op->args.empty() ? "" : LLVMIntrinsicNameOf(op->args[0]);
  if (intrinsic.empty()) {
    ThrowError(op->span, fmt::format("codegen: {} must name its LLVM intrinsic with "
                                     "T.llvm_lookup_intrinsic_id(\"llvm.<name>\") (numeric intrinsic ids depend "
                                     "on the LLVM version)",
                                     name));
  }
  llvm::Intrinsic::ID id = llvm::Function::lookupIntrinsicID(intrinsic);
  if (id == llvm::Intrinsic::not_intrinsic) {
    ThrowError(op->span, fmt::format("codegen: {}: LLVM has no intrinsic named {}", name, intrinsic));
  }
  std::vector<llvm::Value*> args;
  std::vector<llvm::Type*> arg_types;
  for (size_t i = 1; i < op->args.size(); ++i) {
    args.push_back(VisitExpr(op->args[i]));
    arg_types.push_back(args.back()->getType());
  }
  llvm::Type* ret_type = op->dtype.is_void() ? llvm::Type::getVoidTy(*context_) : LLVMType(op->dtype);
  llvm::FunctionType* signature = llvm::FunctionType::get(ret_type, arg_types, /*isVarArg=*/false);
  llvm::SmallVector<llvm::Type*, 4> overloads;
  if (!llvm::Intrinsic::getIntrinsicSignature(id, signature, overloads)) {
    std::vector<std::string> arg_names;
    for (size_t i = 1; i < op->args.size(); ++i) arg_names.push_back(op->args[i]->dtype.ToString());
    ThrowError(op->span, fmt::format("codegen: {}: {} does not take ({}) returning {}", name, intrinsic,
                                     fmt::join(arg_names, ", "), op->dtype.ToString()));
  }
  llvm::Function* declaration = llvm::Intrinsic::getDeclaration(module_.get(), id, overloads);
  return builder_->CreateCall(declaration, args);
}

llvm::Value* CodeGenLLVM::EmitIfThenElse(const ir::CallNode* op) {
  if (op->args.size() != 3) {
    ThrowError(op->span, fmt::format("codegen: if_then_else takes 3 arguments, got {}", op->args.size()));
  }
  llvm::Value* condition = VisitExpr(op->args[0]);
  if (op->args[0]->dtype.is_vector()) {
    return builder_->CreateSelect(condition, VisitExpr(op->args[1]), VisitExpr(op->args[2]));
  }
  llvm::Function* function = state_.function;
  auto* then_block = llvm::BasicBlock::Create(*context_, "ite_then", function);
  auto* else_block = llvm::BasicBlock::Create(*context_, "ite_else", function);
  auto* merge = llvm::BasicBlock::Create(*context_, "ite_end", function);
  builder_->CreateCondBr(condition, then_block, else_block);
  builder_->SetInsertPoint(then_block);
  llvm::Value* then_value = VisitExpr(op->args[1]);
  llvm::BasicBlock* then_end = builder_->GetInsertBlock();
  builder_->CreateBr(merge);
  builder_->SetInsertPoint(else_block);
  llvm::Value* else_value = VisitExpr(op->args[2]);
  llvm::BasicBlock* else_end = builder_->GetInsertBlock();
  builder_->CreateBr(merge);
  builder_->SetInsertPoint(merge);
  llvm::PHINode* phi = builder_->CreatePHI(then_value->getType(), 2);
  phi->addIncoming(then_value, then_end);
  phi->addIncoming(else_value, else_end);
  return phi;
}

llvm::Value* CodeGenLLVM::EmitMathCall(const ir::CallNode* op, const std::string& name) {
  DataType dtype = op->dtype;
  size_t expected = IsUnaryMath(name) ? 1 : 2;
  if (op->args.size() != expected) {
    ThrowError(op->span, fmt::format("codegen: intrinsic {} takes {} argument{}, got {}", name, expected,
                                     expected == 1 ? "" : "s", op->args.size()));
  }
  if (!dtype.is_floating()) {
    ThrowError(op->span,
               fmt::format("codegen: intrinsic {} computes floating-point values, not {}", name, dtype.ToString()));
  }
  // Arguments of another type (an integer exponent, a float32 argument of a
  // float64 call) are converted to the call's type first; ldexp keeps its
  // integer exponent.
  auto arg = [&](size_t i, DataType as) { return EmitCast(op->args[i]->dtype, as, VisitExpr(op->args[i])); };
  if (name == "ldexp") {
    llvm::Value* x = arg(0, dtype);
    llvm::Value* e = arg(1, DataType::Int(32, dtype.lanes()));
    return FinishFloat(dtype, CallIntrinsic(llvm::Intrinsic::ldexp, {x->getType(), e->getType()}, {x, e}));
  }
  if (expected == 1) return EmitUnaryMath(name, dtype, arg(0, dtype));
  return EmitBinaryMath(name, dtype, arg(0, dtype), arg(1, dtype));
}

llvm::Value* CodeGenLLVM::EmitUnaryMath(const std::string& name, DataType dtype, llvm::Value* x) {
  llvm::Type* type = x->getType();
  if (HasFastMath(name, dtype)) return EmitFastMath(name, dtype, x);
  if (auto it = UnaryLLVMIntrinsics().find(name); it != UnaryLLVMIntrinsics().end()) {
    return FinishFloat(dtype, CallIntrinsic(it->second, {type}, {x}));
  }
  llvm::Constant* one = llvm::ConstantFP::get(type, 1.0);
  if (name == "sigmoid") {
    llvm::Value* e = CallIntrinsic(llvm::Intrinsic::exp, {type}, {builder_->CreateFNeg(x)});
    return FinishFloat(dtype, builder_->CreateFDiv(one, builder_->CreateFAdd(one, e)));
  }
  if (name == "rsqrt") {
    return FinishFloat(dtype, builder_->CreateFDiv(one, CallIntrinsic(llvm::Intrinsic::sqrt, {type}, {x})));
  }
  return CallLibm(UnaryLibmFunctions().at(name), dtype, {x});
}

llvm::Value* CodeGenLLVM::EmitBinaryMath(const std::string& name, DataType dtype, llvm::Value* x, llvm::Value* y) {
  llvm::Type* type = x->getType();
  if (name == "pow") return FinishFloat(dtype, CallIntrinsic(llvm::Intrinsic::pow, {type}, {x, y}));
  if (name == "copysign") return FinishFloat(dtype, CallIntrinsic(llvm::Intrinsic::copysign, {type}, {x, y}));
  if (name == "fmod") return FinishFloat(dtype, builder_->CreateFRem(x, y));
  return CallLibm(BinaryLibmFunctions().at(name), dtype, {x, y});
}

// `base_name` (the double version) or its float variant, lane by lane.
llvm::Value* CodeGenLLVM::CallLibm(const std::string& base_name, DataType dtype,
                                   const std::vector<llvm::Value*>& args) {
  bool is_double = dtype.is_float() && dtype.bits() == 64;
  llvm::Type* scalar = is_double ? f64_ty_ : f32_ty_;
  std::string c_name = is_double ? base_name : base_name + "f";
  std::vector<llvm::Type*> params(args.size(), scalar);
  llvm::FunctionCallee callee = module_->getOrInsertFunction(c_name, llvm::FunctionType::get(scalar, params, false));
  if (auto* fn = llvm::dyn_cast<llvm::Function>(callee.getCallee())) {
    fn->setDoesNotThrow();
    fn->setDoesNotAccessMemory();
    fn->setWillReturn();
  }
  llvm::Type* result_type = LLVMType(dtype);
  llvm::Type* result_scalar = result_type->getScalarType();
  auto call_lane = [&](const std::vector<llvm::Value*>& lane_args) {
    std::vector<llvm::Value*> converted;
    for (llvm::Value* a : lane_args) converted.push_back(builder_->CreateFPCast(a, scalar));
    return builder_->CreateFPCast(builder_->CreateCall(callee, converted), result_scalar);
  };
  if (dtype.lanes() == 1) return FinishFloat(dtype, call_lane(args));
  llvm::Value* result = llvm::PoisonValue::get(result_type);
  for (int lane = 0; lane < dtype.lanes(); ++lane) {
    std::vector<llvm::Value*> lane_args;
    for (llvm::Value* a : args) lane_args.push_back(builder_->CreateExtractElement(a, static_cast<uint64_t>(lane)));
    result = builder_->CreateInsertElement(result, call_lane(lane_args), static_cast<uint64_t>(lane));
  }
  return FinishFloat(dtype, result);
}

llvm::Value* CodeGenLLVM::EmitIntegerIntrinsic(const ir::CallNode* op, const std::string& name) {
  auto arity = [&](size_t n) {
    if (op->args.size() != n) {
      ThrowError(op->span, fmt::format("codegen: intrinsic {} takes {} argument{}, got {}", name, n, n == 1 ? "" : "s",
                                       op->args.size()));
    }
  };
  auto arg = [&](size_t i) { return VisitExpr(op->args[i]); };
  DataType arg_type = op->args.empty() ? op->dtype : op->args[0]->dtype;
  if (name == "isnan" || name == "isinf" || name == "isfinite") {
    arity(1);
    if (!arg_type.is_floating()) return llvm::ConstantInt::get(LLVMType(op->dtype), name == "isfinite" ? 1 : 0);
    llvm::Value* x = arg(0);
    if (name == "isnan") return builder_->CreateFCmpUNO(x, x);
    llvm::Value* magnitude = CallIntrinsic(llvm::Intrinsic::fabs, {x->getType()}, {x});
    llvm::Value* inf = llvm::ConstantFP::getInfinity(x->getType());
    return name == "isinf" ? builder_->CreateFCmpOEQ(magnitude, inf) : builder_->CreateFCmpOLT(magnitude, inf);
  }
  if (name == "abs") {
    arity(1);
    llvm::Value* x = arg(0);
    if (arg_type.is_floating()) return CallIntrinsic(llvm::Intrinsic::fabs, {x->getType()}, {x});
    if (arg_type.is_uint()) return x;
    return builder_->CreateSelect(builder_->CreateICmpSLT(x, llvm::Constant::getNullValue(x->getType())),
                                  builder_->CreateNeg(x), x);
  }
  if (!arg_type.is_integer()) {
    ThrowError(op->span, fmt::format("codegen: function {}: intrinsic {} is not supported{}", func_name_, name,
                                     op->args.empty() ? "" : " on " + arg_type.ToString()));
  }
  if (name == "clz") {
    arity(1);
    llvm::Value* x = arg(0);
    return CallIntrinsic(llvm::Intrinsic::ctlz, {x->getType()}, {x, llvm::ConstantInt::getFalse(*context_)});
  }
  if (name == "popcount") {
    arity(1);
    llvm::Value* x = arg(0);
    return CallIntrinsic(llvm::Intrinsic::ctpop, {x->getType()}, {x});
  }
  if (name == "bitwise_not") {
    arity(1);
    return builder_->CreateNot(arg(0));
  }
  arity(2);
  llvm::Value* a = arg(0);
  llvm::Value* b = EmitCast(op->args[1]->dtype, arg_type, arg(1));
  if (name == "bitwise_and") return builder_->CreateAnd(a, b);
  if (name == "bitwise_or") return builder_->CreateOr(a, b);
  if (name == "bitwise_xor") return builder_->CreateXor(a, b);
  if (name == "shift_left") return builder_->CreateShl(a, b);
  if (name == "shift_right") return arg_type.is_int() ? builder_->CreateAShr(a, b) : builder_->CreateLShr(a, b);
  ThrowError(op->span, fmt::format("codegen: function {}: intrinsic {} is not supported", func_name_, name));
}

}  // namespace rlx::codegen
