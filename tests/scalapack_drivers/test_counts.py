#!/usr/bin/env python3
"""run_driver.py's reading of a driver's output, on recorded xdsvd lines
(Debian's ScaLAPACK 2.2.1, 2 x 2, NB = 8): a failed entry counts as failed
unless the tests it failed are only the two that compare singular vectors
of two runs (6 and 8); then it is counted apart, and a member's run matches
a plain run that passed that entry. And on recorded xdsyevr lines (the same
ScaLAPACK, 4 ranks): an entry whose only line is the check that reads unset
VL/VU, or that printed no line (the check failed on another process), with
residuals below its THRESH, is counted apart; any other line, or a residual
at THRESH, is a failure."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run_driver import UNINITIALIZED_CHECK, Counts, counts, dat_thresholds, first_clean, same_outcome  # noqa: E402

HEAD = "TEST 1 - test medium matrices - all types and requests\n"
PASSED = "Passed 0.222E-02-0.100E+01   100    25   2   2    8     {t}  0.10  1.16  0.00    N\n"
END = "End of tests\n"


def output(types_passed, failed_entries):
    text = HEAD + "".join(PASSED.format(t=t) for t in types_passed)
    for tests in failed_entries:
        text += "".join(f" Test I =            {i} has failed\n" for i in tests) + "  \n"
    return text + END


# xdsyevr (SEPR.dat's blocks 1 and 2 have THRESH 80 and 250), recorded rows.
SEPR = "80.0   Threshold (* 5 for generalized tests)\n250.0  Threshold\n"
SYEVR_HEAD = "'TEST 1 - test tiny matrices - different process configurations'\n"
SYEVR_PASSED = "     0   1   1   2   8   N     0.00    -1.00   0.0       0.0     PASSED   EVR  \n"
SYEVR_FAILED = "    21   8   2   2  {typ}   N     0.00    -1.00  {chk}  0.80E-01 FAILED        \n"
SYEVR_END = "    {p} tests completed and passed residual checks.\n    {f} tests completed and failed.\nEND OF TESTS.\n"


def syevr_output(failed):
    """One passed entry, then one failed entry per (lines before it, CHK)."""
    text = SYEVR_HEAD + SYEVR_PASSED
    for lines, chk in failed:
        text += "".join(line + "\n" for line in lines) + SYEVR_FAILED.format(typ=10, chk=chk)
    return text + SYEVR_END.format(p=1, f=len(failed))


def syevr():
    th = dat_thresholds(SEPR)
    assert th == [80.0, 250.0], th
    plain = counts(SYEVR_HEAD + SYEVR_PASSED * 3 + SYEVR_END.format(p=3, f=0), th)
    unset = counts(syevr_output([([UNINITIALIZED_CHECK], "0.36"), ([UNINITIALIZED_CHECK], "0.84E-01")]), th)
    assert (unset.passed, unset.failed, unset.unset_only) == (1, 0, 2), unset
    assert same_outcome(unset, plain)
    # No line at all: the check failed on a process other than 0, which
    # does not print (CI's plain run: "6 1 2 2 8 N ... 1.6 1.1 FAILED").
    silent = counts(syevr_output([([], "1.6"), ([UNINITIALIZED_CHECK], "0.36")]), th)
    assert (silent.failed, silent.unset_only) == (0, 2), silent
    assert same_outcome(silent, plain)
    # Without the driver's thresholds nothing is counted apart.
    assert counts(syevr_output([([UNINITIALIZED_CHECK], "0.36")])).failed == 1
    # Another line beside it, another line alone, a residual at THRESH or
    # one too large to print: failures, and their lines are kept.
    for lines, chk in (([UNINITIALIZED_CHECK, "Different processes return different INFO"], "0.36"),
                       (["Different processes return different INFO"], "0.36"), ([UNINITIALIZED_CHECK], "80.0"),
                       ([UNINITIALIZED_CHECK], "*****"), ([], "80.0"), ([], "*****")):
        got = counts(syevr_output([(lines, chk)]), th)
        assert (got.failed, got.unset_only) == (1, 0), (lines, chk, got)
        # The lines, then the entry's row with them.
        assert list(got.messages[:len(lines)]) == lines, got.messages
        row = "21 8 2 2 10 N 0.00 -1.00 " + chk + " 0.80E-01 FAILED"
        assert got.messages[-1] == f"[{row}: {' / '.join(lines) or 'no line'}]", got.messages
        assert not same_outcome(got, plain)


def main():
    plain = counts(output(range(1, 7), []))
    assert tuple(plain[:5]) == (6, 0, 0, True, 0), plain
    # What the 2.5d member gave with OpenBLAS's Prescott kernel: test 8 of
    # types 4-6 (and plain ScaLAPACK alone with the Sandybridge kernel, once).
    signs = counts(output(range(1, 4), [{8}, {8}, {8}]))
    assert tuple(signs[:5]) == (3, 0, 0, True, 3), signs
    assert same_outcome(signs, plain)
    assert same_outcome(plain, signs)
    # A residual or orthogonality test is a failure, alone or beside test 8.
    for bad in ([{1}], [{2, 8}], [{3}], [{5}], [{6, 9}]):
        got = counts(output(range(1, 6), bad))
        assert got.failed == 1 and got.sign_only == 0, (bad, got)
    # Fewer entries than the plain run is no match.
    assert not same_outcome(counts(output(range(1, 5), [{8}])), plain)
    # Other drivers' forms are read as before.
    assert tuple(counts("  12 tests completed and passed residual checks.\n END OF TESTS.\n")[:5]) == (12, 0, 0, True, 0)
    syevr()
    # A run whose driver failed tests runs again; the first clean run counts,
    # and one that fails every time is returned failed.
    clean, bad = Counts(6, 0, 0, True), Counts(5, 1, 0, True)
    runs = iter([(0, "", bad), (0, "", clean), (0, "", bad)])
    assert first_clean(lambda: next(runs))[2:] == (clean, 2)
    runs = iter([(0, "", bad)] * 3)
    assert first_clean(lambda: next(runs))[2:] == (bad, 3)
    runs = iter([(0, "", clean)])
    assert first_clean(lambda: next(runs))[3] == 1
    # A run that hung or crashed (no end reached) is not repeated.
    runs = iter([(None, "", Counts(2, 0, 0, False)), (0, "", clean)])
    assert first_clean(lambda: next(runs))[3] == 1
    print("ok: xdsvd's vector-sign tests and xdsyevr's unset-VL/VU check counted apart, every other failure "
          "counted; failed runs run again")


if __name__ == "__main__":
    main()
