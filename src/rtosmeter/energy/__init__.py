"""Energy (issue 31): datasheet power models (model.py), estimates from the
idle figures (estimate.py), captures from power analysers (capture.py,
analysers.py, jls.py), stored per case (stored.py, runner.py)."""
