#!/usr/bin/env python3
"""The validation suite's fixed split into a development half and a blind half (issue 13).

A program's half is decided by its name alone: the first byte of SHA-256("warpsim-suite:" + name), even ->
development, odd -> blind. Adding programs never moves an existing one between halves. Models, platform values and
constants may be changed by looking at the development half (and microbenchmarks) only; the blind half is reported.

  scripts/suite-split.py            print "NAME HALF" for every program of workloads/suite/manifest.txt
  scripts/suite-split.py --check    exit 1 unless workloads/suite/split.txt says exactly that (a CTest)
  scripts/suite-split.py --half dev|blind   print the names of one half, one per line
"""
import hashlib
import pathlib
import sys

SUITE = pathlib.Path(__file__).resolve().parent.parent / "workloads" / "suite"


def half(name):
    return "dev" if hashlib.sha256(("warpsim-suite:" + name).encode()).digest()[0] % 2 == 0 else "blind"


def programs():
    lines = (line.split("#", 1)[0].split() for line in (SUITE / "manifest.txt").read_text().splitlines())
    return [fields[0] for fields in lines if fields]


def split_lines():
    return [f"{name} {half(name)}" for name in programs()]


def main(argv):
    if argv == ["--check"]:
        recorded = [line for line in (SUITE / "split.txt").read_text().splitlines() if line and not line.startswith("#")]
        if recorded != split_lines():
            print("workloads/suite/split.txt does not match the hash rule of scripts/suite-split.py", file=sys.stderr)
            return 1
        return 0
    if len(argv) == 2 and argv[0] == "--half" and argv[1] in ("dev", "blind"):
        print("\n".join(name for name in programs() if half(name) == argv[1]))
        return 0
    if argv:
        print(__doc__, file=sys.stderr)
        return 2
    print("\n".join(split_lines()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
