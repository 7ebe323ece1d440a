// The TVMScript printer: IR → text.
//
// Prints modules, graph-level (Relax) functions, tensor programs (PrimFunc),
// struct info and scalar expressions in the form Apache TVM (v0.23) prints
// them, so that TVM users recognize the text, TVM can parse it, and our own
// parser (text/parser.h) reads it back to a structurally equal module:
//
//   # from tvm.script import ir as I
//   # from tvm.script import tir as T
//   # from tvm.script import relax as R
//
//   @I.ir_module
//   class Module:
//       @T.prim_func(private=True)
//       def add(var_A: T.handle, var_C: T.handle):
//           T.func_attr({"tir.noalias": T.bool(True)})
//           n = T.int64()
//           A = T.match_buffer(var_A, (n, T.int64(4)))
//           ...
//
//       @R.function
//       def main(x: R.Tensor(("n", 4), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
//           n = T.int64()
//           cls = Module
//           with R.dataflow():
//               lv = R.call_tir(cls.add, (x,), out_sinfo=R.Tensor((n, 4), dtype="float32"))
//               ...
//
// Deliberate differences from TVM, all in favour of exact round trips:
// functions keep module order (TVM sorts them), dictionaries keep insertion
// order (TVM sorts keys), non-scalar constants print inline as
// `R.const([[1, 2], [3, 4]], "int32")` (TVM uses a metadata section), floats
// print as the shortest text that reads back to the same double, and a
// non-int64 integer in a graph-level expression keeps its type
// (`R.prim_value(T.int32(1))`). Details per construct are in the source
// files (src/text/print_*.cc).
//
// Printing never fails on well-formed IR; malformed IR (a missing body, an
// undefined struct info) prints a best-effort placeholder rather than
// aborting, since the printer is also the debugging aid for broken IR.
#pragma once

#include <string>

#include "rlx/graph/expr.h"
#include "rlx/graph/struct_info.h"
#include "rlx/ir/expr.h"
#include "rlx/ir/module.h"
#include "rlx/tir/function.h"

namespace rlx::text {

// A whole module: header comments, `@I.ir_module`, `class Module:` and every
// function in module order. Ends with a newline.
std::string PrintModule(const ir::IRModule& module);

// One tensor program as a standalone `@T.prim_func def name(...)`, with its
// header comments. Ends with a newline.
std::string PrintPrimFunc(const tir::PrimFunc& func, const std::string& name);

// One graph-level function as a standalone `@R.function def name(...)`, with
// its header comments. Ends with a newline.
std::string PrintFunction(const graph::Function& func, const std::string& name);

// `R.Tensor((n, 4), dtype="float32")`, `R.Shape([n, 4])`, `R.Object`, ...
std::string PrintStructInfo(const graph::StructInfo& sinfo);

// A scalar expression in TIR spelling: `n * T.int64(4) + T.int64(1)`,
// `T.max(x, T.float32(0.0))`, `A[i, j]`.
std::string PrintPrimExpr(const ir::PrimExpr& expr);

// Any node, dispatching on its kind: modules and functions as above, struct
// info, PrimExprs, TIR statements, graph expressions, bindings and blocks,
// buffers, attribute arrays and dictionaries. For debugging and messages;
// "None" for an undefined reference.
std::string Print(const ObjectRef& node);

}  // namespace rlx::text
