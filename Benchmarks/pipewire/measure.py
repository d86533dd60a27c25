"""CPU of players and recorders, for Benchmarks/pipewire/run.

    measure.py play OUT.json SINK AQPLAY WAV
    measure.py record OUT.json SINK AQRECORD WORKDIR

Each command runs AQ_PW_RUNS times (default 3), the commands of a part taking turns; a
recorder is stopped with SIGINT after 30 s. OUT.json maps each command's label to its runs:
[wall s, user s, system s, max RSS KiB, threads seen].
"""
import json, os, signal, subprocess, sys, threading, time


def threads_of(pid):
    try:
        return len(os.listdir(f"/proc/{pid}/task"))
    except OSError:
        return 0


def run(argv, env, seconds=None):
    """Runs argv (stopped with SIGINT after `seconds` when given): wall, user, system, RSS, threads."""
    start = time.monotonic()
    child = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    most = [0]

    def watch():
        # The thread count 5 s in: the steady state, past start and connection.
        time.sleep(5)
        most[0] = threads_of(child.pid)
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
    # pw-cat stopped by SIGINT exits with its signal; that is how it is stopped here.
    if code != 0 and not (seconds is not None and code in (-signal.SIGINT, 130)):
        sys.exit(f"pipewire benchmark: {' '.join(argv)} failed ({code}): {err}")
    return [wall, usage.ru_utime, usage.ru_stime, usage.ru_maxrss, most[0]]


def main():
    part, out, sink = sys.argv[1:4]
    runs = int(os.environ.get("AQ_PW_RUNS", "3"))
    env = dict(os.environ)
    for name in ("AUDIOQUEUE_BACKEND", "AUDIOQUEUE_DEVICE", "AUDIOQUEUE_INPUT_DEVICE"):
        env.pop(name, None)
    if part == "play":
        aqplay, wav = sys.argv[4:6]
        commands = [
            ("aqplay (pipewire, native)", [aqplay, "--backend", "pipewire", "--device", sink, wav], None),
            ("pw-cat --playback", ["pw-cat", "--playback", "--target", sink, wav], None),
            ("aqplay (pulse, through pipewire-pulse)", [aqplay, "--backend", "pulse", "--device", sink, wav], None),
        ]
    else:
        aqrecord, work = sys.argv[4:6]
        commands = [
            ("aqrecord (pipewire, native)",
             [aqrecord, "--backend", "pipewire", "--device", sink + ".monitor", "-d", "LEI16@48000", os.path.join(work, "aqrecord.wav")], 30),
            ("pw-cat --record",
             ["pw-cat", "--record", "--target", sink, "-P", "{ stream.capture.sink = true }", "--rate", "48000",
              "--channels", "2", "--format", "s16", os.path.join(work, "pw-cat.wav")], 30),
            ("aqrecord (pulse, through pipewire-pulse)",
             [aqrecord, "--backend", "pulse", "--device", sink + ".monitor", "-d", "LEI16@48000", os.path.join(work, "aqrecord-pulse.wav")], 30),
        ]
    rows = {label: [] for label, _, _ in commands}
    for _ in range(runs):
        for label, argv, seconds in commands:
            row = run(argv, env, seconds)
            rows[label].append(row)
            wall, user, system, rss, threads = row
            print(f"  {label}: wall {wall:.2f} s, user {user*1000:.0f} ms, system {system*1000:.0f} ms, "
                  f"CPU {(user+system)/wall*100:.2f} %, {threads} threads, max RSS {rss/1024:.1f} MiB", flush=True)
    json.dump(rows, open(out, "w"))


main()
