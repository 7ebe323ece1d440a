// AttachGlobalSymbol: after TVM's relax.transform.AttachGlobalSymbol.
//
// Before code generation every module function needs the symbol under which
// it is compiled (a PrimFunc's kernel in the library, a graph function's VM
// entry point), so every function gets the attribute "global_symbol":
//   - a graph function: its name;
//   - a PrimFunc: the module attribute "system_lib_prefix" (if any) followed
//     by its name.
// As in TVM an existing symbol is replaced by that name (TVM's early exit for
// functions that already have one is disabled there too). In TVM a function
// without a global_symbol is what "private" means; here privacy is a flag of
// its own, and a function that gets a symbol stops being private, so that
// the module prints and parses back the same. (TVM also renames a prefixed
// PrimFunc's GlobalVar to its symbol; here the function keeps its name and
// only its symbol carries the prefix.)
#include "rlx/graph/expr.h"
#include "rlx/tir/function.h"
#include "rlx/transform/passes.h"

namespace rlx::transform {
namespace {

bool HasSymbol(const ir::Dict& attrs, const std::string& symbol) {
  ObjectRef value = attrs.defined() ? attrs->Get("global_symbol") : ObjectRef();
  const auto* text = value.as<ir::StringImmNode>();
  return text != nullptr && text->value == symbol;
}

ObjectRef WithSymbol(const ObjectRef& func, const std::string& name, const std::string& prefix) {
  if (const auto* graph_func = func.as<graph::FunctionNode>()) {
    if (!graph_func->is_private && HasSymbol(graph_func->attrs, name)) return func;
    auto* node = new graph::FunctionNode(graph_func->params, graph_func->body, graph_func->ret_struct_info,
                                         graph_func->is_pure,
                                         ir::DictWith(graph_func->attrs, "global_symbol", ir::MakeString(name)),
                                         /*is_private=*/false);
    node->span = graph_func->span;
    return ObjectRef(node);
  }
  if (const auto* prim_func = func.as<tir::PrimFuncNode>()) {
    std::string symbol = prefix + name;
    if (!prim_func->is_private && HasSymbol(prim_func->attrs, symbol)) return func;
    auto* node = new tir::PrimFuncNode();
    node->params = prim_func->params;
    node->buffer_map = prim_func->buffer_map;
    node->body = prim_func->body;
    node->ret_type = prim_func->ret_type;
    node->attrs = ir::DictWith(prim_func->attrs, "global_symbol", ir::MakeString(symbol));
    node->is_private = false;
    node->span = prim_func->span;
    return ObjectRef(node);
  }
  return func;
}

std::string SymbolPrefix(const ir::IRModule& mod) {
  ObjectRef prefix = mod->attrs.defined() ? mod->attrs->Get("system_lib_prefix") : ObjectRef();
  const auto* text = prefix.as<ir::StringImmNode>();
  return text != nullptr ? text->value : "";
}

}  // namespace

Pass AttachGlobalSymbol() {
  auto run = [](ir::IRModule mod, const PassContext&) {
    std::string prefix = SymbolPrefix(mod);
    ir::IRModule result = mod;
    for (const auto& [name, func] : mod->functions) {
      ObjectRef updated = WithSymbol(func, name, prefix);
      if (!updated.same_as(func)) result = ir::WithFunction(result, name, updated);
    }
    return result;
  };
  return CreateModulePass(run, PassInfo{"attach-global-symbol",
                                        "Gives every function the attribute global_symbol = its name (PrimFuncs: system_lib_prefix + name)", 0, {}});
}

}  // namespace rlx::transform
