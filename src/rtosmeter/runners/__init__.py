"""Runners: run one built executable or firmware and capture its stream."""
