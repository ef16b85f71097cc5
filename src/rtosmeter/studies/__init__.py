"""Published studies re-run: studies/NAME/study.toml (docs/studies.md).

definition.py reads and checks a study file, run.py runs its matrix,
figures.py and verdicts.py compare ours with the published figures, and
report.py builds the report document.
"""
