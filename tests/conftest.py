"""Suite-wide test settings."""

import concurrent.futures.process  # noqa: F401  (see below)
import os
from collections.abc import Iterator

import pytest
import yaml  # noqa: F401  (see below)
from hypothesis import settings

# Machines here are shared and noisy: property tests assert behaviour, never speed, so no
# per-example deadline (a slow example must not turn into a flaky failure).
settings.register_profile("rlkl", deadline=None, print_blob=True)
settings.load_profile("rlkl")

# An in-process pytester run (the plugin's tests) removes the modules it imported when it
# ends, and a module imported again is a new one. Two that rlkl imports only when it needs
# them break then, so they are imported here, before any such run, and kept:
# - concurrent.futures.process (rlkl.pool, when it pools): a later pool pickles its work items
#   with a class that is no longer the module's ("_CallItem ... is not the same object");
# - yaml (PyYAML's C reader, claims.yaml's fast path): the extension keeps the first import's
#   classes, and MkDocs then reads its theme with none of its constructors ("could not
#   determine a constructor for the tag None").


@pytest.fixture(autouse=True, scope="session")
def _private_check_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """`rlkl check` caches results; the suite keeps its cache out of the user's home."""
    previous = os.environ.get("RLKL_CACHE_DIR")
    os.environ["RLKL_CACHE_DIR"] = str(tmp_path_factory.mktemp("rlkl-cache"))
    yield
    if previous is None:
        os.environ.pop("RLKL_CACHE_DIR", None)
    else:
        os.environ["RLKL_CACHE_DIR"] = previous
