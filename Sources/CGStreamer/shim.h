// The GStreamer C API as Swift sees it. GLib's type-cast and type-check macros, and the few
// variadic or macro-only calls pipcam needs, are restated here as inline functions because
// Swift imports neither macros with arguments nor C variadic functions. pipcam's own logic in C is not
// here but in CPipcamGst.
#ifndef PIPCAM_CGSTREAMER_SHIM_H
#define PIPCAM_CGSTREAMER_SHIM_H

#include <gst/gst.h>
#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>
#include <gst/video/video.h>
#include <gst/video/gstvideoaggregator.h>
#include <gst/audio/audio.h>
#include <gst/pbutils/pbutils.h>
#include <malloc.h>

// MARK: allocator (malloc.h's option names are negative macros, which Swift does not import)

/// Sets how much free memory the top of a heap keeps before it is given back when a block is freed.
/// glibc also applies it to the heaps of threads' own arenas, whose tops `malloc_trim` leaves alone.
static inline void pc_malloc_set_trim_threshold(int kept_free) {
    mallopt(M_TRIM_THRESHOLD, kept_free);
}

/// Frees blocks up to `largest_recycled` into the heap instead of unmapping them, and keeps up to
/// `kept_free` bytes of free heap before giving memory back to the kernel.
static inline void pc_malloc_recycle_blocks(int largest_recycled, int kept_free) {
    mallopt(M_MMAP_THRESHOLD, largest_recycled);
    pc_malloc_set_trim_threshold(kept_free);
}

/// Gives the free memory inside every heap arena back to the kernel, whole pages at a time.
static inline void pc_malloc_give_back_free_memory(void) {
    malloc_trim(0);
}

// MARK: casts (all GStreamer objects are GObjects; the casts only change the static type)

static inline GObject *pc_object(gpointer p) { return G_OBJECT(p); }
static inline GstObject *pc_gst_object(gpointer p) { return GST_OBJECT(p); }
static inline GstElement *pc_element(gpointer p) { return GST_ELEMENT(p); }
static inline GstBin *pc_bin(gpointer p) { return GST_BIN(p); }
static inline GstPipeline *pc_pipeline(gpointer p) { return GST_PIPELINE(p); }
static inline GstPad *pc_pad(gpointer p) { return GST_PAD(p); }
static inline GstAppSink *pc_app_sink(gpointer p) { return GST_APP_SINK(p); }
static inline GstVideoAggregatorPad *pc_video_aggregator_pad(gpointer p) { return GST_VIDEO_AGGREGATOR_PAD(p); }
static inline GstAppSrc *pc_app_src(gpointer p) { return GST_APP_SRC(p); }

// MARK: type checks

static inline gboolean pc_is_bin(gpointer p) { return GST_IS_BIN(p); }
static inline gboolean pc_is_element(gpointer p) { return GST_IS_ELEMENT(p); }
static inline gboolean pc_is_app_sink(gpointer p) { return GST_IS_APP_SINK(p); }
static inline gboolean pc_is_app_src(gpointer p) { return GST_IS_APP_SRC(p); }
static inline const gchar *pc_object_type_name(gpointer p) { return G_OBJECT_TYPE_NAME(p); }
static inline GObjectClass *pc_object_get_class(gpointer p) { return G_OBJECT_GET_CLASS(p); }
static inline GstElementClass *pc_element_get_class(gpointer p) { return GST_ELEMENT_GET_CLASS(p); }
static inline GstPluginFeature *pc_plugin_feature(gpointer p) { return GST_PLUGIN_FEATURE(p); }
static inline guint pc_object_ref_count(gpointer p) { return G_OBJECT(p)->ref_count; }

// MARK: fundamental GTypes (macros in GLib)

static inline GType pc_type_fundamental(GType t) { return G_TYPE_FUNDAMENTAL(t); }
static inline GType pc_type_boolean(void) { return G_TYPE_BOOLEAN; }
static inline GType pc_type_int(void) { return G_TYPE_INT; }
static inline GType pc_type_uint(void) { return G_TYPE_UINT; }
static inline GType pc_type_long(void) { return G_TYPE_LONG; }
static inline GType pc_type_ulong(void) { return G_TYPE_ULONG; }
static inline GType pc_type_int64(void) { return G_TYPE_INT64; }
static inline GType pc_type_uint64(void) { return G_TYPE_UINT64; }
static inline GType pc_type_float(void) { return G_TYPE_FLOAT; }
static inline GType pc_type_double(void) { return G_TYPE_DOUBLE; }
static inline GType pc_type_string(void) { return G_TYPE_STRING; }
static inline GType pc_type_enum(void) { return G_TYPE_ENUM; }
static inline GType pc_type_flags(void) { return G_TYPE_FLAGS; }
static inline GType pc_type_caps(void) { return GST_TYPE_CAPS; }
static inline GType pc_type_fraction(void) { return GST_TYPE_FRACTION; }
static inline GType pc_type_structure(void) { return GST_TYPE_STRUCTURE; }
static inline GType pc_type_list(void) { return GST_TYPE_LIST; }
static inline GType pc_type_array(void) { return GST_TYPE_ARRAY; }
static inline GType pc_type_int_range(void) { return GST_TYPE_INT_RANGE; }
static inline GType pc_type_fraction_range(void) { return GST_TYPE_FRACTION_RANGE; }
static inline GType pc_value_type(const GValue *v) { return G_VALUE_TYPE(v); }
static inline GType pc_param_spec_value_type(GParamSpec *p) { return G_PARAM_SPEC_VALUE_TYPE(p); }

// GValueArray is deprecated in GLib but still what `level` and other elements put in their messages.
static inline GType pc_type_value_array(void) {
    G_GNUC_BEGIN_IGNORE_DEPRECATIONS
    return G_TYPE_VALUE_ARRAY;
    G_GNUC_END_IGNORE_DEPRECATIONS
}
static inline guint pc_value_array_size(const GValue *v) {
    G_GNUC_BEGIN_IGNORE_DEPRECATIONS
    GValueArray *array = (GValueArray *)g_value_get_boxed(v);
    return array ? array->n_values : 0;
    G_GNUC_END_IGNORE_DEPRECATIONS
}
static inline const GValue *pc_value_array_nth(const GValue *v, guint i) {
    G_GNUC_BEGIN_IGNORE_DEPRECATIONS
    return g_value_array_get_nth((GValueArray *)g_value_get_boxed(v), i);
    G_GNUC_END_IGNORE_DEPRECATIONS
}

// MARK: mini objects (refcounted, not GObjects)

static inline GstCaps *pc_caps_ref(GstCaps *c) { return gst_caps_ref(c); }
static inline void pc_caps_unref(GstCaps *c) { gst_caps_unref(c); }
static inline void pc_sample_unref(GstSample *s) { gst_sample_unref(s); }
static inline void pc_message_unref(GstMessage *m) { gst_message_unref(m); }
static inline GstMessageType pc_message_type(GstMessage *m) { return GST_MESSAGE_TYPE(m); }
static inline GstObject *pc_message_src(GstMessage *m) { return GST_MESSAGE_SRC(m); }
static inline guint32 pc_message_seqnum(GstMessage *m) { return GST_MESSAGE_SEQNUM(m); }
static inline GstClockTime pc_buffer_pts(GstBuffer *b) { return GST_BUFFER_PTS(b); }
static inline GstClockTime pc_buffer_duration(GstBuffer *b) { return GST_BUFFER_DURATION(b); }
static inline GstClockTime pc_clock_time_none(void) { return GST_CLOCK_TIME_NONE; }

// MARK: video and audio info (accessor macros)

static inline guint pc_video_info_n_planes(const GstVideoInfo *i) { return GST_VIDEO_INFO_N_PLANES(i); }
static inline gint pc_video_info_plane_stride(const GstVideoInfo *i, guint p) { return GST_VIDEO_INFO_PLANE_STRIDE(i, p); }
static inline gsize pc_video_info_plane_offset(const GstVideoInfo *i, guint p) { return GST_VIDEO_INFO_PLANE_OFFSET(i, p); }
static inline GstVideoFormat pc_video_info_format(const GstVideoInfo *i) { return GST_VIDEO_INFO_FORMAT(i); }
static inline gint pc_video_info_fps_n(const GstVideoInfo *i) { return GST_VIDEO_INFO_FPS_N(i); }
static inline gint pc_video_info_fps_d(const GstVideoInfo *i) { return GST_VIDEO_INFO_FPS_D(i); }
static inline gpointer pc_video_frame_plane_data(GstVideoFrame *f, guint p) { return GST_VIDEO_FRAME_PLANE_DATA(f, p); }
static inline gint pc_video_frame_plane_stride(GstVideoFrame *f, guint p) { return GST_VIDEO_FRAME_PLANE_STRIDE(f, p); }
static inline gint pc_video_frame_comp_height(GstVideoFrame *f, guint c) { return GST_VIDEO_FRAME_COMP_HEIGHT(f, c); }
static inline gint pc_video_frame_comp_width(GstVideoFrame *f, guint c) { return GST_VIDEO_FRAME_COMP_WIDTH(f, c); }

// MARK: memory pushed without a copy

/// A read-only buffer over `size` bytes at `data`, timed `pts` for `duration`. `release(owner)` runs
/// when the last reference to the memory goes, so whatever keeps `data` valid is let go only then.
static inline GstBuffer *pc_buffer_wrapping(const void *data, gsize size, GstClockTime pts, GstClockTime duration,
                                            gpointer owner, GDestroyNotify release) {
    GstBuffer *buffer = gst_buffer_new_wrapped_full(GST_MEMORY_FLAG_READONLY, (gpointer)data, size, 0, size, owner, release);
    GST_BUFFER_PTS(buffer) = pts;
    GST_BUFFER_DURATION(buffer) = duration;
    return buffer;
}

// MARK: signals (g_signal_connect is a macro)

static inline gulong pc_signal_connect(gpointer instance, const gchar *signal, GCallback handler, gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(instance, signal, handler, data, destroy, (GConnectFlags)0);
}

// MARK: pad probes

/// Whether a probe sees an event of this type (`type` travels as the probe's data).
static inline gboolean pc_probe_info_event_is(GstPadProbeInfo *info, gpointer type) {
    if (!(info->type & GST_PAD_PROBE_TYPE_EVENT_BOTH)) return FALSE;
    GstEvent *event = GST_PAD_PROBE_INFO_EVENT(info);
    return event && GST_EVENT_TYPE(event) == (GstEventType)GPOINTER_TO_UINT(type);
}

static inline gpointer pc_event_type_pointer(GstEventType type) { return GUINT_TO_POINTER(type); }

static inline GstBuffer *pc_probe_info_buffer(GstPadProbeInfo *info) {
    return (info->type & GST_PAD_PROBE_TYPE_BUFFER) ? GST_PAD_PROBE_INFO_BUFFER(info) : NULL;
}

/// A buffer's first block of memory: copies of one buffer (an imagefreeze repeating it) share it, so it
/// tells which picture a copy carries. Compared, never read.
static inline const void *pc_buffer_first_memory(GstBuffer *buffer) {
    return gst_buffer_n_memory(buffer) > 0 ? (const void *)gst_buffer_peek_memory(buffer, 0) : NULL;
}

/// The key name of a navigation key-press event ("s", "space", "Left"), or NULL for any other event.
static inline const gchar *pc_probe_info_key_press(GstPadProbeInfo *info) {
    if (!(info->type & GST_PAD_PROBE_TYPE_EVENT_UPSTREAM)) return NULL;
    GstEvent *event = GST_PAD_PROBE_INFO_EVENT(info);
    if (!event || GST_EVENT_TYPE(event) != GST_EVENT_NAVIGATION) return NULL;
    if (gst_navigation_event_get_type(event) != GST_NAVIGATION_EVENT_KEY_PRESS) return NULL;
    const gchar *key = NULL;
    return gst_navigation_event_parse_key_event(event, &key) ? key : NULL;
}

static inline gboolean pc_buffer_is_delta(GstBuffer *b) { return GST_BUFFER_FLAG_IS_SET(b, GST_BUFFER_FLAG_DELTA_UNIT); }

// MARK: variadic calls

/// Makes `pad` the input an input-selector passes on.
static inline void pc_select_pad(GstElement *selector, GstPad *pad) {
    g_object_set(selector, "active-pad", pad, NULL);
}

static inline GstMessage *pc_message_new_wake(GstObject *src) {
    return gst_message_new_application(src, gst_structure_new_empty("pipcam-bus-wake"));
}

#endif
