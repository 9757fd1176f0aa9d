"""rlkl — make every number in a policy-gradient / PPO / KL lesson executable."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("rlkl")
except PackageNotFoundError:  # pragma: no cover - running from a source tree without install
    __version__ = "0.0.0+unknown"

__all__ = ["__version__"]
