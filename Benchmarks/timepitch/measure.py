"""Benchmarks/timepitch: runs every engine over the files at every rate, times them and measures
their output (called by ./run: measure.py TPBENCH DATA WORK RUNS OUT.md)."""
import datetime
import os
import resource
import statistics
import subprocess
import sys
import wave

import numpy as np

tpbench, data, work, runs, out_md = sys.argv[1:6]
runs = int(runs)
rates = [0.75, 1.25, 1.5, 2.0]
engines = {
    "Spectral (ours)": lambda r, i, o: [tpbench, "spec", str(r), i, o],
    "TimeDomain (ours, SoundTouch)": lambda r, i, o: [tpbench, "tido", str(r), i, o],
    "Varispeed (ours, libsoxr)": lambda r, i, o: [tpbench, "vspd", str(r), i, o],
    "rubberband R3 (--fine)": lambda r, i, o: ["rubberband", "-q", "-3", "-T", str(r), i, o],
    "rubberband R2 (default)": lambda r, i, o: ["rubberband", "-q", "-T", str(r), i, o],
    "ffmpeg atempo": lambda r, i, o: ["ffmpeg", "-nostdin", "-v", "error", "-y", "-threads", "1", "-i", i, "-af", f"atempo={r}", o],
}
keys = dict(zip(engines, ["spec", "tido", "vspd", "rb3", "rb2", "atempo"]))


def read(path):
    with wave.open(path) as w:
        n, ch, sr = w.getnframes(), w.getnchannels(), w.getframerate()
        x = np.frombuffer(w.readframes(n), dtype="<i2").astype(np.float64) / 32768
    return x.reshape(-1, ch), sr


def cpu(command):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def frequency(x, sr):
    x = x[len(x) // 4: 3 * len(x) // 4]
    i = np.nonzero((x[:-1] < 0) & (x[1:] >= 0))[0]
    t = i + (-x[i] / (x[i + 1] - x[i]))
    return (len(t) - 1) / (t[-1] - t[0]) * sr


def spectrogram(x):
    n, hop = 2048, 512
    w = np.hanning(n + 1)[:-1]
    frames = [x[s:s + n] * w for s in range(0, len(x) - n, hop)]
    return np.abs(np.fft.rfft(np.array(frames), axis=1))


def lsd(x, ref, sr):
    a, b = spectrogram(x.mean(axis=1)), spectrogram(ref.mean(axis=1))
    m = min(len(a), len(b))
    k = np.arange(a.shape[1]) * sr / 2048
    band = (k >= 50) & (k <= 16000)
    # Bins more than 60 dB below the reference's loudest bin count as that floor (inaudible
    # reverb tails and 16-bit noise would otherwise dominate).
    floor = b.max() * 1e-3
    la = 20 * np.log10(np.maximum(a[:m, band], floor))
    lb = 20 * np.log10(np.maximum(b[:m, band], floor))
    return float(np.mean(np.sqrt(np.mean((la - lb) ** 2, axis=1))))


files = {name: os.path.join(data, name) for name in ["speech.wav", "music.wav"]}
seconds = {name: read(path)[0].shape[0] / read(path)[1] for name, path in files.items()}
timing = {}  # (engine, file, rate) -> median CPU seconds
for f, path in files.items():
    for r in rates:
        samples = {e: [] for e in engines}
        for i in range(runs):
            order = list(engines.items()) if i % 2 == 0 else list(engines.items())[::-1]
            for e, make in order:
                samples[e].append(cpu(make(r, path, os.path.join(work, f"{keys[e]}-{r}-{f}"))))
        for e in engines:
            timing[(e, f, r)] = statistics.median(samples[e])

# Quality on the sine.
sine_path = os.path.join(data, "sine.wav")
sine, sr = read(sine_path)
quality = {}
for e, make in engines.items():
    for r in rates:
        o = os.path.join(work, f"sine-{keys[e]}-{r}.wav")
        subprocess.run(make(r, sine_path, o), check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        y, _ = read(o)
        want = 1000 * r if e.startswith("Varispeed") else 1000
        quality[(e, r)] = (frequency(y[:, 0], sr) - want, y.shape[0] - round(sine.shape[0] / r))

# Spectral distance from rubberband R3 on the music.
distance = {}
for r in rates:
    ref, sr = read(os.path.join(work, f"rb3-{r}-music.wav"))
    for e in engines:
        if e.startswith("rubberband R3"):
            continue
        y, _ = read(os.path.join(work, f"{keys[e]}-{r}-music.wav"))
        distance[(e, r)] = lsd(y, ref, sr)

commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
cpuname = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
rb = subprocess.run(["rubberband", "--version"], capture_output=True, text=True)
rbv = (rb.stdout + rb.stderr).strip().splitlines()[0]
ffv = subprocess.run(["ffmpeg", "-version"], capture_output=True, text=True).stdout.split("\n")[0]
L = ["# Time and pitch: AudioTimePitch against Rubber Band and ffmpeg atempo (Benchmarks/timepitch)", "",
     f"- date: {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC", f"- commit: {commit}",
     f"- machine: {os.cpu_count()} cores, {cpuname}; load average {open('/proc/loadavg').read().split()[0]} when written",
     f"- references: rubberband {rbv}; {ffv}",
     "- files: `speech.wav` 30 s mono 44.1 kHz (formant-filtered gliding sawtooth in syllables), "
     "`music.wav` 30 s stereo 44.1 kHz (plucked arpeggio over a tremolo chord, reverb), `sine.wav` 10 s 1 kHz",
     f"- CPU time = user + system of the whole process, median of {runs} runs, engines interleaved", "",
     "## CPU time per second of input audio (ms)", ""]
for f in files:
    L += [f"### {f}", "", "| engine | " + " | ".join(f"rate {r}" for r in rates) + " |", "|:---|" + "---:|" * len(rates)]
    for e in engines:
        L.append(f"| {e} | " + " | ".join(f"{timing[(e, f, r)] / seconds[f] * 1000:.2f}" for r in rates) + " |")
    L.append("")
L += ["### ratios (mean over both files and the four rates of CPU time / reference CPU time)", ""]
for e in list(engines)[:3]:
    parts = []
    for ref in list(engines)[3:]:
        ratios = [timing[(e, f, r)] / max(timing[(ref, f, r)], 1e-4) for f in files for r in rates]
        parts.append(f"{statistics.mean(ratios):.3f} × {ref}")
    L.append(f"- {e}: " + ", ".join(parts))
L += ["", "## 1 kHz sine: frequency error (Hz) / length error (frames)", "",
      "Varispeed's expected frequency is 1 kHz × rate.", "",
      "| engine | " + " | ".join(f"rate {r}" for r in rates) + " |", "|:---|" + "---:|" * len(rates)]
for e in engines:
    L.append(f"| {e} | " + " | ".join(f"{quality[(e, r)][0]:+.3f} / {quality[(e, r)][1]:+d}" for r in rates) + " |")
L += ["", "## Log-spectral distance from rubberband R3 on music.wav (dB; lower is closer)", "",
      "STFT 2048/512 Hann of the channels' mean, 50 Hz…16 kHz, magnitudes floored 60 dB below the reference's "
      "loudest bin, RMS over bins, mean over frames. "
      "Varispeed changes pitch, so its figure only shows how far resampling is from time stretching.", "",
      "| engine | " + " | ".join(f"rate {r}" for r in rates) + " |", "|:---|" + "---:|" * len(rates)]
for e in engines:
    if e.startswith("rubberband R3"):
        continue
    L.append(f"| {e} | " + " | ".join(f"{distance[(e, r)]:.2f}" for r in rates) + " |")
L.append("")
open(out_md, "w").write("\n".join(L))
print("\n".join(L))
