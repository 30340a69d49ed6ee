"""Turns bench/run's measurements into a summary (stdout) and bench/RESULTS.md with a chart.

Usage: python3 bench/report.py WORK RUNS QUICK   (called by bench/run; WORK holds its .tsv files)
Medians, not means: other work on the machine only ever adds time, and a median ignores a few such runs.
"""
import os
import platform
import statistics
import subprocess
import sys

CASES = {
    "a": "pipcam",
    "b": "gst-launch, naive",
    "c": "ffmpeg overlay",
    "d": "floor: x264 alone",
    "e": "same graph, gst-launch",
    "f": "pipcam, clips replayed live",
    "g": "floor, paced as live",
    "h": "ffmpeg, x264 defaults",
    "i": "floor + decoding both cameras",
}
GOALS = {"c": 0.85, "d": 1.10, "e": 1.02}  # (a) at most this many times the case's CPU, at 720p
MJPEG_GOAL = 0.75  # two MJPEG cameras: (a) at most this many times ffmpeg's CPU, at equal or better PSNR


def rows(path):
    with open(path) as f:
        return [line.rstrip("\n").split("\t") for line in f if line.strip()]


def run(*command):
    try:
        return subprocess.run(command, capture_output=True, text=True, timeout=30).stdout.strip()
    except OSError:
        return ""


def machine():
    model = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
    memory = next((int(l.split()[1]) for l in open("/proc/meminfo") if l.startswith("MemTotal")), 0)
    system = next((l.split("=", 1)[1].strip().strip('"') for l in open("/etc/os-release") if l.startswith("PRETTY_NAME")), "?")
    return [
        f"{os.cpu_count()} cores, {model}, {memory / 1024 / 1024:.0f} GB",
        f"{system}, Linux {platform.release().split('-')[0]}",
        run("gst-launch-1.0", "--version").splitlines()[1:2][0] if run("gst-launch-1.0", "--version") else "GStreamer ?",
        " ".join(run("ffmpeg", "-version").split()[:3]),
        "libx264 " + run("dpkg-query", "-W", "-f=${Version}", "libx264-164"),
        run("swift", "--version").splitlines()[0] if run("swift", "--version") else "Swift ?",
    ]


def main():
    work, runs, quick = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1"
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    cpu = {}  # set → case → [(cpu, wall, rss MB, pictures)]
    for s, c, user, system, wall, rss, frames in rows(f"{work}/cpu.tsv"):
        cpu.setdefault(s, {}).setdefault(c, []).append((float(user) + float(system), float(wall), int(rss) / 1024, int(frames)))
    med = {s: {c: [statistics.median(v[i] for v in values) for i in range(4)] for c, values in cases.items()} for s, cases in cpu.items()}

    out = []
    for s, cases in med.items():
        full = max(v[3] for v in cases.values())
        out.append(f"\n### {s}: CPU seconds for {full:.0f} pictures (medians of {runs} interleaved runs)\n")
        out.append("| case | | CPU s (user+sys) | wall s | peak RSS MB | pictures | pipcam ÷ case (CPU) |")
        out.append("|---|---|---:|---:|---:|---:|---:|")
        for c, (seconds, wall, rss, frames) in cases.items():
            ratio = "" if c == "a" else f"{cases['a'][0] / seconds:.2f}"
            pictures = {v[3] for v in cpu[s][c]}
            out.append(f"| {c} | {CASES[c]} | {seconds:.2f} | {wall:.2f} | {rss:.0f} | {'/'.join(map(str, sorted(pictures)))} | {ratio} |")
        short = [c for c in cases if min(v[3] for v in cpu[s][c]) < full - 3]
        if short:
            # Live-paced graphs drop pictures when the machine cannot keep up; fewer pictures cost less.
            out.append(f"\nCases {', '.join(short)} lost pictures in some runs (the machine was too busy to keep up in real"
                       " time): their CPU is for fewer pictures and their ratios flatter them.")

    quality = {}
    for s, c, psnr, ssim in rows(f"{work}/quality.tsv"):
        quality.setdefault((s, c), []).append((float(psnr), float(ssim)))
    if quality:
        out.append("\n### Quality against the reference composite (same bitrate; median and worst of the runs)\n")
        out.append("| output | PSNR dB | SSIM | worst PSNR dB | worst SSIM |\n|---|---:|---:|---:|---:|")
        for (s, c), values in quality.items():
            name = "ffmpeg's scaler, lossless (no encoding)" if c == "scalers" else f"{c} {CASES.get(c, c)}"
            out.append(f"| {s} {name} | {statistics.median(v[0] for v in values):.2f} | {statistics.median(v[1] for v in values):.4f} | "
                       f"{min(v[0] for v in values):.2f} | {min(v[1] for v in values):.4f} |")

    live = rows(f"{work}/live.tsv")
    if live:
        out.append(f"\n### Live: synthetic cameras and two tones, stopped by SIGINT (medians of {runs})\n")
        out.append("| recording | CPU s per recorded s | start → first frame written s | SIGINT → finalized s | peak RSS MB | finalized |")
        out.append("|---|---:|---:|---:|---:|---|")
        by_set = {}
        for s, user, system, wall, rss, first, duration, signalled in live:
            by_set.setdefault(s, []).append((user, system, float(wall) - float(signalled), rss, first, duration))
        for s, values in by_set.items():
            done = [v for v in values if v[5] not in ("", "N/A")]
            per_second = statistics.median((float(v[0]) + float(v[1])) / float(v[5]) for v in done) if done else float("nan")
            firsts = [float(v[4]) for v in values if v[4] != "N/A"]
            stop = statistics.median(v[2] for v in values)
            out.append(f"| {s} | {per_second:.2f} | {statistics.median(firsts) if firsts else float('nan'):.2f} | {stop:.2f} | "
                       f"{statistics.median(int(v[3]) for v in values) / 1024:.0f} | {len(done)} of {len(values)} |")

    base = med.get("720p", {})
    goals = [f"- (a) ≤ {limit:.2f} × ({c}): {base['a'][0] / base[c][0]:.2f} — {'met' if base['a'][0] / base[c][0] <= limit else 'missed'}"
             for c, limit in GOALS.items() if c in base]
    if "f" in base and "g" in base:
        goals.append(f"- paced like live cameras: (f) pipcam = {base['f'][0] / base['g'][0]:.2f} × (g) the paced floor")
    for s in ("mjpeg-720p", "mjpeg-1080p"):
        if s not in med:
            continue
        ratio = med[s]["a"][0] / med[s]["c"][0]
        psnr = {c: statistics.median(v[0] for v in quality.get((s, c), [(float("nan"), 0)])) for c in ("a", "c")}
        met = ratio <= MJPEG_GOAL and psnr["a"] >= psnr["c"]
        goals.append(f"- {s}: (a) ≤ {MJPEG_GOAL:.2f} × (c) ffmpeg at equal or better PSNR: {ratio:.2f}, "
                     f"{psnr['a']:.2f} dB against {psnr['c']:.2f} — {'met' if met else 'missed'}")
        if "i" in med[s]:
            # Decoding both cameras whole and encoding is the least any recorder spends on these clips: where
            # that alone is above the goal, scaling and composing cannot be made cheap enough to meet it.
            least, left = med[s]["i"][0] / med[s]["c"][0], MJPEG_GOAL * med[s]["c"][0] - med[s]["i"][0]
            room = (f"{left:.2f} CPU s left under the goal" if left >= 0 else f"already {-left:.2f} CPU s over the goal")
            goals.append(f"  - the least it can spend, (i) x264 alone and both cameras decoded whole, is {least:.2f} × (c): "
                         f"{room} before scaling and composing, where pipcam spends {med[s]['a'][0] - med[s]['i'][0]:.2f}")
    final = "ratios:"
    if base:
        final += (f" vs-ffmpeg {base['a'][0] / base['c'][0]:.2f} vs-floor {base['a'][0] / base['d'][0]:.2f} "
                  f"vs-same-graph {base['a'][0] / base['e'][0]:.2f}")
    if "mjpeg-720p" in med:
        final += f" mjpeg-vs-ffmpeg {med['mjpeg-720p']['a'][0] / med['mjpeg-720p']['c'][0]:.2f}"
    print("\n".join(out + ["\n### Goals (CPU)\n"] + goals))

    if quick:
        print(f"\n(bench/RESULTS.md is left as it is: only a full run writes it; this summary is also in {work}/summary.md)")
        with open(f"{work}/summary.md", "w") as f:
            f.write("\n".join(out + goals) + "\n")
    else:
        write_results(root, work, out, goals, runs, {s: {c: v[0] for c, v in cases.items()} for s, cases in med.items()})
    print(final)


def write_results(root, work, out, goals, runs, data):
    chart = f"{root}/bench/cpu.png"
    made = subprocess.run([sys.executable, f"{root}/bench/chart.py", chart, work, repr(data)]).returncode == 0
    commands = open(f"{work}/commands.txt").read().replace(work, "$BENCH_WORK").replace(root + "/", "./")
    text = [
        "# Benchmark results",
        "",
        "What recording two cameras picture-in-picture costs with pipcam, against a hand-written `gst-launch-1.0`",
        "line, ffmpeg's overlay filter, x264 alone on the composed frames (the floor) and pipcam's own graph run by",
        "`gst-launch-1.0`. Same input frames, same x264 settings and bitrate, same allocator settings; runs",
        "interleaved, medians. Written by `bench/run`; see the top of that script for what each case is.",
        "",
        "## Machine",
        "",
        *[f"- {line}" for line in machine()],
        "",
        "## Reproduce",
        "",
        "```sh",
        "scripts/install-deps && swift build -c release",
        f"bench/run{'' if runs == 5 else f' --runs {runs}'}    # everything, ~15 min; bench/run --quick: 720p, 3 runs",
        "```",
        "",
        "Cases a to e and h run as fast as they can (pipcam with `replay: fast`); f and g are paced like live",
        "cameras, so their wall time is the clips' 10 s. Compare CPU seconds. The chart needs matplotlib (installed",
        "into a virtual environment in the work folder if missing) or gnuplot.",
        "",
        "## Results",
        *out,
        "",
        "### Goals (CPU)",
        "",
        *goals,
        "",
        "![CPU seconds per case](cpu.png)" if made else "(no chart: neither matplotlib nor gnuplot could be used)",
        "",
        "## Reading the results",
        "",
        "- x264 is most of every case: (d) is what encoding the composed frames costs by itself. What a",
        "  picture-in-picture recorder adds on top is reading two clips instead of one, scaling the inset camera",
        "  (a file camera is full size; a real inset camera is captured at the size shown) and composing the",
        "  picture. pipcam, the naive gst-launch line and ffmpeg all pay these.",
        "- (d) reads its one clip with filesrc and y4mdec, which copy every picture twice (out of the page",
        "  cache, then out of y4mdec's adapter). pipcam maps its clips and copies nothing on the way in; the",
        "  compositor's copy of the main camera into the picture is its only full-frame copy. So (a) − (d) is",
        "  less than what composing costs by itself: it is that cost minus the copies (d) makes and pipcam does not.",
        "- (c) uses the same x264 settings as pipcam (zerolatency, VBV, key frame every 2 s), so the pictures",
        "  are equal in quality and the CPU comparison is like for like. (h) is the ffmpeg line as usually",
        "  written: x264's look-ahead and B-frames cost more CPU and give better pictures at the same bitrate.",
        "- (e) is pipcam's graph as `pipcam describe` prints it: the same elements, but gst-launch-1.0 cannot",
        "  feed a mapped clip, so the clips are read by filesrc and y4mdec. (a) against (e) is the Swift layer's",
        "  cost (bus, counters, pressure samples) minus what mapping the clips saves; the live table has no",
        "  clips, and its CPU per second is the whole of pipcam with the Swift layer in it.",
        "- Pacing costs CPU by itself: (g) against (d) is x264 alone fed at 30 pictures a second instead of",
        "  as fast as it can take them. (f) against (g) is pipcam's cost over the floor when both are paced,",
        "  as every recording from real cameras is; the live table is that for synthetic cameras.",
        "- In the MJPEG sets, decoding is the other large cost: (i) is (d) with both clips decoded whole beside",
        "  it, which every recorder that shows these cameras without losing detail pays. (a) − (i) is what",
        "  pipcam spends on scaling, composing and itself; the goals say how much of that the MJPEG goal leaves.",
        "- The machine is shared and the runs are interleaved; a case whose runs spread widely was disturbed.",
        "  Medians resist that, but compare ratios from the same run rather than seconds between runs.",
        "",
        "## Commands of each case",
        "",
        "```",
        commands.strip(),
        "```",
        "",
    ]
    with open(f"{root}/bench/RESULTS.md", "w") as f:
        f.write("\n".join(text))
    print("\nwrote bench/RESULTS.md" + (" and bench/cpu.png" if made else ""))


if __name__ == "__main__":
    main()
