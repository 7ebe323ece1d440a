// Creation operators and `where`, with TVM's names, arguments and
// struct-info rules (relax/op/tensor/create.cc, search.cc):
//
//   R.full(shape, fill_value, dtype=None)   Tensor(shape, dtype or fill_value's)
//   R.full_like(x, fill_value, dtype=None)  Tensor(x's shape, dtype or x's)
//   R.zeros(shape, dtype) / R.ones(shape, dtype)
//   R.zeros_like(x, dtype=None) / R.ones_like(x, dtype=None)
//   R.arange(start, end, step, dtype=None)  1-D; start/end/step PrimValues
//   R.tril(x, k) / R.triu(x, k)             x's struct info; k a PrimValue
//   R.where(condition, x1, x2)              broadcast of the three, x1's dtype
//
// `shape` is a ShapeExpr or a value of Shape struct info (its dimensions, or
// only its rank, carry over). `fill_value` is a 0-d tensor. arange's length
// is ceil((end - start) / step): floordiv(end - start + step - 1, step) for
// integer bounds, else the float computation cast to int64; its dtype
// defaults to int64 when the three bounds are integers, float32 otherwise
// (as TVM's Python front end decides).
//
// The legalizations (TVM's legalize_ops/create.py, search.py) are here too:
//   full / full_like   out[i] = cast(dtype, fill_value[])     PrimFunc "full"
//   zeros, zeros_like  out[i] = 0                             "zeros"
//   ones, ones_like    out[i] = 1                             "ones"
//   arange             out[i] = cast(dtype, start + i * step) "arange"
//   tril               out[..., r, c] = c - r <= k ? x : 0    "tril"
//   triu               out[..., r, c] = c - r >= k ? x : 0    "triu"
//   where              see legalize_binary.cc
#include <fmt/format.h>

#include <cmath>

#include "op/topi.h"
#include "op_common.h"
#include "rlx/op/legalize.h"
#include "rlx/op/op.h"

namespace rlx::op {
namespace detail {
namespace {

// The dimensions (or rank) of the Shape argument `index`.
StructInfo TensorOfShapeArg(const Call& call, size_t index, DataType dtype) {
  StructInfo sinfo = graph::GetStructInfo(call->args[index]);
  const auto* shape = sinfo.as<graph::ShapeStructInfoNode>();
  if (shape == nullptr) {
    ThrowOpError(call, fmt::format("expected a Shape for argument '{}', got {}", ArgName(call, index),
                                   graph::ToString(sinfo)));
  }
  if (shape->values) return graph::TensorSInfo(*shape->values, dtype);
  return graph::TensorSInfo(dtype, shape->ndim);
}

// Checks that argument `index` is a 0-d tensor; returns it.
TensorStructInfo ScalarTensorArg(const Call& call, size_t index) {
  TensorStructInfo value = TensorArg(call, index);
  if (!value->IsUnknownNdim() && value->ndim != 0) {
    ThrowOpError(call, fmt::format("expected a 0-d tensor for argument '{}', got {}", ArgName(call, index),
                                   graph::ToString(value)));
  }
  return value;
}

// The value of PrimValue argument `index`.
PrimExpr PrimArg(const Call& call, size_t index) {
  StructInfo sinfo = graph::GetStructInfo(call->args[index]);
  const auto* prim = sinfo.as<graph::PrimStructInfoNode>();
  if (prim == nullptr) {
    ThrowOpError(call, fmt::format("expected a PrimValue for argument '{}', got {}", ArgName(call, index),
                                   graph::ToString(sinfo)));
  }
  return prim->value;
}

DataType PrimArgDtype(const Call& call, size_t index) {
  return cast<graph::PrimStructInfoNode>(graph::GetStructInfo(call->args[index]))->dtype;
}

StructInfo InferFull(const Call& call, BlockBuilder&) {
  CheckNumArgs(call, 2);
  TensorStructInfo fill = ScalarTensorArg(call, 1);
  DataType dtype = GetDataTypeAttr(call, "dtype", DataType::Void());
  return TensorOfShapeArg(call, 0, dtype.is_void() ? fill->dtype : dtype);
}

StructInfo InferFullLike(const Call& call, BlockBuilder&) {
  CheckNumArgs(call, 2);
  TensorStructInfo x = TensorArg(call, 0);
  ScalarTensorArg(call, 1);
  DataType dtype = GetDataTypeAttr(call, "dtype", DataType::Void());
  return TensorLike(x, dtype.is_void() ? x->dtype : dtype);
}

StructInfo InferZerosOnes(const Call& call, BlockBuilder&) {
  CheckNumArgs(call, 1);
  return TensorOfShapeArg(call, 0, GetDataTypeAttr(call, "dtype", std::nullopt));
}

StructInfo InferZerosOnesLike(const Call& call, BlockBuilder&) {
  CheckNumArgs(call, 1);
  TensorStructInfo x = TensorArg(call, 0);
  DataType dtype = GetDataTypeAttr(call, "dtype", DataType::Void());
  return TensorLike(x, dtype.is_void() ? x->dtype : dtype);
}

bool AllIntegerBounds(const Call& call) {
  for (size_t i = 0; i < 3; ++i) {
    if (!PrimArgDtype(call, i).is_integer()) return false;
  }
  return true;
}

DataType ArangeDtype(const Call& call) {
  DataType dtype = GetDataTypeAttr(call, "dtype", DataType::Void());
  if (!dtype.is_void()) return dtype;
  return AllIntegerBounds(call) ? DataType::Int64() : DataType::Float32();
}

std::optional<double> AsConstNumber(const PrimExpr& expr) {
  if (const auto* f = expr.as<ir::FloatImmNode>()) return f->value;
  if (std::optional<int64_t> i = ir::AsConstInt(expr)) return static_cast<double>(*i);
  return std::nullopt;
}

// ceil((end - start) / step): floordiv(end - start + step - 1, step) for
// integer bounds; otherwise computed in float32 (folded when the bounds are
// constants) and cast to int64, as TVM.
PrimExpr ArangeLength(arith::Analyzer& analyzer, const PrimExpr& start, const PrimExpr& end, const PrimExpr& step) {
  if (start->dtype.is_integer() && end->dtype.is_integer() && step->dtype.is_integer()) {
    PrimExpr s = AsInt64(start), e = AsInt64(end), st = AsInt64(step);
    return analyzer.Simplify(ir::floordiv(e - s + st - 1, st));
  }
  std::optional<double> s = AsConstNumber(start), e = AsConstNumber(end), st = AsConstNumber(step);
  if (s && e && st) {
    float span = static_cast<float>(*e) - static_cast<float>(*s);
    return ir::MakeInt(static_cast<int64_t>(std::ceil(span / static_cast<float>(*st))));
  }
  DataType f32 = DataType::Float32();
  PrimExpr span = ir::cast(f32, end) - ir::cast(f32, start);
  return ir::cast(DataType::Int64(), ir::call(f32, "ceil", {ir::truncdiv(span, ir::cast(f32, step))}));
}

StructInfo InferArange(const Call& call, BlockBuilder& builder) {
  CheckNumArgs(call, 3);
  PrimExpr start = PrimArg(call, 0), end = PrimArg(call, 1), step = PrimArg(call, 2);
  DataType dtype = ArangeDtype(call);
  if (!start.defined() || !end.defined() || !step.defined()) return graph::TensorSInfo(dtype, 1);
  std::optional<double> constant_step = AsConstNumber(step);
  if (constant_step && *constant_step == 0) ThrowOpError(call, "step must not be zero");
  return graph::TensorSInfo({ArangeLength(builder.analyzer(), start, end, step)}, dtype);
}

StructInfo InferTrilTriu(const Call& call, BlockBuilder&) {
  CheckNumArgs(call, 2);
  TensorStructInfo x = TensorArg(call, 0);
  PrimArg(call, 1);
  if (!x->IsUnknownNdim() && x->ndim < 2) {
    ThrowOpError(call, fmt::format("expected a tensor of rank at least 2, got {}", graph::ToString(x)));
  }
  return x;
}

StructInfo InferWhere(const Call& call, BlockBuilder& builder) {
  CheckNumArgs(call, 3);
  TensorStructInfo cond = TensorArg(call, 0);
  TensorStructInfo x1 = TensorArg(call, 1);
  TensorStructInfo x2 = TensorArg(call, 2);
  if (!cond->IsUnknownDtype() && !cond->dtype.is_bool()) {
    ThrowOpError(call, fmt::format("expected a bool condition, got {}", graph::ToString(cond)));
  }
  DataType dtype = UnifyDtypes(call, x1->dtype, x2->dtype);
  if (cond->IsUnknownNdim() || x1->IsUnknownNdim() || x2->IsUnknownNdim()) return graph::TensorSInfo(dtype, -1);
  int ndim = std::max({cond->ndim, x1->ndim, x2->ndim});
  std::optional<Shape> shapes[3] = {cond->GetShape(), x1->GetShape(), x2->GetShape()};
  if (!shapes[0] || !shapes[1] || !shapes[2]) return graph::TensorSInfo(dtype, ndim);
  Shape result = *shapes[0];
  for (int i = 1; i < 3; ++i) {
    BroadcastResult broadcast = BroadcastShapes(builder.analyzer(), result, *shapes[i]);
    if (broadcast.status == BroadcastResult::Status::kMismatch) {
      ThrowOpError(call, fmt::format("cannot broadcast shapes {}, {} and {}", ir::ShapeToString(*shapes[0]),
                                     ir::ShapeToString(*shapes[1]), ir::ShapeToString(*shapes[2])));
    }
    if (broadcast.status == BroadcastResult::Status::kUndecidable) return graph::TensorSInfo(dtype, ndim);
    result = broadcast.shape;
  }
  return graph::TensorSInfo(std::move(result), dtype);
}

graph::AttrSpec OptionalDtypeAttr() { return {"dtype", graph::AttrKind::kDataType, DataTypeAttr(DataType::Void())}; }
graph::AttrSpec RequiredDtypeAttr() { return {"dtype", graph::AttrKind::kDataType, ObjectRef()}; }

// ---------------------------------------------------------------------------
// Legalizations.

PrimExpr Constant(double value, DataType dtype) {
  if (dtype.is_floating()) return ir::MakeFloat(value, dtype);
  if (dtype.is_bool()) return ir::MakeBool(value != 0);
  return ir::MakeInt(static_cast<int64_t>(value), dtype);
}

DataType ResultDtype(const Call& call) { return cast<graph::TensorStructInfoNode>(graph::GetStructInfo(call))->dtype; }

// The arguments of a creation op's PrimFunc: `R.shape(dims)` in place of a
// `_like` op's tensor (so the PrimFunc does not take it), then the rest;
// nullopt when that tensor's shape is unknown.
std::optional<std::vector<Expr>> CreationArgs(const Call& call, bool is_like) {
  std::vector<Expr> args = call->args;
  if (!is_like) return args;
  std::optional<Shape> shape = TensorArg(call, 0)->GetShape();
  if (!shape) return std::nullopt;
  args[0] = make<graph::ShapeExprNode>(*shape);
  return args;
}

// full / full_like: the value is the 0-d tensor argument 1.
void RegisterFullLegalize(const std::string& op, bool is_like) {
  graph::SetOpLegalize("relax." + op, [is_like](BlockBuilder& builder, const Call& call) -> Expr {
    std::optional<std::vector<Expr>> args = CreationArgs(call, is_like);
    if (!args) return call;
    DataType dtype = ResultDtype(call);
    return CallTE(builder, call, *args, "full", [&](const TEArgs& te_args) {
      const te::Tensor& fill = te_args[1].tensor();
      return te::Compute(
          te_args[0].shape(),
          [&](const std::vector<ir::Var>&) {
            PrimExpr value = fill(std::vector<PrimExpr>{});
            return value->dtype == dtype ? value : ir::cast(dtype, value);
          },
          "T_full");
    });
  });
}

void RegisterConstantFillLegalize(const std::string& op, bool is_like, const std::string& func_name, double value) {
  graph::SetOpLegalize("relax." + op, [is_like, func_name, value](BlockBuilder& builder, const Call& call) -> Expr {
    std::optional<std::vector<Expr>> args = CreationArgs(call, is_like);
    if (!args) return call;
    DataType dtype = ResultDtype(call);
    return CallTE(builder, call, *args, func_name, [&](const TEArgs& te_args) {
      return te::Compute(
          te_args[0].shape(), [&](const std::vector<ir::Var>&) { return Constant(value, dtype); }, "T_full");
    });
  });
}

void RegisterArangeLegalize() {
  graph::SetOpLegalize("relax.arange", [](BlockBuilder& builder, const Call& call) -> Expr {
    DataType dtype = ResultDtype(call);
    return CallTE(builder, call, "arange", [&](const TEArgs& args) {
      PrimExpr start = args[0].prim(), end = args[1].prim(), step = args[2].prim();
      arith::Analyzer analyzer;
      PrimExpr length = ArangeLength(analyzer, start, end, step);
      bool integer = start->dtype.is_integer() && step->dtype.is_integer();
      DataType compute = integer ? DataType::Int64() : (dtype.bits() == 64 ? DataType::Float(64) : DataType::Float32());
      return te::Compute(
          {length},
          [&](const std::vector<ir::Var>& i) {
            PrimExpr value = ir::cast(compute, start) + ir::cast(compute, i[0]) * ir::cast(compute, step);
            if (integer) value = analyzer.Simplify(value);
            return value->dtype == dtype ? value : ir::cast(dtype, value);
          },
          "T_arange");
    });
  });
}

void RegisterTrilTriuLegalize(const std::string& op, bool upper) {
  graph::SetOpLegalize("relax." + op, [op, upper](BlockBuilder& builder, const Call& call) -> Expr {
    return CallTE(builder, call, op, [&](const TEArgs& args) {
      const te::Tensor& x = args[0].tensor();
      PrimExpr k = AsInt64(args[1].prim());
      return te::Compute(
          x.shape(),
          [&](const std::vector<ir::Var>& i) {
            PrimExpr row = i[i.size() - 2], col = i.back();
            PrimExpr keep = upper ? ir::ge(col - row, k) : ir::le(col - row, k);
            return ir::select(keep, x(i), Constant(0, x.dtype()));
          },
          "trilu");
    });
  });
}

}  // namespace

void RegisterCreateOps() {
  graph::RegisterOp(MakeOpInfo("full", {"shape", "fill_value"}, InferFull, graph::OpPatternKind::kElemWise,
                               {OptionalDtypeAttr()}));
  graph::RegisterOp(MakeOpInfo("full_like", {"x", "fill_value"}, InferFullLike, graph::OpPatternKind::kElemWise,
                               {OptionalDtypeAttr()}));
  for (const char* name : {"zeros", "ones"}) {
    graph::RegisterOp(
        MakeOpInfo(name, {"shape"}, InferZerosOnes, graph::OpPatternKind::kElemWise, {RequiredDtypeAttr()}));
  }
  for (const char* name : {"zeros_like", "ones_like"}) {
    graph::RegisterOp(
        MakeOpInfo(name, {"x"}, InferZerosOnesLike, graph::OpPatternKind::kElemWise, {OptionalDtypeAttr()}));
  }
  graph::RegisterOp(MakeOpInfo("arange", {"start", "end", "step"}, InferArange, graph::OpPatternKind::kInjective,
                               {OptionalDtypeAttr()}));
  for (const char* name : {"tril", "triu"}) {
    graph::RegisterOp(MakeOpInfo(name, {"x", "k"}, InferTrilTriu, graph::OpPatternKind::kInjective));
  }
  graph::RegisterOp(
      MakeOpInfo("where", {"condition", "x1", "x2"}, InferWhere, graph::OpPatternKind::kBroadcast));
}

void RegisterCreateLegalizations() {
  RegisterFullLegalize("full", false);
  RegisterFullLegalize("full_like", true);
  RegisterConstantFillLegalize("zeros", false, "zeros", 0);
  RegisterConstantFillLegalize("zeros_like", true, "zeros", 0);
  RegisterConstantFillLegalize("ones", false, "ones", 1);
  RegisterConstantFillLegalize("ones_like", true, "ones", 1);
  RegisterArangeLegalize();
  RegisterTrilTriuLegalize("tril", false);
  RegisterTrilTriuLegalize("triu", true);
}

}  // namespace detail

namespace {
ir::Dict DtypeAttrs(DataType dtype) { return ir::DictWith(nullptr, "dtype", detail::DataTypeAttr(dtype)); }
}  // namespace

Call full(Expr shape, Expr fill_value, DataType dtype) {
  return detail::MakeOpCall("full", {std::move(shape), std::move(fill_value)}, DtypeAttrs(dtype));
}
Call full_like(Expr x, Expr fill_value, DataType dtype) {
  return detail::MakeOpCall("full_like", {std::move(x), std::move(fill_value)}, DtypeAttrs(dtype));
}
Call zeros(Expr shape, DataType dtype) { return detail::MakeOpCall("zeros", {std::move(shape)}, DtypeAttrs(dtype)); }
Call ones(Expr shape, DataType dtype) { return detail::MakeOpCall("ones", {std::move(shape)}, DtypeAttrs(dtype)); }
Call zeros_like(Expr x, DataType dtype) { return detail::MakeOpCall("zeros_like", {std::move(x)}, DtypeAttrs(dtype)); }
Call ones_like(Expr x, DataType dtype) { return detail::MakeOpCall("ones_like", {std::move(x)}, DtypeAttrs(dtype)); }
Call arange(Expr start, Expr end, Expr step, DataType dtype) {
  return detail::MakeOpCall("arange", {std::move(start), std::move(end), std::move(step)}, DtypeAttrs(dtype));
}
Call tril(Expr x, Expr k) { return detail::MakeOpCall("tril", {std::move(x), std::move(k)}); }
Call triu(Expr x, Expr k) { return detail::MakeOpCall("triu", {std::move(x), std::move(k)}); }
Call where(Expr condition, Expr x1, Expr x2) {
  return detail::MakeOpCall("where", {std::move(condition), std::move(x1), std::move(x2)});
}

}  // namespace rlx::op
