// AnnotateTIROpPattern: records each PrimFunc's operator pattern kind as its
// `op_pattern` attribute (after TVM's relax.transform.AnnotateTIROpPattern).
//
// The kind is read off the function's loop nest and blocks by
// tir::AnalyzeOpPatternKind (tir/analysis.h), not taken from the operator
// the function came from, so hand-written and fused PrimFuncs are
// classified alike. As in TVM, a function that already has a nonzero
// `op_pattern` keeps it (a producer may know better, e.g. an opaque extern
// kernel); an absent or zero one is (re)computed. The value is an int32
// IntImm with TVM's numbering (0 elemwise, 1 broadcast, 2 injective,
// 3 comm-reduce, 4 out-elemwise-fusable, 8 opaque). Graph functions are not
// touched.
#include "rlx/graph/structural_equal.h"
#include "rlx/tir/analysis.h"
#include "rlx/transform/passes.h"

namespace rlx::transform {
namespace {

constexpr const char* kAttrName = "op_pattern";

bool HasNonzeroPattern(const tir::PrimFunc& func) {
  if (!func->attrs.defined()) return false;
  auto value = dyn_cast<ir::PrimExprNode>(func->attrs->Get(kAttrName));
  std::optional<int64_t> pattern = value.defined() ? ir::AsConstInt(value) : std::nullopt;
  return pattern && *pattern != 0;
}

tir::PrimFunc AnnotatePattern(const tir::PrimFunc& func) {
  if (HasNonzeroPattern(func)) return func;
  tir::OpPatternKind kind = tir::AnalyzeOpPatternKind(func);
  ObjectRef value = ir::MakeInt(static_cast<int64_t>(kind), DataType::Int32());
  if (func->attrs.defined() && graph::StructuralEqual(func->attrs->Get(kAttrName), value)) return func;
  auto* node = new tir::PrimFuncNode();
  node->params = func->params;
  node->buffer_map = func->buffer_map;
  node->body = func->body;
  node->ret_type = func->ret_type;
  node->attrs = ir::DictWith(func->attrs, kAttrName, value);
  node->is_private = func->is_private;
  node->span = func->span;
  return tir::PrimFunc(node);
}

}  // namespace

Pass AnnotateTIROpPattern() {
  auto run = [](ir::IRModule mod, const PassContext&) {
    ir::IRModule result = mod;
    for (const auto& [name, func] : mod->functions) {
      const auto* prim_func = func.as<tir::PrimFuncNode>();
      if (prim_func == nullptr) continue;
      tir::PrimFunc annotated = AnnotatePattern(tir::PrimFunc(prim_func));
      if (!annotated.same_as(func)) result = ir::WithFunction(result, name, annotated);
    }
    return result;
  };
  return CreateModulePass(run, PassInfo{"annotate-tir-op-pattern",
                                        "Records each PrimFunc's pattern kind (read off its blocks) as its "
                                        "op_pattern attribute, for fusion",
                                        0, {}});
}

}  // namespace rlx::transform
