"""The CSV reading shared by every file kind: one header line, then rows.

A reader of one kind (results.py, census.py, ...) calls read_table() with the
columns that identify its kind; read_table() checks them and returns a Table.
Columns are looked up by name, so added or reordered columns do no harm.
"""

import csv
import math
import re

INTEGER = re.compile(r"[-+]?\d+$")


class Kind:
    """What defines one file kind: its name, the words used in messages, the
    doc that defines its columns, the columns a file must have to be of this
    kind (key), every column the newest writer writes (all, in order; a row
    read from an older file gets the missing ones as None), and which of
    them hold numbers."""

    def __init__(self, name, description, doc, key, all_columns, numeric):
        self.name = name
        self.description = description
        self.doc = doc
        self.key = tuple(key)
        self.all_columns = tuple(all_columns)
        self.numeric = frozenset(numeric)


def to_number(text):
    """int for an integer text, float otherwise; None for an empty field.
    Raises ValueError for text that is no number."""
    text = text.strip()
    if not text:
        return None
    if INTEGER.match(text):
        return int(text)
    return float(text)


def num(text):
    """Float of a CSV field, or None for empty / non-numeric / non-finite.
    The lenient reading the plots use: a bad cell is a gap, not an error."""
    if text is None:
        return None
    text = text.strip()
    if not text:
        return None
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


class Table:
    """One CSV file read.

    path, kind (a Kind, or None for a CSV read without one), header (the
    file's column names in order), columns (the same as a set: what the file
    really has), text_rows (one dict per data row: the file's columns only,
    stripped text, '' for an empty or missing cell), and rows (the same rows
    typed: every column of the kind, numbers as int/float, None where empty
    or absent from an older header; computed on first use)."""

    def __init__(self, path, kind, header, text_rows, line_numbers):
        self.path = path
        self.kind = kind
        self.header = header
        self.columns = set(header)
        self.text_rows = text_rows
        self._line_numbers = line_numbers
        self._rows = None

    @property
    def rows(self):
        if self._rows is None:
            self._rows = [self._typed(row, line) for row, line in zip(self.text_rows, self._line_numbers)]
        return self._rows

    def _typed(self, text_row, line):
        numeric = self.kind.numeric if self.kind else frozenset()
        row = {name: None for name in (self.kind.all_columns if self.kind else ())}
        for name, text in text_row.items():
            if name not in numeric:
                row[name] = text if text else None
                continue
            try:
                row[name] = to_number(text)
            except ValueError:
                raise ValueError("%s, line %d: column %s holds %r, not a number (see %s)"
                                 % (self.path, line, name, text, self.kind.doc)) from None
        return row


def read_raw(path):
    """(header, rows, line numbers) of a CSV file, every cell stripped.
    Blank lines are skipped; a short row gets '' for its missing cells (the
    writer leaves trailing empty cells out in no file, but a crash may)."""
    try:
        # utf-8-sig: a file saved by a spreadsheet may start with a BOM.
        with open(path, newline="", encoding="utf-8-sig") as handle:
            reader = csv.reader(handle)
            header = next(reader, None)
            rows, lines = [], []
            for fields in reader:
                if not any(f.strip() for f in fields):
                    continue
                rows.append(fields)
                lines.append(reader.line_num)
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise ValueError("cannot read %s: %s" % (path, exc)) from exc
    if header is not None:
        header = [h.strip() for h in header]
    text_rows = []
    for fields in rows:
        text_rows.append({name: (fields[i].strip() if i < len(fields) else "") for i, name in enumerate(header)})
    return header, text_rows, lines


def read_table(path, kinds):
    """Read the CSV at path as the first of kinds (a list of Kind) whose key
    columns its header has. Raises ValueError naming the file: unreadable,
    empty, or a header none of the kinds fits (with what each one lacks)."""
    header, text_rows, lines = read_raw(path)
    if not header or header == [""]:
        raise ValueError("%s is empty: expected the header line of %s"
                         % (path, _either([k.description for k in kinds])))
    present = set(header)
    missing = [(k, [c for c in k.key if c not in present]) for k in kinds]
    for kind, lacks in missing:
        if not lacks:
            return Table(path, kind, header, text_rows, lines)
    if len(kinds) == 1:
        kind, lacks = missing[0]
        raise ValueError("%s is not %s: it lacks column(s) %s (see %s)"
                         % (path, kind.description, ", ".join(lacks), kind.doc))
    parts = ["as %s it lacks %s%s" % (kind.description, "column(s) " if i == 0 else "", ", ".join(lacks))
             for i, (kind, lacks) in enumerate(missing)]
    docs = []
    for kind in kinds:
        if kind.doc not in docs:
            docs.append(kind.doc)
    raise ValueError("%s has neither known header: %s (see %s)" % (path, "; ".join(parts), ", ".join(docs)))


def read_plain(path):
    """A CSV of no mmbench kind (a bench script's own table): a Table whose
    text_rows are the file's rows; rows are text too (no columns typed)."""
    header, text_rows, lines = read_raw(path)
    if not header:
        raise ValueError("%s is empty: no header line" % path)
    return Table(path, None, header, text_rows, lines)


def _either(names):
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
