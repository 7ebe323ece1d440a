// Well-formedness of a module: the invariants every pass may assume and must
// keep (after Apache TVM's relax::WellFormed and tir::VerifyWellFormed).
//
// Graph functions:
//   - every Var is defined before use (a parameter, an earlier binding in an
//     enclosing scope) and defined once in its function; a Var defined inside
//     an If branch is invisible after it;
//   - a DataflowVar is defined only in a dataflow block and used only in
//     that block; never a function parameter;
//   - every symbolic variable used in struct info or shape expressions is
//     defined: by its first bare appearance in a parameter annotation, or by
//     an earlier match_cast (symbolic variables do not cross functions);
//     function return annotations may only use parameter-defined ones;
//   - every expression has struct info (operators and global function
//     references excepted: theirs comes from the registry and the module);
//   - A-normal form: call arguments, tuple fields, the indexed tuple, If
//     conditions and SeqExpr bodies are leaves (Var, Constant, ShapeExpr,
//     PrimValue, StringImm, GlobalVar, ExternFunc, Op, or a Tuple of
//     leaves); a callee is a leaf; function bodies and If branches are
//     SeqExprs and SeqExprs appear nowhere else;
//   - no If and no impure call (an operator registered impure, a call to an
//     impure function or callable, call_packed, a direct call of a PrimFunc)
//     inside a dataflow block; no impure call in a function marked pure
//     unless it has the attribute "relax.force_pure" (which in turn requires
//     the function to be marked pure);
//   - GlobalVars name functions of the module; shape dimensions are integers.
// PrimFuncs:
//   - every variable used is bound: a parameter, a buffer_map shape, stride
//     or offset variable (its first bare appearance defines it), a loop
//     variable, a block iteration variable, a let variable, the data
//     variable of a declared or allocated buffer;
//   - every buffer used is in buffer_map, the alloc_buffers or match_buffers
//     of an enclosing block, or declared by a DeclBuffer (or its data by an
//     Allocate) in scope, or is a view (`T.Buffer(..., data=ptr)`, as TVM
//     writes flattened buffers) whose data pointer is bound;
//   - loop, let and block iteration variables are bound once;
//   - a BlockRealize binds as many values as its block has iteration vars.
//
// Every message starts with the function it is about ("function 'main': ",
// "PrimFunc 'relu': ") and the diagnostic points at the offending node when
// its span is known, else at the enclosing binding, statement or function.
#pragma once

#include <vector>

#include "rlx/ir/module.h"
#include "rlx/support/diagnostic.h"

namespace rlx::graph {

// Throws CompileError for the first violation found; returns when `mod` is
// well formed.
void CheckWellFormed(const ir::IRModule& mod);

// Every violation found in `mod`, in module order; empty when well formed.
std::vector<Diagnostic> WellFormedDiagnostics(const ir::IRModule& mod);

}  // namespace rlx::graph
