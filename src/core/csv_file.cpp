#include "core/csv_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <stdexcept>

namespace mmbench {

namespace {
std::string join_header(const std::vector<std::string>& cols) {
  std::string s;
  for (std::size_t i = 0; i < cols.size(); ++i) s += (i ? "," : "") + cols[i];
  return s;
}

void write_all(int fd, const std::string& s, const std::string& path) {
  std::size_t done = 0;
  while (done < s.size()) {
    ssize_t w = ::write(fd, s.data() + done, s.size() - done);
    if (w < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
    }
    done += static_cast<std::size_t>(w);
  }
}
}  // namespace

CsvFile::CsvFile(std::string path, std::vector<std::string> columns)
    : path_(std::move(path)), columns_(std::move(columns)) {
  std::string header = join_header(columns_);
  {
    std::ifstream in(path_);
    std::string first;
    if (in && std::getline(in, first) && !first.empty() && first != header) {
      auto have = split(first);
      std::size_t i = 0;
      while (i < have.size() && i < columns_.size() && have[i] == columns_[i]) ++i;
      std::string where = i < columns_.size() ? "column " + std::to_string(i + 1) + " is '" +
                                                    (i < have.size() ? have[i] : std::string("(missing)")) +
                                                    "', expected '" + columns_[i] + "'"
                                              : "it has extra columns";
      throw std::runtime_error(path_ + " exists with a different CSV header (" + where +
                               "); choose another --csv file or move the old one away");
    }
  }
  fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd_ < 0) throw std::runtime_error("cannot open " + path_ + " for writing: " + std::strerror(errno));
  if (::lseek(fd_, 0, SEEK_END) == 0) write_all(fd_, header + "\n", path_);
}

CsvFile::~CsvFile() {
  if (fd_ >= 0) ::close(fd_);
}

void CsvFile::append(const std::map<std::string, std::string>& row) {
  static thread_local std::set<std::string> known;
  known.clear();
  known.insert(columns_.begin(), columns_.end());
  for (auto& [k, v] : row)
    if (!known.count(k)) throw std::logic_error("CSV: unknown column '" + k + "'");
  std::string line;
  for (std::size_t i = 0; i < columns_.size(); ++i) {
    if (i) line += ',';
    auto it = row.find(columns_[i]);
    if (it != row.end()) line += escape(it->second);
  }
  line += '\n';
  write_all(fd_, line, path_);  // one write: a row is either there or not
}

std::string CsvFile::escape(const std::string& f) {
  if (f.find_first_of(",\"\n\r") == std::string::npos) return f;
  std::string out = "\"";
  for (char c : f) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::vector<std::string> CsvFile::split(const std::string& line) {
  std::vector<std::string> out;
  std::string cur;
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') { cur += '"'; ++i; }
      else if (c == '"') quoted = false;
      else cur += c;
    } else if (c == '"') quoted = true;
    else if (c == ',') { out.push_back(cur); cur.clear(); }
    else if (c != '\r') cur += c;
  }
  out.push_back(cur);
  return out;
}

void write_file_atomically(const std::string& path, const std::string& text) {
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  std::error_code ec;
  if (!parent.empty()) std::filesystem::create_directories(parent, ec);
  if (ec) throw std::runtime_error("cannot create folder " + parent.string() + ": " + ec.message());
  std::string tmp = path + ".tmp." + std::to_string(::getpid());
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw std::runtime_error("cannot write " + tmp + ": " + std::strerror(errno));
  try {
    write_all(fd, text, tmp);
  } catch (...) {
    ::close(fd);
    ::unlink(tmp.c_str());
    throw;
  }
  ::fsync(fd);
  ::close(fd);
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    ::unlink(tmp.c_str());
    throw std::runtime_error("cannot rename " + tmp + " to " + path + ": " + std::strerror(errno));
  }
}

}  // namespace mmbench
