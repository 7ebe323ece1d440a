// ConvertContext: how a converter reads its node's inputs and attributes and
// emits Relax calls; the value forms are described in converter.h.
//
// Materializing a shape vector as a run-time tensor: integer elements give an
// int64 Constant; a symbolic element n becomes R.arange(n, n + 1, 1) (a
// one-element int64 tensor whose value the VM computes from the shape heap),
// and the pieces are concatenated.
#include "frontend/onnx/converter.h"

#include "rlx/op/manipulate.h"
#include "rlx/op/op.h"
#include "rlx/support/diagnostic.h"
#include "rlx/support/logging.h"

namespace rlx::frontend::onnx_impl {

OnnxValue OnnxValue::Tensor(Expr expr) {
  OnnxValue value;
  value.kind = Kind::kTensor;
  value.expr = std::move(expr);
  return value;
}

OnnxValue OnnxValue::Host(graph::TensorDataPtr data) {
  OnnxValue value;
  value.kind = Kind::kHost;
  value.host = std::move(data);
  return value;
}

OnnxValue OnnxValue::ShapeValues(std::vector<PrimExpr> values, bool is_scalar) {
  OnnxValue value;
  value.kind = Kind::kShape;
  value.shape = std::move(values);
  value.shape_is_scalar = is_scalar;
  return value;
}

// ---------------------------------------------------------------------------
// Helpers.

std::optional<std::vector<PrimExpr>> ShapeOf(const Expr& expr) {
  auto sinfo = graph::GetStructInfo(expr).as<graph::TensorStructInfoNode>();
  if (!sinfo) return std::nullopt;
  return sinfo->GetShape();
}

int RankOf(const Expr& expr) {
  auto sinfo = graph::GetStructInfo(expr).as<graph::TensorStructInfoNode>();
  return sinfo ? sinfo->ndim : -1;
}

DataType DTypeOf(const Expr& expr) {
  auto sinfo = graph::GetStructInfo(expr).as<graph::TensorStructInfoNode>();
  return sinfo ? sinfo->dtype : DataType::Void();
}

int64_t NormalizeAxis(ConvertContext& ctx, int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank) {
    ctx.Fail("axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
  }
  return axis < 0 ? axis + rank : axis;
}

PrimExpr Int64(int64_t value) { return ir::MakeInt(value); }

PrimExpr Product(const std::vector<PrimExpr>& dims, size_t begin, size_t end) {
  PrimExpr product = Int64(1);
  for (size_t i = begin; i < end; ++i) product = product * dims[i];
  return product;
}

Expr ScalarConstant(DataType dtype, double value) {
  return ConvertContext::ConstantOf(MakeHost(dtype, {}, {value}));
}

Expr ShapeExprOf(std::vector<PrimExpr> dims) { return make<graph::ShapeExprNode>(std::move(dims)); }

// ---------------------------------------------------------------------------
// ConvertContext.

void ConvertContext::Fail(const std::string& message) const {
  std::string name = node_.name().empty() ? (node_.output_size() ? node_.output(0) : "?") : node_.name();
  ThrowError(Span{}, model_name_ + ": node '" + name + "' (" + node_.op_type() + "): " + message);
}

const OnnxValue& ConvertContext::Input(size_t index) const {
  if (!HasInput(index)) Fail("missing input #" + std::to_string(index));
  return inputs_[index];
}

Expr ConvertContext::ConstantOf(const graph::TensorDataPtr& data) { return make<graph::ConstantNode>(data); }

Expr ConvertContext::Materialize(const OnnxValue& value) {
  switch (value.kind) {
    case OnnxValue::Kind::kTensor: return value.expr;
    case OnnxValue::Kind::kHost: return ConstantOf(value.host);
    case OnnxValue::Kind::kShape: break;
    case OnnxValue::Kind::kNone: Fail("an absent value is used as a tensor");
  }
  std::vector<int64_t> dims;
  if (!value.shape_is_scalar) dims.push_back(static_cast<int64_t>(value.shape.size()));
  std::vector<int64_t> ints;
  for (const PrimExpr& element : value.shape) {
    if (auto known = AsConstInt(element)) ints.push_back(*known);
  }
  if (ints.size() == value.shape.size()) return ConstantOf(MakeHostInts(DataType::Int64(), dims, ints));
  std::vector<Expr> pieces;
  for (const PrimExpr& element : value.shape) {
    auto start = make<graph::PrimValueNode>(element);
    auto end = make<graph::PrimValueNode>(Simplify(element + 1));
    auto step = make<graph::PrimValueNode>(Int64(1));
    pieces.push_back(Emit(op::arange(start, end, step, DataType::Int64())));
  }
  Expr vector = pieces.size() == 1 ? pieces[0] : Emit(op::concat(make<graph::TupleNode>(pieces), 0));
  if (value.shape_is_scalar) vector = Emit(op::reshape(vector, ShapeExprOf({})));
  return vector;
}

Expr ConvertContext::TensorInput(size_t index) { return Materialize(Input(index)); }

std::optional<std::vector<int64_t>> ConvertContext::ConstInts(size_t index) const {
  if (!HasInput(index)) return std::nullopt;
  const OnnxValue& value = inputs_[index];
  if (value.kind == OnnxValue::Kind::kHost) return HostAsInts(*value.host);
  if (value.kind == OnnxValue::Kind::kShape) {
    std::vector<int64_t> ints;
    for (const PrimExpr& element : value.shape) {
      auto known = AsConstInt(element);
      if (!known) return std::nullopt;
      ints.push_back(*known);
    }
    return ints;
  }
  if (auto constant = value.expr.as<graph::ConstantNode>()) return HostAsInts(*constant->data);
  return std::nullopt;
}

std::optional<std::vector<double>> ConvertContext::ConstDoubles(size_t index) const {
  if (!HasInput(index)) return std::nullopt;
  const OnnxValue& value = inputs_[index];
  if (value.kind == OnnxValue::Kind::kHost) return HostAsDoubles(*value.host);
  if (value.kind == OnnxValue::Kind::kTensor) {
    if (auto constant = value.expr.as<graph::ConstantNode>()) return HostAsDoubles(*constant->data);
    return std::nullopt;
  }
  auto ints = ConstInts(index);
  if (!ints) return std::nullopt;
  return std::vector<double>(ints->begin(), ints->end());
}

std::vector<int64_t> ConvertContext::RequireInts(size_t index, const std::string& what) const {
  auto ints = ConstInts(index);
  if (!ints) Fail(what + " must be known at import time (a constant or an initializer)");
  return *ints;
}

std::optional<std::vector<PrimExpr>> ConvertContext::ShapeValues(size_t index) const {
  if (!HasInput(index)) return std::nullopt;
  const OnnxValue& value = inputs_[index];
  if (value.kind == OnnxValue::Kind::kShape) return value.shape;
  auto ints = ConstInts(index);
  if (!ints) return std::nullopt;
  std::vector<PrimExpr> values;
  for (int64_t v : *ints) values.push_back(Int64(v));
  return values;
}

std::vector<PrimExpr> ConvertContext::ShapeFromTensor(const Expr& tensor) {
  auto dims = ShapeOf(tensor);
  std::optional<int64_t> length = dims && dims->size() == 1 ? AsConstInt((*dims)[0]) : std::nullopt;
  if (!length) Fail("a shape computed at run time must be a 1-D tensor of static length");
  RLX_ICHECK(fresh_var_ != nullptr) << "no fresh variable maker";
  auto func = make<graph::ExternFuncNode>("vm.builtin.tensor_to_shape");
  Expr shape = Emit(make<graph::CallNode>(graph::GetOp("relax.call_pure_packed"), std::vector<Expr>{func, tensor},
                                          ir::Dict(), std::vector<graph::StructInfo>{graph::ShapeSInfo(static_cast<int>(*length))}));
  std::vector<PrimExpr> values;
  for (int64_t i = 0; i < *length; ++i) values.push_back(fresh_var_());
  builder_.EmitMatchCast(shape, graph::ShapeSInfo(values));
  return values;
}

DataType ConvertContext::InputDType(size_t index) {
  const OnnxValue& value = Input(index);
  if (value.kind == OnnxValue::Kind::kHost) return value.host->dtype;
  if (value.kind == OnnxValue::Kind::kShape) return DataType::Int64();
  return DTypeOf(value.expr);
}

int ConvertContext::InputRank(size_t index) {
  const OnnxValue& value = Input(index);
  if (value.kind == OnnxValue::Kind::kHost) return static_cast<int>(value.host->shape.size());
  if (value.kind == OnnxValue::Kind::kShape) return value.shape_is_scalar ? 0 : 1;
  return RankOf(value.expr);
}

std::vector<PrimExpr> ConvertContext::InputShape(size_t index) {
  const OnnxValue& value = Input(index);
  if (value.kind == OnnxValue::Kind::kHost) {
    std::vector<PrimExpr> dims;
    for (int64_t d : value.host->shape) dims.push_back(Int64(d));
    return dims;
  }
  if (value.kind == OnnxValue::Kind::kShape) {
    if (value.shape_is_scalar) return {};
    return {Int64(static_cast<int64_t>(value.shape.size()))};
  }
  auto dims = ShapeOf(value.expr);
  if (!dims) Fail("the shape of input #" + std::to_string(index) + " is unknown");
  return *dims;
}

bool ConvertContext::HasAttr(const std::string& name) const {
  for (const auto& attr : node_.attribute()) {
    if (attr.name() == name) return true;
  }
  return false;
}

namespace {
const onnx::AttributeProto* FindAttr(const onnx::NodeProto& node, const std::string& name) {
  for (const auto& attr : node.attribute()) {
    if (attr.name() == name) return &attr;
  }
  return nullptr;
}
}  // namespace

int64_t ConvertContext::AttrInt(const std::string& name, int64_t default_value) const {
  const auto* attr = FindAttr(node_, name);
  return attr ? attr->i() : default_value;
}

double ConvertContext::AttrFloat(const std::string& name, double default_value) const {
  const auto* attr = FindAttr(node_, name);
  return attr ? attr->f() : default_value;
}

std::string ConvertContext::AttrString(const std::string& name, const std::string& default_value) const {
  const auto* attr = FindAttr(node_, name);
  return attr ? attr->s() : default_value;
}

std::optional<std::vector<int64_t>> ConvertContext::AttrInts(const std::string& name) const {
  const auto* attr = FindAttr(node_, name);
  if (!attr) return std::nullopt;
  return std::vector<int64_t>(attr->ints().begin(), attr->ints().end());
}

std::optional<std::vector<double>> ConvertContext::AttrFloats(const std::string& name) const {
  const auto* attr = FindAttr(node_, name);
  if (!attr) return std::nullopt;
  return std::vector<double>(attr->floats().begin(), attr->floats().end());
}

const onnx::TensorProto* ConvertContext::AttrTensor(const std::string& name) const {
  const auto* attr = FindAttr(node_, name);
  return attr && attr->has_t() ? &attr->t() : nullptr;
}

graph::TensorDataPtr ConvertContext::AttrTensorData(const std::string& name) const {
  const onnx::TensorProto* tensor = AttrTensor(name);
  if (!tensor) return nullptr;
  return TensorFromProto(*tensor, model_dir_, model_name_);
}

Expr ConvertContext::Emit(const Expr& call) { return builder_.Emit(call); }

Expr ConvertContext::MatchCastToDims(const Expr& tensor, std::vector<PrimExpr> dims) {
  return builder_.EmitMatchCast(tensor, graph::TensorSInfo(std::move(dims), DTypeOf(tensor)));
}

}  // namespace rlx::frontend::onnx_impl
