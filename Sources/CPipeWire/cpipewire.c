#include "cpipewire.h"

int cpw_core_add_listener(struct pw_core *core, struct spa_hook *hook, const struct pw_core_events *events, void *data) {
    return pw_core_add_listener(core, hook, events, data);
}

int cpw_core_sync(struct pw_core *core, int seq) {
    return pw_core_sync(core, PW_ID_CORE, seq);
}

struct pw_registry *cpw_core_get_registry(struct pw_core *core) {
    return pw_core_get_registry(core, PW_VERSION_REGISTRY, 0);
}

int cpw_registry_add_listener(struct pw_registry *registry, struct spa_hook *hook, const struct pw_registry_events *events, void *data) {
    return pw_registry_add_listener(registry, hook, events, data);
}

void *cpw_registry_bind(struct pw_registry *registry, uint32_t id, const char *type, uint32_t version) {
    return pw_registry_bind(registry, id, type, version, 0);
}

void cpw_proxy_destroy(void *proxy) {
    pw_proxy_destroy((struct pw_proxy *)proxy);
}

struct pw_properties *cpw_properties_new(void) {
    return pw_properties_new(NULL, NULL);
}

const char *cpw_library_version(void) {
    return pw_get_library_version();
}

const struct spa_pod *cpw_audio_format(uint8_t *buffer, uint32_t size, uint32_t format, uint32_t rate,
                                       uint32_t channels, const uint32_t *positions) {
    if (channels == 0 || channels > SPA_AUDIO_MAX_CHANNELS) return NULL;
    struct spa_pod_builder b = SPA_POD_BUILDER_INIT(buffer, size);
    struct spa_audio_info_raw info;
    memset(&info, 0, sizeof(info));
    info.format = (enum spa_audio_format)format;
    info.rate = rate;
    info.channels = channels;
    if (positions) {
        for (uint32_t i = 0; i < channels; i++) info.position[i] = positions[i];
    } else {
        info.flags = SPA_AUDIO_FLAG_UNPOSITIONED;
    }
    return spa_format_audio_raw_build(&b, SPA_PARAM_EnumFormat, &info);
}

int cpw_parse_audio_format(const struct spa_pod *param, uint32_t *format, uint32_t *rate, uint32_t *channels) {
    uint32_t media_type = 0, media_subtype = 0;
    if (param == NULL) return -EINVAL;
    if (spa_format_parse(param, &media_type, &media_subtype) < 0) return -EINVAL;
    if (media_type != SPA_MEDIA_TYPE_audio || media_subtype != SPA_MEDIA_SUBTYPE_raw) return -EINVAL;
    struct spa_audio_info_raw info;
    memset(&info, 0, sizeof(info));
    if (spa_format_audio_raw_parse(param, &info) < 0) return -EINVAL;
    *format = info.format;
    *rate = info.rate;
    *channels = info.channels;
    return 0;
}

void *cpw_buffer_data(struct pw_buffer *buffer, uint32_t *maxsize, struct spa_chunk **chunk) {
    struct spa_buffer *b = buffer->buffer;
    if (b == NULL || b->n_datas < 1 || b->datas[0].data == NULL) return NULL;
    *maxsize = b->datas[0].maxsize;
    *chunk = b->datas[0].chunk;
    return b->datas[0].data;
}

struct cpw_call {
    void (*func)(void *data);
    void *data;
};

static int cpw_do_call(struct spa_loop *loop, bool async, uint32_t seq, const void *data, size_t size, void *user_data) {
    (void)loop; (void)async; (void)seq; (void)size; (void)user_data;
    const struct cpw_call *call = data;
    call->func(call->data);
    return 0;
}

int cpw_thread_loop_invoke(struct pw_thread_loop *loop, void (*func)(void *data), void *data) {
    struct cpw_call call = { func, data };
    return pw_loop_invoke(pw_thread_loop_get_loop(loop), cpw_do_call, 0, &call, sizeof(call), false, NULL);
}
