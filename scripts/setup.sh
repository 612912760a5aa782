#!/usr/bin/env bash
# Installs everything a fresh Debian 12 machine needs to build and test txl.
set -euo pipefail
SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends \
  llvm-22-dev libmlir-22-dev mlir-22-tools libzstd-dev zlib1g-dev libedit-dev \
  ninja-build ccache cmake g++ libgtest-dev python3-pip \
  chromium-headless-shell
python3 -m pip install -q -r "$(dirname "$0")/requirements.txt"
