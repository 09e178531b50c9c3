// A results CSV: one header line, data rows appended as they finish.
//
// Rows are appended with one write() each on a file opened O_APPEND and
// flushed to the kernel immediately, so rows already written survive a
// crash later in the sweep. A file that exists with a different header is
// refused (never silently mixed); an empty or new file gets the header.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace mmbench {

class CsvFile {
 public:
  // Throws std::runtime_error naming the path and the problem when the file
  // cannot be created/appended or its header differs from `columns`.
  CsvFile(std::string path, std::vector<std::string> columns);
  ~CsvFile();
  CsvFile(const CsvFile&) = delete;
  CsvFile& operator=(const CsvFile&) = delete;

  // Values by column name; missing columns are left empty, unknown names
  // are a programming error (std::logic_error).
  void append(const std::map<std::string, std::string>& row);
  const std::string& path() const { return path_; }

  // Quote a field if it holds a comma, quote or newline (RFC 4180).
  static std::string escape(const std::string& field);
  // Split one CSV line (RFC 4180 quoting).
  static std::vector<std::string> split(const std::string& line);

 private:
  std::string path_;
  std::vector<std::string> columns_;
  int fd_ = -1;
};

// Write `text` to `path` atomically (temporary file in the same folder,
// then rename), so a reader never sees half a file and a crash leaves the
// old file intact. Creates missing parent folders.
void write_file_atomically(const std::string& path, const std::string& text);

}  // namespace mmbench
