"""Reads warpsim traces (.wstrace) in Python: the header and the events as protobuf messages (proto/trace.proto),
as plain dictionaries, or, where pandas is installed, a table of kernels.

    import warpsim_trace
    trace = warpsim_trace.read("run.wstrace")
    for event in trace.events:
        if event.HasField("kernel"):
            print(event.kernel.name, event.kernel.end_ns - event.kernel.start_ns)

Needs Debian's python3-protobuf and the module protoc generates from proto/trace.proto (`trace_pb2`, built into
build/python/ by CMake): PYTHONPATH=python:build/python. Every problem is a TraceError naming the file, the offset
and what is wrong, as `warpsim inspect` says it.
"""
from .reader import Trace, TraceError, TraceFile, iter_events, kernels_dataframe, read, to_dicts

__all__ = ["Trace", "TraceError", "TraceFile", "iter_events", "kernels_dataframe", "read", "to_dicts"]
