# Shared settings of the benchmark scripts (sourced). Benchmarks are not
# tests: they take minutes, measure speed, and never oversubscribe.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
MM=${MM:-build/mmbench}
host=$(hostname)
stamp=$(date -u +%Y%m%dT%H%M%SZ)
if [ "$(id -u)" = 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
export OPENBLAS_NUM_THREADS=1
mkdir -p results
[ -x "$MM" ] || { echo "build first: make build" >&2; exit 1; }
echo "# $(date -u) on $host: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg)"
