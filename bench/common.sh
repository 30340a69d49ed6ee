# What the benchmarks share; each sources it from the repository's root.

# Lines of ffmpeg's errors decoding every stream of a file: 0 for a file that reads cleanly.
decode_errors() { ffmpeg -v error -i "$1" -map 0 -f null - 2>&1 | grep -vc '^\[null @' || true; }

# A process's resident memory in MB, one decimal; fails once the process is gone.
resident_mb() { awk '/^VmRSS/ { printf "%.1f", $2 / 1024 }' "/proc/$1/status" 2>/dev/null; }
