# Shared by Benchmarks/run and Benchmarks/playback: the 10-minute ADTS file both use, and the
# release aqplay both time. Source it after setting $data and $here; it defines make_long_aac
# and build_aqplay.

# make_long_aac PATH: 10 minutes of stereo 44.1 kHz pink noise with a steady tone in each
# channel, encoded by ffmpeg's aac encoder at 128 kb/s into ADTS; made once.
make_long_aac() {
    local aac="$1"
    [ -s "$aac" ] && return 0
    printf '\n== making %s (10 min stereo 44.1 kHz, ffmpeg aac 128 kb/s, ADTS)\n' "$aac"
    # Two independent pink-noise channels, each with a steady tone under it.
    ffmpeg -nostdin -v error -y -filter_complex "\
anoisesrc=color=pink:sample_rate=44100:amplitude=0.2:seed=1:duration=600[l];\
anoisesrc=color=pink:sample_rate=44100:amplitude=0.2:seed=2:duration=600[r];\
sine=frequency=220:sample_rate=44100:duration=600[s1];\
sine=frequency=330:sample_rate=44100:duration=600[s2];\
[l][s1]amix=inputs=2[lm];[r][s2]amix=inputs=2[rm];\
[lm][rm]join=inputs=2:channel_layout=stereo[out]" \
        -map "[out]" -c:a aac -b:a 128k -f adts "$aac.tmp"
    mv "$aac.tmp" "$aac"
}

# build_aqplay ROOT: builds aqplay (release) into $here/.build/aqplay and sets $aqplay.
#
# aqplay imports AudioQueueKit, which re-exports AudioQueueServices and the rest. SwiftPM's
# incremental build does not recompile a client through such a re-export when a type there only
# gains or loses private stored properties (swiftlang/swift#89636), and the stale aqplay then
# allocates AudioQueue with the old size and corrupts the heap. So aqplay gets a build directory
# of its own here, and its own objects are recompiled on every run (a few seconds).
build_aqplay() {
    local root="$1"
    local build="$here/.build/aqplay"
    printf '\n== building aqplay (release) into %s\n' "$build"
    rm -rf "$build/release/aqplay.build"
    swift build --package-path "$root" -c release --product aqplay --scratch-path "$build"
    aqplay="$build/release/aqplay"
}
