/* A preload for uninitialized_check.py, no mmbench in it: after each
 * BLACS_GRIDINIT returns, the stack below its caller is filled with one
 * byte (NAN_STACK_BYTE, default 0xff: every double read there is a NaN),
 * so a local the caller's next call reads before setting holds that. The
 * driver xdsyevr's PDSEPRREQ makes a grid, then calls PDSEPRTST from the
 * same frame: PDSEPRTST's VL and VU sit where the fill went. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kBytes = 64 * 1024 };

static int fill_byte(void) {
  const char* v = getenv("NAN_STACK_BYTE");
  return v ? (int)strtol(v, NULL, 0) : 0xff;
}

/* noinline: its buffer lies below the caller's frame, where the caller's
 * next callee's frame will be. */
__attribute__((noinline)) static void fill_below(int byte) {
  volatile unsigned char buf[kBytes];
  memset((void*)buf, byte, sizeof buf);
  __asm__ volatile("" : : "r"(buf) : "memory");
}

/* Fortran BLACS_GRIDINIT(ICONTXT, ORDER, NPROW, NPCOL); gfortran adds
 * ORDER's length, passed on as it came. */
void blacs_gridinit_(int* ctxt, char* order, int* nprow, int* npcol, long order_len) {
  static void (*next)(int*, char*, int*, int*, long);
  if (!next) {
    next = (void (*)(int*, char*, int*, int*, long))dlsym(RTLD_NEXT, "blacs_gridinit_");
    if (!next) {
      fputs("nan_stack: no blacs_gridinit_ after this library\n", stderr);
      abort();
    }
  }
  next(ctxt, order, nprow, npcol, order_len);
  fill_below(fill_byte());
}
