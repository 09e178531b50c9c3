#!/usr/bin/env python3
"""The census against the calls the suite made: one row per pdgemm_ call, in
order, with the call's shape, and its routing (an mmbench member or
ScaLAPACK) as the library reported it to the suite; the calls it did not
dispatch name a reason, and those it did not support say so.

    check_census.py CENSUS EXPECTED [--reason-contains TEXT ...]
"""
import csv
import sys


def main():
    census_path, expected_path = sys.argv[1], sys.argv[2]
    needles = sys.argv[4::2] if len(sys.argv) > 3 else []
    rows = list(csv.DictReader(open(census_path)))
    expected = [line.rstrip("\n").split(",") for line in open(expected_path) if line.strip()]
    assert len(rows) == len(expected), f"census has {len(rows)} rows, the suite made {len(expected)} calls"
    for i, (r, e) in enumerate(zip(rows, expected)):
        member, ta, tb, m, n, k, routed = e
        got = (r["transa"], r["transb"], r["m"], r["n"], r["k"])
        assert got == (ta, tb, m, n, k), f"row {i + 1}: census {got}, call {(ta, tb, m, n, k)}"
        assert int(r["call"]) == i + 1, f"row {i + 1}: call number {r['call']}"
        to_scalapack = r["choice"].startswith("scalapack")
        assert to_scalapack == (routed == "scalapack"), f"row {i + 1}: census choice {r['choice']}, suite saw {routed}"
        assert r["reason"], f"row {i + 1}: no reason"
        assert float(r["t_measured"]) >= 0
    reasons = {r["reason"] for r in rows}
    for text in needles:
        assert any(text in x for x in reasons), f"no census reason contains {text!r}: {sorted(reasons)[:20]}"
    print(f"census: {len(rows)} rows match the calls; {sum(not r['choice'].startswith('scalapack') for r in rows)} "
          f"dispatched; {len(reasons)} distinct reasons")


if __name__ == "__main__":
    main()
