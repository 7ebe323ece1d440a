// The TVMScript parser: text → IRModule.
//
// Reads the I, R and T dialects of TVMScript as Apache TVM prints and parses
// them (both the v0.23 spelling — T.block, T.alloc_buffer, out_sinfo= — and
// today's — T.sblock, T.sblock_alloc_buffer, out_ty=). Struct info is deduced
// while parsing through graph::BlockBuilder, so a provable shape mismatch is
// reported at the offending line. Every error is a CompileError rendered as
// `file:line:col: error: message` with the source line and a caret.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "rlx/ir/module.h"
#include "rlx/support/source.h"

namespace rlx::text {

// Parses a source holding exactly one `@I.ir_module` class (or, failing that,
// top-level `@R.function` / `@T.prim_func` definitions, which are gathered
// into one module).
ir::IRModule ParseModule(const SourceFilePtr& source);

// Parses every `@I.ir_module` class of the source, in order, with its class
// name (text tests hold a `Before` and an `Expected` module in one file).
std::vector<std::pair<std::string, ir::IRModule>> ParseModules(const SourceFilePtr& source);

// Convenience: a source named `name` with `text`.
ir::IRModule ParseModuleText(const std::string& text, const std::string& name = "<string>");

// Reads a whole file (CompileError if it cannot be read).
SourceFilePtr ReadSourceFile(const std::string& path);

}  // namespace rlx::text
