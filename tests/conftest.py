"""Suite-wide test settings."""

from hypothesis import settings

# Machines here are shared and noisy: property tests assert behaviour, never speed, so no
# per-example deadline (a slow example must not turn into a flaky failure).
settings.register_profile("rlkl", deadline=None, print_blob=True)
settings.load_profile("rlkl")
