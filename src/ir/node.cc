#include "rlx/ir/node.h"

namespace rlx {

const char* NodeKindName(NodeKind kind) {
  switch (kind) {
#define RLX_NAME_PRIM(name) \
  case NodeKind::kPrim##name: return #name;
    RLX_PRIM_EXPR_NODES(RLX_NAME_PRIM)
#undef RLX_NAME_PRIM
#define RLX_NAME(name) \
  case NodeKind::k##name: return #name;
    RLX_STMT_NODES(RLX_NAME)
    RLX_STRUCT_INFO_NODES(RLX_NAME)
#undef RLX_NAME
#define RLX_NAME_GRAPH(name) \
  case NodeKind::kGraph##name: return "relax." #name;
    RLX_GRAPH_EXPR_NODES(RLX_NAME_GRAPH)
#undef RLX_NAME_GRAPH
    case NodeKind::kArray: return "Array";
    case NodeKind::kDict: return "Dict";
    case NodeKind::kBuffer: return "Buffer";
    case NodeKind::kIterVar: return "IterVar";
    case NodeKind::kBufferRegion: return "BufferRegion";
    case NodeKind::kMatchBufferRegion: return "MatchBufferRegion";
    case NodeKind::kPrimFunc: return "PrimFunc";
    case NodeKind::kVarBinding: return "VarBinding";
    case NodeKind::kMatchCast: return "MatchCast";
    case NodeKind::kBindingBlock: return "BindingBlock";
    case NodeKind::kDataflowBlock: return "DataflowBlock";
    case NodeKind::kIRModule: return "IRModule";
    case NodeKind::kCount: break;
  }
  return "<invalid kind>";
}

}  // namespace rlx
