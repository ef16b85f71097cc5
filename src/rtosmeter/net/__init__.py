"""The network's Python side: the frame trace the net-* loads feed a port's
stack (trace.py), the stack's source tree (source.py) and where a net-*
load can run (support.py)."""
