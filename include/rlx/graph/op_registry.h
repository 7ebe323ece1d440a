// The operator registry (storage and lookup).
//
// Each graph-level operator ("relax.add", "relax.nn.softmax", and the
// builtins "relax.call_tir", ...) has an OpInfo: how TVMScript spells it, its
// positional arguments and typed attributes (for parsing and printing
// keyword form), its struct-info inference rule, its legalization (lowering to a
// PrimFunc call), its purity and pattern kind.
// The table lives here so that the BlockBuilder can deduce struct info; the
// operators themselves are registered by the op layer
// (op::RegisterAllOps(), idempotent), and the cross-level builtins by the
// graph layer itself.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "rlx/graph/expr.h"
#include "rlx/tir/analysis.h"

namespace rlx::graph {

class BlockBuilder;

// How an attribute value is typed in text: `axis=-1`, `axes=[0, 1]`,
// `dtype="float32"`, `keepdims=True`, `value=1.5`, `shape=(n, 4)`,
// `index_map=T.index_map(lambda i, j: (j, i))` (an Array of two Arrays: the
// lambda's Vars and its results), `pad_value=R.prim_value(T.float32(0))` or
// None (a graph PrimValue; absent means None).
// The kOptional* kinds may also be None (absent from the call's Dict):
// kOptionalString is `causal_mask="TopLeft"` or None, kOptionalAny any
// attribute value (`scale=T.float32(0.5)`) or None.
enum class AttrKind {
  kInt,
  kIntList,
  kOptionalInt,
  kOptionalIntList,
  kFloat,
  kBool,
  kString,
  kDataType,
  kPrimExprList,
  kIndexMap,
  kOptionalPrimValue,
  kAny,
  kOptionalString,
  kOptionalAny,
};

// Whether an attribute of this kind may be None (absent).
inline bool IsOptionalAttrKind(AttrKind kind) {
  return kind == AttrKind::kOptionalInt || kind == AttrKind::kOptionalIntList || kind == AttrKind::kOptionalString ||
         kind == AttrKind::kOptionalAny || kind == AttrKind::kOptionalPrimValue;
}

struct AttrSpec {
  std::string name;
  AttrKind kind;
  ObjectRef default_value;  // undefined: required
};

// Operator pattern kinds (TVM's numbering), shared with the TIR analysis
// that reads them off PrimFuncs (tir/analysis.h).
using OpPatternKind = tir::OpPatternKind;

// Returns the deduced struct info of `call`, or throws CompileError at
// call->span naming the operator and the offending shapes.
using FInferStructInfo = std::function<StructInfo(const Call& call, BlockBuilder& builder)>;

// Lowers a normalized call of the operator (struct info deduced) to its
// replacement expression, typically `R.call_tir(gv, (args...), out_sinfo=...)`
// to a PrimFunc it adds to builder's context module (TVM's FLegalize). It may
// emit bindings into the builder's current block first. Returning `call`
// itself means "cannot legalize this call" (e.g. a shape that is unknown).
using FLegalize = std::function<Expr(BlockBuilder& builder, const Call& call)>;

struct OpInfo {
  std::string name;               // "relax.nn.softmax"
  std::string script_name;        // "R.nn.softmax"
  std::vector<std::string> args;  // positional graph arguments, in order
  bool variadic_args = false;     // e.g. concat takes a tuple; call_tir takes (callee, args tuple, ...)
  std::vector<AttrSpec> attrs;    // keyword attributes, in printing order
  FInferStructInfo infer;
  FLegalize legalize;  // empty: LegalizeOps leaves the op alone
  OpPatternKind pattern = OpPatternKind::kOpaque;
  bool pure = true;
};

// Registers `info` (an internal error if the name is taken).
void RegisterOp(OpInfo info);
// Attaches a legalization to the registered operator `name` (an internal
// error if it is unknown or already has one). Lets legalizations live apart
// from the struct-info rules (src/op/legalize_*.cc); call it during
// registration only (op::RegisterAllOps), before any lookup uses the op.
void SetOpLegalize(std::string_view name, FLegalize legalize);
// The OpInfo for a registry name ("relax.add") or nullptr.
const OpInfo* FindOp(std::string_view name);
// The OpInfo for a script name ("R.add", "R.nn.relu") or nullptr.
const OpInfo* FindOpByScriptName(std::string_view script_name);
// All registered ops, sorted by name.
std::vector<const OpInfo*> ListOps();

}  // namespace rlx::graph
