#!/usr/bin/env python3
"""Checks of the user documentation (ctest label docs).

  check_docs.py SOURCE_DIR readme    README.md within its line budget; no
                                     issue numbers in README.md, CHANGELOG.md,
                                     docs/*.md and results/README.md
  check_docs.py SOURCE_DIR results   every file under results/ is cited by
                                     docs/results.md or results/README.md, and
                                     every results/ path they cite exists
  check_docs.py SOURCE_DIR figures   every experiment of docs/results.md (a
                                     "##" section's own text, each "###"
                                     section with its subsections) that
                                     states a measured figure (a time, a
                                     rate, a percentage, a ratio) cites a
                                     committed results file there
  check_docs.py SOURCE_DIR links     every Markdown link of README.md,
                                     CHANGELOG.md, docs/*.md, results/README.md
                                     and every docs/<name>.md named in a source
                                     file or script points at a file that exists

A citation is a path in backticks or a Markdown link target; a cited folder
covers every file under it, and a cited <name>.csv covers its sidecar
<name>.csv.json. Patterns (with * or <...>) and results/local/ (git ignores
it) name places, not files, and are not checked. Paths inside a longer backticked text (a command) are not
citations: the sidecars' commands name files as they were called when run.
Exit 0 when all holds, 1 with one line per problem otherwise.
"""
import os
import re
import subprocess
import sys

README_LINE_BUDGET = 300  # README.md says so in its last section
ISSUE_NUMBER = re.compile(r"\bissues?\s*#?\s*\d+", re.IGNORECASE)


def check_readme(src):
    problems = []
    readme = os.path.join(src, "README.md")
    lines = open(readme, encoding="utf-8").read().splitlines()
    if len(lines) > README_LINE_BUDGET:
        problems.append(f"README.md: {len(lines)} lines, over its budget of {README_LINE_BUDGET}")
    files = ["README.md", "CHANGELOG.md", "results/README.md"]
    docs = os.path.join(src, "docs")
    files += [os.path.join("docs", f) for f in sorted(os.listdir(docs)) if f.endswith(".md")]
    for rel in files:
        path = os.path.join(src, rel)
        if not os.path.exists(path):
            problems.append(f"{rel}: missing")
            continue
        for i, line in enumerate(open(path, encoding="utf-8"), 1):
            m = ISSUE_NUMBER.search(line)
            if m:
                problems.append(f"{rel}:{i}: an issue number ('{m.group(0)}'): say what changed instead")
    return problems


def tracked_results(src):
    """Files under results/: git's list in a checkout, else the folder (minus results/local/)."""
    try:
        out = subprocess.run(["git", "-C", src, "ls-files", "results"], check=True,
                             capture_output=True, text=True).stdout.split()
        if out:
            return sorted(out)
    except (OSError, subprocess.CalledProcessError):
        pass
    found = []
    for root, dirs, names in os.walk(os.path.join(src, "results")):
        dirs[:] = [d for d in dirs if os.path.relpath(os.path.join(root, d), src) != os.path.join("results", "local")]
        found += [os.path.relpath(os.path.join(root, n), src) for n in names]
    return sorted(found)


def citations(src, rel):
    """Paths (relative to the source dir) that the Markdown file rel cites."""
    base = os.path.dirname(rel)
    text = open(os.path.join(src, rel), encoding="utf-8").read()
    cited = set()
    for m in re.finditer(r"`(results/[^`\s]+)`", text):
        cited.add(os.path.normpath(m.group(1)) + ("/" if m.group(1).endswith("/") else ""))
    for m in re.finditer(r"\]\(([^)\s#]+)\)", text):
        target = m.group(1)
        if "://" in target:
            continue
        path = os.path.normpath(os.path.join(base, target))
        if path == "results" or path.startswith("results" + os.sep):
            cited.add(path + ("/" if target.endswith("/") else ""))
    return cited


def check_results(src):
    problems = []
    pages = ["docs/results.md", "results/README.md"]
    cited = set()
    for page in pages:
        if not os.path.exists(os.path.join(src, page)):
            problems.append(f"{page}: missing")
            continue
        for c in citations(src, page):
            # Patterns (results/dgemm-profile-*, <host>) and the ignored
            # output folder name places, not files.
            if re.search(r"[*<>{}]", c) or c.rstrip("/") == "results/local" or c.startswith("results/local/"):
                continue
            if not os.path.exists(os.path.join(src, c)):
                problems.append(f"{page}: cites {c}, which does not exist")
            cited.add(c.rstrip("/"))
    folders = {c for c in cited if os.path.isdir(os.path.join(src, c))}
    for f in tracked_results(src):
        if f == "results/README.md" or f in cited:
            continue
        if f.endswith(".csv.json") and f[:-5] in cited:
            continue
        if any(f.startswith(d + "/") for d in folders):
            continue
        problems.append(f"{f}: not cited by docs/results.md or results/README.md (cite it or git rm it)")
    return problems


MD_LINK = re.compile(r"\]\(([^)\s]+)\)")
DOC_NAME = re.compile(r"\bdocs/[\w.-]+\.md\b")


def check_links(src):
    """Links to files that do not exist: Markdown links of the pages (their
    targets relative to the page, anchors and web addresses aside), and the
    docs/<name>.md that code comments and scripts send readers to."""
    problems = []
    pages = ["README.md", "CHANGELOG.md", "results/README.md"]
    pages += [os.path.join("docs", f) for f in sorted(os.listdir(os.path.join(src, "docs"))) if f.endswith(".md")]
    for rel in pages:
        text = open(os.path.join(src, rel), encoding="utf-8").read()
        for target in MD_LINK.findall(text):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue
            path = target.split("#", 1)[0]
            if path and not os.path.exists(os.path.normpath(os.path.join(src, os.path.dirname(rel), path))):
                problems.append(f"{rel}: link to {target}, which does not exist")
    tracked = subprocess.run(["git", "-C", src, "ls-files", "src", "scripts", "tests", "plots", "examples",
                              "cmake", "Makefile", "CMakeLists.txt"],
                             capture_output=True, text=True, check=False).stdout.split()
    for rel in tracked:
        try:
            text = open(os.path.join(src, rel), encoding="utf-8").read()
        except (UnicodeDecodeError, FileNotFoundError, IsADirectoryError):
            continue
        for name in sorted(set(DOC_NAME.findall(text))):
            if not os.path.exists(os.path.join(src, name)):
                problems.append(f"{rel}: names {name}, which does not exist")
    return problems


# A figure as the results page states one: 12.3 s, 4.5 ms, 8.9 µs, 96 %,
# 1.17×, 81.7 GFLOP/s, 14000 MFLOPS, 119.6 MB/s, 8.5 GB/s.
FIGURE = re.compile(r"\d+(?:\.\d+)?\s?(?:s\b|ms\b|µs|%|×|GFLOP/s|MFLOPS|MB/s|GB/s)")
# A citation of a committed result: a link into ../results/ or a backticked
# results/ path (results/local/ is not committed and does not count).
RESULT_CITATION = re.compile(r"\]\(\.\./results/(?!local/)[^)]+\)|`results/(?!local/)[^`\s]+`")


def check_figures(src):
    """Each experiment that states figures names the files they come from,
    so a reader can trace them (and docs.results_cited checks the files
    exist). An experiment is a "###" section with its subsections, or the
    text of a "##" section before its first "###"."""
    text = open(os.path.join(src, "docs", "results.md"), encoding="utf-8").read()
    units, head, body = [], "(the page's opening)", []
    for line in text.split("\n"):
        if re.match(r"^#{2,3} ", line):
            units.append((head, body))
            head, body = line.strip(), []
        else:
            body.append(line)
    units.append((head, body))
    problems = []
    for head, body in units:
        block = "\n".join(body)
        figures = FIGURE.findall(block)
        if figures and not RESULT_CITATION.search(block):
            problems.append(f"docs/results.md: '{head}' states {len(figures)} figure(s) "
                            f"(e.g. '{figures[0]}') and cites no committed results file")
    return problems


def main():
    checks = {"readme": check_readme, "results": check_results, "links": check_links, "figures": check_figures}
    if len(sys.argv) != 3 or sys.argv[2] not in checks:
        print(__doc__, file=sys.stderr)
        return 2
    src, what = sys.argv[1], sys.argv[2]
    problems = checks[what](src)
    for p in problems:
        print("FAIL: " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
