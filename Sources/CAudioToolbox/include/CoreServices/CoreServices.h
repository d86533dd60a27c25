/*
 * CoreServices.h — the part of Apple's CoreServices that AudioToolbox programs use: the File
 * Manager's permission constants (fsRdPerm, which programs pass to AudioFileOpenURL), the classic
 * result codes of <CarbonCore/MacErrors.h> (paramErr, eofErr, fnfErr, …) and the Component
 * Manager of <CarbonCore/Components.h> (its types, and the calls that find and open audio units:
 * FindNextComponent, OpenAComponent, …), with the types of <MacTypes.h> and the
 * CoreFoundation subset. The rest of CoreServices (File Manager functions, Launch Services, …)
 * is not provided.
 *
 * swift-audio-queue. Apache License 2.0.
 */
#ifndef __CORESERVICES__
#define __CORESERVICES__

#include <MacTypes.h>
#include <CoreFoundation/CoreFoundation.h>

#include <CarbonCore/MacErrors.h>
#include <CarbonCore/Components.h>

/* Files.h: permissions of the Carbon File Manager. */
#if defined(__clang__) || (defined(__cplusplus) && __cplusplus >= 201103L)
__extension__ enum : SInt8 {
#else
enum {
#endif
    fsCurPerm = 0x00,
    fsRdPerm = 0x01,
    fsWrPerm = 0x02,
    fsRdWrPerm = 0x03,
    fsRdWrShPerm = 0x04
};

#endif /* __CORESERVICES__ */
