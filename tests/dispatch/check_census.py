#!/usr/bin/env python3
"""The census against the calls the suite made: one row per pdgemm_ call of
the job's rank 0, in order, with the call's shape, and its routing (an
mmbench member or ScaLAPACK) as the library reported it to the suite.

With a member forced, a call may go to ScaLAPACK only for a reason that
says why ScaLAPACK must serve it (nothing to multiply, the member does not
apply to this shape or grid, an argument ScaLAPACK reports); a member that
applies to any call must take calls. A dispatcher that sends everything to
ScaLAPACK fails here.

With --pooled, members prepared after others were let go (an older shape,
a freed grid) must have taken buffers from the library's pool (the census's
pooled_mib): a dispatcher that gives every shape fresh memory fails.

    check_census.py CENSUS EXPECTED [--reason-contains TEXT ...] [--pooled]
"""
import argparse
import collections
import csv
import sys

# Why a forced member's call may still go to ScaLAPACK.
# ("ScaLAPACK reports it": an argument ScaLAPACK rejects -- a negative
# dimension, a submatrix outside its matrix, a bad descriptor or LLD.)
PASS_REASONS = ("nothing to compute", "C := beta C only", "does not apply", "ScaLAPACK reports it",
                "different BLACS contexts", "not N, T or C", "MMBENCH_DISPATCH_MAX_MB")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("census")
    ap.add_argument("expected")
    ap.add_argument("--reason-contains", action="append", default=[])
    ap.add_argument("--pooled", action="store_true")
    args = ap.parse_args()
    census_path, expected_path, needles = args.census, args.expected, args.reason_contains
    rows = list(csv.DictReader(open(census_path)))
    expected = [line.rstrip("\n").split(",") for line in open(expected_path) if line.strip()]
    assert len(rows) == len(expected), f"census has {len(rows)} rows, the suite made {len(expected)} calls"
    taken = collections.Counter()
    could_take = collections.Counter()
    for i, (r, e) in enumerate(zip(rows, expected)):
        member, ta, tb, m, n, k, routed = e[:7]
        got = (r["transa"], r["transb"], r["m"], r["n"], r["k"])
        assert got == (ta, tb, m, n, k), f"row {i + 1}: census {got}, call {(ta, tb, m, n, k)}"
        assert int(r["call"]) == i + 1, f"row {i + 1}: call number {r['call']}"
        to_scalapack = r["choice"].startswith("scalapack")
        assert to_scalapack == (routed == "scalapack"), f"row {i + 1}: census choice {r['choice']}, suite saw {routed}"
        assert r["reason"], f"row {i + 1}: no reason"
        assert float(r["t_measured"]) >= 0
        if member == "scalapack":
            assert to_scalapack, f"row {i + 1}: scalapack forced, census choice {r['choice']}"
            continue
        justified = any(p in r["reason"] for p in PASS_REASONS)
        assert not to_scalapack or justified, \
            f"row {i + 1}: {member} forced, call {got} went to ScaLAPACK: {r['reason']}"
        if not justified:
            could_take[member] += 1
        if not to_scalapack:
            taken[member] += 1
    for member, n in could_take.items():
        assert taken[member] > 0, f"{member} applied to {n} calls and took none"
    reasons = {r["reason"] for r in rows}
    for text in needles:
        assert any(text in x for x in reasons), f"no census reason contains {text!r}: {sorted(reasons)[:20]}"
    prepared = [r for r in rows if float(r["t_prepare"] or 0) > 0 and not r["choice"].startswith("scalapack")]
    pooled = [r for r in prepared if float(r.get("pooled_mib") or 0) > 0]
    if args.pooled:
        assert pooled, f"{len(prepared)} members prepared, none took buffers from the pool"
    print(f"census: {len(prepared)} preparations, {len(pooled)} with pooled buffers "
          f"({sum(float(r['pooled_mib']) for r in pooled):.1f} MiB)")
    print(f"census: {len(rows)} rows match the calls; {sum(taken.values())} dispatched "
          f"({', '.join(f'{m} {n}' for m, n in sorted(taken.items()))}); {len(reasons)} distinct reasons")


if __name__ == "__main__":
    main()
