#!/usr/bin/env bash
# A cluster of N nodes on this machine: each node a network namespace with
# its own host name, joined to the others by a bridge over veth links, each
# link limited to a rate if asked (tc tbf, both directions). Open MPI starts
# its daemons in the nodes through an rsh agent that enters the node's
# namespaces, so ranks on different nodes talk TCP over the bridge and ranks
# on one node share memory, as on a real cluster.
#
#   scripts/netns-cluster.sh up N [--ranks-per-node R] [--rate 10gbit] [--burst 256kb] [--shared-link]
#                               [--dir DIR] [--prefix mmb]
#   scripts/netns-cluster.sh burst SIZE [--dir DIR] [--prefix mmb]
#   scripts/netns-cluster.sh down [--dir DIR] [--prefix mmb]
#   scripts/netns-cluster.sh status [--prefix mmb]
#
# up writes into DIR (default /tmp/<prefix>-cluster):
#   hostfile      one line per node: its address and R slots
#   agent.sh      the rsh agent (Open MPI's plm_rsh_agent): runs a command
#                 on a node, inside its network and host-name namespaces
#   mpirun.args   the arguments to add to mpirun (one per line)
#   mpirun        a launcher: mpirun with those arguments (and -x for the
#                 OPENBLAS_NUM_THREADS and OPENBLAS_CORETYPE this shell has),
#                 for tools that take one mpirun command; $MPIRUN picks the mpirun
#   nodes         the nodes: address, namespace, host name, cores, cpuset
#                 cgroup folder ("-": none could be made)
#   rate          the links' --rate, where they are limited
#   shared-link   with --shared-link: an empty marker (the rate is in rate)
# burst sets another --burst on every limited link of a cluster that is up
# (scripts/bench/netns_burst.sh interleaves sizes so).
# and prints the launcher line, e.g.
#   mpirun $(cat /tmp/mmb-cluster/mpirun.args) -n 4 build/mmbench run ...
# Node i is 10.77.0.i (prefix mmb; another prefix takes another subnet),
# host name <prefix>-node<i>; mpirun itself stays in this namespace, on the
# bridge's address .254. Each node gets its share of this machine's cores
# (a cpuset cgroup <prefix>-n<i> where cgroups allow, and taskset around its
# daemon; with more nodes than cores they share), and
# mpirun does not bind (--bind-to none): Open MPI binds by the whole
# machine's topology, not the node's cores, so every node's first rank went
# to core 0 and ranks of different nodes polled on one core, waiting the
# scheduler's 4 ms slice for each other (a ping-pong of 8 B took 4.3 ms).
# Where a node holds more ranks than cores they yield when idle. Ranks beyond a node's cores are
# oversubscribed: such times are for correctness and communication-bound
# cases, and say so.
#
# --shared-link (with --rate) makes one link that every node's traffic to
# the others crosses, both directions through one queue, as on a half-duplex
# or shared segment: node-to-node traffic is routed through this machine's
# end of the bridge (a /32 route to each other node via .254) and limited by
# one tbf there; the nodes' own links are left unlimited. This machine must
# forward for the while: up sets net.ipv4.ip_forward = 1 and turns ICMP
# redirects off (a redirect would send the nodes straight to each other
# again), and down puts both back as they were. One such cluster at a time
# (the settings are this machine's): the saved values and the prefix are in
# /run/netns-cluster-shared-link.
#
# Needs root, iproute2 (ip netns, veth, bridge), tc with tbf, unshare. Where
# it cannot run, it says why in one line and exits 2; up undoes what it made
# if a step fails; down removes everything of the prefix (and kills what
# still runs in the nodes).
set -euo pipefail

usage() { echo "usage: $0 up N [--ranks-per-node R] [--rate RATE] [--burst SIZE] [--shared-link] [--dir DIR] [--prefix P] | burst SIZE | down | status" >&2; exit 2; }
refuse() { echo "netns-cluster: $*" >&2; exit 2; }

cmd=${1:-}; [ -n "$cmd" ] || usage; shift
nodes=0
rpn=1 rate="" burst=256kb prefix=mmb dir="" shared=0
if [ "$cmd" = up ]; then nodes=${1:-}; shift || true; fi
if [ "$cmd" = burst ]; then burst=${1:-}; shift || true; fi
while [ $# -gt 0 ]; do
  case $1 in
    --ranks-per-node) rpn=$2; shift 2 ;;
    --rate) rate=$2; shift 2 ;;
    --burst) burst=$2; shift 2 ;;
    --shared-link) shared=1; shift ;;
    --prefix) prefix=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    *) usage ;;
  esac
done
dir=${dir:-/tmp/$prefix-cluster}
[[ $prefix =~ ^[a-z][a-z0-9]{0,5}$ ]] || refuse "--prefix '$prefix': 1 to 6 lower-case letters and digits, a letter first"
# The subnet: 10.77.0.0/24 for the default prefix, another per prefix (tests
# use their own, so they never meet a cluster someone left up).
sub=$(( $(printf '%s' "$prefix" | cksum | cut -d' ' -f1) % 200 + 20 ))
[ "$prefix" = mmb ] && sub=77
net=10.$sub.0
br=$prefix-br
# The host's forwarding settings before a --shared-link cluster changed
# them: "PREFIX IP_FORWARD SEND_REDIRECTS", one line, kept until its down.
host_saved=/run/netns-cluster-shared-link

# Sets owner, fwd and redir from $host_saved; all empty where it is absent.
saved_forwarding() {
  owner="" fwd="" redir=""
  [ -f "$host_saved" ] || return 0
  read -r owner fwd redir <"$host_saved" || true
}

down() {
  for ns in $(ip netns list 2>/dev/null | awk '{print $1}' | grep "^$prefix-n[0-9]*$" || true); do
    for pid in $(ip netns pids "$ns" 2>/dev/null || true); do kill -9 "$pid" 2>/dev/null || true; done
    ip netns del "$ns" 2>/dev/null || true
  done
  for link in $(ip -o link show 2>/dev/null | awk -F': ' '{print $2}' | cut -d@ -f1 | grep "^$prefix-v[0-9]*$" || true); do
    ip link del "$link" 2>/dev/null || true
  done
  ip link del "$br" 2>/dev/null || true
  restore_forwarding
  for cg in /sys/fs/cgroup/cpuset/"$prefix"-n* /sys/fs/cgroup/"$prefix"-n*; do
    [ -d "$cg" ] || continue
    for pid in $(cat "$cg/cgroup.procs" 2>/dev/null); do kill -9 "$pid" 2>/dev/null || true; done
    for _ in 1 2 3 4 5 6 7 8 9 10; do rmdir "$cg" 2>/dev/null && break; sleep 0.2; done
  done
  rm -rf "$dir"
}

# Put back the forwarding settings this prefix's --shared-link changed.
restore_forwarding() {
  local owner fwd redir
  saved_forwarding
  [ -n "$owner" ] && [ "$owner" = "$prefix" ] || return 0
  sysctl -qw net.ipv4.ip_forward="$fwd" net.ipv4.conf.all.send_redirects="$redir" || true
  rm -f "$host_saved"
}

# The shared link (--shared-link): every node reaches every other through
# .254, this machine's end of the bridge, where one tbf limits what leaves
# toward the nodes. Node 1's packet to node 2 enters this machine from the
# bridge, is forwarded and leaves through the bridge device again, and so
# does node 2's answer: both directions wait in that one queue.
share_link() {
  local owner fwd redir i j
  # A cluster whose bridge is gone without its down left the values it
  # saved: they are still the host's own (up refused a live one earlier).
  saved_forwarding
  if [ -z "$fwd" ] || [ -z "$redir" ]; then
    fwd=$(sysctl -n net.ipv4.ip_forward) redir=$(sysctl -n net.ipv4.conf.all.send_redirects)
  fi
  echo "$prefix $fwd $redir" >"$host_saved"
  sysctl -qw net.ipv4.ip_forward=1 net.ipv4.conf.all.send_redirects=0 "net.ipv4.conf.$br.send_redirects=0"
  for i in $(seq 1 "$nodes"); do
    for j in $(seq 1 "$nodes"); do
      [ "$i" = "$j" ] || ip -n "$prefix-n$i" route add "$net.$j/32" via "$net.254"
    done
  done
  limit_bridge add
}

# A node's cores as a cpuset cgroup (v1 or v2), so that a process in the node
# cannot widen its affinity past them (taskset alone does not stop
# sched_setaffinity: a rank that raises its BLAS threads would run on every
# core of the machine). Prints the cgroup's folder, or "-" where cpusets
# cannot be made (then taskset is all there is).
node_cpuset() {
  local name=$1 cores=$2 cg
  if [ -f /sys/fs/cgroup/cpuset/cpuset.cpus ]; then
    cg=/sys/fs/cgroup/cpuset/$name
    mkdir -p "$cg" && echo "$cores" >"$cg/cpuset.cpus" && cat /sys/fs/cgroup/cpuset/cpuset.mems >"$cg/cpuset.mems" &&
      { echo "$cg"; return; }
  elif grep -qw cpuset /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
    cg=/sys/fs/cgroup/$name
    echo +cpuset >/sys/fs/cgroup/cgroup.subtree_control 2>/dev/null || true
    mkdir -p "$cg" && echo "$cores" >"$cg/cpuset.cpus" 2>/dev/null && { echo "$cg"; return; }
  fi
  [ -z "${cg:-}" ] || rmdir "$cg" 2>/dev/null || true
  echo -
}

# tbf on each end of node I's link (namespace NS): what the node sends (its
# eth0) and what it receives (the bridge's side of its link), added or
# changed (VERB). The burst (--burst) is what crosses at memory speed after
# the link was idle: a real NIC has none, so the smaller, the closer to one;
# packets queue up to 50 ms before tbf drops them. The veth hands tbf
# packets of up to gso_max_size (64 KiB by default), and tbf cuts a packet
# larger than its bucket into pieces it then paces well below the rate. So
# both ends of the link also get gso_max_size = min(burst, 64 KiB): then a
# bucket smaller than 64 KB holds the rate, and a message crosses at the
# rate whether the link was idle or not, as on a NIC (docs/results.md,
# "A link without a free burst").
gso_bytes() {  # the burst in bytes, at most 65536
  local v=${burst%[km]b} b
  [ "${burst: -2}" = mb ] && b=$(( v * 1048576 )) || b=$(( v * 1024 ))
  echo $(( b < 65536 ? b : 65536 ))
}
limit_link() {  # VERB NS I
  local gso; gso=$(gso_bytes)
  ip -n "$2" link set dev eth0 gso_max_size "$gso"
  ip link set dev "$prefix-v$3" gso_max_size "$gso"
  ip netns exec "$2" tc qdisc "$1" dev eth0 root tbf rate "$rate" burst "$burst" latency 50ms
  tc qdisc "$1" dev "$prefix-v$3" root tbf rate "$rate" burst "$burst" latency 50ms
}

limit_bridge() {  # VERB: the shared link's one tbf, on the bridge device
  ip link set dev "$br" gso_max_size "$(gso_bytes)"
  tc qdisc "$1" dev "$br" root tbf rate "$rate" burst "$burst" latency 50ms
}

[[ $burst =~ ^[0-9]+(kb|mb)$ ]] || refuse "--burst '$burst': a tc size such as 64kb or 1mb"
case $cmd in
  burst)
    [ "$(id -u)" = 0 ] || refuse "needs root (tc)"
    [ -f "$dir/rate" ] || refuse "no $prefix cluster with limited links in $dir (up N --rate RATE first)"
    rate=$(cat "$dir/rate") i=0
    if [ -f "$dir/shared-link" ]; then
      limit_bridge change
      echo "netns-cluster: the shared link at $rate, burst $burst"
      exit 0
    fi
    while read -r _ ns _; do i=$((i + 1)); limit_link change "$ns" "$i"; done <"$dir/nodes"
    echo "netns-cluster: $i link(s) at $rate, burst $burst"
    exit 0 ;;
  down) [ "$(id -u)" = 0 ] || refuse "needs root (ip netns)"; down; echo "netns-cluster: $prefix down"; exit 0 ;;
  status)
    ip netns list 2>/dev/null | awk '{print $1}' | grep "^$prefix-n" || echo "netns-cluster: no $prefix nodes"
    exit 0 ;;
  up) ;;
  *) usage ;;
esac

[[ $nodes =~ ^[0-9]+$ ]] && [ "$nodes" -ge 1 ] && [ "$nodes" -le 200 ] || refuse "N '$nodes': a node count from 1 to 200"
[[ $rpn =~ ^[0-9]+$ ]] && [ "$rpn" -ge 1 ] || refuse "--ranks-per-node '$rpn': an integer >= 1"
[ -z "$rate" ] || [[ $rate =~ ^[0-9]+(\.[0-9]+)?(kbit|mbit|gbit)$ ]] || refuse "--rate '$rate': a tc rate such as 500mbit or 10gbit"
[ "$shared" = 0 ] || [ -n "$rate" ] || refuse "--shared-link needs --rate (the one rate the nodes' traffic shares)"
[ "$shared" = 0 ] || [ "$nodes" -ge 2 ] || refuse "--shared-link needs N >= 2 nodes (N '$nodes': no traffic between nodes)"
[ "$(id -u)" = 0 ] || refuse "needs root (ip netns, veth links, a bridge)"
if [ "$shared" = 1 ]; then
  saved_forwarding
  if [ -n "$owner" ] && [ "$owner" != "$prefix" ] && ip link show "$owner-br" >/dev/null 2>&1; then
    refuse "--shared-link: the $owner cluster shares a link already (one at a time: $0 down --prefix $owner first)"
  fi
fi
tools="ip tc unshare taskset"; [ "$shared" = 0 ] || tools+=" sysctl"
for tool in $tools; do command -v $tool >/dev/null || refuse "no '$tool' (Debian: iproute2, util-linux)"; done
probe=$prefix-probe$$
ip netns add "$probe" 2>/dev/null || refuse "cannot make a network namespace here (ip netns add failed: no CAP_SYS_ADMIN?)"
ip netns del "$probe"
# Read whole before matching: under pipefail grep -q's early exit can fail
# the pipe (SIGPIPE to awk) and hide a cluster that is up.
if grep -q "^$prefix-n" <<<"$(ip netns list | awk '{print $1}')"; then refuse "a $prefix cluster is up already ($0 down first)"; fi

trap 'echo "netns-cluster: a step failed; undoing" >&2; down' ERR
mkdir -p "$dir"
ip link add "$br" type bridge
ip addr add "$net.254/24" dev "$br"
ip link set "$br" up
: >"$dir/hostfile"
: >"$dir/nodes"
[ -z "$rate" ] || echo "$rate" >"$dir/rate"
[ "$shared" = 0 ] || : >"$dir/shared-link"
cpus=$(nproc)
per=$(( cpus / nodes )); [ "$per" -ge 1 ] || per=1
for i in $(seq 1 "$nodes"); do
  first=$(( ((i - 1) * per) % cpus ))
  cores=$first; [ "$per" -gt 1 ] && cores=$first-$(( first + per - 1 ))
  ns=$prefix-n$i
  ip netns add "$ns"
  ip link add "$prefix-v$i" type veth peer name eth0 netns "$ns"
  ip link set "$prefix-v$i" master "$br" up
  ip -n "$ns" addr add "$net.$i/24" dev eth0
  ip -n "$ns" link set eth0 up
  ip -n "$ns" link set lo up
  [ -z "$rate" ] || [ "$shared" = 1 ] || limit_link add "$ns" "$i"
  echo "$net.$i slots=$rpn" >>"$dir/hostfile"
  echo "$net.$i $ns $prefix-node$i $cores $(node_cpuset "$ns" "$cores")" >>"$dir/nodes"
done
[ "$shared" = 0 ] || share_link
trap - ERR

# The rsh agent: Open MPI calls it as ssh would be called, `agent HOST
# COMMAND...`, and the command is one shell line (ssh joins its words).
cat >"$dir/agent.sh" <<EOF
#!/usr/bin/env bash
# Open MPI's rsh agent for the $prefix cluster (scripts/netns-cluster.sh):
# run a command on a node, inside its network namespace and a host-name
# namespace of its own (so Open MPI's session directories and shared-memory
# segments are per node, as on separate machines).
while [ \$# -gt 0 ] && [ "\${1#-}" != "\$1" ]; do shift; done  # ssh options Open MPI may pass
host=\$1; shift
line=\$(grep -m1 "^\$host " "$dir/nodes") || { echo "netns-cluster agent: unknown node \$host" >&2; exit 255; }
set -- \$line "\$@"
ns=\$2 name=\$3 cores=\$4 cpuset=\$5; shift 5
# The node's cpuset first (its cores, enforced), then its namespaces.
[ "\$cpuset" = - ] || echo \$\$ >"\$cpuset/cgroup.procs"
exec ip netns exec "\$ns" taskset -c "\$cores" unshare --uts sh -c 'hostname "\$0" && exec sh -c "\$1"' "\$name" "\$*"
EOF
chmod +x "$dir/agent.sh"
cat >"$dir/mpirun.args" <<EOF
--hostfile
$dir/hostfile
--mca
plm_rsh_agent
$dir/agent.sh
--mca
btl
tcp,self,vader
--mca
btl_tcp_if_include
$net.0/24
--mca
oob_tcp_if_include
$net.0/24
--bind-to
none
EOF
if [ "$rpn" -gt "$per" ]; then printf -- '--mca\nmpi_yield_when_idle\n1\n' >>"$dir/mpirun.args"; fi
cat >"$dir/mpirun" <<EOF
#!/usr/bin/env bash
# mpirun onto the namespace cluster in $dir (scripts/netns-cluster.sh).
x=()
for v in OPENBLAS_NUM_THREADS OPENBLAS_CORETYPE; do [ -z "\${!v:-}" ] || x+=(-x "\$v"); done
mapfile -t args <"$dir/mpirun.args"
exec "\${MPIRUN:-mpirun}" "\${args[@]}" "\${x[@]}" "\$@"
EOF
chmod +x "$dir/mpirun"
links=${rate:+, each link $rate (burst $burst)}
[ "$shared" = 0 ] || links=", one link of $rate (burst $burst) shared by all traffic between nodes, both ways (this machine forwards until down)"
echo "netns-cluster: $nodes node(s) of $rpn rank(s) on $net.0/24$links, $per core(s) a node; $dir"
echo "  mpirun \$(cat $dir/mpirun.args) -n $((nodes * rpn)) PROGRAM ..."
echo "  (or: $dir/mpirun -n $((nodes * rpn)) PROGRAM ...)"
