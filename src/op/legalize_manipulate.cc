// Legalizations of the data-movement operators (TVM's
// legalize_ops/manipulate.py and index.py over topi): each call becomes an
// R.call_tir of a shared PrimFunc named after TVM's (reshape, transpose,
// expand_dims, squeeze, broadcast_to, concatenate, split, strided_slice,
// take, gather_elements, scatter_elements, repeat, tile, flip).
//
// All but scatter_elements go through op::CallTE with explicit arguments:
//   (tensors the call reads..., R.shape(result shape) per output,
//    R.prim_value(begin) per strided_slice axis)
// so CallTE renames every symbolic variable of the inputs, the deduced
// result shapes and the begins consistently, and passes the ones no buffer
// defines as tir_vars. The kernels (manipulate_kernels.cc) map each output
// index to the input element it copies. A tuple-valued variable argument
// (concat(t)) is unpacked into bindings t[0], t[1], ... first. A call whose
// shapes are not all known is left alone.
//
// scatter_elements is sequential (later updates see earlier ones, "mean"
// averages pairwise in order, as TVM's kernel), so it is written as plain
// TIR loops (ScatterElementsPrimFunc) over data, indices and updates; a
// symbolic variable that appears only inside a compound dim (n * 2) is
// passed as a tir_var.
//
// reshape is legalized only when the analyzer proves that the element counts
// of input and result are equal. Otherwise (a target shape taken from a
// run-time R.Shape value, say) the call is left as R.reshape, which lowers to
// vm.builtin.reshape: a zero-copy view that checks the element count at run
// time, so a wrong target is an error, never a read past the input.
#include <functional>
#include <unordered_map>
#include <unordered_set>

#include "manipulate_common.h"
#include "manipulate_kernels.h"
#include "manipulate_te.h"
#include "rlx/arith/analyzer.h"
#include "rlx/ir/functor.h"
#include "rlx/op/legalize.h"

namespace rlx::op::detail {
namespace {

using graph::Expr;

// The tensor struct infos of the call's result(s); empty when a shape is
// unknown.
std::vector<Shape> KnownResultShapes(const Call& call, bool& multi) {
  StructInfo sinfo = graph::GetStructInfo(call);
  std::vector<StructInfo> fields = {sinfo};
  multi = false;
  if (const auto* tuple = sinfo.as<graph::TupleStructInfoNode>()) {
    fields = tuple->fields;
    multi = true;
  }
  std::vector<Shape> shapes;
  for (const StructInfo& field : fields) {
    const auto* tensor = field.as<graph::TensorStructInfoNode>();
    if (tensor == nullptr) return {};
    std::optional<Shape> shape = tensor->GetShape();
    if (!shape) return {};
    shapes.push_back(*shape);
  }
  return shapes;
}

KernelArgs SplitTEArgs(const TEArgs& te_args, size_t num_inputs, size_t num_outputs) {
  KernelArgs args;
  for (size_t i = 0; i < te_args.size(); ++i) {
    if (i < num_inputs) {
      args.inputs.push_back(te_args[i].tensor());
    } else if (i < num_inputs + num_outputs) {
      args.out_shapes.push_back(te_args[i].shape());
    } else {
      args.scalars.push_back(te_args[i].prim());
    }
  }
  return args;
}

Expr LegalizeWithKernel(BlockBuilder& builder, const Call& call, const std::string& name_hint,
                        const KernelFn& kernel) {
  bool multi = false;
  std::vector<Shape> results = KnownResultShapes(call, multi);
  if (results.empty()) return call;
  std::vector<Expr> tensors = KernelTensorArgs(builder, call);
  std::vector<Expr> args = tensors;
  for (const Shape& shape : results) args.push_back(make<graph::ShapeExprNode>(shape));
  std::vector<ir::PrimExpr> scalars = KernelScalars(call);
  for (const ir::PrimExpr& scalar : scalars) args.push_back(make<graph::PrimValueNode>(scalar));
  size_t num_inputs = tensors.size();
  size_t num_outputs = results.size();
  auto compute = [&](const TEArgs& te_args) {
    return kernel(call, SplitTEArgs(te_args, num_inputs, num_outputs));
  };
  if (multi) return CallTEMulti(builder, call, args, name_hint, compute);
  return CallTE(builder, call, args, name_hint, [&](const TEArgs& te_args) { return compute(te_args)[0]; });
}

// ---------------------------------------------------------------------------
// scatter_elements

// Graph-level symbolic variables -> fresh PrimFunc variables, in every dim
// expression (`n * 2` becomes `n' * 2`).
class DimRenamer {
 public:
  Shape Rename(const Shape& shape) {
    Shape renamed;
    for (const ir::PrimExpr& dim : shape) {
      renamed.push_back(ir::Substitute(AsInt64(dim), [this](const ir::Var& var) -> ir::PrimExpr {
        auto it = fresh_.find(var.get());
        if (it == fresh_.end()) {
          it = fresh_.emplace(var.get(), ir::MakeVar(var->name_hint, var->dtype)).first;
          order_.push_back(var);
        }
        return it->second;
      }));
    }
    return renamed;
  }
  // The (graph variable, fresh variable) pairs in first-seen order.
  std::vector<std::pair<ir::Var, ir::Var>> Pairs() const {
    std::vector<std::pair<ir::Var, ir::Var>> pairs;
    for (const ir::Var& var : order_) pairs.emplace_back(var, fresh_.at(var.get()));
    return pairs;
  }

 private:
  std::unordered_map<const ir::VarNode*, ir::Var> fresh_;
  std::vector<ir::Var> order_;
};

// The variables that appear as a whole dim of one of `shapes` (a buffer
// shape defines them when the kernel is called).
std::unordered_set<const ir::VarNode*> BareDims(const std::vector<Shape>& shapes) {
  std::unordered_set<const ir::VarNode*> bare;
  for (const Shape& shape : shapes) {
    for (const ir::PrimExpr& dim : shape) {
      if (const auto* var = dim.as<ir::VarNode>()) bare.insert(var);
    }
  }
  return bare;
}

// Symbolic variables that no buffer dim defines by a bare appearance (the
// `n` of a dim `n * 2`) become trailing scalar parameters of the kernel,
// passed as tir_vars.
Expr LegalizeScatterElements(BlockBuilder& builder, const Call& call) {
  TensorStructInfo data = TensorArg(call, 0);
  TensorStructInfo indices = TensorArg(call, 1);
  std::optional<Shape> data_shape = data->GetShape();
  std::optional<Shape> indices_shape = indices->GetShape();
  if (!data_shape || !indices_shape || data->IsUnknownDtype() || indices->IsUnknownDtype()) return call;
  DimRenamer renamer;
  Shape data_dims = renamer.Rename(*data_shape);
  Shape indices_dims = renamer.Rename(*indices_shape);
  std::unordered_set<const ir::VarNode*> bare = BareDims({data_dims, indices_dims});
  std::vector<ir::PrimExpr> tir_vars;
  std::vector<ir::Var> scalar_params;
  for (const auto& [graph_var, fresh] : renamer.Pairs()) {
    if (bare.count(fresh.get())) continue;
    tir_vars.push_back(graph_var);
    scalar_params.push_back(fresh);
  }
  int axis = NormalizeAxis(call, GetIntAttr(call, "axis", 0), data->ndim);
  tir::PrimFunc func = ScatterElementsPrimFunc(data_dims, data->dtype, indices_dims, indices->dtype, axis,
                                               GetStringAttr(call, "reduction", "update"), scalar_params);
  graph::GlobalVar gv = AddPrimFuncShared(builder, func, "scatter_elements");
  std::vector<Expr> operands(call->args.begin(), call->args.end());
  std::vector<Expr> call_tir_args = {gv, make<graph::TupleNode>(std::move(operands))};
  if (!tir_vars.empty()) call_tir_args.push_back(make<graph::ShapeExprNode>(std::move(tir_vars)));
  return graph::MakeCall("relax.call_tir", std::move(call_tir_args), nullptr, {graph::GetStructInfo(call)});
}

// A call the kernel may legalize; the others are left as they are.
using KernelPrecondition = std::function<bool(const Call&)>;

// `op` legalizes through its manipulate kernel, for the calls `precondition`
// accepts (every call when it is empty).
void SetKernelLegalize(const std::string& op, const std::string& name_hint,
                       KernelPrecondition precondition = nullptr) {
  const KernelFn* kernel = FindManipulateKernel(op);
  RLX_ICHECK(kernel != nullptr) << "no kernel for " << op;
  graph::SetOpLegalize(op, [kernel, name_hint, precondition](BlockBuilder& builder, const Call& call) -> Expr {
    if (precondition && !precondition(call)) return call;
    return LegalizeWithKernel(builder, call, name_hint, *kernel);
  });
}

// reshape: a copying kernel only when the element counts are provably equal.
bool ReshapeElementCountsEqual(const Call& call) {
  TensorStructInfo data = TensorArg(call, 0);
  std::optional<Shape> data_shape = data->GetShape();
  const auto* result = graph::GetStructInfo(call).as<graph::TensorStructInfoNode>();
  if (!data_shape || result == nullptr) return false;
  std::optional<Shape> result_shape = result->GetShape();
  if (!result_shape) return false;
  arith::Analyzer analyzer;
  return analyzer.CanProveEqual(ShapeProduct(*data_shape), ShapeProduct(*result_shape));
}

}  // namespace

void RegisterManipulateLegalizations() {
  SetKernelLegalize("relax.reshape", "reshape", ReshapeElementCountsEqual);
  SetKernelLegalize("relax.permute_dims", "transpose");
  SetKernelLegalize("relax.expand_dims", "expand_dims");
  SetKernelLegalize("relax.squeeze", "squeeze");
  SetKernelLegalize("relax.flatten", "reshape");
  SetKernelLegalize("relax.broadcast_to", "broadcast_to");
  SetKernelLegalize("relax.concat", "concatenate");
  SetKernelLegalize("relax.split", "split");
  SetKernelLegalize("relax.strided_slice", "strided_slice");
  SetKernelLegalize("relax.take", "take");
  SetKernelLegalize("relax.gather_elements", "gather_elements");
  SetKernelLegalize("relax.repeat", "repeat");
  SetKernelLegalize("relax.tile", "tile");
  SetKernelLegalize("relax.flip", "flip");
  graph::SetOpLegalize("relax.scatter_elements", LegalizeScatterElements);
}

}  // namespace rlx::op::detail
