/*
 * A game's sound effects through System Sound Services, as a macOS engine's audio driver
 * plays its interface sounds: one SystemSoundID per file, made once at start, played with a
 * completion on the main run loop, disposed of at exit.
 *
 * Usage: system_sounds play FILE [COUNT]   plays FILE COUNT times at once (default 1), runs the
 *                                          main run loop until every completion has come, then
 *                                          half a second more; prints "completions=N"
 *        system_sounds misuse FILE LONGFILE  the result codes of misuse; prints "N passed, F failed"
 *        system_sounds blocks FILE        (built with blocks) plays FILE and an alert with completion
 *                                          blocks; prints "blocks=N" once both have run, and
 *                                          half a second later
 */
#define _DEFAULT_SOURCE 1 /* usleep with -std=c11 */
#include <AudioToolbox/AudioToolbox.h>
#include <pthread.h>
#include <unistd.h>
#if defined(__BLOCKS__)
#include <stdatomic.h>
#endif

static int completions;
static int wrongThread;
static int wrongData;
static pthread_t mainThread;
static SystemSoundID effect;

static void effectDone(SystemSoundID ssID, void *clientData) {
    if (!pthread_equal(pthread_self(), mainThread)) wrongThread++;
    if (ssID != effect || clientData != &effect) wrongData++;
    completions++;
}

static CFURLRef urlFor(const char *path) {
    return CFURLCreateFromFileSystemRepresentation(kCFAllocatorDefault, (const UInt8 *)path, (CFIndex)strlen(path), false);
}

static int play(const char *path, int count) {
    mainThread = pthread_self();
    CFURLRef url = urlFor(path);
    OSStatus err = AudioServicesCreateSystemSoundID(url, &effect);
    CFRelease(url);
    if (err != noErr) { printf("AudioServicesCreateSystemSoundID: %d\n", (int)err); return 1; }
    err = AudioServicesAddSystemSoundCompletion(effect, NULL, NULL, effectDone, &effect);
    if (err != noErr) { printf("AudioServicesAddSystemSoundCompletion: %d\n", (int)err); return 1; }
    for (int i = 0; i < count; i++) AudioServicesPlaySystemSound(effect);
    /* The engine's main loop: the completions come on the main run loop. */
    for (int spins = 0; completions < count && spins < 300; spins++) CFRunLoopRunInMode(kCFRunLoopDefaultMode, 0.1, false);
    CFRunLoopRunInMode(kCFRunLoopDefaultMode, 0.5, false);
    printf("completions=%d wrongThread=%d wrongData=%d\n", completions, wrongThread, wrongData);
    AudioServicesRemoveSystemSoundCompletion(effect);
    err = AudioServicesDisposeSystemSoundID(effect);
    if (err != noErr) { printf("AudioServicesDisposeSystemSoundID: %d\n", (int)err); return 1; }
    return 0;
}

static int passed, failed;
#define EXPECT(cond, ...) do { if (cond) passed++; else { failed++; printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); printf("\n"); } } while (0)
#define EXPECT_STATUS(call, expected) do { OSStatus s_ = (call); EXPECT(s_ == (OSStatus)(expected), "%s = %d, expected %s = %d", #call, (int)s_, #expected, (int)(expected)); } while (0)

static void neverCalled(SystemSoundID ssID, void *clientData) { (void)ssID; (void)clientData; }

static int misuse(const char *path, const char *longPath) {
    SystemSoundID sound = 0;
    EXPECT_STATUS(AudioServicesCreateSystemSoundID(NULL, &sound), kAudio_ParamError);
    CFURLRef url = urlFor(path);
    EXPECT_STATUS(AudioServicesCreateSystemSoundID(url, NULL), kAudio_ParamError);
    CFURLRef missing = urlFor("/nonexistent/sound.wav");
    EXPECT_STATUS(AudioServicesCreateSystemSoundID(missing, &sound), kAudioServicesSystemSoundUnspecifiedError);
    CFRelease(missing);
    CFURLRef notAudio = urlFor("/proc/self/status");
    EXPECT_STATUS(AudioServicesCreateSystemSoundID(notAudio, &sound), kAudioServicesSystemSoundUnspecifiedError);
    CFRelease(notAudio);
    CFURLRef tooLong = urlFor(longPath);
    EXPECT_STATUS(AudioServicesCreateSystemSoundID(tooLong, &sound), kAudioServicesSystemSoundExceededMaximumDurationError);
    CFRelease(tooLong);

    EXPECT_STATUS(AudioServicesCreateSystemSoundID(url, &sound), noErr);
    CFRelease(url);
    EXPECT(sound > kSystemSoundID_UserPreferredAlert, "a new ID (%u)", (unsigned)sound);

    /* Properties. */
    UInt32 value = 7, size = sizeof value;
    Boolean writable = false;
    EXPECT_STATUS(AudioServicesGetPropertyInfo(kAudioServicesPropertyIsUISound, sizeof sound, &sound, &size, &writable), noErr);
    EXPECT(size == 4 && writable, "info: size %u, writable %d", (unsigned)size, (int)writable);
    size = sizeof value;
    EXPECT_STATUS(AudioServicesGetProperty(kAudioServicesPropertyIsUISound, sizeof sound, &sound, &size, &value), noErr);
    EXPECT(value == 1, "a UI sound by default");
    size = sizeof value;
    EXPECT_STATUS(AudioServicesGetProperty(kAudioServicesPropertyCompletePlaybackIfAppDies, sizeof sound, &sound, &size, &value), noErr);
    EXPECT(value == 0, "not completed when the application dies by default");
    value = 0;
    EXPECT_STATUS(AudioServicesSetProperty(kAudioServicesPropertyIsUISound, sizeof sound, &sound, sizeof value, &value), noErr);
    value = 9, size = sizeof value;
    EXPECT_STATUS(AudioServicesGetProperty(kAudioServicesPropertyIsUISound, sizeof sound, &sound, &size, &value), noErr);
    EXPECT(value == 0, "set");
    size = 0;
    EXPECT_STATUS(AudioServicesGetProperty(kAudioServicesPropertyIsUISound, sizeof sound, &sound, &size, NULL), noErr);
    EXPECT(size == 4, "size only");
    EXPECT_STATUS(AudioServicesGetProperty(0x61626364, sizeof sound, &sound, &size, &value), kAudioServicesUnsupportedPropertyError);
    EXPECT_STATUS(AudioServicesSetProperty(0x61626364, sizeof sound, &sound, sizeof value, &value), kAudioServicesUnsupportedPropertyError);
    EXPECT_STATUS(AudioServicesGetPropertyInfo(0x61626364, sizeof sound, &sound, NULL, NULL), kAudioServicesUnsupportedPropertyError);
    size = 2;
    EXPECT_STATUS(AudioServicesGetProperty(kAudioServicesPropertyIsUISound, sizeof sound, &sound, &size, &value), kAudioServicesBadPropertySizeError);
    EXPECT_STATUS(AudioServicesSetProperty(kAudioServicesPropertyIsUISound, sizeof sound, &sound, 2, &value), kAudioServicesBadPropertySizeError);
    size = sizeof value;
    EXPECT_STATUS(AudioServicesGetProperty(kAudioServicesPropertyIsUISound, 2, &sound, &size, &value), kAudioServicesBadSpecifierSizeError);
    EXPECT_STATUS(AudioServicesGetProperty(kAudioServicesPropertyIsUISound, sizeof sound, NULL, &size, &value), kAudioServicesBadSpecifierSizeError);
    SystemSoundID unknown = sound + 1000;
    EXPECT_STATUS(AudioServicesGetProperty(kAudioServicesPropertyIsUISound, sizeof unknown, &unknown, &size, &value),
                  kAudioServicesSystemSoundUnspecifiedError);

    /* Completions. */
    EXPECT_STATUS(AudioServicesAddSystemSoundCompletion(sound, NULL, NULL, NULL, NULL), kAudio_ParamError);
    EXPECT_STATUS(AudioServicesAddSystemSoundCompletion(unknown, NULL, NULL, neverCalled, NULL), kAudioServicesSystemSoundUnspecifiedError);
    AudioServicesRemoveSystemSoundCompletion(unknown);

    /* Playing what is not a sound does nothing. */
    AudioServicesPlaySystemSound(unknown);
    AudioServicesPlayAlertSound(kSystemSoundID_UserPreferredAlert);
    AudioServicesPlaySystemSound(kSystemSoundID_Vibrate);

    EXPECT_STATUS(AudioServicesDisposeSystemSoundID(sound), noErr);
    EXPECT_STATUS(AudioServicesDisposeSystemSoundID(sound), kAudioServicesSystemSoundUnspecifiedError);
    EXPECT_STATUS(AudioServicesGetProperty(kAudioServicesPropertyIsUISound, sizeof sound, &sound, &size, &value),
                  kAudioServicesSystemSoundUnspecifiedError);
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}

#if defined(__BLOCKS__)
static int blocks(const char *path) {
    CFURLRef url = urlFor(path);
    SystemSoundID sound;
    OSStatus err = AudioServicesCreateSystemSoundID(url, &sound);
    CFRelease(url);
    if (err != noErr) { printf("AudioServicesCreateSystemSoundID: %d\n", (int)err); return 1; }
    __block atomic_int done = 0;
    AudioServicesPlaySystemSoundWithCompletion(sound, ^{ atomic_fetch_add(&done, 1); });
    /* No alert sound to play: the block runs all the same. */
    AudioServicesPlayAlertSoundWithCompletion(kSystemSoundID_UserPreferredAlert, ^{ atomic_fetch_add(&done, 1); });
    for (int i = 0; i < 3000 && atomic_load(&done) < 2; i++) usleep(10000);
    printf("blocks=%d\n", atomic_load(&done));
    usleep(500000);
    printf("blocks=%d\n", atomic_load(&done));
    AudioServicesDisposeSystemSoundID(sound);
    return 0;
}
#endif

int main(int argc, char **argv) {
#if defined(__BLOCKS__)
    if (argc >= 3 && !strcmp(argv[1], "blocks")) return blocks(argv[2]);
#endif
    if (argc >= 3 && !strcmp(argv[1], "play")) return play(argv[2], argc > 3 ? atoi(argv[3]) : 1);
    if (argc >= 4 && !strcmp(argv[1], "misuse")) return misuse(argv[2], argv[3]);
    fprintf(stderr, "usage: %s play FILE [COUNT] | misuse FILE LONGFILE\n", argv[0]);
    return 2;
}
