// layout_transform(x, index_map, pad_value=None, axis_separators=[]): moves
// every element of x to the position the index map gives it,
// out[f(i)] = x[i], e.g.
//   R.layout_transform(x, index_map=T.index_map(lambda i, j: (i // 4, j, i % 4)),
//                      pad_value=None, axis_separators=[])
//
// The index map is stored in the call's attributes as an Array of two
// Arrays: the lambda's parameters (TIR Vars) and the result expressions
// (text/printer and the parser read and write TVM's `T.index_map(lambda
// ...: (...))` form; AttrKind::kIndexMap).
//
// Deduction: x's rank (when known) must equal the number of parameters.
// With x's shape known, each result dimension's extent is the largest value
// its expression takes over the box 0 <= i_k < dim_k, plus one, found
// structurally: a parameter's maximum is dim - 1; sums, products by
// non-negative constants, floordiv and floormod by positive constants
// combine maxima (floormod by c is at most c - 1, exactly c - 1 when the
// operand's maximum is symbolic, as TVM assumes); so i // 4 over a
// dimension of 14 gives 4 and i % 4 gives 4 (padding: 16 > 14 elements). An
// expression outside these forms keeps only the result rank. pad_value, when
// given, is a PrimValue; axis_separators are integers (kept for printing).
//
// Legalization: plain TIR loops (no inverse map is needed) filling the
// output with pad_value (0 when None: TVM leaves padding unspecified), then
// storing out[f(i)] = x[i] over x's domain. Dimensions of x must be
// constants or bare symbolic variables; other calls are left alone.
#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <unordered_map>

#include "manipulate_common.h"
#include "rlx/ir/functor.h"
#include "rlx/op/legalize.h"
#include "rlx/op/manipulate.h"
#include "rlx/tir/stmt.h"

namespace rlx::op {
namespace detail {
namespace {

struct IndexMapValue {
  std::vector<ir::Var> params;
  std::vector<PrimExpr> results;
};

IndexMapValue GetIndexMap(const Call& call) {
  ObjectRef value = call->attrs.defined() ? call->attrs->Get("index_map") : ObjectRef();
  const auto* pair = value.as<ir::ArrayNode>();
  if (pair == nullptr || pair->elements.size() != 2) ThrowOpError(call, "missing or malformed attribute 'index_map'");
  const auto* params = pair->elements[0].as<ir::ArrayNode>();
  const auto* results = pair->elements[1].as<ir::ArrayNode>();
  RLX_ICHECK(params != nullptr && results != nullptr) << "malformed index_map attribute";
  IndexMapValue map;
  for (const ObjectRef& param : params->elements) map.params.push_back(cast<ir::VarNode>(param));
  for (const ObjectRef& result : results->elements) map.results.push_back(cast<ir::PrimExprNode>(result));
  return map;
}

// The largest value `expr` takes when each parameter ranges over
// [0, extent); nullopt outside the supported forms (see the file comment).
std::optional<PrimExpr> UpperBound(arith::Analyzer& analyzer, const PrimExpr& expr,
                                   const std::unordered_map<const ir::VarNode*, PrimExpr>& extents) {
  if (std::optional<int64_t> value = ir::AsConstInt(expr)) {
    if (*value < 0) return std::nullopt;
    return ir::MakeInt(*value);
  }
  if (const auto* var = expr.as<ir::VarNode>()) {
    auto it = extents.find(var);
    if (it == extents.end()) return std::nullopt;
    return AsInt64(it->second) - 1;
  }
  auto positive_constant = [](const PrimExpr& e) {
    std::optional<int64_t> value = ir::AsConstInt(e);
    return value && *value > 0 ? value : std::nullopt;
  };
  if (const auto* add = expr.as<ir::AddNode>()) {
    std::optional<PrimExpr> a = UpperBound(analyzer, add->a, extents), b = UpperBound(analyzer, add->b, extents);
    if (!a || !b) return std::nullopt;
    return *a + *b;
  }
  if (const auto* mul = expr.as<ir::MulNode>()) {
    std::optional<int64_t> c = positive_constant(mul->b);
    const PrimExpr& other = c ? mul->a : mul->b;
    if (!c) c = positive_constant(mul->a);
    std::optional<PrimExpr> bound = c ? UpperBound(analyzer, other, extents) : std::nullopt;
    if (!bound) return std::nullopt;
    return *bound * *c;
  }
  if (const auto* div = expr.as<ir::FloorDivNode>()) {
    std::optional<int64_t> c = positive_constant(div->b);
    std::optional<PrimExpr> bound = c ? UpperBound(analyzer, div->a, extents) : std::nullopt;
    if (!bound) return std::nullopt;
    return ir::floordiv(*bound, *c);
  }
  if (const auto* mod = expr.as<ir::FloorModNode>()) {
    std::optional<int64_t> c = positive_constant(mod->b);
    std::optional<PrimExpr> bound = c ? UpperBound(analyzer, mod->a, extents) : std::nullopt;
    if (!bound) return std::nullopt;
    // A symbolic operand is assumed to span at least c values (as TVM).
    std::optional<int64_t> constant = ir::AsConstInt(analyzer.Simplify(*bound));
    return ir::MakeInt(constant ? std::min(*constant, *c - 1) : *c - 1);
  }
  return std::nullopt;
}

std::optional<Shape> MappedShape(arith::Analyzer& analyzer, const IndexMapValue& map, const Shape& shape) {
  std::unordered_map<const ir::VarNode*, PrimExpr> extents;
  for (size_t i = 0; i < map.params.size(); ++i) extents[map.params[i].get()] = shape[i];
  Shape result;
  for (const PrimExpr& expr : map.results) {
    std::optional<PrimExpr> bound = UpperBound(analyzer, expr, extents);
    if (!bound) return std::nullopt;
    result.push_back(analyzer.Simplify(*bound + 1));
  }
  return result;
}

StructInfo InferLayoutTransform(const Call& call, BlockBuilder& builder) {
  CheckNumArgs(call, 1);
  TensorStructInfo x = TensorArg(call, 0);
  IndexMapValue map = GetIndexMap(call);
  int in_ndim = static_cast<int>(map.params.size());
  int out_ndim = static_cast<int>(map.results.size());
  if (!x->IsUnknownNdim() && x->ndim != in_ndim) {
    ThrowOpError(call, fmt::format("the index map takes {} indices but the tensor has rank {}", in_ndim, x->ndim));
  }
  ObjectRef pad = call->attrs.defined() ? call->attrs->Get("pad_value") : ObjectRef();
  if (pad.defined() && !pad.isa<graph::PrimValueNode>()) ThrowOpError(call, "pad_value must be a PrimValue or None");
  GetOptionalIntListAttr(call, "axis_separators");
  std::optional<Shape> shape = x->GetShape();
  if (!shape) return graph::TensorSInfo(x->dtype, out_ndim);
  std::optional<Shape> mapped = MappedShape(builder.analyzer(), map, *shape);
  return TensorOrRank(builder.analyzer(), mapped, x->dtype, out_ndim);
}

// ---------------------------------------------------------------------------
// Legalization

tir::Stmt Loops(const Shape& extents, const std::string& prefix,
                const std::function<tir::Stmt(const std::vector<PrimExpr>&)>& body) {
  std::vector<ir::Var> vars;
  for (size_t d = 0; d < extents.size(); ++d) vars.push_back(ir::MakeVar(fmt::format("{}{}", prefix, d)));
  tir::Stmt stmt = body(std::vector<PrimExpr>(vars.begin(), vars.end()));
  for (size_t d = extents.size(); d-- > 0;) {
    auto* loop = new tir::ForNode();
    loop->loop_var = vars[d];
    loop->min = ir::MakeInt(0);
    loop->extent = AsInt64(extents[d]);
    loop->body = stmt;
    stmt = tir::Stmt(loop);
  }
  return stmt;
}

// Renames bare symbolic dims to fresh PrimFunc variables; nullopt for any
// other non-constant dim.
std::optional<Shape> RenameDims(const Shape& shape, std::unordered_map<const ir::VarNode*, ir::Var>& fresh) {
  Shape renamed;
  for (const PrimExpr& dim : shape) {
    if (ir::AsConstInt(dim)) {
      renamed.push_back(AsInt64(dim));
      continue;
    }
    const auto* var = dim.as<ir::VarNode>();
    if (var == nullptr) return std::nullopt;
    auto it = fresh.find(var);
    if (it == fresh.end()) it = fresh.emplace(var, ir::MakeVar(var->name_hint, var->dtype)).first;
    renamed.push_back(it->second);
  }
  return renamed;
}

PrimExpr PadValue(const Call& call, DataType dtype) {
  ObjectRef pad = call->attrs.defined() ? call->attrs->Get("pad_value") : ObjectRef();
  PrimExpr value = pad.defined() ? pad.as<graph::PrimValueNode>()->value : PrimExpr(ir::MakeInt(0));
  if (value->dtype == dtype) return value;
  return ir::cast(dtype, value);
}

graph::Expr LegalizeLayoutTransform(BlockBuilder& builder, const Call& call) {
  TensorStructInfo x = TensorArg(call, 0);
  const auto* out = graph::GetStructInfo(call).as<graph::TensorStructInfoNode>();
  std::optional<Shape> in_shape = x->GetShape();
  if (out == nullptr || !in_shape || x->IsUnknownDtype() || !out->GetShape()) return call;
  std::unordered_map<const ir::VarNode*, ir::Var> fresh;
  std::optional<Shape> in_dims = RenameDims(*in_shape, fresh);
  if (!in_dims) return call;
  IndexMapValue map = GetIndexMap(call);
  arith::Analyzer analyzer;
  std::optional<Shape> out_dims = MappedShape(analyzer, map, *in_dims);
  if (!out_dims) return call;
  ir::Buffer input = ir::MakeBuffer("x", *in_dims, x->dtype);
  ir::Buffer output = ir::MakeBuffer("T_layout_trans", *out_dims, x->dtype);
  PrimExpr pad = PadValue(call, x->dtype);
  tir::Stmt fill = Loops(*out_dims, "i", [&](const std::vector<PrimExpr>& index) {
    return tir::Stmt(make<tir::BufferStoreNode>(output, pad, index));
  });
  tir::Stmt move = Loops(*in_dims, "j", [&](const std::vector<PrimExpr>& index) {
    std::unordered_map<const ir::VarNode*, PrimExpr> binding;
    for (size_t k = 0; k < map.params.size(); ++k) binding[map.params[k].get()] = index[k];
    std::vector<PrimExpr> target;
    for (const PrimExpr& result : map.results) {
      target.push_back(analyzer.Simplify(AsInt64(ir::Substitute(result, [&](const ir::Var& var) -> PrimExpr {
        auto it = binding.find(var.get());
        return it == binding.end() ? PrimExpr() : it->second;
      }))));
    }
    return tir::Stmt(make<tir::BufferStoreNode>(output, make<ir::BufferLoadNode>(input, index), target));
  });
  auto* func = new tir::PrimFuncNode();
  for (const ir::Buffer& buffer : {input, output}) {
    ir::Var handle = ir::MakeVar("var_" + buffer->name, DataType::Handle());
    func->params.push_back(handle);
    func->buffer_map.emplace_back(handle, buffer);
  }
  func->body = tir::MakeSeq({fill, move});
  func->attrs = ir::DictWith(nullptr, "tir.noalias", ir::MakeBool(true));
  func->is_private = true;
  graph::GlobalVar gv = AddPrimFuncShared(builder, tir::PrimFunc(func), "te_layout_transform");
  return graph::MakeCall("relax.call_tir", {gv, make<graph::TupleNode>(std::vector<graph::Expr>{call->args[0]})},
                         nullptr, {graph::GetStructInfo(call)});
}

}  // namespace

void RegisterLayoutTransformOp() {
  graph::OpInfo info = MakeOpInfo("layout_transform", {"x"}, InferLayoutTransform, graph::OpPatternKind::kInjective,
                                  {{"index_map", graph::AttrKind::kIndexMap, ObjectRef()},
                                   {"pad_value", graph::AttrKind::kOptionalPrimValue, ObjectRef()},
                                   {"axis_separators", graph::AttrKind::kIntList, IntListAttr({})}});
  info.legalize = LegalizeLayoutTransform;
  graph::RegisterOp(std::move(info));
}

}  // namespace detail

Call layout_transform(Expr x, std::vector<ir::Var> index_params, std::vector<ir::PrimExpr> index_results,
                      std::optional<ir::PrimExpr> pad_value, std::vector<int64_t> axis_separators) {
  std::vector<ObjectRef> params(index_params.begin(), index_params.end());
  std::vector<ObjectRef> results(index_results.begin(), index_results.end());
  ObjectRef map = make<ir::ArrayNode>(std::vector<ObjectRef>{make<ir::ArrayNode>(std::move(params)),
                                                             make<ir::ArrayNode>(std::move(results))});
  ir::Dict attrs = ir::DictWith(nullptr, "index_map", map);
  if (pad_value) attrs = ir::DictWith(attrs, "pad_value", make<graph::PrimValueNode>(*pad_value));
  attrs = ir::DictWith(attrs, "axis_separators", detail::IntListAttr(axis_separators));
  return detail::MakeOpCall("layout_transform", {std::move(x)}, std::move(attrs));
}

}  // namespace rlx::op
