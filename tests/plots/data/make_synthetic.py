# Generator of the SYNTHETIC test CSVs of tests/plots (not measurements).
# Deterministic (fixed seed): rerunning it rewrites the same files.
# Rates are shaped like the reference machine of docs/method.md §13 but invented.
import csv, math, os, random
HERE = os.path.dirname(os.path.abspath(__file__))
rng = random.Random(20240501)
RUN = ("timestamp,host,p,threads,algo,schema,recursions,cutoff,grid,nb,lb,lb_override,"
       "local_levels,local_variant,q7_split,m,n,k,warmup,reps,t_min,t_median,t_max,"
       "mflops_per_proc,gflops_total,pred_paper,pred_refined,err_paper,err_refined,"
       "selected_by,runner_up,residual,residual_limit,verified,peak_mem_mb,"
       "exchanges_total,exchanges_node_local,status,reason").split(",")
HOST = "synthetic-testhost"
clock = [0]
def ts():
    clock[0] += 7
    s = clock[0]
    return "2024-05-01T10:%02d:%02dZ" % (s // 60 % 60, s % 60)
def g(x): return "%.6g" % x
def row(p, algo, n, rate_pp, pred=None, lb="", grid="", nb="", selected="user", runner_up="", status="ok", reason="", local_levels=0, reps=3, exch=""):
    r = dict.fromkeys(RUN, "")
    r.update(timestamp=ts(), host=HOST, p=p, threads=1, algo=algo, recursions=0,
             local_levels=local_levels, m=n, n=n, k=n, warmup=1, reps=reps,
             status=status, reason=reason, selected_by=selected, runner_up=runner_up,
             grid=grid, nb=nb, lb=lb)
    if local_levels: r["local_variant"] = "winograd"
    if lb != "": r["lb_override"] = "yes"
    if status != "ok": return r
    t = 2.0 * n**3 / (p * rate_pp * 1e6)
    r.update(t_min=g(t * 0.985), t_median=g(t), t_max=g(t * 1.03),
             mflops_per_proc=g(2.0 * n**3 / t / p / 1e6), gflops_total=g(2.0 * n**3 / t / 1e9),
             residual=g(rng.uniform(0.02, 0.3)), residual_limit="16", verified="yes",
             peak_mem_mb=g(3 * 8.0 * n * n / p / 2**20 * (1.5 if algo != "pdgemm" else 1.2)),
             exchanges_total=exch[0] if exch else "", exchanges_node_local=exch[1] if exch else "")
    if pred:
        pp, pr = pred
        if pp is not None:
            r["pred_paper"] = g(t * (1 + pp)); r["err_paper"] = g(pp)
        if pr is not None:
            r["pred_refined"] = g(t * (1 + pr)); r["err_refined"] = g(pr)
    return r

rows = []
# MFLOPS per process; p = 2 loses some to communication (ranks share the VM).
rate = {  # (algo, p) -> {n: rate}
    ("pdgemm", 1): {1024: 41800, 2048: 45900, 4096: 47300},
    ("pdgemm", 2): {1024: 33100, 2048: 42200, 4096: 46100},
    ("ring", 1):   {1024: 43900, 2048: 47100, 4096: 48200},
    ("ring", 2):   {1024: 36800, 2048: 43600, 4096: 45400},
    ("tpmm", 1):   {1024: 43700, 2048: 47000, 4096: 48100},
    ("tpmm", 2):   {1024: 35900, 2048: 43100, 4096: 45100},
}
errs = {"pdgemm": (0.21, 0.06), "ring": (-0.12, 0.035), "tpmm": (-0.09, -0.04)}
for p in (1, 2):
    for algo in ("pdgemm", "ring", "tpmm"):
        for n in (1024, 2048, 4096):
            pp, pr = errs[algo]
            pp += rng.uniform(-0.05, 0.05) * (4096 / n); pr += rng.uniform(-0.03, 0.03)
            if algo == "pdgemm" and n == 1024: pr = None   # an empty prediction cell
            kw = {}
            if algo == "pdgemm": kw = dict(lb=256, grid="1x%d" % p, nb=64)
            if algo == "tpmm": kw = dict(exch=(str(p - 1), str(p - 1)))
            rows.append(row(p, algo, n, rate[(algo, p)][n], pred=(pp, pr), **kw))
# a repeated run (median of the two ring rows is plotted)
rows.append(row(2, "ring", 4096, 44100, pred=(-0.10, 0.05)))
# local Strassen-Winograd level inside ring (label gets L=...)
rows.append(row(2, "ring", 4096, 49800, pred=(-0.2, 0.04), local_levels=1))
rows.append(row(1, "ring", 4096, 52600, pred=(-0.2, 0.03), local_levels=1))
# not applicable / failed rows must be ignored
rows.append(row(2, "strassen-q7+ring", 2048, 0, status="not-applicable", reason="strassen-q7 needs p >= 4 (p = 2)"))
r = row(2, "tpmm", 3000, 0, status="failed", reason="verification failed: residual 412 above limit 16"); rows.append(r)
# --algo auto picks
rows.append(row(2, "ring", 2048, 43300, pred=(-0.11, 0.03), selected="auto-refined", runner_up="tpmm"))
rows.append(row(2, "tpmm", 4096, 44900, pred=(-0.09, -0.03), selected="auto-refined", runner_up="ring"))
rows.append(row(1, "ring", 4096, 48000, pred=(-0.12, 0.02), selected="auto-refined", runner_up="tpmm"))
with open(os.path.join(HERE, "run-synthetic.csv"), "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=RUN, lineterminator="\n"); w.writeheader(); w.writerows(rows)

# PDGEMM lb sweep (nb = 64), p = 1 and 2
rows = []
sweep = {(2, 2048): {32: 33900, 64: 37800, 128: 40900, 256: 42200, 512: 41100},
         (2, 4096): {32: 36300, 64: 40400, 128: 44100, 256: 46300, 512: 45600},
         (1, 4096): {32: 39600, 64: 43800, 128: 46200, 256: 47300, 512: 47500}}
for (p, n), byl in sweep.items():
    for lb, rt in byl.items():
        rows.append(row(p, "pdgemm", n, rt, lb=lb, grid="1x%d" % p, nb=64))
with open(os.path.join(HERE, "pdgemm-lb-sweep-synthetic.csv"), "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=RUN, lineterminator="\n"); w.writeheader(); w.writerows(rows)

# DGEMM profile for the typical problem n = 4096, p = 2, grid 1x2: m = 4096, n = 2048
PROF = "m,n,k,reps,t_median,mflops,mflops_max,papi_tot_cyc,papi_l2_tcm,x,lb".split(",")
pts = []
for k in range(32, 2049, 32):
    mf = 48900 * (1 - math.exp(-k / 105.0)) * (1 - 0.012 * (k / 2048.0) ** 2) + rng.uniform(-180, 180)
    if k in (640, 1408): mf -= 1900   # cache-conflict dips like Abb. 2.24
    pts.append((k, mf))
mx = max(mf for _, mf in pts)
lb = min(k for k, mf in pts if mf >= 0.98 * mx)
with open(os.path.join(HERE, "dgemm-profile-synthetic.csv"), "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n"); w.writerow(PROF)
    for k, mf in pts:
        t = 2.0 * 4096 * 2048 * k / (mf * 1e6)
        w.writerow([4096, 2048, k, 5, g(t), g(mf), g(mf * (1 + rng.uniform(0.002, 0.015))), "", "", "0.98", lb])
print("lb", lb, "max", mx)

# The validation CSV of run-synthetic.csv (run --validate writes
# <stem>-validate.csv beside the results): the plot of a run CSV reads its
# regret from there. The regret (a median of per-round ratios) is not
# t_pick / t_best, so a plot that recomputed it would draw another bar.
VAL = "p,cores,m,n,k,candidates,measured,rounds,best,t_best,pick,t_pick,regret,regret_ci_lo,regret_ci_hi,model".split(",")
with open(os.path.join(HERE, "run-synthetic-validate.csv"), "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n"); w.writerow(VAL)
    w.writerow([1, 1, 4096, 4096, 4096, 3, 3, 3, "ring", 1.43, "ring", 1.43, 1.0, 1.0, 1.0, "refined"])
    w.writerow([2, 2, 2048, 2048, 2048, 4, 4, 3, "tpmm", 0.196, "ring", 0.198, 1.017, 1.004, 1.03, "refined"])
    w.writerow([2, 2, 4096, 4096, 4096, 4, 4, 3, "ring", 1.52, "tpmm", 1.53, 1.012, 0.998, 1.02, "refined"])

# A validation summary (run --validate) with the columns cores and
# regret_ci_lo / regret_ci_hi; one problem without an interval, one whose
# pick was not measured (regret empty). At 1024 the regret (1.06, paired
# by rounds) differs from t_pick / t_best (0.027 / 0.025 = 1.08).
VAL = "p,cores,m,n,k,candidates,measured,best,t_best,pick,t_pick,regret,regret_ci_lo,regret_ci_hi,model".split(",")
with open(os.path.join(HERE, "validate-ci-synthetic.csv"), "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n"); w.writerow(VAL)
    w.writerow([2, 2, 1024, 1024, 1024, 9, 9, "tpmm", 0.025, "dgemm L=1", 0.027, 1.06, 1.02, 1.15, "refined"])
    w.writerow([2, 2, 2048, 2048, 2048, 9, 9, "ring", 0.19, "ring", 0.19, 1.0, 1.0, 1.04, "refined"])
    w.writerow([2, 2, 4096, 4096, 4096, 9, 9, "tpmm", 1.5, "ring", 1.56, 1.04, "", "", "refined"])
    w.writerow([2, 2, 8192, 8192, 8192, 9, 8, "tpmm", 12.0, "ring", "", "", "", "", "refined"])

# An isoefficiency CSV (predict --isoefficiency E --csv F): two algorithms
# over p = 4 .. 256, n_E growing like p (ring) and like sqrt(p) (2.5d),
# E = 0.5; one p where 2.5d does not reach E (n_iso empty, n = n_max) and one
# where ring does not apply (no n at all).
ISO = ("isoefficiency,model,threads,p,algo,reached,n_iso,n,efficiency,t_pred,mflops_per_proc,"
       "mem_pred_mb,best_member,n_max,note").split(",")
with open(os.path.join(HERE, "isoefficiency-synthetic.csv"), "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n"); w.writerow(ISO)
    for p in (4, 8, 16, 32, 64, 128, 256):
        if p == 128:
            w.writerow([0.5, "paper", 1, p, "ring", "no", "", "", "", "", "", "", "", 65536, "synthetic: ring does not apply"])
        else:
            n = 181 * p
            w.writerow([0.5, "paper", 1, p, "ring", "yes", n, n, "0.5001", g(2.0 * n**3 / 3.3e9 / p / 0.5),
                        "1650.0", g(5.0 * n * n / p * 8 / 2**20), "ring", 65536, ""])
        if p == 256:
            w.writerow([0.5, "paper", 1, p, "2.5d", "no", "", 65536, "0.4712", "", "", "", "2.5d c=4", 65536,
                        "not reached up to n = 65536 (efficiency 0.471 there)"])
        else:
            n = int(900 * math.sqrt(p))
            w.writerow([0.5, "paper", 1, p, "2.5d", "yes", n, n, "0.5003", g(2.0 * n**3 / 3.3e9 / p / 0.5),
                        "1650.0", g(3.0 * n * n / p * 8 / 2**20), "2.5d c=2", 65536, ""])
