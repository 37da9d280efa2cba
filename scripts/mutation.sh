#!/usr/bin/env bash
# Mutation-test reference_impl/ against the hidden drill tests (drills/hidden) with mutmut 3.
#
# mutmut writes a mutants/ folder next to pyproject.toml, so the run happens on a copy of the
# repository in a scratch directory: the working tree is never touched. Configuration lives in
# the [tool.mutmut] section of pyproject.toml.
#
# Usage: scripts/mutation.sh [SCRATCH_DIR [MUTANT_PATTERN...]]
#        SCRATCH_DIR defaults to a new temporary directory; the patterns (mutmut's mutant names, with
#        * wildcards: "reference_impl.heap_bpe*") limit the run to those modules or functions.
# Env:   PYTHON        interpreter with tokdrill's test and mutation extras installed
#                      (default: the repository's .venv/bin/python if there is one, else python3)
#        MAX_CHILDREN  parallel mutmut workers (default 2)
# Output: every mutant's status, each survivor re-checked against the full hidden suite (with
#         its diff if it still survives), and a one-line summary with the elapsed time.
# docs/mutation.md explains how to read the result and lists the last run's survivors.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
scratch="${1:-$(mktemp -d "${TMPDIR:-/tmp}/tokdrill-mutation.XXXXXX")}"
shift $(( $# > 0 ? 1 : 0 ))
patterns=("$@")
if [[ -x "$repo/.venv/bin/python" ]]; then default_python="$repo/.venv/bin/python"; else default_python=python3; fi
python="${PYTHON:-$default_python}"
max_children="${MAX_CHILDREN:-2}"

case "$scratch" in
  "$repo" | "$repo"/*) echo "mutation.sh: scratch dir must be outside the repository" >&2; exit 2 ;;
esac

rm -rf "$scratch"
mkdir -p "$scratch"
# Only what the run needs: the code to mutate, the tests (and their conftest), the config.
cp -r "$repo/reference_impl" "$repo/drills" "$repo/pyproject.toml" "$scratch/"
find "$scratch" -name __pycache__ -type d -prune -exec rm -rf {} +

cd "$scratch"
start=$(date +%s)
"$python" -m mutmut run --max-children "$max_children" "${patterns[@]}"
echo
echo "== every mutant =="
# Mutants outside the patterns are listed as "not checked"; they are left out of the summary.
"$python" -m mutmut results --all true | grep -v ': not checked$' | tee results.txt
# mutmut runs each mutant only against the tests that called the mutated function during its
# stats pass. A module-scoped fixture is built inside one test only, so a mutant of a constructor
# can "survive" merely because the tests using the fixture were never selected. Re-run every
# survivor against the whole hidden suite to remove that artefact.
echo
echo "== survivors, re-checked against the full hidden suite =="
: > survivors.txt
if ! (cd mutants && MUTANT_UNDER_TEST=none "$python" -m pytest -q -p no:cacheprovider -p no:randomly \
        drills/hidden >/dev/null 2>&1); then
  echo "mutation.sh: the unmutated hidden suite fails inside $scratch/mutants; re-check aborted" >&2
  exit 1
fi
for name in $(awk -F': ' '$2 == "survived" {gsub(/ /, "", $1); print $1}' results.txt); do
  if (cd mutants && MUTANT_UNDER_TEST="$name" timeout 120 "$python" -m pytest -x -q \
        -p no:cacheprovider -p no:randomly drills/hidden >/dev/null 2>&1); then
    echo "$name: survived" | tee -a survivors.txt
    "$python" -m mutmut show "$name"
  else
    echo "$name: killed by the full suite" | tee -a survivors.txt
  fi
done
echo
elapsed=$(( $(date +%s) - start ))
awk -F': ' -v secs="$elapsed" '
  FILENAME == "results.txt" { n[$2]++; total++ }
  FILENAME == "survivors.txt" && $2 != "survived" { rechecked++ }
  END {
    killed = n["killed"] + rechecked
    printf "mutants %d  killed %d (%d of them on the full-suite re-check)  timeout %d  survived %d  other %d  (%d s)\n",
      total, killed, rechecked, n["timeout"], n["survived"] - rechecked,
      total - n["killed"] - n["survived"] - n["timeout"], secs
  }' results.txt survivors.txt
