// TVM's TIR builtins that TVMScript writes as `T.<name>(...)` and that this
// project keeps as opaque scalar calls (ir::CallNode with the builtin's
// name): the storage, packed-call, tensor-core and warp intrinsics of
// TVM's tir/builtin.h. Shared by the parser and the printer so that the
// `dtype=` keyword is printed exactly when the parser could not infer it.
//
// The result dtype of a call without `dtype=` is `default_dtype`, or the
// dtype of argument `dtype_from_arg` when that is set; a builtin with
// neither (tvm_struct_get, type_annotation) needs `dtype=`.
#pragma once

#include <optional>
#include <string>
#include <unordered_map>

#include "rlx/ir/dtype.h"

namespace rlx::text::detail {

struct TIRBuiltinInfo {
  DataType default_dtype;  // void: from an argument, or `dtype=` is required
  int dtype_from_arg = -1;
};

inline const TIRBuiltinInfo* FindTIRBuiltin(const std::string& name) {
  static const std::unordered_map<std::string, TIRBuiltinInfo> kBuiltins = {
      {"address_of", {DataType::Handle()}},
      {"tvm_struct_get", {DataType()}},
      {"tvm_struct_set", {DataType::Int32()}},
      {"tvm_stack_alloca", {DataType::Handle()}},
      {"tvm_stack_make_shape", {DataType::Handle()}},
      {"tvm_stack_make_array", {DataType::Handle()}},
      {"tvm_access_ptr", {DataType::Handle()}},
      {"type_annotation", {DataType()}},
      {"tvm_load_matrix_sync", {DataType::Handle()}},
      {"tvm_store_matrix_sync", {DataType::Handle()}},
      {"tvm_mma_sync", {DataType::Handle()}},
      {"tvm_bmma_sync", {DataType::Handle()}},
      {"tvm_fill_fragment", {DataType::Handle()}},
      {"tvm_thread_allreduce", {DataType::Handle()}},
      {"tvm_storage_sync", {DataType::Int32()}},
      {"tvm_warp_shuffle", {DataType(), 1}},
      {"tvm_warp_shuffle_up", {DataType(), 1}},
      {"tvm_warp_shuffle_down", {DataType(), 1}},
      {"tvm_warp_activemask", {DataType::UInt(32)}},
      {"isnullptr", {DataType::Bool()}},
      {"tvm_call_packed", {DataType::Int32()}},
      {"tvm_call_cpacked", {DataType::Int32()}},
      {"tvm_call_trace_packed", {DataType::Int32()}},
      {"tvm_call_packed_lowered", {DataType::Int32()}},
      {"tvm_call_cpacked_lowered", {DataType::Int32()}},
      {"tvm_throw_last_error", {DataType::Int32()}},
      {"tvm_check_return", {DataType::Int32()}},
      {"assume", {DataType::Bool()}},
      {"undef", {DataType::Int32()}},
      {"llvm_lookup_intrinsic_id", {DataType::UInt(32)}},  // kept by name: TVM's ids depend on the LLVM version
      {"TVMBackendAllocWorkspace", {DataType::Handle()}},
      {"TVMBackendFreeWorkspace", {DataType::Int32()}},
  };
  auto it = kBuiltins.find(name);
  return it == kBuiltins.end() ? nullptr : &it->second;
}

}  // namespace rlx::text::detail
