"""CPU of players and recorders, for Benchmarks/pipewire/run.

    measure.py play OUT.json SINK AQPLAY WAV SHORTWAV
    measure.py record OUT.json SINK AQRECORD WORKDIR

Each command runs AQ_PW_RUNS times (default 3), the commands of a part taking turns; a
recorder is stopped with SIGINT after 30 s. OUT.json maps each command's label to its runs:
[wall s, user s, system s, max RSS KiB, threads seen, steady state]. The steady state is what
the process's threads did from 5 s to 25 s into the run (past start and connection, before
the end), from /proc/PID/task/*: CPU from schedstat (nanoseconds, not sampled at the tick) and
context switches from status, in all ("cpu_ms_per_s", "wakeups_per_s") and per thread name
("threads": name -> [wake-ups per s, CPU ms per s, threads of that name]).

The play part also plays SHORTWAV (0.1 s) with each native player AQ_PW_RUNS times: what
starting, connecting and ending cost, apart from playing ("start" in OUT.json: label -> CPU ms).
"""
import json, os, signal, subprocess, sys, threading, time

STEADY_FROM, STEADY_TO = 5.0, 25.0


def threads_of(pid):
    try:
        return len(os.listdir(f"/proc/{pid}/task"))
    except OSError:
        return 0


def snapshot(pid):
    """tid -> (name, CPU ns, voluntary and involuntary context switches) of every thread."""
    seen = {}
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return seen
    for tid in tids:
        try:
            status = open(f"/proc/{pid}/task/{tid}/status").read()
            ns = int(open(f"/proc/{pid}/task/{tid}/schedstat").read().split()[0])
        except (OSError, ValueError, IndexError):
            continue
        fields = dict(l.split(":", 1) for l in status.splitlines() if ":" in l)
        switches = int(fields["voluntary_ctxt_switches"]) + int(fields["nonvoluntary_ctxt_switches"])
        seen[tid] = (fields["Name"].strip(), ns, switches)
    return seen


def steady_state(before, after, seconds):
    """What the threads did between two snapshots, per second, in all and per thread name."""
    names = {}
    total_ns = total_switches = 0
    for tid, (name, ns, switches) in after.items():
        _, ns0, switches0 = before.get(tid, (name, 0, 0))
        total_ns += ns - ns0
        total_switches += switches - switches0
        row = names.setdefault(name, [0.0, 0.0, 0])
        row[0] += (switches - switches0) / seconds
        row[1] += (ns - ns0) / 1e6 / seconds
        row[2] += 1
    return {"cpu_ms_per_s": total_ns / 1e6 / seconds, "wakeups_per_s": total_switches / seconds, "threads": names}


def run(argv, env, seconds=None, accepted=(0,)):
    """Runs argv (stopped with SIGINT after `seconds` when given): wall, user, system, RSS,
    threads, steady state. `accepted`: the exit codes that mean success."""
    start = time.monotonic()
    child = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    most = [0]
    steady = [None]

    def watch():
        # The thread count and the first snapshot 5 s in: the steady state, past start and
        # connection.
        time.sleep(STEADY_FROM)
        most[0] = threads_of(child.pid)
        before, at = snapshot(child.pid), time.monotonic()
        time.sleep(max(0.0, STEADY_TO - (time.monotonic() - start)))
        after = snapshot(child.pid)
        if before and after:
            steady[0] = steady_state(before, after, time.monotonic() - at)
        if seconds is not None:
            time.sleep(max(0.0, seconds - (time.monotonic() - start)))
            child.send_signal(signal.SIGINT)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.monotonic() - start
    err = child.stderr.read().decode(errors="replace")
    child.stderr.close()
    code = os.waitstatus_to_exitcode(status)
    if code not in accepted:
        sys.exit(f"pipewire benchmark: {' '.join(argv)} failed ({code}): {err}")
    watcher.join(timeout=1)
    return [wall, usage.ru_utime, usage.ru_stime, usage.ru_maxrss, most[0], steady[0]]


def cpu_ms(argv, env):
    """User + system milliseconds of one short run of argv."""
    child = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _, status, usage = os.wait4(child.pid, 0)
    err = child.stderr.read().decode(errors="replace")
    child.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"pipewire benchmark: {' '.join(argv)} failed: {err}")
    return (usage.ru_utime + usage.ru_stime) * 1000


def main():
    part, out, sink = sys.argv[1:4]
    runs = int(os.environ.get("AQ_PW_RUNS", "3"))
    env = dict(os.environ)
    for name in ("AUDIOQUEUE_BACKEND", "AUDIOQUEUE_DEVICE", "AUDIOQUEUE_INPUT_DEVICE"):
        env.pop(name, None)
    # Stopped by SIGINT: aqrecord finishes its file and exits with 0, a process the signal
    # kills exits with it; pw-cat (0.3.65) exits with 1 when SIGINT ends its loop, its file
    # written (the "Broken pipe" seen after that failure came from the noise player, cut off
    # when the server stopped).
    stopped = (0, 130, -signal.SIGINT)
    short = []
    if part == "play":
        aqplay, wav, short_wav = sys.argv[4:7]
        commands = [
            ("aqplay (pipewire, native)", [aqplay, "--backend", "pipewire", "--device", sink, wav], None, (0,)),
            ("pw-cat --playback", ["pw-cat", "--playback", "--target", sink, wav], None, (0,)),
            ("aqplay (pulse, through pipewire-pulse)", [aqplay, "--backend", "pulse", "--device", sink, wav], None, (0,)),
        ]
        short = [
            ("aqplay (pipewire, native)", [aqplay, "--backend", "pipewire", "--device", sink, short_wav]),
            ("pw-cat --playback", ["pw-cat", "--playback", "--target", sink, short_wav]),
            ("aqplay --help", [aqplay, "--help"]),
        ]
    else:
        aqrecord, work = sys.argv[4:6]
        commands = [
            ("aqrecord (pipewire, native)",
             [aqrecord, "--backend", "pipewire", "--device", sink + ".monitor", "-d", "LEI16@48000", os.path.join(work, "aqrecord.wav")], 30,
             stopped),
            ("pw-cat --record",
             ["pw-cat", "--record", "--target", sink, "-P", "{ stream.capture.sink = true }", "--rate", "48000",
              "--channels", "2", "--format", "s16", os.path.join(work, "pw-cat.wav")], 30, stopped + (1,)),
            ("aqrecord (pulse, through pipewire-pulse)",
             [aqrecord, "--backend", "pulse", "--device", sink + ".monitor", "-d", "LEI16@48000", os.path.join(work, "aqrecord-pulse.wav")], 30,
             stopped),
        ]
    rows = {label: [] for label, _, _, _ in commands}
    starts = {label: [] for label, _ in short}
    for _ in range(runs):
        for label, argv in short:
            starts[label].append(cpu_ms(argv, env))
        for label, argv, seconds, accepted in commands:
            row = run(argv, env, seconds, accepted)
            rows[label].append(row)
            wall, user, system, rss, threads, steady = row
            detail = ""
            if steady:
                detail = f"; 5-25 s: {steady['cpu_ms_per_s']:.2f} ms/s, {steady['wakeups_per_s']:.1f} context switches/s"
            print(f"  {label}: wall {wall:.2f} s, user {user*1000:.0f} ms, system {system*1000:.0f} ms, "
                  f"CPU {(user+system)/wall*100:.2f} %, {threads} threads, max RSS {rss/1024:.1f} MiB{detail}, "
                  f"load {os.getloadavg()[0]:.2f}", flush=True)
    for label, argv in short:
        if starts[label]:
            print(f"  {' '.join(os.path.basename(a) for a in argv[:2])} (short): "
                  + ", ".join(f"{ms:.1f}" for ms in starts[label]) + " ms CPU", flush=True)
    if short:
        rows["start"] = starts
    json.dump(rows, open(out, "w"))


main()
