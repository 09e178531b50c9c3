#!/usr/bin/env python3
"""Folder-to-folder include matrix of src/ (the layers, docs/architecture.md).

    scripts/include-graph.py [--upward LAYERS] [SRC]

Prints one row per including folder: how many #include "folder/..." lines
point at each other folder. With --upward "core,local,space,model,algos,tuner,cli"
(lowest first) it also lists every include that points from a lower layer to
a higher one, and exits 1 when there is any: the check a reviewer runs.
Folders not named in --upward (preload) are reported but not ranked.
"""
import argparse
import collections
import pathlib
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/[^"]+"')


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("src", nargs="?", default=str(pathlib.Path(__file__).resolve().parent.parent / "src"))
    ap.add_argument("--upward", default="", help="layers, lowest first, comma-separated")
    a = ap.parse_args()
    src = pathlib.Path(a.src)
    folders = sorted(p.name for p in src.iterdir() if p.is_dir())
    counts = collections.Counter()
    edges = []  # (from folder, file, line no, to folder)
    for folder in folders:
        for f in sorted((src / folder).rglob("*")):
            if f.suffix not in (".cpp", ".hpp", ".h", ".c"):
                continue
            for no, line in enumerate(f.read_text(errors="replace").splitlines(), 1):
                m = INCLUDE.match(line)
                if m and m.group(1) in folders and m.group(1) != folder:
                    counts[(folder, m.group(1))] += 1
                    edges.append((folder, f.relative_to(src), no, m.group(1)))
    width = max(len(f) for f in folders)
    print("includes from (row) into (column); the diagonal (a folder's own) is left out")
    print(" " * width + "".join(f"{c:>{width + 1}}" for c in folders))
    for r in folders:
        cells = "".join(f"{(counts[(r, c)] or '.') if r != c else '-':>{width + 1}}" for c in folders)
        print(f"{r:<{width}}{cells}")
    if not a.upward:
        return 0
    rank = {name: i for i, name in enumerate(a.upward.split(","))}
    up = [e for e in edges if e[0] in rank and e[3] in rank and rank[e[3]] > rank[e[0]]]
    print(f"\nupward includes (layers, lowest first: {a.upward}): {len(up)}")
    for frm, f, no, to in up:
        print(f"  {f}:{no}: {frm} -> {to}")
    return 1 if up else 0


if __name__ == "__main__":
    sys.exit(main())
