#!/bin/sh
# test_open_bc_stored.sh -- the action of openQCD's stored open-boundary configuration against
# openQCD's Wact (test_open_bc --stored). Skips (77) without the stored configurations
# (HR_STORED_CONFS, else TestProgram/data, else ../shared/data/stored_confs) or for NG != 3.
src=${HR_SRCDIR:-$(dirname "$0")/../..}
dir=${HR_STORED_CONFS:-$src/TestProgram/data}
[ -d "$dir" ] || dir=$src/../shared/data/stored_confs
[ -d "$dir" ] || { echo "SKIP: no stored configurations"; exit 77; }
exec ./test_open_bc --stored "$dir"
