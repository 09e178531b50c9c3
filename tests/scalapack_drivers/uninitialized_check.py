#!/usr/bin/env python3
"""The defect in ScaLAPACK's own xdsyevr that run_driver.py counts apart
(UNINITIALIZED_CHECK), shown on Debian's ScaLAPACK alone, without mmbench:
the driver under nan_stack.c's preload, which fills the stack below the
driver's grid-making frame with one byte after each BLACS_GRIDINIT.

Passes when
  - with a byte that makes every double a NaN (0xff), the driver reaches
    its end, entries fail, every failed entry that printed a line printed
    UNINITIALIZED_CHECK and nothing else (the check read VL and VU nobody
    set), and run_driver.counts, given the driver's thresholds, counts
    exactly those apart, with their residuals below THRESH (an entry that
    failed with no line at all stays failed there, and is said in a note:
    the driver reads other unset values too, whose garbage varies);
  - with a byte that makes them finite (0x11: 3.8e-222), the unset-VL/VU
    line all but disappears: at most one entry in ten of those that printed
    it on the NaN stack (the control: the NaN fill is what makes the check
    fire). Not zero: the fill covers the stack below the grid-making frame
    only, and in one fresh-clone CI run one of 136 entries still read a NaN
    from elsewhere and printed the line; such entries are said in a note.
    (An entry may also fail without the line: the driver reads other unset
    values, whose garbage varies; said in a note line, not failed.)
If ScaLAPACK's driver sets VL and VU some day, the first part fails, and
run_driver.py's exception can go. Exit 77 (skipped) without the drivers.

    uninitialized_check.py --mpirun M --drivers DIR --lib NAN_STACK_SO --work DIR
"""
import argparse
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run_driver import UNINITIALIZED_CHECK, counts, dat_thresholds, driver_env, run, syevr_failed_entries  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mpirun", required=True)
    ap.add_argument("--drivers", required=True)
    ap.add_argument("--lib", required=True)
    ap.add_argument("--work", required=True)
    a = ap.parse_args()
    exe = os.path.join(a.drivers, "xdsyevr")
    if not os.access(exe, os.X_OK):
        print(f"SKIP: {exe} not installed (Debian package scalapack-mpi-test)")
        return 77
    work = os.path.join(a.work, "xdsyevr-uninitialized")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    shutil.copy(os.path.join(a.drivers, "SEPR.dat"), work)
    thresholds = dat_thresholds(open(os.path.join(work, "SEPR.dat")).read())
    env = driver_env()
    problems = []
    unset_on_nan = 0  # entries that printed the unset-VL/VU line on the NaN stack
    for byte, nan in (("0xff", True), ("0x11", False)):
        cmd = [a.mpirun, "-q", "-n", "4", "-x", f"LD_PRELOAD={a.lib}", "-x", f"NAN_STACK_BYTE={byte}", exe]
        rc, out = run(cmd, work, env)
        path = os.path.join(work, f"stack-{byte}.out")
        open(path, "w").write(out or "")
        raw, got = counts(out or ""), counts(out or "", thresholds)
        entries = syevr_failed_entries(out or "", thresholds)
        said = sorted({line for lines, _, _ in entries for line in lines})
        print(f"stack filled with {byte}: exit {rc}, passed {raw.passed}, failed {raw.failed}; "
              f"counted apart {got.unset_only}, still failed {got.failed}; lines before failed entries: "
              f"{' | '.join(said) or 'none'}")
        if rc != 0 or not raw.ended:
            problems.append(f"{byte}: the driver did not run to its end (exit {rc}); output in {path}")
        elif nan:
            if raw.failed == 0:
                problems.append(f"{byte}: no entry failed: the check no longer reads unset VL/VU (output in {path})")
            # An entry may fail with no line before it, as on the finite
            # stack below (the driver reads other unset values too): said
            # in a note, and run_driver.counts must still count it as
            # failed. Every entry that printed a line printed exactly the
            # unset-VL/VU one, and exactly those are counted apart.
            unset = [e for e in entries if e[0]]
            unset_on_nan = len(unset)
            silent = len(entries) - len(unset)
            if said != [UNINITIALIZED_CHECK] or not unset:
                problems.append(f"{byte}: a failed entry printed other than the unset-VL/VU line, or none printed "
                                f"it: {raw.messages}")
            if got.unset_only != len(unset) or got.failed != silent:
                problems.append(f"{byte}: counts with thresholds {tuple(got[:6])}, expected {len(unset)} apart "
                                f"and {silent} failed")
            if silent:
                print(f"note: {byte}: {silent} entries failed without any line before them ({path})")
        else:
            unset_line = [e for e in entries if UNINITIALIZED_CHECK in e[0]]
            if 10 * len(unset_line) > unset_on_nan:
                problems.append(f"{byte}: {len(unset_line)} entries printed the unset-VL/VU line with finite values "
                                f"on the stack, against {unset_on_nan} on the NaN stack ({path})")
            elif unset_line:
                print(f"note: {byte}: {len(unset_line)} entries printed the unset-VL/VU line with finite values on "
                      f"the stack (a NaN read from outside the filled part), against {unset_on_nan} on the NaN "
                      f"stack ({path})")
            if raw.failed > len(unset_line):
                # Seen in some runs on this VM: 1 of 136 entries (N = 6 on
                # 1 x 2) FAILED with its residuals under THRESH and no line
                # before it, on a stack of finite bytes; the driver reads other
                # unset values too, whose garbage varies from run to run. Not
                # this check's subject, so said and not failed.
                print(f"note: {byte}: {raw.failed - len(unset_line)} entries failed without the unset-VL/VU line "
                      f"({path})")
    for p in problems:
        print("FAIL:", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
