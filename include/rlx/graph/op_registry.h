// The operator registry (storage and lookup).
//
// Each graph-level operator ("relax.add", "relax.nn.softmax", and the
// builtins "relax.call_tir", ...) has an OpInfo: how TVMScript spells it, its
// positional arguments and typed attributes (for parsing and printing
// keyword form), its struct-info inference rule, its purity and pattern kind.
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

namespace rlx::graph {

class BlockBuilder;

// How an attribute value is typed in text: `axis=-1`, `axes=[0, 1]`,
// `dtype="float32"`, `keepdims=True`, `value=1.5`, `shape=(n, 4)`.
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
  kAny,
  kOptionalString,
  kOptionalAny,
};

// Whether an attribute of this kind may be None (absent).
inline bool IsOptionalAttrKind(AttrKind kind) {
  return kind == AttrKind::kOptionalInt || kind == AttrKind::kOptionalIntList || kind == AttrKind::kOptionalString ||
         kind == AttrKind::kOptionalAny;
}

struct AttrSpec {
  std::string name;
  AttrKind kind;
  ObjectRef default_value;  // undefined: required
};

// Operator pattern kinds, ordered as fusion uses them.
enum class OpPatternKind {
  kElemWise = 0,
  kBroadcast = 1,
  kInjective = 2,
  kCommReduce = 3,
  kOutEWiseFusable = 4,
  kTuple = 7,
  kOpaque = 8,
};

// Returns the deduced struct info of `call`, or throws CompileError at
// call->span naming the operator and the offending shapes.
using FInferStructInfo = std::function<StructInfo(const Call& call, BlockBuilder& builder)>;

struct OpInfo {
  std::string name;               // "relax.nn.softmax"
  std::string script_name;        // "R.nn.softmax"
  std::vector<std::string> args;  // positional graph arguments, in order
  bool variadic_args = false;     // e.g. concat takes a tuple; call_tir takes (callee, args tuple, ...)
  std::vector<AttrSpec> attrs;    // keyword attributes, in printing order
  FInferStructInfo infer;
  OpPatternKind pattern = OpPatternKind::kOpaque;
  bool pure = true;
};

// Registers `info` (an internal error if the name is taken).
void RegisterOp(OpInfo info);
// The OpInfo for a registry name ("relax.add") or nullptr.
const OpInfo* FindOp(std::string_view name);
// The OpInfo for a script name ("R.add", "R.nn.relu") or nullptr.
const OpInfo* FindOpByScriptName(std::string_view script_name);
// All registered ops, sorted by name.
std::vector<const OpInfo*> ListOps();

}  // namespace rlx::graph
