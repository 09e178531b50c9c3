// Control of PBLAS' logical block size lb (docs/method.md §2.2).
//
// PBLAS asks the Fortran function PILAENV for lb; ScaLAPACK hard-wires 32.
// pilaenv_override.cpp defines our own `pilaenv_`. It must be linked
// directly into the executable (CMake object library), not from a static
// archive: the linker would silently drop an archive member nobody in the
// executable references, and ScaLAPACK's own pilaenv_ would be used. Debian's
// shared libscalapack-openmpi calls pilaenv_ through the PLT, so the
// executable's definition wins. Whether it did is checked at run time by
// counting calls (pilaenv_calls()). For the same reason a preloaded
// libmmbench-lb.so (src/preload: the same idea for programs other than
// mmbench) never changes mmbench's own lb.
#pragma once

namespace mmbench::algos {

// lb returned to PBLAS from now on; 0 = the library's default (32).
void set_logical_block_size(int lb);
int logical_block_size();
// How often PBLAS called our pilaenv_ so far (all threads; PBLAS is serial).
long pilaenv_calls();
void count_pilaenv_call();  // called by pilaenv_ only

}  // namespace mmbench::algos
