"""rlkl — make every number in a policy-gradient / PPO / KL lesson executable."""

# The one place the version is written: pyproject.toml reads it from here (hatch's version
# source), so no command pays for importing importlib.metadata (~35 ms) to print it.
__version__ = "0.1.0"

__all__ = ["__version__"]
