// Strassen's coefficient table multiplies correctly, every task's needs are
// met, and the derived moves match the thesis' Tab. 2.2/2.3 with docs/method.md §11's
// erratum (C21 = Q2 + Q4: no products travel to G21).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "space/strassen_formulas.hpp"

using namespace mmbench::space::strassen;

TEST(StrassenFormulas, TablesMultiplyTwoByTwo) {
  // With scalar quadrants the 7 products and 4 sums must give the ordinary
  // 2x2 product for any A, B.
  std::mt19937 gen(3);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int trial = 0; trial < 20; ++trial) {
    double A[4], B[4];
    for (double& x : A) x = u(gen);
    for (double& x : B) x = u(gen);
    double Q[7];
    for (int t = 0; t < 7; ++t) {
      double sa = 0, sb = 0;
      for (int q = 0; q < 4; ++q) { sa += kProducts[t].a[q] * A[q]; sb += kProducts[t].b[q] * B[q]; }
      Q[t] = sa * sb;
    }
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j) {
        double ref = A[2 * i] * B[j] + A[2 * i + 1] * B[2 + j], c = 0;
        for (int t = 0; t < 7; ++t) c += kC[2 * i + j][t] * Q[t];
        EXPECT_NEAR(c, ref, 1e-14) << "C" << i + 1 << j + 1;
      }
  }
}

TEST(StrassenFormulas, Q7ComputesEachProductOnceQ8Q1Twice) {
  std::array<int, 7> q7{}, q8{};
  for (int g = 0; g < 4; ++g) {
    for (int t : tasks(Schema::q7)[g]) ++q7[t];
    for (int t : tasks(Schema::q8)[g]) ++q8[t];
  }
  for (int t = 0; t < 7; ++t) EXPECT_EQ(q7[t], 1) << t;
  EXPECT_EQ(q8[0], 2);
  for (int t = 1; t < 7; ++t) EXPECT_EQ(q8[t], 1) << t;
}

TEST(StrassenFormulas, DerivedMovesQ8) {
  LevelMoves m = derive_moves(Schema::q8);
  // G21 (Q2 = (A21 + A22) B11, Q4 = A22 (B21 - B11)) receives A22 and B11.
  auto into = [](const std::vector<Move>& v, int g) {
    std::vector<int> out;
    for (const Move& x : v) if (x.to == g) out.push_back(x.what);
    return out;
  };
  EXPECT_EQ(into(m.a, 2), std::vector<int>({3}));
  EXPECT_EQ(into(m.b, 2), std::vector<int>({0}));
  // G11 (Q1 = (A11 + A22)(B11 + B22), Q7 = (A12 - A22)(B21 + B22)).
  EXPECT_EQ(into(m.a, 0), std::vector<int>({1, 3}));
  EXPECT_EQ(into(m.b, 0), std::vector<int>({2, 3}));
  // G22 (Q1, Q6): A11, A21; B11, B12.
  EXPECT_EQ(into(m.a, 3), std::vector<int>({0, 2}));
  EXPECT_EQ(into(m.b, 3), std::vector<int>({0, 1}));
  // Products: C11 needs Q4 (G21), Q5 (G12); C12, C21 nothing (erratum!);
  // C22 needs Q2 (G21), Q3 (G12) but has its own Q1.
  EXPECT_EQ(m.products, std::vector<Move>({{3, 2, 0}, {4, 1, 0}, {1, 2, 3}, {2, 1, 3}}));
}

TEST(StrassenFormulas, DerivedMovesQ7) {
  LevelMoves m = derive_moves(Schema::q7);
  // C22 = Q1 - Q2 + Q3 + Q6 gets Q1 from G11 in Q7.
  EXPECT_EQ(m.products, std::vector<Move>({{3, 2, 0}, {4, 1, 0}, {0, 0, 3}, {1, 2, 3}, {2, 1, 3}}));
  // G22 computes only Q6 = (A21 - A11)(B11 + B12).
  int a_into_22 = 0, b_into_22 = 0;
  for (const Move& x : m.a) a_into_22 += x.to == 3;
  for (const Move& x : m.b) b_into_22 += x.to == 3;
  EXPECT_EQ(a_into_22, 2);
  EXPECT_EQ(b_into_22, 2);
}

// The per-task work the cost models read is counted from the tables, and
// matches the table written in strassen_formulas.hpp (and the thesis' count:
// 7 sums on the big groups' worst task, 5 on G22).
TEST(StrassenFormulas, TaskWorkFromTheTables) {
  struct Row { int products, a, b, c, quads, prods; };
  const Row q7[4] = {{2, 2, 2, 3, 4, 2}, {2, 1, 1, 1, 2, 0}, {2, 1, 1, 1, 2, 0}, {1, 1, 1, 3, 4, 3}};
  for (int g = 0; g < 4; ++g) {
    SCOPED_TRACE(g);
    const TaskWork w = task_work(Schema::q7, g);
    EXPECT_EQ(w.products, q7[g].products);
    EXPECT_EQ(w.a_sums, q7[g].a);
    EXPECT_EQ(w.b_sums, q7[g].b);
    EXPECT_EQ(w.c_sums, q7[g].c);
    EXPECT_EQ(w.quadrants_in, q7[g].quads);
    EXPECT_EQ(w.products_in, q7[g].prods);
  }
  EXPECT_EQ(task_work(Schema::q7, 0).a_sums + task_work(Schema::q7, 0).b_sums + task_work(Schema::q7, 0).c_sums, 7);
  EXPECT_EQ(task_work(Schema::q7, 3).a_sums + task_work(Schema::q7, 3).b_sums + task_work(Schema::q7, 3).c_sums, 5);
  // Q8: T22 computes Q1 as well, so of C22 = Q1 - Q2 + Q3 + Q6 it receives
  // only Q2 and Q3.
  EXPECT_EQ(task_work(Schema::q8, 3).products, 2);
  EXPECT_EQ(task_work(Schema::q8, 3).products_in, 2);
}

// What a task reads and who sends a product, as the pdgemr2d transport and
// derive_moves use them. Q7, T11 computes Q1 = (A11 + A22)(B11 + B22) and
// Q7 = (A12 - A22)(B21 + B22).
TEST(StrassenFormulas, QuadrantsReadAndProducer) {
  const QuadrantsRead t11 = quadrants_read(Schema::q7, 0);
  EXPECT_EQ(t11.a, (std::array<bool, 4>{true, true, false, true}));
  EXPECT_EQ(t11.b, (std::array<bool, 4>{true, false, true, true}));
  // T22 computes Q6 = (A21 - A11)(B11 + B12) only.
  const QuadrantsRead t22 = quadrants_read(Schema::q7, 3);
  EXPECT_EQ(t22.a, (std::array<bool, 4>{true, false, true, false}));
  EXPECT_EQ(t22.b, (std::array<bool, 4>{true, true, false, false}));
  for (int t = 0; t < 7; ++t) {
    SCOPED_TRACE(t);
    const int g = producer(Schema::q7, t);
    ASSERT_GE(g, 0);
    const auto& mine = tasks(Schema::q7)[g];
    EXPECT_NE(std::find(mine.begin(), mine.end(), t), mine.end());
  }
  EXPECT_EQ(producer(Schema::q8, 0), 0);  // Q1 twice under Q8: the lowest group's copy
}
