// The paper cost models against values worked out by hand from the printed
// formulas (docs/method.md §7, Tab. 2.5, eqs. 2.10-2.24). Every expected value is a
// literal; the comment above it shows the arithmetic that produced it.
//
// Two parameter sets:
//   S: lambda = 1e-5 s, tau = 1e8 doubles/s, t_op = 1e-9 s   (round numbers)
//   Opteron (thesis, docs/method.md §12): t_op = 1 / 3300e6 s, tau = 146e6 / 8 = 18.25e6
//     doubles/s, lambda = 17e-6 s (the thesis' "17 ms" read as µs, docs/method.md §11).
#include "model/paper_model.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

using namespace mmbench::model;

namespace {

MachineParams simple() {
  MachineParams mp;
  mp.latency_s = 1e-5;
  mp.tau = 1e8;
  mp.t_op = 1e-9;
  return mp;
}

MachineParams opteron(double mflops = 3300) {
  MachineParams mp;
  mp.latency_s = 17e-6;
  mp.tau = 146e6 / 8;  // 146 MB/s all-to-all, 8 bytes per double
  mp.t_op = 1.0 / (mflops * 1e6);
  return mp;
}

void expect_rel(double actual, double expected, double rel = 1e-10) {
  if (expected == 0) {
    EXPECT_EQ(actual, 0.0);
  } else {
    EXPECT_NEAR(actual, expected, std::abs(expected) * rel) << "expected " << expected;
  }
}

}  // namespace

TEST(PaperModel, Dgemm) {
  // 2 * 100 * 200 * 300 = 12e6 flops * 1e-9 = 0.012 s
  const Prediction d = paper_dgemm(100, 200, 300, simple());
  expect_rel(d.comp_s, 0.012);
  EXPECT_EQ(d.comm_s, 0.0);
  expect_rel(d.total(), 0.012);
  // 2 * 1000^3 = 2e9 flops at 3300 MFLOPS: 2e9 / 3.3e9 = 0.606060... s
  expect_rel(paper_dgemm(1000, 1000, 1000, opteron()).comp_s, 0.6060606060606061);
  EXPECT_EQ(paper_dgemm(0, 10, 10, simple()).comp_s, 0.0);
  EXPECT_THROW(paper_dgemm(-1, 10, 10, simple()), std::invalid_argument);
}

TEST(PaperModel, Add) {
  // 1000^2 / 4 = 250000 flops * 1e-9 = 2.5e-4 s
  expect_rel(paper_add(1000, 4, simple()), 2.5e-4);
  // 1000^2 / 3 = 333333.33 flops -> 3.3333333e-4 s
  expect_rel(paper_add(1000, 3, simple()), 3.333333333333333e-4);
  EXPECT_THROW(paper_add(1000, 0, simple()), std::invalid_argument);
}

TEST(PaperModel, Ring) {
  // n = 1000, p = 4: b = 250.
  // comm = 2*3*(1e-5 + 1000*250/1e8) = 6 * 0.00251 = 0.01506
  // comp = 4 * 2*250*250*1000 * 1e-9 = 4 * 0.125 = 0.5
  Prediction r = paper_ring(1000, 4, simple());
  expect_rel(r.comm_s, 0.01506);
  expect_rel(r.comp_s, 0.5);
  // n = 1000, p = 3: b = ceil(333.3) = 334.
  // comm = 2*2*(1e-5 + 1000*334/1e8) = 4 * 0.00335 = 0.0134
  // comp = 3 * 2*334*334*1000 * 1e-9 = 3 * 0.223112 = 0.669336
  r = paper_ring(1000, 3, simple());
  expect_rel(r.comm_s, 0.0134);
  expect_rel(r.comp_s, 0.669336);
  // p = 1: no messages, one DGEMM of 2e9 flops = 2 s.
  r = paper_ring(1000, 1, simple());
  EXPECT_EQ(r.comm_s, 0.0);
  expect_rel(r.comp_s, 2.0);
  // Opteron, n = 8192, p = 56: b = ceil(146.29) = 147.
  // comm = 110 * (17e-6 + 8192*147 / 18.25e6) = 110 * (17e-6 + 1204224/18.25e6)
  //      = 110 * 0.06600187671232877 = 7.260206438356164
  // comp = 56*2*147*147*8192 / 3.3e9 = 19826343936 / 3.3e9 = 6.007983010909091
  r = paper_ring(8192, 56, opteron());
  expect_rel(r.comm_s, 7.260206438356164);
  expect_rel(r.comp_s, 6.007983010909091);
  EXPECT_THROW(paper_ring(0, 4, simple()), std::invalid_argument);
  EXPECT_THROW(paper_ring(1000, 0, simple()), std::invalid_argument);
  MachineParams no_tau = simple();
  no_tau.tau = 0;
  EXPECT_THROW(paper_ring(1000, 4, no_tau), std::invalid_argument);
}

TEST(PaperModel, Tpmm) {
  // n = 1000, p = 8: n^2/p = 125000, n/p = 125.
  // comm = 14 * (1e-5 + 125000/1e8) = 14 * 0.00126 = 0.01764
  // comp = 8 * 2*125*125*1000 * 1e-9 = 8 * 0.03125 = 0.25
  Prediction t = paper_tpmm(1000, 8, simple());
  expect_rel(t.comm_s, 0.01764);
  expect_rel(t.comp_s, 0.25);
  // p = 16 does not divide 1000: exact division, n/p = 62.5, n^2/p = 62500.
  // comm = 30 * (1e-5 + 62500/1e8) = 30 * 0.000635 = 0.01905
  // comp = 16 * 2*62.5*62.5*1000 * 1e-9 = 16 * 0.0078125 = 0.125
  // (Ring would use ceil(1000/16) = 63 instead: comm 30*(1e-5+63000/1e8) = 0.01920.)
  t = paper_tpmm(1000, 16, simple());
  expect_rel(t.comm_s, 0.01905);
  expect_rel(t.comp_s, 0.125);
  expect_rel(paper_ring(1000, 16, simple()).comm_s, 0.0192);
  t = paper_tpmm(1000, 1, simple());
  EXPECT_EQ(t.comm_s, 0.0);
  expect_rel(t.comp_s, 2.0);
  EXPECT_THROW(paper_tpmm(1000, 12, simple()), std::invalid_argument);
  EXPECT_THROW(paper_tpmm(1000, 0, simple()), std::invalid_argument);
}

TEST(PaperModel, Pdgemm) {
  // n = 1000, nb = 64, 2 x 4: log2 2 = 1, log2 4 = 2, ceil(1000/64) = 16.
  // volume  = (1 * 1e6/4 + 2 * 1e6/2) / 1e8 = 1250000 / 1e8 = 0.0125
  // startup = 16 * (1 + 2) * 1e-5 = 0.00048
  // comp    = 2e9 / 8 * 1e-9 = 0.25
  Prediction d = paper_pdgemm(1000, 64, 2, 4, simple());
  expect_rel(d.comm_s, 0.01298);
  expect_rel(d.comp_s, 0.25);
  // 3 x 3, nb = 50: log2 3 = 1.584962500721156, ceil(1000/50) = 20.
  // volume  = 2 * 1.584962500721156 * 1e6/3 / 1e8 = 0.010566416671474373
  // startup = 20 * 3.169925001442312 * 1e-5 = 0.0006339850002884624
  // sum = 0.011200401671762835
  d = paper_pdgemm(1000, 50, 3, 3, simple());
  expect_rel(d.comm_s, 0.011200401671762835);
  expect_rel(d.comp_s, 2e9 / 9 * 1e-9);
  // 1 x 1: log2 1 = 0, no communication.
  d = paper_pdgemm(1000, 100, 1, 1, simple());
  EXPECT_EQ(d.comm_s, 0.0);
  expect_rel(d.comp_s, 2.0);
  // Opteron, n = 8192, nb = 64, 7 x 8: log2 7 = 2.807354922057604, log2 8 = 3,
  // ceil(8192/64) = 128. n^2/8 = 8388608, n^2/7 = 9586980.571428571.
  // volume  = (2.807354922057604*8388608 + 3*9586980.571428571) / 18.25e6
  //         = 2.8663420094409595
  // startup = 128 * 5.807354922057604 * 17e-6 = 0.012636804310397346
  // comp    = 2*8192^3 / 56 / 3.3e9 = 5.949738245541125
  d = paper_pdgemm(8192, 64, 7, 8, opteron());
  expect_rel(d.comm_s, 2.878978813751357);
  expect_rel(d.comp_s, 5.949738245541125);
  EXPECT_THROW(paper_pdgemm(1000, 0, 2, 2, simple()), std::invalid_argument);
  EXPECT_THROW(paper_pdgemm(1000, 64, 0, 2, simple()), std::invalid_argument);
}

TEST(PaperModel, MostSquareGrid) {
  EXPECT_EQ(most_square_grid(1), std::make_pair(1, 1));
  EXPECT_EQ(most_square_grid(2), std::make_pair(1, 2));
  EXPECT_EQ(most_square_grid(7), std::make_pair(1, 7));
  EXPECT_EQ(most_square_grid(12), std::make_pair(3, 4));
  EXPECT_EQ(most_square_grid(16), std::make_pair(4, 4));
  EXPECT_EQ(most_square_grid(32), std::make_pair(4, 8));
  EXPECT_EQ(most_square_grid(56), std::make_pair(7, 8));
  EXPECT_EQ(most_square_grid(96), std::make_pair(8, 12));
  EXPECT_EQ(most_square_grid(98), std::make_pair(7, 14));
  EXPECT_EQ(most_square_grid(99991), std::make_pair(1, 99991));    // a prime
  EXPECT_EQ(most_square_grid(100489), std::make_pair(317, 317));   // 317^2
  // 100488 = 2^3*3*53*79; isqrt = 316 = 4*79 divides it: 316 x 318.
  EXPECT_EQ(most_square_grid(100488), std::make_pair(316, 318));
  // 100490 = 2*5*13*773; isqrt 317, largest divisor <= 317 is 130: 130 x 773.
  EXPECT_EQ(most_square_grid(100490), std::make_pair(130, 773));
  EXPECT_THROW(most_square_grid(0), std::invalid_argument);
}

TEST(PaperModel, StrassenQ7RingOneLevel) {
  // r = 0 is Ring itself.
  Prediction s = paper_strassen_q7_ring(1000, 4, 0, simple());
  expect_rel(s.comm_s, 0.01506);
  expect_rel(s.comp_s, 0.5);
  // n = 1000, p = 7, r = 1: ceil(7/7) = 1, floor(14/7) = 2, h = 500.
  // top  = 9 * (500*500/1/1e8 + 3e-5) = 9 * 0.00253 = 0.02277
  // Ring(500,2): comm 2*(1e-5 + 500*250/1e8) = 0.00252; Ring(500,1): 0
  // comm = 0.02277 + 0.00252 = 0.02529
  // G22: 5 * 250000e-9 + 2*500^3*1e-9 = 0.00125 + 0.25 = 0.25125
  // G11: 7 * 125000e-9 + 2 * (2*2*250*250*500e-9) = 0.000875 + 0.25 = 0.250875
  // comp = max = 0.25125
  s = paper_strassen_q7_ring(1000, 7, 1, simple());
  expect_rel(s.comm_s, 0.02529);
  expect_rel(s.comp_s, 0.25125);
  // p = 4 (the smallest Q7 split), r = 1: groups 1,1,1,1.
  // comm = 9 * (250000/1/1e8 + 3e-5) + 0 = 0.02277
  // comp = max(5*250000e-9 + 0.25, 7*250000e-9 + 2*0.25) = 0.50175
  s = paper_strassen_q7_ring(1000, 4, 1, simple());
  expect_rel(s.comm_s, 0.02277);
  expect_rel(s.comp_s, 0.50175);
}

TEST(PaperModel, StrassenQ7RingPaperVersusLargestGroup) {
  // n = 1000, p = 16, r = 1: ceil(16/7) = 3; paper floor(32/7) = 4; the actual
  // Q7 split is {5, 4, 4, 3}, largest 5. h = 500.
  // top = 9 * (250000/3/1e8 + 3e-5) = 9 * 0.000863333 = 0.00777
  // Ring(500,3): b = 167, comm 4*(1e-5 + 83500/1e8) = 0.00338, comp 3*2*167^2*500e-9 = 0.083667
  // Ring(500,4): b = 125, comm 6*(1e-5 + 62500/1e8) = 0.00381, comp 4*2*125^2*500e-9 = 0.0625
  // Ring(500,5): b = 100, comm 8*(1e-5 + 50000/1e8) = 0.00408, comp 5*2*100^2*500e-9 = 0.05
  // paper:   comm = 0.00777 + max(0.00381, 0.00338) = 0.01158
  //          comp = max(5*83333.33e-9 + 0.083667, 7*62500e-9 + 2*0.0625)
  //               = max(0.0840836667, 0.1254375) = 0.1254375
  // largest: comm = 0.00777 + max(0.00408, 0.00338) = 0.01185
  //          comp = max(0.0840836667, 7*50000e-9 + 2*0.05) = max(.., 0.10035) = 0.10035
  Prediction a = paper_strassen_q7_ring(1000, 16, 1, simple());
  expect_rel(a.comm_s, 0.01158);
  expect_rel(a.comp_s, 0.1254375);
  Prediction b = paper_strassen_q7_ring_largest_group(1000, 16, 1, simple());
  expect_rel(b.comm_s, 0.01185);
  expect_rel(b.comp_s, 0.10035);
}

// The recursive formula at r = 2 with the thesis' Opteron parameters.
// Leaves (n = 2048), with 2048^2 = 4194304, tau = 18.25e6, lambda = 17e-6,
// t_op = 1/3.3e9:
//   Ring(2048,1): comm 0,                                     comp 2*2048^3/3.3e9         = 5.206020964848485
//   Ring(2048,2): comm 2*(17e-6 + 2048*1024/tau) = 0.22985887671232877, comp 2*2*1024^2*2048/3.3e9 = 2.6030104824242426
//   Ring(2048,3): comm 4*(17e-6 + 2048*683/tau)  = 0.30665079452054794, comp 3*2*683^2*2048/3.3e9 = 1.7370354036363638
//   Ring(2048,4): comm 6*(17e-6 + 2048*512/tau)  = 0.3448393150684932,  comp 4*2*512^2*2048/3.3e9 = 1.3015052412121213
//   Ring(2048,5): comm 8*(17e-6 + 2048*410/tau)  = 0.36821490410958907, comp 5*2*410^2*2048/3.3e9 = 1.0432387878787879
// Additions T_add(n, q) = n^2/q/3.3e9:
//   (2048,1) 0.0012710012121212122  (2048,2) 0.0006355006060606061
//   (2048,3) 0.0004236670707070707  (2048,4) 0.00031775030303030305
//   (2048,5) 0.00025420024242424246 (4096,7) 0.0007262864069264069
//   (4096,8) 0.0006355006060606061  (4096,14) 0.00036314320346320344
//   (4096,16) 0.00031775030303030305
// Level terms 9*(h*h/s/tau + 3*17e-6):
//   h=4096,s=8: 9*(2097152/tau + 51e-6) = 1.0346709452054794
//   h=4096,s=7: 9*(2396745.142857/tau + 51e-6) = 1.182415508806262
//   h=2048,s=1: 9*(4194304/tau + 51e-6) = 2.0688828904109586
//   h=2048,s=2: 1.0346709452054794      h=2048,s=3: 0.6899336301369863
TEST(PaperModel, StrassenQ7RingR2P56Opteron) {
  // p = 56: s = ceil(56/7) = 8, l = floor(112/7) = 16.
  //   Sub (4096, 8):  s = 2, l = floor(16/7) = 2.
  //     comm = 1.0346709452054794 + Ring(2048,2).comm = 1.2645298219178083
  //     comp = max(5*0.00063550 + 2.60301048, 7*0.00063550 + 2*2.60301048)
  //          = max(2.6061879854545458, 5.210469469090909) = 5.210469469090909
  //   Sub (4096, 16): s = ceil(16/7) = 3, l = floor(32/7) = 4.
  //     comm = 0.6899336301369863 + max(0.30665079, 0.34483932) = 1.0347729452054795
  //     comp = max(5*0.00042367 + 1.73703540, 7*0.00031775 + 2*1.30150524)
  //          = max(1.7391537389898992, 2.6052347345454545) = 2.6052347345454545
  // comm = 1.0346709452054794 + max(1.2645298219178083, 1.0347729452054795) = 2.2992007671232875
  // comp = max(5*0.0006355006 + 5.210469469090909, 7*0.0003177503 + 2*2.6052347345454545)
  //      = max(5.213646972121212, 5.212693721212121) = 5.213646972121212
  const Prediction s = paper_strassen_q7_ring(8192, 56, 2, opteron());
  expect_rel(s.comm_s, 2.2992007671232875);
  expect_rel(s.comp_s, 5.213646972121212);

  // With the largest group: the level-2 split of 16 ranks is {5, 4, 4, 3},
  // so Ring(2048, 5) replaces Ring(2048, 4) in the (4096, 16) branch:
  //   comm = 0.6899336301369863 + max(0.30665079, 0.36821490) = 1.0581485342465753
  //   comp = max(1.7391537389898992, 7*0.0002542 + 2*1.04323879) = 2.0882569774545456
  // Both are masked one level up (the 8-rank branch dominates comm and the
  // G22 term dominates comp), so the totals equal the paper variant's:
  //   comp top: max(5.213646972121212, 7*0.0003177503 + 2*2.0882569774545456 = 4.178738207030303)
  const Prediction l = paper_strassen_q7_ring_largest_group(8192, 56, 2, opteron());
  expect_rel(l.comm_s, 2.2992007671232875);
  expect_rel(l.comp_s, 5.213646972121212);
}

TEST(PaperModel, StrassenQ7RingR2P49Opteron) {
  // p = 49: s = 7, l = floor(98/7) = 14.
  //   Sub (4096, 7): s = 1, l = 2.
  //     comm = 2.0688828904109586 + max(0, 0.22985887671232877) = 2.2987417671232873
  //     comp = max(5*0.0012710012 + 5.2060209648, 7*0.0006355006 + 2*2.6030104824)
  //          = max(5.2123759709090915, 5.210469469090909) = 5.2123759709090915
  //   Sub (4096, 14): s = 2, l = 4.
  //     comm = 1.0346709452054794 + max(0.22985888, 0.34483932) = 1.3795102602739726
  //     comp = max(5*0.0006355006 + 2.6030104824, 7*0.0003177503 + 2*1.3015052412)
  //          = max(2.6061879854545458, 2.6052347345454545) = 2.6061879854545458
  // comm = 1.182415508806262 + max(2.2987417671232873, 1.3795102602739726) = 3.481157275929549
  // comp = max(5*0.0007262864 + 5.2123759709, 7*0.0003631432 + 2*2.6061879855)
  //      = max(5.216007402943724, 5.214917973333334) = 5.216007402943724
  const Prediction s = paper_strassen_q7_ring(8192, 49, 2, opteron());
  expect_rel(s.comm_s, 3.481157275929549);
  expect_rel(s.comp_s, 5.216007402943724);
  // 49 = 7 * 7: every split is exact ({14,14,14,7}, {4,4,4,2}, {2,2,2,1}),
  // so the largest-group variant must agree.
  const Prediction l = paper_strassen_q7_ring_largest_group(8192, 49, 2, opteron());
  expect_rel(l.comm_s, 3.481157275929549);
  expect_rel(l.comp_s, 5.216007402943724);
}

TEST(PaperModel, StrassenQ7RingDepthLimits) {
  // p = 56: 56 -> 8 -> 2, a third split would need 4 ranks in a group of 2.
  EXPECT_THROW(paper_strassen_q7_ring(8192, 56, 3, opteron()), std::invalid_argument);
  EXPECT_THROW(paper_strassen_q7_ring_largest_group(8192, 56, 3, opteron()), std::invalid_argument);
  EXPECT_THROW(paper_strassen_q7_ring(1000, 3, 1, simple()), std::invalid_argument);
  EXPECT_THROW(paper_strassen_q7_ring(1000, 4, 2, simple()), std::invalid_argument);
  EXPECT_THROW(paper_strassen_q7_ring(1000, 7, -1, simple()), std::invalid_argument);
  // p = 22: 22 -> 4 -> 1, so r = 2 is allowed, r = 3 is not.
  EXPECT_NO_THROW(paper_strassen_q7_ring(1000, 22, 2, simple()));
  EXPECT_NO_THROW(paper_strassen_q7_ring_largest_group(1000, 22, 2, simple()));
  EXPECT_THROW(paper_strassen_q7_ring(1000, 22, 3, simple()), std::invalid_argument);
  // p = 3 is fine without recursion (plain Ring).
  EXPECT_NO_THROW(paper_strassen_q7_ring(1000, 3, 0, simple()));
}

TEST(PaperModel, StrassenQ8) {
  // Full recursion: n = 1000, p = 16, r = 2, p' = 1, n' = 250.
  // comm = 8*2*(1e-5 + 1e6/16/1e8) = 16 * 0.000635 = 0.01016
  // comp = 7*2 * 62500e-9 + 4 * 2*250^3*1e-9 = 0.000875 + 0.125 = 0.125875
  Prediction q = paper_strassen_q8(1000, 16, 2, Cutoff::dgemm, 0, simple());
  expect_rel(q.comm_s, 0.01016);
  expect_rel(q.comp_s, 0.125875);
  // tpMM cut-off: n = 1000, p = 32, r = 1, p' = 8, n' = 500.
  // top comm = 8*(1e-5 + 1e6/32/1e8) = 8 * 0.0003225 = 0.00258
  // tpMM(500,8): comm 14*(1e-5 + 250000/8/1e8) = 0.004515, comp 8*2*62.5^2*500e-9 = 0.03125
  // comm = 0.00258 + 2*0.004515 = 0.01161
  // comp = 7 * 31250e-9 + 2*0.03125 = 0.00021875 + 0.0625 = 0.06271875
  q = paper_strassen_q8(1000, 32, 1, Cutoff::tpmm, 0, simple());
  expect_rel(q.comm_s, 0.01161);
  expect_rel(q.comp_s, 0.06271875);
  // PDGEMM cut-off: n = 1000, p = 64, r = 1, p' = 16 -> 4 x 4, nb = 64, n' = 500.
  // top comm = 8*(1e-5 + 1e6/64/1e8) = 8 * 0.00016625 = 0.00133
  // PDGEMM(500,64,4,4): volume (2*250000/4 + 2*250000/4)/1e8 = 0.0025,
  //   startups ceil(500/64) = 8 * (2+2) * 1e-5 = 0.00032 -> 0.00282; comp 2*500^3/16*1e-9 = 0.015625
  // comm = 0.00133 + 2*0.00282 = 0.00697
  // comp = 7 * 15625e-9 + 2*0.015625 = 0.000109375 + 0.03125 = 0.031359375
  q = paper_strassen_q8(1000, 64, 1, Cutoff::pdgemm, 64, simple());
  expect_rel(q.comm_s, 0.00697);
  expect_rel(q.comp_s, 0.031359375);
  // Ring cut-off: n = 1000, p = 12, r = 1, p' = 3, n' = 500.
  // top comm = 8*(1e-5 + 1e6/12/1e8) = 8 * 0.00084333 = 0.0067466667
  // Ring(500,3): comm 0.00338, comp 0.083667
  // comm = 0.0067466667 + 2*0.00338 = 0.013506666666666667
  // comp = 7 * 83333.33e-9 + 2*0.083667 = 0.00058333 + 0.167334 = 0.16791733333333334
  q = paper_strassen_q8(1000, 12, 1, Cutoff::ring, 0, simple());
  expect_rel(q.comm_s, 0.013506666666666667);
  expect_rel(q.comp_s, 0.16791733333333334);
  // r = 0 is the cut-off algorithm itself.
  q = paper_strassen_q8(1000, 8, 0, Cutoff::tpmm, 0, simple());
  expect_rel(q.comm_s, 0.01764);
  expect_rel(q.comp_s, 0.25);
  q = paper_strassen_q8(1000, 1, 0, Cutoff::dgemm, 0, simple());
  EXPECT_EQ(q.comm_s, 0.0);
  expect_rel(q.comp_s, 2.0);
  // Inapplicable combinations.
  EXPECT_THROW(paper_strassen_q8(1000, 32, 2, Cutoff::dgemm, 0, simple()), std::invalid_argument);  // p' = 2
  EXPECT_THROW(paper_strassen_q8(1000, 8, 2, Cutoff::pdgemm, 64, simple()), std::invalid_argument); // 16 !| 8
  EXPECT_THROW(paper_strassen_q8(1000, 12, 1, Cutoff::tpmm, 0, simple()), std::invalid_argument);   // p' = 3
  EXPECT_THROW(paper_strassen_q8(1000, 16, 1, Cutoff::pdgemm, 0, simple()), std::invalid_argument); // nb = 0
  EXPECT_THROW(paper_strassen_q8(1000, 6, 1, Cutoff::ring, 0, simple()), std::invalid_argument);    // 4 !| 6
  EXPECT_THROW(paper_strassen_q8(1000, 4, -1, Cutoff::ring, 0, simple()), std::invalid_argument);
  EXPECT_THROW(paper_strassen_q8(1000, 4, 40, Cutoff::ring, 0, simple()), std::invalid_argument);
}

TEST(PaperModel, LargeSizesDoNotOverflow) {
  // n = 1e6: n^3 = 1e18 is near the int64 range once doubled; all in double.
  // DGEMM: 2e18 flops * 1e-9 = 2e9 s.
  expect_rel(paper_dgemm(1000000, 1000000, 1000000, simple()).comp_s, 2e9);
  // Full-recursion Q8 on p = 4^8 = 65536, r = 8, n' = 1e6/256 = 3906.25:
  // comm = 8*8*(1e-5 + 1e12/65536/1e8) = 64 * 0.152597890625 = 9.766265
  // comp = 7*8*1e12/65536*1e-9 + 256 * 2*3906.25^3*1e-9
  //      = 0.8544921875 + 30517.578125 = 30518.4326171875
  const Prediction q = paper_strassen_q8(1000000, 65536, 8, Cutoff::dgemm, 0, simple());
  expect_rel(q.comm_s, 9.766265);
  expect_rel(q.comp_s, 30518.4326171875);
  // Ring on 1e5 ranks: b = 10; comm = 2*99999*(1e-5 + 1e7/1e8) = 199998*0.10001 = 20001.79998
  // comp = 1e5 * 2*10*10*1e6 * 1e-9 = 20000
  const Prediction r = paper_ring(1000000, 100000, simple());
  expect_rel(r.comm_s, 20001.79998);
  expect_rel(r.comp_s, 20000.0);
  // The deepest Q7 recursion for p = 1e5 (100000 -> 14286 -> 2041 -> 292 -> 42 -> 6).
  for (int rr = 0; rr <= 6; ++rr) {
    const Prediction s = paper_strassen_q7_ring(1000000, 100000, rr, simple());
    EXPECT_TRUE(std::isfinite(s.comm_s) && s.comm_s > 0) << "r=" << rr;
    EXPECT_TRUE(std::isfinite(s.comp_s) && s.comp_s > 0) << "r=" << rr;
    const Prediction sl = paper_strassen_q7_ring_largest_group(1000000, 100000, rr, simple());
    EXPECT_TRUE(std::isfinite(sl.total()) && sl.total() > 0) << "r=" << rr;
  }
  EXPECT_THROW(paper_strassen_q7_ring(1000000, 100000, 7, simple()), std::invalid_argument);
  const Prediction p = paper_pdgemm(1000000, 64, 250, 400, simple());
  EXPECT_TRUE(std::isfinite(p.total()) && p.total() > 0);
  const Prediction t = paper_tpmm(1000000, 65536, simple());
  EXPECT_TRUE(std::isfinite(t.total()) && t.total() > 0);
}

// Thesis, section 2.4.10 / Abb. 2.14: "Im Modell ist jedoch Strassen+Ring für
// alle betrachteten Matrixgrößen schneller als PDGEMM" (p = 56, Opteron).
// The formulas reproduce it: with t_op from 3300 MFLOPS for both (tuned
// PDGEMM) and with 2500 MFLOPS for PDGEMM (default lb = 32), nb = 64 on the
// 7 x 8 grid, Strassen+Ring with r = 1 and r = 2 is predicted faster.
// (Predicted MFLOPS/proc at n = 8192: PDGEMM 2224 tuned / 1829 untuned,
// Strassen+Ring r = 1: 2464, r = 2: 2613.)
TEST(PaperModel, ThesisClaimStrassenRingBeatsPdgemmAt56) {
  const auto [pr, pc] = most_square_grid(56);
  ASSERT_EQ(pr, 7);
  ASSERT_EQ(pc, 8);
  for (std::int64_t n : {4096, 8192, 10240, 12288, 16384}) {
    const double pdgemm_tuned = paper_pdgemm(n, 64, pr, pc, opteron(3300)).total();
    const double pdgemm_default = paper_pdgemm(n, 64, pr, pc, opteron(2500)).total();
    EXPECT_LT(pdgemm_tuned, pdgemm_default) << "n=" << n;
    for (int r : {1, 2}) {
      const double sr = paper_strassen_q7_ring(n, 56, r, opteron(3300)).total();
      EXPECT_LT(sr, pdgemm_tuned) << "n=" << n << " r=" << r;
      EXPECT_LT(sr, pdgemm_default) << "n=" << n << " r=" << r;
    }
  }
}
