# Shared set-up for the scripts in Scripts/ and Benchmarks/: puts Swift on PATH, installs Debian
# packages that are missing, and builds with the compiler's errors shown. Source it; it defines
# packages, need_packages, need_package_groups, require_swift and build_or_explain.

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

# packages GROUP...: the Debian packages of these groups of Scripts/lib/debian-packages, one per line,
# each once, in the list's order. An unknown group is an error.
packages() {
    local list="$repo_root/Scripts/lib/debian-packages" group
    for group in "$@"; do
        if ! awk -v g="$group" '$1 == g { found = 1 } END { exit !found }' "$list"; then
            echo "error: no group '$group' in $list" >&2
            return 1
        fi
    done
    awk -v groups=" $* " 'index(groups, " " $1 " ") && NF >= 2 && $1 !~ /^#/ && !seen[$2]++ { print $2 }' "$list"
}

# need_packages PKG...: installs the Debian packages that are not installed yet. With
# AQ_LIST_PACKAGES=1 it prints every package it was given, one per line, and ends the script
# there instead (the tests read what a script installs that way).
need_packages() {
    if [ "${AQ_LIST_PACKAGES:-}" = 1 ]; then
        printf '%s\n' "$@"
        exit 0
    fi
    local missing=()
    for pkg in "$@"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "installing: ${missing[*]}"
    local sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# need_package_groups GROUP...: installs the missing packages of these groups of
# Scripts/lib/debian-packages (need_packages $(packages GROUP...), failing on an unknown group).
need_package_groups() {
    local list
    list="$(packages "$@")" || return 1
    # shellcheck disable=SC2086 # one package a word
    need_packages $list
}

# require_swift: makes `swift` callable, preferring the toolchain in /opt/swift.
require_swift() {
    if [ -x /opt/swift/usr/bin/swift ]; then
        export PATH="/opt/swift/usr/bin:$PATH"
    fi
    if ! command -v swift >/dev/null 2>&1; then
        echo "error: no Swift toolchain found (expected /opt/swift/usr/bin/swift or swift on PATH)" >&2
        exit 1
    fi
}

# build_or_explain LOG SWIFT-BUILD-ARGUMENTS...: runs `swift build` with the arguments, its whole
# output in LOG. On failure it prints the compiler's diagnostics (each `error:` line with its file
# and line, and the source lines and notes under it), or the end of LOG when there is none, and
# returns swift's status; on success it prints swift's last line.
build_or_explain() {
    local log="$1"
    shift
    mkdir -p "$(dirname "$log")"
    local status=0
    swift build "$@" >"$log" 2>&1 || status=$?
    if [ "$status" -eq 0 ]; then
        tail -n 1 "$log"
        return 0
    fi
    if grep -qE "(^|: )(error|fatal error):" "$log"; then
        # Each diagnostic with the lines the compiler shows under it (source, caret, notes).
        awk '/(^|: )(error|fatal error):/ { n = 8 } n > 0 { print; n-- }' "$log" | head -n 120 >&2
    else
        tail -n 40 "$log" >&2
    fi
    echo "error: swift build $* failed (exit $status); the whole output is in $log" >&2
    return "$status"
}
