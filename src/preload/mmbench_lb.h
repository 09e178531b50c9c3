/* libmmbench-lb.so: mmbench's tuned logical block size for any ScaLAPACK
 * program, by LD_PRELOAD.
 *
 *   LD_PRELOAD=/path/libmmbench-lb.so MMBENCH_PROFILE=configs/<host>.json mpirun -n 64 ./app
 *   LD_PRELOAD=/path/libmmbench-lb.so MMBENCH_LB=256 mpirun -n 64 ./app
 *   (on several nodes pass them on: mpirun -x LD_PRELOAD -x MMBENCH_LB ...)
 *
 * PBLAS asks ScaLAPACK's INTEGER FUNCTION PILAENV(ICTXT, PREC) for the
 * logical block size lb; ScaLAPACK's own answers 32 whatever the machine.
 * This library defines pilaenv_ itself and answers
 *   MMBENCH_LB       a positive integer; wins over the profile, or else
 *   MMBENCH_PROFILE  an mmbench machine profile (`mmbench tune`): its "lb",
 *                    capped for each PDGEMM so that every process's share
 *                    of k still holds several panels (mmbench's
 *                    docs/cost-models.md, "An lb that fits every size"): a
 *                    profile tuned at n = 4096 does not give a 1024 x 1024
 *                    product one panel per process. To know k and the grid,
 *                    the library also defines pdgemm_, which notes them and
 *                    calls ScaLAPACK's. Other PBLAS routines get the lb
 *                    uncapped.
 *   neither          32, ScaLAPACK's default.
 * MMBENCH_LB is served as given, uncapped: it is the user's own choice.
 * A bad MMBENCH_LB or an unreadable or malformed profile gives one line on
 * stderr (rank 0) and the default 32: it never stops the program.
 * MMBENCH_VERBOSE=1 prints one line on rank 0 naming the lb and its source.
 * Both lines come with the first call, i.e. once PBLAS is first used, and
 * MMBENCH_LB / MMBENCH_PROFILE are read only then, once per process.
 *
 * PILAENV serves EVERY PBLAS routine that blocks its work by lb, not only
 * PDGEMM: all level-3 routines (P?GEMM, P?SYMM, P?HEMM, P?SYRK, P?HERK,
 * P?SYR2K, P?HER2K, P?TRMM, P?TRSM), several level-2 ones (P?SYMV, P?HEMV,
 * P?TRMV, P?TRSV, P?SYR, P?SYR2, ...) and the PBLAS tools P?GEADD, P?TRADD,
 * P?TRAN -- and so the ScaLAPACK drivers built on them (PDGETRF, PDPOTRF,
 * ...). An lb tuned for PDGEMM may not be the best for those.
 *
 * It works where ScaLAPACK calls pilaenv_ through the dynamic linker (as
 * Debian's shared libscalapack-openmpi does), and not in a program that
 * defines pilaenv_ itself (mmbench does: there --lb sets lb): the
 * executable's definition comes before any preloaded one.
 *
 * The functions below are exported for programs that want to know what
 * happened; look them up with dlsym(RTLD_DEFAULT, ...) so the program still
 * runs without the library. */
#ifndef MMBENCH_LB_H
#define MMBENCH_LB_H

#ifdef __cplusplus
extern "C" {
#endif

/* How often PBLAS called this library's pilaenv_ in this process. */
long mmbench_lb_calls(void);
/* The lb this library serves (reads the configuration if not yet done):
 * MMBENCH_LB, the profile's lb before any cap, or 32. */
int mmbench_lb_value(void);
/* The lb the last pilaenv_ call in this process returned (a profile's lb
 * after the cap for its PDGEMM); 0 before the first call. */
int mmbench_lb_last(void);

#ifdef __cplusplus
}
#endif

#endif
