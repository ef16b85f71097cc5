"""Idle: the figures of a window (figures.py), read from the plugin's
summary (plugin.py), kept in the store (stored.py); the energy estimate
multiplies them by a target's power model (rtosmeter.energy)."""
