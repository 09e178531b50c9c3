// The list of environment variables (core/environment_variables.hpp) against
// the sources that read them and the page that documents them.
#include "core/environment_variables.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

namespace fs = std::filesystem;

namespace {

const fs::path kSource = MMBENCH_SOURCE_DIR;

std::string read_file(const fs::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Every string literal shaped like an environment variable (NAME_NAME, upper
// case) in a file under src/ that calls getenv: what the code reads, whether
// the name goes to getenv directly or through a helper or a list of names.
// The list's own header is left out (it names every variable by design).
std::set<std::string> names_read_under_src() {
  static const std::regex literal("\"([A-Z][A-Z0-9]*(_[A-Z0-9]+)+)\"");
  std::set<std::string> names;
  for (const auto& entry : fs::recursive_directory_iterator(kSource / "src")) {
    const fs::path& p = entry.path();
    if (!entry.is_regular_file() || (p.extension() != ".cpp" && p.extension() != ".hpp")) continue;
    if (p.filename() == "environment_variables.hpp") continue;
    const std::string text = read_file(p);
    if (text.find("getenv") == std::string::npos) continue;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), literal); it != std::sregex_iterator(); ++it)
      names.insert((*it)[1].str());
  }
  return names;
}

}  // namespace

TEST(EnvironmentVariables, EveryNameReadUnderSrcIsListed) {
  const std::set<std::string> read = names_read_under_src();
  // The scan must see the reads it is meant to see (a broken scan passes).
  ASSERT_TRUE(read.count("OPENBLAS_CORETYPE"));
  ASSERT_TRUE(read.count("MMBENCH_LB"));
  for (const std::string& name : read)
    EXPECT_NE(mmbench::find_environment_variable(name), nullptr)
        << name << " is read under src/ but missing from src/core/environment_variables.hpp";
}

TEST(EnvironmentVariables, EveryListedNameOfMmbenchIsStillRead) {
  const std::set<std::string> read = names_read_under_src();
  for (const auto& v : mmbench::kEnvironmentVariables) {
    if (v.reader != mmbench::EnvironmentReader::mmbench && v.reader != mmbench::EnvironmentReader::preload) continue;
    EXPECT_TRUE(read.count(std::string(v.name))) << v.name << " is listed as read by mmbench or libmmbench-lb.so, "
                                                 << "but nothing under src/ reads it any more";
  }
}

TEST(EnvironmentVariables, EntriesAreCompleteAndUnique) {
  std::set<std::string_view> seen;
  for (const auto& v : mmbench::kEnvironmentVariables) {
    EXPECT_TRUE(seen.insert(v.name).second) << v.name << " is listed twice";
    EXPECT_FALSE(v.when_unset.empty()) << v.name;
    EXPECT_FALSE(v.meaning.empty()) << v.name;
  }
  // Checked at run time, not by static_assert: GCC's -fsanitize=undefined
  // (the sanitizer build) cannot fold this pointer comparison.
  EXPECT_NE(mmbench::find_environment_variable("MMBENCH_PROFILE"), nullptr);
  EXPECT_EQ(mmbench::find_environment_variable("NO_SUCH_VARIABLE"), nullptr);
}

TEST(EnvironmentVariables, TheDocsPageNamesEveryEntry) {
  const std::string page = read_file(kSource / "docs" / "environment.md");
  ASSERT_FALSE(page.empty()) << "docs/environment.md is missing";
  for (const auto& v : mmbench::kEnvironmentVariables) {
    std::string quoted(1, '`');  // built by append: GCC 12 warns (-Wrestrict) on "`" + std::string
    quoted.append(v.name).push_back('`');
    EXPECT_NE(page.find(quoted), std::string::npos) << v.name << " is not documented in docs/environment.md";
  }
}
