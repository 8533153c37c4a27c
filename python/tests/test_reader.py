"""The Python reader against warpsim itself: same events, same truncation, same refusals (tests/data traces)."""
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import unittest

import warpsim_trace

ROOT = pathlib.Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
WARPSIM = os.environ.get("WARPSIM_BINARY", str(ROOT / "build" / "sim" / "warpsim"))


def inspect_json(path):
    return json.loads(subprocess.run([WARPSIM, "inspect", "--json", str(path)], check=True, capture_output=True,
                                     text=True).stdout)


class ReaderTest(unittest.TestCase):
    def test_reads_what_inspect_reads(self):
        for name in ("sample.wstrace", "real/h100-launch.timeline.v2.wstrace", "real/h100-launch.links.wstrace"):
            with self.subTest(name):
                trace = warpsim_trace.read(DATA / name)
                summary = inspect_json(DATA / name)
                self.assertEqual(len(trace.events), summary["events"])
                self.assertEqual(trace.format_version, summary["format_version"])
                self.assertEqual(sum(e.HasField("kernel") for e in trace.events), summary["kernels"])
                self.assertEqual(len(trace.header.devices), len(summary["devices"]))
                self.assertEqual(trace.truncated, "")

    def test_a_truncated_trace_gives_its_complete_events_and_says_where_it_stops(self):
        trace = warpsim_trace.read(DATA / "sample-truncated.wstrace")
        self.assertEqual(len(trace.events), inspect_json(DATA / "sample-truncated.wstrace")["events"])
        self.assertIn("offset 4594: truncated trace", trace.truncated)

    def test_a_changed_byte_is_a_checksum_mismatch(self):
        data = bytearray((DATA / "sample.wstrace").read_bytes())
        data[200] ^= 0x01
        with tempfile.TemporaryDirectory() as scratch:
            damaged = pathlib.Path(scratch) / "damaged.wstrace"
            damaged.write_bytes(bytes(data))
            with self.assertRaisesRegex(warpsim_trace.TraceError, "checksum mismatch"):
                warpsim_trace.read(damaged)

    def test_not_a_trace(self):
        with self.assertRaisesRegex(warpsim_trace.TraceError, "not a warpsim trace"):
            warpsim_trace.read(ROOT / "README.md")

    def test_plain_dictionaries_have_the_schemas_field_names(self):
        header, events = warpsim_trace.to_dicts(warpsim_trace.read(DATA / "sample.wstrace"))
        self.assertEqual(header["devices"][0]["name"], "NVIDIA H100 80GB HBM3")
        kernel = next(e["kernel"] for e in events if "kernel" in e)
        self.assertIn("start_ns", kernel)

    def test_kernels_as_a_dataframe(self):
        try:
            import pandas  # noqa: F401
        except ImportError:
            self.skipTest("pandas is not installed (Debian: python3-pandas)")
        frame = warpsim_trace.kernels_dataframe(warpsim_trace.read(DATA / "sample.wstrace"))
        self.assertEqual(len(frame), inspect_json(DATA / "sample.wstrace")["kernels"])
        self.assertTrue((frame["duration_ns"] > 0).all())

    def test_the_example_prints_the_kernel_table(self):
        out = subprocess.run([sys.executable, str(ROOT / "python" / "examples" / "kernel_table.py"),
                              str(DATA / "sample.wstrace"), "--top", "3"], check=True, capture_output=True,
                             text=True, env=os.environ).stdout
        self.assertEqual(len(out.splitlines()), 4)
        self.assertIn("launches", out.splitlines()[0])


if __name__ == "__main__":
    unittest.main()
