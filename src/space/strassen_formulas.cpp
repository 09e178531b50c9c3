#include "space/strassen_formulas.hpp"

#include <algorithm>

namespace mmbench::space::strassen {

std::string schema_name(Schema s) { return s == Schema::q7 ? "q7" : "q8"; }

std::string cutoff_name(Cutoff c) {
  switch (c) {
    case Cutoff::ring: return "ring";
    case Cutoff::tpmm: return "tpmm";
    case Cutoff::pdgemm: return "pdgemm";
    case Cutoff::dgemm: return "dgemm";
  }
  return "?";
}

const std::array<std::vector<int>, 4>& tasks(Schema s) {
  static const std::array<std::vector<int>, 4> q7 = {{{0, 6}, {2, 4}, {1, 3}, {5}}};
  static const std::array<std::vector<int>, 4> q8 = {{{0, 6}, {2, 4}, {1, 3}, {0, 5}}};
  return s == Schema::q7 ? q7 : q8;
}

namespace {
bool computes(Schema s, int group, int product) {
  const auto& t = tasks(s)[group];
  return std::find(t.begin(), t.end(), product) != t.end();
}
}  // namespace

QuadrantsRead quadrants_read(Schema s, int g) {
  QuadrantsRead r;
  for (int t : tasks(s)[g])
    for (int q = 0; q < 4; ++q) {
      r.a[q] = r.a[q] || kProducts[t].a[q] != 0;
      r.b[q] = r.b[q] || kProducts[t].b[q] != 0;
    }
  return r;
}

int producer(Schema s, int t) {
  for (int g = 0; g < 4; ++g)
    if (computes(s, g, t)) return g;
  return -1;  // not reached: every product is computed by some task
}

LevelMoves derive_moves(Schema s) {
  LevelMoves out;
  for (int g = 0; g < 4; ++g) {
    const QuadrantsRead r = quadrants_read(s, g);
    for (int q = 0; q < 4; ++q) {
      if (q == g) continue;  // group g owns quadrant g
      if (r.a[q]) out.a.push_back(Move{q, q, g});
      if (r.b[q]) out.b.push_back(Move{q, q, g});
    }
  }
  for (int g = 0; g < 4; ++g)
    for (int t = 0; t < 7; ++t)
      if (kC[g][t] != 0 && !computes(s, g, t)) out.products.push_back(Move{t, producer(s, t), g});
  return out;
}

TaskWork task_work(Schema s, int g) {
  auto additions = [](const auto& coef) {
    int terms = 0;
    for (int c : coef) terms += c != 0;
    return terms - 1;
  };
  TaskWork w;
  for (int t : tasks(s)[g]) {
    ++w.products;
    w.a_sums += additions(kProducts[t].a);
    w.b_sums += additions(kProducts[t].b);
  }
  w.c_sums = additions(kC[g]);
  const LevelMoves moves = derive_moves(s);
  for (const auto* list : {&moves.a, &moves.b})
    for (const Move& m : *list) w.quadrants_in += m.to == g;
  for (const Move& m : moves.products) w.products_in += m.to == g;
  return w;
}

}  // namespace mmbench::space::strassen
