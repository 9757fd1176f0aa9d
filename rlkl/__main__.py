"""``python -m rlkl``: the same command line as ``rlkl``."""

from rlkl.cli import main

main()
