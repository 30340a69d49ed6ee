"""Draws CPU seconds per case as a PNG bar chart: python3 bench/chart.py OUT.png WORK "{set: {case: seconds}}"

Uses matplotlib; without it, installs it into a virtual environment in WORK (PyPI), and failing that
draws with gnuplot. Exits non-zero, having said why, when none of these works: the benchmark goes on.
"""
import ast
import os
import subprocess
import sys

NAMES = {"a": "pipcam", "b": "gst-launch", "c": "ffmpeg", "d": "floor", "e": "same graph", "f": "pipcam, live pace",
         "g": "floor, live pace", "h": "ffmpeg, x264 defaults", "i": "floor + decoding"}


def with_matplotlib(out, data):
    import matplotlib
    matplotlib.use("Agg")  # no display needed
    import matplotlib.pyplot as plt
    sets, cases = list(data), sorted({c for v in data.values() for c in v})
    width = 0.8 / len(cases)
    figure, axes = plt.subplots(figsize=(9, 4.5), dpi=100)
    for i, case in enumerate(cases):
        xs = [j + (i - (len(cases) - 1) / 2) * width for j in range(len(sets))]
        heights = [data[s].get(case, 0) for s in sets]  # a case measured for some sizes only is left out of the others
        bars = axes.bar(xs, heights, width, label=f"{case} {NAMES[case]}")
        axes.bar_label(bars, labels=[f"{h:.1f}" if h else "" for h in heights], fontsize=7)
    axes.set_xticks(range(len(sets)), sets)
    axes.set_ylabel("CPU seconds (user + sys), median")
    axes.set_title("10 s of two cameras picture-in-picture: CPU per case (lower is better)")
    axes.legend(fontsize=8)
    figure.tight_layout()
    figure.savefig(out)


def with_gnuplot(out, data):
    cases = sorted({c for v in data.values() for c in v})
    rows = ["set " + " ".join(f'"{c} {NAMES[c]}"' for c in cases)]
    rows += [f'"{s}" ' + " ".join(f"{data[s].get(c, 0):.2f}" for c in cases) for s in data]
    script = (f'set terminal png size 900,450; set output "{out}"; set style data histograms; set style fill solid;'
              f'set ylabel "CPU seconds (user + sys), median"; set key top left;'
              f'plot "-" using 2:xtic(1) title columnheader(2)'
              + "".join(f', "" using {i + 2} title columnheader({i + 2})' for i in range(1, len(cases))) + "\n")
    table = "\n".join(rows) + "\ne\n"
    subprocess.run(["gnuplot"], input=script + table * len(cases), text=True, check=True)


def main():
    out, work, data = sys.argv[1], sys.argv[2], ast.literal_eval(sys.argv[3])
    try:
        with_matplotlib(out, data)
        return
    except ImportError:
        pass
    venv = os.path.join(work, "venv")
    python = os.path.join(venv, "bin", "python3")
    if os.environ.get("BENCH_CHART_VENV") != "1":
        try:
            if not os.path.exists(python):
                subprocess.run([sys.executable, "-m", "venv", venv], check=True)
                subprocess.run([python, "-m", "pip", "install", "-q", "matplotlib"], check=True)
            os.execve(python, [python, *sys.argv], {**os.environ, "BENCH_CHART_VENV": "1"})
        except (subprocess.CalledProcessError, OSError) as error:
            print(f"chart: no matplotlib ({error}); trying gnuplot", file=sys.stderr)
    try:
        with_gnuplot(out, data)
    except (subprocess.CalledProcessError, OSError) as error:
        print(f"chart: not drawn ({error})", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
