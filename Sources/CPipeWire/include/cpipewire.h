// libpipewire-0.3 (MIT) for Swift: the headers, and C functions in place of the parts of its
// API that are macros (method calls on proxies such as pw_core_add_listener) or variadic, which
// Swift cannot call. The symbolic links pipewire/ and spa/ point at the Debian packages'
// headers (libpipewire-0.3-dev, libspa-0.2-dev).
#ifndef CPIPEWIRE_H
#define CPIPEWIRE_H

#include <stdint.h>
#include <stddef.h>
#include <pipewire/pipewire.h>
#include <pipewire/extensions/metadata.h>
#include <spa/param/audio/format-utils.h>
#include <spa/param/props.h>
#include <spa/utils/result.h>

/// pw_core_add_listener: `hook` must stay where it is until spa_hook_remove(hook).
int cpw_core_add_listener(struct pw_core *core, struct spa_hook *hook, const struct pw_core_events *events, void *data);
/// pw_core_sync(core, PW_ID_CORE, seq): the core's `done` event with the returned sequence
/// number follows every request sent before it.
int cpw_core_sync(struct pw_core *core, int seq);
/// pw_core_get_registry with PW_VERSION_REGISTRY and no user data.
struct pw_registry *cpw_core_get_registry(struct pw_core *core);
/// pw_registry_add_listener.
int cpw_registry_add_listener(struct pw_registry *registry, struct spa_hook *hook, const struct pw_registry_events *events, void *data);
/// pw_registry_bind with no user data.
void *cpw_registry_bind(struct pw_registry *registry, uint32_t id, const char *type, uint32_t version);
/// pw_proxy_destroy on a registry (or any proxy).
void cpw_proxy_destroy(void *proxy);
/// An empty property list (pw_properties_new is variadic).
struct pw_properties *cpw_properties_new(void);
/// The version of the library the process runs with (pw_get_library_version).
const char *cpw_library_version(void);

/// Writes an SPA_PARAM_EnumFormat object for raw interleaved audio of `format`
/// (SPA_AUDIO_FORMAT_*), `rate` and `channels` (at most SPA_AUDIO_MAX_CHANNELS), with the
/// channel positions `positions` (SPA_AUDIO_CHANNEL_*; NULL: none), into `buffer` of `size`
/// bytes. Returns the object, inside `buffer`, or NULL when it does not fit.
const struct spa_pod *cpw_audio_format(uint8_t *buffer, uint32_t size, uint32_t format, uint32_t rate,
                                       uint32_t channels, const uint32_t *positions);
/// Reads an SPA_PARAM_Format object of raw audio: 0 and the format, rate and channels, or a
/// negative errno when `param` is not one.
int cpw_parse_audio_format(const struct spa_pod *param, uint32_t *format, uint32_t *rate, uint32_t *channels);

/// The first data block of `buffer`: its memory (NULL when not mapped), its size, and the chunk
/// that says where the valid data is.
void *cpw_buffer_data(struct pw_buffer *buffer, uint32_t *maxsize, struct spa_chunk **chunk);

/// Calls `func(data)` on the thread loop's thread soon, with its lock held, from any thread
/// without waiting (pw_loop_invoke, not blocking): what a data thread uses to have something
/// done on the loop. 0, or a negative errno when the loop's queue is full.
int cpw_thread_loop_invoke(struct pw_thread_loop *loop, void (*func)(void *data), void *data);

// The graph (registry, nodes, links, `default` metadata): graph.c.
#include "cpipewire_graph.h"

#endif
