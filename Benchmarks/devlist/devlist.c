/* Benchmarks/devlist/devlist.c: the CPU time of the HAL's first device listing in a fresh
 * process. Lists the devices (kAudioHardwarePropertyDevices) ROUNDS times (default 3), timing
 * each call with getrusage (user + system, every thread of the process), and prints one line
 * per call: "listing N cpu_ms devices"; then reads what a device menu shows of each device
 * (name, UID, output and input stream configurations, nominal rate) and the default output,
 * timed the same way: "menu cpu_ms devices"; then the names of the devices listed. */
#include <AudioToolbox/AudioToolbox.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

static double cpu_seconds(void) {
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (double)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + (double)(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

static void print_name(AudioObjectID device) {
    AudioObjectPropertyAddress a = {kAudioObjectPropertyName, kAudioObjectPropertyScopeGlobal, kAudioObjectPropertyElementMain};
    CFStringRef name = NULL;
    UInt32 size = sizeof(name);
    char text[256] = "?";
    if (AudioObjectGetPropertyData(device, &a, 0, NULL, &size, &name) == noErr && name != NULL) {
        CFStringGetCString(name, text, sizeof text, kCFStringEncodingUTF8);
        CFRelease(name);
    }
    printf("device %u %s\n", (unsigned)device, text);
}

int main(int argc, char **argv) {
    int rounds = argc > 1 ? atoi(argv[1]) : 3;
    AudioObjectPropertyAddress a = {kAudioHardwarePropertyDevices, kAudioObjectPropertyScopeGlobal, kAudioObjectPropertyElementMain};
    AudioObjectID first[256];
    UInt32 firstCount = 0;
    for (int i = 0; i < rounds; i++) {
        AudioObjectID ids[256];
        UInt32 size = sizeof ids;
        double before = cpu_seconds();
        OSStatus status = AudioObjectGetPropertyData(kAudioObjectSystemObject, &a, 0, NULL, &size, ids);
        double after = cpu_seconds();
        if (status != noErr) {
            fprintf(stderr, "devlist: kAudioHardwarePropertyDevices: %d\n", (int)status);
            return 1;
        }
        printf("listing %d %.3f %u\n", i + 1, (after - before) * 1000, (unsigned)(size / sizeof(AudioObjectID)));
        if (i == 0) {
            firstCount = size / sizeof(AudioObjectID);
            for (UInt32 k = 0; k < firstCount; k++) first[k] = ids[k];
        }
    }
    double before = cpu_seconds();
    for (UInt32 k = 0; k < firstCount; k++) {
        AudioObjectPropertyAddress p = {kAudioObjectPropertyName, kAudioObjectPropertyScopeGlobal, kAudioObjectPropertyElementMain};
        CFStringRef text = NULL;
        UInt32 size = sizeof(text);
        if (AudioObjectGetPropertyData(first[k], &p, 0, NULL, &size, &text) == noErr && text) CFRelease(text);
        p.mSelector = kAudioDevicePropertyDeviceUID;
        text = NULL;
        size = sizeof(text);
        if (AudioObjectGetPropertyData(first[k], &p, 0, NULL, &size, &text) == noErr && text) CFRelease(text);
        AudioObjectPropertyScope scopes[2] = {kAudioObjectPropertyScopeOutput, kAudioObjectPropertyScopeInput};
        for (int s = 0; s < 2; s++) {
            AudioObjectPropertyAddress c = {kAudioDevicePropertyStreamConfiguration, scopes[s], kAudioObjectPropertyElementMain};
            UInt32 listSize = 0;
            if (AudioObjectGetPropertyDataSize(first[k], &c, 0, NULL, &listSize) != noErr) continue;
            AudioBufferList *list = malloc(listSize);
            AudioObjectGetPropertyData(first[k], &c, 0, NULL, &listSize, list);
            free(list);
        }
        p.mSelector = kAudioDevicePropertyNominalSampleRate;
        Float64 rate = 0;
        size = sizeof(rate);
        AudioObjectGetPropertyData(first[k], &p, 0, NULL, &size, &rate);
    }
    AudioObjectPropertyAddress d = {kAudioHardwarePropertyDefaultOutputDevice, kAudioObjectPropertyScopeGlobal, kAudioObjectPropertyElementMain};
    AudioObjectID output = 0;
    UInt32 size = sizeof(output);
    AudioObjectGetPropertyData(kAudioObjectSystemObject, &d, 0, NULL, &size, &output);
    printf("menu %.3f %u\n", (cpu_seconds() - before) * 1000, (unsigned)firstCount);
    for (UInt32 k = 0; k < firstCount; k++) print_name(first[k]);
    return 0;
}
