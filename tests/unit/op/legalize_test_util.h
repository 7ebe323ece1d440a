// Helpers for numerical tests of legalizations: build a one-call module from
// text, run legalize-ops, and run the generated PrimFunc with the TIR
// interpreter (or hand it to the JIT) at concrete values of the symbolic
// sizes, to compare with the naive C++ references of
// tests/unit/common/op_reference.h (included here).
//
//   LegalizedOp op = LegalizeCall({{"x", "R.Tensor((\"n\", 3), dtype=\"float32\")"}}, "R.exp(x)");
//   tir::HostTensor x = RandomTensor(kF32, {5, 3}, 1);
//   tir::HostTensor y = RunLegalized(op, {x}, {{"n", 5}});
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "../common/op_reference.h"
#include "rlx/arith/analyzer.h"
#include "rlx/graph/expr.h"
#include "rlx/graph/well_formed.h"
#include "rlx/ir/functor.h"
#include "rlx/op/op.h"
#include "rlx/text/parser.h"
#include "rlx/tir/interpreter.h"
#include "rlx/transform/passes.h"

namespace rlx::op_test {

using ir::PrimExpr;

struct LegalizedOp {
  ir::IRModule mod;     // after legalize-ops
  graph::Call call;     // main's last binding: the call_tir
  tir::PrimFunc func;   // its callee
};

// A module whose `main` takes `params` (name, struct info text), declares the
// symbolic variables `sym_vars` (for use in `call_text`), and returns
// `call_text`.
inline std::string OneCallModule(const std::vector<std::pair<std::string, std::string>>& params,
                                 const std::string& call_text, const std::vector<std::string>& sym_vars = {}) {
  std::string text = "@I.ir_module\nclass Module:\n    @R.function\n    def main(";
  for (size_t i = 0; i < params.size(); ++i) {
    if (i) text += ", ";
    text += params[i].first + ": " + params[i].second;
  }
  text += "):\n";
  for (const std::string& var : sym_vars) text += "        " + var + " = T.int64()\n";
  text += "        gv = " + call_text + "\n        return gv\n";
  return text;
}

inline graph::Call LastBoundCall(const ir::IRModule& mod) {
  auto main = cast<graph::FunctionNode>(mod->Lookup("main"));
  const auto* body = main->body.as<graph::SeqExprNode>();
  const auto& bindings = body->blocks.back()->bindings;
  return cast<graph::CallNode>(cast<graph::VarBindingNode>(bindings.back())->value);
}

// Parses the one-call module, legalizes it and checks the result is
// well-formed and a call_tir.
inline LegalizedOp LegalizeModuleText(const std::string& text) {
  op::RegisterAllOps();
  ir::IRModule mod = text::ParseModuleText(text);
  transform::PassContext context;
  mod = transform::LegalizeOps()(mod, context);
  LegalizedOp result;
  result.mod = mod;
  result.call = LastBoundCall(mod);
  const auto* op = result.call->op.as<graph::OpNode>();
  EXPECT_TRUE(op != nullptr && op->name == "relax.call_tir") << "the call was not legalized";
  if (op == nullptr || op->name != "relax.call_tir") return result;
  auto gv = cast<graph::GlobalVarNode>(result.call->args[0]);
  result.func = cast<tir::PrimFuncNode>(mod->Lookup(gv->name_hint));
  return result;
}

inline LegalizedOp LegalizeCall(const std::vector<std::pair<std::string, std::string>>& params,
                                const std::string& call_text, const std::vector<std::string>& sym_vars = {}) {
  return LegalizeModuleText(OneCallModule(params, call_text, sym_vars));
}

// The value of a graph-level symbolic expression with variables named as in
// `sizes`.
inline int64_t EvaluateDim(const PrimExpr& expr, const std::map<std::string, int64_t>& sizes) {
  std::unordered_map<const ir::VarNode*, int64_t> values;
  ir::PostOrderVisit(expr, [&](const PrimExpr& sub) {
    if (const auto* var = sub.as<ir::VarNode>()) {
      auto it = sizes.find(var->name_hint);
      if (it != sizes.end()) values[var] = it->second;
    }
  });
  std::optional<int64_t> value = arith::EvaluateInt(expr, values);
  EXPECT_TRUE(value.has_value()) << "cannot evaluate " << ir::ToString(expr);
  return value.value_or(0);
}

// The output tensor(s) the call_tir expects, zero-filled, and its scalar
// tir_vars, for the given sizes.
inline std::vector<tir::HostTensor> MakeOutputs(const LegalizedOp& op, const std::map<std::string, int64_t>& sizes) {
  std::vector<graph::StructInfo> outs;
  const graph::StructInfo& out = op.call->sinfo_args[0];
  if (const auto* tuple = out.as<graph::TupleStructInfoNode>()) {
    outs = tuple->fields;
  } else {
    outs.push_back(out);
  }
  std::vector<tir::HostTensor> tensors;
  for (const graph::StructInfo& sinfo : outs) {
    auto tensor = cast<graph::TensorStructInfoNode>(sinfo);
    std::vector<int64_t> shape;
    std::vector<PrimExpr> dims = tensor->GetShape().value();
    for (const PrimExpr& dim : dims) shape.push_back(EvaluateDim(dim, sizes));
    tensors.emplace_back(tensor->dtype, shape);
  }
  return tensors;
}

inline std::vector<int64_t> TirVarValues(const LegalizedOp& op, const std::map<std::string, int64_t>& sizes) {
  std::vector<int64_t> values;
  if (op.call->args.size() < 3) return values;
  for (const PrimExpr& value : cast<graph::ShapeExprNode>(op.call->args[2])->values) {
    values.push_back(EvaluateDim(value, sizes));
  }
  return values;
}

// Runs the legalized PrimFunc with the interpreter; returns the outputs.
inline std::vector<tir::HostTensor> RunLegalizedMulti(const LegalizedOp& op, std::vector<tir::HostTensor> inputs,
                                                      const std::map<std::string, int64_t>& sizes) {
  std::vector<tir::HostTensor> outputs = MakeOutputs(op, sizes);
  std::vector<tir::ArgValue> args;
  for (tir::HostTensor& t : inputs) args.emplace_back(&t);
  for (tir::HostTensor& t : outputs) args.emplace_back(&t);
  for (int64_t v : TirVarValues(op, sizes)) args.emplace_back(v);
  tir::RunPrimFunc(op.func, args);
  return outputs;
}

inline tir::HostTensor RunLegalized(const LegalizedOp& op, std::vector<tir::HostTensor> inputs,
                                    const std::map<std::string, int64_t>& sizes = {}) {
  return RunLegalizedMulti(op, std::move(inputs), sizes)[0];
}

}  // namespace rlx::op_test
