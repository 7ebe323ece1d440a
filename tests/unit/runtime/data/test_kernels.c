/* Tiny kernels in the rlx C ABI (rlx/runtime/c_abi.h) for module_test.
 *
 * Built twice: as the module rlx_test_kernels, and with
 * RLX_TEST_OMIT_MODULE_SYMBOLS as rlx_test_not_a_module, a valid shared
 * library that lacks the module symbols and must be rejected.
 */
#include <stddef.h>

#include "rlx/runtime/c_abi.h"

#ifndef RLX_TEST_OMIT_MODULE_SYMBOLS
RLX_DEFINE_MODULE();
#else
extern const RLXRuntimeCallbacks* rlx_runtime_callbacks;
const RLXRuntimeCallbacks* rlx_runtime_callbacks = 0;
#endif

static int64_t NumElements(const DLTensor* tensor) {
  int64_t count = 1;
  for (int i = 0; i < tensor->ndim; ++i) count *= tensor->shape[i];
  return count;
}

static float* Floats(const DLTensor* tensor) { return (float*)((char*)tensor->data + tensor->byte_offset); }

static int Fail(const char* message) {
  rlx_runtime_callbacks->set_last_error(message);
  return -1;
}

/* add_one(x: float32 tensor, y: float32 tensor): y = x + 1 */
RLX_C_EXPORT int add_one(RLXValue* args, int* type_codes, int num_args, RLXValue* ret, int* ret_code) {
  (void)ret;
  (void)ret_code;
  if (num_args != 2 || type_codes[0] != RLX_ARG_TENSOR || type_codes[1] != RLX_ARG_TENSOR) {
    return Fail("add_one expects two tensors");
  }
  const DLTensor* x = (const DLTensor*)args[0].v_handle;
  const DLTensor* y = (const DLTensor*)args[1].v_handle;
  if (NumElements(x) != NumElements(y)) return Fail("add_one: x and y differ in size");
  for (int64_t i = 0; i < NumElements(x); ++i) Floats(y)[i] = Floats(x)[i] + 1.0f;
  return 0;
}

/* sum_scalars(a: int, b: int, c: float) -> float: a + b + c */
RLX_C_EXPORT int sum_scalars(RLXValue* args, int* type_codes, int num_args, RLXValue* ret, int* ret_code) {
  if (num_args != 3 || type_codes[0] != RLX_ARG_INT || type_codes[1] != RLX_ARG_INT ||
      type_codes[2] != RLX_ARG_FLOAT) {
    return Fail("sum_scalars expects (int, int, float)");
  }
  ret->v_float64 = (double)args[0].v_int64 + (double)args[1].v_int64 + args[2].v_float64;
  *ret_code = RLX_ARG_FLOAT;
  return 0;
}

/* always_fails(): reports an error through the runtime. */
RLX_C_EXPORT int always_fails(RLXValue* args, int* type_codes, int num_args, RLXValue* ret, int* ret_code) {
  (void)args, (void)type_codes, (void)num_args, (void)ret, (void)ret_code;
  return Fail("the kernel always fails");
}

/* fails_silently(): a nonzero return without a message. */
RLX_C_EXPORT int fails_silently(RLXValue* args, int* type_codes, int num_args, RLXValue* ret, int* ret_code) {
  (void)args, (void)type_codes, (void)num_args, (void)ret, (void)ret_code;
  return 7;
}

/* parallel_scale(x: float32 tensor, factor: float): x *= factor, through the
 * runtime's parallel_for; fails if any element is negative. */
typedef struct {
  float* data;
  float factor;
} ScaleClosure;

static int ScaleRange(int64_t begin, int64_t end, void* closure) {
  ScaleClosure* scale = (ScaleClosure*)closure;
  for (int64_t i = begin; i < end; ++i) {
    if (scale->data[i] < 0) {
      rlx_runtime_callbacks->set_last_error("parallel_scale: negative element");
      return 1;
    }
    scale->data[i] *= scale->factor;
  }
  return 0;
}

RLX_C_EXPORT int parallel_scale(RLXValue* args, int* type_codes, int num_args, RLXValue* ret, int* ret_code) {
  (void)ret, (void)ret_code;
  if (num_args != 2 || type_codes[0] != RLX_ARG_TENSOR || type_codes[1] != RLX_ARG_FLOAT) {
    return Fail("parallel_scale expects (tensor, float)");
  }
  const DLTensor* x = (const DLTensor*)args[0].v_handle;
  ScaleClosure closure = {Floats(x), (float)args[1].v_float64};
  return rlx_runtime_callbacks->parallel_for(NumElements(x), ScaleRange, &closure);
}

/* workspace_roundtrip(n: int) -> int: allocates n bytes of workspace, checks
 * the 64-byte alignment, writes them, frees them; returns the alignment check. */
RLX_C_EXPORT int workspace_roundtrip(RLXValue* args, int* type_codes, int num_args, RLXValue* ret, int* ret_code) {
  if (num_args != 1 || type_codes[0] != RLX_ARG_INT) return Fail("workspace_roundtrip expects (int)");
  char* block = (char*)rlx_runtime_callbacks->alloc_workspace(args[0].v_int64);
  if (block == NULL) return -1; /* the runtime set the message */
  for (int64_t i = 0; i < args[0].v_int64; ++i) block[i] = (char)i;
  ret->v_int64 = ((uintptr_t)block % 64) == 0;
  *ret_code = RLX_ARG_INT;
  rlx_runtime_callbacks->free_workspace(block);
  return 0;
}

/* greeting() -> string */
RLX_C_EXPORT int greeting(RLXValue* args, int* type_codes, int num_args, RLXValue* ret, int* ret_code) {
  (void)args, (void)type_codes, (void)num_args;
  ret->v_str = "hello from C";
  *ret_code = RLX_ARG_STRING;
  return 0;
}
