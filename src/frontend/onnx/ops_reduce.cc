// Converters of the ONNX reductions: ReduceMean/Sum/Max/Min/Prod, ReduceL2
// (sqrt of the sum of squares), ReduceL1, ReduceSumSquare, ReduceLogSum,
// ReduceLogSumExp.
//
// `axes` is an attribute until the op's input form: ReduceSum takes it as an
// input from opset 13, the others from opset 18. An absent or empty `axes`
// reduces every axis, unless noop_with_empty_axes (input form) makes the
// reduction the identity.
#include "frontend/onnx/converter.h"
#include "rlx/op/op.h"

namespace rlx::frontend::onnx_impl {
namespace {

using Out = std::vector<OnnxValue>;
using graph::Call;
using Reducer = Call (*)(Expr, std::optional<std::vector<int64_t>>, bool);

struct ReduceArgs {
  std::optional<std::vector<int64_t>> axes;  // nullopt: every axis
  bool keepdims;
  bool identity = false;
};

ReduceArgs ReadReduceArgs(ConvertContext& ctx, int axes_input_since) {
  ReduceArgs args;
  args.keepdims = ctx.AttrInt("keepdims", 1) != 0;
  std::vector<int64_t> axes;
  if (ctx.opset() < axes_input_since) {
    axes = ctx.AttrInts("axes").value_or(std::vector<int64_t>{});
  } else if (ctx.HasInput(1)) {
    axes = ctx.RequireInts(1, "axes");
  }
  if (axes.empty()) {
    args.identity = ctx.opset() >= axes_input_since && ctx.AttrInt("noop_with_empty_axes", 0) != 0;
    return args;
  }
  int64_t rank = ctx.InputRank(0);
  for (int64_t& axis : axes) axis = NormalizeAxis(ctx, axis, rank);
  args.axes = axes;
  return args;
}

void AddReduce(ConverterTable& table, const std::string& name, int axes_input_since, Reducer reducer,
               const std::string& form) {
  table[name].push_back({1, [=](ConvertContext& ctx) -> Out {
                           ReduceArgs args = ReadReduceArgs(ctx, axes_input_since);
                           Expr x = ctx.TensorInput(0);
                           if (args.identity) return {OnnxValue::Tensor(x)};
                           if (form == "square" || form == "l2") x = ctx.Emit(op::multiply(x, x));
                           if (form == "logsumexp") x = ctx.Emit(op::exp(x));
                           if (form == "l1") x = ctx.Emit(op::abs(x));
                           Expr out = ctx.Emit(reducer(x, args.axes, args.keepdims));
                           if (form == "l2") out = ctx.Emit(op::sqrt(out));
                           if (form == "logsumexp" || form == "logsum") out = ctx.Emit(op::log(out));
                           return {OnnxValue::Tensor(out)};
                         }});
}

}  // namespace

void RegisterReduceConverters(ConverterTable& table) {
  AddReduce(table, "ReduceSum", 13, op::sum, "");
  AddReduce(table, "ReduceMean", 18, op::mean, "");
  AddReduce(table, "ReduceMax", 18, op::max, "");
  AddReduce(table, "ReduceMin", 18, op::min, "");
  AddReduce(table, "ReduceProd", 18, op::prod, "");
  AddReduce(table, "ReduceL2", 18, op::sum, "l2");
  AddReduce(table, "ReduceSumSquare", 18, op::sum, "square");
  AddReduce(table, "ReduceLogSumExp", 18, op::sum, "logsumexp");
  AddReduce(table, "ReduceLogSum", 18, op::sum, "logsum");
  AddReduce(table, "ReduceL1", 18, op::sum, "l1");
}

}  // namespace rlx::frontend::onnx_impl
