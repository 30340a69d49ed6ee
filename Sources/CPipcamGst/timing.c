// Running time: a buffer's presentation time on the pipeline clock's scale, and buffers moved in time.
#include "internal.h"

GstClockTime pc_pad_running_time(GstPad *pad, GstClockTime pts) {
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

GstClockTime pc_sample_running_time(GstSample *sample) {
    GstBuffer *buffer = gst_sample_get_buffer(sample);
    if (!buffer || !GST_BUFFER_PTS_IS_VALID(buffer)) return GST_CLOCK_TIME_NONE;
    GstSegment *segment = gst_sample_get_segment(sample);
    if (!segment || segment->format != GST_FORMAT_TIME) return GST_BUFFER_PTS(buffer);
    return gst_segment_to_running_time(segment, GST_FORMAT_TIME, GST_BUFFER_PTS(buffer));
}

GstBuffer *pc_buffer_retimed(GstSample *sample, GstClockTime origin) {
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

void pc_pad_place_earlier(GstPad *pad, GstClockTime earlier) {
    gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, pc_probe_drop_before, (gpointer)(guintptr)earlier, NULL);
    gst_pad_set_offset(pad, -(gint64)earlier);
}
