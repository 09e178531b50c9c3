// Repetition statistics and the results CSV file (header check, quoting,
// rows appended, atomic writes).
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include "core/csv_file.hpp"
#include "core/stats/timing.hpp"

using namespace mmbench;

TEST(Stats, MinMedianMax) {
  Stats s = summarize({3.0, 1.0, 2.0});
  EXPECT_DOUBLE_EQ(s.min, 1.0);
  EXPECT_DOUBLE_EQ(s.median, 2.0);
  EXPECT_DOUBLE_EQ(s.max, 3.0);
  EXPECT_DOUBLE_EQ(summarize({4.0, 1.0, 2.0, 10.0}).median, 3.0);
  EXPECT_DOUBLE_EQ(summarize({5.0}).median, 5.0);
  EXPECT_THROW(summarize({}), std::invalid_argument);
}

namespace {
std::string tmp_path(const std::string& name) {
  return "/tmp/mmbench-test-" + std::to_string(getpid()) + "-" + name;
}
std::string slurp(const std::string& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}
}  // namespace

TEST(CsvFile, HeaderOnceRowsAppendedQuoted) {
  std::string p = tmp_path("a.csv");
  std::remove(p.c_str());
  {
    CsvFile f(p, {"a", "b", "c"});
    f.append({{"a", "1"}, {"c", "x,y"}});
  }
  {
    CsvFile f(p, {"a", "b", "c"});
    f.append({{"b", "say \"hi\""}});
    EXPECT_THROW(f.append({{"zzz", "1"}}), std::logic_error);
  }
  EXPECT_EQ(slurp(p), "a,b,c\n1,,\"x,y\"\n,\"say \"\"hi\"\"\",\n");
  EXPECT_EQ(CsvFile::split("1,\"x,y\",\"a\"\"b\""), (std::vector<std::string>{"1", "x,y", "a\"b"}));
  std::remove(p.c_str());
}

TEST(CsvFile, RefusesOtherHeaderAndLeavesFileAlone) {
  std::string p = tmp_path("b.csv");
  { std::ofstream(p) << "x,y\n1,2\n"; }
  try {
    CsvFile f(p, {"x", "z"});
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("column 2 is 'y', expected 'z'"), std::string::npos) << e.what();
  }
  EXPECT_EQ(slurp(p), "x,y\n1,2\n");
  std::remove(p.c_str());
}

TEST(CsvFile, UnwritablePathNamesIt) {
  try {
    CsvFile f("/proc/mmbench-no-such-dir/q.csv", {"a"});
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("/proc/mmbench-no-such-dir/q.csv"), std::string::npos);
  }
}

TEST(AtomicWrite, ReplacesWholeFile) {
  std::string p = tmp_path("c.json");
  write_file_atomically(p, "first\n");
  write_file_atomically(p, "second\n");
  EXPECT_EQ(slurp(p), "second\n");
  std::remove(p.c_str());
  EXPECT_THROW(write_file_atomically("/proc/mmbench-no-such-dir/z", "x"), std::runtime_error);
}
