/*
 * Reads a file's metadata the way a Mac tag reader does, run by FileMetadataTests.swift:
 *   file_metadata FILE [ARTWORK_OUT]
 * prints the info dictionary (key=value a line, in no particular order, then count=N), writes
 * the album artwork's bytes to ARTWORK_OUT when there is one, and prints "artwork=N bytes" or
 * "artwork=none". Exits 1 with the failing call's name on an error.
 */
#include <AudioToolbox/AudioToolbox.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void CheckError(OSStatus error, const char *operation) {
    if (error == noErr) return;
    fprintf(stderr, "Error: %s (%d)\n", operation, (int)error);
    exit(1);
}

static void PrintEntry(const void *key, const void *value, void *context) {
    char k[256], v[1024];
    (void)context;
    if (CFGetTypeID((CFTypeRef)key) != CFStringGetTypeID() || CFGetTypeID((CFTypeRef)value) != CFStringGetTypeID()) {
        printf("non-string entry\n");
        return;
    }
    CFStringGetCString((CFStringRef)key, k, sizeof k, kCFStringEncodingUTF8);
    CFStringGetCString((CFStringRef)value, v, sizeof v, kCFStringEncodingUTF8);
    printf("%s=%s\n", k, v);
}

int main(int argc, const char *argv[]) {
    if (argc < 2) {
        fprintf(stderr, "usage: file_metadata FILE [ARTWORK_OUT]\n");
        return 2;
    }
    CFURLRef url = CFURLCreateFromFileSystemRepresentation(kCFAllocatorDefault, (const UInt8 *)argv[1], (CFIndex)strlen(argv[1]), false);
    AudioFileID file;
    CheckError(AudioFileOpenURL(url, kAudioFileReadPermission, 0, &file), "AudioFileOpenURL");
    CFRelease(url);

    UInt32 size = 0, writable = 0;
    CheckError(AudioFileGetPropertyInfo(file, kAudioFilePropertyInfoDictionary, &size, &writable), "AudioFileGetPropertyInfo info");
    if (size != sizeof(CFDictionaryRef)) { fprintf(stderr, "info size %u\n", (unsigned)size); return 1; }
    CFDictionaryRef info = NULL;
    CheckError(AudioFileGetProperty(file, kAudioFilePropertyInfoDictionary, &size, &info), "AudioFileGetProperty info");
    CFDictionaryApplyFunction(info, PrintEntry, NULL);
    printf("count=%ld\n", (long)CFDictionaryGetCount(info));
    CFStringRef title = CFDictionaryGetValue(info, CFSTR(kAFInfoDictionary_Title));
    if (title) {
        char t[256];
        CFStringGetCString(title, t, sizeof t, kCFStringEncodingUTF8);
        printf("kAFInfoDictionary_Title=%s\n", t);
    }
    CFRelease(info);

    CFDataRef artwork = NULL;
    size = sizeof artwork;
    CheckError(AudioFileGetProperty(file, kAudioFilePropertyAlbumArtwork, &size, &artwork), "AudioFileGetProperty aart");
    if (artwork) {
        printf("artwork=%ld bytes\n", (long)CFDataGetLength(artwork));
        if (argc > 2) {
            FILE *out = fopen(argv[2], "wb");
            if (!out) { perror(argv[2]); return 1; }
            fwrite(CFDataGetBytePtr(artwork), 1, (size_t)CFDataGetLength(artwork), out);
            fclose(out);
        }
        CFRelease(artwork);
    } else {
        printf("artwork=none\n");
    }
    CheckError(AudioFileClose(file), "AudioFileClose");
    return 0;
}
