// Struct-info analysis (see include/rlx/graph/struct_info_analysis.h).
//
// Design: each operation is a small recursive function over the struct-info
// kinds (Object, Prim, Shape, Tensor, Tuple, Callable), one helper per kind,
// after the structure of Apache TVM's struct_info_analysis.cc:
// - the base check compares field by field and combines results with min(),
//   so the weakest part decides (a provable dimension mismatch anywhere makes
//   the whole check kFailL0);
// - LCA keeps a field only when both sides provably agree on it;
// - erasure, substitution and var collection walk the symbolic expressions
//   inside Prim values, Shape values and Tensor shapes.
// Rebuilding functions return the input node itself when nothing changed, so
// callers can test `same_as` to detect changes and sharing is preserved.
//
// Call deduction (DeriveCallRetStructInfo) is done in two phases rather than
// TVM's single pass: first every bare symbolic dimension of the parameters is
// bound to the argument's expression, then each parameter with the bindings
// substituted is checked against its argument. That way a compound dimension
// (`n * 2`) is checked with `n` bound even if `n` is bound by a later
// parameter.
#include "rlx/graph/struct_info_analysis.h"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "rlx/graph/block_builder.h"
#include "rlx/ir/functor.h"
#include "rlx/support/diagnostic.h"

namespace rlx::graph {
namespace {

using Result = BaseCheckResult;

Result Combine(Result a, Result b) { return std::min(a, b); }

// Builds a node of type T, copying `span` onto it before it is shared.
template <typename T, typename... Args>
StructInfo MakeWithSpan(const Span& span, Args&&... args) {
  auto* node = new T(std::forward<Args>(args)...);
  node->span = span;
  return StructInfo(node);
}

// The dimensions of a shape expression: a ShapeExpr's values, or the values
// of whatever Shape struct info the expression carries.
std::optional<std::vector<PrimExpr>> ShapeValuesOf(const Expr& shape) {
  if (!shape.defined()) return std::nullopt;
  if (const auto* expr = shape.as<ShapeExprNode>()) return expr->values;
  if (const auto* sinfo = shape->struct_info.as<ShapeStructInfoNode>()) return sinfo->values;
  return std::nullopt;
}

// ---------------------------------------------------------------------------
// Base check.

bool ProvablyDifferent(const PrimExpr& a, const PrimExpr& b, arith::Analyzer& ana) {
  auto ca = ir::AsConstInt(a), cb = ir::AsConstInt(b);
  if (ca && cb) return *ca != *cb;
  return ana.CanProve(ir::ne(a, b));
}

Result PrimExprMatch(const PrimExpr& base, const PrimExpr& derived, arith::Analyzer& ana) {
  if (base.same_as(derived)) return Result::kPass;
  auto cb = ir::AsConstInt(base), cd = ir::AsConstInt(derived);
  if (cb && cd) return *cb == *cd ? Result::kPass : Result::kFailL0;
  if (ana.CanProveEqual(base, derived)) return Result::kPass;
  if (ProvablyDifferent(base, derived, ana)) return Result::kFailL0;
  return Result::kFailL2;
}

Result PrimArrayMatch(const std::vector<PrimExpr>& base, const std::vector<PrimExpr>& derived, arith::Analyzer& ana) {
  if (base.size() != derived.size()) return Result::kFailL0;
  Result result = Result::kPass;
  for (size_t i = 0; i < base.size(); ++i) result = Combine(result, PrimExprMatch(base[i], derived[i], ana));
  return result;
}

Result ShapeExprMatch(const Expr& base, const Expr& derived, arith::Analyzer& ana) {
  if (base.same_as(derived)) return Result::kPass;
  auto base_values = ShapeValuesOf(base);
  auto derived_values = ShapeValuesOf(derived);
  if (base_values && derived_values) return PrimArrayMatch(*base_values, *derived_values, ana);
  return Result::kFailL2;
}

// A `derived` of the wrong kind: Object might still hold the right value.
Result KindMismatch(const StructInfo& derived) {
  return derived.isa<ObjectStructInfoNode>() ? Result::kFailL1 : Result::kFailL0;
}

Result BaseCheck(const StructInfo& base, const StructInfo& derived, arith::Analyzer& ana);

Result PrimBaseCheck(const PrimStructInfoNode* base, const StructInfo& derived, arith::Analyzer& ana) {
  const auto* prim = derived.as<PrimStructInfoNode>();
  if (prim == nullptr) return KindMismatch(derived);
  if (!base->dtype.is_void() && base->dtype != prim->dtype) {
    return prim->dtype.is_void() ? Result::kFailL1 : Result::kFailL0;
  }
  if (!base->value.defined()) return Result::kPass;
  if (!prim->value.defined()) return Result::kFailL2;
  return PrimExprMatch(base->value, prim->value, ana);
}

Result ShapeBaseCheck(const ShapeStructInfoNode* base, const StructInfo& derived, arith::Analyzer& ana) {
  const auto* shape = derived.as<ShapeStructInfoNode>();
  if (shape == nullptr) return KindMismatch(derived);
  if (base->ndim != -1 && base->ndim != shape->ndim) {
    return shape->ndim == -1 ? Result::kFailL1 : Result::kFailL0;
  }
  if (!base->values) return Result::kPass;
  if (!shape->values) return Result::kFailL2;
  return PrimArrayMatch(*base->values, *shape->values, ana);
}

Result TensorBaseCheck(const TensorStructInfoNode* base, const StructInfo& derived, arith::Analyzer& ana) {
  const auto* tensor = derived.as<TensorStructInfoNode>();
  if (tensor == nullptr) return KindMismatch(derived);
  if (!base->IsUnknownDtype() && base->dtype != tensor->dtype) {
    return tensor->IsUnknownDtype() ? Result::kFailL1 : Result::kFailL0;
  }
  if (!base->IsUnknownNdim() && base->ndim != tensor->ndim) {
    return tensor->IsUnknownNdim() ? Result::kFailL1 : Result::kFailL0;
  }
  if (!base->shape.defined()) return Result::kPass;
  if (!tensor->shape.defined()) return Result::kFailL2;
  return ShapeExprMatch(base->shape, tensor->shape, ana);
}

Result TupleBaseCheck(const TupleStructInfoNode* base, const StructInfo& derived, arith::Analyzer& ana) {
  const auto* tuple = derived.as<TupleStructInfoNode>();
  if (tuple == nullptr) return KindMismatch(derived);
  if (base->fields.size() != tuple->fields.size()) return Result::kFailL0;
  Result result = Result::kPass;
  for (size_t i = 0; i < base->fields.size(); ++i) {
    result = Combine(result, BaseCheck(base->fields[i], tuple->fields[i], ana));
  }
  return result;
}

// Parameters are contravariant: a function accepting more is a valid base.
Result FuncBaseCheck(const FuncStructInfoNode* base, const StructInfo& derived, arith::Analyzer& ana) {
  const auto* func = derived.as<FuncStructInfoNode>();
  if (func == nullptr) return KindMismatch(derived);
  if (base->purity && !func->purity) return Result::kFailL0;
  if (!base->params) return BaseCheck(base->ret, func->ret, ana);
  if (!func->params) return Result::kFailL2;
  if (base->params->size() != func->params->size()) return Result::kFailL0;
  Result result = BaseCheck(base->ret, func->ret, ana);
  for (size_t i = 0; i < base->params->size(); ++i) {
    result = Combine(result, BaseCheck((*func->params)[i], (*base->params)[i], ana));
  }
  return result;
}

Result BaseCheck(const StructInfo& base, const StructInfo& derived, arith::Analyzer& ana) {
  RLX_ICHECK(base.defined() && derived.defined()) << "base check on undefined struct info";
  if (base.same_as(derived)) return Result::kPass;
  if (base.isa<ObjectStructInfoNode>()) return Result::kPass;
  if (const auto* prim = base.as<PrimStructInfoNode>()) return PrimBaseCheck(prim, derived, ana);
  if (const auto* shape = base.as<ShapeStructInfoNode>()) return ShapeBaseCheck(shape, derived, ana);
  if (const auto* tensor = base.as<TensorStructInfoNode>()) return TensorBaseCheck(tensor, derived, ana);
  if (const auto* tuple = base.as<TupleStructInfoNode>()) return TupleBaseCheck(tuple, derived, ana);
  if (const auto* func = base.as<FuncStructInfoNode>()) return FuncBaseCheck(func, derived, ana);
  RLX_UNREACHABLE() << "unknown struct info kind " << NodeKindName(base->kind());
}

// ---------------------------------------------------------------------------
// Least upper bound.

bool CanProveArrayEqual(const std::vector<PrimExpr>& a, const std::vector<PrimExpr>& b, arith::Analyzer& ana) {
  return PrimArrayMatch(a, b, ana) == Result::kPass;
}

bool CanProveShapeEqual(const Expr& a, const Expr& b, arith::Analyzer& ana) {
  if (a.same_as(b)) return true;
  auto va = ShapeValuesOf(a), vb = ShapeValuesOf(b);
  return va && vb && CanProveArrayEqual(*va, *vb, ana);
}

StructInfo LCA(const StructInfo& a, const StructInfo& b, arith::Analyzer& ana);

StructInfo PrimLCA(const PrimStructInfoNode* a, const StructInfo& self, const PrimStructInfoNode* b,
                   arith::Analyzer& ana) {
  if (a->dtype != b->dtype) return MakeWithSpan<ObjectStructInfoNode>(a->span);
  if (!a->value.defined()) return self;
  if (b->value.defined() && PrimExprMatch(a->value, b->value, ana) == Result::kPass) return self;
  return MakeWithSpan<PrimStructInfoNode>(a->span, a->dtype);
}

StructInfo ShapeLCA(const ShapeStructInfoNode* a, const StructInfo& self, const ShapeStructInfoNode* b,
                    arith::Analyzer& ana) {
  if (a->ndim != b->ndim) return MakeWithSpan<ShapeStructInfoNode>(a->span, -1);
  if (!a->values) return self;
  if (b->values && CanProveArrayEqual(*a->values, *b->values, ana)) return self;
  return MakeWithSpan<ShapeStructInfoNode>(a->span, a->ndim);
}

StructInfo TensorLCA(const TensorStructInfoNode* a, const StructInfo& self, const TensorStructInfoNode* b,
                     arith::Analyzer& ana) {
  DataType dtype = a->dtype == b->dtype ? a->dtype : DataType::Void();
  int ndim = a->ndim == b->ndim ? a->ndim : -1;
  bool keep_shape = a->ndim == b->ndim && a->shape.defined() && b->shape.defined() &&
                    CanProveShapeEqual(a->shape, b->shape, ana);
  if (!keep_shape) {
    if (!a->shape.defined() && a->dtype == dtype && a->ndim == ndim) return self;
    return MakeWithSpan<TensorStructInfoNode>(a->span, dtype, ndim);
  }
  if (a->dtype != dtype) return MakeWithSpan<TensorStructInfoNode>(a->span, a->shape, dtype);
  return self;
}

StructInfo TupleLCA(const TupleStructInfoNode* a, const StructInfo& self, const TupleStructInfoNode* b,
                    arith::Analyzer& ana) {
  if (a->fields.size() != b->fields.size()) return MakeWithSpan<ObjectStructInfoNode>(a->span);
  std::vector<StructInfo> fields;
  bool changed = false;
  for (size_t i = 0; i < a->fields.size(); ++i) {
    fields.push_back(LCA(a->fields[i], b->fields[i], ana));
    changed |= !fields.back().same_as(a->fields[i]);
  }
  if (!changed) return self;
  return MakeWithSpan<TupleStructInfoNode>(a->span, std::move(fields));
}

bool SameParams(const std::vector<StructInfo>& a, const std::vector<StructInfo>& b, arith::Analyzer& ana) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (BaseCheck(a[i], b[i], ana) != Result::kPass || BaseCheck(b[i], a[i], ana) != Result::kPass) return false;
  }
  return true;
}

StructInfo FuncLCA(const FuncStructInfoNode* a, const StructInfo& self, const FuncStructInfoNode* b,
                   arith::Analyzer& ana) {
  bool purity = a->purity && b->purity;
  StructInfo ret = LCA(a->ret, b->ret, ana);
  if (!a->params || !b->params || !SameParams(*a->params, *b->params, ana)) {
    if (!a->params && ret.same_as(a->ret) && purity == a->purity) return self;
    FuncStructInfo opaque = FuncStructInfoNode::Opaque(ret, purity);
    const_cast<FuncStructInfoNode*>(opaque.get())->span = a->span;
    return opaque;
  }
  if (ret.same_as(a->ret) && purity == a->purity) return self;
  return MakeWithSpan<FuncStructInfoNode>(a->span, *a->params, ret, purity);
}

StructInfo LCA(const StructInfo& a, const StructInfo& b, arith::Analyzer& ana) {
  RLX_ICHECK(a.defined() && b.defined()) << "LCA of undefined struct info";
  if (a.same_as(b) || a.isa<ObjectStructInfoNode>()) return a;
  if (a->kind() != b->kind()) return MakeWithSpan<ObjectStructInfoNode>(a->span);
  if (const auto* prim = a.as<PrimStructInfoNode>()) return PrimLCA(prim, a, b.as<PrimStructInfoNode>(), ana);
  if (const auto* shape = a.as<ShapeStructInfoNode>()) return ShapeLCA(shape, a, b.as<ShapeStructInfoNode>(), ana);
  if (const auto* tensor = a.as<TensorStructInfoNode>()) {
    return TensorLCA(tensor, a, b.as<TensorStructInfoNode>(), ana);
  }
  if (const auto* tuple = a.as<TupleStructInfoNode>()) return TupleLCA(tuple, a, b.as<TupleStructInfoNode>(), ana);
  if (const auto* func = a.as<FuncStructInfoNode>()) return FuncLCA(func, a, b.as<FuncStructInfoNode>(), ana);
  RLX_UNREACHABLE() << "unknown struct info kind " << NodeKindName(a->kind());
}

// ---------------------------------------------------------------------------
// Symbolic var collection.

class TIRVarCollector {
 public:
  explicit TIRVarCollector(bool definable_only) : definable_only_(definable_only) {}

  void Visit(const StructInfo& sinfo) {
    if (!sinfo.defined()) return;
    if (const auto* prim = sinfo.as<PrimStructInfoNode>()) {
      if (prim->value.defined()) VisitPrimExpr(prim->value);
    } else if (const auto* shape = sinfo.as<ShapeStructInfoNode>()) {
      if (shape->values) VisitPrimExprs(*shape->values);
    } else if (const auto* tensor = sinfo.as<TensorStructInfoNode>()) {
      if (const auto* shape_expr = tensor->shape.as<ShapeExprNode>()) VisitPrimExprs(shape_expr->values);
    } else if (const auto* tuple = sinfo.as<TupleStructInfoNode>()) {
      for (const StructInfo& field : tuple->fields) Visit(field);
    } else if (const auto* func = sinfo.as<FuncStructInfoNode>()) {
      if (definable_only_) return;  // a callable value defines no symbolic var
      if (func->params) {
        for (const StructInfo& param : *func->params) Visit(param);
      }
      Visit(func->ret);
    }
  }

  std::vector<ir::Var> TakeVars() { return std::move(vars_); }

 private:
  void VisitPrimExprs(const std::vector<PrimExpr>& exprs) {
    for (const PrimExpr& expr : exprs) VisitPrimExpr(expr);
  }

  void VisitPrimExpr(const PrimExpr& expr) {
    if (definable_only_) {
      if (expr.isa<ir::VarNode>()) Record(cast<ir::VarNode>(expr));
      return;
    }
    ir::PostOrderVisit(expr, [this](const PrimExpr& sub) {
      if (sub.isa<ir::VarNode>()) Record(cast<ir::VarNode>(sub));
    });
  }

  void Record(const ir::Var& var) {
    if (seen_.insert(var.get()).second) vars_.push_back(var);
  }

  bool definable_only_;
  std::vector<ir::Var> vars_;
  std::unordered_set<const ir::VarNode*> seen_;
};

// ---------------------------------------------------------------------------
// Erasure.

class WellDefinedEraser {
 public:
  WellDefinedEraser(std::function<bool(const ir::Var&)> sym_defined, std::function<bool(const Var&)> relax_defined)
      : sym_defined_(std::move(sym_defined)), relax_defined_(std::move(relax_defined)) {}

  StructInfo Erase(const StructInfo& sinfo) {
    if (const auto* prim = sinfo.as<PrimStructInfoNode>()) {
      if (!prim->value.defined() || WellDefined(prim->value)) return sinfo;
      return MakeWithSpan<PrimStructInfoNode>(prim->span, prim->dtype);
    }
    if (const auto* shape = sinfo.as<ShapeStructInfoNode>()) {
      if (!shape->values || WellDefined(*shape->values)) return sinfo;
      return MakeWithSpan<ShapeStructInfoNode>(shape->span, shape->ndim);
    }
    if (const auto* tensor = sinfo.as<TensorStructInfoNode>()) return EraseTensor(tensor, sinfo);
    if (const auto* tuple = sinfo.as<TupleStructInfoNode>()) return EraseTuple(tuple, sinfo);
    if (const auto* func = sinfo.as<FuncStructInfoNode>()) return EraseFunc(func, sinfo);
    return sinfo;
  }

 private:
  bool SymDefined(const ir::Var& var) const {
    return local_.count(var.get()) > 0 || !sym_defined_ || sym_defined_(var);
  }

  bool WellDefined(const PrimExpr& expr) const {
    bool ok = true;
    ir::PostOrderVisit(expr, [&](const PrimExpr& sub) {
      if (sub.isa<ir::VarNode>() && !SymDefined(cast<ir::VarNode>(sub))) ok = false;
    });
    return ok;
  }

  bool WellDefined(const std::vector<PrimExpr>& exprs) const {
    return std::all_of(exprs.begin(), exprs.end(), [this](const PrimExpr& e) { return WellDefined(e); });
  }

  StructInfo EraseTensor(const TensorStructInfoNode* tensor, const StructInfo& self) {
    if (!tensor->shape.defined()) return self;
    if (tensor->shape.isa<VarNode>()) {
      if (!relax_defined_ || relax_defined_(cast<VarNode>(tensor->shape))) return self;
      auto values = ShapeValuesOf(tensor->shape);
      if (values && WellDefined(*values)) {
        return MakeWithSpan<TensorStructInfoNode>(tensor->span, make<ShapeExprNode>(*values), tensor->dtype);
      }
      return MakeWithSpan<TensorStructInfoNode>(tensor->span, tensor->dtype, tensor->ndim);
    }
    auto values = ShapeValuesOf(tensor->shape);
    if (values && WellDefined(*values)) return self;
    return MakeWithSpan<TensorStructInfoNode>(tensor->span, tensor->dtype, tensor->ndim);
  }

  StructInfo EraseTuple(const TupleStructInfoNode* tuple, const StructInfo& self) {
    std::vector<StructInfo> fields;
    bool changed = false;
    for (const StructInfo& field : tuple->fields) {
      fields.push_back(Erase(field));
      changed |= !fields.back().same_as(field);
    }
    if (!changed) return self;
    return MakeWithSpan<TupleStructInfoNode>(tuple->span, std::move(fields));
  }

  // The callable's own parameters define their symbolic vars inside it.
  StructInfo EraseFunc(const FuncStructInfoNode* func, const StructInfo& self) {
    std::vector<const ir::VarNode*> added;
    if (func->params) {
      for (const StructInfo& param : *func->params) {
        for (const ir::Var& var : DefinableTIRVarsInStructInfo(param)) {
          if (local_.insert(var.get()).second) added.push_back(var.get());
        }
      }
    }
    bool changed = false;
    std::vector<StructInfo> params;
    if (func->params) {
      for (const StructInfo& param : *func->params) {
        params.push_back(Erase(param));
        changed |= !params.back().same_as(param);
      }
    }
    StructInfo ret = Erase(func->ret);
    changed |= !ret.same_as(func->ret);
    for (const ir::VarNode* var : added) local_.erase(var);
    if (!changed) return self;
    if (!func->params) {
      FuncStructInfo opaque = FuncStructInfoNode::Opaque(ret, func->purity);
      const_cast<FuncStructInfoNode*>(opaque.get())->span = func->span;
      return opaque;
    }
    return MakeWithSpan<FuncStructInfoNode>(func->span, std::move(params), ret, func->purity);
  }

  std::function<bool(const ir::Var&)> sym_defined_;
  std::function<bool(const Var&)> relax_defined_;
  std::unordered_set<const ir::VarNode*> local_;
};

// ---------------------------------------------------------------------------
// Substitution.

class StructInfoSubstituter {
 public:
  StructInfoSubstituter(const std::function<PrimExpr(const ir::Var&)>& fmap, arith::Analyzer& ana)
      : fmap_(fmap), ana_(ana) {}

  StructInfo Visit(const StructInfo& sinfo) {
    if (const auto* prim = sinfo.as<PrimStructInfoNode>()) {
      if (!prim->value.defined()) return sinfo;
      PrimExpr value = Substitute(prim->value);
      if (value.same_as(prim->value)) return sinfo;
      return MakeWithSpan<PrimStructInfoNode>(prim->span, prim->dtype, value);
    }
    if (const auto* shape = sinfo.as<ShapeStructInfoNode>()) {
      if (!shape->values) return sinfo;
      bool changed = false;
      std::vector<PrimExpr> values = Substitute(*shape->values, &changed);
      if (!changed) return sinfo;
      return MakeWithSpan<ShapeStructInfoNode>(shape->span, std::move(values));
    }
    if (const auto* tensor = sinfo.as<TensorStructInfoNode>()) return VisitTensor(tensor, sinfo);
    if (const auto* tuple = sinfo.as<TupleStructInfoNode>()) return VisitTuple(tuple, sinfo);
    if (const auto* func = sinfo.as<FuncStructInfoNode>()) return VisitFunc(func, sinfo);
    return sinfo;
  }

 private:
  PrimExpr Substitute(const PrimExpr& expr) {
    PrimExpr result = ir::Substitute(expr, fmap_);
    if (result.same_as(expr)) return expr;
    return ana_.Simplify(result);
  }

  std::vector<PrimExpr> Substitute(const std::vector<PrimExpr>& exprs, bool* changed) {
    std::vector<PrimExpr> result;
    for (const PrimExpr& expr : exprs) {
      result.push_back(Substitute(expr));
      *changed |= !result.back().same_as(expr);
    }
    return result;
  }

  StructInfo VisitTensor(const TensorStructInfoNode* tensor, const StructInfo& self) {
    const auto* shape_expr = tensor->shape.as<ShapeExprNode>();
    if (shape_expr == nullptr) return self;
    bool changed = false;
    std::vector<PrimExpr> values = Substitute(shape_expr->values, &changed);
    if (!changed) return self;
    auto new_shape = make<ShapeExprNode>(std::move(values));
    const_cast<ShapeExprNode*>(new_shape.get())->span = shape_expr->span;
    return MakeWithSpan<TensorStructInfoNode>(tensor->span, Expr(new_shape), tensor->dtype);
  }

  StructInfo VisitTuple(const TupleStructInfoNode* tuple, const StructInfo& self) {
    std::vector<StructInfo> fields;
    bool changed = false;
    for (const StructInfo& field : tuple->fields) {
      fields.push_back(Visit(field));
      changed |= !fields.back().same_as(field);
    }
    if (!changed) return self;
    return MakeWithSpan<TupleStructInfoNode>(tuple->span, std::move(fields));
  }

  StructInfo VisitFunc(const FuncStructInfoNode* func, const StructInfo& self) {
    StructInfo ret = Visit(func->ret);
    bool changed = !ret.same_as(func->ret);
    std::vector<StructInfo> params;
    if (func->params) {
      for (const StructInfo& param : *func->params) {
        params.push_back(Visit(param));
        changed |= !params.back().same_as(param);
      }
    }
    if (!changed) return self;
    if (!func->params) {
      FuncStructInfo opaque = FuncStructInfoNode::Opaque(ret, func->purity);
      const_cast<FuncStructInfoNode*>(opaque.get())->span = func->span;
      return opaque;
    }
    return MakeWithSpan<FuncStructInfoNode>(func->span, std::move(params), ret, func->purity);
  }

  const std::function<PrimExpr(const ir::Var&)>& fmap_;
  arith::Analyzer& ana_;
};

// ---------------------------------------------------------------------------
// Call deduction.

using VarBindings = std::unordered_map<const ir::VarNode*, PrimExpr>;

// Binds `param_dim` to `arg_dim` when it is a bare var not yet bound.
void BindDim(const PrimExpr& param_dim, const PrimExpr& arg_dim, VarBindings& bindings) {
  const auto* var = param_dim.as<ir::VarNode>();
  if (var == nullptr || bindings.count(var)) return;
  bindings.emplace(var, ir::cast(var->dtype, arg_dim));
}

void BindDims(const std::optional<std::vector<PrimExpr>>& param_dims,
              const std::optional<std::vector<PrimExpr>>& arg_dims, VarBindings& bindings) {
  if (!param_dims || !arg_dims || param_dims->size() != arg_dims->size()) return;
  for (size_t i = 0; i < param_dims->size(); ++i) BindDim((*param_dims)[i], (*arg_dims)[i], bindings);
}

// Phase 1: walks a parameter and its argument in parallel, binding the
// parameter's bare symbolic dimensions.
void BindParam(const StructInfo& param, const StructInfo& arg, VarBindings& bindings) {
  if (const auto* prim = param.as<PrimStructInfoNode>()) {
    const auto* arg_prim = arg.as<PrimStructInfoNode>();
    if (prim->value.defined() && arg_prim && arg_prim->value.defined()) {
      BindDim(prim->value, arg_prim->value, bindings);
    }
  } else if (const auto* shape = param.as<ShapeStructInfoNode>()) {
    if (const auto* arg_shape = arg.as<ShapeStructInfoNode>()) BindDims(shape->values, arg_shape->values, bindings);
  } else if (const auto* tensor = param.as<TensorStructInfoNode>()) {
    if (const auto* arg_tensor = arg.as<TensorStructInfoNode>()) {
      BindDims(tensor->GetShape(), arg_tensor->GetShape(), bindings);
    }
  } else if (const auto* tuple = param.as<TupleStructInfoNode>()) {
    const auto* arg_tuple = arg.as<TupleStructInfoNode>();
    if (arg_tuple == nullptr) return;
    size_t n = std::min(tuple->fields.size(), arg_tuple->fields.size());
    for (size_t i = 0; i < n; ++i) BindParam(tuple->fields[i], arg_tuple->fields[i], bindings);
  }
}

std::string CalleeName(const Call& call) {
  if (const auto* gv = call->op.as<GlobalVarNode>()) return gv->name_hint;
  if (const auto* var = call->op.as<VarNode>()) return var->name_hint;
  if (const auto* ext = call->op.as<ExternFuncNode>()) return ext->global_symbol;
  if (const auto* op = call->op.as<OpNode>()) return op->name;
  return "the callee";
}

StructInfo ArgStructInfo(const Expr& arg) {
  return arg->struct_info.defined() ? arg->struct_info : ObjectSInfo();
}

}  // namespace

const char* BaseCheckResultName(BaseCheckResult result) {
  switch (result) {
    case BaseCheckResult::kFailL0: return "fail-L0";
    case BaseCheckResult::kFailL1: return "fail-L1";
    case BaseCheckResult::kFailL2: return "fail-L2";
    case BaseCheckResult::kPass: return "pass";
  }
  return "?";
}

BaseCheckResult StructInfoBaseCheck(const StructInfo& base, const StructInfo& derived, arith::Analyzer& ana) {
  return BaseCheck(base, derived, ana);
}

bool IsBaseOf(const StructInfo& base, const StructInfo& derived, arith::Analyzer& ana) {
  return BaseCheck(base, derived, ana) == BaseCheckResult::kPass;
}

StructInfo StructInfoLCA(const StructInfo& a, const StructInfo& b, arith::Analyzer& ana) { return LCA(a, b, ana); }

StructInfo EraseToWellDefined(const StructInfo& sinfo, std::function<bool(const ir::Var&)> sym_var_defined,
                              std::function<bool(const Var&)> relax_var_defined) {
  RLX_ICHECK(sinfo.defined()) << "erasing undefined struct info";
  return WellDefinedEraser(std::move(sym_var_defined), std::move(relax_var_defined)).Erase(sinfo);
}

std::vector<ir::Var> DefinableTIRVarsInStructInfo(const StructInfo& sinfo) {
  TIRVarCollector collector(/*definable_only=*/true);
  collector.Visit(sinfo);
  return collector.TakeVars();
}

std::vector<ir::Var> TIRVarsInStructInfo(const StructInfo& sinfo) {
  TIRVarCollector collector(/*definable_only=*/false);
  collector.Visit(sinfo);
  return collector.TakeVars();
}

StructInfo SubstituteStructInfo(const StructInfo& sinfo, const std::function<PrimExpr(const ir::Var&)>& fmap,
                                arith::Analyzer* ana) {
  RLX_ICHECK(sinfo.defined()) << "substituting into undefined struct info";
  if (ana != nullptr) return StructInfoSubstituter(fmap, *ana).Visit(sinfo);
  arith::Analyzer local;
  return StructInfoSubstituter(fmap, local).Visit(sinfo);
}

StructInfo DeriveCallRetStructInfo(const FuncStructInfo& finfo, const Call& call, BlockBuilder& bb) {
  if (!finfo->params) return call->sinfo_args.empty() ? finfo->ret : call->sinfo_args[0];
  const std::vector<StructInfo>& params = *finfo->params;
  std::string name = CalleeName(call);
  if (params.size() != call->args.size()) {
    ThrowError(call->span, fmt::format("'{}' expects {} argument{}, got {}", name, params.size(),
                                       params.size() == 1 ? "" : "s", call->args.size()));
  }
  VarBindings bindings;
  for (size_t i = 0; i < params.size(); ++i) BindParam(params[i], ArgStructInfo(call->args[i]), bindings);
  auto fmap = [&bindings](const ir::Var& var) -> PrimExpr {
    auto it = bindings.find(var.get());
    return it == bindings.end() ? PrimExpr() : it->second;
  };
  arith::Analyzer& ana = bb.analyzer();
  for (size_t i = 0; i < params.size(); ++i) {
    StructInfo arg = ArgStructInfo(call->args[i]);
    StructInfo expected = SubstituteStructInfo(params[i], fmap, &ana);
    if (StructInfoBaseCheck(expected, arg, ana) == BaseCheckResult::kFailL0) {
      ThrowError(call->span, fmt::format("argument {} of '{}': expected {}, got {}", i, name, ToString(params[i]),
                                         ToString(arg)));
    }
  }
  // Callee vars that stayed unbound are meaningless to the caller.
  std::unordered_set<const ir::VarNode*> callee_vars;
  for (const ir::Var& var : TIRVarsInStructInfo(finfo)) callee_vars.insert(var.get());
  StructInfo ret = SubstituteStructInfo(finfo->ret, fmap, &ana);
  auto sym_defined = [&](const ir::Var& var) {
    return !callee_vars.count(var.get()) || bindings.count(var.get()) || bb.IsSymbolicVarDefined(var);
  };
  auto relax_defined = [](const Var&) { return false; };
  return EraseToWellDefined(ret, sym_defined, relax_defined);
}

}  // namespace rlx::graph
