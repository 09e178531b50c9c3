// Read bandwidth of one core over a 1024x1024 quadrant of a 2048x2048 matrix (out of cache):
// contiguous 8 MiB, the quadrant column by column, and in pack_b's order (12 columns, 64 rows at a time).
// Build: g++ -O2 -mavx512f -mfma results/packb-transpose-zen4-20261203/read_columns.cpp -o /tmp/read_columns; run:
// /tmp/read_columns
#include <chrono>
#include <cstdio>
#include <vector>
#include <immintrin.h>
static double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
int main() {
  const long n = 2048, h = 1024;
  std::vector<double> B(n * n, 1.0), big(64 << 20, 1.0);
  for (int r = 0; r < 5; ++r) {
    for (auto& x : big) x += 1.0;
    double t0 = now();
    __m512d s = _mm512_setzero_pd();
    for (long i = 0; i < h * h; i += 8) s = _mm512_add_pd(s, _mm512_loadu_pd(B.data() + i));  // contiguous 8 MB
    double t1 = now();
    for (auto& x : big) x += 1.0;
    double t2 = now();
    __m512d s2 = _mm512_setzero_pd();
    for (long j = 0; j < h; ++j)
      for (long i = 0; i < h; i += 8)
        s2 = _mm512_add_pd(s2, _mm512_loadu_pd(B.data() + i + j * n));  // quadrant, whole columns
    double t3 = now();
    for (auto& x : big) x += 1.0;
    double t4 = now();
    __m512d s3 = _mm512_setzero_pd();
    for (long j0 = 0; j0 < h; j0 += 12)
      for (long p0 = 0; p0 < h; p0 += 64)
        for (long j = j0; j < j0 + 12 && j < h; ++j)
          for (long i = p0; i < p0 + 64; i += 8) s3 = _mm512_add_pd(s3, _mm512_loadu_pd(B.data() + i + j * n));
    double t5 = now();
    printf("contiguous %.1f GB/s, quadrant columns %.1f GB/s, pack_b order %.1f GB/s (%g)\n",
           8.0 * h * h / (t1 - t0) / 1e9, 8.0 * h * h / (t3 - t2) / 1e9, 8.0 * h * h / (t5 - t4) / 1e9,
           _mm512_reduce_add_pd(s) + _mm512_reduce_add_pd(s2) + _mm512_reduce_add_pd(s3));
  }
}
