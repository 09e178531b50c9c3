import csv, sys
def load(f):
    return {(r['n'], r['lb']): float(r['t_median']) for r in csv.DictReader(open(f)) if r['algo']=='pdgemm' and r['t_median']}
m = load('measured.csv'); import sys; sims = {v: load(f'sim-{v}-{sys.argv[1]}.csv') for v in ('old','new')}
print('| n | lb | measured [s] | simulated, old kernel model [s] | error | simulated, new [s] | error | measured lb/lb256 | old sim lb/lb256 | new sim lb/lb256 |')
print('|---|---|---|---|---|---|---|---|---|---|')
for key in sorted(m, key=lambda k:(int(k[0]),int(k[1]))):
    n, lb = key
    o, w = sims['old'].get(key), sims['new'].get(key)
    ref = (n, '256')
    print(f"| {n} | {lb} | {m[key]:.4g} | {o:.4g} | {100*(o/m[key]-1):+.1f} % | {w:.4g} | {100*(w/m[key]-1):+.1f} % | {m[key]/m[ref]:.3f} | {o/sims['old'][ref]:.3f} | {w/sims['new'][ref]:.3f} |")
