#include "core/mpi/comm.hpp"

#include <algorithm>
#include <chrono>
#include <thread>
#include <utility>

#include "core/mpi/mpi_check.hpp"

namespace mmbench {

Comm::Comm(MPI_Comm c, bool owned) : comm_(c), owned_(owned) {
  if (comm_ != MPI_COMM_NULL) {
    MMBENCH_MPI(MPI_Comm_rank(comm_, &rank_));
    MMBENCH_MPI(MPI_Comm_size(comm_, &size_));
  }
}

Comm Comm::world() { return Comm(MPI_COMM_WORLD, false); }
Comm Comm::view(MPI_Comm c) { return Comm(c, false); }

Comm Comm::adopt(MPI_Comm c) { return Comm(c, true); }

Comm::~Comm() {
  if (owned_ && comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
}

Comm::Comm(Comm&& o) noexcept
    : comm_(std::exchange(o.comm_, MPI_COMM_NULL)),
      owned_(std::exchange(o.owned_, false)),
      rank_(std::exchange(o.rank_, -1)),
      size_(std::exchange(o.size_, 0)) {}

Comm& Comm::operator=(Comm&& o) noexcept {
  if (this != &o) {
    if (owned_ && comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
    comm_ = std::exchange(o.comm_, MPI_COMM_NULL);
    owned_ = std::exchange(o.owned_, false);
    rank_ = std::exchange(o.rank_, -1);
    size_ = std::exchange(o.size_, 0);
  }
  return *this;
}

Comm Comm::split(int colour, int key) const {
  MPI_Comm out = MPI_COMM_NULL;
  MMBENCH_MPI(MPI_Comm_split(comm_, colour < 0 ? MPI_UNDEFINED : colour, key, &out));
  if (out != MPI_COMM_NULL) MMBENCH_MPI(MPI_Comm_set_errhandler(out, MPI_ERRORS_RETURN));
  return Comm(out, true);
}

Comm Comm::split_node() const {
  MPI_Comm out = MPI_COMM_NULL;
  MMBENCH_MPI(MPI_Comm_split_type(comm_, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &out));
  MMBENCH_MPI(MPI_Comm_set_errhandler(out, MPI_ERRORS_RETURN));
  return Comm(out, true);
}

Comm Comm::subset(const std::vector<int>& ranks) const {
  int colour = -1, key = 0;
  for (std::size_t i = 0; i < ranks.size(); ++i)
    if (ranks[i] == rank_) {
      colour = 0;
      key = static_cast<int>(i);
    }
  return split(colour, key);
}

void Comm::barrier() const { MMBENCH_MPI(MPI_Barrier(comm_)); }

void Comm::idle_barrier(bool idle) const {
  MPI_Request req;
  MMBENCH_MPI(MPI_Ibarrier(comm_, &req));
#ifdef MMBENCH_SMPI
  idle = false;  // simulated ranks take no cores: a real sleep would only stall the simulation
#endif
  if (!idle) {
    MMBENCH_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    return;
  }
  // Back off from 50 us to 10 ms between tests. Why not a fixed short sleep:
  // every wake-up (and the MPI progress it runs) preempts a worker thread on
  // this core; at 5000 wake-ups/s a waiting rank took ~12 % of a core and
  // slowed a 2-thread DGEMM on the other rank by ~25 % (p = 2, n = 4096).
  // With the backoff a long wait costs ~100 wake-ups/s; the price is up to
  // 10 ms of extra latency when the wait ends, which the timing never sees
  // (only ranks that take part are timed, core/stats/timing.hpp).
  auto pause = std::chrono::microseconds(50);
  constexpr auto longest = std::chrono::microseconds(static_cast<long>(kIdleBarrierLongestPauseSeconds * 1e6));
  int done = 0;
  while (true) {
    MMBENCH_MPI(MPI_Test(&req, &done, MPI_STATUS_IGNORE));
    if (done) break;
    std::this_thread::sleep_for(pause);
    pause = std::min(longest, pause * 2);
  }
}

namespace {
template <class T>
T reduce(MPI_Comm c, T v, MPI_Datatype t, MPI_Op op) {
  T out{};
  MMBENCH_MPI(MPI_Allreduce(&v, &out, 1, t, op, c));
  return out;
}
}  // namespace

double Comm::max(double v) const { return reduce(comm_, v, MPI_DOUBLE, MPI_MAX); }
double Comm::min(double v) const { return reduce(comm_, v, MPI_DOUBLE, MPI_MIN); }
double Comm::sum(double v) const { return reduce(comm_, v, MPI_DOUBLE, MPI_SUM); }
long long Comm::max(long long v) const { return reduce(comm_, v, MPI_LONG_LONG, MPI_MAX); }
long long Comm::sum(long long v) const { return reduce(comm_, v, MPI_LONG_LONG, MPI_SUM); }
bool Comm::all(bool v) const { return reduce(comm_, v ? 1 : 0, MPI_INT, MPI_MIN) == 1; }

bool Comm::same(long long v) const {
  // max(v) and max(-v) = -min(v) in one reduction; v is kept above
  // LLONG_MIN by the callers' contract so that -v exists.
  long long in[2] = {v, -v}, out[2] = {0, 0};
  MMBENCH_MPI(MPI_Allreduce(in, out, 2, MPI_LONG_LONG, MPI_MAX, comm_));
  return out[0] == -out[1];
}

void Comm::sum_inplace(std::vector<double>& v) const {
  // Chunked so that counts stay within int range for any vector length.
  constexpr std::size_t chunk = 1 << 26;
  for (std::size_t off = 0; off < v.size(); off += chunk) {
    int cnt = static_cast<int>(std::min(chunk, v.size() - off));
    MMBENCH_MPI(MPI_Allreduce(MPI_IN_PLACE, v.data() + off, cnt, MPI_DOUBLE, MPI_SUM, comm_));
  }
}

std::string Comm::bcast_string(const std::string& s, int root) const {
  int len = static_cast<int>(s.size());
  MMBENCH_MPI(MPI_Bcast(&len, 1, MPI_INT, root, comm_));
  std::string out = rank_ == root ? s : std::string(static_cast<std::size_t>(len), '\0');
  if (len > 0) MMBENCH_MPI(MPI_Bcast(out.data(), len, MPI_CHAR, root, comm_));
  return out;
}

std::string Comm::first_error(const std::string& mine) const {
  const long long me = mine.empty() ? size_ : rank_;
  long long first = me;
  MMBENCH_MPI(MPI_Allreduce(&me, &first, 1, MPI_LONG_LONG, MPI_MIN, comm_));
  if (first >= size_) return {};
  const int root = static_cast<int>(first);
  return "rank " + std::to_string(root) + ": " + bcast_string(mine, root);
}

}  // namespace mmbench
