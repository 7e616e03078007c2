#!/usr/bin/env bash
# What `make test-cluster` needs besides Python: Debian's slurm-wlm and munge. Installs them where
# it can (root with apt-get, as on CI); otherwise stops with one line saying what to install.
set -euo pipefail
if command -v slurmctld >/dev/null && command -v munged >/dev/null; then
  exit 0
fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
  echo "make test-cluster needs Debian's slurm-wlm and munge, and root to run slurmd:" \
       "sudo apt-get install slurm-wlm munge, then sudo make test-cluster" >&2
  exit 1
fi
echo "installing Debian's slurm-wlm and munge (make test-cluster runs a one-node Slurm)" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -qq slurm-wlm munge >/dev/null || {
  apt-get update -qq && apt-get install -y -qq slurm-wlm munge >/dev/null; }
