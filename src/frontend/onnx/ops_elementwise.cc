// Converters of elementwise ONNX operators: unary math, activations (the
// composite ones become several Relax calls: HardSwish = x * clip(x + 3, 0,
// 6) / 6), broadcasting binary arithmetic and comparisons, variadic
// Min/Max/Sum/Mean, Clip, Where, Cast, Identity, BitShift (direction LEFT
// or RIGHT: R.left_shift / R.right_shift).
//
// Binary arithmetic on shape values (Shape results, int64 constants of rank
// <= 1) is folded at import time into PrimExprs simplified by the analyzer,
// broadcasting a one-element operand; Equal on them folds to a host boolean
// where the analyzer decides every element, and Where with a host condition
// picks between shape values, so the usual "replace -1 / 0 in a shape"
// subgraphs stay symbolic.
//
// Broadcasting tensors whose aligned dims are symbolic, not 1 and not
// provably equal (an FPN adding a 2x-upsampled coarse map, 2 * ((h + 31) //
// 32), to a finer map, (h + 15) // 16) would leave the sum's shape unknown and
// every later shape-dependent node (Resize) unconvertible. ONNX requires such
// dims to be equal, so the second operand is match_cast to the first's dims:
// the shape stays precise, and a run-time mismatch (an input size the model
// does not support) is a shape error naming both values.
#include <cmath>

#include "frontend/onnx/converter.h"
#include "rlx/op/op.h"

namespace rlx::frontend::onnx_impl {
namespace {

using graph::Call;
using Out = std::vector<OnnxValue>;

Out One(Expr expr) { return {OnnxValue::Tensor(std::move(expr))}; }

// Is the input a shape value (kShape, or int64 host data of rank <= 1)?
bool IsShapeLike(const ConvertContext& ctx, size_t index) {
  if (!ctx.HasInput(index)) return false;
  const OnnxValue& value = ctx.Input(index);
  if (value.kind == OnnxValue::Kind::kShape) return true;
  return value.kind == OnnxValue::Kind::kHost && value.host->dtype == DataType::Int64() && value.host->shape.size() <= 1;
}

bool IsScalarShapeLike(const ConvertContext& ctx, size_t index) {
  const OnnxValue& value = ctx.Input(index);
  if (value.kind == OnnxValue::Kind::kShape) return value.shape_is_scalar;
  return value.host->shape.empty();
}

// Element-wise combination of two shape values with broadcasting of a
// one-element side; nullopt when the lengths do not broadcast.
std::optional<OnnxValue> FoldShapeBinary(ConvertContext& ctx,
                                         const std::function<PrimExpr(PrimExpr, PrimExpr)>& combine) {
  if (!IsShapeLike(ctx, 0) || !IsShapeLike(ctx, 1)) return std::nullopt;
  std::vector<PrimExpr> a = *ctx.ShapeValues(0), b = *ctx.ShapeValues(1);
  size_t n = std::max(a.size(), b.size());
  if ((a.size() != n && a.size() != 1) || (b.size() != n && b.size() != 1)) return std::nullopt;
  std::vector<PrimExpr> out;
  for (size_t i = 0; i < n; ++i) {
    out.push_back(ctx.Simplify(combine(a[a.size() == 1 ? 0 : i], b[b.size() == 1 ? 0 : i])));
  }
  return OnnxValue::ShapeValues(out, IsScalarShapeLike(ctx, 0) && IsScalarShapeLike(ctx, 1));
}

PrimExpr IntDivide(ConvertContext& ctx, PrimExpr a, PrimExpr b) {
  if (ctx.analyzer().CanProveGreaterEqual(a, 0) && ctx.analyzer().CanProveGreaterEqual(b, 1)) return ir::floordiv(a, b);
  return ir::truncdiv(a, b);
}

using BinaryMaker = Call (*)(Expr, Expr);

// The second operand, match_cast so that every aligned dim that is neither 1
// nor provably equal to the first operand's equals it (see the top).
Expr AlignBroadcastOperand(ConvertContext& ctx, const Expr& lhs, const Expr& rhs) {
  auto lhs_dims = ShapeOf(lhs);
  auto rhs_dims = ShapeOf(rhs);
  if (!lhs_dims || !rhs_dims) return rhs;
  std::vector<PrimExpr> aligned = *rhs_dims;
  bool changed = false;
  size_t lhs_rank = lhs_dims->size();
  size_t rhs_rank = rhs_dims->size();
  for (size_t i = 0; i < std::min(lhs_rank, rhs_rank); ++i) {
    const PrimExpr& a = (*lhs_dims)[lhs_rank - 1 - i];
    PrimExpr& b = aligned[rhs_rank - 1 - i];
    if (ctx.analyzer().CanProveEqual(a, b)) continue;
    if (ctx.analyzer().CanProveEqual(a, Int64(1)) || ctx.analyzer().CanProveEqual(b, Int64(1))) continue;
    if (AsConstInt(a) && AsConstInt(b)) continue;  // two different constants: the operator's own error
    b = a;
    changed = true;
  }
  if (!changed) return rhs;
  return ctx.MatchCastToDims(rhs, std::move(aligned));
}

void AddBinary(ConverterTable& table, const std::string& name, int since, BinaryMaker maker,
               std::function<PrimExpr(ConvertContext&, PrimExpr, PrimExpr)> fold = nullptr) {
  table[name].push_back({since, [maker, fold](ConvertContext& ctx) -> Out {
                           if (fold) {
                             auto folded = FoldShapeBinary(
                                 ctx, [&](PrimExpr a, PrimExpr b) { return fold(ctx, std::move(a), std::move(b)); });
                             if (folded) return {*folded};
                           }
                           Expr lhs = ctx.TensorInput(0);
                           Expr rhs = AlignBroadcastOperand(ctx, lhs, ctx.TensorInput(1));
                           return One(ctx.Emit(maker(lhs, rhs)));
                         }});
}

using UnaryMaker = Call (*)(Expr);

void AddUnary(ConverterTable& table, const std::string& name, UnaryMaker maker) {
  table[name].push_back({1, [maker](ConvertContext& ctx) -> Out { return One(ctx.Emit(maker(ctx.TensorInput(0)))); }});
}

Expr Scalar(ConvertContext&, const Expr& like, double value) { return ScalarConstant(DTypeOf(like), value); }

// where(x > 0, x, alpha * (exp(x) - 1))
Expr EluOf(ConvertContext& ctx, const Expr& x, double alpha) {
  Expr negative_part = ctx.Emit(op::multiply(
      Scalar(ctx, x, alpha), ctx.Emit(op::subtract(ctx.Emit(op::exp(x)), Scalar(ctx, x, 1.0)))));
  return ctx.Emit(op::where(ctx.Emit(op::greater(x, Scalar(ctx, x, 0.0))), x, negative_part));
}

Expr ClipConstant(ConvertContext& ctx, const Expr& x, double lo, double hi) {
  return ctx.Emit(op::clip(x, make<graph::PrimValueNode>(ir::MakeFloat(lo, DataType::Float(64))),
                           make<graph::PrimValueNode>(ir::MakeFloat(hi, DataType::Float(64)))));
}

// PRelu's slope, shaped to broadcast against x. Opset 6 and before (and
// PyTorch's exports of nn.PReLU(C)) give a 1-D slope of C values that is
// per channel (axis 1), which numpy broadcasting would align with the last
// axis instead: such a slope becomes (C, 1, ..., 1) when x's axis 1 has C
// elements and, from opset 7 on, only when the last axis could not take it.
Expr PReluSlope(ConvertContext& ctx, const Expr& x, const Expr& slope) {
  std::optional<std::vector<PrimExpr>> slope_shape = ShapeOf(slope), x_shape = ShapeOf(x);
  if (!slope_shape || !x_shape || slope_shape->size() != 1 || x_shape->size() < 3) return slope;
  std::optional<int64_t> channels = AsConstInt((*slope_shape)[0]);
  std::optional<int64_t> axis1 = AsConstInt((*x_shape)[1]);
  if (!channels || *channels <= 1 || axis1 != channels) return slope;
  std::optional<int64_t> last = AsConstInt(x_shape->back());
  bool trailing_fits = !last || *last == *channels || *last == 1;
  if (ctx.opset() >= 7 && trailing_fits) return slope;
  std::vector<PrimExpr> dims = {(*slope_shape)[0]};
  dims.resize(x_shape->size() - 1, Int64(1));
  return ctx.Emit(op::reshape(slope, ShapeExprOf(dims)));
}

void RegisterActivations(ConverterTable& table) {
  table["LeakyRelu"].push_back({1, [](ConvertContext& ctx) -> Out {
                                  Expr x = ctx.TensorInput(0);
                                  double alpha = ctx.AttrFloat("alpha", 0.01);
                                  Expr scaled = ctx.Emit(op::multiply(x, Scalar(ctx, x, alpha)));
                                  Expr positive = ctx.Emit(op::greater(x, Scalar(ctx, x, 0.0)));
                                  return One(ctx.Emit(op::where(positive, x, scaled)));
                                }});
  table["HardSigmoid"].push_back({1, [](ConvertContext& ctx) -> Out {
                                    Expr x = ctx.TensorInput(0);
                                    Expr affine = ctx.Emit(op::add(
                                        ctx.Emit(op::multiply(x, Scalar(ctx, x, ctx.AttrFloat("alpha", 0.2)))),
                                        Scalar(ctx, x, ctx.AttrFloat("beta", 0.5))));
                                    return One(ClipConstant(ctx, affine, 0.0, 1.0));
                                  }});
  table["HardSwish"].push_back({14, [](ConvertContext& ctx) -> Out {
                                  Expr x = ctx.TensorInput(0);
                                  Expr shifted = ClipConstant(ctx, ctx.Emit(op::add(x, Scalar(ctx, x, 3.0))), 0.0, 6.0);
                                  Expr gated = ctx.Emit(op::multiply(x, shifted));
                                  return One(ctx.Emit(op::divide(gated, Scalar(ctx, x, 6.0))));
                                }});
  table["Elu"].push_back({1, [](ConvertContext& ctx) -> Out {
                            return One(EluOf(ctx, ctx.TensorInput(0), ctx.AttrFloat("alpha", 1.0)));
                          }});
  table["Selu"].push_back({1, [](ConvertContext& ctx) -> Out {
                             Expr x = ctx.TensorInput(0);
                             Expr elu = EluOf(ctx, x, ctx.AttrFloat("alpha", 1.67326319217681884765625));
                             return One(ctx.Emit(op::multiply(Scalar(ctx, x, ctx.AttrFloat("gamma", 1.05070102214813232421875)), elu)));
                           }});
  table["Softplus"].push_back({1, [](ConvertContext& ctx) -> Out {
                                 Expr x = ctx.TensorInput(0);
                                 Expr e = ctx.Emit(op::add(ctx.Emit(op::exp(x)), Scalar(ctx, x, 1.0)));
                                 return One(ctx.Emit(op::log(e)));
                               }});
  table["PRelu"].push_back({1, [](ConvertContext& ctx) -> Out {
                              Expr x = ctx.TensorInput(0);
                              Expr slope = PReluSlope(ctx, x, ctx.TensorInput(1));
                              Expr scaled = ctx.Emit(op::multiply(x, slope));
                              Expr negative = ctx.Emit(op::less(x, Scalar(ctx, x, 0.0)));
                              return One(ctx.Emit(op::where(negative, scaled, x)));
                            }});
  table["ThresholdedRelu"].push_back({10, [](ConvertContext& ctx) -> Out {
                                        Expr x = ctx.TensorInput(0);
                                        Expr keep = ctx.Emit(op::greater(x, Scalar(ctx, x, ctx.AttrFloat("alpha", 1.0))));
                                        return One(ctx.Emit(op::where(keep, x, Scalar(ctx, x, 0.0))));
                                      }});
  table["Softsign"].push_back({1, [](ConvertContext& ctx) -> Out {
                                 Expr x = ctx.TensorInput(0);
                                 Expr denominator = ctx.Emit(op::add(ctx.Emit(op::abs(x)), Scalar(ctx, x, 1.0)));
                                 return One(ctx.Emit(op::divide(x, denominator)));
                               }});
  table["Shrink"].push_back({9, [](ConvertContext& ctx) -> Out {
                               Expr x = ctx.TensorInput(0);
                               double lambd = ctx.AttrFloat("lambd", 0.5), bias = ctx.AttrFloat("bias", 0.0);
                               Expr below = ctx.Emit(op::less(x, Scalar(ctx, x, -lambd)));
                               Expr above = ctx.Emit(op::greater(x, Scalar(ctx, x, lambd)));
                               Expr shifted_up = ctx.Emit(op::add(x, Scalar(ctx, x, bias)));
                               Expr shifted_down = ctx.Emit(op::subtract(x, Scalar(ctx, x, bias)));
                               Expr inner = ctx.Emit(op::where(above, shifted_down, Scalar(ctx, x, 0.0)));
                               return One(ctx.Emit(op::where(below, shifted_up, inner)));
                             }});
  // sinh / cosh = (e^x -/+ e^-x) / 2, tan = sin / cos.
  table["Sinh"].push_back({9, [](ConvertContext& ctx) -> Out {
                             Expr x = ctx.TensorInput(0);
                             Expr diff = ctx.Emit(op::subtract(ctx.Emit(op::exp(x)), ctx.Emit(op::exp(ctx.Emit(op::negative(x))))));
                             return One(ctx.Emit(op::multiply(diff, Scalar(ctx, x, 0.5))));
                           }});
  table["Cosh"].push_back({9, [](ConvertContext& ctx) -> Out {
                             Expr x = ctx.TensorInput(0);
                             Expr sum = ctx.Emit(op::add(ctx.Emit(op::exp(x)), ctx.Emit(op::exp(ctx.Emit(op::negative(x))))));
                             return One(ctx.Emit(op::multiply(sum, Scalar(ctx, x, 0.5))));
                           }});
  table["Tan"].push_back({7, [](ConvertContext& ctx) -> Out {
                            Expr x = ctx.TensorInput(0);
                            return One(ctx.Emit(op::divide(ctx.Emit(op::sin(x)), ctx.Emit(op::cos(x)))));
                          }});
  table["Reciprocal"].push_back({1, [](ConvertContext& ctx) -> Out {
                                   Expr x = ctx.TensorInput(0);
                                   return One(ctx.Emit(op::divide(Scalar(ctx, x, 1.0), x)));
                                 }});
}

// Clip: min/max attributes before opset 11, optional inputs after.
Out ConvertClip(ConvertContext& ctx, std::optional<double> lo, std::optional<double> hi, Expr lo_tensor,
                Expr hi_tensor) {
  Expr x = ctx.TensorInput(0);
  if (lo && hi) return One(ClipConstant(ctx, x, *lo, *hi));
  if (lo) x = ctx.Emit(op::maximum(x, Scalar(ctx, x, *lo)));
  if (lo_tensor.defined()) x = ctx.Emit(op::maximum(x, lo_tensor));
  if (hi) x = ctx.Emit(op::minimum(x, Scalar(ctx, x, *hi)));
  if (hi_tensor.defined()) x = ctx.Emit(op::minimum(x, hi_tensor));
  return One(x);
}

void RegisterClip(ConverterTable& table) {
  table["Clip"].push_back({1, [](ConvertContext& ctx) -> Out {
                             return ConvertClip(ctx, ctx.AttrFloat("min", -3.402823466e+38),
                                                ctx.AttrFloat("max", 3.402823466e+38), Expr(), Expr());
                           }});
  table["Clip"].push_back({11, [](ConvertContext& ctx) -> Out {
                              std::optional<double> lo, hi;
                              Expr lo_tensor, hi_tensor;
                              if (ctx.HasInput(1)) {
                                if (auto v = ctx.ConstDoubles(1)) lo = (*v)[0];
                                else lo_tensor = ctx.TensorInput(1);
                              }
                              if (ctx.HasInput(2)) {
                                if (auto v = ctx.ConstDoubles(2)) hi = (*v)[0];
                                else hi_tensor = ctx.TensorInput(2);
                              }
                              DataType dtype = ctx.InputDType(0);
                              if (lo && !hi && !hi_tensor.defined() && dtype.is_floating()) hi = INFINITY;
                              if (hi && !lo && !lo_tensor.defined() && dtype.is_floating()) lo = -INFINITY;
                              return ConvertClip(ctx, lo, hi, lo_tensor, hi_tensor);
                            }});
}

// Variadic Min / Max / Sum / Mean: a left fold of the binary op.
void AddVariadic(ConverterTable& table, const std::string& name, BinaryMaker maker, bool mean) {
  table[name].push_back({1, [maker, mean](ConvertContext& ctx) -> Out {
                           if (ctx.NumInputs() == 1) return {ctx.Input(0)};
                           Expr acc = ctx.TensorInput(0);
                           for (size_t i = 1; i < ctx.NumInputs(); ++i) acc = ctx.Emit(maker(acc, ctx.TensorInput(i)));
                           if (mean) {
                             acc = ctx.Emit(op::divide(acc, ScalarConstant(DTypeOf(acc), static_cast<double>(ctx.NumInputs()))));
                           }
                           return One(acc);
                         }});
}

// Equal on shape values: a host bool when every element is decided.
std::optional<OnnxValue> FoldShapeEqual(ConvertContext& ctx) {
  auto folded = FoldShapeBinary(ctx, [](PrimExpr a, PrimExpr b) { return ir::eq(a, b); });
  if (!folded) return std::nullopt;
  std::vector<int64_t> bits;
  for (const PrimExpr& element : folded->shape) {
    auto known = AsConstInt(element);
    if (!known) return std::nullopt;
    bits.push_back(*known);
  }
  std::vector<int64_t> dims;
  if (!folded->shape_is_scalar) dims.push_back(static_cast<int64_t>(bits.size()));
  return OnnxValue::Host(MakeHostInts(DataType::Bool(), dims, bits));
}

Out ConvertWhere(ConvertContext& ctx) {
  auto cond = ctx.ConstInts(0);
  if (cond && IsShapeLike(ctx, 1) && IsShapeLike(ctx, 2) && ctx.InputRank(0) <= 1) {
    std::vector<PrimExpr> a = *ctx.ShapeValues(1), b = *ctx.ShapeValues(2);
    size_t n = std::max({cond->size(), a.size(), b.size()});
    bool ok = (cond->size() == n || cond->size() == 1) && (a.size() == n || a.size() == 1) && (b.size() == n || b.size() == 1);
    if (ok) {
      std::vector<PrimExpr> out;
      for (size_t i = 0; i < n; ++i) {
        bool c = (*cond)[cond->size() == 1 ? 0 : i] != 0;
        out.push_back(c ? a[a.size() == 1 ? 0 : i] : b[b.size() == 1 ? 0 : i]);
      }
      return {OnnxValue::ShapeValues(out, ctx.InputRank(0) == 0 && IsScalarShapeLike(ctx, 1) && IsScalarShapeLike(ctx, 2))};
    }
  }
  return One(ctx.Emit(op::where(ctx.TensorInput(0), ctx.TensorInput(1), ctx.TensorInput(2))));
}

Out ConvertRound(ConvertContext& ctx) { return One(RoundHalfToEven(ctx, ctx.TensorInput(0))); }

Out ConvertCast(ConvertContext& ctx) {
  DataType to = DataTypeFromOnnx(static_cast<int>(ctx.AttrInt("to", 1)), "Cast");
  const OnnxValue& input = ctx.Input(0);
  if (input.kind == OnnxValue::Kind::kShape && to.is_int()) return {input};
  if (input.kind == OnnxValue::Kind::kHost) {
    if (to.is_integer() || to.is_bool()) {
      if (input.host->dtype.is_floating()) {
        std::vector<double> values = HostAsDoubles(*input.host);
        std::vector<int64_t> ints;
        for (double v : values) ints.push_back(static_cast<int64_t>(v));
        return {OnnxValue::Host(MakeHostInts(to, input.host->shape, ints))};
      }
      return {OnnxValue::Host(MakeHostInts(to, input.host->shape, HostAsInts(*input.host)))};
    }
    return {OnnxValue::Host(MakeHost(to, input.host->shape, HostAsDoubles(*input.host)))};
  }
  Expr x = ctx.TensorInput(0);
  if (DTypeOf(x) == to) return One(x);
  return One(ctx.Emit(op::astype(x, to)));
}

}  // namespace

// ONNX rounds halves to even: f = floor(x), d = x - f; d > 0.5 -> f + 1,
// d < 0.5 -> f, d == 0.5 -> f + (f mod 2).
Expr RoundHalfToEven(ConvertContext& ctx, const Expr& x) {
  Expr f = ctx.Emit(op::floor(x));
  Expr d = ctx.Emit(op::subtract(x, f));
  Expr half = ScalarConstant(DTypeOf(x), 0.5);
  Expr up = ctx.Emit(op::add(f, ScalarConstant(DTypeOf(x), 1.0)));
  Expr even = ctx.Emit(op::add(f, ctx.Emit(op::floor_mod(f, ScalarConstant(DTypeOf(x), 2.0)))));
  Expr not_below = ctx.Emit(op::where(ctx.Emit(op::greater(d, half)), up, even));
  return ctx.Emit(op::where(ctx.Emit(op::less(d, half)), f, not_below));
}

void RegisterElementwiseConverters(ConverterTable& table) {
  AddBinary(table, "Add", 1, op::add, [](ConvertContext&, PrimExpr a, PrimExpr b) { return a + b; });
  AddBinary(table, "Sub", 1, op::subtract, [](ConvertContext&, PrimExpr a, PrimExpr b) { return a - b; });
  AddBinary(table, "Mul", 1, op::multiply, [](ConvertContext&, PrimExpr a, PrimExpr b) { return a * b; });
  AddBinary(table, "Div", 1, op::divide, IntDivide);
  table["Pow"].push_back({1, [](ConvertContext& ctx) -> Out {
                            Expr base = ctx.TensorInput(0), exponent = ctx.TensorInput(1);
                            if (DTypeOf(exponent) != DTypeOf(base)) exponent = ctx.Emit(op::astype(exponent, DTypeOf(base)));
                            return One(ctx.Emit(op::power(base, exponent)));
                          }});
  table["Xor"].push_back({7, [](ConvertContext& ctx) -> Out {
                            Expr a = ctx.TensorInput(0), b = ctx.TensorInput(1);
                            Expr either = ctx.Emit(op::logical_or(a, b));
                            Expr both = ctx.Emit(op::logical_and(a, b));
                            return One(ctx.Emit(op::logical_and(either, ctx.Emit(op::logical_not(both)))));
                          }});
  AddBinary(table, "And", 1, op::logical_and);
  table["BitShift"].push_back({11, [](ConvertContext& ctx) -> Out {
                                 std::string direction = ctx.AttrString("direction", "");
                                 if (direction != "LEFT" && direction != "RIGHT") {
                                   ctx.Fail("direction must be \"LEFT\" or \"RIGHT\", got \"" + direction + "\"");
                                 }
                                 Expr lhs = ctx.TensorInput(0);
                                 Expr rhs = AlignBroadcastOperand(ctx, lhs, ctx.TensorInput(1));
                                 return One(ctx.Emit(direction == "LEFT" ? op::left_shift(lhs, rhs)
                                                                         : op::right_shift(lhs, rhs)));
                               }});
  AddBinary(table, "Or", 1, op::logical_or);
  AddBinary(table, "Less", 1, op::less);
  AddBinary(table, "Greater", 1, op::greater);
  AddBinary(table, "LessOrEqual", 12, op::less_equal);
  AddBinary(table, "GreaterOrEqual", 12, op::greater_equal);
  table["Equal"].push_back({1, [](ConvertContext& ctx) -> Out {
                              if (auto folded = FoldShapeEqual(ctx)) return {*folded};
                              return One(ctx.Emit(op::equal(ctx.TensorInput(0), ctx.TensorInput(1))));
                            }});
  table["Mod"].push_back({10, [](ConvertContext& ctx) -> Out {
                            Expr x = ctx.TensorInput(0), y = ctx.TensorInput(1);
                            if (ctx.AttrInt("fmod", 0) == 0) return One(ctx.Emit(op::floor_mod(x, y)));
                            // float16 is computed in float32 (the adjustment below would round twice).
                            DataType dtype = DTypeOf(x);
                            bool widen = dtype.is_floating() && dtype.bits() == 16;
                            if (widen) {
                              x = ctx.Emit(op::astype(x, DataType::Float32()));
                              y = ctx.Emit(op::astype(y, DataType::Float32()));
                            }
                            Expr remainder = ctx.Emit(op::floor_mod(x, y));
                            // fmod takes x's sign, floor_mod y's: they differ by y where
                            // the remainder is nonzero and the signs of x and y differ.
                            Expr zero = Scalar(ctx, x, 0.0);
                            Expr signs_differ = ctx.Emit(op::not_equal(ctx.Emit(op::less(x, zero)), ctx.Emit(op::less(y, zero))));
                            Expr adjust = ctx.Emit(op::logical_and(signs_differ, ctx.Emit(op::not_equal(remainder, zero))));
                            Expr out = ctx.Emit(op::where(adjust, ctx.Emit(op::subtract(remainder, y)), remainder));
                            return One(widen ? ctx.Emit(op::astype(out, dtype)) : out);
                          }});
  AddUnary(table, "Relu", op::nn::relu);
  AddUnary(table, "Sigmoid", op::sigmoid);
  AddUnary(table, "Tanh", op::tanh);
  AddUnary(table, "Erf", op::erf);
  AddUnary(table, "Sqrt", op::sqrt);
  AddUnary(table, "Exp", op::exp);
  AddUnary(table, "Log", op::log);
  table["Neg"].push_back({1, [](ConvertContext& ctx) -> Out {
                            if (IsShapeLike(ctx, 0)) {
                              std::vector<PrimExpr> values = *ctx.ShapeValues(0);
                              for (PrimExpr& v : values) v = ctx.Simplify(Int64(0) - v);
                              return {OnnxValue::ShapeValues(values, IsScalarShapeLike(ctx, 0))};
                            }
                            return One(ctx.Emit(op::negative(ctx.TensorInput(0))));
                          }});
  AddUnary(table, "Abs", op::abs);
  AddUnary(table, "Floor", op::floor);
  AddUnary(table, "Ceil", op::ceil);
  table["Round"].push_back({11, ConvertRound});
  AddUnary(table, "Sin", op::sin);
  AddUnary(table, "Cos", op::cos);
  AddUnary(table, "Sign", op::sign);
  AddUnary(table, "Not", op::logical_not);
  RegisterActivations(table);
  RegisterClip(table);
  AddVariadic(table, "Min", op::minimum, false);
  AddVariadic(table, "Max", op::maximum, false);
  AddVariadic(table, "Sum", op::add, false);
  AddVariadic(table, "Mean", op::add, true);
  table["Where"].push_back({9, ConvertWhere});
  table["Cast"].push_back({1, ConvertCast});
  table["CastLike"].push_back({15, [](ConvertContext& ctx) -> Out {
                                 Expr x = ctx.TensorInput(0);
                                 DataType to = ctx.InputDType(1);
                                 if (DTypeOf(x) == to) return One(x);
                                 return One(ctx.Emit(op::astype(x, to)));
                               }});
  table["Identity"].push_back({1, [](ConvertContext& ctx) -> Out { return {ctx.Input(0)}; }});
}

}  // namespace rlx::frontend::onnx_impl
