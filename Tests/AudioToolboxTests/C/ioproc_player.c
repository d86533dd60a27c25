/*
 * A player and recorder that drive a device directly with IOProcs, the way small Mac audio
 * tools and libraries' CoreAudio back ends do (no queue, no audio unit): find the device, ask
 * its nominal rate, buffer frame size and stream configuration, register an IOProc, start,
 * fill outOutputData (or read inInputData) in each cycle, and stop from inside the IOProc when
 * done. Run by IOProcTests.swift:
 *   ioproc_player play UID FRAMES REF.raw [mix]
 *       plays FRAMES frames of a deterministic noise signal through the device UID names
 *       ("default": the default output) at its nominal rate and channel count; with "mix", a
 *       second IOProc (registered the old way, AudioDeviceAddIOProc, and started by the first
 *       from inside its first cycle) plays a second signal beside it. Writes what the device should have played (the sum) to REF.raw as
 *       interleaved Float32, and prints "rate R channels C frames N", "timestamps ok" (or what
 *       was wrong with them), "stopped".
 *   ioproc_player record UID SECONDS OUT.raw
 *       records SECONDS from the input device UID names through an input IOProc into OUT.raw
 *       (interleaved Float32 at the device's rate); prints "rate R channels C" and
 *       "timestamps ok".
 *   ioproc_player misuse UID
 *       prints "name status" for each call made wrong, and "running N" lines.
 *   ioproc_player startattime UID
 *       starts the device, then an IOProc with AudioDeviceStartAtTime about a second ahead;
 *       prints the time asked for, the time returned and the first cycle's output time.
 */
#define _DEFAULT_SOURCE 1
#include <CoreAudio/CoreAudio.h>
#include <CoreFoundation/CoreFoundation.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_CYCLES 4096

typedef struct {
    AudioDeviceID device;
    AudioDeviceIOProcID procID;
    Float32 *signal;        /* interleaved */
    UInt32 channels;
    UInt32 frames;          /* of the signal */
    UInt32 position;
    UInt32 bufferFrames;
    volatile int done;
    /* What each cycle was given. */
    UInt32 cycles;
    Float64 nowSample[MAX_CYCLES], inputSample[MAX_CYCLES], outputSample[MAX_CYCLES];
    UInt64 nowHost[MAX_CYCLES], outputHost[MAX_CYCLES];
    UInt32 nowFlags[MAX_CYCLES], outputFlags[MAX_CYCLES], inputFlags[MAX_CYCLES];
    UInt32 badBuffers;
    OSStatus currentTimeStatus;
    int startSecond;        /* "mix": start the second IOProc from inside the first cycle */
} Player;

static AudioDeviceID deviceForUID(const char *uid, AudioObjectPropertySelector defaultSelector) {
    AudioDeviceID device = kAudioObjectUnknown;
    UInt32 size = sizeof(device);
    if (strcmp(uid, "default") == 0) {
        AudioObjectPropertyAddress address = { defaultSelector, kAudioObjectPropertyScopeGlobal, kAudioObjectPropertyElementMain };
        AudioObjectGetPropertyData(kAudioObjectSystemObject, &address, 0, NULL, &size, &device);
        return device;
    }
    CFStringRef name = CFStringCreateWithCString(NULL, uid, kCFStringEncodingUTF8);
    AudioObjectPropertyAddress address = { kAudioHardwarePropertyTranslateUIDToDevice, kAudioObjectPropertyScopeGlobal,
                                           kAudioObjectPropertyElementMain };
    AudioObjectGetPropertyData(kAudioObjectSystemObject, &address, sizeof(name), &name, &size, &device);
    CFRelease(name);
    return device;
}

static UInt32 channelsIn(AudioDeviceID device, AudioObjectPropertyScope scope) {
    AudioObjectPropertyAddress address = { kAudioDevicePropertyStreamConfiguration, scope, kAudioObjectPropertyElementMain };
    UInt32 size = 0;
    if (AudioObjectGetPropertyDataSize(device, &address, 0, NULL, &size) != noErr) return 0;
    AudioBufferList *list = malloc(size);
    UInt32 total = 0;
    if (AudioObjectGetPropertyData(device, &address, 0, NULL, &size, list) == noErr) {
        for (UInt32 i = 0; i < list->mNumberBuffers; i++) total += list->mBuffers[i].mNumberChannels;
    }
    free(list);
    return total;
}

static UInt32 isRunning(AudioDeviceID device) {
    AudioObjectPropertyAddress address = { kAudioDevicePropertyDeviceIsRunning, kAudioObjectPropertyScopeGlobal,
                                           kAudioObjectPropertyElementMain };
    UInt32 running = 0, size = sizeof(running);
    AudioObjectGetPropertyData(device, &address, 0, NULL, &size, &running);
    return running;
}

/* A deterministic noise signal: a linear congruential generator, in steps of 1/32768. */
static void makeNoise(Float32 *out, UInt32 count, UInt32 seed) {
    UInt32 x = seed;
    for (UInt32 i = 0; i < count; i++) {
        x = x * 1664525u + 1013904223u;
        out[i] = (Float32)((SInt32)(x >> 16) - 32768) / 65536.0f;
    }
}

static OSStatus secondProc(AudioObjectID inDevice, const AudioTimeStamp *inNow, const AudioBufferList *inInputData,
                           const AudioTimeStamp *inInputTime, AudioBufferList *outOutputData, const AudioTimeStamp *inOutputTime,
                           void *inClientData);

static void note(Player *p, const AudioTimeStamp *inNow, const AudioTimeStamp *inInputTime, const AudioTimeStamp *inOutputTime) {
    if (p->cycles >= MAX_CYCLES) return;
    UInt32 c = p->cycles++;
    p->nowSample[c] = inNow->mSampleTime;
    p->nowHost[c] = inNow->mHostTime;
    p->nowFlags[c] = inNow->mFlags;
    p->inputSample[c] = inInputTime->mSampleTime;
    p->inputFlags[c] = inInputTime->mFlags;
    p->outputSample[c] = inOutputTime->mSampleTime;
    p->outputHost[c] = inOutputTime->mHostTime;
    p->outputFlags[c] = inOutputTime->mFlags;
    AudioTimeStamp current;
    OSStatus status = AudioDeviceGetCurrentTime(p->device, &current);
    if (status != noErr) p->currentTimeStatus = status;
}

static OSStatus playProc(AudioObjectID inDevice, const AudioTimeStamp *inNow, const AudioBufferList *inInputData,
                         const AudioTimeStamp *inInputTime, AudioBufferList *outOutputData, const AudioTimeStamp *inOutputTime,
                         void *inClientData) {
    Player *p = (Player *)inClientData;
    (void)inInputData;
    if (p->done) {
        p->badBuffers++; /* called after it stopped itself */
        return noErr;
    }
    note(p, inNow, inInputTime, inOutputTime);
    if (p->startSecond && p->cycles == 1 && AudioDeviceStart(inDevice, secondProc) != noErr) p->badBuffers++;
    if (inDevice != p->device || outOutputData->mNumberBuffers != 1 || outOutputData->mBuffers[0].mNumberChannels != p->channels
        || outOutputData->mBuffers[0].mDataByteSize != p->bufferFrames * p->channels * sizeof(Float32)) {
        p->badBuffers++;
        return noErr;
    }
    Float32 *out = (Float32 *)outOutputData->mBuffers[0].mData;
    UInt32 n = p->frames - p->position;
    if (n > p->bufferFrames) n = p->bufferFrames;
    memcpy(out, p->signal + (size_t)p->position * p->channels, (size_t)n * p->channels * sizeof(Float32));
    p->position += n;
    if (p->position == p->frames) {
        p->done = 1;
        AudioDeviceStop(inDevice, p->procID);
    }
    return noErr;
}

/* The second signal of "mix", through an IOProc registered before 10.5's way. */
static Player second;

static OSStatus secondProc(AudioObjectID inDevice, const AudioTimeStamp *inNow, const AudioBufferList *inInputData,
                           const AudioTimeStamp *inInputTime, AudioBufferList *outOutputData, const AudioTimeStamp *inOutputTime,
                           void *inClientData) {
    Player *p = (Player *)inClientData;
    (void)inDevice; (void)inNow; (void)inInputData; (void)inInputTime; (void)inOutputTime;
    if (p->done) return noErr;
    Float32 *out = (Float32 *)outOutputData->mBuffers[0].mData;
    UInt32 n = p->frames - p->position;
    if (n > p->bufferFrames) n = p->bufferFrames;
    memcpy(out, p->signal + (size_t)p->position * p->channels, (size_t)n * p->channels * sizeof(Float32));
    p->position += n;
    if (p->position == p->frames) {
        p->done = 1;
        AudioDeviceStop(p->device, secondProc);
    }
    return noErr;
}

static OSStatus recordProc(AudioObjectID inDevice, const AudioTimeStamp *inNow, const AudioBufferList *inInputData,
                           const AudioTimeStamp *inInputTime, AudioBufferList *outOutputData, const AudioTimeStamp *inOutputTime,
                           void *inClientData) {
    Player *p = (Player *)inClientData;
    (void)inDevice; (void)outOutputData;
    if (p->done) return noErr;
    note(p, inNow, inInputTime, inOutputTime);
    if (inInputData->mNumberBuffers != 1 || inInputData->mBuffers[0].mNumberChannels != p->channels
        || inInputData->mBuffers[0].mDataByteSize != p->bufferFrames * p->channels * sizeof(Float32)) {
        p->badBuffers++;
        return noErr;
    }
    UInt32 n = p->frames - p->position;
    if (n > p->bufferFrames) n = p->bufferFrames;
    memcpy(p->signal + (size_t)p->position * p->channels, inInputData->mBuffers[0].mData, (size_t)n * p->channels * sizeof(Float32));
    p->position += n;
    if (p->position == p->frames) {
        p->done = 1;
        AudioDeviceStop(inDevice, p->procID);
    }
    return noErr;
}

/* Checks what the cycles were given: sample times a buffer apart, host times rising, flags. */
static void checkTimestamps(const Player *p, int input) {
    int ok = p->cycles > 2 && p->badBuffers == 0 && p->currentTimeStatus == noErr;
    UInt32 valid = kAudioTimeStampSampleTimeValid | kAudioTimeStampHostTimeValid;
    for (UInt32 c = 0; c < p->cycles; c++) {
        if ((p->nowFlags[c] & valid) != valid || (p->outputFlags[c] & valid) != valid || (p->inputFlags[c] & valid) != valid) {
            printf("cycle %u: flags %u %u %u\n", c, p->nowFlags[c], p->inputFlags[c], p->outputFlags[c]);
            ok = 0;
        }
        if (input ? p->inputSample[c] >= p->nowSample[c] : p->outputSample[c] <= p->nowSample[c]) {
            printf("cycle %u: now %.0f input %.0f output %.0f\n", c, p->nowSample[c], p->inputSample[c], p->outputSample[c]);
            ok = 0;
        }
        if (c == 0) continue;
        if (p->nowSample[c] - p->nowSample[c - 1] != p->bufferFrames || p->outputSample[c] - p->outputSample[c - 1] != p->bufferFrames
            || p->inputSample[c] - p->inputSample[c - 1] != p->bufferFrames) {
            printf("cycle %u: sample time %.0f after %.0f\n", c, p->nowSample[c], p->nowSample[c - 1]);
            ok = 0;
        }
        if (p->nowHost[c] <= p->nowHost[c - 1] || p->outputHost[c] <= p->outputHost[c - 1]) {
            printf("cycle %u: host time %llu after %llu\n", c, (unsigned long long)p->nowHost[c], (unsigned long long)p->nowHost[c - 1]);
            ok = 0;
        }
    }
    if (p->badBuffers) printf("%u cycles with unexpected buffers\n", p->badBuffers);
    if (p->currentTimeStatus) printf("AudioDeviceGetCurrentTime in the IOProc: %d\n", (int)p->currentTimeStatus);
    printf("cycles %u\n", p->cycles);
    if (ok) printf("timestamps ok\n");
}

static int setUp(Player *p, const char *uid, AudioObjectPropertySelector defaultSelector, AudioObjectPropertyScope scope, Float64 *rate) {
    memset(p, 0, sizeof(*p));
    p->device = deviceForUID(uid, defaultSelector);
    if (p->device == kAudioObjectUnknown) {
        printf("no device %s\n", uid);
        return 0;
    }
    AudioObjectPropertyAddress address = { kAudioDevicePropertyNominalSampleRate, kAudioObjectPropertyScopeGlobal,
                                           kAudioObjectPropertyElementMain };
    UInt32 size = sizeof(*rate);
    if (AudioObjectGetPropertyData(p->device, &address, 0, NULL, &size, rate) != noErr) return 0;
    address.mSelector = kAudioDevicePropertyBufferFrameSize;
    size = sizeof(p->bufferFrames);
    if (AudioObjectGetPropertyData(p->device, &address, 0, NULL, &size, &p->bufferFrames) != noErr) return 0;
    p->channels = channelsIn(p->device, scope);
    return p->channels > 0;
}

static int waitUntilStopped(AudioDeviceID device) {
    for (int i = 0; i < 3000; i++) {
        if (!isRunning(device)) return 1;
        usleep(10000);
    }
    return 0;
}

static int play(const char *uid, UInt32 frames, const char *refPath, int mix) {
    static Player p;
    Float64 rate = 0;
    if (!setUp(&p, uid, kAudioHardwarePropertyDefaultOutputDevice, kAudioObjectPropertyScopeOutput, &rate)) return 1;
    p.frames = frames;
    p.signal = malloc((size_t)frames * p.channels * sizeof(Float32));
    makeNoise(p.signal, frames * p.channels, 12345);
    printf("rate %.0f channels %u frames %u\n", rate, p.channels, frames);

    OSStatus status = AudioDeviceCreateIOProcID(p.device, playProc, &p, &p.procID);
    if (status != noErr) {
        printf("AudioDeviceCreateIOProcID: %d\n", (int)status);
        return 1;
    }
    if (mix) {
        second = p;
        second.signal = malloc((size_t)frames * p.channels * sizeof(Float32));
        makeNoise(second.signal, frames * p.channels, 54321);
        second.frames = frames / 2;
        status = AudioDeviceAddIOProc(p.device, secondProc, &second);
        p.startSecond = 1;
        if (status != noErr) {
            printf("second IOProc: %d\n", (int)status);
            return 1;
        }
    }
    status = AudioDeviceStart(p.device, p.procID);
    if (status != noErr) {
        printf("AudioDeviceStart: %d\n", (int)status);
        return 1;
    }
    if (!waitUntilStopped(p.device)) {
        printf("still running\n");
        return 1;
    }
    printf("stopped\n");
    usleep(100000); /* no cycle calls it after its stop */
    checkTimestamps(&p, 0);
    AudioDeviceDestroyIOProcID(p.device, p.procID);
    if (mix) AudioDeviceRemoveIOProc(p.device, secondProc);

    /* What should have played: the first signal, plus the second from the second cycle on (an
       IOProc started inside a cycle is first called in the next), for half the first's length:
       the HAL sums the IOProcs' outputs. */
    FILE *f = fopen(refPath, "wb");
    if (!f) return 1;
    if (mix) {
        size_t offset = (size_t)p.bufferFrames * p.channels;
        for (UInt32 i = 0; i < second.frames * p.channels; i++) p.signal[offset + i] += second.signal[i];
    }
    fwrite(p.signal, sizeof(Float32), (size_t)frames * p.channels, f);
    fclose(f);
    return 0;
}

static int record(const char *uid, double seconds, const char *outPath) {
    static Player p;
    Float64 rate = 0;
    if (!setUp(&p, uid, kAudioHardwarePropertyDefaultInputDevice, kAudioObjectPropertyScopeInput, &rate)) return 1;
    p.frames = (UInt32)(seconds * rate);
    p.signal = calloc((size_t)p.frames * p.channels, sizeof(Float32));
    printf("rate %.0f channels %u\n", rate, p.channels);
    OSStatus status = AudioDeviceCreateIOProcID(p.device, recordProc, &p, &p.procID);
    if (status == noErr) status = AudioDeviceStart(p.device, p.procID);
    if (status != noErr) {
        printf("start: %d\n", (int)status);
        return 1;
    }
    fflush(stdout);
    if (!waitUntilStopped(p.device)) {
        printf("still running\n");
        return 1;
    }
    checkTimestamps(&p, 1);
    AudioDeviceDestroyIOProcID(p.device, p.procID);
    FILE *f = fopen(outPath, "wb");
    if (!f) return 1;
    fwrite(p.signal, sizeof(Float32), (size_t)p.position * p.channels, f);
    fclose(f);
    return 0;
}

static OSStatus silentProc(AudioObjectID inDevice, const AudioTimeStamp *inNow, const AudioBufferList *inInputData,
                           const AudioTimeStamp *inInputTime, AudioBufferList *outOutputData, const AudioTimeStamp *inOutputTime,
                           void *inClientData) {
    (void)inDevice; (void)inNow; (void)inInputData; (void)inInputTime; (void)outOutputData; (void)inOutputTime; (void)inClientData;
    return noErr;
}

static int misuse(const char *uid) {
    AudioDeviceID device = deviceForUID(uid, kAudioHardwarePropertyDefaultOutputDevice);
    AudioDeviceIOProcID procID = NULL, unknown = NULL;
    AudioTimeStamp time;
    memset(&time, 0, sizeof(time));
    printf("create-bad-device %d\n", (int)AudioDeviceCreateIOProcID(12345678, silentProc, NULL, &procID));
    printf("create-system-object %d\n", (int)AudioDeviceCreateIOProcID(kAudioObjectSystemObject, silentProc, NULL, &procID));
    printf("create-null-proc %d\n", (int)AudioDeviceCreateIOProcID(device, NULL, NULL, &procID));
    printf("create-null-out %d\n", (int)AudioDeviceCreateIOProcID(device, silentProc, NULL, NULL));
    printf("start-bad-device %d\n", (int)AudioDeviceStart(12345678, NULL));
    printf("stop-bad-device %d\n", (int)AudioDeviceStop(12345678, NULL));
    printf("current-time-bad-device %d\n", (int)AudioDeviceGetCurrentTime(12345678, &time));
    printf("current-time-stopped %d\n", (int)AudioDeviceGetCurrentTime(device, &time));
    printf("add-null-proc %d\n", (int)AudioDeviceAddIOProc(device, NULL, NULL));
    printf("remove-unknown %d\n", (int)AudioDeviceRemoveIOProc(device, silentProc));

    printf("create %d\n", (int)AudioDeviceCreateIOProcID(device, silentProc, NULL, &unknown));
    printf("destroy %d\n", (int)AudioDeviceDestroyIOProcID(device, unknown));
    /* unknown is now an ID the device does not know. */
    printf("start-unknown %d\n", (int)AudioDeviceStart(device, unknown));
    printf("stop-unknown %d\n", (int)AudioDeviceStop(device, unknown));
    printf("destroy-unknown %d\n", (int)AudioDeviceDestroyIOProcID(device, unknown));
    printf("start-at-time-null %d\n", (int)AudioDeviceStartAtTime(device, NULL, NULL, 0));
    printf("running %u\n", isRunning(device));

    printf("start-device %d\n", (int)AudioDeviceStart(device, NULL));
    printf("running %u\n", isRunning(device));
    usleep(100000);
    printf("current-time-running %d\n", (int)AudioDeviceGetCurrentTime(device, &time));
    printf("current-time-flags %u\n", time.mFlags);
    printf("stop-device %d\n", (int)AudioDeviceStop(device, NULL));
    printf("running %u\n", isRunning(device));

    printf("create %d\n", (int)AudioDeviceCreateIOProcID(device, silentProc, NULL, &procID));
    printf("start %d\n", (int)AudioDeviceStart(device, procID));
    printf("running %u\n", isRunning(device));
    /* Destroying a running IOProc stops it. */
    printf("destroy-running %d\n", (int)AudioDeviceDestroyIOProcID(device, procID));
    printf("running %u\n", isRunning(device));
    return 0;
}

static volatile Float64 firstOutputSample = -1;

static OSStatus timedProc(AudioObjectID inDevice, const AudioTimeStamp *inNow, const AudioBufferList *inInputData,
                          const AudioTimeStamp *inInputTime, AudioBufferList *outOutputData, const AudioTimeStamp *inOutputTime,
                          void *inClientData) {
    (void)inDevice; (void)inNow; (void)inInputData; (void)inInputTime; (void)outOutputData; (void)inClientData;
    if (firstOutputSample < 0) firstOutputSample = inOutputTime->mSampleTime;
    return noErr;
}

static int startAtTime(const char *uid) {
    AudioDeviceID device = deviceForUID(uid, kAudioHardwarePropertyDefaultOutputDevice);
    AudioDeviceIOProcID procID = NULL;
    UInt32 frames = 0, size = sizeof(frames);
    AudioObjectPropertyAddress address = { kAudioDevicePropertyBufferFrameSize, kAudioObjectPropertyScopeGlobal,
                                           kAudioObjectPropertyElementMain };
    AudioObjectGetPropertyData(device, &address, 0, NULL, &size, &frames);
    if (AudioDeviceCreateIOProcID(device, timedProc, NULL, &procID) != noErr || AudioDeviceStart(device, NULL) != noErr) return 1;
    usleep(50000);
    AudioTimeStamp now, requested, nearest;
    memset(&requested, 0, sizeof(requested));
    OSStatus status = AudioDeviceGetCurrentTime(device, &now);
    requested.mSampleTime = now.mSampleTime + 100.0 * frames + 100;
    requested.mFlags = kAudioTimeStampSampleTimeValid;
    nearest = requested;
    if (status == noErr) status = AudioDeviceGetNearestStartTime(device, &nearest, 0);
    Float64 asked = requested.mSampleTime;
    if (status == noErr) status = AudioDeviceStartAtTime(device, procID, &requested, 0);
    printf("status %d\n", (int)status);
    printf("buffer %u asked %.0f nearest %.0f returned %.0f flags %u\n", frames, asked, nearest.mSampleTime, requested.mSampleTime,
           (unsigned)requested.mFlags);
    for (int i = 0; i < 2000 && firstOutputSample < 0; i++) usleep(10000);
    printf("first-output %.0f\n", firstOutputSample);
    AudioDeviceDestroyIOProcID(device, procID);
    AudioDeviceStop(device, NULL);
    return 0;
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc >= 5 && strcmp(argv[1], "play") == 0) return play(argv[2], (UInt32)atoi(argv[3]), argv[4], argc > 5 && strcmp(argv[5], "mix") == 0);
    if (argc >= 5 && strcmp(argv[1], "record") == 0) return record(argv[2], atof(argv[3]), argv[4]);
    if (argc >= 3 && strcmp(argv[1], "misuse") == 0) return misuse(argv[2]);
    if (argc >= 3 && strcmp(argv[1], "startattime") == 0) return startAtTime(argv[2]);
    fprintf(stderr, "usage: ioproc_player play UID FRAMES REF.raw [mix] | record UID SECONDS OUT.raw | misuse UID\n");
    return 2;
}
