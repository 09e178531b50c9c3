/* libmmbench-dispatch.so: mmbench's algorithms inside any ScaLAPACK
 * program, by LD_PRELOAD. Each PDGEMM call goes to ScaLAPACK's own PDGEMM
 * (with the tuned lb, as libmmbench-lb.so serves it) or to one of mmbench's
 * algorithms on the caller's grid, whichever the cost models calibrated by
 * `mmbench tune` predict faster, the cost of converting the caller's
 * block-cyclic operands included.
 *
 *   mpirun -n 64 -x LD_PRELOAD=/path/libmmbench-dispatch.so \
 *          -x MMBENCH_PROFILE=configs/<host>.json ./app
 *
 * Environment (read once, at the first PDGEMM; docs/dispatch.md):
 *   MMBENCH_PROFILE            the machine profile the models use; without
 *                              it every call goes to ScaLAPACK
 *   MMBENCH_DISPATCH           on (default) | off: off sends every call to
 *                              ScaLAPACK without unloading the library
 *   MMBENCH_DISPATCH_STRASSEN  1: Strassen members too (local
 *                              Strassen-Winograd levels, parallel Strassen);
 *                              their error bound is larger (docs/dispatch.md)
 *   MMBENCH_DISPATCH_MIN_DIM   calls with min(M, N, K) below it go straight
 *                              to ScaLAPACK (default 256)
 *   MMBENCH_DISPATCH_MAX_MB    memory per rank a member and its conversion
 *                              buffers may hold (default 4096); above it,
 *                              ScaLAPACK
 *   MMBENCH_DISPATCH_GEMM      auto | blas | packed: the GEMM in each rank
 *                              of mmbench's members (auto: the profile's
 *                              faster one)
 *   MMBENCH_DISPATCH_FORCE     scalapack | <member>[:L]: one member for
 *                              every call that may be dispatched (tests)
 *   MMBENCH_DISPATCH_LOG       a file: the call census (rank 0 writes one
 *                              CSV row per call and prints a summary at
 *                              MPI_Finalize; `mmbench census FILE` reads it)
 *   MMBENCH_VERBOSE            1: rank 0 prints one line saying what is active
 *   MMBENCH_LB                 as for libmmbench-lb.so (mmbench_lb.h)
 *
 * The exact semantics of PDGEMM hold for every call: sub(C) := alpha
 * op(sub(A)) op(sub(B)) + beta sub(C) on the submatrices, beta = 0 without
 * reading C, nothing outside sub(C) touched, any blocking, source process,
 * offset and grid (BLACS descriptor types 1 and 2). Calls it cannot serve
 * go to ScaLAPACK and say why in the census.
 *
 * Grids: any number alive at once, made and freed as the program likes
 * (Cblacs_gridinit/gridmap ... gridexit, in C or Fortran); the library
 * knows a grid by its processes and drops what it held for one when the
 * program frees it. Threads: calls on one grid from one thread at a time,
 * as BLACS requires; calls on different grids from different threads do
 * not wait for each other in the library.
 *
 * The functions below are exported for programs and tests that want to
 * steer or inspect it; look them up with dlsym(RTLD_DEFAULT, ...). The
 * library also exports pilaenv_ and the functions of mmbench_lb.h. */
#ifndef MMBENCH_DISPATCH_H
#define MMBENCH_DISPATCH_H

#ifdef __cplusplus
extern "C" {
#endif

/* Force a member for the calls from now on ("scalapack", "ring", "tpmm",
 * "2.5d", "strassen-q7+ring", "strassen-q8+tpmm", "strassen-q8+dgemm";
 * "ring:2" for two local Strassen-Winograd levels, "tpmm/2" for a ranks x
 * threads hybrid of 2, "ring:1/2" for both), or the model again with
 * NULL or "". 0 on success, -1 for a name that is not a member or outside
 * MPI_Init .. MPI_Finalize. Every process of a grid must force the same. */
int mmbench_dispatch_force(const char* member);
/* PDGEMM calls seen in this process, and those an mmbench member ran. */
long mmbench_dispatch_calls(void);
long mmbench_dispatch_dispatched(void);
/* The choice of this thread's last call: "scalapack lb=32", "ring",
 * "ring L=2", ... */
const char* mmbench_dispatch_last_choice(void);
/* The error bound of this thread's last call over the classical one: 1 for
 * ScaLAPACK and classical members, 18 per local Strassen-Winograd level and
 * 12 per parallel Strassen level that the call applied (docs/dispatch.md). */
double mmbench_dispatch_last_error_growth(void);

#ifdef __cplusplus
}
#endif

#endif
