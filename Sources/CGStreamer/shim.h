// The GStreamer C API as Swift sees it. GLib's type-cast and type-check macros, and the few
// variadic or macro-only calls pipcam needs, are restated here as inline functions because
// Swift imports neither macros with arguments nor C variadic functions.
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
#include <math.h>
#include <string.h>
#include <time.h>

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
static inline GType pc_type_boxed(void) { return G_TYPE_BOXED; }
static inline GType pc_type_object(void) { return G_TYPE_OBJECT; }
static inline GType pc_type_caps(void) { return GST_TYPE_CAPS; }
static inline GType pc_type_fraction(void) { return GST_TYPE_FRACTION; }
static inline GType pc_type_structure(void) { return GST_TYPE_STRUCTURE; }
static inline GType pc_type_list(void) { return GST_TYPE_LIST; }
static inline GType pc_type_array(void) { return GST_TYPE_ARRAY; }
static inline GType pc_type_int_range(void) { return GST_TYPE_INT_RANGE; }
static inline GType pc_type_fraction_range(void) { return GST_TYPE_FRACTION_RANGE; }
static inline GType pc_type_double_range(void) { return GST_TYPE_DOUBLE_RANGE; }
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
static inline GstSample *pc_sample_ref(GstSample *s) { return gst_sample_ref(s); }
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

/// A buffer's presentation time as running time (the pipeline clock's scale), using the pad's segment.
/// Encoders shift timestamps (x264enc by 1000 hours) and compensate in the segment, so raw PTS values
/// from different branches only compare after this conversion.
static inline GstClockTime pc_pad_running_time(GstPad *pad, GstClockTime pts) {
    if (!GST_CLOCK_TIME_IS_VALID(pts)) return GST_CLOCK_TIME_NONE;
    GstEvent *event = gst_pad_get_sticky_event(pad, GST_EVENT_SEGMENT, 0);
    if (!event) return pts;
    const GstSegment *segment = NULL;
    gst_event_parse_segment(event, &segment);
    GstClockTime result = segment->format == GST_FORMAT_TIME
        ? gst_segment_to_running_time(segment, GST_FORMAT_TIME, pts) : pts;
    gst_event_unref(event);
    return result;
}

/// Moves the probed buffer, at `running` time, to grid point `frame` of `rate_n`/`rate_d` counted from
/// running time zero, making the buffer writable if it must change.
static inline void pc_probe_info_move_to_grid(GstPadProbeInfo *info, GstClockTime running, guint64 frame, gint rate_n, gint rate_d) {
    GstBuffer *buffer = pc_probe_info_buffer(info);
    GstClockTime pts = GST_BUFFER_PTS(buffer);
    GstClockTime aligned = gst_util_uint64_scale_round(frame, (guint64)rate_d * GST_SECOND, rate_n);
    if (aligned == running || (aligned < running && running - aligned > pts)) return;
    buffer = gst_buffer_make_writable(buffer);
    GST_BUFFER_PTS(buffer) = pts + aligned - running;
    if (GST_BUFFER_DTS_IS_VALID(buffer)) GST_BUFFER_DTS(buffer) = GST_BUFFER_PTS(buffer);
    GST_PAD_PROBE_INFO_DATA(info) = buffer;
}

/// Moves the probed buffer's presentation time onto the frame grid of `rate_n`/`rate_d` counted from
/// running time zero (the nearest picture time). Called from a buffer probe, after
/// `pc_pad_running_time`'s segment is known.
static inline void pc_probe_info_align_to_rate(GstPad *pad, GstPadProbeInfo *info, gint rate_n, gint rate_d) {
    GstBuffer *buffer = pc_probe_info_buffer(info);
    if (!buffer || rate_n <= 0 || rate_d <= 0 || !GST_BUFFER_PTS_IS_VALID(buffer)) return;
    GstClockTime running = pc_pad_running_time(pad, GST_BUFFER_PTS(buffer));
    if (!GST_CLOCK_TIME_IS_VALID(running)) return;
    guint64 frame = gst_util_uint64_scale_round(running, rate_n, (guint64)rate_d * GST_SECOND);
    pc_probe_info_move_to_grid(info, running, frame, rate_n, rate_d);
}

/// The frame grid of one track, and the grid point its last frame was put on.
typedef struct {
    gint rate_n, rate_d;
    gboolean started;
    guint64 last_frame;
} PcFrameGrid;

/// Puts each frame on the grid (as `pc_probe_info_align_to_rate`) and drops a frame that lands on the
/// grid point of the one before: a camera's own frames jitter, and two of them a little under a frame
/// apart around a half-way point would share one time.
static GstPadProbeReturn pc_probe_frame_grid(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    PcFrameGrid *grid = data;
    GstBuffer *buffer = pc_probe_info_buffer(info);
    if (!buffer || !GST_BUFFER_PTS_IS_VALID(buffer)) return GST_PAD_PROBE_OK;
    GstClockTime running = pc_pad_running_time(pad, GST_BUFFER_PTS(buffer));
    if (!GST_CLOCK_TIME_IS_VALID(running)) return GST_PAD_PROBE_OK;
    guint64 frame = gst_util_uint64_scale_round(running, grid->rate_n, (guint64)grid->rate_d * GST_SECOND);
    if (grid->started && frame <= grid->last_frame) return GST_PAD_PROBE_DROP;
    grid->started = TRUE;
    grid->last_frame = frame;
    pc_probe_info_move_to_grid(info, running, frame, grid->rate_n, grid->rate_d);
    return GST_PAD_PROBE_OK;
}

static inline void pc_pad_put_frames_on_grid(GstPad *pad, gint rate_n, gint rate_d) {
    PcFrameGrid *grid = g_new0(PcFrameGrid, 1);
    grid->rate_n = rate_n;
    grid->rate_d = rate_d;
    gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, pc_probe_frame_grid, grid, g_free);
}

/// Frees, once it is done with, a frame that enters the probed queue behind more than `kept` others,
/// instead of giving it back to its pool (a pool keeps every buffer it ever made until it stops): the
/// flag is the one a pool checks to discard a buffer whose memory changed. Atomic, as the frame may be
/// shared by a tee's branches.
static GstPadProbeReturn pc_probe_free_backlogged_frame(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    GstBuffer *buffer = pc_probe_info_buffer(info);
    GstObject *queue = GST_OBJECT_PARENT(pad);
    if (!buffer || !buffer->pool || !queue) return GST_PAD_PROBE_OK;
    guint level = 0;
    g_object_get(queue, "current-level-buffers", &level, NULL);
    if (level > GPOINTER_TO_UINT(data)) g_atomic_int_or(&GST_MINI_OBJECT_FLAGS(buffer), GST_BUFFER_FLAG_TAG_MEMORY);
    return GST_PAD_PROBE_OK;
}

static inline void pc_queue_free_backlogged_frames(GstPad *queue_sink, guint kept) {
    gst_pad_add_probe(queue_sink, GST_PAD_PROBE_TYPE_BUFFER, pc_probe_free_backlogged_frame, GUINT_TO_POINTER(kept), NULL);
}

/// A tag event naming one stream (a muxer makes the title its track's name).
static inline GstEvent *pc_event_new_stream_title(const gchar *title) {
    GstTagList *tags = gst_tag_list_new(GST_TAG_TITLE, title, NULL);
    gst_tag_list_set_scope(tags, GST_TAG_SCOPE_STREAM);
    return gst_event_new_tag(tags);
}

/// Keeps a stream's title in every tag event that leaves `pad`: a parser's later tags (bitrates) replace
/// the sticky tag event, and a muxer started anew for each part of a recording reads only the last one.
static GstPadProbeReturn pc_probe_keep_title(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    (void)pad;
    GstEvent *event = GST_PAD_PROBE_INFO_EVENT(info);
    if (GST_EVENT_TYPE(event) != GST_EVENT_TAG) return GST_PAD_PROBE_OK;
    GstTagList *tags = NULL;
    gst_event_parse_tag(event, &tags);
    if (gst_tag_list_get_scope(tags) != GST_TAG_SCOPE_STREAM) return GST_PAD_PROBE_OK;
    gchar *title = NULL;
    if (gst_tag_list_get_string(tags, GST_TAG_TITLE, &title)) {
        g_free(title);
        return GST_PAD_PROBE_OK;
    }
    GstTagList *titled = gst_tag_list_copy(tags);
    gst_tag_list_add(titled, GST_TAG_MERGE_REPLACE, GST_TAG_TITLE, (const gchar *)data, NULL);
    GST_PAD_PROBE_INFO_DATA(info) = gst_event_new_tag(titled);
    gst_event_unref(event);
    return GST_PAD_PROBE_OK;
}

static inline void pc_pad_keep_title(GstPad *pad, const gchar *title) {
    gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, pc_probe_keep_title, g_strdup(title), g_free);
}

/// Where a request for a key frame that reaches one encoder is passed on to others, at the time of
/// the first picture at or after the one asked (pictures on a grid of `rate_num/rate_den`).
typedef struct {
    GstPad **targets;
    guint count;
    gint rate_num, rate_den;
} PcKeyUnitForward;

static void pc_key_unit_forward_free(gpointer data) {
    PcKeyUnitForward *forward = data;
    for (guint i = 0; i < forward->count; i++) gst_object_unref(forward->targets[i]);
    g_free(forward->targets);
    g_free(forward);
}

static GstPadProbeReturn pc_probe_forward_key_unit(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    (void)pad;
    GstEvent *event = GST_PAD_PROBE_INFO_EVENT(info);
    if (!gst_video_event_is_force_key_unit(event) || GST_EVENT_TYPE(event) != GST_EVENT_CUSTOM_UPSTREAM) return GST_PAD_PROBE_OK;
    GstClockTime running_time = GST_CLOCK_TIME_NONE;
    gboolean all_headers = TRUE;
    guint count = 0;
    if (!gst_video_event_parse_upstream_force_key_unit(event, &running_time, &all_headers, &count)) return GST_PAD_PROBE_OK;
    PcKeyUnitForward *forward = data;
    if (GST_CLOCK_TIME_IS_VALID(running_time) && forward->rate_num > 0 && forward->rate_den > 0) {
        // The picture's times are on this grid, rounded (see pc_probe_info_align_to_rate).
        guint64 second = (guint64)forward->rate_den * GST_SECOND;
        guint64 frames = gst_util_uint64_scale_round(running_time, forward->rate_num, second);
        GstClockTime at = gst_util_uint64_scale_round(frames, second, forward->rate_num);
        if (at < running_time) at = gst_util_uint64_scale_round(frames + 1, second, forward->rate_num);
        running_time = at;
    }
    for (guint i = 0; i < forward->count; i++) {
        gst_pad_send_event(forward->targets[i], gst_video_event_new_upstream_force_key_unit(running_time, all_headers, count));
    }
    return GST_PAD_PROBE_OK;
}

/// Asks the encoders upstream of `pad` for a key frame as soon as they can, with their headers.
/// A sink pad pushes it to its peer; a source pad takes it in as one of its own.
static inline gboolean pc_pad_request_key_frame(GstPad *pad) {
    GstEvent *event = gst_video_event_new_upstream_force_key_unit(GST_CLOCK_TIME_NONE, TRUE, 0);
    return GST_PAD_IS_SINK(pad) ? gst_pad_push_event(pad, event) : gst_pad_send_event(pad, event);
}

static inline void pc_pad_forward_key_unit_requests(GstPad *from, GstPad **targets, guint count, gint rate_num, gint rate_den) {
    PcKeyUnitForward *forward = g_new0(PcKeyUnitForward, 1);
    forward->targets = g_new0(GstPad *, count);
    for (guint i = 0; i < count; i++) forward->targets[i] = gst_object_ref(targets[i]);
    forward->count = count;
    forward->rate_num = rate_num;
    forward->rate_den = rate_den;
    gst_pad_add_probe(from, GST_PAD_PROBE_TYPE_EVENT_UPSTREAM, pc_probe_forward_key_unit, forward, pc_key_unit_forward_free);
}

// MARK: sync signals

/// The sync signals are on for the first `PC_SYNC_ON` of each whole second of the system's monotonic
/// clock, which pipcam's pipelines run on.
#define PC_SYNC_ON (100 * GST_MSECOND)
#define PC_SYNC_BEEP_HZ 1000.0

/// When `pts` on `pad` is, on the system's monotonic clock: its running time plus the base time of the
/// pad's element, on the element's clock, moved onto the monotonic clock (by how far the two read apart
/// now) when the element runs on another clock (a sound card's).
static inline GstClockTime pc_pad_monotonic_time(GstPad *pad, GstClockTime pts) {
    GstClockTime running = pc_pad_running_time(pad, pts);
    GstElement *element = gst_pad_get_parent_element(pad);
    if (!element) return GST_CLOCK_TIME_NONE;
    GstClockTime base = gst_element_get_base_time(element);
    GstClock *clock = gst_element_get_clock(element);
    gst_object_unref(element);
    if (!GST_CLOCK_TIME_IS_VALID(running) || !clock) {
        if (clock) gst_object_unref(clock);
        return GST_CLOCK_TIME_NONE;
    }
    GstClockTime time = running + base;
    GstClock *system = gst_system_clock_obtain();
    if (clock != system) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        time += GST_TIMESPEC_TO_TIME(now) - gst_clock_get_time(clock);
    }
    gst_object_unref(system);
    gst_object_unref(clock);
    return time;
}

/// How much of [start, start + length) the signal is on.
static inline GstClockTime pc_sync_lit(GstClockTime start, GstClockTime length) {
    GstClockTime lit = 0, end = start + length;
    for (GstClockTime second = start / GST_SECOND * GST_SECOND; second < end; second += GST_SECOND) {
        GstClockTime from = MAX(second, start), to = MIN(second + PC_SYNC_ON, end);
        if (to > from) lit += to - from;
    }
    return lit;
}

/// The sync camera's picture (8-bit YUV, black as it arrives): as a camera whose shutter is open for the
/// whole frame sees a lamp that is on for the first 100 ms of each second, the frame's luma is the share
/// of its time the lamp was on. A reader finds the second within the first lit frame from its luma.
static GstPadProbeReturn pc_probe_sync_flash(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    GstBuffer *buffer = pc_probe_info_buffer(info);
    if (!buffer || !GST_BUFFER_PTS_IS_VALID(buffer) || !GST_BUFFER_DURATION_IS_VALID(buffer)) return GST_PAD_PROBE_OK;
    GstClockTime start = pc_pad_monotonic_time(pad, GST_BUFFER_PTS(buffer));
    if (!GST_CLOCK_TIME_IS_VALID(start)) return GST_PAD_PROBE_OK;
    GstClockTime length = GST_BUFFER_DURATION(buffer);
    GstClockTime lit = length > 0 ? pc_sync_lit(start, length) : 0;
    if (lit == 0) return GST_PAD_PROBE_OK;
    GstCaps *caps = gst_pad_get_current_caps(pad);
    GstVideoInfo video;
    gboolean known = caps && gst_video_info_from_caps(&video, caps);
    if (caps) gst_caps_unref(caps);
    if (!known || !GST_VIDEO_FORMAT_INFO_IS_YUV(video.finfo)) return GST_PAD_PROBE_OK;
    buffer = gst_buffer_make_writable(buffer);
    GST_PAD_PROBE_INFO_DATA(info) = buffer;
    GstVideoFrame frame;
    if (!gst_video_frame_map(&frame, &video, buffer, GST_MAP_WRITE)) return GST_PAD_PROBE_OK;
    guint8 luma = (guint8)(16 + gst_util_uint64_scale_round(219, lit, length));
    for (gint row = 0; row < GST_VIDEO_FRAME_COMP_HEIGHT(&frame, 0); row++) {
        guint8 *line = (guint8 *)GST_VIDEO_FRAME_PLANE_DATA(&frame, 0) + row * GST_VIDEO_FRAME_PLANE_STRIDE(&frame, 0);
        memset(line, luma, GST_VIDEO_FRAME_COMP_WIDTH(&frame, 0));
    }
    gst_video_frame_unmap(&frame);
    return GST_PAD_PROBE_OK;
}

static inline void pc_pad_draw_sync_flashes(GstPad *pad) {
    gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, pc_probe_sync_flash, NULL, NULL);
}

/// A buffer that would be placed before the recording's start once moved `data` nanoseconds earlier is
/// dropped: its running time would be invalid, which the compositor of GStreamer 1.22 asserts against.
static GstPadProbeReturn pc_probe_drop_before(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    GstBuffer *buffer = pc_probe_info_buffer(info);
    if (!buffer || !GST_BUFFER_PTS_IS_VALID(buffer)) return GST_PAD_PROBE_OK;
    GstEvent *event = gst_pad_get_sticky_event(pad, GST_EVENT_SEGMENT, 0);
    if (!event) return GST_PAD_PROBE_OK;
    const GstSegment *segment;
    gst_event_parse_segment(event, &segment);
    guint64 running = gst_segment_to_running_time(segment, GST_FORMAT_TIME, GST_BUFFER_PTS(buffer));
    gst_event_unref(event);
    return running == GST_CLOCK_TIME_NONE || running < (GstClockTime)(guintptr)data ? GST_PAD_PROBE_DROP : GST_PAD_PROBE_OK;
}

/// What leaves `pad` is placed `earlier` nanoseconds before its time. The aggregators downstream are made
/// to wait as much longer (their `latency`): the pad says nothing of it in a latency query, which a
/// source made while recording answers too late for the start's, and which would count it twice.
static inline void pc_pad_place_earlier(GstPad *pad, GstClockTime earlier) {
    gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, pc_probe_drop_before, (gpointer)(guintptr)earlier, NULL);
    gst_pad_set_offset(pad, -(gint64)earlier);
}

/// The sync microphone's sound (mono S16 at any rate, silent as it arrives): a 1 kHz beep, half of full
/// scale, on for the first 100 ms of each second, starting at the second itself from a rising zero.
/// `data` is how long after its time a sample is heard, in nanoseconds (signed): nothing for a microphone,
/// a pipeline's latency for a sound card that plays it, less how late a stand-in for a late one beeps.
static GstPadProbeReturn pc_probe_sync_beep(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    GstBuffer *buffer = pc_probe_info_buffer(info);
    if (!buffer || !GST_BUFFER_PTS_IS_VALID(buffer)) return GST_PAD_PROBE_OK;
    GstClockTime start = pc_pad_monotonic_time(pad, GST_BUFFER_PTS(buffer));
    if (GST_CLOCK_TIME_IS_VALID(start)) start += (GstClockTime)(gint64)(gintptr)data;
    GstCaps *caps = gst_pad_get_current_caps(pad);
    GstAudioInfo audio;
    gboolean known = caps && gst_audio_info_from_caps(&audio, caps);
    if (caps) gst_caps_unref(caps);
    if (!GST_CLOCK_TIME_IS_VALID(start) || !known || GST_AUDIO_INFO_FORMAT(&audio) != GST_AUDIO_FORMAT_S16 || GST_AUDIO_INFO_CHANNELS(&audio) != 1)
        return GST_PAD_PROBE_OK;
    // audiotestsrc marks its silence as a gap, which mixers would take as silence still and a sound card
    // would not play: the sound between beeps is silence played, not a gap.
    buffer = gst_buffer_make_writable(buffer);
    GST_PAD_PROBE_INFO_DATA(info) = buffer;
    GST_BUFFER_FLAG_UNSET(buffer, GST_BUFFER_FLAG_GAP);
    gsize count = gst_buffer_get_size(buffer) / 2;
    gint rate = GST_AUDIO_INFO_RATE(&audio);
    if (pc_sync_lit(start, gst_util_uint64_scale(count, GST_SECOND, rate)) == 0) return GST_PAD_PROBE_OK;
    GstMapInfo map;
    if (!gst_buffer_map(buffer, &map, GST_MAP_WRITE)) return GST_PAD_PROBE_OK;
    gint16 *samples = (gint16 *)map.data;
    for (gsize i = 0; i < count; i++) {
        GstClockTime at = start + gst_util_uint64_scale(i, GST_SECOND, rate);
        GstClockTime into = at % GST_SECOND;
        samples[i] = into < PC_SYNC_ON ? (gint16)(16384 * sin(2 * G_PI * PC_SYNC_BEEP_HZ * (double)into / GST_SECOND)) : 0;
    }
    gst_buffer_unmap(buffer, &map);
    return GST_PAD_PROBE_OK;
}

static inline void pc_pad_sound_sync_beeps(GstPad *pad, gint64 heard_after) {
    gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, pc_probe_sync_beep, (gpointer)(gintptr)heard_after, NULL);
}

// MARK: samples taken from pads, and buffers pushed back in

/// The buffer as a sample with the pad's caps and segment, so its running time can be computed later.
static inline GstSample *pc_sample_from_pad(GstPad *pad, GstBuffer *buffer) {
    GstCaps *caps = gst_pad_get_current_caps(pad);
    GstEvent *event = gst_pad_get_sticky_event(pad, GST_EVENT_SEGMENT, 0);
    const GstSegment *segment = NULL;
    if (event) gst_event_parse_segment(event, &segment);
    GstSample *sample = gst_sample_new(buffer, caps, segment, NULL);
    if (caps) gst_caps_unref(caps);
    if (event) gst_event_unref(event);
    return sample;
}

/// A sample's presentation time as running time, from the segment it carries (raw PTS otherwise).
static inline GstClockTime pc_sample_running_time(GstSample *sample) {
    GstBuffer *buffer = gst_sample_get_buffer(sample);
    if (!buffer || !GST_BUFFER_PTS_IS_VALID(buffer)) return GST_CLOCK_TIME_NONE;
    GstSegment *segment = gst_sample_get_segment(sample);
    if (!segment || segment->format != GST_FORMAT_TIME) return GST_BUFFER_PTS(buffer);
    return gst_segment_to_running_time(segment, GST_FORMAT_TIME, GST_BUFFER_PTS(buffer));
}

/// The buffer's pixels copied (not shared) into a sample with the pad's caps, timed at zero: a picture
/// that stays valid after the device it came from is gone, to be shown again later (text overlays
/// discard a picture without a time).
static inline GstSample *pc_sample_copied_from_pad(GstPad *pad, GstBuffer *buffer) {
    GstCaps *caps = gst_pad_get_current_caps(pad);
    if (!caps) return NULL;
    GstBuffer *copy = gst_buffer_copy_deep(buffer);
    GST_BUFFER_PTS(copy) = 0;
    GST_BUFFER_DTS(copy) = GST_BUFFER_DURATION(copy) = GST_CLOCK_TIME_NONE;
    GstSample *sample = gst_sample_new(copy, caps, NULL, NULL);
    gst_buffer_unref(copy);
    gst_caps_unref(caps);
    return sample;
}

/// The same picture (its buffer shared) with raw video's interlace-mode written out where its caps leave
/// it unsaid, as progressive (what GStreamer assumes then). PipeWire's cameras leave it unsaid.
static inline GstSample *pc_sample_interlace_stated(GstSample *sample) {
    GstCaps *caps = gst_sample_get_caps(sample);
    if (!caps) return gst_sample_ref(sample);
    GstCaps *stated = gst_caps_copy(caps);
    for (guint i = 0; i < gst_caps_get_size(stated); i++) {
        GstStructure *structure = gst_caps_get_structure(stated, i);
        if (gst_structure_has_name(structure, "video/x-raw") && !gst_structure_has_field(structure, "interlace-mode"))
            gst_structure_set(structure, "interlace-mode", G_TYPE_STRING, "progressive", NULL);
    }
    GstSample *result = gst_sample_new(gst_sample_get_buffer(sample), stated, gst_sample_get_segment(sample), NULL);
    gst_caps_unref(stated);
    return result;
}

static inline gboolean pc_buffer_is_delta(GstBuffer *b) { return GST_BUFFER_FLAG_IS_SET(b, GST_BUFFER_FLAG_DELTA_UNIT); }

/// A copy sharing the buffer's memory (no pixels copied), with its times given as running times moved
/// back by `origin`, so a clip cut out of a running stream starts at zero.
static inline GstBuffer *pc_buffer_retimed(GstSample *sample, GstClockTime origin) {
    GstBuffer *buffer = gst_sample_get_buffer(sample);
    GstSegment *segment = gst_sample_get_segment(sample);
    GstBuffer *copy = gst_buffer_copy(buffer);
    GstClockTime pts = GST_BUFFER_PTS(copy), dts = GST_BUFFER_DTS(copy);
    if (segment && segment->format == GST_FORMAT_TIME) {
        if (GST_CLOCK_TIME_IS_VALID(pts)) pts = gst_segment_to_running_time(segment, GST_FORMAT_TIME, pts);
        if (GST_CLOCK_TIME_IS_VALID(dts)) dts = gst_segment_to_running_time(segment, GST_FORMAT_TIME, dts);
    }
    GST_BUFFER_PTS(copy) = GST_CLOCK_TIME_IS_VALID(pts) ? (pts > origin ? pts - origin : 0) : GST_CLOCK_TIME_NONE;
    GST_BUFFER_DTS(copy) = GST_CLOCK_TIME_IS_VALID(dts) ? (dts > origin ? dts - origin : 0) : GST_CLOCK_TIME_NONE;
    return copy;
}

// MARK: pausing a recording

/// The stretches of running time a recording was paused for, shared by the probes on every encoder's
/// input: what falls inside one is dropped, what comes after is moved earlier by all of them before it,
/// so each encoder sees one unbroken stream, and pictures and sound are cut at the same times whatever
/// their latency. Spans are kept as start, end pairs (end NONE while paused), in order. Each starts and
/// ends on the picture's frame grid (`rate_n`/`rate_d` from running time zero, none when 0), so a pause
/// leaves out whole pictures and the file's pictures go on one frame apart.
typedef struct {
    GMutex lock;
    GArray *spans;
    gint rate_n, rate_d;
} PcPauseGate;

static inline PcPauseGate *pc_pause_gate_new(gint rate_n, gint rate_d) {
    PcPauseGate *gate = g_atomic_rc_box_new0(PcPauseGate);
    g_mutex_init(&gate->lock);
    gate->spans = g_array_new(FALSE, FALSE, sizeof(GstClockTime));
    gate->rate_n = rate_n;
    gate->rate_d = rate_d;
    return gate;
}

/// The first grid point at or after `running`: the time the grid probes give that picture.
static GstClockTime pc_pause_gate_on_grid(PcPauseGate *gate, GstClockTime running) {
    if (gate->rate_n <= 0 || gate->rate_d <= 0) return running;
    guint64 frame = gst_util_uint64_scale_ceil(running, gate->rate_n, (guint64)gate->rate_d * GST_SECOND);
    return gst_util_uint64_scale_round(frame, (guint64)gate->rate_d * GST_SECOND, gate->rate_n);
}

static void pc_pause_gate_clear(gpointer data) {
    PcPauseGate *gate = data;
    g_array_free(gate->spans, TRUE);
    g_mutex_clear(&gate->lock);
}

static void pc_pause_gate_release(gpointer data) { g_atomic_rc_box_release_full(data, pc_pause_gate_clear); }

static inline void pc_pause_gate_unref(PcPauseGate *gate) { pc_pause_gate_release(gate); }

/// Whether what is at `running` is kept (outside every pause), and how much earlier it then goes.
static gboolean pc_pause_gate_shift_locked(PcPauseGate *gate, GstClockTime running, GstClockTime *shift) {
    *shift = 0;
    for (guint i = 0; i + 1 < gate->spans->len; i += 2) {
        GstClockTime start = g_array_index(gate->spans, GstClockTime, i), end = g_array_index(gate->spans, GstClockTime, i + 1);
        if (running < start) break;
        if (!GST_CLOCK_TIME_IS_VALID(end) || running < end) return FALSE;
        *shift += end - start;
    }
    return TRUE;
}

static GstPadProbeReturn pc_probe_pause_gate(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    PcPauseGate *gate = data;
    GstBuffer *buffer = pc_probe_info_buffer(info);
    if (!buffer || !GST_BUFFER_PTS_IS_VALID(buffer)) return GST_PAD_PROBE_OK;
    GstClockTime running = pc_pad_running_time(pad, GST_BUFFER_PTS(buffer));
    if (!GST_CLOCK_TIME_IS_VALID(running)) return GST_PAD_PROBE_OK;
    GstClockTime shift = 0;
    g_mutex_lock(&gate->lock);
    gboolean kept = pc_pause_gate_shift_locked(gate, running, &shift);
    g_mutex_unlock(&gate->lock);
    if (!kept) return GST_PAD_PROBE_DROP;
    if (shift == 0) return GST_PAD_PROBE_OK;
    buffer = gst_buffer_make_writable(buffer);
    GstClockTime pts = GST_BUFFER_PTS(buffer), dts = GST_BUFFER_DTS(buffer);
    GST_BUFFER_PTS(buffer) = pts > shift ? pts - shift : 0;
    if (GST_CLOCK_TIME_IS_VALID(dts)) GST_BUFFER_DTS(buffer) = dts > shift ? dts - shift : 0;
    GST_PAD_PROBE_INFO_DATA(info) = buffer;
    return GST_PAD_PROBE_OK;
}

/// Puts `pad` (an encoder's input) behind the gate.
static inline void pc_pause_gate_attach(PcPauseGate *gate, GstPad *pad) {
    gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, pc_probe_pause_gate, g_atomic_rc_box_acquire(gate), pc_pause_gate_release);
}

/// Opens a pause at `running` (nothing after it passes); false when one is open already.
static inline gboolean pc_pause_gate_pause(PcPauseGate *gate, GstClockTime running) {
    g_mutex_lock(&gate->lock);
    guint count = gate->spans->len;
    gboolean open = count > 0 && !GST_CLOCK_TIME_IS_VALID(g_array_index(gate->spans, GstClockTime, count - 1));
    GstClockTime last = count > 0 ? g_array_index(gate->spans, GstClockTime, count - 1) : 0;
    if (!open) {
        GstClockTime start = pc_pause_gate_on_grid(gate, MAX(running, last)), none = GST_CLOCK_TIME_NONE;
        g_array_append_val(gate->spans, start);
        g_array_append_val(gate->spans, none);
    }
    g_mutex_unlock(&gate->lock);
    return !open;
}

/// Ends the open pause at `running`; returns how long it lasted, or NONE when none was open.
static inline GstClockTime pc_pause_gate_resume(PcPauseGate *gate, GstClockTime running) {
    g_mutex_lock(&gate->lock);
    guint count = gate->spans->len;
    GstClockTime length = GST_CLOCK_TIME_NONE;
    if (count >= 2 && !GST_CLOCK_TIME_IS_VALID(g_array_index(gate->spans, GstClockTime, count - 1))) {
        GstClockTime start = g_array_index(gate->spans, GstClockTime, count - 2);
        GstClockTime end = MAX(pc_pause_gate_on_grid(gate, running), start);
        g_array_index(gate->spans, GstClockTime, count - 1) = end;
        length = end - start;
    }
    g_mutex_unlock(&gate->lock);
    return length;
}

/// Where `running` falls in the recording's files: earlier by every pause before it, and at the
/// pause's start when it falls inside one.
static inline GstClockTime pc_pause_gate_file_time(PcPauseGate *gate, GstClockTime running) {
    g_mutex_lock(&gate->lock);
    GstClockTime shift = 0, at = running;
    for (guint i = 0; i + 1 < gate->spans->len; i += 2) {
        GstClockTime start = g_array_index(gate->spans, GstClockTime, i), end = g_array_index(gate->spans, GstClockTime, i + 1);
        if (running < start) break;
        if (!GST_CLOCK_TIME_IS_VALID(end) || running < end) {
            at = start;
            break;
        }
        shift += end - start;
    }
    g_mutex_unlock(&gate->lock);
    return at > shift ? at - shift : 0;
}

/// When the open pause began, or NONE; and in `total`, how long every pause has lasted up to `running`.
static inline GstClockTime pc_pause_gate_open_since(PcPauseGate *gate, GstClockTime running, GstClockTime *total) {
    g_mutex_lock(&gate->lock);
    GstClockTime since = GST_CLOCK_TIME_NONE;
    *total = 0;
    for (guint i = 0; i + 1 < gate->spans->len; i += 2) {
        GstClockTime start = g_array_index(gate->spans, GstClockTime, i), end = g_array_index(gate->spans, GstClockTime, i + 1);
        if (!GST_CLOCK_TIME_IS_VALID(end)) {
            since = start;
            end = MAX(running, start);
        }
        *total += end - start;
    }
    g_mutex_unlock(&gate->lock);
    return since;
}

// MARK: variadic calls

/// Makes `pad` the input an input-selector passes on.
static inline void pc_select_pad(GstElement *selector, GstPad *pad) {
    g_object_set(selector, "active-pad", pad, NULL);
}

static inline GstMessage *pc_message_new_wake(GstObject *src) {
    return gst_message_new_application(src, gst_structure_new_empty("pipcam-bus-wake"));
}

#endif
