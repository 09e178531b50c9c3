"""Tables of this folder's runs (run.sh): 2.5D's time over ring's, per round of the same
launch, old binary (MPI_Reduce) against new (own tree); the refined model's error on 2.5D;
PDGEMM lb 512 over lb 64 under glibc's default allocator settings and with them kept."""
import csv
import os
import statistics as st

here = os.path.dirname(os.path.abspath(__file__))


def rows(name):
    return list(csv.DictReader(open(os.path.join(here, name))))


def rounds(r):
    return [float(x) for x in r["t_rounds"].split(";")]


def paired(name, num, den, key):
    """Per n: every round's t(num) / t(den), over all launches; and the model errors of num."""
    by = {}
    for r in rows(name):
        by.setdefault((r["order_seed"], r["n"]), {})[r[key]] = r
    out = {}
    for (_, n), d in by.items():
        a, b = d[num], d[den]
        ratios, errs = out.setdefault(int(n), ([], []))
        ratios += [x / y for x, y in zip(rounds(a), rounds(b))]
        if a.get("err_refined"):
            errs.append(float(a["err_refined"]))
    return out


print("2.5D over ring, p = 2 (median [min, max] over rounds, 3 launches x 3 rounds); refined model's error on 2.5D")
print("| n | before: MPI_Reduce | after: own tree | model error before | after |")
print("|---|---|---|---|---|")
old, new = paired("ring-2.5d-old.csv", "2.5d", "ring", "algo"), paired("ring-2.5d-new.csv", "2.5d", "ring", "algo")
for n in sorted(old):
    f = lambda v: f"{st.median(v):.3f} [{min(v):.3f}, {max(v):.3f}]"
    e = lambda v: ", ".join(f"{x:+.1%}" for x in v)
    print(f"| {n} | {f(old[n][0])} | {f(new[n][0])} | {e(old[n][1])} | {e(new[n][1])} |")
print()
print("PDGEMM lb 512 over lb 64, p = 2 (median [min, max] over rounds, 3 launches x 5 rounds)")
print("| n | glibc default | MALLOC_MMAP_MAX_=0, no trim |")
print("|---|---|---|")
d = paired("pdgemm-lb-alloc-default.csv", "512", "64", "lb")
k = paired("pdgemm-lb-alloc-keep.csv", "512", "64", "lb")
for n in sorted(d):
    f = lambda v: f"{st.median(v):.3f} [{min(v):.3f}, {max(v):.3f}]"
    print(f"| {n} | {f(d[n][0])} | {f(k[n][0])} |")
