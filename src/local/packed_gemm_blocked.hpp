// The blocked loops, packing and micro-kernel of packed_gemm
// (packed_gemm.hpp), written once over a vector type. Each instruction set
// has a translation unit of its own compiled with its flags
// (packed_kernel_avx512.cpp, packed_kernel_avx2.cpp,
// packed_kernel_portable.cpp) that includes this file with its Simd traits.
//
// Everything here has internal linkage and calls no inline function of a
// library header: the same inline function compiled with AVX-512 in one
// translation unit and without it in another would be one symbol to the
// linker, which may keep either copy, and a CPU without AVX-512 could then
// run the AVX-512 one.
//
// The block sizes MC, KC, NC are run-time values (PackedBlocking, already
// validated by packed_gemm.cpp: MC a multiple of MR); the tile MR×NR and the
// vector type are the template's.
//
// Packed layouts (Goto/BLIS), with MR = V·W rows per A panel:
//   A block (mc × kc) -> ⌈mc/MR⌉ panels; panel r holds rows r·MR .. r·MR+MR-1
//     column after column: Ap[r·MR·kc + p·MR + i] = Σ α_t A_t[ic + r·MR + i, pc + p]
//   B block (kc × nc) -> ⌈nc/NR⌉ panels; panel s holds columns s·NR .. s·NR+NR-1
//     row after row:       Bp[s·NR·kc + p·NR + j] = Σ β_s B_s[pc + p, jc + s·NR + j]
// Rows and columns past the matrix edge are packed as zeros, so the micro-
// kernel always computes a whole MR×NR tile; an edge tile is then added to
// the destinations through a small buffer. Example: m = 100, MR = 16: six
// full panels and a seventh with rows 96..99 and 12 zero rows.
#pragma once

#include <cstdint>

#include "local/packed_kernels.hpp"

namespace mmbench::local {
namespace {

using pi64 = std::int64_t;

inline pi64 pmin(pi64 a, pi64 b) { return a < b ? a : b; }
inline pi64 pmax(pi64 a, pi64 b) { return a < b ? b : a; }

// The block length that splits `len` into the fewest blocks of at most
// `cap`, all of about one length: k = 1024 with KC = 768 gives 512 + 512,
// not 768 + 256 (a short k block pays a whole C tile update for a third of
// the work; a short NC block packs a B block too thin for the ic loop).
// Example: len = 4096, cap = 768 -> 6 blocks of 683 (the last 681).
inline pi64 even_step(pi64 len, pi64 cap) {
  const pi64 blocks = (len + cap - 1) / cap;
  return blocks > 0 ? (len + blocks - 1) / blocks : cap;
}

// dst[0:len] = Σ_t coef_t · src_t[row0 : row0+len, col] over the terms:
// one contiguous run of a column of every term.
inline void sum_column_run(double* __restrict dst, const PackedTerm* t, int nt, pi64 row0, pi64 col, pi64 len) {
  const double* s0 = t[0].data + row0 + col * t[0].ld;
  const double c0 = t[0].coef;
  if (nt == 1) {
    for (pi64 i = 0; i < len; ++i) dst[i] = c0 * s0[i];
    return;
  }
  const double* s1 = t[1].data + row0 + col * t[1].ld;
  const double c1 = t[1].coef;
  for (pi64 i = 0; i < len; ++i) dst[i] = c0 * s0[i] + c1 * s1[i];
  for (int q = 2; q < nt; ++q) {
    const double* sq = t[q].data + row0 + col * t[q].ld;
    const double cq = t[q].coef;
    for (pi64 i = 0; i < len; ++i) dst[i] += cq * sq[i];
  }
}

// Asks for a column run of every term ahead of its use. Packing reads one
// contiguous run per column, and a column of a quadrant of a large matrix
// starts on another page, where the hardware's stream prefetcher has to
// start over; so pack_a asks for the column kPrefetchColumns ahead (all of
// its run: mc <= MC rows).
constexpr pi64 kPrefetchColumns = 4;
inline void prefetch_column_run(const PackedTerm* t, int nt, pi64 row0, pi64 col, pi64 len) {
  for (int q = 0; q < nt; ++q) {
    const double* s = t[q].data + row0 + col * t[q].ld;
    for (pi64 i = 0; i < len; i += 8) __builtin_prefetch(s + i);
  }
}

// n rounded up to whole 64-byte lines of doubles.
inline pi64 whole_lines(pi64 n) { return (n + 7) / 8 * 8; }

template <class Simd, int V, int NR>
struct Blocked {
  using vec = typename Simd::vec;
  static constexpr int W = Simd::W;
  static constexpr int MR = V * W;
  static constexpr int kNR = NR;

  // The workspace: the packed A block, (MC + MR) × KC; the packed B block,
  // (NC + NR) × KC; pack_a's column buffer, MC + MR; each starting on a
  // 64-byte line (the micro-kernel loads A panels aligned).
  static pi64 ap_doubles(const PackedBlocking& b) { return whole_lines((b.mc + MR) * b.kc); }
  static pi64 bp_doubles(const PackedBlocking& b) { return whole_lines((b.nc + NR) * b.kc); }
  static std::size_t workspace_doubles(const PackedBlocking& b) {
    return static_cast<std::size_t>(ap_doubles(b) + bp_doubles(b) + whole_lines(b.mc + MR));
  }

  // A block -> MR-tall panels (layout above). Walks each column of the block
  // once, top to bottom, so every column of every term is read as one
  // contiguous run (a column of a quadrant of a large matrix lies on its own
  // pages: reading it panel by panel instead touched each page MC/MR times
  // and ran ~2x slower in the prototype).
  // `col`: a buffer of at least mc + MR doubles.
  static void pack_a(pi64 mc, pi64 kc, const PackedTerm* t, int nt, pi64 ic, pi64 pc, double* __restrict ap,
                     double* __restrict col) {
    const pi64 panels = (mc + MR - 1) / MR;
    for (pi64 p = 0; p < kc; ++p) {
      if (p + kPrefetchColumns < kc) prefetch_column_run(t, nt, ic, pc + p + kPrefetchColumns, mc);
      sum_column_run(col, t, nt, ic, pc + p, mc);
      for (pi64 i = mc; i < panels * MR; ++i) col[i] = 0.0;
      for (pi64 r = 0; r < panels; ++r) {
        double* __restrict dst = ap + r * MR * kc + p * MR;
        for (int i = 0; i < MR; ++i) dst[i] = col[r * MR + i];
      }
    }
  }

  // B block -> NR-wide panels, W rows at a time. Each of the panel's NR
  // columns gives one vector of W consecutive rows (the sum of its terms,
  // read as a contiguous run of the column), and transposing those vectors
  // W columns at a time gives W rows of the panel, which lie one after
  // another (NR doubles each), so the panel is written with whole-vector
  // stores. Example (AVX-512, W = 8, NR = 12): rows p..p+7 of columns 0..7
  // transpose into the first 8 doubles of the 8 panel rows, columns 8..11
  // (with 4 zero vectors) into their last 4. Spreading one column at a time
  // with stride NR instead (scalar stores) packed at about half the speed:
  // B is packed once per product, and at the fused Strassen level's
  // 1024-sized products it weighed several per cent of the time
  // (docs/results.md, "Packing B by transposes").
  // Columns past the matrix edge (the last panel, nr < NR) are zeros; the
  // last kc mod W rows are packed one at a time.
  // Every column is asked for kBAhead doubles ahead of its reads (a column
  // of a quadrant of a large matrix starts on a page of its own, where the
  // hardware's stream prefetcher starts over); past the end of the block's
  // rows the requests go on into the same column of the next panel.
  static constexpr pi64 kBAhead = 64;
  static void pack_b(pi64 kc, pi64 nc, const PackedTerm* t, int nt, pi64 pc, pi64 jc, double* __restrict bp) {
    constexpr int G = (NR + W - 1) / W;  // groups of W columns
    for (pi64 jr = 0; jr < nc; jr += NR) {
      const pi64 nr = pmin(NR, nc - jr);
      double* __restrict panel = bp + jr * kc;
      // Column j of term q at row pc; past the edge the last column (read, then replaced by zeros).
      const double* src[kPackedMaxTerms][NR];
      for (int q = 0; q < nt; ++q)
        for (int j = 0; j < NR; ++j) src[q][j] = t[q].data + pc + (jc + jr + pmin(j, nr - 1)) * t[q].ld;
      auto ask_ahead = [&](pi64 p, int j) {
        const pi64 row = p + kBAhead;
        for (int q = 0; q < nt; ++q) {
          if (row < kc)
            __builtin_prefetch(src[q][j] + row);
          else if (jr + NR + j < nc)
            __builtin_prefetch(t[q].data + pc + (row - kc) + (jc + jr + NR + j) * t[q].ld);
        }
      };
      pi64 p = 0;
      for (; p + W <= kc; p += W) {
        vec v[G * W];
        for (int j = 0; j < G * W; ++j) {
          if (j >= nr) {
            v[j] = Simd::zero();
            continue;
          }
          if (p % 8 == 0) ask_ahead(p, j);  // one request per 64-byte line
          v[j] = Simd::fma(Simd::set1(t[0].coef), Simd::loadu(src[0][j] + p), Simd::zero());
          for (int q = 1; q < nt; ++q) v[j] = Simd::fma(Simd::set1(t[q].coef), Simd::loadu(src[q][j] + p), v[j]);
        }
        double* __restrict rows = panel + p * NR;
        for (int g = 0; g < G; ++g) {
          Simd::transpose(v + g * W);
          const int width = NR - g * W < W ? NR - g * W : W;
          for (int i = 0; i < W; ++i) {
            if (width == W)
              Simd::storeu(rows + i * NR + g * W, v[g * W + i]);
            else
              Simd::storeu_first(rows + i * NR + g * W, v[g * W + i], width);
          }
        }
      }
      for (; p < kc; ++p)
        for (int j = 0; j < NR; ++j) {
          double x = 0.0;
          if (j < nr) {
            x = t[0].coef * src[0][j][p];
            for (int q = 1; q < nt; ++q) x += t[q].coef * src[q][j][p];
          }
          panel[p * NR + j] = x;
        }
    }
  }

  // One MR×NR tile: acc = Ap panel · Bp panel over kc, then into every
  // destination (offset to the tile already). `first`: the first kc block,
  // where overwriting destinations start from zero instead of their value.
  // Not inlined: inside gemm()'s loops GCC 12 kept a zero vector live across
  // the k loop and spilled an accumulator of the 8×6 AVX2 tile to the stack
  // (15 of 16 registers needed), which halved that kernel's rate.
  //
  // While its k loop runs, the call asks for what comes after it, one
  // request every `every` k steps, spread over the loop rather than all at
  // its start:
  // - one column of a destination tile per request (both ends of its MR
  //   rows): the tile is read and written at the end, and its columns are
  //   ld apart, on different pages;
  // - one 64-byte line of `ahead` per request: its share of the next B
  //   micro-panel (gemm() below). Without it the next panel came from L3
  //   only when its first tile started, and the loops ran several per cent
  //   slower on Zen 4 (docs/results.md, "The next B micro-panel").
  // Example: kc = 683, nr = 12, one destination, ahead 171 lines -> 171
  // requests, every 3 k steps (the last at step 513); the tile's 12 columns
  // go with the first 12.
  struct Ahead {
    const double* b = nullptr;  // the first line of the share
    pi64 b_lines = 0;
  };
  __attribute__((noinline)) static void micro_kernel(pi64 kc, const double* __restrict a, const double* __restrict b,
                                                     const PackedDestination* c, int nc, pi64 mr, pi64 nr, bool first,
                                                     Ahead ahead = {}) {
    vec acc[V][NR];
    for (int j = 0; j < NR; ++j)
      for (int v = 0; v < V; ++v) acc[v][j] = Simd::zero();
    // At least one request: a call has a destination (nc >= 1) and a column (nr >= 1).
    const pi64 requests = pmax(ahead.b_lines, nc * nr);
    const pi64 every = pmax(1, kc / requests);
    pi64 countdown = every;
    const char* next_line = reinterpret_cast<const char*>(ahead.b);
    pi64 lines_left = ahead.b_lines;
    int cd = 0;  // the next destination column to ask for: column cj of c[cd]
    pi64 cj = 0;
    for (pi64 p = 0; p < kc; ++p) {
      if (--countdown == 0) {
        countdown = every;
        if (lines_left > 0) {
          __builtin_prefetch(next_line);
          next_line += 64;
          --lines_left;
        }
        if (cd < nc) {
          __builtin_prefetch(c[cd].data + cj * c[cd].ld, 1);
          __builtin_prefetch(c[cd].data + cj * c[cd].ld + mr - 1, 1);
          if (++cj == nr) {
            cj = 0;
            ++cd;
          }
        }
      }
      vec av[V];
      for (int v = 0; v < V; ++v) av[v] = Simd::load(a + v * W);
      __builtin_prefetch(a + 8 * MR);
      for (int j = 0; j < NR; ++j) {
        const vec bj = Simd::set1(b[j]);
        for (int v = 0; v < V; ++v) acc[v][j] = Simd::fma(av[v], bj, acc[v][j]);
      }
      a += MR;
      b += NR;
    }
    if (mr == MR && nr == NR) {
      for (int d = 0; d < nc; ++d) {
        const vec g = Simd::set1(c[d].coef);
        const bool zero = first && c[d].overwrite;
        for (int j = 0; j < NR; ++j) {
          double* col = c[d].data + j * c[d].ld;
          for (int v = 0; v < V; ++v) {
            const vec old = zero ? Simd::zero() : Simd::loadu(col + v * W);
            Simd::storeu(col + v * W, Simd::fma(g, acc[v][j], old));
          }
        }
      }
      return;
    }
    alignas(64) double tile[MR * NR];
    for (int j = 0; j < NR; ++j)
      for (int v = 0; v < V; ++v) Simd::store(tile + j * MR + v * W, acc[v][j]);
    for (int d = 0; d < nc; ++d) {
      const bool zero = first && c[d].overwrite;
      for (pi64 j = 0; j < nr; ++j) {
        double* col = c[d].data + j * c[d].ld;
        for (pi64 i = 0; i < mr; ++i) col[i] = (zero ? 0.0 : col[i]) + c[d].coef * tile[j * MR + i];
      }
    }
  }

  static void gemm(pi64 m, pi64 n, pi64 k, const PackedTerm* a, int na, const PackedTerm* b, int nb,
                   const PackedDestination* c, int nc, double* workspace, const PackedBlocking& blocking) {
    const pi64 MC = blocking.mc;
    double* ap = workspace;
    double* bp = workspace + ap_doubles(blocking);
    double* col = bp + bp_doubles(blocking);
    const pi64 nstep = even_step(n, blocking.nc), kstep = even_step(k, blocking.kc);
    for (pi64 jc = 0; jc < n; jc += nstep) {
      const pi64 ncols = pmin(nstep, n - jc);
      for (pi64 pc = 0; pc < k; pc += kstep) {
        const pi64 kc = pmin(kstep, k - pc);
        pack_b(kc, ncols, b, nb, pc, jc, bp);
        for (pi64 ic = 0; ic < m; ic += MC) {
          const pi64 mc = pmin(MC, m - ic);
          pack_a(mc, kc, a, na, ic, pc, ap, col);
          const pi64 tiles = (mc + MR - 1) / MR;
          for (pi64 jr = 0; jr < ncols; jr += NR) {
            const pi64 nr = pmin(NR, ncols - jr);
            // The next B micro-panel (NR × kc, right after this one) in equal
            // shares, one per tile of this column of tiles. Example: kc = 683,
            // NR = 12, mc = 96, MR = 16: 1025 lines, 6 shares of 171 (the last 170).
            const pi64 next_lines = jr + NR < ncols ? (NR * kc + 7) / 8 : 0;
            const pi64 share = (next_lines + tiles - 1) / tiles;
            const double* next = bp + (jr + NR) * kc;
            for (pi64 ir = 0, t = 0; ir < mc; ir += MR, ++t) {
              const pi64 mr = pmin(MR, mc - ir);
              PackedDestination tile[kPackedMaxDestinations];
              for (int d = 0; d < nc; ++d)
                tile[d] = {c[d].data + (ic + ir) + (jc + jr) * c[d].ld, c[d].ld, c[d].coef, c[d].overwrite};
              const pi64 lines = pmin(share, next_lines - t * share);
              micro_kernel(kc, ap + ir * kc, bp + jr * kc, tile, nc, mr, nr, pc == 0,
                           {next + t * share * 8, pmax(0, lines)});
            }
          }
        }
      }
    }
  }
};

// The entry packed_gemm.cpp calls for one instantiation; its tile must be
// the one packed_kernels.hpp lists for its instruction set (the blockings
// are validated against that list).
template <class Blocking, int MR, int NR>
const packed_kernels::Kernel* kernel_of() {
  static_assert(Blocking::MR == MR && Blocking::kNR == NR, "the kernel's tile differs from packed_kernels.hpp's");
  static const packed_kernels::Kernel kernel{&Blocking::workspace_doubles, &Blocking::gemm};
  return &kernel;
}

}  // namespace
}  // namespace mmbench::local
