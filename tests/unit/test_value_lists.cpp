#include <gtest/gtest.h>

#include "core/usage_error.hpp"
#include "core/value_lists.hpp"

using namespace mmbench;
using V = std::vector<std::int64_t>;

TEST(IntList, SingleListsAndRanges) {
  EXPECT_EQ(parse_int_list("--n", "4096", 1, 100000), V{4096});
  EXPECT_EQ(parse_int_list("--n", "1024,2048", 1, 100000), (V{1024, 2048}));
  EXPECT_EQ(parse_int_list("--n", "1024:4096:1024", 1, 100000), (V{1024, 2048, 3072, 4096}));
  EXPECT_EQ(parse_int_list("--n", "1000:2500:1000", 1, 100000), (V{1000, 2000}));
  EXPECT_EQ(parse_int_list("--n", "512:4096:*2", 1, 100000), (V{512, 1024, 2048, 4096}));
  EXPECT_EQ(parse_int_list("--n", "256,1024:2048:512", 1, 100000), (V{256, 1024, 1536, 2048}));
}

TEST(IntList, RejectsBadInputNamingTheValue) {
  auto msg = [](const std::string& text) {
    try {
      parse_int_list("--n", text, 1, 100000);
    } catch (const UsageError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(msg("0").find("0 is out of range; allowed 1 to 100000"), std::string::npos);
  EXPECT_NE(msg("abc").find("'abc' is not a whole number"), std::string::npos);
  EXPECT_NE(msg("12x").find("'12x'"), std::string::npos);
  EXPECT_NE(msg("").find("empty"), std::string::npos);
  EXPECT_NE(msg("10:5:1").find("start > stop"), std::string::npos);
  EXPECT_NE(msg("1:5").find("malformed"), std::string::npos);
  EXPECT_NE(msg("1:5:0").find("out of range"), std::string::npos);
  EXPECT_NE(msg("1:5:*1").find("out of range"), std::string::npos);
  EXPECT_NE(msg("1,,2").find("not a whole number"), std::string::npos);
  EXPECT_NE(msg("1:100000:1").find("more than 10000"), std::string::npos);
}

TEST(Grid, ParsesAutoAndPxQ) {
  EXPECT_EQ(parse_grid("--grid", "auto"), (std::pair<int, int>{0, 0}));
  EXPECT_EQ(parse_grid("--grid", "2x4"), (std::pair<int, int>{2, 4}));
  EXPECT_THROW(parse_grid("--grid", "2by4"), UsageError);
  EXPECT_THROW(parse_grid("--grid", "0x4"), UsageError);
  EXPECT_THROW(parse_grid("--grid", "x4"), UsageError);
}

TEST(WordList, RejectsEmptyItems) {
  EXPECT_EQ(parse_word_list("--algo", "ring,pdgemm").size(), 2u);
  EXPECT_THROW(parse_word_list("--algo", "ring,,pdgemm"), UsageError);
}
