#!/usr/bin/env bash
# Records real gpmetis runs for the gpmetis-compatibility test (tests/cli_partition.rs).
#
# For each line `NAME ARGS...` of tests/fixtures/gpmetis/cases.txt it runs `gpmetis ARGS...` in
# that folder and saves what gpmetis produced: NAME.stdout (its summary), NAME.part (its part
# file) and NAME.outname (the name gpmetis gave the part file). The test then runs
# `placelab partition` with exactly the same arguments and compares. Installs Debian's `metis`
# package when gpmetis is missing. Run it again after changing cases.txt or a graph, and commit
# the outputs; the tests themselves never install or run gpmetis.
set -euo pipefail
cd "$(dirname "$0")/../tests/fixtures/gpmetis"

if ! command -v gpmetis >/dev/null 2>&1; then
    sudo=""
    [ "$(id -u)" = 0 ] || sudo="sudo"
    $sudo apt-get install -y metis || { $sudo apt-get update && $sudo apt-get install -y metis; }
fi

while read -r name args; do
    case "$name" in "" | "#"*) continue ;; esac
    rm -f -- *.part.[0-9]*   # leftovers of an interrupted run would hide the new file
    before=$(ls)
    # shellcheck disable=SC2086 # the arguments are split on purpose
    gpmetis $args > "$name.stdout"
    created=$(comm -13 <(echo "$before" | sort) <(ls | sort) | grep -v "^$name\.stdout$")
    if [ "$(echo "$created" | wc -l)" != 1 ] || [ -z "$created" ]; then
        echo "gpmetis-fixture: $name: expected one new part file, got: $created" >&2
        exit 1
    fi
    echo "$created" > "$name.outname"
    mv "$created" "$name.part"
    echo "$name: gpmetis $args -> $created ($(grep -o 'Edgecut: [0-9]*' "$name.stdout"))"
done < cases.txt
