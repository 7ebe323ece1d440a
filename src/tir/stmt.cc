#include "rlx/tir/stmt.h"

#include "rlx/tir/function.h"

namespace rlx::tir {

const char* IterKindName(IterKind kind) {
  switch (kind) {
    case IterKind::kSpatial: return "S";
    case IterKind::kReduce: return "R";
    case IterKind::kScan: return "C";
    case IterKind::kOpaque: return "O";
    case IterKind::kThreadIndex: return "T";
  }
  return "?";
}

bool IsThreadBindingAttr(const std::string& attr_key) {
  return attr_key == "thread_extent" || attr_key == "virtual_thread";
}

bool ForNode::HasUnitStep() const { return !step.defined() || ir::IsConstInt(step, 1); }

const char* ForKindName(ForKind kind) {
  switch (kind) {
    case ForKind::kSerial: return "serial";
    case ForKind::kParallel: return "parallel";
    case ForKind::kVectorized: return "vectorized";
    case ForKind::kUnrolled: return "unroll";
    case ForKind::kThreadBinding: return "thread_binding";
  }
  return "?";
}

Stmt MakeSeq(std::vector<Stmt> stmts) {
  std::vector<Stmt> flat;
  for (Stmt& stmt : stmts) {
    if (!stmt.defined()) continue;
    if (const auto* seq = stmt.as<SeqStmtNode>()) {
      flat.insert(flat.end(), seq->seq.begin(), seq->seq.end());
    } else {
      flat.push_back(std::move(stmt));
    }
  }
  if (flat.empty()) return make<EvaluateNode>(ir::MakeInt(0, DataType::Int32()));
  if (flat.size() == 1) return flat[0];
  return make<SeqStmtNode>(std::move(flat));
}

Buffer PrimFuncNode::BufferFor(const Var& param) const {
  for (const auto& [var, buffer] : buffer_map) {
    if (var.same_as(param)) return buffer;
  }
  return Buffer();
}

}  // namespace rlx::tir
