#!/usr/bin/env python3
"""The reader of mmbench's files (python/mmbench_results) on the real files
of results/: one of each kind, every census, an older results header, and a
malformed file, which must be refused with its name in the message.
Needs no matplotlib. Run from anywhere: python3 tests/plots/test_results_reader.py"""

import glob
import os
import sys
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "python"))
import mmbench_results as mr  # noqa: E402

RESULTS = os.path.join(ROOT, "results")


def committed(paths):
    """The committed results only: results/local/ is git-ignored scratch
    (make run's output), absent from a fresh clone and different on every
    machine, so no test may depend on it."""
    local = os.path.join(RESULTS, "local") + os.sep
    return [p for p in paths if not p.startswith(local)]


def first_line(path):
    with open(path) as f:
        return f.readline()


def real(relative):
    return os.path.join(RESULTS, relative)


class OneOfEachKind(unittest.TestCase):
    def test_results_csv_with_sidecar(self):
        table = mr.read_results(real("validate-p1-p2-vm-20261123T042213Z.csv"))
        self.assertIs(table.kind, mr.RESULTS)
        self.assertTrue(table.rows)
        row = table.rows[0]
        self.assertIsInstance(row["p"], int)
        self.assertIsInstance(row["t_median"], float)
        self.assertIsInstance(row["algo"], str)
        # The text as written, for output that must quote the file.
        self.assertEqual(table.text_rows[0]["p"], str(row["p"]))
        sidecar = table.sidecar()
        self.assertEqual(sidecar["schema"], "mmbench-results/1")
        self.assertTrue(sidecar["runs"])

    def test_validate(self):
        table = mr.read_validate(real("validate-p1-p2-vm-20261123T042213Z-validate.csv"))
        self.assertTrue(all(r["regret"] is None or r["regret"] >= 0.5 for r in table.rows))
        self.assertEqual(mr.validation_csv_of("results/a.csv"), "results/a-validate.csv")

    def test_tune_files(self):
        folder = real("tuner-lb-vm-20261123T040540Z")
        profile = mr.read_dgemm_profile(os.path.join(folder, "dgemm-profile-n2048-1-20261123T040540Z.csv"))
        self.assertTrue(all(isinstance(r["k"], int) and r["mflops"] > 0 for r in profile.rows))
        check = mr.read_lb_check(os.path.join(folder, "dgemm-profile-n2048-1-20261123T040540Z-lb-check.csv"))
        self.assertEqual(sum(r["chosen"] for r in check.rows), 1)
        model = mr.read_kernel_model(real("netns-validation-vm-20261127/full-tune/2x1-1gbit-dgemm-profile-kernel-model.csv"))
        self.assertTrue({r["kind"] for r in model.rows} <= {"dgemm", "add", "copy", "pack"})

    def test_predict_and_isoefficiency(self):
        predict = mr.read_predict(real("q7-split-predicted-thesis-opteron-vm-20261122T152236Z.csv"))
        self.assertTrue(all(r["rank"] >= 1 for r in predict.rows))
        iso = sorted(glob.glob(real("isoefficiency-thesis-opteron-20261126/*.csv")))[0]
        self.assertTrue(mr.read_isoefficiency(iso).rows)

    def test_profile_json(self):
        profile = mr.read_profile(real("machine-profile-p1-haswell-vm-20261124T004519Z.json"))
        self.assertIn("lb", profile)

    def test_read_any_classifies(self):
        self.assertIs(mr.read_any(real("validate-p1-p2-vm-20261123T042213Z-validate.csv")).kind, mr.VALIDATE)


class Census(unittest.TestCase):
    def test_every_census_in_results(self):
        files = committed(mr.census_files(RESULTS))
        self.assertGreater(len(files), 50)
        headers = set()
        for path in files:
            with self.subTest(path=os.path.relpath(path, ROOT)):
                table = mr.read_census(path)
                headers.add(tuple(table.header))
                for row in table.rows:
                    # Every row has every column, whatever the file's header.
                    self.assertEqual(set(row), set(mr.CENSUS_COLUMNS))
                    self.assertIn(row["cached"], ("yes", "no", None))
        # The headers python/mmbench_results/census.py names, each the writer's
        # first columns: up to t_measured (24), t_convert (26), pooled_mib (30),
        # and today's writer's (31).
        self.assertEqual({len(h) for h in headers}, {24, 26, 30, 31}, "the four census headers of census.py")
        for h in headers:
            self.assertEqual(h, mr.CENSUS_COLUMNS[:len(h)], "a census header is the writer's first columns")

    def test_columns_are_the_writers(self):
        # The C++ writer's list (src/dispatch/census.cpp, census_columns) and
        # the reader's must not drift apart.
        import re
        with open(os.path.join(ROOT, "src", "dispatch", "census.cpp")) as f:
            text = f.read()
        body = text[text.index("census_columns()"):]
        body = body[:body.index("};")]
        self.assertEqual(tuple(re.findall(r'"(\w+)"', body)), mr.CENSUS_COLUMNS)


class OlderHeaders(unittest.TestCase):
    def test_every_results_header_version(self):
        versions = {}
        for path in committed(glob.glob(os.path.join(RESULTS, "**", "*.csv"), recursive=True)):
            try:
                table = mr.read_results(path)
            except ValueError:
                continue  # another kind
            versions.setdefault(table.schema_version, path)
            table.rows  # every numeric cell parses
        self.assertIn("original", versions)
        self.assertIn("memory", versions)

    def test_original_header(self):
        old = [p for p in committed(glob.glob(os.path.join(RESULTS, "**", "*.csv"), recursive=True))
               if first_line(p).startswith("timestamp,host,p,")]
        self.assertTrue(old, "results/ has a CSV from before the simulated column")
        table = mr.read_results(old[0])
        self.assertEqual(table.schema_version, "original")
        self.assertNotIn("simulated", table.columns)
        row = table.rows[0]
        self.assertIsNone(row["simulated"])
        self.assertIsNone(row["mem_pred_mb"])
        self.assertNotIn("mem_pred_mb", table.text_rows[0])


class Malformed(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.mkdtemp()

    def tearDown(self):
        for name in os.listdir(self.folder):
            os.unlink(os.path.join(self.folder, name))
        os.rmdir(self.folder)

    def write(self, name, text):
        path = os.path.join(self.folder, name)
        with open(path, "w") as handle:
            handle.write(text)
        return path

    def test_wrong_header(self):
        path = self.write("broken-census.csv", "call,m,n\n1,2,3\n")
        with self.assertRaises(ValueError) as caught:
            mr.read_census(path)
        self.assertIn("broken-census.csv", str(caught.exception))
        self.assertIn("transa", str(caught.exception))

    def test_text_in_a_number_column(self):
        good = real("tuner-lb-vm-20261123T040540Z/dgemm-profile-n2048-1-20261123T040540Z.csv")
        with open(good) as f:
            lines = f.read().splitlines()
        lines[1] = "many," + lines[1].split(",", 1)[1]
        path = self.write("bad-profile.csv", "\n".join(lines) + "\n")
        table = mr.read_dgemm_profile(path)
        self.assertEqual(table.text_rows[0]["m"], "many")  # the text is kept as written
        with self.assertRaises(ValueError) as caught:
            table.rows
        self.assertIn("bad-profile.csv", str(caught.exception))
        self.assertIn("line 2", str(caught.exception))

    def test_empty_and_missing(self):
        path = self.write("empty.csv", "")
        with self.assertRaisesRegex(ValueError, "empty.csv"):
            mr.read_results(path)
        with self.assertRaisesRegex(ValueError, "no-such.csv"):
            mr.read_results(os.path.join(self.folder, "no-such.csv"))

    def test_bad_json(self):
        path = self.write("bad-profile.json", "{\"lb\": ")
        with self.assertRaisesRegex(ValueError, "bad-profile.json"):
            mr.read_profile(path)


if __name__ == "__main__":
    unittest.main()
