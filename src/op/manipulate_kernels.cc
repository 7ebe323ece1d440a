// The TE kernels of the data-movement operators, per call (see
// manipulate_kernels.h). Each reads the call's attributes the way its
// struct-info rule does and takes the result shapes from the call's deduced
// struct info, so the PrimFunc's output buffers match the graph exactly.
#include "manipulate_kernels.h"

#include <map>
#include <numeric>

#include "manipulate_common.h"
#include "manipulate_te.h"

namespace rlx::op::detail {
namespace {

using graph::Call;

using In = KernelArgs;

int NormalizedAxis(const Call& call, int64_t axis, int ndim) { return NormalizeAxis(call, axis, ndim); }

std::vector<te::Tensor> Reshape(const Call&, const In& args) {
  return {ReshapeTE(args.inputs[0], args.out_shapes[0])};
}

std::vector<te::Tensor> PermuteDims(const Call& call, const In& args) {
  std::optional<std::vector<int64_t>> axes = GetOptionalIntListAttr(call, "axes");
  std::vector<int> permutation(static_cast<size_t>(args.inputs[0].ndim()));
  if (axes) {
    permutation = NormalizeAxes(call, *axes, args.inputs[0].ndim());
  } else {
    std::iota(permutation.rbegin(), permutation.rend(), 0);
  }
  return {PermuteDimsTE(args.inputs[0], permutation)};
}

std::vector<te::Tensor> ExpandDims(const Call& call, const In& args) {
  Shape out_shape = args.out_shapes[0];
  std::vector<bool> is_new(out_shape.size(), false);
  std::vector<int64_t> axes = GetOptionalIntListAttr(call, "axis").value_or(std::vector<int64_t>{});
  for (int axis : NormalizeAxes(call, axes, static_cast<int>(out_shape.size()))) is_new[axis] = true;
  return {ExpandDimsTE(args.inputs[0], out_shape, is_new)};
}

std::vector<te::Tensor> Squeeze(const Call& call, const In& args) {
  std::vector<bool> removed(static_cast<size_t>(args.inputs[0].ndim()), false);
  if (std::optional<std::vector<int64_t>> axes = GetOptionalIntListAttr(call, "axis")) {
    for (int axis : NormalizeAxes(call, *axes, args.inputs[0].ndim())) removed[axis] = true;
  } else {
    arith::Analyzer analyzer;
    for (int d = 0; d < args.inputs[0].ndim(); ++d) removed[d] = ProvablyEqual(analyzer, args.inputs[0].shape()[d], ir::MakeInt(1));
  }
  return {SqueezeTE(args.inputs[0], removed, args.out_shapes[0])};
}

std::vector<te::Tensor> Flatten(const Call&, const In& args) {
  return {ReshapeTE(args.inputs[0], args.out_shapes[0])};
}

std::vector<te::Tensor> BroadcastTo(const Call&, const In& args) {
  return {BroadcastToTE(args.inputs[0], args.out_shapes[0])};
}

std::vector<te::Tensor> Concat(const Call& call, const In& args) {
  std::optional<int64_t> axis = GetOptionalIntAttr(call, "axis");
  return {ConcatTE(args.inputs, axis ? NormalizedAxis(call, *axis, args.inputs[0].ndim()) : 0, args.out_shapes[0])};
}

std::vector<te::Tensor> Split(const Call& call, const In& args) {
  int axis = NormalizedAxis(call, GetIntAttr(call, "axis", 0), args.inputs[0].ndim());
  size_t num_pieces = args.out_shapes.size();
  std::vector<te::Tensor> pieces;
  arith::Analyzer analyzer;
  ir::PrimExpr begin = ir::MakeInt(0);
  for (size_t p = 0; p < num_pieces; ++p) {
    Shape piece_shape = args.out_shapes[p];
    pieces.push_back(SliceAlongTE(args.inputs[0], axis, begin, piece_shape, "T_split_" + std::to_string(p)));
    begin = analyzer.Simplify(begin + AsInt64(piece_shape[axis]));
  }
  return pieces;
}

// begin made non-negative and clamped as the struct-info rule does.
ir::PrimExpr CanonicalBegin(const ir::PrimExpr& begin, const ir::PrimExpr& length, int64_t stride,
                            bool assume_inbound) {
  if (assume_inbound) return begin;
  ir::PrimExpr low = ir::MakeInt(stride > 0 ? 0 : -1);
  ir::PrimExpr high = stride > 0 ? AsInt64(length) : AsInt64(length) - 1;
  return ir::select(ir::lt(begin, ir::MakeInt(0)), ir::max(begin + AsInt64(length), low), ir::min(begin, high));
}

std::vector<te::Tensor> StridedSlice(const Call& call, const In& args) {
  int length = -1;
  Shape axes = *PrimValueTupleArg(call, 1, length);
  const Shape& begins = args.scalars;
  std::optional<Shape> strides_values;
  if (call->args.size() == 5) strides_values = PrimValueTupleArg(call, 4, length);
  bool assume_inbound = GetBoolAttr(call, "assume_inbound", false);
  arith::Analyzer analyzer;
  std::vector<int> normalized;
  std::vector<int64_t> strides;
  std::vector<ir::PrimExpr> canonical;
  for (size_t i = 0; i < axes.size(); ++i) {
    int axis = NormalizedAxis(call, *ir::AsConstInt(axes[i]), args.inputs[0].ndim());
    int64_t stride = strides_values ? *ir::AsConstInt(analyzer.Simplify((*strides_values)[i])) : 1;
    normalized.push_back(axis);
    strides.push_back(stride);
    canonical.push_back(analyzer.Simplify(CanonicalBegin(begins[i], args.inputs[0].shape()[axis], stride, assume_inbound)));
  }
  return {StridedSliceTE(args.inputs[0], normalized, canonical, strides, args.out_shapes[0])};
}

std::vector<te::Tensor> Take(const Call& call, const In& args) {
  std::optional<int64_t> axis = GetOptionalIntAttr(call, "axis");
  int normalized = axis ? NormalizedAxis(call, *axis, args.inputs[0].ndim()) : 0;
  return {TakeTE(args.inputs[0], args.inputs[1], normalized, GetStringAttr(call, "mode", "fast"))};
}

std::vector<te::Tensor> GatherElements(const Call& call, const In& args) {
  return {GatherElementsTE(args.inputs[0], args.inputs[1], NormalizedAxis(call, GetIntAttr(call, "axis", 0), args.inputs[0].ndim()))};
}

std::vector<te::Tensor> Repeat(const Call& call, const In& args) {
  std::optional<int64_t> axis = GetOptionalIntAttr(call, "axis");
  std::optional<int> normalized;
  if (axis) normalized = NormalizedAxis(call, *axis, args.inputs[0].ndim());
  return {RepeatTE(args.inputs[0], GetIntAttr(call, "repeats"), normalized, args.out_shapes[0])};
}

std::vector<te::Tensor> Tile(const Call&, const In& args) {
  return {TileTE(args.inputs[0], args.out_shapes[0])};
}

std::vector<te::Tensor> Flip(const Call& call, const In& args) {
  return {FlipTE(args.inputs[0], NormalizedAxis(call, GetIntAttr(call, "axis"), args.inputs[0].ndim()))};
}

const std::map<std::string, KernelFn>& KernelTable() {
  static const std::map<std::string, KernelFn> table = {
      {"relax.reshape", Reshape},         {"relax.permute_dims", PermuteDims},
      {"relax.expand_dims", ExpandDims},  {"relax.squeeze", Squeeze},
      {"relax.flatten", Flatten},         {"relax.broadcast_to", BroadcastTo},
      {"relax.concat", Concat},           {"relax.split", Split},
      {"relax.strided_slice", StridedSlice}, {"relax.take", Take},
      {"relax.gather_elements", GatherElements}, {"relax.repeat", Repeat},
      {"relax.tile", Tile},               {"relax.flip", Flip},
  };
  return table;
}

}  // namespace

const KernelFn* FindManipulateKernel(const std::string& name) {
  auto it = KernelTable().find(name);
  return it == KernelTable().end() ? nullptr : &it->second;
}

std::vector<std::string> ManipulateKernelOps() {
  std::vector<std::string> names;
  for (const auto& [name, kernel] : KernelTable()) names.push_back(name);
  return names;
}

std::vector<graph::Expr> KernelTensorArgs(graph::BlockBuilder& builder, const Call& call) {
  std::vector<graph::Expr> tensors;
  for (const graph::Expr& arg : call->args) {
    StructInfo sinfo = graph::GetStructInfo(arg);
    if (sinfo.isa<graph::TensorStructInfoNode>()) {
      tensors.push_back(arg);
      continue;
    }
    const auto* tuple_sinfo = sinfo.as<graph::TupleStructInfoNode>();
    bool holds_tensors = tuple_sinfo != nullptr && !tuple_sinfo->fields.empty() &&
                         tuple_sinfo->fields[0].isa<graph::TensorStructInfoNode>();
    if (!holds_tensors) continue;
    if (const auto* tuple = arg.as<graph::TupleNode>()) {
      tensors.insert(tensors.end(), tuple->fields.begin(), tuple->fields.end());
      continue;
    }
    for (size_t i = 0; i < tuple_sinfo->fields.size(); ++i) {
      tensors.push_back(builder.Emit(make<graph::TupleGetItemNode>(arg, static_cast<int>(i)), "lv"));
    }
  }
  return tensors;
}

std::vector<ir::PrimExpr> KernelScalars(const Call& call) {
  const auto* op = call->op.as<graph::OpNode>();
  if (op == nullptr || op->name != "relax.strided_slice") return {};
  int length = -1;
  return PrimValueTupleArg(call, 2, length).value_or(Shape{});
}

}  // namespace rlx::op::detail
