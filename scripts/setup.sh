#!/usr/bin/env bash
# Set up the workbook: clang (tinygrad's CPU backend compiles with it), a virtual environment in .venv, and the pinned
# packages. A second run only checks: it reinstalls when pyproject.toml has changed.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}

say() { printf 'setup: %s\n' "$*"; }
die() { printf 'setup: error: %s\n' "$*" >&2; exit 1; }

"$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null \
  || die "Python 3.11 or newer is needed (found: $("$PYTHON" --version 2>&1)); set PYTHON=/path/to/python3.11"

if [ "$(id -u)" = 0 ]; then sudo=""; elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo="sudo"
else sudo="none"; fi
can_apt() { [ "$sudo" != none ] && command -v apt-get >/dev/null 2>&1; }
apt_updated=""
apt_install() { [ -n "$apt_updated" ] || $sudo apt-get update -qq; apt_updated=1; DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >/dev/null; }

if ! command -v clang >/dev/null 2>&1; then
  if can_apt; then
    say "installing clang with apt-get (tinygrad's CPU backend needs it; gcc does not work)"
    apt_install clang
  else
    die "tinygrad's CPU backend needs clang (gcc does not work) and I cannot install it here.
  Debian/Ubuntu: sudo apt-get install clang    Fedora: sudo dnf install clang    macOS: xcode-select --install
  Then run this again."
  fi
fi

if ! command -v bwrap >/dev/null 2>&1; then
  if can_apt; then
    say "installing bubblewrap with apt-get (grading runs a learner's code in its sandbox)"
    apt_install bubblewrap || say "warning: could not install bubblewrap; grading will run unsandboxed"
  else
    say "warning: bubblewrap (bwrap) is missing: grading will run learners' code unsandboxed. Debian/Ubuntu: sudo apt-get install bubblewrap"
  fi
fi

# Ubuntu 24.04 (GitHub's runners) lets AppArmor refuse unprivileged user namespaces, and bwrap needs them. On a
# throwaway CI machine lift that; elsewhere only say how.
if command -v bwrap >/dev/null 2>&1 && ! bwrap --ro-bind / / --unshare-pid --unshare-net true 2>/dev/null; then
  if [ "${GITHUB_ACTIONS:-}" = true ] && [ "$sudo" != none ] && [ -e /proc/sys/kernel/apparmor_restrict_unprivileged_userns ]; then
    say "letting bubblewrap create namespaces on this CI machine (kernel.apparmor_restrict_unprivileged_userns=0)"
    $sudo sysctl -q -w kernel.apparmor_restrict_unprivileged_userns=0
  else
    say "warning: bubblewrap cannot create namespaces here, so grading runs unsandboxed; on Ubuntu 24.04:
  sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0   (or an AppArmor profile that allows bwrap)"
  fi
fi

if [ ! -x .venv/bin/python ]; then
  say "creating the virtual environment .venv"
  "$PYTHON" -m venv .venv || die "could not create .venv; on Debian/Ubuntu install the package python3-venv"
fi

want=$(sha256sum pyproject.toml | cut -d' ' -f1)
if [ "$(cat .venv/.setup-stamp 2>/dev/null)" != "$want" ]; then
  say "installing the pinned packages (tinygrad 0.14.0, torch 2.13.0 CPU, nbgrader 0.9.6, ...): a few minutes the first time"
  .venv/bin/python -m pip install --quiet -e ".[dev]"
  echo "$want" > .venv/.setup-stamp
fi
say "ready ($(clang --version | head -n1); $(.venv/bin/python --version))"
