"""Shared test settings."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

# One profile for the whole suite: no per-example deadline (the 2-core CI machine is busy),
# and enough examples to find rule bugs. REFEREE_HYPOTHESIS=thorough explores further.
settings.register_profile("ci", deadline=None, max_examples=100, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", deadline=None, max_examples=2000)
settings.load_profile(os.environ.get("REFEREE_HYPOTHESIS", "ci"))
