#include "tuner/shift_overlap.hpp"

#include <algorithm>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/machine/blas.hpp"
#include "core/matrix/generate.hpp"
#include "core/mpi/comm.hpp"
#include "core/mpi/mpi_check.hpp"
#include "core/stats/timing.hpp"

namespace mmbench::tuner {

namespace {

constexpr int kTag = 4721;
constexpr std::int64_t kDgemmN = 128;  // one DGEMM of a chunk: 4.2 MFLOP, tens of microseconds on a modern core
constexpr int kChunks = 4;             // as ring's widest blocks (space/ring_chunks.hpp)

}  // namespace

ShiftOverlap measure_shift_overlap(MPI_Comm comm_handle, int partner, bool across_nodes, int reps,
                                   const std::vector<std::int64_t>& sizes) {
  const Comm comm = Comm::view(comm_handle);
  ShiftOverlap out;
  if (comm.size() < 2) return out;
  if (partner < 1 || partner >= comm.size() || reps < 1 || sizes.empty() ||
      !std::is_sorted(sizes.begin(), sizes.end()) || sizes.front() < 1 || sizes.back() > (std::int64_t{1} << 30))
    throw std::invalid_argument("shift overlap: partner " + std::to_string(partner) + " of " +
                                std::to_string(comm.size()) + " ranks, reps " + std::to_string(reps) + ", " +
                                std::to_string(sizes.size()) +
                                " sizes: needs 1 <= partner < ranks, reps >= 1, sizes ascending in [1, 1 GiB]");
  const int me = comm.rank();
  const bool in_pair = me == 0 || me == partner;
  const int peer = me == 0 ? partner : 0;
  std::vector<char> send(in_pair ? static_cast<std::size_t>(sizes.back()) : 0, 1),
      recv(in_pair ? static_cast<std::size_t>(sizes.back()) : 0, 0);
  const std::size_t nn = in_pair ? static_cast<std::size_t>(kDgemmN * kDgemmN) : 0;
  std::vector<double> a(nn), b(nn), c(nn, 0.0);
  for (std::size_t i = 0; i < nn; ++i) {
    a[i] = matrix_entry(static_cast<std::int64_t>(i % kDgemmN), static_cast<std::int64_t>(i / kDgemmN), 21);
    b[i] = matrix_entry(static_cast<std::int64_t>(i % kDgemmN), static_cast<std::int64_t>(i / kDgemmN), 22);
  }
  MPI_Request req[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  int count = 0;  // bytes each way of the size being measured (0 off the pair)
  auto post = [&] {
    MMBENCH_MPI(MPI_Irecv(recv.data(), count, MPI_BYTE, peer, kTag, comm.get(), &req[0]));
    MMBENCH_MPI(MPI_Isend(send.data(), count, MPI_BYTE, peer, kTag, comm.get(), &req[1]));
  };
  auto wait = [&] { MMBENCH_MPI(MPI_Waitall(2, req, MPI_STATUSES_IGNORE)); };
  int per_chunk = 1;
  // The chunks, testing the exchange between them as ring does.
  auto chunks = [&](bool testing) {
    for (int ch = 0; ch < kChunks; ++ch) {
      for (int i = 0; i < per_chunk; ++i)
        dgemm(kDgemmN, kDgemmN, kDgemmN, a.data(), kDgemmN, b.data(), kDgemmN, 0.0, c.data(), kDgemmN);
      if (testing) {
        int done = 0;
        MMBENCH_MPI(MPI_Testall(2, req, &done, MPI_STATUSES_IGNORE));
      }
    }
  };
  auto exchange = [&] {
    post();
    wait();
  };
  auto both = [&] {
    post();
    chunks(true);
    wait();
  };
  auto timed = [&](const std::function<void()>& f) { return time_max_over_ranks(comm, f, in_pair); };

  out.record.measured = true;
  out.record.partner = partner;
  out.record.across_nodes = across_nodes;
  for (std::size_t si = 0; si < sizes.size(); ++si) {
    count = in_pair ? static_cast<int>(sizes[si]) : 0;
    const int rounds = si == 0 ? reps : std::min(reps, kOverlapLargeRounds);
    // Size the chunks: the four of them about as long as the exchange alone
    // (rank 0 decides; every rank learns it).
    per_chunk = 1;
    timed(exchange);  // connection set-up, first touch of this size
    const double x0 = timed(exchange);
    double one = timed([&] { chunks(false); }) / kChunks;  // per_chunk is 1 here
    one = std::max(one, 1e-6);
    per_chunk = static_cast<int>(std::clamp(x0 / kChunks / one, 1.0, 1e6));
    MMBENCH_MPI(MPI_Bcast(&per_chunk, 1, MPI_INT, 0, comm.get()));

    // Each round times the three back to back; the fraction is the median of
    // the rounds' own fractions (a difference of sums is noisier than its
    // parts, and a round's three ran in the same second).
    std::vector<double> xs, cs, bs, fs;
    for (int r = 0; r < rounds; ++r) {
      xs.push_back(timed(exchange));
      cs.push_back(timed([&] { chunks(false); }));
      bs.push_back(timed(both));
      const double shorter = std::min(xs.back(), cs.back());
      fs.push_back(shorter > 0 ? std::clamp((xs.back() + cs.back() - bs.back()) / shorter, 0.0, 1.0) : 1.0);
    }
    double v[4] = {summarize(xs).median, summarize(cs).median, summarize(bs).median, summarize(fs).median};
    MMBENCH_MPI(MPI_Bcast(v, 4, MPI_DOUBLE, 0, comm.get()));
    out.record.points.push_back({sizes[si], v[0], v[1], v[2], v[3], rounds});
    out.chunk_dgemms.push_back(per_chunk);
  }
  return out;
}

}  // namespace mmbench::tuner
