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
print()
print("The same in `run` with mmbench's heap policy (freed heap memory kept) and without it")
print("| n | policy on (kept) | off (glibc's default behaviour) |")
print("|---|---|---|")
on = paired("pdgemm-lb-policy-kept.csv", "512", "64", "lb")
off = paired("pdgemm-lb-policy-off.csv", "512", "64", "lb")
for n in sorted(on):
    f = lambda v: f"{st.median(v):.3f} [{min(v):.3f}, {max(v):.3f}]"
    print(f"| {n} | {f(on[n][0])} | {f(off[n][0])} |")
print()
print("A plain ScaLAPACK program (examples/scalapack_pdgemm), 10 calls per launch, glibc defaults:")
print("time of calls 1-2 and median of calls 3-10 [s], 3 launches")
print("| n | lb | calls 1, 2 (launches) | calls 3-10, median (launches) |")
print("|---|---|---|---|")
plain = {}
for line in open(os.path.join(here, "plain-pdgemm.txt")):
    kv = dict(w.split("=", 1) for w in line.split() if "=" in w)
    if kv["alloc"] != "default":
        continue
    t = [float(x) for x in kv["times_s"].split(",")]
    plain.setdefault((int(kv["n"]), int(kv["lb_asked"])), []).append(t)
for (n, lb), runs in sorted(plain.items()):
    first = "; ".join(f"{r[0]:.3f}, {r[1]:.3f}" for r in runs)
    rest = ", ".join(f"{st.median(r[2:]):.4f}" for r in runs)
    print(f"| {n} | {lb} | {first} | {rest} |")
