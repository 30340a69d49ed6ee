# ensure_packages PACKAGE... — installs the Debian packages that are missing (first use only), as
# root or through password-less sudo. Sourced by the scripts that start test machinery; each defines
# PROG (its name, for messages) and skip (exits with 77 and one line saying why) first.
ensure_packages() {  # package...
    local missing=() p installed
    installed=" $(dpkg-query -W -f='${db:Status-Status}:${Package} ' "$@" 2>/dev/null || true) "
    for p in "$@"; do
        [[ $installed == *" installed:$p "* ]] || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    local sudo=()
    if [ "$(id -u)" -ne 0 ]; then
        if ! command -v sudo >/dev/null || ! sudo -n true 2>/dev/null; then
            skip "missing packages (${missing[*]}) and no root to install them"
        fi
        sudo=(sudo -n)
    fi
    echo "$PROG: installing ${missing[*]} (first use only)" >&2
    local apt=("${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get
               -o DPkg::Lock::Timeout=600 -y -q --no-install-recommends)
    if ! "${apt[@]}" install "${missing[@]}" </dev/null >&2; then
        "${apt[@]}" update </dev/null >&2 || true
        "${apt[@]}" install "${missing[@]}" </dev/null >&2 ||
            skip "could not install ${missing[*]}"
    fi
}
