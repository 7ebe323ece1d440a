// Tensor expressions: placeholders, computes and reductions (see
// include/rlx/tir/te.h for the model).
//
// Dependency tracing: Compute pushes a trace frame, calls fcompute, and pops
// it; Tensor::operator() records the tensor read in the innermost frame. The
// frames form a thread-local stack so a compute defined inside another's
// fcompute traces into its own frame.
//
// Reductions: Sum and friends return a marker Call ("te.sum", ...) whose
// arguments are [source, where, var_0, min_0, extent_0, var_1, ...]. Compute
// recognizes the marker at the top of the body and takes it apart into the
// TensorDef's reduce fields; a marker anywhere else is an error.
#include <cfloat>
#include <cstdint>
#include <limits>

#include <fmt/format.h>

#include "rlx/ir/functor.h"
#include "rlx/support/diagnostic.h"
#include "tir/te_internal.h"

namespace rlx::te {
namespace {

// ---------------------------------------------------------------- tracing

thread_local std::vector<std::vector<Tensor>*> trace_stack;

class TraceScope {
 public:
  explicit TraceScope(std::vector<Tensor>* reads) { trace_stack.push_back(reads); }
  ~TraceScope() { trace_stack.pop_back(); }
  TraceScope(const TraceScope&) = delete;
  TraceScope& operator=(const TraceScope&) = delete;
};

void RecordRead(const Tensor& tensor) {
  if (trace_stack.empty()) return;
  std::vector<Tensor>& reads = *trace_stack.back();
  for (const Tensor& seen : reads) {
    if (seen == tensor) return;
  }
  reads.push_back(tensor);
}

// ---------------------------------------------------------------- reductions

constexpr const char* kReducePrefix = "te.";

const char* ReduceOpName(ReduceKind kind) {
  switch (kind) {
    case ReduceKind::kSum: return "te.sum";
    case ReduceKind::kMax: return "te.max";
    case ReduceKind::kMin: return "te.min";
    case ReduceKind::kProd: return "te.prod";
    case ReduceKind::kNone: break;
  }
  return "te.none";
}

ReduceKind ReduceKindOf(const std::string& op) {
  for (ReduceKind kind : {ReduceKind::kSum, ReduceKind::kMax, ReduceKind::kMin, ReduceKind::kProd}) {
    if (op == ReduceOpName(kind)) return kind;
  }
  return ReduceKind::kNone;
}

bool IsReduceMarker(const PrimExpr& expr) {
  const auto* call = expr.as<ir::CallNode>();
  return call && call->op.rfind(kReducePrefix, 0) == 0 && ReduceKindOf(call->op) != ReduceKind::kNone;
}

PrimExpr MakeReduce(ReduceKind kind, PrimExpr source, std::vector<IterVar> axes, PrimExpr where) {
  if (!source.defined()) ThrowError(Span(), std::string(ReduceOpName(kind)) + ": the reduced value is undefined");
  if (!where.defined()) where = ir::MakeBool(true);
  if (!where->dtype.is_bool()) {
    ThrowError(Span(), fmt::format("{}: expected a bool condition for `where`, got {}", ReduceOpName(kind),
                                   where->dtype.ToString()));
  }
  std::vector<PrimExpr> args = {source, where};
  for (const IterVar& axis : axes) {
    if (!axis.defined() || axis->iter_kind != tir::IterKind::kReduce) {
      ThrowError(Span(), fmt::format("{}: every axis must come from te::ReduceAxis", ReduceOpName(kind)));
    }
    args.insert(args.end(), {axis->var, axis->dom.min, axis->dom.extent});
  }
  DataType dtype = source->dtype;
  return ir::call(dtype, ReduceOpName(kind), std::move(args));
}

// Fills the reduce fields of `def` from a marker call.
void TakeApartReduce(const ir::CallNode* marker, TensorDef* def) {
  def->reduce_kind = ReduceKindOf(marker->op);
  def->body = marker->args[0];
  def->reduce_where = marker->args[1];
  for (size_t i = 2; i + 2 < marker->args.size(); i += 3) {
    Var var = cast<ir::VarNode>(marker->args[i]);
    tir::Range dom{marker->args[i + 1], marker->args[i + 2]};
    def->reduce_axes.push_back(make<tir::IterVarNode>(var, dom, tir::IterKind::kReduce));
  }
}

// A reduction nested inside an expression cannot be lowered.
void CheckNoNestedReduce(const PrimExpr& expr, const std::string& tensor_name) {
  if (!expr.defined()) return;
  ir::PostOrderVisit(expr, [&](const PrimExpr& sub) {
    if (IsReduceMarker(sub)) {
      ThrowError(Span(), fmt::format("compute {}: a reduction ({}) must be the whole compute body, "
                                     "found it inside `{}`",
                                     tensor_name, sub.as<ir::CallNode>()->op, ir::ToString(expr)));
    }
  });
}

void CheckShape(const std::vector<PrimExpr>& shape, const std::string& name) {
  for (size_t d = 0; d < shape.size(); ++d) {
    if (!shape[d].defined() || !(shape[d]->dtype.is_integer() && shape[d]->dtype.is_scalar())) {
      ThrowError(Span(), fmt::format("tensor {}: dimension {} must be a scalar integer, got {}", name, d,
                                     shape[d].defined() ? shape[d]->dtype.ToString() : "nothing"));
    }
  }
}

std::vector<IterVar> MakeSpatialAxes(const std::vector<PrimExpr>& shape, const std::vector<std::string>& names) {
  std::vector<IterVar> axes;
  for (size_t d = 0; d < shape.size(); ++d) {
    std::string name = names.empty() ? "ax" + std::to_string(d) : names[d];
    Var var = ir::MakeVar(name, shape[d]->dtype);
    tir::Range dom{ir::MakeInt(0, shape[d]->dtype), shape[d]};
    axes.push_back(make<tir::IterVarNode>(var, dom, tir::IterKind::kSpatial));
  }
  return axes;
}

}  // namespace

// ---------------------------------------------------------------- Tensor

const std::string& Tensor::name() const { return def_->name; }
DataType Tensor::dtype() const { return def_->buffer->dtype; }
const std::vector<PrimExpr>& Tensor::shape() const { return def_->buffer->shape; }
const Buffer& Tensor::buffer() const { return def_->buffer; }
bool Tensor::is_placeholder() const { return def_->is_placeholder; }
const std::vector<Tensor>& Tensor::inputs() const { return def_->inputs; }

PrimExpr Tensor::operator()(std::vector<PrimExpr> indices) const {
  RLX_ICHECK(defined()) << "indexing an undefined tensor";
  if (static_cast<int>(indices.size()) != ndim()) {
    ThrowError(Span(), fmt::format("tensor {} of shape {} has {} dimensions, indexed with {} indices", name(),
                                   ir::ShapeToString(shape()), ndim(), indices.size()));
  }
  for (size_t d = 0; d < indices.size(); ++d) {
    if (!indices[d].defined() || !indices[d]->dtype.is_integer()) {
      ThrowError(Span(), fmt::format("tensor {}: index {} must be an integer, got {}", name(), d,
                                     indices[d].defined() ? indices[d]->dtype.ToString() : "nothing"));
    }
    if (indices[d].isa<ir::IntImmNode>()) indices[d] = ir::cast(shape()[d]->dtype, indices[d]);
  }
  RecordRead(*this);
  return make<ir::BufferLoadNode>(buffer(), std::move(indices));
}

PrimExpr Tensor::operator()(const std::vector<Var>& indices) const {
  return (*this)(std::vector<PrimExpr>(indices.begin(), indices.end()));
}

// ---------------------------------------------------------------- builders

Tensor Placeholder(std::vector<PrimExpr> shape, DataType dtype, std::string name) {
  CheckShape(shape, name);
  auto def = std::make_shared<TensorDef>();
  def->name = name;
  def->buffer = ir::MakeBuffer(std::move(name), std::move(shape), dtype);
  return Tensor(std::move(def));
}

Tensor Compute(std::vector<PrimExpr> shape, const FCompute& fcompute, std::string name,
               std::vector<std::string> axis_names) {
  CheckShape(shape, name);
  if (!axis_names.empty() && axis_names.size() != shape.size()) {
    ThrowError(Span(), fmt::format("compute {}: {} axis names given for {} dimensions", name, axis_names.size(),
                                   shape.size()));
  }
  auto def = std::make_shared<TensorDef>();
  def->name = name;
  def->is_placeholder = false;
  def->axes = MakeSpatialAxes(shape, axis_names);
  std::vector<Var> indices;
  for (const IterVar& axis : def->axes) indices.push_back(axis->var);

  PrimExpr body;
  {
    TraceScope scope(&def->inputs);
    body = fcompute(indices);
  }
  if (!body.defined()) ThrowError(Span(), fmt::format("compute {}: the element function returned nothing", name));
  if (IsReduceMarker(body)) {
    TakeApartReduce(body.as<ir::CallNode>(), def.get());
  } else {
    def->body = body;
  }
  CheckNoNestedReduce(def->body, name);
  CheckNoNestedReduce(def->reduce_where, name);
  def->buffer = ir::MakeBuffer(name, std::move(shape), def->body->dtype);
  return Tensor(std::move(def));
}

Tensor Extern(std::vector<PrimExpr> shape, DataType dtype, std::vector<Tensor> inputs, const FExternBody& body,
              std::string name) {
  CheckShape(shape, name);
  std::vector<Buffer> input_buffers;
  for (const Tensor& input : inputs) {
    if (!input.defined()) ThrowError(Span(), fmt::format("extern {}: an input tensor is undefined", name));
    input_buffers.push_back(input.buffer());
  }
  auto def = std::make_shared<TensorDef>();
  def->name = name;
  def->is_placeholder = false;
  def->inputs = std::move(inputs);
  def->buffer = ir::MakeBuffer(name, std::move(shape), dtype);
  def->extern_body = body(input_buffers, def->buffer);
  if (!def->extern_body.defined()) ThrowError(Span(), fmt::format("extern {}: the body returned nothing", name));
  return Tensor(std::move(def));
}

IterVar ReduceAxis(PrimExpr extent, std::string name) {
  if (!extent.defined() || !extent->dtype.is_integer()) {
    ThrowError(Span(), fmt::format("reduce axis {}: the extent must be an integer", name));
  }
  DataType dtype = extent->dtype;
  return ReduceAxis(tir::Range{ir::MakeInt(0, dtype), std::move(extent)}, std::move(name));
}

IterVar ReduceAxis(tir::Range dom, std::string name) {
  if (!dom.min.defined() || !dom.extent.defined() || !dom.extent->dtype.is_integer()) {
    ThrowError(Span(), fmt::format("reduce axis {}: the domain must be integer", name));
  }
  dom.min = ir::cast(dom.extent->dtype, dom.min);
  Var var = ir::MakeVar(std::move(name), dom.extent->dtype);
  return make<tir::IterVarNode>(std::move(var), std::move(dom), tir::IterKind::kReduce);
}

PrimExpr Sum(PrimExpr source, std::vector<IterVar> axes, PrimExpr where) {
  return MakeReduce(ReduceKind::kSum, std::move(source), std::move(axes), std::move(where));
}
PrimExpr MaxReduce(PrimExpr source, std::vector<IterVar> axes, PrimExpr where) {
  return MakeReduce(ReduceKind::kMax, std::move(source), std::move(axes), std::move(where));
}
PrimExpr MinReduce(PrimExpr source, std::vector<IterVar> axes, PrimExpr where) {
  return MakeReduce(ReduceKind::kMin, std::move(source), std::move(axes), std::move(where));
}
PrimExpr ProdReduce(PrimExpr source, std::vector<IterVar> axes, PrimExpr where) {
  return MakeReduce(ReduceKind::kProd, std::move(source), std::move(axes), std::move(where));
}

PrimExpr IfThenElse(PrimExpr cond, PrimExpr then_value, PrimExpr else_value) {
  if (!cond->dtype.is_bool()) cond = ir::ne(cond, ir::MakeInt(0, cond->dtype));
  // select() brings both arms to one dtype; reuse its operands.
  PrimExpr unified = ir::select(cond, std::move(then_value), std::move(else_value));
  const auto* sel = unified.as<ir::SelectNode>();
  return ir::call(sel->dtype, "if_then_else", {sel->condition, sel->true_value, sel->false_value});
}

// ---------------------------------------------------------------- identities

namespace {

double LowestFloat(DataType dtype) {
  if (dtype.is_bfloat16()) return -3.3895313892515355e38;
  switch (dtype.bits()) {
    case 16: return -65504.0;
    case 32: return -static_cast<double>(FLT_MAX);
    default: return -DBL_MAX;
  }
}

PrimExpr ScalarConst(DataType dtype, int64_t int_value, double float_value) {
  if (dtype.is_floating()) return ir::MakeFloat(float_value, dtype);
  if (dtype.is_bool()) return ir::MakeBool(int_value != 0);
  return ir::MakeInt(int_value, dtype);
}

}  // namespace

PrimExpr MinValue(DataType dtype) {
  RLX_ICHECK(dtype.is_scalar() && !dtype.is_void()) << "no minimum for " << dtype.ToString();
  int64_t int_value = 0;
  if (dtype.is_int()) int_value = dtype.bits() == 64 ? INT64_MIN : -(int64_t{1} << (dtype.bits() - 1));
  return ScalarConst(dtype, int_value, dtype.is_floating() ? LowestFloat(dtype) : 0.0);
}

PrimExpr MaxValue(DataType dtype) {
  RLX_ICHECK(dtype.is_scalar() && !dtype.is_void()) << "no maximum for " << dtype.ToString();
  int64_t int_value = 1;  // bool
  if (dtype.is_int()) int_value = dtype.bits() == 64 ? INT64_MAX : (int64_t{1} << (dtype.bits() - 1)) - 1;
  // uint64's maximum has all bits set: -1 as the stored int64.
  if (dtype.is_uint()) int_value = dtype.bits() == 64 ? -1 : (int64_t{1} << dtype.bits()) - 1;
  return ScalarConst(dtype, int_value, dtype.is_floating() ? -LowestFloat(dtype) : 0.0);
}

PrimExpr ReduceIdentity(ReduceKind kind, DataType dtype) {
  switch (kind) {
    case ReduceKind::kSum: return ScalarConst(dtype, 0, 0.0);
    case ReduceKind::kProd: return ScalarConst(dtype, 1, 1.0);
    case ReduceKind::kMax: return MinValue(dtype);
    case ReduceKind::kMin: return MaxValue(dtype);
    case ReduceKind::kNone: break;
  }
  RLX_UNREACHABLE() << "not a reduction";
  __builtin_unreachable();
}

PrimExpr ReduceCombine(ReduceKind kind, PrimExpr acc, PrimExpr value) {
  switch (kind) {
    case ReduceKind::kSum: return ir::add(std::move(acc), std::move(value));
    case ReduceKind::kProd: return ir::mul(std::move(acc), std::move(value));
    case ReduceKind::kMax: return ir::max(std::move(acc), std::move(value));
    case ReduceKind::kMin: return ir::min(std::move(acc), std::move(value));
    case ReduceKind::kNone: break;
  }
  RLX_UNREACHABLE() << "not a reduction";
  __builtin_unreachable();
}

}  // namespace rlx::te
