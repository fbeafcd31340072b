#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Install the Debian packages listed in scripts/packages.txt (with sudo when
# not root).  Safe to run again: apt-get skips what is installed.
set -eu
here=$(dirname "$0")
pkgs=$(grep -v '^#' "$here/packages.txt" | tr '\n' ' ')
if [ "$(id -u)" -eq 0 ]; then sudo=; else sudo=sudo; fi
missing=
for p in $pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -z "$missing" ]; then
    echo "install-deps: all packages are installed"
    exit 0
fi
echo "install-deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
# shellcheck disable=SC2086
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing
