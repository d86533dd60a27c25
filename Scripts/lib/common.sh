# Shared set-up for the scripts in Scripts/: puts Swift on PATH and installs Debian packages
# that are missing. Source it; it defines need_packages and require_swift.

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

# need_packages PKG...: installs the Debian packages that are not installed yet.
need_packages() {
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
