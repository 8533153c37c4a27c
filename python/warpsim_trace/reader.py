"""The .wstrace byte layout (trace/trace_format.h), read in Python.

  offset 0   8 bytes   magic "\\x89WSTRACE"
  offset 8   4 bytes   format version, little-endian uint32
  offset 12  records   each: varint byte length, a serialized warpsim.Record (header first, then events), then
                       (format 2 on) the little-endian CRC-32 (zlib's) of those bytes
  end        16 bytes  trailer, only after a clean close: "\\x89WSTREND" + little-endian uint64 event count
"""
import dataclasses
import struct
import zlib

from google.protobuf import json_format
from google.protobuf.message import DecodeError

import trace_pb2

MAGIC = b"\x89WSTRACE"
TRAILER_MAGIC = b"\x89WSTREND"
NEWEST_VERSION = 2
FIRST_CHECKSUMMED_VERSION = 2
PRELUDE_BYTES = 12
TRAILER_BYTES = 16
MAX_RECORD_BYTES = 64 << 20


class TraceError(Exception):
    """A trace that cannot be read: FILE: offset N: PROBLEM."""

    def __init__(self, path, offset, problem):
        super().__init__(f"{path}: offset {offset}: {problem}" if offset is not None else f"{path}: {problem}")
        self.path, self.offset, self.problem = path, offset, problem


@dataclasses.dataclass
class Trace:
    path: str
    format_version: int
    header: "trace_pb2.TraceHeader"
    events: list
    truncated: str = ""  # why reading stopped early, when the trace has no trailer


class _Records:
    """Walks the records of trace bytes held in memory."""

    def __init__(self, path, data):
        self.path, self.data = path, data
        if len(data) < PRELUDE_BYTES or data[:8] != MAGIC:
            raise TraceError(path, 0, "not a warpsim trace: the file does not start with the warpsim magic bytes")
        (self.version,) = struct.unpack_from("<I", data, 8)
        if self.version == 0 or self.version > NEWEST_VERSION:
            raise TraceError(path, 8, f"format version {self.version} is not one this reader knows (1 to {NEWEST_VERSION})")
        self.checksums = self.version >= FIRST_CHECKSUMMED_VERSION
        self.end = len(data)
        self.trailer_count = None
        if len(data) >= PRELUDE_BYTES + TRAILER_BYTES and data[-TRAILER_BYTES:-8] == TRAILER_MAGIC:
            self.end = len(data) - TRAILER_BYTES
            (self.trailer_count,) = struct.unpack_from("<Q", data, self.end + 8)
        self.offset = PRELUDE_BYTES
        self.truncated = ""

    def _cut(self, at, reason):
        if self.trailer_count is not None:
            raise TraceError(self.path, at, reason + " (the trace was closed, so this is corruption)")
        self.truncated = f"{self.path}: offset {at}: truncated trace: {reason}"

    def __iter__(self):
        while self.offset < self.end:
            at = self.offset
            length, shift = 0, 0
            while True:
                if self.offset >= self.end:
                    return self._cut(at, "the file ends inside a record's length field")
                byte = self.data[self.offset]
                self.offset += 1
                length |= (byte & 0x7F) << shift
                shift += 7
                if not byte & 0x80:
                    break
                if shift >= 70:
                    raise TraceError(self.path, at, "garbage: a record length field longer than 10 bytes")
            if length == 0 or length > MAX_RECORD_BYTES:
                raise TraceError(self.path, at, f"garbage: a record length of {length}")
            extra = 4 if self.checksums else 0
            if self.offset + length + extra > self.end:
                return self._cut(at, f"length field {length} is larger than the bytes left in the file")
            body = self.data[self.offset:self.offset + length]
            self.offset += length
            if self.checksums:
                (stored,) = struct.unpack_from("<I", self.data, self.offset)
                self.offset += 4
                if stored != zlib.crc32(body):
                    raise TraceError(self.path, at, "checksum mismatch: the record changed after it was written")
            record = trace_pb2.Record()
            try:
                record.ParseFromString(body)
            except DecodeError:
                raise TraceError(self.path, at, "garbage inside the record: not a valid warpsim record") from None
            yield at, record


class TraceFile:
    """A trace file opened for reading: its header at once, then its events parsed one at a time (events()). The
    file's bytes are read whole: far less than its events parsed (the C++ reader's parsed events took about 8 times
    the file's size on scripts/bench-replay.sh's trace)."""

    def __init__(self, path):
        with open(path, "rb") as file:
            self._records = _Records(str(path), file.read())
        self.path = str(path)
        self.format_version = self._records.version
        self._walk = iter(self._records)
        first = next(self._walk, None)
        if first is None:
            raise TraceError(self.path, PRELUDE_BYTES, "no header: the file holds no complete record after the prelude")
        at, record = first
        if not record.HasField("header"):
            raise TraceError(self.path, at, "no header: the first record is not one")
        self.header = record.header
        self.truncated = ""  # set once events() has run out on a trace without trailer

    def events(self):
        count = 0
        for at, record in self._walk:
            if not record.HasField("event"):
                raise TraceError(self.path, at, "a record that is not an event after the header")
            count += 1
            yield record.event
        records = self._records
        if records.trailer_count is not None and records.trailer_count != count:
            raise TraceError(self.path, records.end,
                             f"the trailer counts {records.trailer_count} events but the file holds {count}")
        if records.trailer_count is None:
            self.truncated = records.truncated or (
                f"{self.path}: truncated trace: no end-of-trace trailer after the last complete record")


def iter_events(path):
    """The events of a trace, parsed one at a time (for traces whose events are too many to hold parsed)."""
    return TraceFile(path).events()


def read(path):
    """The whole trace: header, events (protobuf messages), and why it stops early if it has no trailer."""
    trace_file = TraceFile(path)
    events = list(trace_file.events())
    return Trace(trace_file.path, trace_file.format_version, trace_file.header, events, trace_file.truncated)


def to_dicts(trace):
    """The header and the events as plain dictionaries, with the schema's field names."""
    as_dict = lambda message: json_format.MessageToDict(message, preserving_proto_field_name=True)
    return as_dict(trace.header), [as_dict(event) for event in trace.events]


def kernels_dataframe(trace):
    """One row per kernel: device, stream, name, grid, block, start_ns, end_ns, duration_ns. Needs pandas."""
    import pandas  # optional: Debian's python3-pandas

    rows = []
    for event in trace.events:
        if not event.HasField("kernel"):
            continue
        k = event.kernel
        rows.append({"device": k.device_id, "stream": k.stream_id, "name": k.name,
                     "grid": (k.grid.x, k.grid.y, k.grid.z), "block": (k.block.x, k.block.y, k.block.z),
                     "start_ns": k.start_ns, "end_ns": k.end_ns, "duration_ns": k.end_ns - k.start_ns})
    return pandas.DataFrame(rows)
