/*
 * <CarbonCore/CarbonCore.h> — the CarbonCore part of CoreServices provided here: <MacTypes.h>,
 * the classic result codes (<CarbonCore/MacErrors.h>) and the Component Manager's types and the
 * calls that find and open audio units (<CarbonCore/Components.h>).
 *
 * swift-audio-queue. Apache License 2.0.
 */
#ifndef __CARBONCORE__
#define __CARBONCORE__

#include <MacTypes.h>
#include <CarbonCore/MacErrors.h>
#include <CarbonCore/Components.h>

#endif /* __CARBONCORE__ */
