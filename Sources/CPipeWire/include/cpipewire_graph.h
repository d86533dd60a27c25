// The PipeWire graph as the device list and the default-following streams need it: audio nodes,
// links, and the `default` metadata, from a registry of its own on a connected core. C functions
// over libpipewire's macro-only API (pw_core_get_registry, pw_registry_add_listener,
// pw_registry_bind, pw_node_add_listener, pw_metadata_add_listener, pw_metadata_set_property),
// for AudioDevicePipeWire's PipeWireGraph. Every function but aq_pw_dict_get is called with the
// core's thread loop locked (or on its thread); every event comes on that thread. Round trips
// (pw_core_sync) and the core's errors are the connection's (cpw_core_sync, its listener).
#ifndef CPIPEWIRE_GRAPH_H
#define CPIPEWIRE_GRAPH_H

#include <stdint.h>

struct pw_core;
struct spa_dict;

/// A registry and its listener, its bound audio nodes and its `default` metadata.
typedef struct aq_pw_graph aq_pw_graph;

/// What the graph reports (any member may be NULL).
typedef struct aq_pw_graph_events {
    /// An audio node (media.class "Audio/…": sinks, sources, virtual sources) appeared; `props`
    /// are its global properties (node.name, node.description, media.class).
    void (*node_added)(void *data, uint32_t id, const struct spa_dict *props);
    /// The node's own properties came or changed (audio.channels, audio.rate, node.description).
    void (*node_info)(void *data, uint32_t id, const struct spa_dict *props);
    /// A link from a port of node `output_node` to a port of node `input_node` appeared.
    void (*link_added)(void *data, uint32_t id, uint32_t output_node, uint32_t input_node);
    /// A global the graph reported (a node or a link) went away.
    void (*removed)(void *data, uint32_t id);
    /// A property of the `default` metadata was set (`value` NULL: removed; `key` NULL: all
    /// removed): default.audio.sink and the like, a JSON value such as {"name":"aqtest"}.
    void (*default_property)(void *data, uint32_t subject, const char *key, const char *value);
} aq_pw_graph_events;

/// Makes a registry of `core` and listens to it: every global the server has is reported, then
/// every change. `events` and `data` must outlive the graph. NULL when no registry can be had.
aq_pw_graph *aq_pw_graph_new(struct pw_core *core, const aq_pw_graph_events *events, void *data);

/// Sets `key` (default.configured.audio.sink, …) of the `default` metadata on subject 0 to the
/// JSON `value` (NULL removes it). -ENOENT when the server has no `default` metadata.
int aq_pw_graph_set_default(aq_pw_graph *graph, const char *key, const char *value);

/// Stops listening and lets go of the registry and every bound object.
void aq_pw_graph_destroy(aq_pw_graph *graph);

/// The value of `key` in `dict`, or NULL.
const char *aq_pw_dict_get(const struct spa_dict *dict, const char *key);

#endif
