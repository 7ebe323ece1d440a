/* The C ABI between the rlx runtime and compiled code (LLVM-generated
 * kernels, C test kernels, a deployed model's .so).
 *
 * 1. Calling a kernel. Every exported kernel has the packed signature
 *
 *      int kernel(RLXValue* args, int* type_codes, int num_args,
 *                 RLXValue* ret, int* ret_code);
 *
 *    args[i] holds a tensor (type code RLX_ARG_TENSOR, v_handle is a
 *    DLTensor*), an int64 scalar (RLX_ARG_INT, v_int64; bools are 0/1), a
 *    double (RLX_ARG_FLOAT), a string (RLX_ARG_STRING) or an opaque pointer
 *    (RLX_ARG_HANDLE). A kernel that returns a value writes *ret and
 *    *ret_code (RLX_ARG_INT, RLX_ARG_FLOAT or RLX_ARG_STRING with a string
 *    that outlives the call, e.g. a literal); *ret_code is RLX_ARG_NULL on
 *    entry. It returns 0 on success; on failure it calls
 *    rlx_set_last_error(message) and returns nonzero, and the runtime
 *    raises a RuntimeError with that message. Outputs are passed as tensors
 *    (destination-passing style), so most kernels return nothing.
 *
 * 2. Calling back into the runtime. A shared library cannot rely on the
 *    host process exporting the runtime's symbols (the runtime is a static
 *    library; dlopen would fail with "undefined symbol"). Instead each module
 *    defines two symbols, best with RLX_DEFINE_MODULE():
 *
 *      const int32_t rlx_module_abi_version = RLX_C_ABI_VERSION;
 *      const RLXRuntimeCallbacks* rlx_runtime_callbacks = NULL;
 *
 *    Module::LoadFromFile checks the version and stores the runtime's
 *    callback table in rlx_runtime_callbacks before any kernel runs. Kernels
 *    call e.g. rlx_runtime_callbacks->parallel_for(n, body, closure).
 *    In-process code (the JIT, tests) may call the rlx_* functions below
 *    directly, or fill the same table from rlx_get_runtime_callbacks().
 *
 * 3. Parallel loops. parallel_for(n, body, closure) calls body(begin, end,
 *    closure) on disjoint chunks covering [0, n) on the runtime's threads.
 *    A body returns 0, or calls set_last_error and returns nonzero; then
 *    parallel_for returns nonzero with that message as the last error (other
 *    chunks still finish).
 *
 * 4. Workspace. alloc_workspace(nbytes) returns 64-byte aligned scratch
 *    memory from the runtime's pool (NULL with a last error if exhausted);
 *    free_workspace(ptr) gives it back. Usable from parallel bodies.
 *
 * Changing anything here means bumping RLX_C_ABI_VERSION.
 */
#ifndef RLX_RUNTIME_C_ABI_H_
#define RLX_RUNTIME_C_ABI_H_

#include <stdint.h>

#include "rlx/runtime/dlpack.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RLX_C_ABI_VERSION 1

#if defined(_WIN32)
#define RLX_C_EXPORT __declspec(dllexport)
#else
#define RLX_C_EXPORT __attribute__((visibility("default")))
#endif

typedef enum {
  RLX_ARG_INT = 0,
  RLX_ARG_FLOAT = 1,
  RLX_ARG_HANDLE = 2,
  RLX_ARG_NULL = 3,
  RLX_ARG_TENSOR = 4,
  RLX_ARG_STRING = 5,
} RLXArgTypeCode;

typedef union {
  int64_t v_int64;
  double v_float64;
  void* v_handle;
  const char* v_str;
} RLXValue;

typedef int (*RLXPackedCFunc)(RLXValue* args, int* type_codes, int num_args, RLXValue* ret, int* ret_code);

typedef int (*RLXParallelBody)(int64_t begin, int64_t end, void* closure);

typedef struct {
  int (*parallel_for)(int64_t n, RLXParallelBody body, void* closure);
  void (*set_last_error)(const char* message);
  void* (*alloc_workspace)(int64_t nbytes);
  void (*free_workspace)(void* ptr);
} RLXRuntimeCallbacks;

/* Names of the symbols every module defines (see 2. above). */
#define RLX_MODULE_ABI_VERSION_SYMBOL "rlx_module_abi_version"
#define RLX_RUNTIME_CALLBACKS_SYMBOL "rlx_runtime_callbacks"

/* Defines both module symbols; use once, at global scope, in one C or C++
 * file of a module: RLX_DEFINE_MODULE(); */
#ifdef __cplusplus
#define RLX_DEFINE_MODULE()                                              \
  extern "C" {                                                           \
  RLX_C_EXPORT extern const int32_t rlx_module_abi_version;              \
  RLX_C_EXPORT const RLXRuntimeCallbacks* rlx_runtime_callbacks = 0;     \
  }                                                                      \
  const int32_t rlx_module_abi_version = RLX_C_ABI_VERSION
#else
#define RLX_DEFINE_MODULE()                                              \
  RLX_C_EXPORT const int32_t rlx_module_abi_version = RLX_C_ABI_VERSION; \
  RLX_C_EXPORT const RLXRuntimeCallbacks* rlx_runtime_callbacks = 0
#endif

/* The runtime's own implementations (defined in the rlx_runtime library). */
int rlx_parallel_for(int64_t n, RLXParallelBody body, void* closure);
void rlx_set_last_error(const char* message);
/* The calling thread's last error message ("" if none). */
const char* rlx_get_last_error(void);
void* rlx_alloc_workspace(int64_t nbytes);
void rlx_free_workspace(void* ptr);
/* The table Module::LoadFromFile installs in every module. */
const RLXRuntimeCallbacks* rlx_get_runtime_callbacks(void);

#ifdef __cplusplus
}  /* extern "C" */
#endif

#endif /* RLX_RUNTIME_C_ABI_H_ */
