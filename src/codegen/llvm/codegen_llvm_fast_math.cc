// CodeGenLLVM: inline, vectorizable float32 exp, tanh and erf (`exp`,
// `fast_exp`, `tanh`, `fast_tanh`, `erf`, `fast_erf`).
//
// Design note. LLVM lowers `llvm.exp` on vectors to one libm call per lane
// (no vector math library is configured), which keeps elementwise kernels
// from vectorizing. For float32 (and float16 / bfloat16, computed in
// float32) we emit exp as straight-line IR built only from operations every
// backend vectorizes (fmul, fadd, rint, fptosi, shl, bitcast, select):
//   1. Clamp x to [-104, 89]: below -104 the result rounds to +0, above 89 it
//      overflows to +inf, and the clamp keeps the exponent arithmetic below
//      in range. NaN is passed through by a final select.
//   2. Range reduction x = k*ln2 + r with k = rint(x * log2(e)) and
//      |r| <= ln2/2. ln2 is split Cody-Waite style into ln2_hi (trailing
//      zero bits, so k*ln2_hi is exact for |k| < 2^9) and ln2_lo, and r is
//      computed as (x - k*ln2_hi) - k*ln2_lo.
//   3. e^r by its Taylor polynomial of degree 8 in Horner form (truncation
//      error r^9/9! < 2e-10 relative on |r| <= 0.347, well under half an ulp).
//   4. Scale by 2^k. k lies in [-150, 128]; it is split as k = k1 + k2 with
//      k1 = k >> 1 so that each 2^ki (built by writing ki + 127 into the
//      exponent bits) is a normal float. p * 2^k1 is exact, so the only
//      rounding into the subnormal range or to infinity happens once, in the
//      last multiply: gradual underflow and overflow to +inf come out right.
// tanh: for |x| < 0.55 the odd Taylor series x * P(x^2) to degree 17
// (truncation < 1e-8 relative, exact -0 and tiny inputs); otherwise
// 1 - 2 / (e^(2|x|) + 1) with the sign of x, where the result is >= 0.5 so
// the subtraction loses no more than one bit; it saturates to exactly +-1
// for large |x| (exp overflows to +inf and 2/inf = 0) and passes NaN on.
// erf, two ranges, both evaluated and one selected lane-wise:
//   - |x| < 1: erf(x) = x + x * S(x^2), where 1 + S(u) is the degree-8
//     Chebyshev fit of erf(sqrt(u)) / sqrt(u) on u in [0, 1] (error 8e-13).
//     Adding the correction x * S (|S| <= 0.16) to x last keeps the rounding
//     of the polynomial out of the leading bits; it gives +-0 for +-0 and
//     is within an ulp for tiny and subnormal x (erf(x) ~ 1.128 x).
//   - |x| >= 1: erf(x) = sign(x) * (1 - e^(-c^2) * Q(t)) with c = min(|x|, 4)
//     and t = (c - 2.5) / 1.5 in [-1, 1], where Q(t) is the degree-13
//     Chebyshev fit of erfc(x) e^(x^2) on x in [1, 4] (relative error
//     2.3e-9). erfc(4) = 1.5e-8 is below half an ulp of 1, so the clamp at 4
//     gives exactly +-1 for every larger |x| and +-inf. The float32 rounding
//     of c^2 perturbs e^(-c^2) by at most c^2 * 2^-24 relative, which is
//     scaled down by erfc(x) / erf(x) <= 0.19 in the result.
//   NaN is passed through by a final select. The coefficients were computed
//   with mpmath.chebyfit (40 digits) and are given here in monomial form.
// Measured accuracy (tests/unit/codegen/fast_math_test.cc): see that test.
#include "codegen/llvm/codegen_llvm.h"

namespace rlx::codegen {

namespace {

// The integer type with the shape (scalar or vector) of float type `type`.
llvm::Type* Int32Like(llvm::Type* type, llvm::LLVMContext& context) {
  llvm::Type* i32 = llvm::Type::getInt32Ty(context);
  if (auto* vector = llvm::dyn_cast<llvm::VectorType>(type)) return llvm::VectorType::get(i32, vector);
  return i32;
}

}  // namespace

bool CodeGenLLVM::HasFastMath(const std::string& name, DataType dtype) {
  if (name != "exp" && name != "fast_exp" && name != "tanh" && name != "fast_tanh" && name != "erf" &&
      name != "fast_erf") {
    return false;
  }
  return dtype.is_floating() && dtype.bits() <= 32;
}

llvm::Value* CodeGenLLVM::EmitFastMath(const std::string& name, DataType dtype, llvm::Value* x) {
  llvm::Type* original = x->getType();
  llvm::Type* f32 = original->isVectorTy()
                        ? static_cast<llvm::Type*>(llvm::VectorType::get(f32_ty_, llvm::cast<llvm::VectorType>(original)))
                        : f32_ty_;
  llvm::Value* x32 = builder_->CreateFPCast(x, f32);
  llvm::Value* result = nullptr;
  if (name == "exp" || name == "fast_exp") {
    result = EmitFastExpF32(x32);
  } else if (name == "tanh" || name == "fast_tanh") {
    result = EmitFastTanhF32(x32);
  } else {
    result = EmitFastErfF32(x32);
  }
  return FinishFloat(dtype, builder_->CreateFPCast(result, original));
}

llvm::Value* CodeGenLLVM::EmitFastExpF32(llvm::Value* x) {
  llvm::Type* type = x->getType();
  llvm::Type* int_type = Int32Like(type, *context_);
  auto f = [&](double v) { return llvm::ConstantFP::get(type, v); };
  auto i = [&](int64_t v) { return llvm::ConstantInt::get(int_type, static_cast<uint64_t>(v), true); };
  auto& b = *builder_;
  // 1. Clamp (an ordered compare: NaN is fixed up at the end).
  llvm::Value* clamped = b.CreateSelect(b.CreateFCmpOLT(x, f(-104.0)), f(-104.0), x);
  clamped = b.CreateSelect(b.CreateFCmpOGT(clamped, f(89.0)), f(89.0), clamped);
  // 2. Range reduction.
  llvm::Value* kf = CallIntrinsic(llvm::Intrinsic::rint, {type}, {b.CreateFMul(clamped, f(1.44269504088896341))});
  const double ln2_hi = 0.693145751953125;           // 0x3f317200
  const double ln2_lo = 1.42860682030941723212e-6;  // ln2 - ln2_hi
  llvm::Value* r = b.CreateFSub(clamped, b.CreateFMul(kf, f(ln2_hi)));
  r = b.CreateFSub(r, b.CreateFMul(kf, f(ln2_lo)));
  // 3. Taylor polynomial of degree 7.
  const double coefficients[] = {1.0 / 5040, 1.0 / 720, 1.0 / 120, 1.0 / 24, 1.0 / 6, 0.5, 1.0, 1.0};
  llvm::Value* p = f(1.0 / 40320);
  for (size_t c = 0; c < std::size(coefficients); ++c) p = b.CreateFAdd(b.CreateFMul(p, r), f(coefficients[c]));
  // 4. Scale by 2^k1 * 2^k2.
  llvm::Value* k = b.CreateFPToSI(kf, int_type);
  llvm::Value* k1 = b.CreateAShr(k, i(1));
  llvm::Value* k2 = b.CreateSub(k, k1);
  auto power_of_two = [&](llvm::Value* e) { return b.CreateBitCast(b.CreateShl(b.CreateAdd(e, i(127)), i(23)), type); };
  llvm::Value* result = b.CreateFMul(b.CreateFMul(p, power_of_two(k1)), power_of_two(k2));
  return b.CreateSelect(b.CreateFCmpUNO(x, x), x, result);
}

llvm::Value* CodeGenLLVM::EmitFastTanhF32(llvm::Value* x) {
  llvm::Type* type = x->getType();
  auto f = [&](double v) { return llvm::ConstantFP::get(type, v); };
  auto& b = *builder_;
  llvm::Value* a = CallIntrinsic(llvm::Intrinsic::fabs, {type}, {x});
  // Near zero: the Taylor series x * P(x^2) (coefficients B_2n 4^n (4^n - 1) / (2n)!).
  const double coefficients[] = {0.000590027440945586,  -0.0014558343870513183, 0.003592128036572481,
                                 -0.008863235529902197, 0.021869488536155203,   -0.05396825396825397,
                                 0.13333333333333333,   -0.3333333333333333,    1.0};
  llvm::Value* x2 = b.CreateFMul(x, x);
  llvm::Value* p = f(coefficients[0]);
  for (size_t c = 1; c < std::size(coefficients); ++c) p = b.CreateFAdd(b.CreateFMul(p, x2), f(coefficients[c]));
  llvm::Value* small = b.CreateFMul(x, p);
  // Elsewhere: 1 - 2 / (e^(2|x|) + 1), with the sign of x.
  llvm::Value* e = EmitFastExpF32(b.CreateFAdd(a, a));
  llvm::Value* large = b.CreateFSub(f(1.0), b.CreateFDiv(f(2.0), b.CreateFAdd(e, f(1.0))));
  large = CallIntrinsic(llvm::Intrinsic::copysign, {type}, {large, x});
  return b.CreateSelect(b.CreateFCmpOLT(a, f(0.55)), small, large);
}

llvm::Value* CodeGenLLVM::EmitFastErfF32(llvm::Value* x) {
  llvm::Type* type = x->getType();
  auto f = [&](double v) { return llvm::ConstantFP::get(type, v); };
  auto& b = *builder_;
  auto horner = [&](const double* coefficients, size_t count, llvm::Value* at) {
    llvm::Value* p = f(coefficients[0]);
    for (size_t c = 1; c < count; ++c) p = b.CreateFAdd(b.CreateFMul(p, at), f(coefficients[c]));
    return p;
  };
  llvm::Value* a = CallIntrinsic(llvm::Intrinsic::fabs, {type}, {x});
  // |x| < 1: x + x * S(x^2).
  const double small_coefficients[] = {1.0589380641075019e-6,   -1.3909340021874599e-5, 0.0001195656256820733,
                                       -0.00085426379970872296, 0.0052237834771892481,  -0.026866133235095592,
                                       0.11283791308604581,     -0.37612638889635307,   0.1283791670946767};
  llvm::Value* s = horner(small_coefficients, std::size(small_coefficients), b.CreateFMul(x, x));
  llvm::Value* small = b.CreateFAdd(x, b.CreateFMul(x, s));
  // |x| >= 1: sign(x) * (1 - e^(-c^2) Q((c - 2.5) / 1.5)), c = min(|x|, 4).
  const double large_coefficients[] = {
      -4.8989285903810882e-6, 1.3805364559225202e-5, -2.1006044202482387e-5, 5.4988324971411191e-5,
      -0.00016385368138163448, 0.00041446201865060014, -0.0010051734595985596, 0.0024017255032474034,
      -0.0055708171257031926, 0.012489698116966155,   -0.027005289689862065,  0.056110473057510684,
      -0.11152102025594358,   0.21080636426942343};
  llvm::Value* c = b.CreateSelect(b.CreateFCmpOLT(a, f(4.0)), a, f(4.0));
  llvm::Value* t = b.CreateFMul(b.CreateFSub(c, f(2.5)), f(1.0 / 1.5));
  llvm::Value* q = horner(large_coefficients, std::size(large_coefficients), t);
  llvm::Value* e = EmitFastExpF32(b.CreateFNeg(b.CreateFMul(c, c)));
  llvm::Value* large = b.CreateFSub(f(1.0), b.CreateFMul(e, q));
  large = CallIntrinsic(llvm::Intrinsic::copysign, {type}, {large, x});
  llvm::Value* result = b.CreateSelect(b.CreateFCmpOLT(a, f(1.0)), small, large);
  return b.CreateSelect(b.CreateFCmpUNO(x, x), x, result);
}

}  // namespace rlx::codegen
