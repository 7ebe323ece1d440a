// Struct-info analysis: the lattice operations every deduction rule and pass
// relies on.
//
//   StructInfoBaseCheck(base, derived)   is every `derived` value a `base`?
//   StructInfoLCA(a, b)                  least upper bound (If branches, joins)
//   EraseToWellDefined(sinfo, ...)       drop what mentions out-of-scope vars
//   DefinableTIRVarsInStructInfo(sinfo)  symbolic vars an annotation defines
//   TIRVarsInStructInfo(sinfo)           every symbolic var it uses
//   SubstituteStructInfo(sinfo, f)       replace symbolic vars, simplified
//   DeriveCallRetStructInfo(f, call)     match a callee's signature against the
//                                        arguments; substitute into its return
//
// The lattice (more precise on the left):
//   Tensor((n, 4), f32) < Tensor(ndim=2, f32) < Tensor(ndim=-1, f32)
//     < Tensor(ndim=-1, dtype unknown) < Object
// Information that cannot be kept is erased to what is certain, never
// invented. All results are fresh nodes where something changed and the very
// same input node where nothing did.
#pragma once

#include <functional>
#include <vector>

#include "rlx/arith/analyzer.h"
#include "rlx/graph/expr.h"

namespace rlx::graph {

class BlockBuilder;

// How well `derived` fits `base` (after Apache TVM's relax::BaseCheckResult).
// Ordered: a combination of checks is the minimum of its parts.
enum class BaseCheckResult {
  // Provably incompatible: ndim/dtype known on both sides and different,
  // dimensions that are different constants (or provably unequal), different
  // kinds of value (Tensor vs Shape), tuples of different arity.
  kFailL0 = 0,
  // The static information does not match, but only because `derived` is
  // less specific (unknown dtype or ndim, Object): a run-time check of the
  // static fields could still succeed.
  kFailL1 = 1,
  // Static fields match; symbolic values are not provably equal (n vs m).
  // Needs a run-time check of the values.
  kFailL2 = 2,
  // Every value described by `derived` is described by `base`.
  kPass = 3,
};

// "pass", "fail-L2", "fail-L1", "fail-L0".
const char* BaseCheckResultName(BaseCheckResult result);

BaseCheckResult StructInfoBaseCheck(const StructInfo& base, const StructInfo& derived, arith::Analyzer& ana);
// StructInfoBaseCheck(base, derived) == kPass.
bool IsBaseOf(const StructInfo& base, const StructInfo& derived, arith::Analyzer& ana);

// The least upper bound of `a` and `b`: Tensor((n,4),f32) ⊔ Tensor((m,4),f32)
// is Tensor(ndim=2, f32) unless n == m is provable; a different dtype becomes
// unknown, a different ndim -1, different kinds (or tuples of different
// arity) Object; Prims with different values keep only the dtype.
StructInfo StructInfoLCA(const StructInfo& a, const StructInfo& b, arith::Analyzer& ana);

// Drops what `sinfo` says in terms of variables that are not defined:
// a symbolic expression mentioning a symbolic var for which
// `sym_var_defined` is false is dropped (a Tensor keeps ndim and dtype, a
// Shape its ndim, a Prim its dtype); a tensor shape given as a graph Var for
// which `relax_var_defined` is false is replaced by that var's known
// dimensions (when those are well defined) or dropped. An empty
// std::function means "every variable is defined". Symbolic vars defined by
// a Callable's own parameters stay defined inside that Callable.
StructInfo EraseToWellDefined(const StructInfo& sinfo, std::function<bool(const ir::Var&)> sym_var_defined,
                              std::function<bool(const Var&)> relax_var_defined = nullptr);

// Symbolic vars that appear as a bare dimension (or as Prim(value=v)), in
// order of first appearance: those a parameter annotation or a match_cast
// defines. Callable struct info defines nothing.
std::vector<ir::Var> DefinableTIRVarsInStructInfo(const StructInfo& sinfo);
// Every symbolic var used anywhere in `sinfo`, in order of first appearance.
std::vector<ir::Var> TIRVarsInStructInfo(const StructInfo& sinfo);

// Replaces symbolic vars by `fmap`'s results (an undefined result keeps the
// var) and simplifies the changed expressions with `ana` (a private analyzer
// when null). Tensor shapes held in graph Vars are kept as they are.
StructInfo SubstituteStructInfo(const StructInfo& sinfo, const std::function<PrimExpr(const ir::Var&)>& fmap,
                                arith::Analyzer* ana = nullptr);

// The struct info of `call` to a callee of struct info `finfo`:
// 1. each callee dimension that is a bare symbolic var binds to the
//    argument's expression at the same place (the first binding wins);
// 2. each parameter, with the bindings substituted, is checked against its
//    argument: a provable mismatch throws CompileError at call->span, e.g.
//    "argument 0 of 'f': expected Tensor((n, n), float32), got Tensor((3, 4), float32)";
//    an argument count mismatch likewise;
// 3. the return struct info with the bindings substituted; callee vars left
//    unbound are erased to what is certain.
// An opaque callee (unknown parameters) returns call->sinfo_args[0] when
// given, else its declared return.
StructInfo DeriveCallRetStructInfo(const FuncStructInfo& finfo, const Call& call, BlockBuilder& bb);

}  // namespace rlx::graph
