// Key frames asked of encoders, and passed on between them.
#include "internal.h"

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

gboolean pc_pad_request_key_frame(GstPad *pad) {
    GstEvent *event = gst_video_event_new_upstream_force_key_unit(GST_CLOCK_TIME_NONE, TRUE, 0);
    return GST_PAD_IS_SINK(pad) ? gst_pad_push_event(pad, event) : gst_pad_send_event(pad, event);
}

void pc_pad_forward_key_unit_requests(GstPad *from, GstPad **targets, guint count, gint rate_num, gint rate_den) {
    PcKeyUnitForward *forward = g_new0(PcKeyUnitForward, 1);
    forward->targets = g_new0(GstPad *, count);
    for (guint i = 0; i < count; i++) forward->targets[i] = gst_object_ref(targets[i]);
    forward->count = count;
    forward->rate_num = rate_num;
    forward->rate_den = rate_den;
    gst_pad_add_probe(from, GST_PAD_PROBE_TYPE_EVENT_UPSTREAM, pc_probe_forward_key_unit, forward, pc_key_unit_forward_free);
}
