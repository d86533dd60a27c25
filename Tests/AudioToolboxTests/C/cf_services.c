/*
 * The CoreFoundation services a game engine's macOS audio driver calls beside its audio: a
 * repeating update timer on its thread's run loop, notifications of device and volume changes
 * through the local and Darwin centres, settings read from preferences with defaults, and
 * resources looked up next to the executable through the main bundle.
 *
 * Usage: cf_services timer|notify|prefs|bundle|misuse. Prints "N passed, F failed".
 */
#define _DEFAULT_SOURCE 1 /* readlink with -std=c11 */
#include <AudioToolbox/AudioToolbox.h>
#include <CoreFoundation/CoreFoundation.h>
#include <pthread.h>
#include <unistd.h>

static int passed, failed;
#define EXPECT(cond, ...) do { if (cond) passed++; else { failed++; printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); printf("\n"); } } while (0)

/* ---- The driver's update timer ---- */

typedef struct {
    int fires;
    int stopAfter;
    CFAbsoluteTime lastFireDate;
    int fireDatesAdvanced;
    int wrongThread;
    pthread_t thread;
    int retains, releases;
} DriverState;

static const void *retainState(const void *info) { ((DriverState *)info)->retains++; return info; }
static void releaseState(const void *info) { ((DriverState *)info)->releases++; }

static void driverUpdate(CFRunLoopTimerRef timer, void *info) {
    DriverState *d = (DriverState *)info;
    if (!pthread_equal(pthread_self(), d->thread)) d->wrongThread++;
    d->fires++;
    CFAbsoluteTime next = CFRunLoopTimerGetNextFireDate(timer);
    if (next >= d->lastFireDate) d->fireDatesAdvanced++;
    d->lastFireDate = next;
    if (d->fires == d->stopAfter) CFRunLoopStop(CFRunLoopGetCurrent());
}

static void countFire(CFRunLoopTimerRef timer, void *info) { (void)timer; (*(int *)info)++; }

/* A timer that is always late: it moves its own date into the past each time. */
static void alwaysLate(CFRunLoopTimerRef timer, void *info) {
    (*(int *)info)++;
    CFRunLoopTimerSetNextFireDate(timer, CFAbsoluteTimeGetCurrent() - 1);
}

static void *timerThread(void *unused) {
    (void)unused;
    DriverState d = {0, 5, 0, 0, 0, pthread_self(), 0, 0};
    CFRunLoopTimerContext context = {0, &d, retainState, releaseState, NULL};
    CFAbsoluteTime start = CFAbsoluteTimeGetCurrent();
    CFRunLoopTimerRef timer = CFRunLoopTimerCreate(kCFAllocatorDefault, start + 0.01, 0.01, 0, 0, driverUpdate, &context);
    EXPECT(timer != NULL && CFGetTypeID(timer) == CFRunLoopTimerGetTypeID(), "CFRunLoopTimerCreate");
    EXPECT(d.retains == 1, "the context's info retained once (%d)", d.retains);
    EXPECT(CFRunLoopTimerGetInterval(timer) == 0.01 && CFRunLoopTimerDoesRepeat(timer) && CFRunLoopTimerIsValid(timer), "interval");
    EXPECT(CFRunLoopTimerGetNextFireDate(timer) == start + 0.01, "first fire date");
    CFRunLoopTimerContext got;
    CFRunLoopTimerGetContext(timer, &got);
    EXPECT(got.info == &d && got.release == releaseState, "context");
    CFRunLoopAddTimer(CFRunLoopGetCurrent(), timer, kCFRunLoopCommonModes);
    EXPECT(CFRunLoopContainsTimer(CFRunLoopGetCurrent(), timer, kCFRunLoopCommonModes), "contains");
    CFRelease(timer); /* the run loop holds it now */
    EXPECT(CFRunLoopGetNextTimerFireDate(CFRunLoopGetCurrent(), kCFRunLoopDefaultMode) == start + 0.01, "next timer fire date");
    CFRunLoopRun();
    EXPECT(d.fires == 5, "the timer stopped the run loop after 5 fires (%d)", d.fires);
    EXPECT(d.fireDatesAdvanced == 5, "the next fire date moves on each time (%d)", d.fireDatesAdvanced);
    EXPECT(d.wrongThread == 0, "fired on the run loop's thread");
    EXPECT(CFAbsoluteTimeGetCurrent() - start >= 0.05 - 0.001, "5 fires 10 ms apart take 50 ms at least");
    EXPECT(CFRunLoopTimerIsValid(timer) && d.releases == 0, "still valid");
    CFRunLoopTimerInvalidate(timer); /* frees it: the run loop held the last reference */
    EXPECT(d.releases == 1, "invalidating releases the info (%d)", d.releases);
    EXPECT(CFRunLoopGetNextTimerFireDate(CFRunLoopGetCurrent(), kCFRunLoopDefaultMode) == 0, "no timer left");
    /* With no timer left and nothing attached, a run of this thread's loop finishes at once. */
    EXPECT(CFRunLoopRunInMode(kCFRunLoopDefaultMode, 0.2, false) == kCFRunLoopRunFinished, "finished without sources");

    /* A one-shot timer fires once, then is invalid; the run then has nothing and finishes. */
    int shots = 0;
    CFRunLoopTimerContext shotContext = {0, &shots, NULL, NULL, NULL};
    CFRunLoopTimerRef shot = CFRunLoopTimerCreate(NULL, CFAbsoluteTimeGetCurrent() + 0.005, 0, 0, 0, countFire, &shotContext);
    CFRunLoopAddTimer(CFRunLoopGetCurrent(), shot, kCFRunLoopDefaultMode);
    CFRunLoopRunResult r = CFRunLoopRunInMode(kCFRunLoopDefaultMode, 10, false);
    EXPECT(shots == 1 && r == kCFRunLoopRunFinished, "one-shot: %d fires, result %d", shots, (int)r);
    EXPECT(!CFRunLoopTimerIsValid(shot) && !CFRunLoopTimerDoesRepeat(shot), "a one-shot timer is invalid once fired");
    CFRelease(shot);

    /* A timer in another mode waits until the loop runs in that mode. */
    CFStringRef mixing = CFSTR("com.example.engine.mixing");
    int modeFires = 0;
    CFRunLoopTimerContext modeContext = {0, &modeFires, NULL, NULL, NULL};
    CFRunLoopTimerRef modal = CFRunLoopTimerCreate(NULL, CFAbsoluteTimeGetCurrent(), 0.005, 0, 0, countFire, &modeContext);
    CFRunLoopAddTimer(CFRunLoopGetCurrent(), modal, mixing);
    EXPECT(!CFRunLoopContainsTimer(CFRunLoopGetCurrent(), modal, kCFRunLoopDefaultMode), "not in the default mode");
    r = CFRunLoopRunInMode(kCFRunLoopDefaultMode, 0.05, false);
    EXPECT(modeFires == 0 && r == kCFRunLoopRunFinished, "not fired in the default mode (%d, result %d)", modeFires, (int)r);
    r = CFRunLoopRunInMode(mixing, 0.05, false);
    EXPECT(modeFires >= 1 && r == kCFRunLoopRunTimedOut, "fired in its mode (%d, result %d)", modeFires, (int)r);

    /* Moved far ahead, it does not fire; moved back to now, it does. */
    CFRunLoopTimerSetNextFireDate(modal, CFAbsoluteTimeGetCurrent() + 3600);
    int before = modeFires;
    r = CFRunLoopRunInMode(mixing, 0.03, false);
    EXPECT(modeFires == before && r == kCFRunLoopRunTimedOut, "postponed (%d fires)", modeFires - before);
    CFRunLoopTimerSetNextFireDate(modal, CFAbsoluteTimeGetCurrent());
    r = CFRunLoopRunInMode(mixing, 0.03, false);
    EXPECT(modeFires > before, "fired once moved back");
    /* Removed from its mode, it stays valid but the loop no longer has it. */
    CFRunLoopRemoveTimer(CFRunLoopGetCurrent(), modal, mixing);
    EXPECT(!CFRunLoopContainsTimer(CFRunLoopGetCurrent(), modal, mixing) && CFRunLoopTimerIsValid(modal), "removed");
    before = modeFires;
    r = CFRunLoopRunInMode(mixing, 0.03, false);
    EXPECT(modeFires == before && r == kCFRunLoopRunFinished, "a removed timer does not fire");
    CFRunLoopTimerInvalidate(modal);
    CFRelease(modal);

    /* A timer that is always due still lets a run end when its time is up. */
    int lateFires = 0;
    CFRunLoopTimerContext lateContext = {0, &lateFires, NULL, NULL, NULL};
    CFRunLoopTimerRef late = CFRunLoopTimerCreate(NULL, 0, 1, 0, 0, alwaysLate, &lateContext);
    CFRunLoopAddTimer(CFRunLoopGetCurrent(), late, kCFRunLoopDefaultMode);
    r = CFRunLoopRunInMode(kCFRunLoopDefaultMode, 0.02, false);
    EXPECT(r == kCFRunLoopRunTimedOut && lateFires >= 1, "an always-late timer: result %d after %d fires", (int)r, lateFires);
    lateFires = 0;
    r = CFRunLoopRunInMode(kCFRunLoopDefaultMode, 0, false);
    EXPECT(r == kCFRunLoopRunTimedOut && lateFires == 1, "a run of no time fires a due timer once: %d", lateFires);
    CFRunLoopTimerInvalidate(late);
    CFRelease(late);
    return NULL;
}

static void timers(void) {
    pthread_t t;
    pthread_create(&t, NULL, timerThread, NULL);
    pthread_join(t, NULL);
}

/* ---- Notifications ---- */

typedef struct {
    int calls;
    CFStringRef lastName;
    const void *lastObject;
    CFDictionaryRef lastInfo;
    pthread_t lastThread;
} Observer;

static void observe(CFNotificationCenterRef center, void *observer, CFNotificationName name, const void *object,
                    CFDictionaryRef userInfo) {
    (void)center;
    Observer *o = (Observer *)observer;
    o->calls++;
    o->lastName = name;
    o->lastObject = object;
    o->lastInfo = userInfo;
    o->lastThread = pthread_self();
}

static void *postFromThread(void *arg) {
    CFNotificationCenterPostNotification(CFNotificationCenterGetLocalCenter(), CFSTR("DefaultDeviceChanged"), arg, NULL, true);
    return NULL;
}

static void notifications(void) {
    CFNotificationCenterRef center = CFNotificationCenterGetLocalCenter();
    EXPECT(center != NULL && CFGetTypeID(center) == CFNotificationCenterGetTypeID(), "local centre");
    EXPECT(CFNotificationCenterGetLocalCenter() == center, "one local centre");
    Observer device, everything, ofEngine;
    memset(&device, 0, sizeof device);
    memset(&everything, 0, sizeof everything);
    memset(&ofEngine, 0, sizeof ofEngine);
    int engine = 1, other = 2;
    CFNotificationCenterAddObserver(center, &device, observe, CFSTR("DefaultDeviceChanged"), NULL,
                                    CFNotificationSuspensionBehaviorDeliverImmediately);
    CFNotificationCenterAddObserver(center, &everything, observe, NULL, NULL, CFNotificationSuspensionBehaviorDeliverImmediately);
    CFNotificationCenterAddObserver(center, &ofEngine, observe, CFSTR("VolumeChanged"), &engine,
                                    CFNotificationSuspensionBehaviorDeliverImmediately);

    SInt32 volume = 70;
    CFNumberRef number = CFNumberCreate(NULL, kCFNumberSInt32Type, &volume);
    const void *keys[] = {CFSTR("volume")};
    const void *values[] = {number};
    CFDictionaryRef info = CFDictionaryCreate(NULL, keys, values, 1, &kCFTypeDictionaryKeyCallBacks, &kCFTypeDictionaryValueCallBacks);
    /* A name made at run time matches by value. */
    CFStringRef volumeName = CFStringCreateWithCString(NULL, "VolumeChanged", kCFStringEncodingUTF8);
    CFNotificationCenterPostNotification(center, volumeName, &engine, info, true);
    EXPECT(ofEngine.calls == 1 && ofEngine.lastObject == &engine && ofEngine.lastInfo == info
           && CFEqual(ofEngine.lastName, CFSTR("VolumeChanged")), "observer of the name and object");
    EXPECT(everything.calls == 1 && everything.lastInfo == info, "observer of every name");
    EXPECT(device.calls == 0, "observer of another name");
    SInt32 got = 0;
    EXPECT(CFNumberGetValue((CFNumberRef)CFDictionaryGetValue(ofEngine.lastInfo, CFSTR("volume")), kCFNumberSInt32Type, &got) && got == 70,
           "user info");
    CFNotificationCenterPostNotification(center, volumeName, &other, NULL, false);
    EXPECT(ofEngine.calls == 1 && everything.calls == 2, "another object");

    /* Delivered at once, on the posting thread. */
    pthread_t poster;
    pthread_create(&poster, NULL, postFromThread, &other);
    pthread_join(poster, NULL);
    EXPECT(device.calls == 1 && pthread_equal(device.lastThread, poster) && device.lastObject == &other,
           "delivered on the posting thread");
    EXPECT(everything.calls == 3, "every name");

    CFNotificationCenterRemoveObserver(center, &everything, CFSTR("VolumeChanged"), NULL);
    CFNotificationCenterPostNotificationWithOptions(center, CFSTR("VolumeChanged"), &engine, NULL, kCFNotificationDeliverImmediately);
    EXPECT(everything.calls == 4 && ofEngine.calls == 2, "removing a name it never registered for leaves the observer (%d)", everything.calls);
    CFNotificationCenterRemoveEveryObserver(center, &everything);
    CFNotificationCenterRemoveObserver(center, &ofEngine, CFSTR("VolumeChanged"), &engine);
    CFNotificationCenterPostNotification(center, CFSTR("VolumeChanged"), &engine, NULL, true);
    EXPECT(everything.calls == 4 && ofEngine.calls == 2, "removed observers are not called");
    CFNotificationCenterRemoveEveryObserver(center, &device);

    /* The Darwin centre: within the process, without object or user info. */
    CFNotificationCenterRef darwin = CFNotificationCenterGetDarwinNotifyCenter();
    Observer d;
    memset(&d, 0, sizeof d);
    EXPECT(darwin != NULL && darwin != center, "Darwin notify centre");
    CFNotificationCenterAddObserver(darwin, &d, observe, CFSTR("com.apple.sound.settingsChangedNotification"), NULL,
                                    CFNotificationSuspensionBehaviorDeliverImmediately);
    CFNotificationCenterPostNotification(darwin, CFSTR("com.apple.sound.settingsChangedNotification"), &engine, info, true);
    EXPECT(d.calls == 1 && d.lastObject == NULL && d.lastInfo == NULL, "Darwin: delivered without object and user info");
    CFNotificationCenterPostNotification(center, CFSTR("com.apple.sound.settingsChangedNotification"), NULL, NULL, true);
    EXPECT(d.calls == 1, "the local centre's posts do not reach the Darwin centre's observers");
    CFNotificationCenterRemoveEveryObserver(darwin, &d);
    CFRelease(volumeName);
    CFRelease(info);
    CFRelease(number);
}

/* ---- Preferences ---- */

static void preferences(void) {
    CFStringRef app = kCFPreferencesCurrentApplication;
    EXPECT(CFPreferencesCopyAppValue(CFSTR("AudioBufferFrames"), app) == NULL, "unset: NULL");
    Boolean valid = true;
    EXPECT(!CFPreferencesGetAppBooleanValue(CFSTR("MuteWhenInactive"), app, &valid) && !valid, "boolean default");
    valid = true;
    EXPECT(CFPreferencesGetAppIntegerValue(CFSTR("AudioBufferFrames"), app, &valid) == 0 && !valid, "integer default");
    EXPECT(CFPreferencesGetAppIntegerValue(CFSTR("AudioBufferFrames"), app, NULL) == 0, "NULL flag");
    EXPECT(CFPreferencesCopyValue(CFSTR("AudioBufferFrames"), app, kCFPreferencesCurrentUser, kCFPreferencesAnyHost) == NULL,
           "CopyValue default");

    SInt32 frames = 512;
    CFNumberRef n = CFNumberCreate(NULL, kCFNumberSInt32Type, &frames);
    CFPreferencesSetAppValue(CFSTR("AudioBufferFrames"), n, app);
    CFPreferencesSetAppValue(CFSTR("MuteWhenInactive"), kCFBooleanTrue, app);
    CFPreferencesSetAppValue(CFSTR("Driver"), CFSTR("coreaudio"), app);
    EXPECT(CFPreferencesAppSynchronize(app), "synchronize");
    valid = false;
    EXPECT(CFPreferencesGetAppIntegerValue(CFSTR("AudioBufferFrames"), app, &valid) == 512 && valid, "integer set");
    valid = false;
    EXPECT(CFPreferencesGetAppBooleanValue(CFSTR("MuteWhenInactive"), app, &valid) && valid, "boolean set");
    valid = true;
    EXPECT(!CFPreferencesGetAppBooleanValue(CFSTR("Driver"), app, &valid) && !valid, "a string that is no boolean");
    CFPropertyListRef driver = CFPreferencesCopyAppValue(CFSTR("Driver"), app);
    EXPECT(driver != NULL && CFEqual(driver, CFSTR("coreaudio")), "string value");
    if (driver) CFRelease(driver);
    CFPropertyListRef same = CFPreferencesCopyValue(CFSTR("AudioBufferFrames"), app, kCFPreferencesCurrentUser, kCFPreferencesAnyHost);
    EXPECT(same != NULL && CFEqual(same, n), "CopyValue of the app's domain");
    if (same) CFRelease(same);
    EXPECT(CFPreferencesCopyAppValue(CFSTR("AudioBufferFrames"), CFSTR("com.example.other")) == NULL, "other application");
    CFPreferencesSetAppValue(CFSTR("AudioBufferFrames"), NULL, app);
    EXPECT(CFPreferencesCopyAppValue(CFSTR("AudioBufferFrames"), app) == NULL, "removed");
    CFPreferencesSetAppValue(CFSTR("MuteWhenInactive"), NULL, app);
    CFPreferencesSetAppValue(CFSTR("Driver"), NULL, app);
    CFRelease(n);
}

/* ---- The main bundle ---- */

static void bundle(void) {
    char exe[4096];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0) { printf("FAIL cannot read /proc/self/exe\n"); failed++; return; }
    exe[len] = 0;
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", exe);
    *strrchr(dir, '/') = 0;

    CFBundleRef main = CFBundleGetMainBundle();
    EXPECT(main != NULL && CFGetTypeID(main) == CFBundleGetTypeID(), "main bundle");
    if (!main) return;
    EXPECT(CFBundleGetIdentifier(main) == NULL, "no identifier");
    EXPECT(CFBundleGetValueForInfoDictionaryKey(main, kCFBundleIdentifierKey) == NULL, "no info dictionary values");
    EXPECT(CFBundleGetBundleWithIdentifier(CFSTR("com.apple.audio.CoreAudio")) == NULL, "no other bundles");
    CFDictionaryRef infoDictionary = CFBundleGetInfoDictionary(main);
    EXPECT(infoDictionary == NULL || CFDictionaryGetCount(infoDictionary) == 0, "empty info dictionary");

    char path[4096];
    CFURLRef url = CFBundleCopyBundleURL(main);
    EXPECT(url && CFURLGetFileSystemRepresentation(url, true, (UInt8 *)path, sizeof path) && strcmp(path, dir) == 0,
           "bundle URL is the executable's directory: %s", url ? path : "(null)");
    if (url) CFRelease(url);
    url = CFBundleCopyResourcesDirectoryURL(main);
    EXPECT(url && CFURLGetFileSystemRepresentation(url, true, (UInt8 *)path, sizeof path) && strcmp(path, dir) == 0,
           "resources directory");
    if (url) CFRelease(url);
    url = CFBundleCopyExecutableURL(main);
    EXPECT(url && CFURLGetFileSystemRepresentation(url, true, (UInt8 *)path, sizeof path) && strcmp(path, exe) == 0,
           "executable URL");
    if (url) CFRelease(url);

    /* A resource beside the executable, as an engine ships its sounds. */
    char resource[4200];
    snprintf(resource, sizeof resource, "%s/cf_services-%d.snd", dir, (int)getpid());
    FILE *f = fopen(resource, "w");
    if (f) { fputs("data", f); fclose(f); }
    char name[64];
    snprintf(name, sizeof name, "cf_services-%d", (int)getpid());
    CFStringRef resourceName = CFStringCreateWithCString(NULL, name, kCFStringEncodingUTF8);
    url = CFBundleCopyResourceURL(main, resourceName, CFSTR("snd"), NULL);
    EXPECT(url && CFURLGetFileSystemRepresentation(url, true, (UInt8 *)path, sizeof path) && strcmp(path, resource) == 0,
           "resource found next to the executable");
    if (url) CFRelease(url);
    EXPECT(CFBundleCopyResourceURL(main, resourceName, CFSTR("wav"), NULL) == NULL, "another extension: NULL");
    EXPECT(CFBundleCopyResourceURL(main, CFSTR("missing-resource"), NULL, NULL) == NULL, "missing: NULL");
    EXPECT(CFBundleCopyResourceURL(main, resourceName, CFSTR("snd"), CFSTR("Sounds")) == NULL, "missing subdirectory: NULL");
    unlink(resource);
    CFRelease(resourceName);
}

/* ---- Misuse: never a crash ---- */

static void misuse(void) {
    EXPECT(CFRunLoopTimerCreate(NULL, 0, 1, 0, 0, NULL, NULL) == NULL, "no callout");
    CFRunLoopAddTimer(CFRunLoopGetCurrent(), NULL, kCFRunLoopDefaultMode);
    CFRunLoopAddTimer(NULL, NULL, NULL);
    CFRunLoopRemoveTimer(NULL, NULL, NULL);
    CFRunLoopTimerInvalidate(NULL);
    CFRunLoopTimerSetNextFireDate(NULL, 0);
    EXPECT(!CFRunLoopTimerIsValid(NULL) && CFRunLoopTimerGetInterval(NULL) == 0 && CFRunLoopTimerGetNextFireDate(NULL) == 0,
           "NULL timer");
    EXPECT(!CFRunLoopTimerIsValid((CFRunLoopTimerRef)CFSTR("not a timer")), "a string is no timer");
    /* A timer invalidated before it is added is never added. */
    int fires = 0;
    CFRunLoopTimerContext context = {0, &fires, NULL, NULL, NULL};
    CFRunLoopTimerRef t = CFRunLoopTimerCreate(NULL, 0, 0, 0, 0, countFire, &context);
    CFRunLoopTimerInvalidate(t);
    CFRunLoopAddTimer(CFRunLoopGetCurrent(), t, kCFRunLoopDefaultMode);
    EXPECT(!CFRunLoopContainsTimer(CFRunLoopGetCurrent(), t, kCFRunLoopDefaultMode), "invalid timers are not added");
    CFRelease(t);
    CFNotificationCenterAddObserver(NULL, NULL, NULL, NULL, NULL, CFNotificationSuspensionBehaviorDrop);
    CFNotificationCenterAddObserver(CFNotificationCenterGetLocalCenter(), NULL, NULL, NULL, NULL, CFNotificationSuspensionBehaviorDrop);
    CFNotificationCenterPostNotification(CFNotificationCenterGetLocalCenter(), NULL, NULL, NULL, true);
    CFNotificationCenterPostNotification(NULL, CFSTR("x"), NULL, NULL, true);
    CFNotificationCenterRemoveObserver(NULL, NULL, NULL, NULL);
    CFNotificationCenterRemoveEveryObserver(NULL, NULL);
    EXPECT(CFPreferencesCopyAppValue(NULL, NULL) == NULL, "NULL key");
    Boolean valid = true;
    EXPECT(!CFPreferencesGetAppBooleanValue(NULL, NULL, &valid) && !valid, "NULL key boolean");
    CFPreferencesSetAppValue(NULL, kCFBooleanTrue, NULL);
    EXPECT(CFBundleGetIdentifier(NULL) == NULL && CFBundleCopyBundleURL(NULL) == NULL
           && CFBundleCopyResourceURL(NULL, CFSTR("a"), NULL, NULL) == NULL, "NULL bundle");
    EXPECT(CFBundleCopyResourceURL(CFBundleGetMainBundle(), NULL, NULL, NULL) == NULL, "NULL resource name");
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "";
    if (!strcmp(mode, "timer")) timers();
    else if (!strcmp(mode, "notify")) notifications();
    else if (!strcmp(mode, "prefs")) preferences();
    else if (!strcmp(mode, "bundle")) bundle();
    else if (!strcmp(mode, "misuse")) misuse();
    else { fprintf(stderr, "usage: %s timer|notify|prefs|bundle|misuse\n", argv[0]); return 2; }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
