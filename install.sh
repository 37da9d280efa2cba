#!/bin/sh
# Install tokdrill from this checkout for the current user, in an environment of its own (systems
# whose Python refuses `pip install` outside one, PEP 668, accept it), or run its tests.
#
#   sh install.sh               install (or update) the app; the command is ~/.local/bin/tokdrill
#   sh install.sh --uninstall   remove the app; progress stays in the data folder
#   sh install.sh --pytest ARG...
#                               install the app with its test tools into the active virtual
#                               environment (else .venv in this checkout) and run pytest ARG...
#
# The app's environment is $XDG_DATA_HOME/tokdrill-venv (~/.local/share/tokdrill-venv); it is made
# with `python3 -m venv`, else with uv where that is installed, else with the pip wheel Debian
# keeps in /usr/share/python-wheels. Set PYTHON to use another interpreter (3.11 or later).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
python=${PYTHON:-python3}
data_home=${XDG_DATA_HOME:-$HOME/.local/share}
env_dir=$data_home/tokdrill-venv
bin_dir=$HOME/.local/bin
link=$bin_dir/tokdrill

say() { printf 'tokdrill install: %s\n' "$*"; }
die() { printf 'tokdrill install: %s\n' "$*" >&2; exit 1; }

check_python() {
  command -v "$python" >/dev/null 2>&1 || die "no $python on PATH: install Python 3.11 or later (or set PYTHON)"
  "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
    || die "$("$python" -V 2>&1) is too old: tokdrill needs Python 3.11 or later (set PYTHON to one)"
}

# make_env DIR: a virtual environment at DIR that pip (or uv) can install into.
make_env() {
  "$python" -m venv "$1" >/dev/null 2>&1 && return 0
  rm -rf "$1"
  if command -v uv >/dev/null 2>&1; then
    uv venv --quiet --python "$python" "$1" && return 0
  fi
  wheel=$(ls /usr/share/python-wheels/pip-*.whl 2>/dev/null | tail -n 1 || true)
  if [ -n "$wheel" ] && "$python" -m venv --without-pip "$1" >/dev/null 2>&1; then
    "$1/bin/python" "$wheel/pip" install --quiet "$wheel" && return 0
  fi
  rm -rf "$1"
  die "$python cannot make a virtual environment (its venv module lacks ensurepip). Install the venv
  module (Debian/Ubuntu: sudo apt install python3-venv; Fedora: sudo dnf install python3) or uv
  (https://docs.astral.sh/uv/), then run this again."
}

# pip_install PYTHON ARG...: pip install ARG... into PYTHON's environment (with uv if it has no pip).
pip_install() {
  target=$1
  shift
  if "$target" -m pip --version >/dev/null 2>&1; then
    "$target" -m pip install --quiet --disable-pip-version-check "$@"
  else
    uv pip install --quiet --python "$target" "$@"
  fi
}

install_app() {
  check_python
  if [ ! -x "$env_dir/bin/python" ]; then
    say "making the environment $env_dir"
    make_env "$env_dir"
  fi
  say "installing from $here (a minute or two the first time)"
  pip_install "$env_dir/bin/python" --upgrade "$here"
  mkdir -p "$bin_dir"
  ln -sf "$env_dir/bin/tokdrill" "$link"
  say "installed: $link"
  case ":$PATH:" in
    *":$bin_dir:"*) ;;
    *) say "$bin_dir is not on your PATH: run $link, or add $bin_dir to PATH" ;;
  esac
}

uninstall_app() {
  if [ -L "$link" ] && [ "$(readlink "$link")" = "$env_dir/bin/tokdrill" ]; then
    rm -f "$link"
  fi
  rm -rf "$env_dir"
  say "removed $env_dir and $link; your progress stays in the data folder (tokdrill stats named it)"
}

run_tests() {
  if [ -n "${VIRTUAL_ENV:-}" ]; then
    env_python=$VIRTUAL_ENV/bin/python
  else
    check_python
    [ -x "$here/.venv/bin/python" ] || make_env "$here/.venv"
    env_python=$here/.venv/bin/python
  fi
  cd "$here"
  pip_install "$env_python" ".[test]"
  exec "$env_python" -m pytest "$@"
}

case "${1:-}" in
  "") install_app ;;
  --uninstall) uninstall_app ;;
  --pytest) shift; run_tests "$@" ;;
  -h | --help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//' ;;
  *) die "unknown option $1 (try --help)" ;;
esac
