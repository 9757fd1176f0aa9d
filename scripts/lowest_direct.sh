#!/usr/bin/env bash
# The lower bounds of pyproject.toml, exercised: rlkl installed with the lowest version of
# every direct dependency that its bounds allow (uv's --resolution lowest-direct), then the
# main job (`rlkl check` on the shipped content), the site build, and the core and claims
# tests. Run by hand when a bound changes (it downloads old releases): scripts/lowest_direct.sh
set -euo pipefail
cd "$(dirname "$0")/.."
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 -m venv "$work/tools" && "$work/tools/bin/pip" install --quiet uv
uv="$work/tools/bin/uv"
"$uv" venv --quiet --seed --python python3 "$work/env"  # --seed: pip, for a test that installs a package
"$uv" pip install --quiet --python "$work/env/bin/python" --resolution lowest-direct \
  -e '.[site]' 'pytest>=8' 'hypothesis>=6.100' 'parse>=1.20' 'scipy>=1.15' 'pytest-xdist>=3.5' 'click>=8.2'
"$uv" pip freeze --python "$work/env/bin/python" | grep -iE \
  '^(jsonschema|pydantic|numpy|click|json-source-map|ruamel.yaml|pyyaml|jsonschema-rs|sympy|lark|mkdocs|mkdocs-material|jinja2|markupsafe|latex2mathml|minify-html|matplotlib|tqdm)=='
export RLKL_CACHE_DIR="$work/cache"
export PATH="$work/env/bin:$PATH"  # the tests run the rlkl command
"$work/env/bin/rlkl" check content/
"$work/env/bin/rlkl" site build --out "$work/site"
"$work/env/bin/python" -m pytest -q -p no:cacheprovider tests/core tests/claims tests/config \
  tests/validate -n 2
