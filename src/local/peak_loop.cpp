#include "local/peak_loop.hpp"

namespace mmbench::local {

PeakLoop peak_loop(VectorIsa isa) {
  switch (isa) {
    case VectorIsa::avx512: return avx512_peak_loop();
    case VectorIsa::avx2_fma: return avx2_fma_peak_loop();
    case VectorIsa::sse2: return sse2_peak_loop();
  }
  return nullptr;
}

MixLoop gemm_mix_loop(VectorIsa isa) {
  switch (isa) {
    case VectorIsa::avx512:
      return avx512_gemm_mix_loop();
    case VectorIsa::avx2_fma:
      return avx2_fma_gemm_mix_loop();
    case VectorIsa::sse2:
      return sse2_gemm_mix_loop();
  }
  return nullptr;
}

}  // namespace mmbench::local
