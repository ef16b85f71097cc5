"""rtosmeter: reproducible RTOS benchmarks on host, QEMU and boards."""

__version__ = "0.1.0"
