// The graph shim declared in cpipewire_graph.h.
#include "cpipewire_graph.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <pipewire/pipewire.h>
#include <pipewire/extensions/metadata.h>
#include <spa/utils/list.h>

/// A node bound for its info (channels, rate), or the `default` metadata.
struct bound {
    struct spa_list link;
    struct aq_pw_graph *graph;
    uint32_t id;
    struct pw_proxy *proxy;
    struct spa_hook object_listener;
};

struct aq_pw_graph {
    struct pw_core *core;
    struct pw_registry *registry;
    struct spa_hook registry_listener;
    const aq_pw_graph_events *events;
    void *data;
    struct spa_list nodes;
    /// The `default` metadata, when bound.
    struct bound *metadata;
};

static void bound_free(struct bound *b) {
    spa_hook_remove(&b->object_listener);
    spa_list_remove(&b->link);
    pw_proxy_destroy(b->proxy);
    free(b);
}

static void node_info(void *data, const struct pw_node_info *info) {
    struct bound *b = data;
    if (info->props != NULL && (info->change_mask & PW_NODE_CHANGE_MASK_PROPS) && b->graph->events->node_info)
        b->graph->events->node_info(b->graph->data, b->id, info->props);
}

static const struct pw_node_events node_events = {
    PW_VERSION_NODE_EVENTS,
    .info = node_info,
};

static int metadata_property(void *data, uint32_t subject, const char *key, const char *type, const char *value) {
    (void)type;
    struct bound *b = data;
    if (b->graph->events->default_property)
        b->graph->events->default_property(b->graph->data, subject, key, value);
    return 0;
}

static const struct pw_metadata_events metadata_events = {
    PW_VERSION_METADATA_EVENTS,
    .property = metadata_property,
};

static struct bound *bind(struct aq_pw_graph *g, uint32_t id, const char *type, uint32_t version) {
    struct bound *b = calloc(1, sizeof(*b));
    if (b == NULL) return NULL;
    b->graph = g;
    b->id = id;
    b->proxy = pw_registry_bind(g->registry, id, type, version, 0);
    if (b->proxy == NULL) {
        free(b);
        return NULL;
    }
    spa_list_init(&b->link);
    return b;
}

static void registry_global(void *data, uint32_t id, uint32_t permissions, const char *type, uint32_t version,
                            const struct spa_dict *props) {
    (void)permissions;
    (void)version;
    struct aq_pw_graph *g = data;
    if (props == NULL) return;
    if (strcmp(type, PW_TYPE_INTERFACE_Node) == 0) {
        const char *class = spa_dict_lookup(props, PW_KEY_MEDIA_CLASS);
        if (class == NULL || strncmp(class, "Audio/", 6) != 0) return;
        if (g->events->node_added) g->events->node_added(g->data, id, props);
        struct bound *b = bind(g, id, PW_TYPE_INTERFACE_Node, PW_VERSION_NODE);
        if (b == NULL) return;
        spa_list_append(&g->nodes, &b->link);
        pw_node_add_listener((struct pw_node *)b->proxy, &b->object_listener, &node_events, b);
    } else if (strcmp(type, PW_TYPE_INTERFACE_Link) == 0) {
        const char *out = spa_dict_lookup(props, PW_KEY_LINK_OUTPUT_NODE);
        const char *in = spa_dict_lookup(props, PW_KEY_LINK_INPUT_NODE);
        if (out == NULL || in == NULL || g->events->link_added == NULL) return;
        g->events->link_added(g->data, id, (uint32_t)strtoul(out, NULL, 10), (uint32_t)strtoul(in, NULL, 10));
    } else if (strcmp(type, PW_TYPE_INTERFACE_Metadata) == 0) {
        const char *name = spa_dict_lookup(props, PW_KEY_METADATA_NAME);
        if (name == NULL || strcmp(name, "default") != 0 || g->metadata != NULL) return;
        struct bound *b = bind(g, id, PW_TYPE_INTERFACE_Metadata, PW_VERSION_METADATA);
        if (b == NULL) return;
        g->metadata = b;
        pw_metadata_add_listener((struct pw_metadata *)b->proxy, &b->object_listener, &metadata_events, b);
    }
}

static void registry_global_remove(void *data, uint32_t id) {
    struct aq_pw_graph *g = data;
    if (g->metadata != NULL && g->metadata->id == id) {
        bound_free(g->metadata);
        g->metadata = NULL;
        if (g->events->default_property) g->events->default_property(g->data, 0, NULL, NULL);
        return;
    }
    struct bound *b;
    spa_list_for_each(b, &g->nodes, link) {
        if (b->id == id) {
            bound_free(b);
            break;
        }
    }
    if (g->events->removed) g->events->removed(g->data, id);
}

static const struct pw_registry_events registry_events = {
    PW_VERSION_REGISTRY_EVENTS,
    .global = registry_global,
    .global_remove = registry_global_remove,
};

aq_pw_graph *aq_pw_graph_new(struct pw_core *core, const aq_pw_graph_events *events, void *data) {
    struct aq_pw_graph *g = calloc(1, sizeof(*g));
    if (g == NULL) return NULL;
    g->core = core;
    g->events = events;
    g->data = data;
    spa_list_init(&g->nodes);
    g->registry = pw_core_get_registry(core, PW_VERSION_REGISTRY, 0);
    if (g->registry == NULL) {
        free(g);
        return NULL;
    }
    pw_registry_add_listener(g->registry, &g->registry_listener, &registry_events, g);
    return g;
}

int aq_pw_graph_set_default(aq_pw_graph *graph, const char *key, const char *value) {
    if (graph->metadata == NULL) return -ENOENT;
    return pw_metadata_set_property((struct pw_metadata *)graph->metadata->proxy, 0, key,
                                    value != NULL ? "Spa:String:JSON" : NULL, value);
}

void aq_pw_graph_destroy(aq_pw_graph *graph) {
    struct bound *b, *next;
    spa_list_for_each_safe(b, next, &graph->nodes, link) bound_free(b);
    if (graph->metadata != NULL) bound_free(graph->metadata);
    spa_hook_remove(&graph->registry_listener);
    pw_proxy_destroy((struct pw_proxy *)graph->registry);
    free(graph);
}

const char *aq_pw_dict_get(const struct spa_dict *dict, const char *key) {
    return dict != NULL ? spa_dict_lookup(dict, key) : NULL;
}
